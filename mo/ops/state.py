"""ReadValue and Assign (opset6): a variable kept by the inference request between calls.

ReadValue gives the variable's value, or its input (the initializer) on the first call and after
``reset_state()``; Assign stores its input as the variable's next value. A pair shares one
``variable_id``; Assign has no reader and stays in the graph as a sink (``undead``).
"""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.ops.op import Op


def _shape_text(shape) -> str:
    """The IR's partial-shape text: ``?`` for a dimension known only at run time (``?,2,?,64``)."""
    return ','.join('?' if int(d) < 0 else str(int(d)) for d in shape)


class ReadValue(Op):
    """The variable ``variable_id`` of shape ``variable_shape`` (``-1``: any size) and type ``variable_type``."""
    op = 'ReadValue'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'ReadValue', 'op': 'ReadValue', 'version': 'opset6',
            'infer': ReadValue.infer, 'type_infer': ReadValue.type_infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['variable_id', ('variable_type', lambda node: ir_element_type(node.variable_type)),
                ('variable_shape', lambda node: _shape_text(node.variable_shape))]

    @staticmethod
    def infer(node):
        # never a value: what the variable holds is known only at run time, whatever the initializer
        node.out_port(0).data.set_shape(np.array(node.variable_shape, dtype=np.int64))

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.variable_type)


class Assign(Op):
    """Stores its input in the variable ``variable_id`` for the next call; read by nothing."""
    op = 'Assign'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Assign', 'op': 'Assign', 'version': 'opset6', 'undead': True,
            'infer': lambda node: None, 'in_ports_count': 1, 'out_ports_count': 0,
        }, attrs)

    def backend_attrs(self):
        return ['variable_id']
