"""Squeeze: removes dimensions of size 1 (those on input 1, or all of them)."""
import numpy as np

from mo.ops.op import Op
from mo.ops.unsqueeze import _normalized_axes, axes_count
from mo.utils.error import Error


class Squeeze(Op):
    """Legacy form keeps the axes in ``squeeze_dims``; SqueezeNormalize moves them to input 1."""
    op = 'Squeeze'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Squeeze', 'op': 'Squeeze', 'version': 'opset1',
            'infer': Squeeze.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        if node.is_in_port_connected(1):
            axes = node.in_port(1).data.get_value()
            if axes is None:
                # axes known at run time only: their count gives the rank (sizes stay unknown); an empty or
                # unknown count could squeeze any number of dimensions
                count = axes_count(node.in_port(1).data.get_shape())
                if count:
                    node.out_port(0).data.set_shape([-1] * (len(shape) - count))
                return
        else:
            axes = node.soft_get('squeeze_dims', None)
        if axes is None or np.size(axes) == 0:
            axes = [i for i, d in enumerate(shape) if d == 1]
        axes = _normalized_axes(axes, len(shape))
        if any(int(shape[a]) not in (1, -1) for a in axes):
            raise Error('Squeeze "{}": dimension(s) {} of shape {} are not 1', node.soft_get('name'), axes,
                        shape.tolist())
        out = [int(d) for i, d in enumerate(shape) if i not in axes]
        value = node.in_port(0).data.get_value()
        if value is not None:
            node.out_port(0).data.set_value(np.reshape(value, out))
        else:
            node.out_port(0).data.set_shape(out)
