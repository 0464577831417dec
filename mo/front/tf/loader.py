"""GraphDef -> the framework's graph (front phase: op nodes only).

See ``mo.front.tf.node_def`` for the node and edge conventions. Besides the nodes, the graph
keeps what a GraphDef holds beyond them, so writing it back reproduces the input exactly:
``graph.graph['tf_versions']``, ``['tf_library']``, ``['tf_debug_info']`` (messages or None),
``['tf_graph_version']`` (the deprecated ``version`` int) and ``['source_format'] = 'tf'``.
"""
import heapq
from array import array

from mo.front.tf.node_def import control_edge_attrs, data_edge_attrs, op_node_attrs, parse_input
from mo.front.tf.proto import GraphDef, coerce
from mo.utils.error import Error
from mo.graph.graph import Graph
from mo.front.tf.graphdef_io import read_graph_def


def default_graph_class():
    """``mo.graph.graph.Graph`` (imported late: the graph module is not needed to read GraphDefs)."""
    return Graph


def _optional_field(graph_def, field):
    return getattr(graph_def, field) if graph_def.HasField(field) else None


def graph_def_to_graph(graph_def, graph=None, graph_class=None, node_order=None, const_contents=None,
                       canonical: bool = False):
    """Load ``graph_def`` into ``graph`` (a new ``graph_class()``, default ``Graph``, if None).

    Nodes keep the GraphDef's order; node attrs hold the NodeDef messages themselves (no copy),
    Const values are numpy views of their tensors. A duplicate node name or an input naming a
    missing node raises ``Error``. TensorFlow's own GraphDef messages are accepted too.
    ``node_order`` (a list of the GraphDef's NodeDefs, or of NodeDefs held apart from a ``graph_def`` that has none:
    see ``mo.front.tf.wire.graph_def_in_parts``) loads the nodes in that order instead;
    ``canonical`` loads an empty ``Graph`` in the one order that depends only on the graph, not on the file
    (topological, ties broken by name; see ``_CanonicalLoad``), and then a cycle is an ``Error`` that names it.
    ``const_contents`` (``{name: bytes}``, see ``mo.front.tf.wire``) gives Const values without
    copying them out of the message.
    """
    graph_def = coerce(graph_def, GraphDef)
    if graph is None:
        graph = (graph_class or default_graph_class())()

    if canonical and isinstance(graph, Graph) and not graph.number_of_nodes():
        load = _CanonicalLoad.of(graph_def.node if node_order is None else node_order)
        if load is not None:  # else duplicate or empty names: the file order below reports them
            graph.add_new_nodes(load.node_items(const_contents))
            graph.add_new_edges(load.input_edges())
            _keep_graph_def_fields(graph, graph_def)
            if not load.acyclic:
                graph.check_acyclic()  # names the cycle
            return graph

    nodes = graph_def.node if node_order is None else node_order
    if isinstance(graph, Graph):  # one step per model (an author's graph class of its own gets add_node/add_edge)
        graph.add_new_nodes(_node_items(nodes, graph, const_contents))
        graph.add_new_edges(_input_edges(nodes, graph))
    else:
        for name, attrs in _node_items(nodes, graph, const_contents):
            graph.add_node(name, **attrs)
        for source, name, attrs in _input_edges(nodes, graph):
            graph.add_edge(source, name, **attrs)
    _keep_graph_def_fields(graph, graph_def)
    return graph


def _keep_graph_def_fields(graph, graph_def):
    """What the GraphDef holds beyond its nodes, for writing it back."""
    graph.graph['tf_versions'] = _optional_field(graph_def, 'versions')
    graph.graph['tf_library'] = _optional_field(graph_def, 'library')
    graph.graph['tf_debug_info'] = _optional_field(graph_def, 'debug_info')
    graph.graph['tf_graph_version'] = graph_def.version
    graph.graph['source_format'] = 'tf'


class _CanonicalLoad:
    """A GraphDef's nodes and input edges in canonical order: conversion output must not change when the same
    graph is stored with its nodes shuffled, so nodes come in topological order with ties broken by name (a
    cycle keeps the file order, and ``acyclic`` is False).

    Every NodeDef's name and inputs are read and parsed once, for both the order and the edges (reading a
    protobuf string field makes a new str each time). Nodes are numbered by the rank of their name, so the
    order's heap compares ints; the edges wait in two flat lists (a node's are a slice of them), and name
    their source by its node id object, not by a copy read from the input string.
    """

    def __init__(self, nodes, names, rank_of, name_by_rank):
        self.name_by_rank = name_by_rank
        count = len(names)
        self.node_by_rank = node_by_rank = [None] * count
        #: edge i: from node ``edge_sources[i]`` with attributes ``edge_attrs[i]``; node of rank r has the edges
        #: ``first_edge[r]:first_edge[r] + edge_count[r]``, its inputs in NodeDef order
        self.edge_sources, self.edge_attrs = edge_sources, edge_attrs = [], []
        self.first_edge = first_edge = array('q', bytes(8 * count))
        self.edge_count = edge_count = array('q', bytes(8 * count))
        add_source, add_attrs = edge_sources.append, edge_attrs.append
        consumers = [None] * count
        #: (rank, input text, source) of inputs naming no node, in file order
        self.missing = missing = []
        for pb, name in zip(nodes, names):
            me = rank_of[name]
            node_by_rank[me] = pb
            texts = pb.input
            if not texts:
                continue
            first_edge[me] = len(edge_sources)
            data_position = control_position = 0
            for text in texts:
                if text and ':' not in text and text[0] != '^':  # most inputs: a bare node name, output 0
                    source, port = text, 0
                else:
                    source, port = parse_input(text, name)
                source_rank = rank_of.get(source)
                if source_rank is None:
                    missing.append((me, text, source))
                    continue
                add_source(name_by_rank[source_rank])
                if port is None:
                    add_attrs({'control_flow_edge': True, 'control_index': control_position})
                    control_position += 1
                else:
                    add_attrs({'out': port, 'in': data_position})
                    data_position += 1
                readers = consumers[source_rank]
                if readers is None:
                    consumers[source_rank] = [me]
                else:
                    readers.append(me)
            edge_count[me] = len(edge_sources) - first_edge[me]
        self.order = self._topological(consumers, list(edge_count))
        self.acyclic = self.order is not None
        if self.order is None:
            self.order = [rank_of[name] for name in names]

    @classmethod
    def of(cls, nodes):
        """The canonical load of the NodeDefs ``nodes``; None when two nodes share a name or one has none."""
        nodes = list(nodes)
        names = [pb.name for pb in nodes]
        rank_of = dict.fromkeys(names)
        if len(rank_of) != len(names) or '' in rank_of:
            return None
        name_by_rank = sorted(names)
        for rank, name in enumerate(name_by_rank):
            rank_of[name] = rank
        return cls(nodes, names, rank_of, name_by_rank)

    @staticmethod
    def _topological(consumers, indegree):
        """Node ranks in topological order, the smallest rank first among the ready ones; None for a cycle.
        ``indegree`` (by rank: the node's input edges from nodes of the graph) is used up."""
        heap = [rank for rank, degree in enumerate(indegree) if not degree]  # ascending: a heap already
        order = []
        append, pop, push = order.append, heapq.heappop, heapq.heappush
        while heap:
            rank = pop(heap)
            append(rank)
            readers = consumers[rank]
            if readers is not None:
                for reader in readers:
                    degree = indegree[reader] - 1
                    indegree[reader] = degree
                    if not degree:
                        push(heap, reader)
        return order if len(order) == len(indegree) else None

    def node_items(self, const_contents):
        """``(node id, attrs)`` of every node, in order."""
        name_by_rank, node_by_rank = self.name_by_rank, self.node_by_rank
        for rank in self.order:
            name = name_by_rank[rank]
            yield name, op_node_attrs(node_by_rank[rank], const_contents.get(name) if const_contents else None, name)

    def input_edges(self):
        """``(source, node id, edge attrs)`` of every input of every node, in order; an input naming no node is
        an Error (the first one in that order)."""
        if self.missing:
            position = {rank: i for i, rank in enumerate(self.order)}
            rank, text, source = min(self.missing, key=lambda entry: position[entry[0]])  # stable: input order
            raise Error('Node "{}" has input "{}", but there is no node named "{}"',
                        self.name_by_rank[rank], text, source)
        name_by_rank, sources, attrs = self.name_by_rank, self.edge_sources, self.edge_attrs
        first_edge, edge_count = self.first_edge, self.edge_count
        for rank in self.order:
            count = edge_count[rank]
            if count:
                name = name_by_rank[rank]
                first = first_edge[rank]
                for index in range(first, first + count):
                    yield sources[index], name, attrs[index]


def _node_items(nodes, graph, const_contents):
    """``(node id, attrs)`` of each NodeDef of ``nodes``, checked against the nodes added before it."""
    for pb in nodes:
        name = pb.name
        if not name:
            raise Error('The GraphDef has a node without a name (op "{}")', pb.op)
        if name in graph:
            raise Error('The GraphDef has more than one node named "{}"', name)
        yield name, op_node_attrs(pb, const_contents.get(name) if const_contents else None, name)


def _input_edges(nodes, graph):
    """``(source, node id, edge attrs)`` of every input of every NodeDef of ``nodes``, in order (see
    ``mo.front.tf.node_def`` for the edge conventions). Edges come after all nodes: an input may name a node
    defined further down."""
    for pb in nodes:
        name = pb.name
        data_position = control_position = 0
        for text in pb.input:
            if text and ':' not in text and text[0] != '^':  # most inputs: a bare node name, output 0
                source, port = text, 0
            else:
                source, port = parse_input(text, name)
            if source not in graph:
                raise Error('Node "{}" has input "{}", but there is no node named "{}"', name, text, source)
            if port is None:
                yield source, name, control_edge_attrs(control_position)
                control_position += 1
            else:
                yield source, name, data_edge_attrs(port, data_position)
                data_position += 1


def load_tf_graph(path, graph=None, graph_class=None):
    """Read the GraphDef file at ``path`` (binary or text) and load it into a graph."""
    return graph_def_to_graph(read_graph_def(path), graph, graph_class)
