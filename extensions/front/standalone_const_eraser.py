"""StandaloneConstEraser: removes Const nodes that nothing consumes."""
from mo.front.common.rule import OpRule
from mo.graph.graph import Node


class StandaloneConstEraser(OpRule):
    """A Const nothing reads (and not marked as an output) = nothing."""
    op = 'Const'

    def find_and_replace_pattern(self, graph):
        if type(self).matches is not StandaloneConstEraser.matches or \
                type(self).replace_sub_graph is not OpRule.replace_sub_graph:
            return super().find_and_replace_pattern(graph)  # a subclass's own test sees every Const
        # A third of a frozen model's ops are Consts and nearly all are read: the adjacency picks the few unread
        # ones (in the order the rule's pattern would visit them), instead of a pattern match for every Const
        for node_id in graph.nodes_by_attr('op', 'Const'):
            if node_id in graph and graph.node_attrs(node_id).get('kind') == 'op' and \
                    not graph.consumer_ids(node_id):
                if self.replace_sub_graph(graph, {'op': Node(graph, node_id)}) is not False:
                    self.match_count += 1

    def matches(self, node):
        return node.graph.out_degree(node.id) == 0 and not node.has_and_set('is_output')

    def rewrite(self, node, b):
        return []
