"""TensorFlow indexing ops built from opset ops: ScatterNd and the one-input Where."""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.broadcast import Broadcast
from mo.ops.const import Const
from mo.ops.tensor_ops import NonZero, ScatterNDUpdate
from mo.ops.transpose import Transpose


def _finish(node, result):
    name = node.soft_get('name', node.id)
    rename_nodes([(node, name + '/TBR'), (result, name)])
    return [result.id]


class ScatterNdLowering(FrontReplacementOp):
    """ScatterNd(indices, updates, shape) = ScatterNDUpdate(Broadcast(0, shape), indices, updates), summing
    updates that hit the same element as TensorFlow does."""
    op = 'ScatterNd'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        zero = Const(graph, {'name': name + '/zero',
                             'value': np.array(0, dtype=np.dtype(node.soft_get('data_type', None) or np.float32))}
                     ).create_node()
        zeros = Broadcast(graph, {'name': name + '/zeros'}).create_node()
        zero.out_port(0).connect(zeros.in_port(0))
        node.in_port(2).get_source().connect(zeros.in_port(1))
        scatter = ScatterNDUpdate(graph, {'name': name + '/scatter', 'reduction': 'sum'}).create_node()
        zeros.out_port(0).connect(scatter.in_port(0))
        node.in_port(0).get_source().connect(scatter.in_port(1))
        node.in_port(1).get_source().connect(scatter.in_port(2))
        return _finish(node, scatter)


class WhereLowering(FrontReplacementOp):
    """Where(x) = Transpose(NonZero(x), [1, 0]): coordinates of the non-zero elements, one per row."""
    op = 'Where'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        non_zero = NonZero(graph, {'name': name + '/non_zero', 'output_type': np.int64}).create_node()
        node.in_port(0).get_source().connect(non_zero.in_port(0))
        transpose = create_op_node_with_second_input(graph, Transpose, int64_array([1, 0]),
                                                     {'name': name + '/transpose'}, input_node=non_zero)
        return _finish(node, transpose)
