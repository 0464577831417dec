"""Select (opset1): ``then`` where the condition is true, ``else`` elsewhere (numpy broadcasting)."""
import numpy as np

from mo.front.common.partial_infer.elemental import broadcast_shapes
from mo.ops.op import Op


class Select(Op):
    """Inputs: condition (bool), then, else; the output type is that of ``then``."""
    op = 'Select'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Select', 'op': 'Select', 'version': 'opset1', 'auto_broadcast': 'numpy',
            'infer': Select.infer, 'type_infer': Select.type_infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['auto_broadcast']

    @staticmethod
    def infer(node):
        shapes = [node.in_port(i).data.get_shape() for i in range(3)]
        if any(s is None for s in shapes):
            return
        values = [node.in_port(i).data.get_value() for i in range(3)]
        if all(v is not None for v in values):
            result = np.where(np.asarray(values[0], dtype=bool), values[1], values[2])
            node.out_port(0).data.set_value(result.astype(np.asarray(values[1]).dtype))
            return
        node.out_port(0).data.set_shape(broadcast_shapes(*shapes))

    @staticmethod
    def type_infer(node):
        dtype = node.in_port(1).data.get_data_type()
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)
