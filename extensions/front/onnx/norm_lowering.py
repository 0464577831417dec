"""ONNX's normalizations as opset ops (the internal ops ``norm_ext.py`` extracts).

Constants of the formulas (epsilon, exponents) take the element type of the tensor they meet (ConvertLike, folded
at inference), so float16 and double models convert too.
"""
from mo.front.common.nn_formulas import I64, axes_from, like, per_channel, spatial_axes
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Sqrt
from mo.ops.elementwise import Add, Div, Equal, Mul, Pow, Sub
from mo.ops.mvn import MVN
from mo.ops.reduce import ReduceL2, ReduceMean, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

def mvn(b: Builder, x, axes, epsilon: float, tag: str, eps_mode: str = 'inside_sqrt'):
    return b.op(MVN, [x, axes], tag, eps=float(epsilon), eps_mode=eps_mode, normalize_variance=1)


def _required(node: Node, b: Builder, ports, names):
    for port, name in zip(ports, names):
        if not node.is_in_port_connected(port):
            raise Error('{} "{}" has no input {} ({})', node.op[4:], b.name, port, name)


class ONNXBatchNormalizationLowering(OpRule):
    """BatchNormalization(X, scale, B, mean, var) = X * mul + shift, mul = scale / sqrt(var + epsilon), shift = B -
    mean * mul, per channel. training_mode: mean and var are the batch's (population variance over every axis but
    1), and outputs 1, 2 are running_mean = mean * momentum + batch_mean * (1 - momentum), running_var likewise."""
    op = 'ONNXBatchNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, range(1, 5), ('scale', 'B', 'mean', 'var'))
        if node.training_mode:
            return self._training(node, b)
        for port in range(1, 5):
            if node.is_out_port_connected(port):
                raise Error('BatchNormalization "{}": output {} is a training output (opset {}); only the inference '
                            'form converts', b.name, port, node.onnx_opset_version)
        var_eps = b.op(Add, [node.in_port(4), like(b, node.epsilon, node.in_port(4), 'epsilon')], 'var_eps')
        mul = b.op(Div, [node.in_port(1), b.op(Sqrt, [var_eps], 'std')], 'mul')
        shift = b.op(Sub, [node.in_port(2), b.op(Mul, [node.in_port(3), mul], 'mean_mul')], 'shift')
        if node.spatial:
            mul = per_channel(b, mul, node.in_port(0), 'mul_per_channel')
            shift = per_channel(b, shift, node.in_port(0), 'shift_per_channel')
        return b.op(Add, [b.op(Mul, [node.in_port(0), mul], 'scale'), shift], 'shift_add')

    @staticmethod
    def _training(node: Node, b: Builder):
        x = node.in_port(0)
        axes = b.concat([b.const([0], 'batch_axis', I64), spatial_axes(b, x, 'spatial_axes')], 'axes')
        mean = b.op(ReduceMean, [x, axes], 'batch_mean', keep_dims=False)
        centered = b.op(Sub, [x, per_channel(b, mean, x, 'batch_mean_per_channel')], 'centered')
        var = b.op(ReduceMean, [b.op(Mul, [centered, centered], 'squared'), axes], 'batch_var', keep_dims=False)
        std = b.op(Sqrt, [b.op(Add, [var, like(b, node.epsilon, var, 'epsilon')], 'var_eps')], 'std')
        mul = per_channel(b, b.op(Div, [node.in_port(1), std], 'mul'), x, 'mul_per_channel')
        y = b.op(Add, [b.op(Mul, [centered, mul], 'scale'), per_channel(b, node.in_port(2), x, 'B_per_channel')],
                 'shift_add')
        keep, take = like(b, node.momentum, var, 'momentum'), like(b, 1.0 - node.momentum, var, 'one_minus_momentum')

        def running(port, batch, tag):
            return b.op(Add, [b.op(Mul, [node.in_port(port), keep], tag + '_kept'),
                              b.op(Mul, [batch, take], tag + '_taken')], tag)
        return [y, running(3, mean, 'running_mean'), running(4, var, 'running_var')]


class ONNXInstanceNormalizationLowering(OpRule):
    """InstanceNormalization(x, scale, B) = MVN(x, spatial axes, epsilon inside the root) * scale + B per channel."""
    op = 'ONNXInstanceNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, (1, 2), ('scale', 'B'))
        x = node.in_port(0)
        normalized = mvn(b, x, spatial_axes(b, x, 'axes'), node.epsilon, 'mvn')
        scaled = b.op(Mul, [normalized, per_channel(b, node.in_port(1), x, 'scale_per_channel')], 'scale')
        return b.op(Add, [scaled, per_channel(b, node.in_port(2), x, 'B_per_channel')], 'shift')


class ONNXLayerNormalizationLowering(OpRule):
    """LayerNormalization(X, Scale, B) = MVN(X, axes axis..rank-1) * Scale + B; Mean = ReduceMean(X, axes) and
    InvStdDev = 1 / sqrt(ReduceMean((X - Mean)^2) + epsilon) (kept dimensions) when read."""
    op = 'ONNXLayerNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, (1,), ('Scale',))
        x = node.in_port(0)
        axes = axes_from(b, x, node.axis, 'axes')
        y = b.op(Mul, [mvn(b, x, axes, node.epsilon, 'mvn'), node.in_port(1)], 'scale')
        if node.is_in_port_connected(2):
            y = b.op(Add, [y, node.in_port(2)], 'shift')
        mean = inv_std = None
        if node.is_out_port_connected(1) or node.is_out_port_connected(2):
            mean = b.op(ReduceMean, [x, axes], 'mean', keep_dims=True)
            centered = b.op(Sub, [x, mean], 'centered')
            var = b.op(ReduceMean, [b.op(Mul, [centered, centered], 'squared'), axes], 'var', keep_dims=True)
            var_eps = b.op(Add, [var, like(b, node.epsilon, var, 'epsilon')], 'var_eps')
            inv_std = b.op(Pow, [var_eps, like(b, -0.5, var, 'minus_half')], 'inv_std_dev')
        return [y, mean, inv_std]


class ONNXGroupNormalizationLowering(OpRule):
    """GroupNormalization(X, scale, bias) = MVN over each group of channels (X as [N, G, -1]), back to X's shape,
    * scale + bias: per group in opset 18 (applied while grouped), per channel from opset 21."""
    op = 'ONNXGroupNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, (1, 2), ('scale', 'bias'))
        x = node.in_port(0)
        grouped = b.op(Reshape, [x, b.const([0, node.num_groups, -1], 'grouped_shape', I64)], 'grouped',
                       special_zero=True)
        y = mvn(b, grouped, b.const([2], 'axes', I64), node.epsilon, 'mvn')
        if not node.per_channel_affine:
            axis = b.const([1], 'per_group_axis', I64)
            y = b.op(Mul, [y, b.op(Unsqueeze, [node.in_port(1), axis], 'scale_per_group')], 'scale')
            y = b.op(Add, [y, b.op(Unsqueeze, [node.in_port(2), axis], 'bias_per_group')], 'shift')
        y = b.op(Reshape, [y, b.op(ShapeOf, [x], 'shape')], 'ungrouped')
        if node.per_channel_affine:
            y = b.op(Mul, [y, per_channel(b, node.in_port(1), x, 'scale_per_channel')], 'scale')
            y = b.op(Add, [y, per_channel(b, node.in_port(2), x, 'bias_per_channel')], 'shift')
        return y


class ONNXRMSNormalizationLowering(OpRule):
    """RMSNormalization(X, scale) = X / sqrt(ReduceMean(X^2, axes axis..rank-1) + epsilon) * scale."""
    op = 'ONNXRMSNormalization'

    def rewrite(self, node: Node, b: Builder):
        _required(node, b, (1,), ('scale',))
        x = node.in_port(0)
        mean_square = b.op(ReduceMean, [b.op(Mul, [x, x], 'squared'), axes_from(b, x, node.axis, 'axes')],
                           'mean_square', keep_dims=True)
        eps = like(b, node.epsilon, mean_square, 'epsilon')
        rms = b.op(Sqrt, [b.op(Add, [mean_square, eps], 'mean_square_eps')], 'rms')
        return b.op(Mul, [b.op(Div, [x, rms], 'normalized'), node.in_port(1)], 'scale')


class ONNXLpNormalizationLowering(OpRule):
    """LpNormalization(x) = x / ReduceL2(x, axis) (p 2), x / ReduceSum(|x|, axis) (p 1), the axis kept; a zero norm
    (x all zeros along the axis) gives zeros, as ONNX's reference and onnxruntime do, not NaN."""
    op = 'ONNXLpNormalization'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        axis = b.const([node.axis], 'axis', I64)
        if node.p == 2:
            norm = b.op(ReduceL2, [x, axis], 'norm', keep_dims=True)
        else:
            norm = b.op(ReduceSum, [b.op(Abs, [x], 'abs'), axis], 'norm', keep_dims=True)
        zero = b.op(Equal, [norm, like(b, 0.0, norm, 'zero')], 'is_zero')
        norm = b.op(Select, [zero, like(b, 1.0, norm, 'one'), norm], 'safe_norm')
        return b.op(Div, [x, norm], 'normalized')


class ONNXMeanVarianceNormalizationLowering(OpRule):
    """MeanVarianceNormalization(X) = (X - mean) / (sqrt(var) + 1e-9) over ``axes``: MVN with eps outside the root."""
    op = 'ONNXMeanVarianceNormalization'

    def rewrite(self, node: Node, b: Builder):
        return mvn(b, node.in_port(0), b.const(node.axes, 'axes', I64), 1e-9, 'mvn', eps_mode='outside_sqrt')
