"""Extractors for Paddle's activations and unary math ops that are one opset op each; those that are formulas
(gelu, hard_sigmoid, selu, prelu, ...) become ``Paddle_*`` ops for ``activation_lowering.py``."""
from mo.front.extractor import FrontExtractorOp, OpTableExtractor
from mo.front.paddle.extractor_utils import paddle_attr
from mo.ops import activation_ops, bitwise, elementwise, math_ops
from mo.ops.activation_ops import Clamp, Elu
from mo.ops.nn_ops import LogSoftmax, Softmax

_UNARY = {
    'relu': activation_ops.ReLU, 'sigmoid': activation_ops.Sigmoid, 'tanh': activation_ops.Tanh,
    'exp': activation_ops.Exp, 'log': activation_ops.Log, 'sqrt': activation_ops.Sqrt, 'abs': activation_ops.Abs,
    'floor': activation_ops.Floor, 'ceil': activation_ops.Ceiling, 'erf': activation_ops.Erf,
    'swish': activation_ops.Swish, 'silu': activation_ops.Swish, 'sign': elementwise.Sign,
    'logical_not': elementwise.LogicalNot, 'sin': math_ops.Sin, 'cos': math_ops.Cos,
    'softsign': math_ops.SoftSign, 'isnan': math_ops.IsNaN, 'isinf': math_ops.IsInf,
    'isfinite': math_ops.IsFinite, 'bitwise_not': bitwise.BitwiseNot,
}


class UnaryExtractor(OpTableExtractor):
    """relu, sigmoid, tanh, exp, log, sqrt, abs, floor, ceil, erf, swish/silu, sign, logical_not, ... -> the opset
    op of the same meaning."""
    op = sorted(_UNARY)
    table = _UNARY



class Relu6Extractor(FrontExtractorOp):
    """relu6 -> Clamp(0, threshold) (6 unless the classic op says otherwise)."""
    op = 'relu6'

    @classmethod
    def extract(cls, node):
        Clamp.update_node_stat(node, {'min': 0.0, 'max': float(paddle_attr(node, 'threshold', 6.0))})
        return True


class EluExtractor(FrontExtractorOp):
    """elu -> Elu(alpha)."""
    op = 'elu'

    @classmethod
    def extract(cls, node):
        Elu.update_node_stat(node, {'alpha': float(paddle_attr(node, 'alpha', 1.0))})
        return True


class SoftmaxExtractor(FrontExtractorOp):
    """softmax, log_softmax -> Softmax, LogSoftmax along ``axis`` (default -1)."""
    op = ['softmax', 'log_softmax']

    @classmethod
    def extract(cls, node):
        op_class = Softmax if node.op == 'softmax' else LogSoftmax
        op_class.update_node_stat(node, {'axis': int(paddle_attr(node, 'axis', -1))})
        return True


class FormulaExtractor(FrontExtractorOp):
    """Activations that are formulas of opset ops -> ``Paddle_<name>`` with their attributes for
    ``activation_lowering.py``: gelu, hard_sigmoid, hard_swish, selu, softplus, mish, rsqrt, square, prelu, pow,
    clip, scale, ... (Paddle 3's hardsigmoid and hardswish under the classic names)."""
    op = ['gelu', 'leaky_relu', 'hard_sigmoid', 'hardsigmoid', 'hard_swish', 'hardswish', 'selu', 'softplus',
          'mish', 'rsqrt', 'square', 'prelu', 'pow', 'clip', 'scale', 'reciprocal', 'log1p', 'log2', 'log10',
          'round', 'hardtanh', 'brelu', 'softshrink', 'hard_shrink', 'hardshrink', 'tanh_shrink',
          'thresholded_relu', 'logsigmoid']

    @classmethod
    def extract(cls, node):
        pb = node.pb
        node['paddle_attrs'] = dict(pb.attrs)
        node['formula'] = node.op
        node['op'] = 'Paddle_' + _SHARED_RULE.get(node.op, node.op)
        return True


#: formulas one rule builds for several ops (Paddle 3's names of the classic ones too)
_SHARED_RULE = {'hardsigmoid': 'hard_sigmoid', 'hardswish': 'hard_swish', 'log1p': 'log_n', 'log2': 'log_n',
                'log10': 'log_n', 'brelu': 'hardtanh', 'hardshrink': 'hard_shrink'}
