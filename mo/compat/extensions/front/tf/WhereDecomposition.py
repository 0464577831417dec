"""The Model Optimizer's ``extensions.front.tf.WhereDecomposition`` (``openvino.tools.mo.front.tf.`` later), kept for
authors' unit tests.

TensorFlow's one-input ``Where(condition)`` (the coordinates of the true elements, one row each) becomes
``Transpose(NonZero(condition), [1, 0])``: the NonZero (int64 output) named ``<name>/NonZero_``, the Transpose
taking the node's name. mo's TensorFlow front end lowers Where its own way, so the class is ``legacy_only``.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.front.common.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.tensor_ops import NonZero
from mo.ops.transpose import Transpose


class WhereDecomposition(FrontReplacementOp):
    """``Where(condition)`` -> ``Transpose(NonZero(condition), [1, 0])``."""
    legacy_only = True
    op = 'Where'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        non_zero = NonZero(graph, {'name': name + '/NonZero_', 'output_type': np.int64}).create_node()
        transpose = create_op_node_with_second_input(graph, Transpose, int64_array([1, 0]), op_attrs={})
        non_zero.out_port(0).connect(transpose.in_port(0))
        rename_nodes([(node, name + '/delete'), (transpose, name)])
        non_zero.in_port(0).connect(node.in_port(0).get_source())
        return [transpose.id]
