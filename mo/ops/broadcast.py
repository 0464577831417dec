"""Broadcast (opset3): input 0 broadcast to the shape on input 1 (``numpy`` or ``bidirectional``)."""
import numpy as np

from mo.front.common.partial_infer.elemental import broadcast_shapes
from mo.utils.shape import fold_allowed
from mo.ops.op import Op
from mo.utils.error import Error


class Broadcast(Op):
    """``numpy``: the output has exactly the target shape; ``bidirectional``: both shapes broadcast."""
    op = 'Broadcast'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Broadcast', 'op': 'Broadcast', 'version': 'opset3', 'mode': 'numpy',
            'infer': Broadcast.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['mode']

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        target_shape = node.in_port(1).data.get_shape()
        if shape is None or target_shape is None:
            return
        target = node.in_port(1).data.get_value()
        if target is None:
            rank = int(target_shape[0]) if len(target_shape) else 0
            if node.mode == 'numpy' and rank >= 0:
                node.out_port(0).data.set_shape([-1] * rank)
            elif node.mode == 'bidirectional' and rank >= 0:
                # the input's sizes above 1 survive (the target can only match them); the others are unknown
                out_rank = max(rank, len(shape))
                dims = [1] * (out_rank - len(shape)) + [int(d) for d in shape]
                node.out_port(0).data.set_shape([d if d > 1 else -1 for d in dims])
            return
        target = [int(d) for d in np.ravel(target)]
        if node.mode == 'numpy':
            out = broadcast_shapes(shape, target)
            if len(shape) > len(target) or any(int(o) != t for o, t in zip(out, target) if int(o) != -1):
                raise Error('Broadcast "{}": shape {} cannot be broadcast to {}', node.soft_get('name', node.id),
                            [int(d) for d in shape], target)
            out = np.array(target, dtype=np.int64)
        elif node.mode == 'bidirectional':
            out = broadcast_shapes(shape, target)
        else:
            raise Error('Broadcast "{}": mode "{}" is not supported', node.soft_get('name', node.id), node.mode)
        value = node.in_port(0).data.get_value()
        if value is not None and fold_allowed(node, out, value.dtype):
            node.out_port(0).data.set_value(np.broadcast_to(value, out).copy())
        else:
            node.out_port(0).data.set_shape(out)
