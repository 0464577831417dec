"""StandaloneConstEraser: removes Const nodes that nothing consumes."""
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph


class StandaloneConstEraser(FrontReplacementPattern):
    """Removes every Const with no outgoing edge (unless it is marked as an output)."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Const'):
            if graph.out_degree(node.id) == 0 and not node.has_and_set('is_output'):
                graph.remove_node(node.id)
                self.match_count += 1
