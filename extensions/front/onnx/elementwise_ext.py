"""Extractors for ONNX's element-wise ops (arithmetic, comparisons, logic, unary math).

ONNX's binary ops broadcast as numpy does (opset 7 on), which is the opset's ``auto_broadcast='numpy'``.
"""
import numpy as np

from mo.front.extractor import FrontExtractorOp, OpTableExtractor
from mo.front.onnx.extractors.utils import onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.ops import activation_ops, elementwise, math_ops

_BINARY = {
    'Add': elementwise.Add, 'Sub': elementwise.Sub, 'Mul': elementwise.Mul,
    # ONNX divides integers rounding toward zero (its reference: the true quotient cast back)
    'Less': elementwise.Less, 'Greater': elementwise.Greater, 'Equal': elementwise.Equal,
    'LessOrEqual': elementwise.LessEqual, 'GreaterOrEqual': elementwise.GreaterEqual,
    'And': elementwise.LogicalAnd, 'Or': elementwise.LogicalOr, 'Xor': elementwise.LogicalXor,
}

_UNARY = {
    'Neg': activation_ops.Negative, 'Sqrt': activation_ops.Sqrt, 'Exp': activation_ops.Exp, 'Log': activation_ops.Log,
    'Abs': activation_ops.Abs, 'Erf': activation_ops.Erf, 'Sigmoid': activation_ops.Sigmoid,
    'Tanh': activation_ops.Tanh, 'Relu': activation_ops.ReLU, 'Floor': activation_ops.Floor,
    'Ceil': activation_ops.Ceiling, 'Softplus': activation_ops.SoftPlus, 'Mish': activation_ops.Mish,
    'HardSwish': activation_ops.HSwish, 'Sign': elementwise.Sign, 'Not': elementwise.LogicalNot,
    'Round': math_ops.Round,  # half to even, as ONNX's Round
    'Sin': math_ops.Sin, 'Cos': math_ops.Cos, 'Tan': math_ops.Tan, 'Asin': math_ops.Asin, 'Acos': math_ops.Acos,
    'Atan': math_ops.Atan, 'Sinh': math_ops.Sinh, 'Cosh': math_ops.Cosh, 'Asinh': math_ops.Asinh,
    'Acosh': math_ops.Acosh, 'Atanh': math_ops.Atanh, 'Softsign': math_ops.SoftSign, 'IsNaN': math_ops.IsNaN,
}


def input_dtype(node, port: int):
    """The element type of the node's input ``port`` where the model states it (an initializer, a graph input, a
    ``value_info`` entry), else None: ONNX states no types for intermediate tensors unless shape inference ran."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    if source.soft_get('op') == 'Const' and source.has_valid('value'):
        return np.asarray(source.value).dtype
    if source.soft_get('op') == 'Parameter':
        if source.has_valid('data_type'):
            return np.dtype(source.data_type)
        pb = source.soft_get('pb', None)
        if pb is not None and pb.type.WhichOneof('value') == 'tensor_type':
            return np.dtype(np_dtype(pb.type.tensor_type.elem_type, source.soft_get('name', source.id)))
    names = list(node.pb.input) if node.soft_get('pb', None) is not None else []
    info = node.graph.graph.get('onnx_value_info', {}).get(names[port]) if port < len(names) else None
    if info is not None and info.type.WhichOneof('value') == 'tensor_type':
        return np.dtype(np_dtype(info.type.tensor_type.elem_type, names[port]))
    return None


class BinaryElementwiseExtractor(OpTableExtractor):
    """Binary element-wise ops -> the opset op of the same meaning (numpy broadcasting)."""
    op = sorted(_BINARY)
    table = _BINARY


class UnaryElementwiseExtractor(OpTableExtractor):
    """Unary element-wise ops -> the opset op of the same meaning."""
    op = sorted(_UNARY)
    table = _UNARY


class DivExtractor(FrontExtractorOp):
    """Div -> Divide whose integer quotients round toward zero (ONNX's division; the opset's default rounds down)."""
    op = 'Div'

    @classmethod
    def extract(cls, node):
        elementwise.Div.update_node_stat(node, {'python_div': False})
        return True


class ModExtractor(FrontExtractorOp):
    """Mod -> FloorMod (fmod=0: the result takes the divisor's sign) or Mod (fmod=1: the dividend's, as C's fmod)."""
    op = 'Mod'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        if onnx_attr(node, 'fmod', 'i', 0):
            elementwise.Mod.update_node_stat(node, {})
        else:  # numpy.mod's results at infinities and zeros, for floats: extensions.middle.float_mod_edges
            elementwise.FloorMod.update_node_stat(node, {'zero_remainder_sign': 'divisor'})
        return True


class PowExtractor(FrontExtractorOp):
    """Pow -> Power; the exponent may have another element type than the base (opset 12 on): the result has the
    base's type (``math_lowering.PowLowering`` converts)."""
    op = 'Pow'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNXPow'
        node['base_type'], node['exponent_type'] = input_dtype(node, 0), input_dtype(node, 1)
        return True
