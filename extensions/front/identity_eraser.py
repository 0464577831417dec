"""IdentityEraser: removes Identity-like nodes (every framework's Identity; TF's IdentityN, StopGradient, Snapshot...).

Output ``i`` of the removed node is input ``i``: its consumers are fed by that input's producer,
which also takes over the TensorFlow tensor names of the removed output, so ``--output`` and
``--input`` names keep working after the node is gone.

A frozen Keras model reads every weight and many activations through an Identity, so the common
case (one input, readers of output 0 only, no Model Optimizer debug records on the edges) is done
on the adjacency directly, with the same graph edits, in the same order, as the rule's general path
(``rewrite_node``), which takes every other case.
"""
from mo.front.common.rule import OpRule
from mo.graph.graph import Graph, Node
from mo.graph.port import DEBUG_INFO, add_names_to_record as add_names, own_port_table, port_record, \
    writable_port_record


class IdentityEraser(OpRule):
    """Identity(x0, x1, ...) = x0, x1, ..."""
    op = 'Identity'

    def rewrite(self, node, b):
        outputs = range(max(node.out_ports(), default=-1) + 1)
        return [node.in_port(idx) if node.is_in_port_connected(idx) else None for idx in outputs]

    def find_and_replace_pattern(self, graph: Graph):
        """Each Identity in turn, as the pattern of one op node would give them: the plain case directly, the
        others through ``rewrite``."""
        if graph.phase != 'front':
            return super().find_and_replace_pattern(graph)
        # a subclass that chooses or rewrites nodes its own way gets the general path for every node
        plain = type(self).matches is OpRule.matches and type(self).rewrite is IdentityEraser.rewrite
        count = 0
        for node_id in graph.nodes_by_attr('op', self.op):  # all candidates first, as a pattern's matches
            if node_id not in graph:
                continue
            attrs = graph.node_attrs(node_id)
            if attrs.get('op') != self.op or attrs.get('kind') != 'op':
                continue  # an earlier removal's renaming or rewiring may have changed it
            if (plain and _erase_plain_identity(graph, node_id)) or \
                    self.replace_sub_graph(graph, {'op': Node(graph, node_id)}):
                count += 1
        self.match_count = getattr(self, 'match_count', 0) + count


def _erase_plain_identity(graph: Graph, node_id) -> bool:
    """Remove the front-phase Identity ``node_id`` as ``Port.get_connection().set_source()`` and
    ``graph.remove_node`` would, if it is the plain case: one data input (port 0) from an op, readers of output 0
    only, none of them a data node, and no ``fw_tensor_debug_info`` records on its output's or its source's edges
    (the save modes then have nothing to choose). False, with the graph untouched, otherwise."""
    inputs = graph.in_edge_list(node_id, data_only=True)
    if len(inputs) != 1 or inputs[0][2].get('in') != 0:
        return False
    source, _, in_attrs = inputs[0]
    port = in_attrs.get('out', 0)
    if graph.node_attrs(source).get('kind') == 'data':
        return False
    readers = graph.out_edge_list(node_id, data_only=True)
    for reader, _, attrs in readers:
        if attrs.get('out') != 0 or 'in' not in attrs or attrs.get(DEBUG_INFO) or \
                graph.node_attrs(reader).get('kind') == 'data':
            return False
    own_names = _names_of_output(graph, node_id)
    if readers or own_names:
        for reader, _, attrs in graph.out_edge_list(source, data_only=True):
            if attrs.get('out') == port and (attrs.get(DEBUG_INFO) or graph.node_attrs(reader).get('kind') == 'data'):
                return False
        source_table = own_port_table(graph.node_attrs(source), '_out_ports')
        if readers:  # as Port.connect does for each destination: ports declared on both ends, then the edge
            source_table.setdefault(port, port_record())
        for reader, key, attrs in readers:
            graph.remove_edge(node_id, reader, key)
            if attrs['in'] not in (graph.node_attrs(reader).get('_in_ports') or ()):
                own_port_table(graph.node_attrs(reader), '_in_ports')[attrs['in']] = port_record()
            graph.add_edge(source, reader, out=port, **{'in': attrs['in']})
        if own_names:
            add_names(writable_port_record(source_table, port), own_names)
    graph.remove_node(node_id)
    return True


def _names_of_output(graph: Graph, node_id) -> list:
    """The tensor names mo gave output 0 of ``node_id`` (its port record's; no data node is behind it)."""
    record = (graph.node_attrs(node_id).get('_out_ports') or {}).get(0)
    return list((record or {}).get('tensor_names') or ())
