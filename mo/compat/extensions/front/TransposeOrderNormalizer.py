"""The Model Optimizer's ``extensions.front.TransposeOrderNormalizer`` (``openvino.tools.mo.front.`` later), kept for
authors' unit tests.

A node of type ``Transpose`` with one connected input and an ``order`` attribute gets the order as a Const on input
1 and the attribute deleted; one whose ``order`` is None must have ``reverse_order`` set (an empty order: all axes
reversed); one with neither is an error. mo's extractors feed the order as an input, so the class is
``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph
from mo.ops.const import Const
from mo.utils.error import Error


class TransposeOrderNormalizer(FrontReplacementSubgraph):
    """A Transpose's ``order`` attribute -> input 1."""
    legacy_only = True
    enabled = True

    def pattern(self):
        return dict(nodes=[('transpose', dict(type='Transpose'))], edges=[])

    def replace_sub_graph(self, graph: Graph, match: dict):
        node = match['transpose']
        name = node.soft_get('name', node.id)
        if len([port for port in node.in_ports().values() if not port.disconnected()]) != 1:
            return
        if node.has_valid('order'):
            order = Const(graph, {'value': node.order}).create_node()
            node.add_input_port(1, skip_if_exist=True)
            order.out_port(0).connect(node.in_port(1))
            del graph.node[node.id]['order']
        elif node.has('order') and node.order is None:
            if not node.has_and_set('reverse_order'):
                raise Error('Transpose "{}" has order None but reverse_order is not set', name)
        else:
            raise Error('Can not deduce transpose `order` for {}: only one in_port and no `order` parameter.', name)
