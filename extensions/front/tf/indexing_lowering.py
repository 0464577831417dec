"""TensorFlow indexing ops built from opset ops: ScatterNd, the one-input Where, SpaceToBatchND and
BatchToSpaceND (constant blocks widened to every dimension, remaining dimensions unblocked), and OneHot's 8-bit
indices widened to i32."""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Sub
from mo.ops.tensor_ops import BatchToSpace, NonZero, OneHot, ScatterNDUpdate, SpaceToBatch
from mo.ops.transpose import Transpose
from mo.utils.error import Error
from extensions.front.tf.tensor_ext import constant_input


class ScatterNdLowering(OpRule):
    """ScatterNd(indices, updates, shape) = ScatterNDUpdate(Broadcast(0, shape), indices, updates), summing
    updates that hit the same element as TensorFlow does."""
    op = 'ScatterNd'

    def rewrite(self, node: Node, b: Builder):
        zeros = b.op(Broadcast, [b.const(0, 'zero'), node.in_port(2)], 'zeros')
        return b.op(ScatterNDUpdate, [zeros, node.in_port(0), node.in_port(1)], 'scatter', reduction='sum')


class WhereLowering(OpRule):
    """Where(x) = Transpose(NonZero(x), [1, 0]): coordinates of the non-zero elements, one per row."""
    op = 'Where'

    def rewrite(self, node: Node, b: Builder):
        non_zero = b.op(NonZero, [node.in_port(0)], 'non_zero', output_type=np.int64)
        return b.op(Transpose, [non_zero, b.const([1, 0], 'transpose/port_1', np.int64)], 'transpose')


class SpaceBatchLowering(OpRule):
    """SpaceToBatchND(x, block, paddings) = SpaceToBatch(x, [1, *block, 1...], [0, *pads_begin, 0...],
    [0, *pads_end, 0...]) on [batch, blocked dimensions..., remaining dimensions...]: a block shorter than the
    spatial rank leaves the remaining dimensions unblocked (their count, rank - 1 - len(block), is computed from
    the input's shape and folds once it is known); BatchToSpaceND likewise with crops."""
    op = 'SpaceToBatchND'
    op_class = SpaceToBatch

    def rewrite(self, node: Node, b: Builder):
        block, pads = constant_input(node, 1), constant_input(node, 2)
        if block is None or pads is None:
            raise Error('{} "{}": the block shape and paddings/crops must be constant to be converted', node.op, b.name)
        block = [int(v) for v in np.ravel(block)]
        pads = np.reshape(np.asarray(pads, dtype=np.int64), (-1, 2))
        # the dimensions after the blocked ones: rank - 1 - len(block) of them, unblocked and unpadded
        tail = b.op(Sub, [b.rank_of(node.in_port(0), 'rank'), b.const([1 + len(block)], 'leading', np.int64)],
                    'tail_count')
        ones = b.op(Broadcast, [b.const(1, 'one', np.int64), tail], 'tail_ones')
        zeros = b.op(Broadcast, [b.const(0, 'zero', np.int64), tail], 'tail_zeros')
        inputs = [node.in_port(0)]
        for port, values, rest in ((1, [1] + block, ones), (2, [0] + list(pads[:, 0]), zeros),
                                   (3, [0] + list(pads[:, 1]), zeros)):
            inputs.append(b.concat([b.const(values, '{}/given'.format(port), np.int64), rest], str(port)))
        return b.op(self.op_class, inputs, self.op_class.op)


class BatchSpaceLowering(SpaceBatchLowering):
    op = 'BatchToSpaceND'
    op_class = BatchToSpace


class OneHotIndicesToI32(OpRule):
    """OneHot with int8 or uint8 indices: OneHot(Convert(indices, i32), ...), exact for every 8-bit value
    (OpenVINO's CPU plugin compiles OneHot with i32 indices only, and Converts i64 ones itself)."""
    op = 'OneHot'

    def matches(self, node: Node) -> bool:
        return node.soft_get('tf_indices_type', None) is not None

    def rewrite(self, node: Node, b: Builder):
        indices = b.op(Convert, [node.in_port(0)], 'indices', dst_type=np.dtype(np.int32))
        return b.op(OneHot, [indices, node.in_port(1), node.in_port(2), node.in_port(3)], 'one_hot', axis=node.axis)
