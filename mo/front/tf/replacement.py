"""Front replacers driven by ``--transformations_config`` descriptions.

* ``FrontReplacementFromConfigFileSubGraph``: ``replace_sub_graph(graph, match)`` for every
  ``SubgraphMatch`` of the descriptions whose id is the class's ``replacement_id``;
* ``FrontReplacementFromConfigFileOp``: the same, replacing each match with one node;
* ``FrontReplacementFromConfigFileGeneral``: ``transform_graph(graph, custom_attributes)``.

A replacer runs only when a loaded config has a description with its ``replacement_id``.
"""
import logging as log

from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, Node
from mo.utils.custom_replacement_config import descriptions_of
from mo.utils.error import Error


class FrontReplacementFromConfigFileSubGraph(FrontReplacementSubgraph):
    """Replaces the sub-graphs that a scope or points description matches."""
    _abstract = True
    replacement_id = None

    @classmethod
    def is_abstract(cls):
        return super().is_abstract() or cls.replacement_id is None

    @classmethod
    def replaced_key(cls):
        return ('config', cls.replacement_id)

    def find_and_replace_pattern(self, graph: Graph):
        for desc in descriptions_of(graph, self.replacement_id):
            for match in desc.matches(graph):
                if any(n not in graph for n in match.matched_nodes_names()):
                    continue
                log.debug('{} replaces "{}" ({} nodes)'.format(self.replacement_id, match.scope,
                                                               len(match.matched_nodes_names())))
                self.replace_sub_graph(graph, match)
                self.match_count = getattr(self, 'match_count', 0) + 1

    def input_edges_match(self, graph: Graph, match, new_sub_graph: dict) -> dict:
        """By default input ``i`` of the sub-graph feeds input ``i`` of ``new_sub_graph['new_node']``."""
        new_node = new_sub_graph.get('new_node')
        if new_node is None:
            return {}
        mapping = {}
        for port in range(match.inputs_count()):
            for node, in_port in match.input_nodes(port):
                mapping[(node.id, in_port)] = (new_node.id, port)
        return mapping

    def output_edges_match(self, graph: Graph, match, new_sub_graph: dict) -> dict:
        new_node = new_sub_graph.get('new_node')
        if new_node is None:
            return {}
        return {(match.output_node(port)[0].id, match.output_node(port)[1]): (new_node.id, port)
                for port in range(match.outputs_count())}

    def replace_sub_graph(self, graph: Graph, match):
        new_sub_graph = self.generate_sub_graph(graph, match) or {}
        # several consumers of one input tensor: connect the source once, then drop the old edges
        for (old_id, old_port), (new_id, new_port) in self.input_edges_match(graph, match, new_sub_graph).items():
            source = Node(graph, old_id).in_port(old_port).get_source()
            new_port_obj = Node(graph, new_id).in_port(new_port)
            if source is not None and not new_port_obj.is_connected():
                source.connect(new_port_obj)
        self.replace_output_edges(graph, self.output_edges_match(graph, match, new_sub_graph))
        graph.remove_nodes_from([n for n in self.nodes_to_remove(graph, match) if n in graph])


class FrontReplacementFromConfigFileOp(FrontReplacementFromConfigFileSubGraph):
    """Replaces each matched sub-graph with one node of ``self.op`` (or the description's ``op``)."""
    _abstract = True


class FrontReplacementFromConfigFileGeneral(FrontReplacementSubgraph):
    """Calls ``transform_graph(graph, custom_attributes)`` once per description with its id."""
    _abstract = True
    replacement_id = None

    @classmethod
    def is_abstract(cls):
        return super().is_abstract() or cls.replacement_id is None

    @classmethod
    def replaced_key(cls):
        return ('config', cls.replacement_id)

    def find_and_replace_pattern(self, graph: Graph):
        for desc in descriptions_of(graph, self.replacement_id):
            self.transform_graph(graph, desc.custom_attributes)
            self.match_count = getattr(self, 'match_count', 0) + 1

    def transform_graph(self, graph: Graph, replacement_descriptions: dict):
        raise Error('{} must define transform_graph(graph, custom_attributes)', type(self).__name__)
