"""TensorFlow's array ops built from opset ops (the ops ``array_formula_ext.LOWERED`` lists).

Shapes, ranks and lengths are computed at run time (``formulas``), so dynamic dimensions convert and static
ones fold.
"""
import numpy as np

from extensions.front.tf.array_formula_ext import output_type
from mo.front.common.formulas import as_int64, int_range, squeeze, to_vector, unravel, unsqueeze, vector_length
from extensions.front.tf.tensor_ext import constant_input
from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import (Add, Div, Equal, Greater, GreaterEqual, Less, LessEqual, LogicalNot, Maximum,
                                Minimum, Mul, NotEqual, Sub)
from mo.ops.gather import Gather
from mo.ops.pad import Pad
from mo.ops.reduce import ReduceLogicalOr, ReduceMax, ReduceProd
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.sequence_ops import Multinomial
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.tensor_ops import NonZero, ScatterNDUpdate
from mo.utils.error import Error

_I64 = np.dtype(np.int64)


class BroadcastArgsLowering(OpRule):
    """BroadcastArgs(a, b): both shapes padded with leading 1s to the longer length, then Select(a == 1, b, a)
    (where a is not 1, b is a or 1)."""
    op = 'BroadcastArgs'

    def rewrite(self, node: Node, b: Builder):
        dtype = node_dtype(node, np.int32)
        lengths = [b.shape_of(node.in_port(i), 'length_{}'.format(i)) for i in (0, 1)]
        longest = b.op(Maximum, lengths, 'longest')
        padded = []
        for i, length in enumerate(lengths):
            missing = b.op(Sub, [longest, length], 'missing_{}'.format(i))
            ones = b.op(Broadcast, [b.const(1, 'one_{}'.format(i), dtype), missing], 'ones_{}'.format(i))
            padded.append(b.concat([ones, node.in_port(i)], 'padded_{}'.format(i)))
        is_one = b.op(Equal, [padded[0], b.const(1, 'one', dtype)], 'first_is_one')
        return b.op(Select, [is_one, padded[1], padded[0]], 'broadcast_shape')


class ShapeNLowering(OpRule):
    """ShapeN(x0, ..., xn-1) = ShapeOf(x0), ..., ShapeOf(xn-1) in ``out_type``."""
    op = 'ShapeN'

    def rewrite(self, node: Node, b: Builder):
        dtype = output_type(node)
        return [b.op(ShapeOf, [node.in_port(i)], 'shape_{}'.format(i), output_type=dtype)
                for i in range(node.input_count)]


class UnravelIndexLowering(OpRule):
    """UnravelIndex(indices, dims) = FloorMod(Divide(indices, strides), dims) with strides and dims reshaped to a
    column (``[len(dims)] + [1] * rank(indices)``)."""
    op = 'UnravelIndex'

    def rewrite(self, node: Node, b: Builder):
        return unravel(b, node.in_port(0), node.in_port(1), np.dtype(node.index_type or np.int32), 'unravel')


class InvertPermutationLowering(OpRule):
    """InvertPermutation(x) = ScatterNDUpdate(zeros like x, x[:, None], Range(n)): y[x[i]] = i."""
    op = 'InvertPermutation'

    def rewrite(self, node: Node, b: Builder):
        dtype = node_dtype(node, np.int32)
        x = node.in_port(0)
        zeros = b.op(Broadcast, [b.const(0, 'zero', dtype), b.shape_of(x, 'shape')], 'zeros')
        count = b.op(Convert, [vector_length(b, x, 'length')], 'count', dst_type=dtype)
        positions = int_range(b, count, dtype, 'positions')
        return b.op(ScatterNDUpdate, [zeros, unsqueeze(b, x, -1, 'indices'), positions], 'inverse')


class LinSpaceLowering(OpRule):
    """LinSpace(start, stop, num) = start + Range(num) * (stop - start) / (num - 1), with the last element
    ``stop`` exactly (num == 1: just ``start``), as TensorFlow computes it."""
    op = 'LinSpace'

    def rewrite(self, node: Node, b: Builder):
        dtype = node_dtype(node)
        start, stop, num = node.in_port(0).get_source(), node.in_port(1).get_source(), node.in_port(2)
        count = b.op(Convert, [num], 'count', dst_type=_I64)
        intervals = b.op(Sub, [count, b.const(1, 'one', _I64)], 'intervals')
        divisor = b.op(Convert, [b.op(Maximum, [intervals, b.const(1, 'at_least_one', _I64)], 'divisor_i')],
                       'divisor', dst_type=dtype)
        step = b.op(Div, [b.op(Sub, [stop, start], 'span'), divisor], 'step')
        index = int_range(b, count, _I64, 'index')
        values = b.op(Add, [start, b.op(Mul, [b.op(Convert, [index], 'index_f', dst_type=dtype), step], 'offset')],
                      'values')
        last = b.op(Equal, [index, intervals], 'is_last')
        last = b.op(Select, [b.op(Greater, [intervals, b.const(0, 'zero', _I64)], 'several'), last,
                             b.const(False, 'never', np.bool_)], 'is_stop')
        return b.op(Select, [last, stop, values], 'linspace')


class CumprodLowering(OpRule):
    """Cumprod(x, axis) = ReduceProd over j of Select(mask(i, j), x[..., j, ...], 1): x unsqueezed before the
    axis, the mask j <= i (exclusive: j < i; reverse: j >= i, or j > i) laid over the two axes."""
    op = 'Cumprod'

    def rewrite(self, node: Node, b: Builder):
        name = node.soft_get('name', node.id)
        axis = constant_input(node, 1)
        if axis is None or np.size(axis) != 1:
            raise Error('Cumprod "{}": the axis must be a constant scalar to be converted', name)
        axis = int(np.ravel(axis)[0])
        x = node.in_port(0).get_source()
        if axis >= 0:
            insert, reduce, rank = axis, axis + 1, b.rank_of(x, 'rank')
            after = b.op(Sub, [rank, b.const([axis + 1], 'leading', np.int64)], 'after')
        else:
            insert, reduce = axis - 1, axis
            after = b.const([-axis - 1], 'after', np.int64)
        length = b.op(Gather, [b.shape_of(x, 'shape'), b.const(axis, 'axis', np.int64),
                               b.const(0, 'gather_axis', np.int64)], 'length')
        position = int_range(b, length, _I64, 'position')
        i = unsqueeze(b, position, -1, 'i')
        compare = {(False, False): LessEqual, (True, False): Less, (False, True): GreaterEqual,
                   (True, True): Greater}[(node.exclusive, node.reverse)]
        mask = b.op(compare, [position, i], 'mask')  # [i, j]
        ones = b.op(Broadcast, [b.const(1, 'one_dim', np.int64), after], 'trailing')
        mask_shape = b.concat([b.shape_of(mask, 'mask_shape'), ones], 'mask_layout')
        mask = b.op(Reshape, [mask, mask_shape], 'mask_over_axes', special_zero=False)
        spread = b.op(Select, [mask, unsqueeze(b, x, insert, 'spread_x'), b.const(1, 'one')], 'factors')
        return b.op(ReduceProd, [spread, b.const([reduce], 'reduce_axis', np.int64)], 'cumprod', keep_dims=False)


class ListDiffLowering(OpRule):
    """ListDiff(x, y): keep = no y equals x[i] (ReduceLogicalOr of an equality table), positions =
    NonZero(keep), values = Gather(x, positions)."""
    op = 'ListDiff'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        table = b.op(Equal, [unsqueeze(b, x, -1, 'column'), unsqueeze(b, node.in_port(1), 0, 'row')], 'equal')
        found = b.op(ReduceLogicalOr, [table, b.const([1], 'axis', np.int64)], 'found', keep_dims=False)
        kept = b.op(NonZero, [b.op(LogicalNot, [found], 'kept')], 'where', output_type=_I64)
        positions = squeeze(b, kept, 0, 'positions')
        values = b.op(Gather, [x, positions, b.const(0, 'gather_axis', np.int64)], 'values')
        return [values, b.op(Convert, [positions], 'indices', dst_type=output_type(node))]


class ToBoolLowering(OpRule):
    """ToBool(x) = Select(rank(x) == 0, x != 0, Size(x) > 0): a scalar's truth, else non-emptiness."""
    op = 'ToBool'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        flat = to_vector(b, x, 'flat')
        first = b.op(Slice, [flat, b.const([0], 'begin', np.int64), b.const([1], 'end', np.int64),
                             b.const([1], 'step', np.int64), b.const([0], 'axes', np.int64)], 'first')
        zero = b.const(0, 'zero')
        truth = b.op(ReduceLogicalOr, [b.op(NotEqual, [first, zero], 'nonzero'), b.const([0], 'axis', np.int64)],
                     'truth', keep_dims=False)
        size = vector_length(b, flat, 'size')
        non_empty = b.op(Greater, [size, b.const(0, 'no_elements', np.int64)], 'non_empty')
        scalar = b.op(Equal, [squeeze(b, b.rank_of(x, 'rank'), 0, 'rank_scalar'), b.const(0, 'rank_zero', np.int64)],
                      'is_scalar')
        return b.op(Select, [scalar, truth, non_empty], 'to_bool')


def _clamped_start(b, start, room, suffix):
    """``start`` (int64) clamped into [0, room]."""
    low = b.op(Maximum, [start, b.const(0, suffix + '/zero', np.int64)], suffix + '/not_negative')
    return b.op(Minimum, [low, room], suffix)


class XlaDynamicSliceLowering(OpRule):
    """XlaDynamicSlice(x, start, size) = Slice(x, s, s + size) with s = clamp(start, 0, shape(x) - size)."""
    op = 'XlaDynamicSlice'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        size = as_int64(b, node.in_port(2), 'size')
        room = b.op(Sub, [b.shape_of(x, 'shape'), size], 'room')
        start = _clamped_start(b, as_int64(b, node.in_port(1), 'start'), room, 'begin')
        stop = b.op(Add, [start, size], 'end')
        step = b.op(Broadcast, [b.const(1, 'one', np.int64), b.shape_of(size, 'rank')], 'step')
        return b.op(Slice, [x, start, stop, step], 'slice')


class XlaDynamicUpdateSliceLowering(OpRule):
    """XlaDynamicUpdateSlice(x, update, start) = Select(mask, Pad(update), x): the update padded to x's shape
    at s = clamp(start, 0, shape(x) - shape(update)), the mask the same padding of ones."""
    op = 'XlaDynamicUpdateSlice'

    def rewrite(self, node: Node, b: Builder):
        x, update = node.in_port(0).get_source(), node.in_port(1).get_source()
        update_shape = b.shape_of(update, 'update_shape')
        room = b.op(Sub, [b.shape_of(x, 'shape'), update_shape], 'room')
        before = _clamped_start(b, as_int64(b, node.in_port(2), 'start'), room, 'before')
        after = b.op(Sub, [room, before], 'after')
        placed = b.op(Pad, [update, before, after, b.const(0, 'zero')], 'placed', pad_mode='constant')
        ones = b.op(Broadcast, [b.const(1, 'one', np.uint8), update_shape], 'ones')
        mask = b.op(Pad, [ones, before, after, b.const(0, 'mask_zero', np.uint8)], 'mask', pad_mode='constant')
        inside = b.op(NotEqual, [mask, b.const(0, 'outside', np.uint8)], 'inside')
        return b.op(Select, [inside, placed, x], 'update')


class MultinomialLowering(OpRule):
    """Multinomial(logits, num_samples) = Multinomial-13(logits - ReduceMax(logits, -1), num_samples, log_probs):
    the same distribution (softmax of each row), with no exp overflow for large logits. OpenVINO's Philox draws
    are not TensorFlow's, so seeded samples follow TF's distribution, not its values."""
    op = 'Multinomial'

    def rewrite(self, node: Node, b: Builder):
        logits = node.in_port(0).get_source()
        peak = b.op(ReduceMax, [logits, b.const([-1], 'class_axis', np.int64)], 'row_max', keep_dims=True)
        shifted = b.op(Sub, [logits, peak], 'shifted_logits')
        dtype = np.dtype(node.soft_get('output_dtype', None) or np.int64)
        if dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
            raise Error('Multinomial "{}": output_dtype {} is not int32 or int64', node.soft_get('name', node.id),
                        dtype)
        return b.op(Multinomial, [shifted, node.in_port(1)], 'samples', output_type=dtype, log_probs=True,
                    with_replacement=True, global_seed=node.seed, op_seed=node.seed2)
