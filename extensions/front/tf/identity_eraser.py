"""IdentityEraser: removes Identity-like nodes (Identity, IdentityN, StopGradient, Snapshot...).

Output ``i`` of the removed node is input ``i``: its consumers are fed by that input's producer,
which also takes over the TensorFlow tensor names of the removed output, so ``--output`` and
``--input`` names keep working after the node is gone.
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph


class IdentityEraser(FrontReplacementPattern):
    """Reconnects the consumers of every ``Identity`` node to its input's source and removes it."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in list(graph.get_op_nodes(op='Identity')):
            for idx, out_port in sorted(node.out_ports().items()):
                if not node.is_in_port_connected(idx):
                    continue
                source = node.in_port(idx).get_source()
                names = out_port.get_tensor_names()
                out_port.get_connection().set_source(source)
                source.add_tensor_names(names)
            graph.remove_node(node.id)
            self.match_count += 1
