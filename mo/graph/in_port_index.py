"""The edge feeding input port ``k`` of a node with many inputs, found without scanning them all.

A port finds its feeding edge by scanning its node's in-edges, which is the fastest way for the few
inputs most ops have. A Concat, Pack or AddN can have thousands, and a rule that visits each of its
ports (rewiring the sums of a wide AddN, say) would then do quadratic work: 20 s for 5,200 inputs.
So a node with more than ``WIDE`` predecessors gets an index ``port -> (source, key, attrs)``, built
by one scan on first use and kept up by ``Graph.add_edge``. An entry is trusted only while its edge is
still in the adjacency with the same ``in``; anything else (a removed edge, an edge whose ``in`` was
edited in place, an edge added around ``add_edge``) rebuilds the node's index, so a port fed by one
edge gets the scan's answer. A port fed twice (a rule mid-rewrite) gets one of its feeds: the scan's
first one, unless the second came by an in-place edit of ``in``.
"""

#: more predecessors than this and a node's in-ports are indexed: below it the scan is as fast
WIDE = 32


def _valid(preds, entry, idx) -> bool:
    source, key, attrs = entry
    keyed = preds.get(source)
    return keyed is not None and keyed.get(key) is attrs and attrs.get('in') == idx \
        and not attrs.get('control_flow_edge')


def find_in_edge(graph, node_id, idx, preds):
    """``(source, node_id, key, attrs)`` of the data edge into input ``idx`` of ``node_id`` (whose
    predecessor dict is ``preds``), or None."""
    indexes = graph._in_port_index
    index = indexes.get(node_id)
    if index is not None:
        entry = index.get(idx)
        if entry is not None and _valid(preds, entry, idx):
            return entry[0], node_id, entry[1], entry[2]
    index = {}
    for source, keyed in preds.items():
        for key, attrs in keyed.items():
            port = attrs.get('in')
            if port is not None and port not in index and not attrs.get('control_flow_edge'):
                index[port] = (source, key, attrs)
    indexes[node_id] = index
    entry = index.get(idx)
    return None if entry is None else (entry[0], node_id, entry[1], entry[2])


def note_added_edge(graph, index, source, target, key, attrs) -> None:
    """Record the edge ``Graph.add_edge`` just added into indexed node ``target``, unless its port already has
    a live edge (which the scan would find first)."""
    port = attrs.get('in')
    if port is None or attrs.get('control_flow_edge'):
        return
    entry = index.get(port)
    if entry is None or not _valid(graph._pred[target], entry, port):
        index[port] = (source, key, attrs)
