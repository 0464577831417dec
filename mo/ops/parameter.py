"""Parameter: a model input."""
import numpy as np

from mo.ops.op import Op


class Parameter(Op):
    """A model input with a (possibly partly dynamic) ``shape`` and a ``data_type``."""
    op = 'Parameter'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Parameter', 'op': 'Parameter', 'version': 'opset1',
            'infer': Parameter.infer, 'in_ports_count': 0, 'out_ports_count': 1,
            'data_type': np.float32,
        }, attrs)

    def backend_attrs(self):
        return ['shape', 'element_type']

    @staticmethod
    def infer(node):
        if node.has_valid('value'):  # an input frozen to a value by the user
            node.out_port(0).data.set_value(node.value)
        elif node.has_valid('shape'):
            node.out_port(0).data.set_shape(node.shape)
