# ops/scaled_tanh.py: the op class of a custom op; the IR gets a layer of type ScaledTanh (opset "extension")
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.graph.graph import Graph
from mo.ops.op import Op


class ScaledTanh(Op):
    op = 'ScaledTanh'
    enabled = True

    def __init__(self, graph: Graph, attrs: dict):
        super().__init__(graph, {
            'type': self.op, 'op': self.op, 'version': 'extension',
            'infer': copy_shape_infer,  # no type_infer: the output type is the input's
            'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):  # the attributes written to the IR's <data>
        return ['alpha', 'beta']
