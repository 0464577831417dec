"""NoOpEraser: removes NoOp nodes, which only carry control dependencies."""
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph


class NoOpEraser(FrontReplacementPattern):
    """Removes every ``NoOp`` (its control edges go with it; no data flows through a NoOp)."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='NoOp'):
            graph.remove_node(node.id)
            self.match_count += 1
