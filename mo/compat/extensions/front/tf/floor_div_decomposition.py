"""The Model Optimizer's ``extensions.front.tf.floor_div_decomposition`` (``openvino.tools.mo.front.tf.`` later),
kept for authors' unit tests.

``FloorDiv(a, b)`` becomes ``Floor(Div(a, b))``; the Floor takes the node's name, the Div is
``<name>/Div``, and the FloorDiv is removed. mo's pipeline lowers FloorDiv its own way
(``extensions.front.tf.math_lowering.FloorDivLowering``, exact for integers too), so this class is
``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, Node, rename_node
from mo.ops.activation_ops import Floor
from mo.ops.elementwise import Div


class FloorDivDecomposition(FrontReplacementPattern):
    """Every ``op='FloorDiv'`` node -> ``Floor`` of ``Div``."""
    legacy_only = True
    enabled = True

    @staticmethod
    def floor_div_replacement(floor_div: Node):
        """Replace one FloorDiv node."""
        graph = floor_div.graph
        name = floor_div.soft_get('name', floor_div.id)
        div = Div(graph, {'name': name + '/Div'}).create_node()
        floor = Floor(graph, {'name': name + '/Floor'}).create_node()
        div.out_port(0).connect(floor.in_port(0))
        div.in_port(0).connect(floor_div.in_port(0).get_source())
        div.in_port(1).connect(floor_div.in_port(1).get_source())
        floor_div.out_port(0).get_connection().set_source(floor.out_port(0))
        graph.remove_node(floor_div.id)
        rename_node(floor, name)

    def find_and_replace_pattern(self, graph: Graph):
        for floor_div in graph.get_op_nodes(op='FloorDiv'):
            self.floor_div_replacement(floor_div)
