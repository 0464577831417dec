"""TensorFlow's colour-space image ops, extracted and built from opset ops with the arithmetic of TF's CPU
kernels: RGBToHSV, HSVToRGB (the Eigen formulas of ``colorspace_op.h``), AdjustSaturation and AdjustHue (the
per-pixel helpers of ``adjust_saturation_op.cc`` / ``adjust_hue_op.cc``: hue categories, TF's comparison order for
ties, the hue wrapped into [0, 6) and zero-range pixels given hue 0). The channels are the last dimension.

Half and bfloat16 images are computed in float32 and cast back (TF computes in the image's type: expect the
last bits of a half result to differ).
"""
import numpy as np

from mo.front.common.formula_kit import F32, I64, floor
from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_dtype_attr
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.concat import Concat
from mo.ops.elementwise import (Add, Div, Equal, FloorMod, Greater, GreaterEqual, Less, LessEqual, LogicalAnd,
                                LogicalNot, Maximum, Minimum, Mul, Sub)
from mo.ops.select import Select
from mo.ops.split import Split
from extensions.front.tf.tensor_ext import set_op


class _ColorExtractor(FrontExtractorOp):
    _abstract = True

    @classmethod
    def extract(cls, node):
        set_op(node, node.op, {'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32)),
                               'in_ports_count': 2, 'out_ports_count': 1})
        return True


class RGBToHSVExtractor(_ColorExtractor):
    """RGBToHSV -> TF's formula on the channels (max, range, hue sector by the channel equal to the max)."""
    op = 'RGBToHSV'


class HSVToRGBExtractor(_ColorExtractor):
    """HSVToRGB -> TF's formula: (1 - s + s * clamp(|6h - 3| - 1, ...)) * v per channel."""
    op = 'HSVToRGB'


class AdjustSaturationExtractor(_ColorExtractor):
    """AdjustSaturation -> TF's per-pixel rgb -> hsv, s * scale clamped to [0, 1], hsv -> rgb by hue category."""
    op = 'AdjustSaturation'


class AdjustHueExtractor(_ColorExtractor):
    """AdjustHue -> TF's per-pixel hue range: hue + 6 delta wrapped into [0, 6), rgb rebuilt from min/mid/max."""
    op = 'AdjustHue'


class _Calc:
    """Element-wise float32 arithmetic on a builder, each node named by a running tag."""

    def __init__(self, b):
        self.b = b
        self.count = 0

    def _tag(self, name):
        self.count += 1
        return '{}_{}'.format(name, self.count)

    def c(self, value, dtype=F32):
        return self.b.const(value, self._tag('c'), dtype)

    def __getattr__(self, name):
        ops = {'add': Add, 'sub': Sub, 'mul': Mul, 'div': Div, 'max': Maximum, 'min': Minimum, 'eq': Equal,
               'lt': Less, 'gt': Greater, 'le': LessEqual, 'ge': GreaterEqual, 'and_': LogicalAnd,
               'mod': FloorMod}
        if name not in ops:
            raise AttributeError(name)
        return lambda x, y: self.b.op(ops[name], [x, y], self._tag(name))

    def where(self, cond, x, y):
        return self.b.op(Select, [cond, x, y], self._tag('select'))

    def abs(self, x):
        return self.b.op(Abs, [x], self._tag('abs'))

    def not_(self, x):
        return self.b.op(LogicalNot, [x], self._tag('not'))


def _channels(b, node):
    """(r, g, b) of input 0 as float32 [..., 1] each."""
    image = node.in_port(0)
    if np.dtype(node.data_type) != F32:
        image = b.cast(image, F32, 'float')
    split = b.op(Split, [image, b.const(-1, 'channels/axis', I64)], 'channels', num_splits=3)
    return split.out_port(0), split.out_port(1), split.out_port(2)


def _result(b, node, parts):
    image = b.op(Concat, list(parts), 'image', axis=-1, in_ports_count=3)
    return image if np.dtype(node.data_type) == F32 else b.cast(image, node.data_type, 'result')


def _rgb_to_hsv(k: _Calc, r, g, bl):
    """TF's rgb -> (h in [0, 1), s, v)."""
    v = k.max(r, k.max(g, bl))
    low = k.min(r, k.min(g, bl))
    span = k.sub(v, low)
    s = k.where(k.gt(v, k.c(0)), k.div(span, v), k.c(0))
    norm = k.div(k.c(1), k.mul(k.c(6), span))
    h = k.where(k.eq(r, v), k.mul(norm, k.sub(g, bl)),
                k.where(k.eq(g, v), k.add(k.mul(norm, k.sub(bl, r)), k.c(2.0 / 6.0)),
                        k.add(k.mul(norm, k.sub(r, g)), k.c(4.0 / 6.0))))
    h = k.where(k.gt(span, k.c(0)), h, k.c(0))
    h = k.where(k.lt(h, k.c(0)), k.add(h, k.c(1)), h)
    return h, s, v


class RGBToHSVLowering(OpRule):
    """RGBToHSV(images): v = max, s = range / v (0 where v = 0), h by the first channel equal to v (r, g, b), 0 for a
    zero range, wrapped into [0, 1)."""
    op = 'RGBToHSV'

    def rewrite(self, node: Node, b: Builder):
        return _result(b, node, _rgb_to_hsv(_Calc(b), *_channels(b, node)))


class HSVToRGBLowering(OpRule):
    """HSVToRGB(images): channel = (1 - s + s * d) * v with TF's clamped sawtooths d of 6h."""
    op = 'HSVToRGB'

    def rewrite(self, node: Node, b: Builder):
        k = _Calc(b)
        h, s, v = _channels(b, node)
        dh = k.mul(h, k.c(6))
        zero, one = k.c(0), k.c(1)
        dr = k.min(k.max(k.sub(k.abs(k.sub(dh, k.c(3))), one), zero), one)
        dg = k.min(k.max(k.sub(k.c(2), k.abs(k.sub(dh, k.c(2)))), zero), one)
        db = k.min(k.max(k.sub(k.c(2), k.abs(k.sub(dh, k.c(4)))), zero), one)
        rest = k.sub(one, s)
        return _result(b, node, [k.mul(k.add(rest, k.mul(s, d)), v) for d in (dr, dg, db)])


def _by_category(k: _Calc, category, table, default):
    """``table[category]`` (a list of per-category tensors) by Selects; ``default`` for any other category."""
    result = default
    for index in reversed(range(len(table))):
        result = k.where(k.eq(category, k.c(index)), table[index], result)
    return result


class AdjustSaturationLowering(OpRule):
    """AdjustSaturation(images, scale): TF's rgb -> hsv per pixel, s = clamp(s * scale, 0, 1), then hsv -> rgb by
    the hue category int(6h) (c = s v, x = c (1 - |6h mod 2 - 1|), m = v - c)."""
    op = 'AdjustSaturation'

    def rewrite(self, node: Node, b: Builder):
        k = _Calc(b)
        h, s, v = _rgb_to_hsv(k, *_channels(b, node))
        scale = b.cast(node.in_port(1), F32, 'scale_f32')
        s = k.min(k.max(k.mul(s, scale), k.c(0)), k.c(1))
        c = k.mul(s, v)
        m = k.sub(v, c)
        dh = k.mul(h, k.c(6))
        category = floor(b, dh, 'category')  # dh >= 0: truncation is floor
        x = k.mul(c, k.sub(k.c(1), k.abs(k.sub(k.mod(dh, k.c(2)), k.c(1)))))
        zero = k.c(0)
        rr = _by_category(k, category, [c, x, zero, zero, x, c], zero)
        gg = _by_category(k, category, [x, c, c, x, zero, zero], zero)
        bb = _by_category(k, category, [zero, zero, x, c, c, x], zero)
        return _result(b, node, [k.add(part, m) for part in (rr, gg, bb)])


class AdjustHueLowering(OpRule):
    """AdjustHue(images, delta): per pixel TF's (hue in [0, 6), min, max) from the channel order (ties as TF's
    comparisons take them), hue + 6 delta wrapped into [0, 6), the channels rebuilt as max, mid and min."""
    op = 'AdjustHue'

    def rewrite(self, node: Node, b: Builder):
        k = _Calc(b)
        r, g, bl = _channels(b, node)
        # TF: r < g ? (b < r ? 1 : b > g ? 3 : 2) : (b < g ? 0 : b > r ? 4 : 5)
        r_lt_g = k.lt(r, g)
        category = k.where(r_lt_g,
                           k.where(k.lt(bl, r), k.c(1), k.where(k.gt(bl, g), k.c(3), k.c(2))),
                           k.where(k.lt(bl, g), k.c(0), k.where(k.gt(bl, r), k.c(4), k.c(5))))
        high = k.max(r, k.max(g, bl))
        low = k.min(r, k.min(g, bl))
        # the middle channel of each category: 0 g, 1 r, 2 b, 3 g, 4 r, 5 b
        mid = _by_category(k, category, [g, r, bl, g, r, bl], bl)
        span = k.sub(high, low)
        ratio = k.div(k.sub(mid, low), span)
        odd = k.eq(k.mod(category, k.c(2)), k.c(1))
        hue = k.add(category, k.where(odd, k.sub(k.c(1), ratio), ratio))
        hue = k.where(k.eq(high, low), k.c(0), hue)
        delta = b.cast(node.in_port(1), F32, 'delta_f32')
        hue = k.add(hue, k.mul(delta, k.c(6)))
        hue = k.mod(hue, k.c(6))
        hue = k.where(k.ge(hue, k.c(6)), k.sub(hue, k.c(6)), hue)  # a tiny negative hue wraps to 6 - 0
        category = floor(b, hue, 'new_category')
        ratio = k.sub(hue, category)
        odd = k.eq(k.mod(category, k.c(2)), k.c(1))
        ratio = k.where(odd, k.sub(k.c(1), ratio), ratio)
        middle = k.add(low, k.mul(ratio, span))
        rr = _by_category(k, category, [high, middle, low, low, middle], high)
        gg = _by_category(k, category, [middle, high, high, middle, low], low)
        bb = _by_category(k, category, [low, low, middle, high, high], middle)
        return _result(b, node, [rr, gg, bb])
