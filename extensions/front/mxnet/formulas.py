"""Small formulas the MXNet rules share: integer constants, a tensor's rank and dims, per-channel broadcasting.

MXNet graphs state no shapes between ops, so what depends on a rank or a dim is built from ShapeOf; every MXNet
model has static shapes, so the middle phase folds these formulas into constants.
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.ops.concat import Concat
from mo.ops.elementwise import Sub
from mo.ops.range import Range
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze
from mo.ops.unsqueeze import Unsqueeze

I64 = np.int64
#: "to the end" for Slice stops (clamped by the op)
BIG = np.iinfo(np.int64).max


def ints(b: Builder, values, suffix: str):
    """An int64 constant."""
    return b.const(np.array(values, I64), suffix, I64)


def shape_of(b: Builder, x, suffix: str):
    return b.op(ShapeOf, [x], suffix, output_type=I64)


def rank(b: Builder, x, suffix: str):
    """The scalar rank of ``x``."""
    ranks = b.op(ShapeOf, [shape_of(b, x, suffix + '/shape')], suffix + '/rank', output_type=I64)
    return b.op(Squeeze, [ranks, ints(b, [0], suffix + '/axis')], suffix)


def dims(b: Builder, x, indices, suffix: str):
    """``shape(x)[indices]`` as a 1-D int64 tensor (negative indices count from the end)."""
    return b.dims_of(x, indices, suffix)


def shape_slice(b: Builder, x, start: int, stop, suffix: str):
    """``shape(x)[start:stop]`` (stop None: to the end)."""
    return b.op(Slice, [shape_of(b, x, suffix + '/shape'), ints(b, [start], suffix + '/start'),
                        ints(b, [BIG if stop is None else stop], suffix + '/stop'), ints(b, [1], suffix + '/step')],
                suffix)


def concat(b: Builder, parts, suffix: str):
    return parts[0] if len(parts) == 1 else b.op(Concat, parts, suffix, axis=0, in_ports_count=len(parts))


def axes_range(b: Builder, start, stop, suffix: str):
    """``Range(start, stop)`` of int64 scalars (constants or tensors)."""
    def scalar(v, tag):
        return ints(b, v, suffix + '/' + tag) if isinstance(v, (int, np.integer)) else v
    return b.op(Range, [scalar(start, 'start'), scalar(stop, 'stop'), ints(b, 1, suffix + '/step')], suffix,
                output_type=I64)


def per_channel(b: Builder, vector, x, suffix: str, axis: int = 1):
    """``vector`` (a 1-D tensor along ``x``'s axis ``axis``) given trailing ones so that it broadcasts against x."""
    stop = b.op(Sub, [rank(b, x, suffix + '/rank'), ints(b, axis, suffix + '/axis')], suffix + '/stop')
    return b.op(Unsqueeze, [vector, axes_range(b, 1, stop, suffix + '/axes')], suffix)


def all_axes(b: Builder, x, suffix: str, start: int = 0):
    """``[start, ..., rank(x) - 1]``."""
    return axes_range(b, start, rank(b, x, suffix + '/rank'), suffix)
