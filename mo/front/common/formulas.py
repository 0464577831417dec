"""Rank-agnostic building blocks for lowering rules (``mo.front.common.rule``).

Front rules run before shape inference, so a formula cannot ask for a rank or a dimension: it computes
them with ShapeOf, Gather and Slice, which fold to constants once inference knows the shapes. Every
helper takes the rule's builder ``b`` and a ``suffix`` that names the nodes it makes (``<node>/<suffix>...``).
The formulas every rule shares (shape, rank, dimension, cast, unsqueeze, transpose, concat) are the builder's
methods (``mo.front.common.builder_formulas``); these are the rarer ones.
"""
import numpy as np

from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, FloorMod, Less
from mo.ops.range import Range
from mo.ops.reduce import ReduceMax, ReduceProd
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze

#: "to the end" for a Slice stop
_END = np.iinfo(np.int64).max


def dim_of(b, x, axis: int, suffix: str):
    """Dimension ``axis`` (negative counts from the end) of ``x`` as an int64 scalar."""
    return b.dim_of(x, axis, suffix, const_names=('axis', 'gather_axis'))  # the names TF's pins hold


def shape_part(b, shape, start, stop, suffix: str):
    """``shape[start:stop]`` of a 1-D shape tensor; ``start`` and ``stop`` are ints (None: the end) or
    1-element int64 tensors."""
    def bound(value, name):
        if value is None:
            value = _END
        return b.const([value], suffix + '/' + name, np.int64) if isinstance(value, (int, np.integer)) else value
    return b.op(Slice, [shape, bound(start, 'start'), bound(stop, 'stop'), b.const([1], suffix + '/step', np.int64),
                        b.const([0], suffix + '/axes', np.int64)], suffix)


def as_int64(b, x, suffix: str):
    """Convert(x, i64)."""
    return b.op(Convert, [x], suffix, dst_type=np.dtype(np.int64))


def flatten_leading(b, x, count, suffix: str):
    """``x`` reshaped to ``[-1] + shape(x)[count:]``: its first ``count`` (an int or a 1-element int64
    tensor) dimensions merged into one."""
    tail = shape_part(b, b.shape_of(x, suffix + '/shape'), count, None, suffix + '/tail')
    pattern = b.concat([b.const([-1], suffix + '/minus_one', np.int64), tail], suffix + '/pattern')
    return b.op(Reshape, [x, pattern], suffix, special_zero=False)


def to_vector(b, x, suffix: str):
    """``x`` reshaped to 1-D."""
    return b.op(Reshape, [x, b.const([-1], suffix + '/pattern', np.int64)], suffix, special_zero=False)


def unsqueeze(b, x, axis: int, suffix: str):
    """``x`` with a dimension of 1 inserted at ``axis`` (``b.unsqueeze`` takes a list of axes)."""
    return b.unsqueeze(x, [axis], suffix)


def squeeze(b, x, axis: int, suffix: str):
    return b.op(Squeeze, [x, b.const([axis], suffix + '/axes', np.int64)], suffix)


def count_after_max(b, ids, suffix: str):
    """``max(ids) + 1`` (0 when ``ids`` is empty) as a 1-element int64 vector: the number of rows a
    sorted segmentation or a stitch writes."""
    flat = as_int64(b, to_vector(b, ids, suffix + '/flat'), suffix + '/i64')
    with_floor = b.concat([b.const([-1], suffix + '/floor', np.int64), flat], suffix + '/with_floor')
    largest = b.op(ReduceMax, [with_floor, b.const([0], suffix + '/axes', np.int64)], suffix + '/max',
                   keep_dims=True)
    return b.op(Add, [largest, b.const([1], suffix + '/one', np.int64)], suffix)


def normalized_axis(b, axis, rank, suffix: str):
    """``axis + rank`` where ``axis`` < 0, else ``axis`` (tensors of one dtype)."""
    negative = b.op(Less, [axis, b.const(0, suffix + '/zero', np.int64)], suffix + '/negative')
    return b.op(Select, [negative, b.op(Add, [axis, rank], suffix + '/wrapped'), axis], suffix)


def int_range(b, stop, dtype, suffix: str):
    """Range(0, stop, 1) in ``dtype`` (``stop`` a scalar of that type)."""
    return b.op(Range, [b.const(0, suffix + '/start', dtype), stop, b.const(1, suffix + '/step', dtype)], suffix,
                output_type=np.dtype(dtype))


def vector_length(b, x, suffix: str):
    """The number of elements of a 1-D ``x`` as an int64 scalar."""
    return squeeze(b, b.shape_of(x, suffix + '/shape'), 0, suffix)


def row_major_strides(b, dims, dtype, suffix: str):
    """The row-major strides of a shape vector ``dims`` (of ``dtype``): stride_i = prod(dims[j] for j > i), a
    ReduceProd over an upper-triangular mask (the length may be dynamic)."""
    position = int_range(b, vector_length(b, dims, suffix + '/count'), np.int64, suffix + '/position')
    later = b.op(Less, [unsqueeze(b, position, -1, suffix + '/row'), position], suffix + '/later')
    factors = b.op(Select, [later, unsqueeze(b, dims, 0, suffix + '/dims_row'), b.const(1, suffix + '/one', dtype)],
                   suffix + '/factors')
    return b.op(ReduceProd, [factors, b.const([1], suffix + '/axis', np.int64)], suffix, keep_dims=False)


def unravel(b, flat, dims, dtype, suffix: str):
    """The coordinates of row-major indices ``flat`` in a tensor of shape ``dims`` (both of ``dtype``):
    ``[len(dims), *flat.shape]``, as FloorMod(Divide(flat, strides), dims) with strides and dims reshaped to a
    column (``[len(dims)] + [1] * rank(flat)``)."""
    trailing = b.op(Broadcast, [b.const(1, suffix + '/one', np.int64), b.rank_of(flat, suffix + '/rank')],
                    suffix + '/trailing')
    column = b.concat([b.shape_of(dims, suffix + '/count'), trailing], suffix + '/column_shape')
    strides = b.op(Reshape, [row_major_strides(b, dims, dtype, suffix + '/strides'), column],
                   suffix + '/stride_column', special_zero=False)
    sizes = b.op(Reshape, [dims, column], suffix + '/size_column', special_zero=False)
    return b.op(FloorMod, [b.op(Div, [flat, strides], suffix + '/quotient'), sizes], suffix)
