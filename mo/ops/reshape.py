"""Reshape (opset1): gives input 0 the shape on input 1 (one ``-1`` is inferred)."""
import numpy as np

from mo.utils.shape import is_fully_defined
from mo.ops.op import Op
from mo.utils.error import Error


def reshaped_shape(in_shape, pattern, special_zero: bool, name: str = ''):
    """The output shape of Reshape; ``-1`` dims of ``in_shape`` are unknown. Error when impossible."""
    pattern = [int(d) for d in np.ravel(pattern)]
    out = []
    for i, d in enumerate(pattern):
        if d == 0 and special_zero:
            if i >= len(in_shape):
                raise Error('Reshape "{}": 0 at position {} copies a dimension the input does not have', name, i)
            out.append(int(in_shape[i]))
        else:
            out.append(d)
    # the -1 to infer is the pattern's own; a dimension a 0 copies may be -1 too (unknown), not inferred
    inferred = [i for i, d in enumerate(pattern) if d == -1]
    if len(inferred) > 1:
        raise Error('Reshape "{}": the shape {} has more than one -1', name, pattern)
    if inferred:
        known = int(np.prod([d for i, d in enumerate(out) if i != inferred[0]]))
        if is_fully_defined(in_shape):
            total = int(np.prod(in_shape))
            if known == 0 or total % known:
                raise Error('Reshape "{}": {} elements cannot take the shape {}', name, total, pattern)
            out[inferred[0]] = total // known
    elif is_fully_defined(in_shape) and is_fully_defined(out) and int(np.prod(in_shape)) != int(np.prod(out)):
        raise Error('Reshape "{}": an input of shape {} cannot take the shape {}', name,
                    [int(d) for d in in_shape], pattern)
    return np.array(out, dtype=np.int64)


class Reshape(Op):
    """TensorFlow's Reshape is ``special_zero=False``: a 0 in the pattern is a zero-sized dimension."""
    op = 'Reshape'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Reshape', 'op': 'Reshape', 'version': 'opset1', 'special_zero': False,
            'infer': Reshape.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('special_zero', lambda node: 'true' if node.special_zero else 'false')]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        pattern_shape = node.in_port(1).data.get_shape()
        if shape is None or pattern_shape is None:
            return
        pattern = node.in_port(1).data.get_value()
        if pattern is None:
            # only the rank is known: the number of elements of the pattern
            rank = int(np.prod(pattern_shape)) if len(pattern_shape) else 1
            node.out_port(0).data.set_shape([-1] * rank if rank >= 0 else None)
            return
        out = reshaped_shape(shape, pattern, bool(node.special_zero), node.soft_get('name', node.id))
        value = node.in_port(0).data.get_value()
        if value is not None:
            node.out_port(0).data.set_value(np.reshape(value, out))
        else:
            node.out_port(0).data.set_shape(out)
