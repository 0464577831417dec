"""Paddle's normalizations (``Paddle_*`` ops of ``nn_ext.py``) as opset ops; the inputs by slot, the ranks from
the program's declared shapes."""
import numpy as np

from extensions.front.paddle.formulas import I64, out_dtype, port
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import input_rank, node_name
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.elementwise import Add, Div, Mul, Sub
from mo.ops.mvn import MVN
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.utils.error import Error


def _rank(node: Node) -> int:
    rank = input_rank(node, 'X')
    if rank is None:
        raise Error('Paddle {} "{}": the program does not declare the rank of its input', node.op[7:],
                    node_name(node))
    return rank


def channel_shape(node: Node, rank: int):
    """The shape a per-channel vector takes to broadcast against the input: [C, 1, ...] (or [C] channels last)."""
    return [-1] if node.channels_last else [-1] + [1] * (rank - 2)


def scale_and_shift(b: Builder, node: Node, y, shape, tag: str = ''):
    """``y * Scale + Bias`` with the vectors reshaped to ``shape``, each only when the op has it."""
    for slot, op_class in (('Scale', Mul), ('Bias', Add)):
        vector = port(node, slot)
        if vector is not None:
            shaped = b.op(Reshape, [vector, b.const(np.array(shape, I64), tag + slot.lower() + '_shape')],
                          tag + slot.lower())
            y = b.op(op_class, [y, shaped], tag + slot.lower() + '_applied')
    return y


class BatchNormLowering(OpRule):
    """batch_norm(X) = (X - Mean) / sqrt(Variance + epsilon) * Scale + Bias, per channel (inference: the running
    statistics)."""
    op = 'Paddle_batch_norm'

    def rewrite(self, node: Node, b: Builder):
        rank = _rank(node)
        shape = b.const(np.array(channel_shape(node, rank), I64), 'channel_shape')
        eps = b.const(np.array(node.epsilon, out_dtype(node, 'Y')), 'epsilon')
        mean = b.op(Reshape, [port(node, 'Mean'), shape], 'mean')
        std = b.op(Sqrt, [b.op(Add, [b.op(Reshape, [port(node, 'Variance'), shape], 'variance'), eps], 'var_eps')],
                   'std')
        factor = b.op(Div, [b.op(Reshape, [port(node, 'Scale'), shape], 'scale'), std], 'factor')
        shift = b.op(Sub, [b.op(Reshape, [port(node, 'Bias'), shape], 'bias'), b.op(Mul, [mean, factor], 'mean_k')],
                     'shift')
        return b.op(Add, [b.op(Mul, [port(node, 'X'), factor], 'scaled'), shift], 'batch_norm')


class LayerNormLowering(OpRule):
    """layer_norm(X) = MVN over the axes from begin_norm_axis on (epsilon inside the root), * Scale + Bias, the
    vectors shaped as those axes."""
    op = 'Paddle_layer_norm'

    def rewrite(self, node: Node, b: Builder):
        rank = _rank(node)
        begin = int(node.pb.attrs.get('begin_norm_axis', 1))
        begin = begin + rank if begin < 0 else begin
        axes = b.const(np.arange(begin, rank, dtype=I64), 'axes')
        y = b.op(MVN, [port(node, 'X'), axes], 'mvn', eps=node.epsilon, eps_mode='inside_sqrt',
                 normalize_variance=1)
        if port(node, 'Scale') is None and port(node, 'Bias') is None:
            return y
        # the vectors are flat: shape them as X's normalized axes
        shape = b.op(ShapeOf, [port(node, 'X')], 'x_shape')
        tail = b.op(Slice, [shape, b.const([begin], 'tail_begin', I64), b.const([rank], 'tail_end', I64),
                            b.const([1], 'tail_step', I64)], 'tail_shape')
        for slot, op_class in (('Scale', Mul), ('Bias', Add)):
            vector = port(node, slot)
            if vector is not None:
                shaped = b.op(Reshape, [vector, tail], slot.lower())
                y = b.op(op_class, [y, shaped], slot.lower() + '_applied')
        return y


class GroupNormLowering(OpRule):
    """group_norm(X) = MVN of X as [N, groups, -1] over its last axis, back to X's shape, * Scale + Bias per
    channel."""
    op = 'Paddle_group_norm'

    def rewrite(self, node: Node, b: Builder):
        rank = _rank(node)
        if node.channels_last:
            raise Error('group_norm "{}" is channels-last: mo converts NCHW group_norm only', node_name(node))
        groups = int(node.pb.attrs.get('groups', 1))
        x = port(node, 'X')
        grouped = b.op(Reshape, [x, b.const(np.array([0, groups, -1], I64), 'grouped_shape')], 'grouped',
                       special_zero=True)
        normalized = b.op(MVN, [grouped, b.const(np.array([2], I64), 'axes')], 'mvn', eps=node.epsilon,
                          eps_mode='inside_sqrt', normalize_variance=1)
        y = b.op(Reshape, [normalized, b.op(ShapeOf, [x], 'x_shape')], 'ungrouped')
        return scale_and_shift(b, node, y, channel_shape(node, rank))


class InstanceNormLowering(OpRule):
    """instance_norm(X) = MVN over the spatial axes, * Scale + Bias per channel."""
    op = 'Paddle_instance_norm'

    def rewrite(self, node: Node, b: Builder):
        rank = _rank(node)
        axes = b.const(np.arange(2, rank, dtype=I64), 'axes')
        y = b.op(MVN, [port(node, 'X'), axes], 'mvn', eps=node.epsilon, eps_mode='inside_sqrt', normalize_variance=1)
        return scale_and_shift(b, node, y, channel_shape(node, rank))
