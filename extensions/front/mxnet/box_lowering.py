"""MXNet's anchor and box-coding ops as formulas of opset ops: _contrib_MultiBoxPrior, _contrib_box_decode.

MultiBoxPrior's anchors depend only on the feature map's size, so with MXNet's static shapes they fold into a
constant; box_decode is element-wise arithmetic on the four coordinates.
"""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.formulas import concat, dims, ints
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp, Exp
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Minimum, Mul, Sub
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.split import Split
from mo.ops.squeeze import Squeeze

F32 = np.float32


def _f32(b: Builder, value, suffix: str):
    return b.const(np.array(value, F32), suffix, F32)


def _coordinates(b: Builder, boxes, suffix: str):
    """The four coordinates of ``boxes [..., 4]`` as four ``[..., 1]`` outputs."""
    split = b.op(Split, [boxes, ints(b, -1, suffix + '/axis')], suffix, num_splits=4)
    return [split.out_port(k) for k in range(4)]


def corners(b: Builder, cx, cy, half_w, half_h, suffix: str, clip=False):
    """``[cx - w, cy - h, cx + w, cy + h]`` along the last axis."""
    parts = [b.op(Sub, [cx, half_w], suffix + '/x1'), b.op(Sub, [cy, half_h], suffix + '/y1'),
             b.op(Add, [cx, half_w], suffix + '/x2'), b.op(Add, [cy, half_h], suffix + '/y2')]
    joined = b.op(Concat, parts, suffix, axis=-1, in_ports_count=4)
    return b.op(Clamp, [joined], suffix + '/clip', min=0.0, max=1.0) if clip else joined


class BoxDecodeLowering(OpRule):
    """_contrib_box_decode(deltas, anchors) = corner boxes of centre a + d * std * a's size and size a * exp(d *
    std) (the exponent at most clip when clip > 0); anchors in corner (format corner) or centre form."""
    op = 'MXcontrib_box_decode'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        std = [attr.float('std{}'.format(k), 1.0) for k in range(4)]
        clip = attr.float('clip', -1.0)
        dx, dy, dw, dh = _coordinates(b, node.in_port(0), 'deltas')
        a = _coordinates(b, node.in_port(1), 'anchors')
        if attr.str('format', 'center') == 'corner':
            aw, ah = b.op(Sub, [a[2], a[0]], 'aw'), b.op(Sub, [a[3], a[1]], 'ah')
            half = _f32(b, 0.5, 'half')
            ax = b.op(Add, [a[0], b.op(Mul, [aw, half], 'half_aw')], 'ax')
            ay = b.op(Add, [a[1], b.op(Mul, [ah, half], 'half_ah')], 'ay')
        else:
            ax, ay, aw, ah = a
        x = b.op(Add, [b.op(Mul, [b.op(Mul, [dx, _f32(b, std[0], 'std0')], 'sdx'), aw], 'ox_d'), ax], 'ox')
        y = b.op(Add, [b.op(Mul, [b.op(Mul, [dy, _f32(b, std[1], 'std1')], 'sdy'), ah], 'oy_d'), ay], 'oy')
        ew, eh = b.op(Mul, [dw, _f32(b, std[2], 'std2')], 'sdw'), b.op(Mul, [dh, _f32(b, std[3], 'std3')], 'sdh')
        if clip > 0:
            ew, eh = b.op(Minimum, [ew, _f32(b, clip, 'clip_w')], 'cdw'), b.op(Minimum, [eh, _f32(b, clip, 'clip_h')],
                                                                               'cdh')
        half = _f32(b, 0.5, 'half_size')
        w = b.op(Mul, [b.op(Mul, [b.op(Exp, [ew], 'exp_w'), aw], 'ow_full'), half], 'ow')
        h = b.op(Mul, [b.op(Mul, [b.op(Exp, [eh], 'exp_h'), ah], 'oh_full'), half], 'oh')
        return corners(b, x, y, w, h, 'boxes')


class MultiBoxPriorLowering(OpRule):
    """_contrib_MultiBoxPrior(x) = for each cell (i, j) of x's H x W grid, centre ((j + offset_x) * step_x, (i +
    offset_y) * step_y) (steps -1: 1 / W, 1 / H), the anchors of every size with ratio 1 then of sizes[0] with
    each further ratio: half width size * H / W * sqrt(ratio) / 2, half height size / sqrt(ratio) / 2, as
    [1, H * W * anchors, 4] corners (clipped to [0, 1] with clip)."""
    op = 'MXcontrib_MultiBoxPrior'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        sizes = list(attr.tuple('sizes', (1.0,), item='float'))
        ratios = list(attr.tuple('ratios', (1.0,), item='float'))
        steps = list(attr.tuple('steps', (-1.0, -1.0), item='float'))
        offsets = list(attr.tuple('offsets', (0.5, 0.5), item='float'))
        # (size, ratio) of each anchor at a cell, in MXNet's order
        shapes = [(s, 1.0) for s in sizes] + [(sizes[0], r) for r in ratios[1:]]
        width_factor = np.array([s * np.sqrt(r) / 2 for s, r in shapes], F32)
        half_h = np.array([s / np.sqrt(r) / 2 for s, r in shapes], F32)

        def size(index, tag):
            scalar = b.op(Squeeze, [dims(b, x, [index], tag + '/dim'), ints(b, [0], tag + '/axis')], tag + '/scalar')
            return b.op(Convert, [scalar], tag, dst_type=np.dtype(F32))

        height, width = size(2, 'height'), size(3, 'width')

        def centres(count, step, offset, tag):
            index = b.op(Range, [_f32(b, 0, tag + '/start'), count, _f32(b, 1, tag + '/delta')], tag + '/index',
                         output_type=F32)
            shifted = b.op(Add, [index, _f32(b, offset, tag + '/offset')], tag + '/shifted')
            if step > 0:
                return b.op(Mul, [shifted, _f32(b, step, tag + '/step')], tag)
            return b.op(Div, [shifted, count], tag)

        cy = b.op(Reshape, [centres(height, steps[0], offsets[0], 'cy'), ints(b, [-1, 1, 1, 1], 'cy_shape')],
                  'cy_grid')
        cx = b.op(Reshape, [centres(width, steps[1], offsets[1], 'cx'), ints(b, [1, -1, 1, 1], 'cx_shape')],
                  'cx_grid')
        aspect = b.op(Div, [height, width], 'aspect')
        half_w = b.op(Reshape, [b.op(Mul, [_f32(b, width_factor, 'width_factor'), aspect], 'half_w'),
                                ints(b, [1, 1, -1, 1], 'anchor_shape_w')], 'half_w_grid')
        half_h = b.op(Reshape, [_f32(b, half_h, 'half_h'), ints(b, [1, 1, -1, 1], 'anchor_shape_h')], 'half_h_grid')
        grid = concat(b, [dims(b, x, [2, 3], 'grid_hw'), ints(b, [len(shapes), 1], 'grid_a1')], 'grid')
        cx, cy = b.op(Broadcast, [cx, grid], 'cx_full'), b.op(Broadcast, [cy, grid], 'cy_full')
        half_w, half_h = b.op(Broadcast, [half_w, grid], 'half_w_full'), b.op(Broadcast, [half_h, grid], 'half_h_full')
        boxes = corners(b, cx, cy, half_w, half_h, 'boxes', clip=attr.bool('clip', False))
        return b.op(Reshape, [boxes, ints(b, [1, -1, 4], 'shape')], 'anchors')
