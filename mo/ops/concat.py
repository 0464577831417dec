"""Concat: joins its inputs along ``axis``."""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error


class Concat(Op):
    """Concatenates every connected input along ``axis`` (negative axes count from the end)."""
    op = 'Concat'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Concat', 'op': 'Concat', 'version': 'opset1', 'axis': 1,
            'infer': Concat.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['axis']

    @staticmethod
    def infer(node):
        ports = [p for _, p in sorted(node.in_ports().items()) if p.is_connected()]
        shapes = [p.data.get_shape() for p in ports]
        if not ports or any(s is None for s in shapes):
            return
        rank = len(shapes[0])
        axis = node.axis + rank if node.axis < 0 else node.axis
        if not 0 <= axis < rank or any(len(s) != rank for s in shapes):
            raise Error('Concat "{}": inputs of shapes {} cannot be joined on axis {}', node.soft_get('name'),
                        [s.tolist() for s in shapes], node.axis)
        values = [p.data.get_value() for p in ports]
        if all(v is not None for v in values):
            node.out_port(0).data.set_value(np.concatenate(values, axis=axis))
            return
        out = shapes[0].copy()
        sizes = [int(s[axis]) for s in shapes]
        out[axis] = -1 if -1 in sizes else sum(sizes)
        node.out_port(0).data.set_shape(out)
