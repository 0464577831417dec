"""Folding what inference computed: an op whose every output has a value becomes Const nodes.

Partial inference computes values wherever all inputs are constant; ``fold_inferred_constants``
turns those results into Consts, and clean-up then drops the computation that produced them. The
middle phase runs it right after inference (``ConstantFolding``) and the back phase once more at
the very end (``FinalConstantFolding``). How large a value inference may compute is one policy,
:func:`mo.utils.shape.max_constant_bytes`.
"""
import numpy as np

from mo.graph.graph import Graph
from mo.ops.const import Const

#: ops that are already as folded as they get, or must stay
_KEEP = {'Const', 'Parameter', 'Result'}


def _ops_with_known_outputs(graph: Graph) -> list:
    """The ids of the ops, Consts and the like aside, whose data edges out (one at least) all lead to a node with a
    value, in the graph's insertion order.

    A million-node model runs this twice and, folded already, finds nothing; so it does not look at every op's
    outputs (a few adjacency dicts per op, scattered in memory: 3x the time) but at the values: only an op that
    writes a value somewhere can qualify, and each node's own dict, read anyway to walk the graph, tells whether it
    holds one. In a folded graph those values are the Consts' outputs, whose producers the first test lets go; the
    few other producers are then checked in full.
    """
    nodes, out_adjacency, in_adjacency = graph.node_attrs, graph.out_adjacency, graph.in_adjacency
    producers = set()
    for node_id, data in graph.node_items():
        if data.get('value') is None:
            continue
        for producer, keyed in in_adjacency(node_id).items():
            if producer in producers:
                continue
            attrs = nodes(producer)
            if attrs.get('kind') != 'op' or attrs.get('op') in _KEEP or attrs.get('type') in _KEEP:
                continue
            if any(not edge.get('control_flow_edge') for edge in keyed.values()):
                producers.add(producer)
    found = []
    for node_id in producers:
        outputs = [consumer for consumer, keyed in out_adjacency(node_id).items()
                   if any(not edge.get('control_flow_edge') for edge in keyed.values())]
        if all(nodes(consumer).get('value') is not None for consumer in outputs):
            found.append(node_id)
    return graph.in_insertion_order(found)


def fold_inferred_constants(graph: Graph) -> int:
    """Replace every op with all outputs known by one Const per output; returns how many ops folded."""
    nodes = graph.node_attrs
    # Folding one op changes no other op's values, so the candidates are known up front and any
    # fixed order gives the same graph; the graph's insertion order keeps the output deterministic.
    candidates = [(node_id, graph.out_edge_list(node_id, data_only=True))
                  for node_id in _ops_with_known_outputs(graph)]
    for node_id, outputs in candidates:
        name = nodes(node_id).get('name', node_id)
        for data_id, key, attrs in outputs:
            # a Const has one output, so no gap in the op's outputs to keep: clean-up may now drop what nothing reads
            nodes(data_id).pop('keep_output_port', None)
            value = np.asarray(nodes(data_id)['value'])
            port = attrs.get('out', 0)
            const_name = name if len(outputs) == 1 else '{}/port{}'.format(name, port)
            const_id = graph.unique_id(const_name + '/folded')
            # added directly, not by Const.add_node: the data node exists already and keeps its names
            graph.add_node(const_id, **Const(graph, {'name': const_id, 'value': value}).attrs)
            graph.remove_edge(node_id, data_id, key)
            graph.add_edge(const_id, data_id, out=0)
        # the folded node keeps its TF name on the new Const: users search the IR by it
        if len(outputs) == 1:
            graph.remove_node(node_id)
            nodes(const_id)['name'] = name
    return len(candidates)
