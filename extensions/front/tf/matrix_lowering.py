"""TensorFlow's diagonal ops built from opset ops: each is one Gather along the last axis at an index grid.

The diagonals ``k0..k1`` of an ``M x N`` matrix are stored as rows of a ``[k1 - k0 + 1, L]`` tensor (one
row per diagonal, ``k1`` first; ``L`` the longest diagonal's length); a diagonal ``d`` (column - row) holds
``len(d) = min(M + min(d, 0), N - max(d, 0))`` elements starting at row ``-min(d, 0)``, column ``max(d, 0)``,
and a shorter one sits at the left of its storage row or, with RIGHT alignment, at the right (offset
``L - len(d)``). The rules compute, from the run-time sizes, where each output element comes from in the
inputs flattened over their last one or two axes, and gather it. Every size may be dynamic; the diagonal
range ``k`` must be constant (it decides the storage's rank).
"""
import numpy as np

from mo.front.common.formulas import dim_of, shape_part, unsqueeze
from extensions.front.tf.tensor_ext import constant_input
from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import (Add, Equal, GreaterEqual, Less, LessEqual, LogicalAnd, LogicalOr, Maximum, Minimum,
                                Mul, Sub)
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.utils.error import Error

_I64 = np.dtype(np.int64)


class _Ints:
    """int64 arithmetic on a builder, each node named ``<suffix>``: tensors or Python ints (made consts)."""

    def __init__(self, b: Builder):
        self.b = b

    def _in(self, value, suffix):
        if isinstance(value, (int, np.integer)):
            return self.b.const(int(value), suffix + '_c', _I64)
        return value

    def __call__(self, op_class, x, y, suffix):
        return self.b.op(op_class, [self._in(x, suffix + '/x'), self._in(y, suffix + '/y')], suffix)

    def scalar(self, port, suffix):
        """A scalar input converted to int64."""
        return self.b.op(Convert, [port], suffix, dst_type=_I64)

    def range(self, stop, suffix):
        """Range(0, stop, 1), int64."""
        return self.b.op(Range, [self._in(0, suffix + '/start'), stop, self._in(1, suffix + '/step')], suffix,
                         output_type=_I64)


def diagonal_range(node: Node, port: int):
    """(k0, k1) of a V2/V3 node's constant ``k`` input; (0, 0) for V1."""
    if not node.op.endswith(('V2', 'V3')):
        return 0, 0
    k = constant_input(node, port)
    name = node.soft_get('name', node.id)
    if k is None:
        raise Error('{} "{}": the diagonal range k must be constant to be converted (it decides the rank of the '
                    'diagonals)', node.op, name)
    k = [int(v) for v in np.ravel(k)]
    if len(k) not in (1, 2) or k[0] > k[-1]:
        raise Error('{} "{}": k {} is not a diagonal index or a range low <= high', node.op, name, k)
    return k[0], k[-1]


def _diagonal_length(ints, d, rows, cols, suffix):
    """len(d) = min(rows + min(d, 0), cols - max(d, 0))."""
    down = ints(Add, rows, ints(Minimum, d, 0, suffix + '/below'), suffix + '/rows_left')
    across = ints(Sub, cols, ints(Maximum, d, 0, suffix + '/above'), suffix + '/cols_left')
    return ints(Minimum, down, across, suffix)


def _offset(ints, node, d, length, longest, suffix):
    """Where diagonal d starts in its storage row: ``longest - len(d)`` where its side (d >= 0: the first word
    of ``align``, d < 0: the second) is RIGHT, else 0."""
    upper, lower = node.align.split('_')
    if upper == lower == 'LEFT':
        return 0
    shift = ints(Sub, longest, length, suffix + '/shift')
    if upper == lower:
        return shift
    zero = ints.b.const(0, suffix + '/zero', _I64)
    super_diagonal = ints(GreaterEqual, d, 0, suffix + '/upper')
    picked = [shift, zero] if upper == 'RIGHT' else [zero, shift]
    return ints.b.op(Select, [super_diagonal] + picked, suffix)


def _grid(ints, rows, cols, suffix):
    """(row index [M, 1], column index [N], d = column - row [M, N])."""
    row = unsqueeze(ints.b, ints.range(rows, suffix + '/rows'), -1, suffix + '/row')
    col = ints.range(cols, suffix + '/cols')
    return row, col, ints(Sub, col, row, suffix + '/d')


def _within(ints, d, k0, k1, suffix):
    return ints.b.op(LogicalAnd, [ints(GreaterEqual, d, k0, suffix + '/low'), ints(LessEqual, d, k1, suffix + '/high')],
                     suffix)


def _merge_last_two(b, x, suffix):
    """x [..., a, b] reshaped to [..., a * b]."""
    head = shape_part(b, b.shape_of(x, suffix + '/shape'), 0, -2, suffix + '/head')
    pattern = b.concat([head, b.const([-1], suffix + '/minus_one', _I64)], suffix + '/pattern')
    return b.op(Reshape, [x, pattern], suffix, special_zero=False)


def _with_padding(b, flat, value, suffix):
    """[flat, value] along the last axis: ``value`` (a scalar) broadcast to one more column."""
    head = shape_part(b, b.shape_of(flat, suffix + '/shape'), 0, -1, suffix + '/head')
    column = b.op(Broadcast, [value, b.concat([head, b.const([1], suffix + '/one', _I64)], suffix + '/column_shape')],
                  suffix + '/column')
    return b.concat([flat, column], suffix, axis=-1)


def _gather_last(b, table, index, suffix):
    return b.op(Gather, [table, index, b.const(-1, suffix + '/axis', _I64)], suffix)


def _longest(ints, k0, k1, rows, cols):
    """L: the length of the diagonal in k0..k1 nearest the main one."""
    return _diagonal_length(ints, int(min(max(0, k0), k1)), rows, cols, 'longest')


def _storage_index(ints, node, k0, k1, rows, cols, longest):
    """Over the [rows, cols] grid: (row index, column index, whether k0 <= column - row <= k1, and where that
    element of the band sits in the flattened storage of the diagonals)."""
    row, col, d = _grid(ints, rows, cols, 'grid')
    length = _diagonal_length(ints, d, rows, cols, 'length')
    position = ints(Add, ints(Minimum, row, col, 'along'), _offset(ints, node, d, length, longest, 'offset'),
                    'position')
    stored = ints(Add, ints(Mul, ints(Sub, k1, d, 'storage_row'), longest, 'row_start'), position, 'stored')
    return row, col, _within(ints, d, k0, k1, 'in_band'), stored


class MatrixDiagLowering(OpRule):
    """MatrixDiag[V2|V3](diagonals, k, num_rows, num_cols, padding_value): output (i, j) is diagonal
    k1 - (j - i)'s element min(i, j) + offset where k0 <= j - i <= k1, else the padding."""
    op = 'MatrixDiag'

    def rewrite(self, node: Node, b: Builder):
        k0, k1 = diagonal_range(node, 1)
        ints = _Ints(b)
        diagonals = node.in_port(0)
        longest = dim_of(b, diagonals, -1, 'longest')
        rows, cols = self._size(node, ints, longest, k0, k1)
        _, _, in_band, stored = _storage_index(ints, node, k0, k1, rows, cols, longest)
        padding = ints(Mul, k1 - k0 + 1, longest, 'padding_index')
        index = b.op(Select, [in_band, stored, padding], 'index')
        flat = diagonals if k0 == k1 else _merge_last_two(b, diagonals, 'flat')
        value = node.in_port(4) if node.op != 'MatrixDiag' else b.const(0, 'padding_value')
        return _gather_last(b, _with_padding(b, flat, value, 'table'), index, 'diag')

    @staticmethod
    def _size(node, ints, longest, k0, k1):
        """(M, N): num_rows/num_cols, each -1 derived from the longest diagonal as TensorFlow does."""
        least_rows = ints(Sub, longest, min(k1, 0), 'least_rows')
        least_cols = ints(Add, longest, max(k0, 0), 'least_cols')
        if node.op == 'MatrixDiag':
            return least_rows, least_rows
        square = ints(Maximum, least_rows, least_cols, 'square')
        asked_rows, asked_cols = ints.scalar(node.in_port(2), 'num_rows'), ints.scalar(node.in_port(3), 'num_cols')
        rows_unset, cols_unset = ints(Equal, asked_rows, -1, 'rows_unset'), ints(Equal, asked_cols, -1, 'cols_unset')
        b = ints.b
        rows = b.op(Select, [rows_unset, b.op(Select, [cols_unset, square, least_rows], 'derived_rows'), asked_rows],
                    'rows')
        cols = b.op(Select, [cols_unset, b.op(Select, [rows_unset, square, least_cols], 'derived_cols'), asked_cols],
                    'cols')
        return rows, cols


class MatrixDiagV2Lowering(MatrixDiagLowering):
    op = 'MatrixDiagV2'


class MatrixDiagV3Lowering(MatrixDiagLowering):
    op = 'MatrixDiagV3'


class MatrixDiagPartLowering(OpRule):
    """MatrixDiagPart[V2|V3](x, k, padding_value): storage (r, p) is x's element on diagonal d = k1 - r at
    q = p - offset along it (row q - min(d, 0), column q + max(d, 0)) where 0 <= q < len(d), else the padding."""
    op = 'MatrixDiagPart'

    def rewrite(self, node: Node, b: Builder):
        k0, k1 = diagonal_range(node, 1)
        ints = _Ints(b)
        matrices = node.in_port(0)
        rows, cols = dim_of(b, matrices, -2, 'rows'), dim_of(b, matrices, -1, 'cols')
        longest = _longest(ints, k0, k1, rows, cols)
        if k0 == k1:
            d = b.const(k0, 'd', _I64)
        else:
            d = b.const(np.arange(k1, k0 - 1, -1).reshape(-1, 1), 'd', _I64)
        length = _diagonal_length(ints, d, rows, cols, 'length')
        q = ints(Sub, ints.range(longest, 'p'), _offset(ints, node, d, length, longest, 'offset'), 'q')
        valid = b.op(LogicalAnd, [ints(GreaterEqual, q, 0, 'started'), ints(Less, q, length, 'not_over')], 'valid')
        row = ints(Sub, q, ints(Minimum, d, 0, 'below'), 'row')
        col = ints(Add, q, ints(Maximum, d, 0, 'above'), 'col')
        flat_index = ints(Add, ints(Mul, row, cols, 'row_start'), col, 'flat_index')
        padding = ints(Mul, rows, cols, 'padding_index')
        index = b.op(Select, [valid, flat_index, padding], 'index')
        value = node.in_port(2) if node.op != 'MatrixDiagPart' else b.const(0, 'padding_value')
        table = _with_padding(b, _merge_last_two(b, matrices, 'flat'), value, 'table')
        return _gather_last(b, table, index, 'diag_part')


class MatrixDiagPartV2Lowering(MatrixDiagPartLowering):
    op = 'MatrixDiagPartV2'


class MatrixDiagPartV3Lowering(MatrixDiagPartLowering):
    op = 'MatrixDiagPartV3'


class MatrixSetDiagLowering(OpRule):
    """MatrixSetDiag[V2|V3](x, diagonals, k): x's element (i, j) where k0 <= j - i <= k1 replaced by the stored
    element of that diagonal, all gathered from [x flattened, diagonals flattened]."""
    op = 'MatrixSetDiag'

    def rewrite(self, node: Node, b: Builder):
        k0, k1 = diagonal_range(node, 2)
        ints = _Ints(b)
        matrices, diagonals = node.in_port(0), node.in_port(1)
        rows, cols = dim_of(b, matrices, -2, 'rows'), dim_of(b, matrices, -1, 'cols')
        longest = _longest(ints, k0, k1, rows, cols)
        row, col, in_band, stored = _storage_index(ints, node, k0, k1, rows, cols, longest)
        from_diagonals = ints(Add, ints(Mul, rows, cols, 'matrix_size'), stored, 'from_diagonals')
        kept = ints(Add, ints(Mul, row, cols, 'kept_row_start'), col, 'kept')
        index = b.op(Select, [in_band, from_diagonals, kept], 'index')
        flat = diagonals if k0 == k1 else _merge_last_two(b, diagonals, 'flat_diagonals')
        table = b.concat([_merge_last_two(b, matrices, 'flat'), flat], 'table', axis=-1)
        return _gather_last(b, table, index, 'set_diag')


class MatrixSetDiagV2Lowering(MatrixSetDiagLowering):
    op = 'MatrixSetDiagV2'


class MatrixSetDiagV3Lowering(MatrixSetDiagLowering):
    op = 'MatrixSetDiagV3'


class MatrixBandPartLowering(OpRule):
    """MatrixBandPart(x, lower, upper) = Select((lower < 0 or i - j <= lower) and (upper < 0 or j - i <= upper),
    x, 0) over the row/column grid."""
    op = 'MatrixBandPart'

    def rewrite(self, node: Node, b: Builder):
        ints = _Ints(b)
        x = node.in_port(0)
        rows, cols = dim_of(b, x, -2, 'rows'), dim_of(b, x, -1, 'cols')
        _, _, d = _grid(ints, rows, cols, 'grid')
        lower, upper = ints.scalar(node.in_port(1), 'lower'), ints.scalar(node.in_port(2), 'upper')
        below = b.op(LogicalOr, [ints(Less, lower, 0, 'all_below'),
                                 ints(LessEqual, ints(Sub, 0, d, 'minus_d'), lower, 'near_below')], 'below_ok')
        above = b.op(LogicalOr, [ints(Less, upper, 0, 'all_above'), ints(LessEqual, d, upper, 'near_above')],
                     'above_ok')
        keep = b.op(LogicalAnd, [below, above], 'keep')
        return b.op(Select, [keep, x, b.const(0, 'zero', node_dtype(node))], 'band')
