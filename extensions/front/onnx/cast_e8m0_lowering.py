"""ONNX Cast/CastLike to float8e8m0 (a power of two 2^(E - 127), E = 0..254; 255 is NaN) with its ``round_mode``
and ``saturate``, which OpenVINO's Convert to f8e8m0 does not have: it rounds to the nearest exponent with ties to
the even one, gives 2^-127 for negatives and -inf and 2^127 for +inf.

ONNX (its reference, which the backend suite's data come from) takes the biased exponent E of the value as
float32 and ignores the sign: ``down`` keeps E, ``up`` adds 1 when the float32 mantissa is not 0, ``nearest``
when its top bit is 1 (ties up); subnormal float32 (E = 0) add 1 for ``up`` when not 0 and for ``nearest`` above
2^-127. An increment past E = 254 gives NaN, or keeps 254 with ``saturate``. inf and NaN give NaN (whatever
``saturate``; the spec's table says E8M0_MAX for inf, its reference and test data NaN). So, with ``a = |x|`` in f32::

    d      = largest power of two <= a (2^-127 for a < 2^-126)     E as a value
    result = d * 2 where a > d (up) / a >= 1.5 * d (nearest), else d;  2^-126 / 2^-127 for subnormal a
    y      = Convert(result where a is finite else NaN, f8e8m0)

``d`` is exact without reading bits: OpenVINO's own Convert of ``clamp(a, 2^-126, 2^127)`` to f8e8m0 and back is
2^E or 2^(E+1) (any rounding gives one of them), halved where it is above ``a``. Every step is exact in f32
(powers of two and their products by 1.5 and 2; 2^-127 is an f32 subnormal, which the CPU plugin keeps), and the
final Convert only sees powers of two and NaN, which every rounding converts alike.
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.convert import Convert
from mo.ops.elementwise import Greater, GreaterEqual, Less, Maximum, Minimum, Mul
from mo.ops.select import Select
from mo.utils import narrow_types

#: numpy's name of ml_dtypes' float8_e8m0fnu (imported only when a model casts to it)
E8M0_NAME = 'float8_e8m0fnu'
ROUND_MODES = ('up', 'down', 'nearest')
_F32 = np.float32
_MIN_NORMAL, _MAX = 2.0 ** -126, 2.0 ** 127
_SUBNORMAL_HALF = 2.0 ** -127
#: the smallest f32 above 2^-127 (a subnormal): ``a > 2^-127`` as ``a >= this``
_ABOVE_HALF = float(np.nextafter(np.float32(_SUBNORMAL_HALF), np.float32(1)))


def _const(b: Builder, value, tag: str):
    return b.const(np.array(value, _F32), tag, _F32)


def e8m0_convert(b: Builder, x, round_mode: str, saturate: bool, tag: str):
    """ONNX's cast of ``x`` (any numeric type) to float8e8m0 with ``round_mode`` and ``saturate``; nodes named
    ``<tag>/...``."""
    a = b.op(Abs, [b.op(Convert, [x], tag + '/to_f32', dst_type=np.dtype(_F32))], tag + '/abs')
    clamped = b.op(Minimum, [b.op(Maximum, [a, _const(b, _MIN_NORMAL, tag + '/min_normal')], tag + '/at_least'),
                             _const(b, _MAX, tag + '/max')], tag + '/clamped')
    e8m0 = narrow_types.dtype(E8M0_NAME)
    near = b.op(Convert, [b.op(Convert, [clamped], tag + '/estimate', dst_type=e8m0)], tag + '/estimate_f32',
                dst_type=np.dtype(_F32))
    half = b.op(Mul, [near, _const(b, 0.5, tag + '/one_half')], tag + '/halved')
    normal_d = b.op(Select, [b.op(Greater, [near, clamped], tag + '/above'), half, near], tag + '/normal_floor')
    normal = b.op(GreaterEqual, [a, _const(b, _MIN_NORMAL, tag + '/min_normal_value')], tag + '/normal')
    floor = b.op(Select, [normal, normal_d, _const(b, _SUBNORMAL_HALF, tag + '/subnormal_floor')], tag + '/floor')
    if round_mode == 'down':
        result = floor
    else:
        # round up where a passes a threshold: a > d (up), a >= 1.5 d (nearest); for subnormal a, a > 0 (up) and
        # a > 2^-127 (nearest), written as a >= the next f32 above each
        if round_mode == 'up':
            normal_threshold = normal_d
            subnormal_threshold = float(np.nextafter(np.float32(0), np.float32(1)))
            normal_up = b.op(Greater, [a, normal_threshold], tag + '/normal_up')
        else:
            normal_threshold = b.op(Mul, [normal_d, _const(b, 1.5, tag + '/three_halves')], tag + '/midpoint')
            subnormal_threshold = _ABOVE_HALF
            normal_up = b.op(GreaterEqual, [a, normal_threshold], tag + '/normal_up')
        subnormal_up = b.op(GreaterEqual, [a, _const(b, subnormal_threshold, tag + '/subnormal_threshold')],
                            tag + '/subnormal_up')
        goes_up = b.op(Select, [normal, normal_up, subnormal_up], tag + '/goes_up')
        # past 2^127: 2^127 with saturate, else NaN (the doubling is of at most 2^126: no overflow to fold)
        top = _const(b, _MAX if saturate else np.nan, tag + '/past_max')
        twice = b.op(Mul, [b.op(Minimum, [floor, _const(b, _MAX / 2, tag + '/half_max')], tag + '/below_top'),
                           _const(b, 2.0, tag + '/two')], tag + '/twice')
        doubled = b.op(Select, [b.op(Less, [floor, _const(b, _MAX, tag + '/max_value')], tag + '/below_max'),
                                twice, top], tag + '/next_power')
        result = b.op(Select, [goes_up, doubled, floor], tag + '/rounded')
    finite = b.op(Less, [a, _const(b, np.inf, tag + '/inf')], tag + '/finite')  # false for inf and NaN
    result = b.op(Select, [finite, result, _const(b, np.nan, tag + '/nan')], tag + '/special')
    return b.op(Convert, [result], tag + '/convert', dst_type=e8m0)


class CastE8M0Lowering(OpRule):
    """ONNXCastE8M0(x; round_mode, saturate) = Convert(ONNX's power of two of |x| (see module), f8e8m0)."""
    op = 'ONNXCastE8M0'

    def rewrite(self, node: Node, b: Builder):
        return e8m0_convert(b, node.in_port(0).get_source(), node.round_mode, node.saturate, 'cast')
