"""Slice (opset8): ``data[start:stop:step]`` along ``axes`` (all leading axes when absent).

Starts/stops are clamped like Python slices (negatives count from the end), which is also how
TensorFlow's Slice is expressed here: ``stop = begin + size``, or "to the end" for size -1.
"""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error
from mo.compat.ops_hook import legacy_op_names


class Slice(Op):
    """Inputs: data, start, stop, step, axes (optional)."""
    op = 'Slice'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Slice', 'op': 'Slice', 'version': 'opset8',
            'infer': Slice.infer, 'in_ports_count': 5, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        start, stop, step = (node.in_port(i).data.get_value() for i in (1, 2, 3))
        axes = node.in_port(4).data.get_value() if node.is_in_port_connected(4) else None
        if start is None or stop is None or step is None or (node.is_in_port_connected(4) and axes is None):
            node.out_port(0).data.set_shape([-1] * len(shape))
            return
        start, stop, step = (np.ravel(v) for v in (start, stop, step))
        axes = np.arange(len(start)) if axes is None else np.ravel(axes)
        index = [slice(None)] * len(shape)
        for a, b, e, s in zip(axes, start, stop, step):
            a = int(a) + len(shape) if int(a) < 0 else int(a)
            if not 0 <= a < len(shape) or int(s) == 0:
                raise Error('Slice "{}": axis {} / step {} are invalid for a rank-{} input', name, a, int(s),
                            len(shape))
            index[a] = slice(int(b), int(e), int(s))
        value = node.in_port(0).data.get_value()
        if value is not None:
            node.out_port(0).data.set_value(np.array(value[tuple(index)]))
            return
        out = [-1 if d < 0 else len(range(*sub.indices(int(d)))) for d, sub in zip(shape, index)]
        node.out_port(0).data.set_shape(out)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
