# Replaces the custom MyOp (see ../ext_custom_op) by opset ops: alpha * x * Sigmoid(x).
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.activation_ops import Sigmoid
from mo.ops.elementwise import Mul


class MyOpToSwish(FrontReplacementOp):
    op = 'MyOp'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        source = node.in_port(0).get_source()
        sigmoid = Sigmoid(graph, {'name': name + '/Sigmoid'}).create_node()
        sigmoid.in_port(0).connect(source)
        swish = Mul(graph, {'name': name + '/Swish'}).create_node()
        swish.in_port(0).connect(source)
        swish.in_port(1).connect(sigmoid.out_port(0))
        scaled = create_op_with_const_inputs(graph, Mul, {1: np.array(node.alpha, np.float32)}, {'name': name + '/Scale'})
        scaled.in_port(0).connect(swish.out_port(0))
        rename_nodes([(node, name + '/TBR'), (scaled, name)])
        return [scaled.id]
