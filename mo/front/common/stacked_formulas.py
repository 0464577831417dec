"""Formulas on tensors stacked on a new axis 0 (a Loop's scan output: one slice per iteration), built with a rule's
builder ``b``: what ONNX's ConcatFromSequence and Paddle's ``tensor_array_to_tensor`` make of a list of tensors."""
import numpy as np

from mo.front.common.nn_formulas import I64, rank
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Equal, Less
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.transpose import Transpose


def stacked_to_joined(b, stacked, axis: int, new_axis: bool, tag: str):
    """ConcatFromSequence of the elements stacked on axis 0 of ``stacked`` [N, e...]: axis 0 moved to ``axis``
    (counted in the result's rank), and without new_axis merged with the dimension after it."""
    r = rank(b, stacked, tag + '/rank')  # the element's rank + 1
    if axis < 0:
        # new_axis: the result's rank is r, else r - 1
        at = b.op(Add, [r, b.const(axis if new_axis else axis - 1, tag + '/axis_offset', I64)], tag + '/axis')
    else:
        at = b.const(axis, tag + '/axis', I64)
    positions = b.op(Range, [b.const(0, tag + '/zero', I64), r, b.const(1, tag + '/one', I64)], tag + '/positions',
                     output_type=np.dtype(I64))
    shifted = b.op(Add, [positions, b.const(1, tag + '/next', I64)], tag + '/shifted')
    # order[i] = i + 1 before the axis, 0 at it, i after it
    order = b.op(Select, [b.op(Less, [positions, at], tag + '/before'), shifted,
                          b.op(Select, [b.op(Equal, [positions, at], tag + '/at'), b.const(0, tag + '/first', I64),
                                        positions], tag + '/after')], tag + '/order')
    moved = b.op(Transpose, [stacked, order], tag + '/moved')
    if new_axis:
        return moved
    shape = b.op(ShapeOf, [moved], tag + '/shape', output_type=np.dtype(I64))
    end = b.const([np.iinfo(np.int64).max], tag + '/end', I64)
    step = b.const([1], tag + '/step', I64)
    at_1d = b.op(Reshape, [at, b.const([1], tag + '/one_d', I64)], tag + '/axis_1d')
    head = b.op(Slice, [shape, b.const([0], tag + '/head_begin', I64), at_1d, step], tag + '/head')
    tail = b.op(Slice, [shape, b.op(Add, [at_1d, b.const([2], tag + '/two', I64)], tag + '/tail_begin'), end, step],
                tag + '/tail')
    target = b.op(Concat, [head, b.const([-1], tag + '/merged', I64), tail], tag + '/target', axis=0,
                  in_ports_count=3)
    return b.op(Reshape, [moved, target], tag + '/joined', special_zero=False)
