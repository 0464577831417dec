"""The names of an IR's layers: each one once (OpenVINO before 2024 refuses a network that repeats one).

A layer asks for a name (its op's, or one derived from it such as ``w_compressed``); if an earlier
layer has it, the later one gets ``name/1``, ``name/2``... The names given are remembered, but for
the usual one, an op's layer named after the op when no other node of the graph has that name: the
graph's name index answers for those, where a set of a million names took 32-64 MB.
"""
from mo.graph.graph import Graph


class LayerNames:
    """The layer names given so far in one network (one graph, written in ``topological_ids`` order)."""

    def __init__(self, graph: Graph):
        self.graph = graph
        #: the names given that the graph's name index does not answer for
        self.given = set()
        #: node id -> position in the writing order, made the first time a name asked for is another op's
        self._positions = None

    def take(self, name: str, op_id, op_name: bool = False) -> str:
        """The name of the next layer, written for op ``op_id``, that asks for ``name`` (``op_name``: the op's
        own ``name`` attribute)."""
        holder = self._sole_holder(name)
        unique, count = name, 1
        taken = self._taken(unique, op_id, holder)
        while taken:  # two rules that picked one name: the later layer gets a number
            unique = '{}/{}'.format(name, count)
            count += 1
            taken = self._taken(unique, op_id, self._sole_holder(unique))
        if not (op_name and unique is name and holder == op_id):
            self.given.add(unique)
        return unique

    def _sole_holder(self, name):
        """The one node of the graph named ``name``, or None when there are none or several."""
        graph = self.graph
        return graph.nodes_by_attr('name', name)[0] if graph.count_by_attr('name', name) == 1 else None

    def _taken(self, name: str, op_id, holder) -> bool:
        """Whether a layer written before has ``name`` (``holder``: the one node of that name, if one)."""
        if name in self.given:
            return True
        # no node of that name, or several: in ``given`` once a layer has it. The one node of that name: if it
        # is an op written before, its layer has the name (or the name was taken then, and is in ``given``)
        if holder is None or holder == op_id or self.graph.node_attrs(holder).get('kind') != 'op':
            return False
        if self._positions is None:
            self._positions = {node_id: i for i, node_id in enumerate(self.graph.topological_ids())}
        return self._positions[holder] < self._positions[op_id]
