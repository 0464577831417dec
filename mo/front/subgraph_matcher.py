"""``SubgraphMatch``: one instance of a sub-graph found by a JSON-configured description.

It knows the matched nodes and the sub-graph's input and output tensors in the order the
description gives, so a replacer can wire a new node in their place.
"""
import re

from mo.graph.graph import Graph, Node
from mo.utils.error import Error


class SubgraphMatch:
    """A matched sub-graph: its nodes, and its inputs/outputs in configuration order.

    ``input_nodes_order[i]`` lists ``(node_id, in_port)`` consumers of the i-th input tensor;
    ``output_nodes_order[i]`` is the ``(node_id, out_port)`` producing the i-th output.
    """

    def __init__(self, graph: Graph, replacement_desc, matched_nodes: list, inputs_order: list,
                 outputs_order: list, prefix: str = ''):
        self.graph = graph
        self.custom_replacement_desc = replacement_desc
        self._matched_nodes = list(matched_nodes)
        self._matched_set = set(matched_nodes)
        self._inputs = [list(consumers) for consumers in inputs_order]
        self._outputs = list(outputs_order)
        self.scope = prefix
        self.instance_name = prefix

    def matched_nodes_names(self) -> list:
        """Ids of every node in the sub-graph."""
        return list(self._matched_nodes)

    def inputs_count(self) -> int:
        return len(self._inputs)

    def outputs_count(self) -> int:
        return len(self._outputs)

    def input_nodes(self, port: int) -> list:
        """``[(Node, in_port), ...]``: the sub-graph's consumers of input tensor ``port``."""
        if not 0 <= port < len(self._inputs):
            raise Error('Sub-graph "{}" has {} inputs; input {} was asked for', self.scope, len(self._inputs), port)
        return [(Node(self.graph, node_id), in_port) for node_id, in_port in self._inputs[port]]

    def single_input_node(self, port: int):
        """``(Node, in_port)`` of input ``port``, which must have exactly one consumer."""
        nodes = self.input_nodes(port)
        if len(nodes) != 1:
            raise Error('Input {} of sub-graph "{}" has {} consumers, not one', port, self.scope, len(nodes))
        return nodes[0]

    def output_node(self, port: int):
        """``(Node, out_port)`` producing the sub-graph's output ``port``."""
        if not 0 <= port < len(self._outputs):
            raise Error('Sub-graph "{}" has {} outputs; output {} was asked for', self.scope, len(self._outputs),
                        port)
        node_id, out_port = self._outputs[port]
        return Node(self.graph, node_id), out_port

    def node_by_pattern(self, pattern: str):
        """The one matched node whose name (below the instance's scope) matches regex ``pattern``."""
        regex = re.compile(pattern)
        found = [n for n in self._matched_nodes
                 if regex.search(str(self.graph.nodes[n].get('name', n))[len(self.scope):]
                                 if str(self.graph.nodes[n].get('name', n)).startswith(self.scope)
                                 else str(self.graph.nodes[n].get('name', n)))]
        if len(found) != 1:
            raise Error('Pattern "{}" matches {} nodes of sub-graph "{}" where one was expected{}', pattern,
                        len(found), self.scope, ': ' + ', '.join(found[:5]) if found else '')
        return Node(self.graph, found[0])

    def __contains__(self, node_id):
        return node_id in self._matched_set
