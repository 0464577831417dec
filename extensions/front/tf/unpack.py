"""Unpack (tf.unstack) = Split into ``num`` parts along ``axis``, then Squeeze that axis from each."""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.split import Split
from mo.ops.squeeze import Squeeze


class UnpackToSplit(FrontReplacementOp):
    op = 'Unpack'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        axis = np.array(node.axis, dtype=np.int64)
        split = create_op_with_const_inputs(graph, Split, {1: axis}, {'name': name + '/Split', 'num_splits': node.num})
        node.in_port(0).get_connection().set_destination(split.in_port(0))
        outputs = []
        for port in range(node.num):
            squeeze = create_op_with_const_inputs(graph, Squeeze, {1: axis.reshape([1])},
                                                  {'name': '{}/Squeeze{}'.format(name, port)})
            split.out_port(port).connect(squeeze.in_port(0))
            outputs.append(squeeze.id)
        rename_nodes([(node, name + '/TBR'), (split, name)])
        return outputs
