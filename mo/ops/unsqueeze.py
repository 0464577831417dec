"""Unsqueeze: inserts dimensions of size 1 at the axes given on input 1."""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error


def _normalized_axes(axes, rank):
    axes = [int(a) + rank if int(a) < 0 else int(a) for a in np.ravel(axes)]
    if any(not 0 <= a < rank for a in axes) or len(set(axes)) != len(axes):
        raise Error('axes {} are out of range for rank {}', list(np.ravel(axes)), rank)
    return sorted(axes)


def axes_count(axes_shape):
    """How many axes a 1-D (or scalar) axes input of this shape holds, or None when that is unknown."""
    if axes_shape is None or len(axes_shape) > 1:
        return None
    count = int(axes_shape[0]) if len(axes_shape) else 1
    return count if count >= 0 else None


class Unsqueeze(Op):
    """Output rank = input rank + number of axes; each axis (of the output) gets size 1."""
    op = 'Unsqueeze'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Unsqueeze', 'op': 'Unsqueeze', 'version': 'opset1',
            'infer': Unsqueeze.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        axes = node.in_port(1).data.get_value()
        if shape is not None and axes is None:
            # axes known at run time only: their count gives the rank, the sizes stay unknown
            count = axes_count(node.in_port(1).data.get_shape())
            if count is not None:
                node.out_port(0).data.set_shape([-1] * (len(shape) + count))
            return
        if shape is None or axes is None:
            return
        out_rank = len(shape) + np.size(axes)
        out = list(int(d) for d in shape)
        for axis in _normalized_axes(axes, out_rank):
            out.insert(axis, 1)
        value = node.in_port(0).data.get_value()
        if value is not None:
            node.out_port(0).data.set_value(np.reshape(value, out))
        else:
            node.out_port(0).data.set_shape(out)
