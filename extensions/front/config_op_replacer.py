"""Replaces each sub-graph matched by a config description that has an ``op`` with one node of it.

Used when no Python replacer claims the description's id. Inputs and outputs are connected in
the configured order; the node carries the description's ``custom_attributes`` (written to the
IR). When the op class has no shape inference of its own, the output shapes are those the
replaced sub-graph would have had (``mo.front.common.config_replacement.SubgraphShapes``).
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.config_replacement import _ConfigDrivenOrder, replace_with_op
from mo.graph.graph import Graph
from mo.utils.class_registration import registered_classes


class ConfigOpReplacer(_ConfigDrivenOrder, FrontReplacementPattern):
    """Sub-graph -> one ``op`` node, for config descriptions without a replacer class."""
    id = 'ConfigOpReplacer'

    def find_and_replace_pattern(self, graph: Graph):
        claimed = {getattr(cls, 'replacement_id', None) for cls in registered_classes()}
        for desc in graph.graph.get('custom_replacement_descriptions', []):
            if not desc.op or desc.id in claimed or desc.match_kind == 'general':
                continue
            for match in desc.matches(graph):
                if any(n not in graph for n in match.matched_nodes_names()):
                    continue
                replace_with_op(graph, match)
                self.match_count += 1
