"""ShapeOf (opset3): the shape of its input as a 1-D tensor of ``output_type``."""
import numpy as np

from mo.utils.shape import is_fully_defined
from mo.ops.convert import ir_element_type
from mo.ops.op import Op


class ShapeOf(Op):
    """Folds to a constant whenever the input shape is fully known (the usual static case)."""
    op = 'ShapeOf'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'ShapeOf', 'op': 'ShapeOf', 'version': 'opset3', 'output_type': np.int64,
            'infer': ShapeOf.infer, 'type_infer': ShapeOf.type_infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('output_type', lambda node: ir_element_type(node.output_type))]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        if is_fully_defined(shape):
            node.out_port(0).data.set_value(np.array(shape, dtype=node.output_type))
        else:
            node.out_port(0).data.set_shape([len(shape)])

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.output_type)
