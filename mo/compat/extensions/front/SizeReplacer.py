"""The Model Optimizer's ``extensions.front.SizeReplacer`` (``openvino.tools.mo.front.`` later), kept for authors'
unit tests.

``Size(x)`` (the element count, of type ``output_type``) becomes ``ReduceProd(ShapeOf(x), [0])`` without kept
dimensions: the ShapeOf (of ``output_type``) named ``<name>/Shape/``, the ReduceProd taking the node's name. mo's
front ends lower Size their own way, so the class is ``legacy_only``.
"""
from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.front.common.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph, rename_nodes
from mo.ops.reduce import ReduceProd
from mo.ops.shape import Shape
from mo.utils.error import Error


class SizeFrontReplacer(FrontReplacementOp):
    """``Size(x)`` -> ``ReduceProd(ShapeOf(x), [0])``."""
    legacy_only = True
    op = 'Size'
    enabled = True

    def replace_sub_graph(self, graph: Graph, match: dict):
        node = match['op']
        name = node.soft_get('name', node.id)
        if not node.has_valid('output_type'):
            raise Error('Size "{}" has no output_type attribute', name)
        shape = Shape(graph, {'name': name + '/Shape/', 'output_type': node.output_type}).create_node()
        node.in_port(0).get_connection().set_destination(shape.in_port(0))
        product = create_op_node_with_second_input(graph, ReduceProd, int64_array([0]),
                                                   {'name': shape.name + 'ReduceProd/', 'keep_dims': False}, shape)
        node.out_port(0).get_connection().set_source(product.out_port(0))
        rename_nodes([(node, name + '/ToBeDeleted'), (product, name)])
        graph.remove_node(node.id)
