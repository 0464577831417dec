"""TensorFlow's sparse-tensor ops built from opset ops (the ops ``sparse_ext.SPARSE_OPS`` lists)."""
import numpy as np

from mo.front.common.formulas import (
    int_range,
    row_major_strides,
    shape_part,
    squeeze,
    unravel,
    unsqueeze,
    vector_length,
)
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Div, Equal, Mul
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.reduce import ReduceProd, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.tensor_ops import NonZero, ScatterNDUpdate
from mo.ops.transpose import Transpose

_I64 = np.dtype(np.int64)


class SparseToDenseLowering(OpRule):
    """SparseToDense(indices, shape, values, default) = ScatterNDUpdate(Broadcast(default, shape),
    indices as rows of len(shape) coordinates, values broadcast to one per row)."""
    op = 'SparseToDense'

    def rewrite(self, node: Node, b: Builder):
        shape = node.in_port(1).get_source()
        dense = b.op(Broadcast, [node.in_port(3), shape], 'dense')
        pattern = b.concat([b.const([-1], 'minus_one', np.int64), b.shape_of(shape, 'rank')], 'rows_pattern')
        indices = b.op(Reshape, [node.in_port(0), pattern], 'indices', special_zero=False)
        count = shape_part(b, b.shape_of(indices, 'indices_shape'), 0, 1, 'count')
        values = b.op(Broadcast, [node.in_port(2), count], 'values')
        return b.op(ScatterNDUpdate, [dense, indices, values], 'scatter')


class SparseReshapeLowering(OpRule):
    """SparseReshape(indices, shape, new_shape): the new shape with its -1 set to size / (product of the
    others); each index raveled (the sum of its coordinates times the old shape's strides) and unraveled in
    the new shape."""
    op = 'SparseReshape'

    def rewrite(self, node: Node, b: Builder):
        indices, shape, wanted = node.in_port(0).get_source(), node.in_port(1).get_source(), node.in_port(2)
        axis = b.const([0], 'axis', np.int64)
        size = b.op(ReduceProd, [shape, axis], 'size', keep_dims=False)
        unknown = b.op(Equal, [wanted, b.const(-1, 'minus_one', _I64)], 'unknown')
        known = b.op(ReduceProd, [b.op(Select, [unknown, b.const(1, 'one', _I64), wanted], 'given'), axis],
                     'known', keep_dims=False)
        new_shape = b.op(Select, [unknown, b.op(Div, [size, known], 'inferred'), wanted], 'new_shape')
        strides = row_major_strides(b, shape, _I64, 'strides')
        flat = b.op(ReduceSum, [b.op(Mul, [indices, unsqueeze(b, strides, 0, 'stride_row')], 'offsets'),
                                b.const([1], 'sum_axis', np.int64)], 'flat', keep_dims=False)
        coordinates = unravel(b, flat, new_shape, _I64, 'unravel')
        return [b.op(Transpose, [coordinates, b.const([1, 0], 'order', np.int64)], 'new_indices'), new_shape]


class SparseFillEmptyRowsLowering(OpRule):
    """SparseFillEmptyRows(indices, values, shape, default): rows without entries (a scatter-add count is 0) get
    the entry [row, 0, ...] = default; all entries are then stably sorted by row (TopK, min, stable), which is
    TF's order (by row, the input order within a row). reverse_index_map: where each input entry went."""
    op = 'SparseFillEmptyRows'

    def rewrite(self, node: Node, b: Builder):
        indices, values, shape = (node.in_port(i).get_source() for i in range(3))
        rows = b.op(Gather, [indices, b.const(0, 'row_column', _I64), b.const(1, 'column_axis', _I64)], 'rows')
        row_count = shape_part(b, shape, 0, 1, 'row_count')
        ones = b.op(Broadcast, [b.const(1, 'one', _I64), b.shape_of(rows, 'entries')], 'ones')
        zeros = b.op(Broadcast, [b.const(0, 'zero', _I64), row_count], 'zeros')
        count = b.op(ScatterNDUpdate, [zeros, unsqueeze(b, rows, -1, 'row_indices'), ones], 'per_row',
                     reduction='sum')
        empty = b.op(Equal, [count, b.const(0, 'none', _I64)], 'empty')
        empty_rows = squeeze(b, b.op(NonZero, [empty], 'where_empty', output_type=_I64), 0, 'empty_rows')
        first_column = b.op(Convert, [b.op(Equal, [int_range(b, vector_length(b, shape, 'rank'), _I64, 'columns'),
                                                   b.const(0, 'column_zero', _I64)], 'is_first')], 'first_column',
                            dst_type=_I64)
        new_indices = b.op(Mul, [unsqueeze(b, empty_rows, -1, 'empty_column'), first_column], 'new_indices')
        defaults = b.op(Broadcast, [node.in_port(3), b.shape_of(empty_rows, 'new_count')], 'defaults')
        all_indices = b.concat([indices, new_indices], 'all_indices')
        all_values = b.concat([values, defaults], 'all_values')
        keys = b.op(Convert, [b.concat([rows, empty_rows], 'all_rows')], 'keys', dst_type=np.dtype(np.int32))
        total = vector_length(b, keys, 'total')
        order = b.op(TopK, [keys, total], 'order', axis=-1, mode='min', sort='value', stable=True,
                     index_element_type='i64').out_port(1)
        gather_axis = b.const(0, 'gather_axis', _I64)
        out_indices = b.op(Gather, [all_indices, order, gather_axis], 'output_indices')
        out_values = b.op(Gather, [all_values, order, gather_axis], 'output_values')
        positions = int_range(b, total, _I64, 'positions')
        destination = b.op(ScatterNDUpdate, [b.op(Broadcast, [b.const(0, 'no_position', _I64),
                                                              b.shape_of(keys, 'all_count')], 'start'),
                                             unsqueeze(b, order, -1, 'order_column'), positions], 'destination')
        reverse = b.op(Slice, [destination, b.const([0], 'begin', _I64), b.shape_of(rows, 'input_count'),
                               b.const([1], 'step', _I64), b.const([0], 'axes', _I64)], 'reverse_index_map')
        return [out_indices, out_values, empty, reverse]
