"""Constant folding: an op whose every output has a value inferred becomes Const nodes.

Partial inference computes values wherever all inputs are constant; this pass turns those
results into Consts, and clean-up then drops the computation that produced them. It runs right
after inference and once more at the very end, after the back phase has rewritten the graph.
"""
import numpy as np

from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph, Node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import Const

#: ops that are already as folded as they get, or must stay
_KEEP = {'Const', 'Parameter', 'Result'}


def fold_constants(graph: Graph) -> int:
    """Replace every op with all outputs known by one Const per output; returns how many ops folded."""
    folded = 0
    nodes = graph._node  # read directly: this loop visits every node of the model
    for node in graph.pseudo_topological_sort():
        data = nodes[node.id]
        if data.get('kind') != 'op' or data.get('op') in _KEEP or data.get('type') in _KEEP:
            continue
        outputs = [(v, key, attrs) for v, keyed in graph._succ[node.id].items() for key, attrs in keyed.items()
                   if not attrs.get('control_flow_edge')]
        if not outputs or any(nodes[v].get('value') is None for v, _, _ in outputs):
            continue
        name = node.soft_get('name', node.id)
        for data_id, key, attrs in outputs:
            value = np.asarray(graph.nodes[data_id]['value'])
            port = attrs.get('out', 0)
            const_name = name if len(outputs) == 1 else '{}/port{}'.format(name, port)
            const_id = graph.unique_id(const_name + '/folded')
            # added directly, not by Const.add_node: the data node exists already and keeps its names
            graph.add_node(const_id, **Const(graph, {'name': const_id, 'value': value}).attrs)
            graph.remove_edge(node.id, data_id, key)
            graph.add_edge(const_id, data_id, out=0)
        # the folded node keeps its TF name on the new Const: users search the IR by it
        if len(outputs) == 1:
            graph.remove_node(node.id)
            Node(graph, const_id)['name'] = name
        folded += 1
    return folded


class ConstantFolding(MiddleReplacementPattern):
    """Right after inference: constant sub-graphs become Consts."""
    id = 'ConstantFolding'

    def run_after(self):
        from mo.utils.anchors import PreMiddleStart
        return [PreMiddleStart]

    def run_before(self):
        from mo.utils.anchors import MiddleStart
        return [MiddleStart]

    def find_and_replace_pattern(self, graph: Graph):
        self.match_count = fold_constants(graph)


class FinalConstantFolding(BackReplacementPattern):
    """After the back phase: what the rewrites left constant becomes Consts too."""
    id = 'FinalConstantFolding'

    def run_after(self):
        from mo.utils.anchors import BackFinish
        return [BackFinish]

    def run_before(self):
        return []

    def find_and_replace_pattern(self, graph: Graph):
        self.match_count = fold_constants(graph)
