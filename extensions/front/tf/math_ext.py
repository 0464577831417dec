"""Extractors for TensorFlow's math ops beyond the basic element-wise set.

One-to-one ops (trigonometric, hyperbolic, Floor, Ceil, Round, Softsign, IsNan/IsInf/IsFinite) get
their opset op here. The others keep their TF name as an internal op, with their element type in
``data_type``, and ``math_lowering`` builds them from opset ops.
"""
from extensions.front.tf.lowered_ext import LoweredExtractor
from mo.front.extractor import FrontExtractorOp, opset_type
from mo.front.tf.extractor_utils import tf_dtype_attr
from mo.ops import activation_ops, math_ops

#: TF op -> the opset op it is
_ONE_TO_ONE = {
    'Sin': math_ops.Sin, 'Cos': math_ops.Cos, 'Tan': math_ops.Tan, 'Asin': math_ops.Asin, 'Acos': math_ops.Acos,
    'Atan': math_ops.Atan, 'Sinh': math_ops.Sinh, 'Cosh': math_ops.Cosh, 'Asinh': math_ops.Asinh,
    'Acosh': math_ops.Acosh, 'Atanh': math_ops.Atanh, 'Softsign': math_ops.SoftSign, 'Round': math_ops.Round,
    'IsNan': math_ops.IsNaN, 'IsInf': math_ops.IsInf, 'IsFinite': math_ops.IsFinite,
    'Floor': activation_ops.Floor, 'Ceil': activation_ops.Ceiling,
}

#: TF op -> what math_lowering makes of it
LOWERED = {
    'FloorDiv': 'Floor(Divide) (floats); the truncated quotient corrected toward -inf (integers)',
    'TruncateDiv': 'Sign(x) * Sign(y) * Divide(|x|, |y|) (integers); Ceiling or Floor of Divide (floats)',
    'DivNoNan': 'Select(Equal(y, 0), 0, Divide(x, y))',
    'Atan2': 'Atan(y / x) with the quadrant corrections, from Select (IEEE signed zeros, infinities, NaN)',
    'AddN': 'a chain of Add',
    'Reciprocal': 'Divide(1, x)', 'Inv': 'Divide(1, x)',
    'Expm1': '(u - 1) * x / Log(u), u = Exp(x) (Kahan: small x keep their precision)',
    'Log1p': 'Log(u) * x / (u - 1), u = 1 + x (small x keep their precision)',
    'ClipByValue': 'Maximum(Minimum(x, max), min) (min wins where min > max, as in TF)',
    'ZerosLike': 'Broadcast(0, ShapeOf(x))', 'OnesLike': 'Broadcast(1, ShapeOf(x))',
    'Size': 'ReduceProd(ShapeOf(x))', 'Rank': 'Squeeze(ShapeOf(ShapeOf(x)))',
    'BroadcastTo': 'Broadcast (numpy)',
}


class OneToOneMathExtractor(FrontExtractorOp):
    """Element-wise math ops with an opset op of the same meaning (Round rounds half to even, as TF)."""
    op = sorted(_ONE_TO_ONE)

    @classmethod
    def describe(cls, op):
        return opset_type(_ONE_TO_ONE[op])

    @classmethod
    def extract(cls, node):
        _ONE_TO_ONE[node.op].update_node_stat(node, {})
        return True


class LoweredMathExtractor(LoweredExtractor):
    """Math ops built from several opset ops by ``math_lowering``."""
    op = sorted(LOWERED)
    table = LOWERED

    @classmethod
    def attributes(cls, node):
        return {'out_type': tf_dtype_attr(node, 'out_type', None)}
