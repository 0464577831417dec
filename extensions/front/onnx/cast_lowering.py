"""ONNX Cast/CastLike to float8 with ``saturate`` (the default): OpenVINO's Convert overflows instead.

OpenVINO's Convert to f8e4m3 turns a value beyond the type's largest finite value (448) into NaN and to f8e5m2
(57344) into inf, as ONNX's Cast does with ``saturate=0``. With ``saturate=1`` ONNX gives +-max for those and
for +-inf, so the rule clamps first::

    Convert(Select(|x| > max, Sign(x) * max, x), float8)

Select, not Clamp: Clamp makes NaN a bound, and NaN must stay NaN (``|NaN| > max`` is false). Values just
above max that round down to it give max either way.

OpenVINO's CPU plugin converts to f4e2m1 and f8e8m0 from f32, f16 and bf16 only, and from them to floats only:
other casts go through f32 (``ONNXCastViaF32``). From float64 that rounds twice (to f32, then to float4), which
differs from one rounding only for a double within half an f32 ulp of a float4 tie; the plugin computes f64 in
f32 anyway.
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Clamp
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Greater, Mul, Sign
from mo.ops.select import Select

# Types by numpy name (``np.dtype(t).name``): the narrow ones are ml_dtypes', imported only when a model has one.
#: the types OpenVINO converts to and from f4e2m1 and f8e8m0 directly
DIRECT_TYPES = ('float32', 'float16', 'bfloat16')
#: the types OpenVINO converts to and from only those
F32_ONLY_TYPES = ('float4_e2m1fn', 'float8_e8m0fnu')
#: the float8 types with a saturating ONNX Cast, and their largest finite values
FLOAT8_MAX = {'float8_e4m3fn': 448.0, 'float8_e5m2': 57344.0}
#: ml_dtypes' float types (numpy kind 'V'), by name
FLOAT_NAMES = ('bfloat16', 'float8_e4m3fn', 'float8_e5m2', 'float8_e8m0fnu', 'float4_e2m1fn')
#: the 4-bit integer types' ranges
NIBBLE_RANGE = {'int4': (-8.0, 7.0), 'uint4': (0.0, 15.0)}


def saturating_convert(b: Builder, x, dst_type, tag: str):
    """``Convert(Select(|x| > max, Sign(x) * max, x), dst_type)`` for float8 ``dst_type``; its nodes are named
    ``<tag>/...``."""
    # max is exact in every float type (f16, bf16, f32, f64): 448 = 1.75 * 2^8, 57344 = 1.75 * 2^15
    limit = b.op(ConvertLike, [b.const(np.float32(FLOAT8_MAX[np.dtype(dst_type).name]), tag + '/max_value'), x],
                 tag + '/max')
    beyond = b.op(Greater, [b.op(Abs, [x], tag + '/abs'), limit], tag + '/beyond')
    signed_max = b.op(Mul, [b.op(Sign, [x], tag + '/sign'), limit], tag + '/signed_max')
    clamped = b.op(Select, [beyond, signed_max, x], tag + '/saturated')
    return b.op(Convert, [clamped], tag + '/convert', dst_type=np.dtype(dst_type))


class SaturatingCastLowering(OpRule):
    """ONNXSaturatingCast(x; dst_type) = Convert(Select(|x| > max, Sign(x) * max, x), dst_type)."""
    op = 'ONNXSaturatingCast'

    def rewrite(self, node: Node, b: Builder):
        return saturating_convert(b, node.in_port(0).get_source(), node.dst_type, 'cast')


class ClampedCastLowering(OpRule):
    """ONNXClampedCast(x; dst_type) = Convert(Clamp(x, min, max), dst_type) for int4/uint4: ONNX saturates a value
    out of the type's range, OpenVINO's Convert would keep its low four bits."""
    op = 'ONNXClampedCast'

    def rewrite(self, node: Node, b: Builder):
        low, high = NIBBLE_RANGE[np.dtype(node.dst_type).name]
        clamped = b.op(Clamp, [node.in_port(0)], 'saturated', min=low, max=high)
        return b.op(Convert, [clamped], 'convert', dst_type=np.dtype(node.dst_type))


class CastViaF32Lowering(OpRule):
    """ONNXCastViaF32(x; dst_type) = Convert(Convert(x, f32), dst_type): to or from float4e2m1 (float8e8m0) and a
    type OpenVINO does not convert it from or to."""
    op = 'ONNXCastViaF32'

    def rewrite(self, node: Node, b: Builder):
        as_f32 = b.op(Convert, [node.in_port(0).get_source()], 'to_f32', dst_type=np.dtype(np.float32))
        return b.op(Convert, [as_f32], 'convert', dst_type=np.dtype(node.dst_type))
