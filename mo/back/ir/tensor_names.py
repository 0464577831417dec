"""The names a written IR tensor carries: those its record gives it and, where the framework names tensors after their
ops (TensorFlow's ``op:port``) or a tensor has no name, one derived from its op's name, unless a record claims that
name for another tensor."""
import operator
from array import array
from itertools import chain, compress, repeat

import numpy as np

from mo.front.frameworks import framework
from mo.graph.graph import Graph


def _attrs_of_kind(graph: Graph, kind: str):
    """The attribute dicts of the nodes of ``kind``, in the graph's node order (an iterator)."""
    nodes = graph.node_attr_dicts()
    return compress(nodes, map(operator.eq, map(dict.get, nodes, repeat('kind')), repeat(kind)))


class TensorNames:
    """The IR names of a graph's tensors, asked one output at a time as the writer reaches it (``names``).
    ``output_records(graph, node_id)`` gives an op's ``{output index: tensor record}``."""

    def __init__(self, graph: Graph, output_records):
        self.graph = graph
        self.output_records = output_records
        #: the sorted hashes of every tensor name some record holds (``_collect_explicit_names``), the names
        #: explicitly given to the written tensors among them and the names derived from op names so far; the first
        #: two are found when first needed (a TF model's tensors hold their op's name: often never)
        self.maybe_claimed = None
        self.exact_claimed = None
        self.derived_names = set()
        #: whether a tensor also takes its op's name and port (TensorFlow's ``op:0`` / ``op:1``, as ovc names them)
        #: or only has the names the framework gave it (ONNX's, as ovc writes them; a nameless one takes its op's
        #: name, ``op`` for output 0); a graph of no framework (built by hand) derives them the latter way
        source_format = graph.graph.get('source_format')
        from_ops = source_format is not None and framework(source_format).tensor_names_from_ops
        self.names_after_ops = source_format is None or from_ops
        self.port_in_every_name = from_ops

    def _collect_explicit_names(self):
        """Names given to tensors explicitly win over names derived from node names, and so do names retired
        by a rewrite (a TF name whose tensor is gone is no name for another one).

        The names that count are those of the records ``output_records`` finds for the ops; finding them
        costs as much as writing the ops, so this collects every name any tensor record holds (a superset,
        from one look at each node), and ``_claimed`` asks the exact question only for a name in it. The superset
        is kept as the names' sorted hashes, 8 bytes a name (a set of the names took 30-60: 64 MB at a million
        tensors); a name whose hash is among them is then looked up exactly."""
        hashes = array('q', map(hash, self.graph.graph.get('retired_tensor_names', ())))
        # loops in C (map, filter, compress), not a Python step per node, and in the graph's node order: the
        # attribute dicts lie in memory roughly in that order (the kind index's sets would visit them at random)
        data_attrs = _attrs_of_kind(self.graph, 'data')
        hashes.extend(map(hash, chain.from_iterable(filter(None, map(dict.get, data_attrs, repeat('tensor_names'))))))
        op_attrs = _attrs_of_kind(self.graph, 'op')
        tables = filter(None, map(dict.get, op_attrs, repeat('_out_ports')))
        records = filter(None, chain.from_iterable(map(dict.values, tables)))
        hashes.extend(map(hash, chain.from_iterable(filter(None, map(dict.get, records, repeat('tensor_names'))))))
        self.maybe_claimed = np.frombuffer(hashes, dtype=np.int64) if hashes else np.zeros(0, np.int64)
        self.maybe_claimed.sort()  # in place: the array's own buffer

    def _claimed(self, name: str) -> bool:
        if name in self.derived_names:
            return True
        if self.maybe_claimed is None:
            self._collect_explicit_names()
        hashes, key = self.maybe_claimed, hash(name)
        position = int(hashes.searchsorted(key))
        if position == len(hashes) or int(hashes[position]) != key:
            return False
        if self.exact_claimed is None:
            claimed = set(self.graph.graph.get('retired_tensor_names', ()))
            node_attrs = self.graph.node_attrs
            for node_id in self.graph.topological_ids():
                if node_attrs(node_id).get('kind') == 'op':
                    for record in self.output_records(self.graph, node_id).values():
                        claimed.update((record or {}).get('tensor_names') or ())
            self.exact_claimed = claimed
        return name in self.exact_claimed

    def names(self, base: str, out_idx: int, record) -> list:
        """The names of output ``out_idx`` of the op named ``base`` (``record``: its tensor's record): the
        explicit ones, and the one derived from the op's name unless some tensor claims it."""
        names = list((record or {}).get('tensor_names') or ())
        if names and not self.names_after_ops:
            return names
        derived = base if out_idx == 0 and not self.port_in_every_name else '{}:{}'.format(base, out_idx)
        if derived not in names and not self._claimed(derived):
            names.append(derived)
            self.derived_names.add(derived)
        return names
