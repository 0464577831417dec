"""The dense form of TensorFlow's tensor lists and TensorArrays: a list of n elements of shape S is
the tensor [n, *S]. The formulas here build that form's operations out of opset ops; the list and
array ops (``tensor_list.py``, ``tensor_array.py``) are written with them.

A list whose element shape TF leaves partly unknown starts with size 1 in the unknown places
(Keras reserves ``[-1, units]`` elements: the batch is only known from the first item); writes
broadcast it to the item's shape. A list whose elements' rank is unknown starts as rank-0
elements, and the loop that fills it gives it the rank its body writes (``widen_list_rank``).
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Equal, Maximum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.loop import UNKNOWN_RANK, is_unranked_list
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.unsqueeze import Unsqueeze



def shape_of(b: Builder, tensor, suffix: str) -> Node:
    return b.op(ShapeOf, [tensor], suffix, output_type=np.int64)


def dims(b: Builder, shape, start: int, stop, suffix: str) -> Node:
    """``shape[start:stop]`` (``stop`` None: to the end) of a 1-D int64 shape."""
    end = np.iinfo(np.int64).max if stop is None else stop
    bounds = [b.const([value], suffix + '/' + role, np.int64)
              for value, role in ((start, 'start'), (end, 'stop'), (1, 'step'), (0, 'axes'))]
    return b.op(Slice, [shape] + bounds, suffix)


def length(b: Builder, lst, suffix: str = 'length') -> Node:
    """The number of elements, as a 1-D int64 tensor of one value."""
    return dims(b, shape_of(b, lst, suffix + '/shape'), 0, 1, suffix)


def dense_zeros(b: Builder, count, element_sizes, dtype) -> Node:
    """Broadcast(0, Concat([count], sizes)): an empty dense list of ``count`` elements (an in-port or
    output port); ``element_sizes`` None (unknown rank) starts with rank-0 elements, see
    ``widen_list_rank``; unknown sizes are 1 until an element is written."""
    sizes = [] if element_sizes is None else [int(d) if int(d) >= 0 else 1 for d in element_sizes]
    count = b.op(Convert, [count], 'count', dst_type=np.int64)
    count = b.op(Reshape, [count, b.const([1], 'one', np.int64)], 'count_1d')
    sizes_const = b.const(int64_array(sizes), 'sizes', np.int64)
    shape = b.op(Concat, [count, sizes_const], 'shape', axis=0)
    zero = b.const(0, 'zero', np.dtype(dtype or np.float32))
    zeros = b.op(Broadcast, [zero, shape], 'zeros')
    if element_sizes is None:
        zeros[UNKNOWN_RANK] = (sizes_const.id, shape.id)
    return zeros


def _source(item):
    """The output port an input given as a Node, an output port or an in-port stands for."""
    if getattr(item, 'type', None) == 'in' and hasattr(item, 'get_source'):
        return item.get_source()
    return item.out_port(0) if isinstance(item, Node) else item


def _unranked_zeros(lst):
    """The scalar zero an unranked list (see ``dense_zeros``) broadcasts, when ``lst`` is one; else None.
    Outside a loop no loop gives such a list its rank: a write does, from the item's shape."""
    lst = _source(lst)
    return lst.node.in_port(0).get_source() if lst.idx == 0 and is_unranked_list(lst.node) else None


def fit_elements(b: Builder, lst, element_shape) -> Node:
    """Broadcast(list, [n, *element_shape]): the list with elements of that shape (a 1-D int64 tensor;
    the list's sizes of 1 stretched; a no-op once an element has been written)."""
    shape = b.op(Concat, [length(b, lst, 'fit/length'), element_shape], 'fit/shape', axis=0)
    return b.op(Broadcast, [_unranked_zeros(lst) or _source(lst), shape], 'fit')


def grow_to_index(b: Builder, lst, index, item, dtype) -> Node:
    """The list with zero elements appended up to ``index`` (a list that resizes on a write past its end:
    TF's ``resize_if_index_out_of_bounds``, TensorArrays of ``dynamic_size``)."""
    count = length(b, lst, 'grow/length')
    index = b.op(Convert, [index], 'grow/index', dst_type=np.int64)
    index = b.op(Reshape, [index, b.const([1], 'grow/one_1d', np.int64)], 'grow/index_1d')
    needed = b.op(Add, [index, b.const(1, 'grow/one', np.int64)], 'grow/needed')
    missing = b.op(Sub, [needed, count], 'grow/missing')
    missing = b.op(Maximum, [missing, b.const(0, 'grow/zero', np.int64)], 'grow/added')
    item_shape = shape_of(b, item, 'grow/item_shape')
    zero = b.const(0, 'grow/zero_item', np.dtype(dtype or np.float32))
    added = b.op(Broadcast, [zero, b.op(Concat, [missing, item_shape], 'grow/zeros_shape', axis=0)], 'grow/zeros')
    return b.op(Concat, [fit_elements(b, lst, item_shape), added], 'grow', axis=0)


def push_back(b: Builder, lst, item) -> Node:
    """Concat(list fitted to the item, Unsqueeze(item, 0)): the list with ``item`` appended."""
    expanded = b.op(Unsqueeze, [item, b.const([0], 'item_axis', np.int64)], 'item')
    fitted = fit_elements(b, lst, shape_of(b, item, 'item_shape'))
    return b.op(Concat, [fitted, expanded], 'push', axis=0)


def write_element(b: Builder, lst, index, item) -> Node:
    """Select(Reshape(Range(0, n), [n, 1, ...]) == index, Unsqueeze(item, 0), list): the dense list with
    element ``index`` replaced by ``item`` (output ports; ``index`` may be an in-port). Written as a
    broadcast rather than a scatter, so that sizes the list leaves at 1 take the item's."""
    count = b.op(Gather, [shape_of(b, lst, 'shape'), b.const(0, 'zero', np.int64), b.const(0, 'axis0', np.int64)],
                 'length')
    positions = b.op(Range, [b.const(0, 'start', np.int64), count, b.const(1, 'step', np.int64)], 'positions',
                     output_type=np.int64)
    # [n, 1, ..., 1]: one 1 per dimension of the item, whatever its rank
    item_rank = shape_of(b, shape_of(b, item, 'item_shape'), 'item_rank')
    ones = b.op(Broadcast, [b.const(1, 'one', np.int64), item_rank], 'ones')
    column_shape = b.op(Concat, [b.const([-1], 'minus_one', np.int64), ones], 'column_shape', axis=0)
    column = b.op(Reshape, [positions, column_shape], 'column')
    index = b.op(Convert, [index], 'index', dst_type=np.int64)
    here = b.op(Equal, [column, index], 'here')
    expanded = b.op(Unsqueeze, [item, b.const([0], 'item_axis', np.int64)], 'item')
    if _unranked_zeros(lst) is not None:
        lst = fit_elements(b, lst, shape_of(b, item, 'fit/item_shape'))
    return b.op(Select, [here, expanded, lst], 'select')


def concat_elements(b: Builder, lst):
    """(Reshape(list, [n * m, *rest]), Broadcast(m, [n])): the elements [m, *rest] of the list joined
    along their first axis, and the length of each (int64), as TF's list/array concat returns them."""
    shape = shape_of(b, lst, 'concat/shape')
    count, rows = dims(b, shape, 0, 1, 'concat/count'), dims(b, shape, 1, 2, 'concat/rows')
    total = b.op(Mul, [count, rows], 'concat/total')
    joined = b.op(Concat, [total, dims(b, shape, 2, None, 'concat/rest')], 'concat/joined_shape', axis=0)
    value = b.op(Reshape, [lst, joined], 'concat/value')
    row_count = b.op(Reshape, [rows, b.const([], 'concat/scalar', np.int64)], 'concat/row_count')
    lengths = b.op(Broadcast, [row_count, count], 'concat/lengths')
    return value, lengths


def split_elements(b: Builder, value, count: int, rows: int) -> Node:
    """Reshape(value, [count, rows, *rest]): ``value`` cut along its first axis into ``count`` elements
    of ``rows`` rows each (the dense form holds elements of one shape only)."""
    rest = dims(b, shape_of(b, value, 'split/shape'), 1, None, 'split/rest')
    shape = b.op(Concat, [b.const([count, rows], 'split/lead', np.int64), rest], 'split/split_shape', axis=0)
    return b.op(Reshape, [value, shape], 'split')
