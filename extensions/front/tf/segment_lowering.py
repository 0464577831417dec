"""TensorFlow's segment ops, DynamicStitch and DynamicPartition built from opset ops.

A segment reduction is one ScatterNDUpdate (opset15) with the op's reduction, scattering the data's rows
into a tensor of ``rows`` rows that holds the reduction's identity (0 for sums, 1 for products, the lowest
or highest value for maxima and minima): row ``ids[i]`` receives ``data[i]``. Where TensorFlow defines a
value for an empty segment that the identity is not (SegmentMax/Min give 0) or divides by the segment's
size (the means), a second scatter counts each segment's rows. Every shape is computed at run time, so
dynamic dimensions and segment counts convert; static ones fold.
"""
import numpy as np

from mo.front.common.formulas import (
    as_int64,
    count_after_max,
    flatten_leading,
    shape_part,
    squeeze,
    to_vector,
    unsqueeze,
)
from extensions.front.tf.math_lowering import truncated_quotient
from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.elementwise import Add, Div, Equal, Greater, Less, Maximum, Sub
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.tensor_ops import NonZero, ScatterNDUpdate
from mo.utils import narrow_types

#: op suffix -> the opset reduction
_REDUCTION = {'Sum': 'sum', 'Mean': 'sum', 'SqrtN': 'sum', 'Prod': 'prod', 'Max': 'max', 'Min': 'min'}


def _identity(reduction: str, dtype: np.dtype):
    """The value a segment starts from: the reduction's identity (TF's lowest/highest for max/min)."""
    if reduction in ('max', 'min'):
        # numpy's finfo does not know bfloat16 (a numpy dtype of kind 'V'); ml_dtypes' does
        kind = np.dtype(dtype).kind
        limits = np.iinfo(dtype) if kind in 'iub' else np.finfo(dtype) if kind == 'f' else \
            narrow_types.module().finfo(dtype)
        return limits.min if reduction == 'max' else limits.max
    return 1 if reduction == 'prod' else 0


def _scatter_rows(b, data, indices, rows, reduction: str, value, dtype, suffix: str):
    """ScatterNDUpdate(Broadcast(value, [rows] + shape(data)[rank(indices) - 1:]), indices, data,
    reduction): ``indices`` are the segment ids with a trailing dimension of 1."""
    inner = shape_part(b, b.shape_of(data, suffix + '/data_shape'),
                       _id_rank(b, indices, suffix + '/ids_rank'), None, suffix + '/inner')
    shape = b.concat([rows, inner], suffix + '/shape')
    start = b.op(Broadcast, [b.const(value, suffix + '/identity', dtype), shape], suffix + '/start')
    return b.op(ScatterNDUpdate, [start, indices, data], suffix, reduction=reduction)


def _id_rank(b, indices, suffix):
    """rank(indices) - 1: the rank of the segment ids the trailing unit dimension was added to."""
    return b.op(Sub, [b.rank_of(indices, suffix + '/rank'), b.const([1], suffix + '/one', np.int64)], suffix)


def segment_reduce(b: Builder, data, ids, rows, kind: str, dtype, empty_is_zero: bool):
    """The segment reduction ``kind`` ('Sum', 'Mean', 'SqrtN', 'Prod', 'Max', 'Min') of ``data`` by ``ids``
    (non-negative, below ``rows``, a 1-element int64 tensor)."""
    reduction = _REDUCTION[kind]
    indices = unsqueeze(b, ids, -1, 'indices')
    total = _scatter_rows(b, data, indices, rows, reduction, _identity(reduction, dtype), dtype, 'reduce')
    if kind in ('Sum', 'Prod') or (kind in ('Max', 'Min') and not empty_is_zero):
        return total
    ones = b.op(Broadcast, [b.const(1, 'one', dtype), b.shape_of(data, 'data_shape')], 'ones')
    count = _scatter_rows(b, ones, indices, rows, 'sum', 0, dtype, 'count')
    zero = b.const(0, 'zero', dtype)
    if kind in ('Max', 'Min'):
        return b.op(Select, [b.op(Greater, [count, zero], 'non_empty'), total, zero], 'segment')
    count = b.op(Maximum, [count, b.const(1, 'at_least_one', dtype)], 'divisor')
    if kind == 'SqrtN':
        return b.op(Div, [total, b.op(Sqrt, [count], 'sqrt_count')], 'segment')
    if np.issubdtype(dtype, np.integer):
        return truncated_quotient(b, total, count)
    return b.op(Div, [total, count], 'segment')


class SegmentLowering(OpRule):
    """SegmentX(data, ids) = ScatterNDUpdate(identity [max(ids) + 1, ...], ids, data, X) (see the module)."""
    op = 'SegmentSum'

    def rewrite(self, node: Node, b: Builder):
        data, ids = node.in_port(0), node.in_port(1)
        rows = count_after_max(b, ids, 'rows')
        return segment_reduce(b, data, ids, rows, node.op[len('Segment'):], node_dtype(node), True)


class SegmentMeanLowering(SegmentLowering):
    op = 'SegmentMean'


class SegmentProdLowering(SegmentLowering):
    op = 'SegmentProd'


class SegmentMaxLowering(SegmentLowering):
    op = 'SegmentMax'


class SegmentMinLowering(SegmentLowering):
    op = 'SegmentMin'


class UnsortedSegmentLowering(OpRule):
    """UnsortedSegmentX(data, ids, n): ids < 0 go to an extra row n that is cut off afterwards (TF drops
    them), the rest as SegmentX into n rows."""
    op = 'UnsortedSegmentSum'

    def rewrite(self, node: Node, b: Builder):
        data = node.in_port(0)
        ids = as_int64(b, node.in_port(1), 'ids')
        rows = as_int64(b, to_vector(b, node.in_port(2), 'num_segments'), 'rows')
        dropped = b.op(Less, [ids, b.const(0, 'zero_id', np.int64)], 'dropped')
        spare_row = squeeze(b, rows, 0, 'spare_row')
        kept = b.op(Select, [dropped, spare_row, ids], 'kept_ids')
        with_spare = b.op(Add, [rows, b.const([1], 'one_row', np.int64)], 'rows_and_spare')
        kind = node.op[len('UnsortedSegment'):]
        total = segment_reduce(b, data, kept, with_spare, kind, node_dtype(node), False)
        return b.op(Slice, [total, b.const([0], 'begin', np.int64), rows, b.const([1], 'step', np.int64),
                            b.const([0], 'axes', np.int64)], 'segments')


class UnsortedSegmentProdLowering(UnsortedSegmentLowering):
    op = 'UnsortedSegmentProd'


class UnsortedSegmentMaxLowering(UnsortedSegmentLowering):
    op = 'UnsortedSegmentMax'


class UnsortedSegmentMinLowering(UnsortedSegmentLowering):
    op = 'UnsortedSegmentMin'


class SparseSegmentLowering(OpRule):
    """SparseSegmentX(data, indices, ids[, n]) = SegmentX(Gather(data, indices), ids) into max(ids) + 1
    rows, or n rows; empty segments are 0."""
    op = 'SparseSegmentSum'

    def rewrite(self, node: Node, b: Builder):
        rows_of = node.in_port(3) if node.op.endswith('WithNumSegments') else None
        picked = b.op(Gather, [node.in_port(0), node.in_port(1), b.const(0, 'gather_axis', np.int64)], 'picked')
        ids = node.in_port(2)
        if rows_of is None:
            rows = count_after_max(b, ids, 'rows')
        else:
            rows = as_int64(b, to_vector(b, rows_of, 'num_segments'), 'rows')
        kind = node.op[len('SparseSegment'):].replace('WithNumSegments', '')
        return segment_reduce(b, picked, ids, rows, kind, node_dtype(node), True)


class SparseSegmentMeanLowering(SparseSegmentLowering):
    op = 'SparseSegmentMean'


class SparseSegmentSqrtNLowering(SparseSegmentLowering):
    op = 'SparseSegmentSqrtN'


class SparseSegmentSumWithNumSegmentsLowering(SparseSegmentLowering):
    op = 'SparseSegmentSumWithNumSegments'


class SparseSegmentMeanWithNumSegmentsLowering(SparseSegmentLowering):
    op = 'SparseSegmentMeanWithNumSegments'


class SparseSegmentSqrtNWithNumSegmentsLowering(SparseSegmentLowering):
    op = 'SparseSegmentSqrtNWithNumSegments'


class DynamicStitchLowering(OpRule):
    """DynamicStitch(indices_0..n-1, data_0..n-1): every (index, row) pair flattened into one list; per
    output row the position of its last writer (ScatterNDUpdate with max over the positions, -1 where
    nobody writes), then Gather of those rows from the data with a row of zeros appended (which -1
    picks)."""
    op = 'DynamicStitch'

    def rewrite(self, node: Node, b: Builder):
        count = node.stitch_count
        indices = [node.in_port(i) for i in range(count)]
        data = [node.in_port(count + i) for i in range(count)]
        flat_indices = as_int64(b, b.concat([to_vector(b, ids, 'indices_{}'.format(i))
                                              for i, ids in enumerate(indices)], 'all_indices'), 'indices')
        rows = [flatten_leading(b, part, b.rank_of(ids, 'rank_{}'.format(i)), 'rows_{}'.format(i))
                for i, (ids, part) in enumerate(zip(indices, data))]
        inner = shape_part(b, b.shape_of(rows[0], 'row_shape'), 1, None, 'inner')
        zero_row = b.op(Broadcast, [b.const(0, 'zero', node_dtype(node)),
                                    b.concat([b.const([1], 'one_row', np.int64), inner], 'zero_row_shape')],
                        'zero_row')
        table = b.concat(rows + [zero_row], 'table')
        positions = b.op(Range, [b.const(0, 'first', np.int64), squeeze(b, b.shape_of(flat_indices, 'total'), 0,
                                                                         'count'), b.const(1, 'step', np.int64)],
                         'positions', output_type=np.dtype(np.int64))
        nobody = b.op(Broadcast, [b.const(-1, 'nobody', np.int64), count_after_max(b, flat_indices, 'out_rows')],
                      'nobody_yet')
        writer = b.op(ScatterNDUpdate, [nobody, unsqueeze(b, flat_indices, -1, 'scatter_indices'), positions],
                      'last_writer', reduction='max')
        return b.op(Gather, [table, writer, b.const(0, 'gather_axis', np.int64)], 'stitched')


class ParallelDynamicStitchLowering(DynamicStitchLowering):
    op = 'ParallelDynamicStitch'


class DynamicPartitionLowering(OpRule):
    """DynamicPartition(data, partitions) output i = Gather(data flattened over the partitions' dimensions,
    NonZero(partitions == i))."""
    op = 'DynamicPartition'

    def rewrite(self, node: Node, b: Builder):
        partitions = to_vector(b, node.in_port(1), 'partitions')
        rows = flatten_leading(b, node.in_port(0), b.rank_of(node.in_port(1), 'rank'), 'rows')
        outputs = []
        for i in range(node.num_partitions):
            chosen = b.op(Equal, [partitions, b.const(i, 'id_{}'.format(i), np.int32)], 'is_{}'.format(i))
            where = b.op(NonZero, [chosen], 'where_{}'.format(i), output_type=np.dtype(np.int64))
            outputs.append(b.op(Gather, [rows, squeeze(b, where, 0, 'positions_{}'.format(i)),
                                         b.const(0, 'axis_{}'.format(i), np.int64)], 'partition_{}'.format(i)))
        return outputs
