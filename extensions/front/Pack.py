"""Pack: TensorFlow's Pack (tf.stack) becomes Unsqueeze on each input and one Concat."""
from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.concat import Concat
from mo.ops.unsqueeze import Unsqueeze


class Pack(FrontReplacementOp):
    """``Pack(x0..xn, axis)`` = ``Concat(Unsqueeze(x0, axis), ..., axis)``."""
    op = 'Pack'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        ports = [i for i in sorted(node.in_ports()) if node.is_in_port_connected(i)]
        concat = Concat(graph, {'axis': node.axis, 'in_ports_count': len(ports)}).create_node()
        name = node.soft_get('name', node.id)
        for position, port in enumerate(ports):
            unsqueeze = create_op_with_const_inputs(graph, Unsqueeze, {1: int64_array([node.axis])},
                                                    {'name': '{}/Unsqueeze{}'.format(name, position)})
            node.in_port(port).get_connection().set_destination(unsqueeze.in_port(0))
            unsqueeze.out_port(0).connect(concat.in_port(position))
        rename_nodes([(node, name + '/TBR'), (concat, name)])
        return [concat.id]
