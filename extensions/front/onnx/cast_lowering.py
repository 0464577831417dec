"""ONNX Cast/CastLike to float8 with ``saturate`` (the default): OpenVINO's Convert overflows instead.

OpenVINO's Convert to f8e4m3 turns a value beyond the type's largest finite value (448) into NaN and to f8e5m2
(57344) into inf, as ONNX's Cast does with ``saturate=0``. With ``saturate=1`` ONNX gives +-max for those and
for +-inf, so the rule clamps first::

    Convert(Select(|x| > max, Sign(x) * max, x), float8)

Select, not Clamp: Clamp makes NaN a bound, and NaN must stay NaN (``|NaN| > max`` is false). Values just
above max that round down to it give max either way.
"""
import ml_dtypes
import numpy as np

from extensions.ops.onnx_tensor import ConvertLike
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.convert import Convert
from mo.ops.elementwise import Greater, Mul
from mo.ops.elementwise_more import Sign
from mo.ops.select import Select

#: the float8 types with a saturating ONNX Cast, and their largest finite values
FLOAT8_MAX = {np.dtype(ml_dtypes.float8_e4m3fn): 448.0, np.dtype(ml_dtypes.float8_e5m2): 57344.0}


def saturating_convert(b: Builder, x, dst_type, tag: str):
    """``Convert(Select(|x| > max, Sign(x) * max, x), dst_type)`` for float8 ``dst_type``; its nodes are named
    ``<tag>/...``."""
    # max is exact in every float type (f16, bf16, f32, f64): 448 = 1.75 * 2^8, 57344 = 1.75 * 2^15
    limit = b.op(ConvertLike, [b.const(np.float32(FLOAT8_MAX[np.dtype(dst_type)]), tag + '/max_value'), x],
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
