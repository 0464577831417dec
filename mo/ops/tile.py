"""Tile (opset1): repeats input 0 ``repeats[i]`` times along each dimension."""
import numpy as np

from mo.utils.shape import fold_allowed
from mo.ops.op import Op
from mo.compat.ops_hook import legacy_op_names


class Tile(Op):
    """Shorter of shape/repeats is padded with leading 1s, as numpy.tile and TensorFlow do."""
    op = 'Tile'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Tile', 'op': 'Tile', 'version': 'opset1',
            'infer': Tile.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        repeats = node.in_port(1).data.get_value()
        if shape is None:
            return
        if repeats is None:
            repeats_shape = node.in_port(1).data.get_shape()
            if repeats_shape is not None and len(repeats_shape) == 1 and repeats_shape[0] >= 0:
                node.out_port(0).data.set_shape([-1] * max(len(shape), int(repeats_shape[0])))
            return
        repeats = [int(r) for r in np.ravel(repeats)]
        rank = max(len(shape), len(repeats))
        dims = [1] * (rank - len(shape)) + [int(d) for d in shape]
        repeats = [1] * (rank - len(repeats)) + repeats
        value = node.in_port(0).data.get_value()
        out = [-1 if d < 0 else d * r for d, r in zip(dims, repeats)]
        if value is not None and fold_allowed(node, out, value.dtype):
            node.out_port(0).data.set_value(np.tile(value, repeats))
        else:
            node.out_port(0).data.set_shape([-1 if d < 0 else d * r for d, r in zip(dims, repeats)])


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
