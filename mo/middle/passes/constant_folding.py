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


def fold_inferred_constants(graph: Graph) -> int:
    """Replace every op with all outputs known by one Const per output; returns how many ops folded."""
    nodes = graph.node_attrs
    # Folding one op changes no other op's values, so the candidates are known up front and any
    # fixed order gives the same graph; the graph's insertion order keeps the output deterministic.
    candidates = []
    for node_id, data in graph.node_items():
        if data.get('kind') != 'op' or data.get('op') in _KEEP or data.get('type') in _KEEP:
            continue
        outputs = graph.out_edge_list(node_id, data_only=True)
        if outputs and all(nodes(v).get('value') is not None for v, _, _ in outputs):
            candidates.append((node_id, outputs))
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
