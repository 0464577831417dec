# A custom op as a Model Optimizer extension declares it (imports as openvino.tools.mo.X -> mo.X).
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.graph.graph import Graph, Node
from mo.ops.op import Op


class MyOp(Op):
    op = 'MyOp'
    type = 'MyOp'
    enabled = True

    def __init__(self, graph: Graph, attrs: dict):
        super().__init__(graph, {
            'type': self.type, 'op': self.op, 'version': 'extension',
            'infer': MyOp.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['alpha']

    @staticmethod
    def infer(node: Node):
        copy_shape_infer(node)
