"""The graph every phase of mo works on: a networkx MultiDiGraph with typed nodes and ports.

Front phase: only op nodes (``kind='op'``); an edge ``u -> v`` carries ``out`` (u's output port)
and ``in`` (v's input port). TensorFlow control dependencies are edges with
``control_flow_edge=True`` and no ports.

Middle and back phases: op and data nodes alternate. An op's output port ``k`` feeds a data
node through an edge with ``out=k``; the data node feeds consumers through edges with ``in=i``.
A data node holds the tensor's ``shape`` and, when known, its ``value``.

Nodes are indexed by ``op``, ``type``, ``kind`` and ``name``, so ``get_op_nodes(op='Pack')`` costs time in
the number of Pack nodes, not in the size of the graph; node attribute dicts report writes to the indexed
keys (``mo.graph.node_attrs``), so the index stays right however an attribute is written.

``Node`` (``mo.graph.node``) and the node helpers are importable from here too, as extension
authors expect (``from mo.graph.graph import Graph, Node, rename_nodes``).
"""
import contextlib
import heapq
import itertools

from mo.graph.algorithms import find_cycle
from mo.graph.in_port_index import note_added_edge
from mo.graph.clean_up import clean_up, clean_up_after
from mo.graph.lazy_networkx import import_networkx
from mo.graph.legacy_api import (LegacyGraphAPI, dict_includes_compare_attrs, get_edge_attribute_between_nodes,
                                  set_edge_attribute_between_nodes)
from mo.graph.node import Node, dict_includes, fast_node, rename_node, rename_nodes, replace_node
from mo.graph.node_attrs import INDEXED, INDEXED_ATTRS, IndexedAttrs
from mo.graph.port import keep_out_record, keep_out_records
from mo.utils.error import Error

nx = import_networkx()

__all__ = ['Graph', 'GraphAssertionError', 'Node', 'INDEXED_ATTRS', 'add_opoutput', 'dict_includes', 'dict_includes_compare_attrs',
           'fast_node', 'find_cycle', 'get_edge_attribute_between_nodes', 'rename_node', 'rename_nodes',
           'replace_node', 'set_edge_attribute_between_nodes']


class GraphAssertionError(Error, AssertionError):
    """A graph helper used where the Model Optimizer's asserted it must not be: reported as an ``Error`` (one
    ``[ ERROR ]`` line), and an ``AssertionError`` to code and tests written for the Model Optimizer."""


#: the indexed keys but ``kind`` and ``name`` (see ``Graph._insert_new_node``)
_OTHER_INDEXED = tuple(key for key in INDEXED_ATTRS if key not in ('kind', 'name'))


def _sole_id(bucket):
    """The node id of an index bucket that holds one: a 1-tuple, or (the name index) the str id itself."""
    return bucket if type(bucket) is str else bucket[0]


def _ids(bucket):
    """The node ids of an index bucket (a dict of ids, a 1-tuple, or a name's one str id) as a collection."""
    return (bucket,) if type(bucket) is str else bucket


class Graph(LegacyGraphAPI, nx.MultiDiGraph):
    """A model graph: networkx MultiDiGraph plus ports, an op index and clean-up.

    ``graph.graph`` holds graph-wide settings: ``stage`` ('front', 'middle' or 'back'),
    ``layout`` ('NHWC' or 'NCHW'), ``cmd_params`` and format-specific data.
    """
    node_attr_dict_factory = IndexedAttrs

    def __init__(self, incoming_graph_data=None, **attr):
        self._index = {key: {} for key in INDEXED_ATTRS if key != 'kind'}
        #: how many nodes have each ``kind``: a count, not a set of ids (every node has a kind, and a set of them
        #: all costs 16-32 B a node; the nodes of one kind are a scan of the node dict, in insertion order)
        self._kind_count = {}
        #: each node's insertion rank is its attribute dict's ``_rank`` (see ``mo.graph.node_attrs``)
        self._next_seq = itertools.count()
        #: bumped by every structural edit, so the pipeline knows when clean-up is worth running
        self.version = 0
        #: a set while ``track_edits`` runs: the nodes whose edges were added or removed
        self.edited = None
        #: ``version`` right after the last clean-up: dead code since then can only come from edits
        self.clean_version = None
        #: ``(version, node ids)`` of the last topological sort: whole-graph passes that run back to back
        #: (inference, the IR writer, the model's inputs and outputs) sort an unchanged graph once
        self._topo_cache = None
        #: node id -> {input port: (source, key, attrs)} for nodes of many inputs (``mo.graph.in_port_index``)
        self._in_port_index = {}
        super().__init__(incoming_graph_data, **attr)

    # ----- index maintenance -------------------------------------------------------------
    def _bind_node(self, node_id):
        attrs = self._node[node_id]
        if not isinstance(attrs, IndexedAttrs):
            attrs = IndexedAttrs(attrs)
            self._node[node_id] = attrs
        previous = attrs._owner()
        if previous is self:
            return
        attrs._bind(self, node_id)
        if previous is not None or getattr(attrs, '_rank', None) is None:  # a rank from another graph means nothing here
            attrs._rank = next(self._next_seq)
        for key in INDEXED_ATTRS:
            if key in attrs:
                self._reindex(node_id, key, None, attrs[key])

    def _reindex(self, node_id, key, old, new):
        if self.edited is not None and key in ('op', 'type'):
            self.edited.add(node_id)  # a node that stops being a Result may leave dead code behind
        if key == 'kind':
            if old is not None:
                self._kind_count[old] -= 1
            if new is not None:
                self._index_add(node_id, key, new)
            return
        if old is not None:
            if key == 'sub_graphs':
                old = True
            try:
                bucket = self._index[key].get(old)
            except TypeError:  # an unhashable value is simply not indexed
                bucket = None
            if type(bucket) is tuple or type(bucket) is str:
                if _sole_id(bucket) == node_id:
                    del self._index[key][old]
            elif bucket is not None:
                bucket.pop(node_id, None)
                if not bucket:  # a dict keeps its table when emptied: an op rewritten away leaves nothing behind
                    del self._index[key][old]
        if new is not None:
            self._index_add(node_id, key, new)

    def _index_add(self, node_id, key, value):
        if key == 'kind':
            self._kind_count[value] = self._kind_count.get(value, 0) + 1
            return
        if key == 'sub_graphs':
            value = True  # indexed by presence: the list of body attributes is not a key
        index = self._index[key]
        try:
            bucket = index.get(value)
        except TypeError:  # an unhashable value is simply not indexed
            return
        # a value held by one node (every name, most of the time) keeps its id in a 1-tuple, and a name its str id
        # itself (a model has one name per node); the second node with the value turns the bucket into a dict of ids
        # (values None): half a set's memory (a set keeps its table of 16-byte slots under 60% full; a dict's table
        # of 4-byte slots points into entries it keeps two thirds full)
        if bucket is None:
            index[value] = node_id if key == 'name' and type(node_id) is str else (node_id,)
        elif type(bucket) is tuple or type(bucket) is str:
            if _sole_id(bucket) != node_id:
                index[value] = {_sole_id(bucket): None, node_id: None}
        else:
            bucket[node_id] = None

    def _unindex_node(self, node_id):
        attrs = self._node.get(node_id)
        if attrs is None:
            return
        for key in INDEXED_ATTRS:
            if key in attrs:
                self._reindex(node_id, key, attrs[key], None)

    @contextlib.contextmanager
    def track_edits(self):
        """Collect, in the yielded set, every node an edge is added to or removed from (both ends,
        and the neighbours of removed nodes), every new node and every node whose ``op`` or ``type``
        is rewritten while the ``with`` block runs. Passes that re-examine
        only the part of the graph a change touched use it instead of rescanning everything."""
        outer = self.edited
        self.edited = edited = set()
        try:
            yield edited
        finally:
            self.edited = outer
            if outer is not None:
                outer.update(edited)

    def _note_removal(self, n):
        if self.edited is not None and n in self._node:
            self.edited.add(n)
            self.edited.update(self._pred[n])
            self.edited.update(self._succ[n])

    # add_node and add_edge write networkx's adjacency dicts directly, as networkx's own
    # MultiDiGraph methods do (same structure, same edge keys): conversions call them tens of
    # thousands of times, and the generic versions plus re-binding cost twice as much.
    def add_node(self, node_for_adding, **attr):
        self.version += 1
        node_id = node_for_adding
        attrs = self._node.get(node_id)
        if attrs is not None:
            attrs.update(attr)  # keeps the index right
        else:
            if node_id is None:
                raise ValueError('None cannot be a node')
            self._insert_new_node(node_id, attr)
        self._clear_networkx_cache()

    def _insert_new_node(self, node_id, attrs: dict):
        """Add node ``node_id``, not in the graph, with (a copy of) ``attrs``: its adjacency, position and index
        entries. The version and networkx's cache are the caller's to update (once per batch)."""
        self._succ[node_id] = {}
        self._pred[node_id] = {}
        bound = self._node[node_id] = IndexedAttrs(attrs)
        bound._graph = self  # IndexedAttrs._bind, inlined: this runs for every node of a model
        bound._node_id = node_id
        if self.edited is not None:
            self.edited.add(node_id)
        bound._rank = next(self._next_seq)
        # _index_add for each indexed key, with the two every node has inlined: its kind (a count) and its name
        # (nearly always new: the id itself is the bucket)
        kind = attrs.get('kind')
        if kind is not None:
            counts = self._kind_count
            counts[kind] = counts.get(kind, 0) + 1
        name = attrs.get('name')
        if name is not None:
            names = self._index['name']
            if type(name) is str and type(node_id) is str and name not in names:
                names[name] = node_id
            else:
                self._index_add(node_id, 'name', name)
        for key in _OTHER_INDEXED:
            value = attrs.get(key)
            if value is not None:
                self._index_add(node_id, key, value)

    def add_new_nodes(self, items) -> None:
        """Add nodes ``(node id, attribute dict)`` from ``items`` (an iterable, read as the nodes are added), each
        as ``add_node(node_id, **attrs)`` adds a node that is not in the graph yet; one that is raises an Error.
        For loaders: one step per model instead of one per node."""
        nodes = self._node
        insert = self._insert_new_node
        for node_id, attrs in items:
            if node_id in nodes:
                raise Error('add_new_nodes: node "{}" exists already', node_id)
            if node_id is None:
                raise ValueError('None cannot be a node')
            insert(node_id, attrs)
        self.version += 1
        self._clear_networkx_cache()

    def add_new_edges(self, edges) -> None:
        """Add edges ``(u, v, attribute dict)`` between nodes of the graph, in order, each as ``add_edge(u, v,
        **attrs)`` adds it (the next free key, the same adjacency order); the dict becomes the edge's own.
        For loaders: one step per model instead of one per edge."""
        succ, pred, edited = self._succ, self._pred, self.edited
        for u, v, attrs in edges:
            keydict = succ[u].get(v)
            if keydict is None:
                succ[u][v] = pred[v][u] = {0: attrs}  # one dict shared by both directions, as add_edge's
            else:
                key = len(keydict)
                while key in keydict:
                    key += 1
                keydict[key] = attrs
            if edited is not None:
                edited.update((u, v))
        self.version += 1
        self._clear_networkx_cache()

    def _clear_networkx_cache(self):
        cache = self.__dict__.get('__networkx_cache__')  # networkx >= 3.3 caches per graph
        if cache:
            cache.clear()

    def add_nodes_from(self, nodes_for_adding, **attr):
        self.version += 1
        nodes = list(nodes_for_adding)
        super().add_nodes_from(nodes, **attr)
        for item in nodes:
            node_id = item[0] if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict) \
                else item
            if node_id in self._node:
                self._bind_node(node_id)

    def add_edge(self, u_for_edge, v_for_edge, key=None, **attr):
        self.version += 1
        u, v = u_for_edge, v_for_edge
        if self.edited is not None:
            self.edited.update((u, v))
        succ = self._succ
        if u not in succ:
            self.add_node(u)
        if v not in succ:
            self.add_node(v)
        keydict = succ[u].get(v)
        if keydict is None:
            keydict = succ[u][v] = self._pred[v][u] = {}  # one dict shared by both directions
        if key is None:
            key = len(keydict)
            while key in keydict:
                key += 1
        existing = keydict.get(key)
        if existing is None:
            keydict[key] = attr
        else:
            existing.update(attr)
        if self._in_port_index:
            index = self._in_port_index.get(v)
            if index is not None:
                note_added_edge(self, index, u, v, key, keydict[key])
        self._clear_networkx_cache()
        return key

    def insert_data_nodes(self, op_id, data_nodes: dict, consumer_edges) -> None:
        """The middle phase's form of op ``op_id``'s outputs, in one step: ``data_nodes`` maps output ports to
        ``(data node id, attribute dict)``; each data node is added (its dict becomes the node's) with an edge
        ``out=port`` from the op, then each of ``consumer_edges`` (``(consumer, key, attrs)`` of data edges out of
        the op, in order) moves onto the data node of its port, its attribute dict with it, less ``out``. The graph
        is the one ``add_node``, ``add_edge`` and ``remove_edge`` calls in that order make (same keys, same
        adjacency order, equal attributes): this is what turns every op of a model, so it writes the adjacency
        directly."""
        self.version += 1
        succ, pred, nodes = self._succ, self._pred, self._node
        op_succ = succ[op_id]
        edited = self.edited
        for port, (data_id, attrs) in data_nodes.items():
            if data_id in nodes:
                raise Error('insert_data_nodes: node "{}" exists already', data_id)
            self._insert_new_node(data_id, attrs)
            op_succ[data_id] = pred[data_id][op_id] = {0: {'out': port}}
        for consumer, key, attrs in consumer_edges:
            keydict = op_succ[consumer]
            del keydict[key]
            if not keydict:
                del op_succ[consumer]
                del pred[consumer][op_id]
            data_id = data_nodes[attrs.get('out', 0)][0]
            moved = succ[data_id].get(consumer)
            if moved is None:  # the key dict just emptied, if any, is reused: one dict less to make and free
                moved = succ[data_id][consumer] = pred[consumer][data_id] = {} if keydict else keydict
            new_key = len(moved)
            while new_key in moved:
                new_key += 1
            moved[new_key] = attrs  # the edge's own dict moves with it (one dict less to make and free per edge)
            attrs.pop('out', None)
            if edited is not None:
                edited.add(consumer)
        if edited is not None:
            edited.add(op_id)
        self._clear_networkx_cache()

    # before an op's edge to a data node goes, the op's record of that output moves into its table (keep_out_record)
    def remove_node(self, n):
        self.version += 1
        self._in_port_index.pop(n, None)
        self._note_removal(n)
        keep_out_records(self, n)
        self._unindex_node(n)
        super().remove_node(n)

    def remove_edge(self, u, v, key=None):  # networkx's remove_edges_from calls it for each edge
        self.version += 1
        if self.edited is not None:
            self.edited.update((u, v))
        keyed = self._succ.get(u, {}).get(v)
        if keyed and (key in keyed or key is None):
            keep_out_record(self, u, v, next(reversed(keyed)) if key is None else key)  # None: networkx's last
        super().remove_edge(u, v, key)

    def remove_nodes_from(self, nodes):
        self.version += 1
        nodes = [n for n in nodes if n in self._node]
        dying = set(nodes) if len(nodes) > 1 else nodes
        for n in nodes:
            self._in_port_index.pop(n, None)
            self._note_removal(n)
            keep_out_records(self, n, dying)
            self._unindex_node(n)
        super().remove_nodes_from(nodes)

    def clear(self):
        self.version += 1
        super().clear()
        self._index = {key: {} for key in INDEXED_ATTRS if key != 'kind'}
        self._kind_count = {}
        self._in_port_index = {}

    # ----- queries -----------------------------------------------------------------------
    def _rank(self, node_id) -> int:
        """When ``node_id`` was added, relative to the graph's other nodes (-1 for a node not in the graph)."""
        attrs = self._node.get(node_id)
        return -1 if attrs is None else attrs._rank

    def _ordered(self, ids):
        return sorted(ids, key=self._rank)

    def reorder(self, order) -> None:
        """Make ``order`` (every node id, once) the graph's node order: its iteration order and insertion order."""
        nodes = self._node  # the same dict object: the graph's cached node views stay valid
        items = [(n, nodes.pop(n)) for n in order]
        nodes.update(items)
        for rank, (_, attrs) in enumerate(items):
            attrs._rank = rank
        self.version += 1  # the insertion order breaks the topological sort's ties

    def nodes_with_sub_graphs(self) -> list:
        """Ids of the nodes that own body graphs (their ``sub_graphs`` attribute lists them), in insertion order."""
        return self._ordered(self._index['sub_graphs'].get(True, ()))

    def in_insertion_order(self, ids) -> list:
        """``ids`` sorted by when their nodes were added (a deterministic order whatever the hash seed)."""
        return self._ordered(ids)

    def nodes_by_attr(self, key, value):
        """Ids of nodes whose indexed attribute ``key`` equals ``value``, in insertion order."""
        if key == 'kind':  # counted, not indexed: the node dict is in insertion order already
            return [n for n, attrs in self._node.items() if attrs.get('kind') == value] \
                if self._kind_count.get(value) else []
        ids = _ids(self._index[key].get(value, ()))
        return self._ordered(list(ids) + [value] if key == 'name' and self._named_by_id(value) else ids)

    def count_by_attr(self, key, value) -> int:
        """How many nodes have indexed attribute ``key`` equal to ``value`` (no sorting)."""
        if key == 'kind':
            return self._kind_count.get(value, 0)
        return len(_ids(self._index[key].get(value, ()))) + (key == 'name' and self._named_by_id(value))

    def _named_by_id(self, node_id) -> bool:  # a data node without a 'name' key: named by its id, not indexed
        attrs = self._node.get(node_id)
        return attrs is not None and 'name' not in attrs and attrs.get('kind') == 'data'

    def _select(self, kind, attrs):
        for key in ('op', 'type'):
            if key in attrs and not callable(attrs[key]):
                candidates = self.nodes_by_attr(key, attrs[key])
                break
        else:
            candidates = self.nodes_by_attr('kind', kind)
        result = []
        for node_id in candidates:
            data = self._node[node_id]
            if data.get('kind') != kind:
                continue
            if all(k in data and data[k] == v for k, v in attrs.items()):
                result.append(Node(self, node_id))
        return result

    def get_op_nodes(self, **attrs):
        """Op nodes whose attributes equal ``attrs``; uses the op/type index when one is given."""
        return self._select('op', attrs)

    def get_data_nodes(self, has_value=None):
        """Data nodes, optionally only those with (``True``) or without (``False``) a value."""
        nodes = self._select('data', {})
        if has_value is None:
            return nodes
        return [n for n in nodes if n.has_valid('value') == has_value]

    def get_nodes_with_attributes(self, **attrs):
        """Ids of nodes (op or data) whose attributes equal ``attrs``."""
        return [n for n, d in self.nodes(data=True) if all(k in d and d[k] == v for k, v in attrs.items())]

    def get_node_by_name(self, name):
        """The op node whose ``name`` is ``name``, or None."""
        for node_id in self.nodes_by_attr('name', name):
            if self._node[node_id].get('kind', 'op') == 'op':
                return Node(self, node_id)
        return None

    # ----- adjacency for whole-graph passes ---------------------------------------------------
    # Passes that visit every node and edge (inference, folding, matching, the writers) read the
    # adjacency through these, not through networkx's edge views, which cost more than the work done
    # per edge; they are the only way code outside mo/graph reaches the adjacency dicts.
    def node_attrs(self, node_id) -> dict:
        """The attribute dict of ``node_id`` itself (writes to indexed keys keep the index right)."""
        return self._node[node_id]

    def node_items(self):
        """``(node id, attribute dict)`` of every node, in insertion order."""
        return self._node.items()

    def node_attr_dicts(self):
        """The attribute dict of every node, in insertion order (a view)."""
        return self._node.values()

    def out_adjacency(self, node_id) -> dict:
        """``{consumer: {key: edge attrs}}`` of the edges out of ``node_id``: the adjacency itself, for passes that
        read every edge of a model (read it only: edit through the graph's methods)."""
        return self._succ[node_id]

    def in_adjacency(self, node_id) -> dict:
        """``{source: {key: edge attrs}}`` of the edges into ``node_id``: the adjacency itself (read it only)."""
        return self._pred[node_id]

    def in_edge_list(self, node_id, data_only: bool = False) -> list:
        """``[(source, key, attrs)]`` of the edges into ``node_id`` (without control edges if ``data_only``)."""
        return [(source, key, attrs) for source, keyed in self._pred[node_id].items() for key, attrs in keyed.items()
                if not (data_only and attrs.get('control_flow_edge'))]

    def out_edge_list(self, node_id, data_only: bool = False) -> list:
        """``[(consumer, key, attrs)]`` of the edges out of ``node_id`` (without control edges if ``data_only``)."""
        return [(consumer, key, attrs) for consumer, keyed in self._succ[node_id].items()
                for key, attrs in keyed.items() if not (data_only and attrs.get('control_flow_edge'))]

    def producer_ids(self, node_id):
        """The ids of the nodes with an edge into ``node_id`` (a view: don't edit the graph while iterating)."""
        return self._pred[node_id].keys()

    def consumer_ids(self, node_id):
        """The ids of the nodes with an edge from ``node_id`` (a view: don't edit the graph while iterating)."""
        return self._succ[node_id].keys()

    def edges_between(self, u, v) -> dict:
        """``{key: attrs}`` of the edges ``u -> v`` (empty when there are none)."""
        return self._succ[u].get(v) or {}

    @property
    def phase(self):
        """'front', 'middle' or 'back': the stage as set by the pipeline's anchors; a graph nobody set it on
        (one an extension author's test builds, a body made by a loader) is 'middle' once it has data nodes,
        as the Model Optimizer's graphs behaved, else 'front'."""
        stage = self.graph.get('stage')
        if stage is not None:
            return stage
        return 'middle' if self._kind_count.get('data') else 'front'

    @property
    def stage(self):
        """The phase (see ``phase``): a graph nobody set a stage on reads as the phase it behaves as, where the
        Model Optimizer gave None (``graph.graph.get('stage')`` is the value as set)."""
        return self.phase

    @stage.setter
    def stage(self, value):
        self.graph['stage'] = value

    def unique_id(self, prefix: str = ''):
        """A node id not yet in the graph: ``prefix`` itself when free, else ``prefix_N``."""
        if prefix and prefix not in self._node:
            return prefix
        counter = self.graph.setdefault('_unique_id_counter', {})
        base = prefix or 'node'
        n = counter.get(base, 0)
        while True:
            candidate = '{}_{}'.format(base, n)
            n += 1
            if candidate not in self._node:
                counter[base] = n
                return candidate

    # ----- editing -----------------------------------------------------------------------
    def create_edge(self, src_node, dst_node, out_port: int = 0, in_port: int = 0, edge_attrs: dict = None):
        """Connect ``src_node``'s output ``out_port`` to ``dst_node``'s input ``in_port``.

        In the middle phase the source may be an op (its output data node is found or created)
        or a data node. An existing connection into ``in_port`` is replaced.
        """
        src = src_node if isinstance(src_node, Node) else Node(self, src_node)
        dst = dst_node if isinstance(dst_node, Node) else Node(self, dst_node)
        if src.kind == 'data':
            self._remove_input(dst.id, in_port)
            self.add_edge(src.id, dst.id, **{'in': in_port, **(edge_attrs or {})})
            dst.add_input_port(in_port, skip_if_exist=True)
            return
        dst.add_input_port(in_port, skip_if_exist=True)
        src.add_output_port(out_port, skip_if_exist=True)
        src.out_port(out_port).connect(dst.in_port(in_port))
        if edge_attrs:
            for _, _, key, data in self.in_edges(dst.id, keys=True, data=True):
                if data.get('in') == in_port:
                    data.update(edge_attrs)

    def _remove_input(self, node_id, in_port):
        for u, _, key, data in list(self.in_edges(node_id, keys=True, data=True)):
            if data.get('in') == in_port and not data.get('control_flow_edge'):
                self.remove_edge(u, node_id, key)

    def remove_edges_by_attrs(self, u, v, **attrs):
        """Remove exactly the ``u -> v`` edges whose attributes match, never their parallel twins."""
        doomed = [key for _, dst, key, data in self.out_edges(u, keys=True, data=True)
                  if dst == v and all(data.get(k) == val for k, val in attrs.items())]
        for key in doomed:
            self.remove_edge(u, v, key)

    def erase_node(self, node):
        """Remove a front-phase node and connect its single input to its consumers, as the Model
        Optimizer's ``erase_node`` did: each consumer is then fed by the output that fed the node, its
        edge keeping its other attributes.

        A node with several inputs, or whose consumers read several of its outputs, is an Error (there
        is no one way to reconnect it); so is a node of a graph that has data nodes. These errors are
        also ``AssertionError``s, as the Model Optimizer's were. A node with no input or no consumer is
        simply removed; an erased Result that had an input leaves a new Result on that input.
        """
        node = node if isinstance(node, Node) else Node(self, node)
        name = node.soft_get('name', node.id)
        inputs = [(u, d) for u, _, d in self.in_edges(node.id, data=True)]
        outputs = [(v, k, d) for _, v, k, d in self.out_edges(node.id, keys=True, data=True)]
        if node.soft_get('kind') != 'op' or any(self._node[v].get('kind') == 'data' for v, _, _ in outputs):
            raise GraphAssertionError('erase_node("{}"): the function must be used before the partial infer when '
                                      'graph doesn\'t contain data nodes', name)
        if len({d.get('out', 0) for _, _, d in outputs}) > 1:
            raise GraphAssertionError('The node {} must produce just one output tensor (its consumers read outputs {})',
                                      name, sorted({d.get('out', 0) for _, _, d in outputs}))
        if len(inputs) > 1:
            raise GraphAssertionError('The node {} must have just one input (it has {} inputs)', name, len(inputs))
        if not outputs and inputs and node.soft_get('op') == 'Result':
            from mo.ops.result import add_opoutput  # the op classes sit above the graph
            add_opoutput(self, inputs[0][0], inputs[0][1].get('out', 0), cut=False)
        if inputs and outputs:
            source, in_attrs = inputs[0]
            for consumer, key, attrs in outputs:
                self.remove_edge(node.id, consumer, key)
                self.add_edge(source, consumer, **dict(attrs, out=in_attrs.get('out', 0)))
        self.remove_node(node.id)

    # ----- clean-up (mo.graph.clean_up) --------------------------------------------------
    def clean_up(self, undead_node_types: list = ('Parameter',)):
        """Remove every node that no output (Result, or a node marked ``undead``) needs, and give a constant
        data node that has consumers but no producer a Const op; returns the number removed (see
        ``mo.graph.clean_up``)."""
        return clean_up(self, undead_node_types)

    #: ``factory(graph, attrs) -> Node`` adding a Const op node with ``attrs`` and no edges; the op layer
    #: (``mo.ops.op``) installs it, the graph layer does not import op classes
    const_node_factory = None

    def clean_up_after(self, edited, undead_node_types: list = ('Parameter',)):
        """``clean_up`` for a graph that was clean before the edits to the nodes in ``edited`` (a ``track_edits``
        set): removes what became dead code, looking only around those nodes (see ``mo.graph.clean_up``)."""
        return clean_up_after(self, edited, undead_node_types)

    def find_cycle(self) -> list:
        """The node ids of one cycle of the graph (control edges included), or an empty list when it has none."""
        return list(find_cycle(self._succ) or ())

    def check_acyclic(self):
        """Raise an Error naming the nodes of one cycle if the graph has one."""
        cycle = self.find_cycle()
        if cycle:
            names = [self._node[u].get('name', u) for u in cycle]
            raise Error('The graph has a cycle: {}', ' -> '.join(str(n) for n in names + names[:1]))

    def topological_ids(self) -> list:
        """The ids of ``pseudo_topological_sort()``'s nodes, in its order (a list shared with later calls on the
        unchanged graph: don't edit it)."""
        cached = self._topo_cache
        if cached is not None and cached[0] == self.version:
            return cached[1]
        order = self._topological_order()
        self._topo_cache = (self.version, order)
        return order

    def pseudo_topological_sort(self, reverse=False):
        """Op and data nodes in a topological order that is stable under the insertion order."""
        view = Node.view  # the ids are the graph's own: no existence check per node
        nodes = [view(self, n) for n in self.topological_ids()]
        return list(reversed(nodes)) if reverse else nodes

    def _topological_order(self) -> list:
        """Kahn's algorithm taking the ready node added first (smallest ``(position, id)``) at each step.

        The nodes ready from the start (the model's constants and inputs: a third of a typical model) are one
        sorted list, read in order; only the nodes that become ready later go through a heap. The node taken
        is the smaller of the two heads: the order of a single heap of every ready node, at a fraction of
        its cost (the heap stays as small as the graph's frontier, not as big as its constants).
        """
        nodes = self._node
        succ = self._succ
        # straight over the adjacency dicts (an edge counts once per parallel key): networkx's
        # degree and edge views cost more than the sort itself on a model of thousands of nodes
        indegree = {n: sum(map(len, preds.values())) if preds else 0 for n, preds in self._pred.items()}
        sources = sorted([(nodes[n]._rank, n) for n, d in indegree.items() if d == 0])
        source_count = len(sources)
        next_source = 0
        heap = []
        push, pop = heapq.heappush, heapq.heappop
        order = []
        while next_source < source_count or heap:
            if heap and (next_source == source_count or heap[0] < sources[next_source]):
                node_id = pop(heap)[1]
            else:
                node_id = sources[next_source][1]
                next_source += 1
            order.append(node_id)
            for dst, keyed in succ[node_id].items():
                left = indegree[dst] - len(keyed)
                indegree[dst] = left
                if left == 0:
                    push(heap, (nodes[dst]._rank, dst))
        if len(order) != len(self._node):
            self.check_acyclic()
        return order

    def dump(self) -> str:
        """A readable one-line-per-node summary (for debugging and test failure messages)."""
        lines = []
        for node_id, data in self.nodes(data=True):
            inputs = ['{}:{}->{}'.format(u, d.get('out'), d.get('in')) for u, _, d in self.in_edges(node_id, data=True)]
            lines.append('{} [{}] {} <- {}'.format(node_id, data.get('kind'), data.get('op'), ', '.join(inputs)))
        return '\n'.join(lines)


def __getattr__(name):
    """``add_opoutput``, the Model Optimizer's function that adds a Result, importable from here as it was.
    It builds a Result op, and the op classes sit above the graph (``mo.ops`` imports this module), so it is
    fetched from ``mo.ops.result`` when first asked for: the one import of this layer that points up."""
    if name == 'add_opoutput':
        from mo.ops.result import add_opoutput
        return add_opoutput
    raise AttributeError('module {!r} has no attribute {!r}'.format(__name__, name))
