"""Front-phase replacer base classes.

* ``FrontReplacementPattern``: a generic front step (``find_and_replace_pattern``), or a pattern
  replacer (``pattern()`` + ``replace_pattern``);
* ``FrontReplacementSubgraph``: a pattern replacer with ``replace_sub_graph(graph, match)``;
* ``FrontReplacementOp``: replaces every node whose ``op`` is the class's ``op``.

Front replacers run between the FrontStart and FrontFinish anchors unless they say otherwise, after the
config-driven sub-graph replacements (which describe the graph as the framework wrote it).
"""
import logging as log

from mo.graph.graph import Graph, Node
from mo.utils.error import Error
from mo.utils.replacement import ReplacementPattern
from mo.utils.class_registration import anchor, config_driven_classes


class FrontReplacementPattern(ReplacementPattern):
    """A front-phase replacer (generic, or pattern-defined with ``replace_pattern``)."""
    _abstract = True
    phase = 'front'

    def run_after(self):
        return [anchor('FrontStart')] + config_driven_classes()

    def run_before(self):
        return [anchor('FrontFinish')]


class FrontReplacementSubgraph(FrontReplacementPattern):
    """Replaces every match of ``pattern()`` through ``replace_sub_graph(graph, match)``.

    Overriding ``replace_sub_graph`` gives full control. The default implementation calls
    ``generate_sub_graph(graph, match)`` for the new nodes, re-wires the inputs and outputs that
    ``input_edges_match`` / ``output_edges_match`` map, and removes ``nodes_to_remove``.
    """
    _abstract = True

    def _apply_match(self, graph, match):
        return self.replace_sub_graph(graph, match)

    @staticmethod
    def replace_input_edges(graph: Graph, mapping: dict):
        """``{(old_node_id, old_in_port): (new_node_id, new_in_port)}``: move each input's feed."""
        for (old_id, old_port), (new_id, new_port) in mapping.items():
            Node(graph, old_id).in_port(old_port).get_connection().set_destination(
                Node(graph, new_id).in_port(new_port))

    @staticmethod
    def replace_output_edges(graph: Graph, mapping: dict):
        """``{(old_node_id, old_out_port): (new_node_id, new_out_port)}``: move each output's consumers."""
        for (old_id, old_port), (new_id, new_port) in mapping.items():
            Node(graph, old_id).out_port(old_port).get_connection().set_source(
                Node(graph, new_id).out_port(new_port))

    def input_edges_match(self, graph: Graph, match, new_sub_graph: dict) -> dict:
        return {}

    def output_edges_match(self, graph: Graph, match, new_sub_graph: dict) -> dict:
        return {}

    def nodes_to_remove(self, graph: Graph, match) -> list:
        return [node.id for node in _matched_nodes(match)]

    def generate_sub_graph(self, graph: Graph, match) -> dict:
        raise NotImplementedError('{} must override replace_sub_graph or generate_sub_graph'.format(
            type(self).__name__))

    def replace_sub_graph(self, graph: Graph, match):
        new_sub_graph = self.generate_sub_graph(graph, match) or {}
        self.replace_input_edges(graph, self.input_edges_match(graph, match, new_sub_graph))
        self.replace_output_edges(graph, self.output_edges_match(graph, match, new_sub_graph))
        graph.remove_nodes_from([n for n in self.nodes_to_remove(graph, match) if n in graph])


def _matched_nodes(match):
    if hasattr(match, 'matched_nodes_names'):
        return [Node(match.graph, n) for n in match.matched_nodes_names() if n in match.graph]
    return list(match.values())


class FrontReplacementOp(FrontReplacementSubgraph):
    """Replaces every node with ``op == self.op`` through ``replace_op(graph, node)``.

    ``replace_op`` returns a list whose item ``i`` takes over the consumers of output port ``i`` of the
    matched node: a node id or ``Node`` (its output 0) or ``(node_id, out_port)``. Then the matched node
    is removed, unless an item names the matched node itself (that port stays as it is). An empty list
    is right only for a node whose outputs feed nothing; a list that leaves a connected output port
    without a replacement is an error naming this class, since the consumers would be left without an
    input and a later step would fail far from the cause. Returning None leaves re-wiring (and removal)
    to ``replace_op``. docs/extensions.md#the-replace_op-contract shows each case.
    """
    _abstract = True
    op = None

    @classmethod
    def is_abstract(cls):
        return super().is_abstract() or cls.op is None

    @classmethod
    def replaced_key(cls):
        return ('FrontReplacementOp', cls.op)

    def pattern(self):
        return dict(nodes=[('op', dict(op=self.op, kind='op'))], edges=[])

    def replace_sub_graph(self, graph: Graph, match: dict):
        node = match['op']
        result = self.replace_op(graph, node)
        if result is None:
            return
        if not isinstance(result, (list, tuple)):
            raise Error('{}.replace_op must return a list of node ids or (node id, port) pairs, not {!r}',
                        type(self).__name__, result)
        items = [item if isinstance(item, tuple) else (item, 0) for item in result]
        items = [(new_id.id if isinstance(new_id, Node) else new_id, new_port) for new_id, new_port in items]
        # checked before anything is re-wired: an error leaves the graph as replace_op left it
        for old_port in sorted(node.out_ports()):
            if old_port >= len(items) and node.is_out_port_connected(old_port):
                consumers = [p.node.soft_get('name', p.node.id) for p in node.out_port(old_port).get_destinations()]
                raise Error('{}.replace_op returned {} for "{}" ({}), whose output port {} still feeds {}',
                            type(self).__name__, list(result), node.soft_get('name', node.id), node.soft_get('op'),
                            old_port, ', '.join(consumers),
                            hint='return one node id per output port, in port order (item i takes over the '
                                 'consumers of port i), or None after re-wiring them yourself '
                                 '(docs/extensions.md#the-replace_op-contract)')
        for old_port, (new_id, new_port) in enumerate(items):
            if new_id == node.id and new_port == old_port:
                continue  # this port stays: the node itself is its replacement
            if node.is_out_port_connected(old_port) or node.out_port(old_port).get_tensor_names():
                node.out_port(old_port).get_connection().set_source(Node(graph, new_id).out_port(new_port))
        if any(new_id == node.id for new_id, _ in items):
            log.debug('{} kept {}'.format(type(self).__name__, node.id))
            return
        graph.remove_node(node.id)
        log.debug('{} replaced {}'.format(type(self).__name__, node.id))

    def replace_op(self, graph: Graph, node: Node):
        raise NotImplementedError('{} must override replace_op or replace_sub_graph'.format(type(self).__name__))
