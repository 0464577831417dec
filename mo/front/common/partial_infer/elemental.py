"""Inference for ops whose output has the shape of their (broadcast) inputs."""
import numpy as np

from mo.utils.shape import fold_allowed
from mo.utils.error import Error


def broadcast_shapes(*shapes):
    """Numpy broadcasting of shapes with ``-1`` for unknown dimensions; Error if incompatible."""
    rank = max(len(s) for s in shapes)
    result = []
    for dims in zip(*[[1] * (rank - len(s)) + [int(d) for d in s] for s in shapes]):
        known = {d for d in dims if d not in (1, -1)}
        if len(known) > 1:
            raise Error('Shapes {} cannot be broadcast together', [list(map(int, s)) for s in shapes])
        if known:
            result.append(known.pop())
        elif -1 in dims:
            result.append(-1)
        else:
            result.append(1)
    return np.array(result, dtype=np.int64)


def copy_shape_infer(node, value_fn=None):
    """Output 0 has input 0's shape; its value is ``value_fn(input value)`` when that is known."""
    source = node.in_port(0).data
    shape = source.get_shape()
    value = source.get_value()
    if value is not None and value_fn is not None:
        node.out_port(0).data.set_value(value_fn(value))
    elif shape is not None:
        node.out_port(0).data.set_shape(shape)


def eltwise_infer(node, value_fn=None):
    """Output 0 is the broadcast of all connected inputs; folded when every input is constant."""
    tensors = list(node.in_tensors().values())
    shapes = [t.get('shape') for t in tensors]
    if any(s is None for s in shapes):
        return
    values = [t.get('value') for t in tensors]
    out_shape = broadcast_shapes(*shapes)
    if value_fn is not None and all(v is not None for v in values) and \
            fold_allowed(node, out_shape, np.result_type(*values)):
        node.out_port(0).data.set_value(value_fn(*values))
        return
    node.out_port(0).data.set_shape(out_shape)
