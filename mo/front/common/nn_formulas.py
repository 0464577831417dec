"""Small formulas the ONNX neural-network lowerings share, built with a rule's builder ``b``: ranks and axis
ranges read from a tensor's shape (ONNX nodes do not state their rank; ShapeOf of a ShapeOf always folds, so
these become constants at inference), per-channel broadcasts."""
import numpy as np

from mo.ops.activation_ops import Erf, Tanh
from mo.ops.convert import ConvertLike
from mo.ops.elementwise import Add, Mul
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.unsqueeze import Unsqueeze

I64 = np.int64
_END = np.iinfo(np.int64).max


def rank(b, tensor, tag: str):
    """The rank of ``tensor``, an int64 scalar (a constant once shapes are inferred)."""
    shape_of_shape = b.op(ShapeOf, [b.op(ShapeOf, [tensor], tag + '/shape')], tag + '/rank_1d')
    return b.op(Gather, [shape_of_shape, b.const(0, tag + '/index', I64), b.const(0, tag + '/axis', I64)], tag)


def axes_from(b, tensor, start, tag: str, stop_offset: int = 0):
    """``[start, ..., rank + stop_offset - 1]`` (int64); a negative ``start`` counts from the rank."""
    r = rank(b, tensor, tag + '/rank')
    if start < 0:
        first = b.op(Add, [r, b.const(start, tag + '/start_offset', I64)], tag + '/start')
    else:
        first = b.const(start, tag + '/start', I64)
    stop = r
    if stop_offset:
        stop = b.op(Add, [r, b.const(stop_offset, tag + '/stop_offset', I64)], tag + '/stop')
    return b.op(Range, [first, stop, b.const(1, tag + '/step', I64)], tag, output_type=np.dtype(I64))


def spatial_axes(b, tensor, tag: str):
    """``[2, ..., rank - 1]``: the spatial axes of a channels-first tensor."""
    return axes_from(b, tensor, 2, tag)


def per_channel(b, vector, like, tag: str):
    """``vector [C]`` as ``[C, 1, ...]`` with as many 1s as ``like`` has spatial axes: broadcasts along axis 1."""
    return b.op(Unsqueeze, [vector, axes_from(b, like, 1, tag + '/axes', stop_offset=-1)], tag)


def shape_tail(b, tensor, start: int, tag: str):
    """``shape(tensor)[start:]`` (int64)."""
    shape = b.op(ShapeOf, [tensor], tag + '/shape')
    return b.op(Slice, [shape, b.const([start], tag + '/begin', I64), b.const([_END], tag + '/end', I64),
                        b.const([1], tag + '/step', I64)], tag)


def like(b, value, reference, tag: str):
    """The constant ``value`` in the element type of ``reference`` (ONNX nodes do not state their types: the type is
    known at inference, where this folds to a plain constant)."""
    return b.op(ConvertLike, [b.const(np.array(value, np.float64), tag + '/value'), reference], tag)


def gelu(b, x, approximate: str):
    """x / 2 * (1 + Erf(x / sqrt 2)); ``tanh``: x / 2 * (1 + Tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))."""
    if approximate == 'tanh':
        cube = b.op(Mul, [x, b.op(Mul, [x, x], 'square')], 'cube')
        inner = b.op(Add, [x, b.op(Mul, [cube, like(b, 0.044715, x, 'c')], 'cubic')], 'inner')
        curve = b.op(Tanh, [b.op(Mul, [inner, like(b, np.sqrt(2 / np.pi), x, 'scale')], 'scaled')], 'curve')
    else:
        curve = b.op(Erf, [b.op(Mul, [x, like(b, 1 / np.sqrt(2), x, 'scale')], 'scaled')], 'curve')
    half = b.op(Mul, [x, like(b, 0.5, x, 'half')], 'half_x')
    return b.op(Mul, [half, b.op(Add, [curve, like(b, 1, x, 'one')], 'one_plus')], 'gelu')
