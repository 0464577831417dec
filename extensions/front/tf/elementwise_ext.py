"""Extractors for TensorFlow's element-wise ops (binary, comparisons, logical, unary).

Most map one-to-one onto an opset op. Neg/RealDiv/AddV2 are renames; Rsqrt, Square and Erfc keep
their TF names as internal ops (with ``data_type`` from ``T``) for ``tf_elementwise_lowering``.
"""
from mo.front.extractor import FrontExtractorOp, OpTableExtractor
from mo.front.tf.extractor_utils import tf_dtype_attr
from mo.ops import activation_ops, elementwise

#: TF op type -> (mo Op class, extra attrs)
_BINARY = {
    'Add': elementwise.Add, 'AddV2': elementwise.Add, 'Sub': elementwise.Sub, 'Mul': elementwise.Mul,
    'RealDiv': elementwise.Div, 'Maximum': elementwise.Maximum, 'Minimum': elementwise.Minimum,
    'Pow': elementwise.Pow, 'SquaredDifference': elementwise.SquaredDifference,
    'LessEqual': elementwise.LessEqual, 'GreaterEqual': elementwise.GreaterEqual,
    'NotEqual': elementwise.NotEqual, 'LogicalOr': elementwise.LogicalOr,
    'Less': elementwise.Less, 'Greater': elementwise.Greater, 'Equal': elementwise.Equal,
    'LogicalAnd': elementwise.LogicalAnd,
}

_UNARY = {
    'Neg': activation_ops.Negative, 'Sqrt': activation_ops.Sqrt, 'Exp': activation_ops.Exp,
    'Log': activation_ops.Log, 'Abs': activation_ops.Abs, 'Erf': activation_ops.Erf,
    'Sigmoid': activation_ops.Sigmoid, 'Tanh': activation_ops.Tanh, 'Sign': elementwise.Sign,
    'LogicalNot': elementwise.LogicalNot,
}

#: TF ops lowered to opset ops by a front replacer, and what they become
_LOWERED = {'Rsqrt': '1 / Sqrt', 'Square': 'Multiply(x, x)', 'Erfc': '1 - Erf'}


class BinaryElementwiseExtractor(OpTableExtractor):
    """Binary element-wise ops -> the opset op of the same meaning (numpy broadcasting)."""
    op = sorted(_BINARY)
    table = _BINARY


class FloorModExtractor(FrontExtractorOp):
    """FloorMod -> FloorMod; for floats, a zero remainder keeps the dividend's sign and an infinite divisor gives
    the dividend or the divisor (``extensions.middle.float_mod_edges``), where OpenVINO's gives +0 and NaN."""
    op = 'FloorMod'

    @classmethod
    def extract(cls, node):
        elementwise.FloorMod.update_node_stat(node, {'zero_remainder_sign': 'dividend'})
        return True


class UnaryElementwiseExtractor(OpTableExtractor):
    """Unary element-wise ops -> the opset op of the same meaning."""
    op = sorted(_UNARY)
    table = _UNARY


class LoweredElementwiseExtractor(FrontExtractorOp):
    """Rsqrt/Square/Erfc: the node keeps its op name and records its element type; the front replacers
    of ``tf_elementwise_lowering`` lower them."""
    op = sorted(_LOWERED)

    @classmethod
    def describe(cls, op):
        return _LOWERED[op]

    @classmethod
    def extract(cls, node):
        node['data_type'] = tf_dtype_attr(node, 'T')
        node['in_ports_count'] = 1
        node['out_ports_count'] = 1
        return True
