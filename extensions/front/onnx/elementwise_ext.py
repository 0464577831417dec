"""Extractors for ONNX's element-wise ops (arithmetic, comparisons, logic, unary math).

ONNX's binary ops broadcast as numpy does (opset 7 on), which is the opset's ``auto_broadcast='numpy'``.
"""
from mo.front.extractor import FrontExtractorOp, opset_type
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops import activation_ops, elementwise, elementwise_more, math_ops

_BINARY = {
    'Add': elementwise.Add, 'Sub': elementwise.Sub, 'Mul': elementwise.Mul, 'Div': elementwise.Div,
    'Pow': elementwise.Pow, 'Less': elementwise.Less, 'Greater': elementwise.Greater, 'Equal': elementwise.Equal,
    'LessOrEqual': elementwise_more.LessEqual, 'GreaterOrEqual': elementwise_more.GreaterEqual,
    'And': elementwise.LogicalAnd, 'Or': elementwise_more.LogicalOr, 'Xor': elementwise_more.LogicalXor,
}

_UNARY = {
    'Neg': activation_ops.Negative, 'Sqrt': activation_ops.Sqrt, 'Exp': activation_ops.Exp, 'Log': activation_ops.Log,
    'Abs': activation_ops.Abs, 'Erf': activation_ops.Erf, 'Sigmoid': activation_ops.Sigmoid,
    'Tanh': activation_ops.Tanh, 'Relu': activation_ops.ReLU, 'Floor': activation_ops.Floor,
    'Ceil': activation_ops.Ceiling, 'Softplus': activation_ops.SoftPlus, 'Mish': activation_ops.Mish,
    'HardSwish': activation_ops.HSwish, 'Sign': elementwise_more.Sign, 'Not': elementwise_more.LogicalNot,
    'Sin': math_ops.Sin, 'Cos': math_ops.Cos, 'Tan': math_ops.Tan, 'Asin': math_ops.Asin, 'Acos': math_ops.Acos,
    'Atan': math_ops.Atan, 'Sinh': math_ops.Sinh, 'Cosh': math_ops.Cosh, 'Asinh': math_ops.Asinh,
    'Acosh': math_ops.Acosh, 'Atanh': math_ops.Atanh, 'Softsign': math_ops.SoftSign, 'IsNaN': math_ops.IsNaN,
}


class BinaryElementwiseExtractor(FrontExtractorOp):
    """Binary element-wise ops -> the opset op of the same meaning (numpy broadcasting)."""
    op = sorted(_BINARY)
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return opset_type(_BINARY[op])

    @classmethod
    def extract(cls, node):
        _BINARY[node.op].update_node_stat(node, {})
        return True


class UnaryElementwiseExtractor(FrontExtractorOp):
    """Unary element-wise ops -> the opset op of the same meaning."""
    op = sorted(_UNARY)
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return opset_type(_UNARY[op])

    @classmethod
    def extract(cls, node):
        _UNARY[node.op].update_node_stat(node, {})
        return True


class ModExtractor(FrontExtractorOp):
    """Mod -> FloorMod (fmod=0: the result takes the divisor's sign) or Mod (fmod=1: the dividend's, as C's fmod)."""
    op = 'Mod'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        op_class = elementwise_more.Mod if onnx_attr(node, 'fmod', 'i', 0) else elementwise_more.FloorMod
        op_class.update_node_stat(node, {})
        return True
