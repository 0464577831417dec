"""Small formulas the lowerings of image, detection and sequence ops share, built with a rule's builder ``b``
(``mo.front.common.rule.Builder``): sizes of dimensions in TensorFlow's names, index ranges, clamps. The formulas
every rule shares (casts, unsqueeze, transpose, ...) are the builder's methods (``mo.front.common.builder_formulas``).

Every function takes the builder, the tensors it reads (anything ``b.op`` accepts) and a ``tag`` that keeps
the names of the nodes it makes unique within one replacement.
"""
import numpy as np

from mo.ops.activation_ops import Ceiling, Floor
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice

F32 = np.float32
I32 = np.int32
I64 = np.int64


def dim(b, tensor, axis: int, tag: str, dtype=I32):
    """The size of dimension ``axis`` of ``tensor``, a scalar of ``dtype``."""
    return b.dim_of(tensor, axis, tag, dtype, const_names=('axis_index', 'axis0'))  # the names TF's pins hold


def column(b, matrix, index: int, tag: str):
    """``matrix[:, index]``."""
    return b.op(Gather, [matrix, b.const(index, tag + '/index', I64), b.const(1, tag + '/axis', I64)], tag)


def batched_gather(b, data, indices, index_rank: int, tag: str, dtype=I64):
    """``data[i, indices[i, ...]]`` for each ``i`` of the first dimension: ``data [B, N, *tail]``, ``indices``
    ``[B, *K]`` (``index_rank`` dimensions, of ``dtype``) -> ``[B, *K, *tail]``.

    A Gather of the data flattened to ``[B * N, *tail]`` at ``i * N + index``: OpenVINO's CPU plugin crashes on
    some Gathers with ``batch_dims`` that an element-wise op follows.
    """
    shape = b.op(ShapeOf, [data], tag + '/shape', output_type=np.dtype(dtype))
    tail = b.op(Slice, [shape, b.const([2], tag + '/tail_begin', I64), b.const([np.iinfo(np.int64).max],
                                                                              tag + '/tail_end', I64),
                        b.const([1], tag + '/tail_step', I64)], tag + '/tail')
    flat = b.op(Reshape, [data, b.op(Concat, [b.const([-1], tag + '/rows', dtype), tail], tag + '/flat_shape',
                                     axis=0)], tag + '/flat')
    batch = b.element(shape, 0, tag + '/batch')
    starts = b.op(Mul, [arange(b, batch, tag + '/batch_index', dtype), b.element(shape, 1, tag + '/rows_each')],
                  tag + '/starts')
    starts = b.unsqueeze(starts, range(1, index_rank), tag + '/starts_nd') if index_rank > 1 else starts
    return b.op(Gather, [flat, b.op(Add, [indices, starts], tag + '/flat_index'), b.const(0, tag + '/axis', I64)],
                tag)


def float_input(b, node, port: int, tag: str):
    """Input ``port`` of ``node`` as float32: itself when the node's ``data_type`` says it is, else Converted."""
    if np.dtype(node.soft_get('data_type', None) or F32) == F32:
        return node.in_port(port)
    return b.cast(node.in_port(port), F32, tag)


def arange(b, count, tag: str, dtype=I32):
    """``0, 1, ..., count - 1`` of ``dtype`` (``count`` a scalar tensor of ``dtype``)."""
    return b.op(Range, [b.const(0, tag + '/start', dtype), count, b.const(1, tag + '/step', dtype)], tag,
                output_type=np.dtype(dtype))


def minus_one(b, scalar, tag: str, dtype):
    return b.op(Sub, [scalar, b.const(1, tag + '/one', dtype)], tag)


def clamp(b, tensor, low, high, tag: str):
    """``min(max(tensor, low), high)`` (bounds are tensors of tensor's type)."""
    return b.op(Minimum, [b.op(Maximum, [tensor, low], tag + '/at_least'), high], tag)


def floor(b, tensor, tag: str):
    return b.op(Floor, [tensor], tag)


def ceil(b, tensor, tag: str):
    return b.op(Ceiling, [tensor], tag)
