"""The Model Optimizer's ``extensions.front.AttributedRollToRoll`` (``openvino.tools.mo.front.`` later), kept for
authors' unit tests.

``AttributedRoll`` (``shift`` and, when set, ``axes`` as attributes) becomes ``Roll(x, shift[, axes])`` with Const
inputs, named as the node. mo's extractors give Roll its inputs directly, so the class is ``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_nodes
from mo.ops.sequence_ops import Roll


class AttributedRollToRoll(FrontReplacementPattern):
    """Every ``op='AttributedRoll'`` node -> ``Roll`` fed its shift (and axes) by Consts."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for attributed in graph.get_op_nodes(op='AttributedRoll'):
            name = attributed.soft_get('name', attributed.id)
            values = {1: attributed.shift}
            if attributed.has_valid('axes'):
                values[2] = attributed.axes
            roll = create_op_with_const_inputs(graph, Roll, values)
            rename_nodes([(attributed, name + '/to_be_removed'), (roll, name)])
            attributed.in_port(0).get_connection().set_destination(roll.in_port(0))
            attributed.out_port(0).get_connection().set_source(roll.out_port(0))
            graph.remove_node(attributed.id)
