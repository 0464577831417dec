"""MXNet's normalizations at inference, from opset ops."""
from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.elementwise_lowering import like
from extensions.front.mxnet.formulas import all_axes, ints, per_channel
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.elementwise import Add, Div, Mul, Sub
from mo.ops.reduce import ReduceSum
from mo.utils.error import Error


class BatchNormLowering(OpRule):
    """BatchNorm(x, gamma, beta, mean, var) = x * mul + (beta - mean * mul) along ``axis``, mul = gamma /
    sqrt(var + eps), gamma taken as 1 with fix_gamma (MXNet's default)."""
    op = 'MXBatchNorm'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        for port in (1, 2):
            if node.is_out_port_connected(port):
                raise Error('BatchNorm "{}": output {} (the batch statistics) is read; only the inference form '
                            'converts', b.name, port)
        x, var = node.in_port(0), node.in_port(4)
        std = b.op(Sqrt, [b.op(Add, [var, like(b, attr.float('eps', 1e-3), var, 'eps')], 'var_eps')], 'std')
        if attr.bool('fix_gamma', True):
            mul = b.op(Div, [like(b, 1, var, 'one'), std], 'mul')
        else:
            mul = b.op(Div, [node.in_port(1), std], 'mul')
        shift = b.op(Sub, [node.in_port(2), b.op(Mul, [node.in_port(3), mul], 'mean_mul')], 'shift')
        axis = attr.int('axis', 1)
        if axis < 0:
            raise Error('BatchNorm "{}": a negative axis ({}) is not converted', b.name, axis)
        scaled = b.op(Mul, [x, per_channel(b, mul, x, 'mul_per_channel', axis)], 'scale')
        return b.op(Add, [scaled, per_channel(b, shift, x, 'shift_per_channel', axis)], 'shift_add')


class L2NormalizationLowering(OpRule):
    """L2Normalization(x) = x / sqrt(sum(x * x) + eps), the sum over every axis but the first (instance), over
    axis 1 (channel) or over the axes after 1 (spatial)."""
    op = 'MXL2Normalization'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        mode = attr.str('mode', 'instance')
        if mode == 'instance':
            axes = all_axes(b, x, 'axes', 1)
        elif mode == 'channel':
            axes = ints(b, [1], 'axes')
        elif mode == 'spatial':
            axes = all_axes(b, x, 'axes', 2)
        else:
            raise Error('L2Normalization "{}": mode "{}" is not one of instance, channel, spatial', b.name, mode)
        squares = b.op(ReduceSum, [b.op(Mul, [x, x], 'square'), axes], 'sum', keep_dims=True)
        norm = b.op(Sqrt, [b.op(Add, [squares, like(b, attr.float('eps', 1e-10), x, 'eps')], 'sum_eps')], 'norm')
        return b.op(Div, [x, norm], 'normalized')
