"""onnxruntime's RMS normalizations (SimplifiedLayerNormalization, com.microsoft SkipSimplifiedLayerNormalization) as
opset ops, from the internal ops ``microsoft_ext.py`` extracts.

RMS normalization divides by sqrt(ReduceMean(x^2) + epsilon) and does not center. The statistics outputs are float32
whatever the input's type, computed from the input converted to float32, as onnxruntime's kernels keep them.
"""
import numpy as np

from mo.front.common.nn_formulas import I64, axes_from, like
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Mul, Pow
from mo.ops.reduce import ReduceMean
from mo.ops.shapeof import ShapeOf
from mo.utils.error import Error

F32 = np.dtype(np.float32)


def _required(node: Node, b: Builder, op: str, ports):
    for port, what in ports:
        if not node.is_in_port_connected(port):
            raise Error('{} "{}" has no input {} ({})', op, b.name, port, what)


def _mean_square_eps(b: Builder, x, axes, epsilon: float, tag: str):
    """ReduceMean(x^2, axes, kept) + epsilon."""
    mean_square = b.op(ReduceMean, [b.op(Mul, [x, x], tag + '_squared'), axes], tag + '_mean_square', keep_dims=True)
    return b.op(Add, [mean_square, like(b, epsilon, mean_square, tag + '_epsilon')], tag + '_mean_square_eps')


def rms_normalized(b: Builder, x, axes, epsilon: float):
    """x / sqrt(ReduceMean(x^2, axes) + epsilon), in x's element type."""
    return b.op(Div, [x, b.op(Sqrt, [_mean_square_eps(b, x, axes, epsilon, 'rms')], 'rms')], 'normalized')


def inv_std_var_f32(b: Builder, x, axes, epsilon: float):
    """(ReduceMean(x^2, axes) + epsilon)^-1/2 of x converted to float32, the axes kept."""
    x32 = b.op(Convert, [x], 'stat_input_f32', dst_type=F32)
    var_eps = _mean_square_eps(b, x32, axes, epsilon, 'stat')
    return b.op(Pow, [var_eps, like(b, -0.5, var_eps, 'minus_half')], 'inv_std_var')


class ONNXMSSimplifiedLayerNormalizationLowering(OpRule):
    """SimplifiedLayerNormalization(X, scale) = X / sqrt(ReduceMean(X^2, axes axis..rank-1) + epsilon) * scale;
    inv_std_var = the reciprocal root, float32, those axes kept."""
    op = 'ONNXMSSimplifiedLayerNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, 'SimplifiedLayerNormalization', [(1, 'scale')])
        x = node.in_port(0).get_source()
        axes = axes_from(b, x, node.axis, 'axes')
        y = b.op(Mul, [rms_normalized(b, x, axes, node.epsilon), node.in_port(1)], 'scale')
        inv_std = inv_std_var_f32(b, x, axes, node.epsilon) if node.is_out_port_connected(1) else None
        return [y, inv_std]


class ONNXMSSkipSimplifiedLayerNormalizationLowering(OpRule):
    """SkipSimplifiedLayerNormalization(input, skip, gamma, bias): s = input + skip (+ bias); output = s /
    sqrt(ReduceMean(s^2, last axis) + epsilon) * gamma; mean = zeros and inv_std_var = the reciprocal root (float32,
    last axis kept); input_skip_bias_sum = s."""
    op = 'ONNXMSSkipSimplifiedLayerNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, 'SkipSimplifiedLayerNormalization', [(1, 'skip'), (2, 'gamma')])
        s = b.op(Add, [node.in_port(0), node.in_port(1)], 'skip_add')
        if node.is_in_port_connected(3):
            s = b.op(Add, [s, node.in_port(3)], 'bias_add')
        axes = b.const([-1], 'axes', I64)
        y = b.op(Mul, [rms_normalized(b, s, axes, node.epsilon), node.in_port(2)], 'scale')
        mean = inv_std = None
        if node.is_out_port_connected(1) or node.is_out_port_connected(2):
            inv_std = inv_std_var_f32(b, s, axes, node.epsilon)
        if node.is_out_port_connected(1):
            # an RMS normalization has no centering term: onnxruntime writes zeros there
            mean = b.op(Broadcast, [b.const(np.array(0, np.float32), 'zero'), b.op(ShapeOf, [inv_std], 'stat_shape')],
                        'mean')
        return [y, mean, inv_std, s if node.is_out_port_connected(3) else None]
