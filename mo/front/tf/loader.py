"""GraphDef -> the framework's graph (front phase: op nodes only).

See ``mo.front.tf.node_def`` for the node and edge conventions. Besides the nodes, the graph
keeps what a GraphDef holds beyond them, so writing it back reproduces the input exactly:
``graph.graph['tf_versions']``, ``['tf_library']``, ``['tf_debug_info']`` (messages or None),
``['tf_graph_version']`` (the deprecated ``version`` int) and ``['source_format'] = 'tf'``.
"""
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


def graph_def_to_graph(graph_def, graph=None, graph_class=None, node_order=None, const_contents=None):
    """Load ``graph_def`` into ``graph`` (a new ``graph_class()``, default ``Graph``, if None).

    Nodes keep the GraphDef's order; node attrs hold the NodeDef messages themselves (no copy),
    Const values are numpy views of their tensors. A duplicate node name or an input naming a
    missing node raises ``Error``. TensorFlow's own GraphDef messages are accepted too.
    ``node_order`` (a list of the GraphDef's NodeDefs) loads the nodes in that order instead.
    ``const_contents`` (``{name: bytes}``, see ``mo.front.tf.wire``) gives Const values without
    copying them out of the message.
    """
    graph_def = coerce(graph_def, GraphDef)
    if graph is None:
        graph = (graph_class or default_graph_class())()

    nodes = graph_def.node if node_order is None else node_order
    if isinstance(graph, Graph):  # one step per model (an author's graph class of its own gets add_node/add_edge)
        graph.add_new_nodes(_node_items(nodes, graph, const_contents))
        graph.add_new_edges(_input_edges(nodes, graph))
    else:
        for name, attrs in _node_items(nodes, graph, const_contents):
            graph.add_node(name, **attrs)
        for source, name, attrs in _input_edges(nodes, graph):
            graph.add_edge(source, name, **attrs)

    graph.graph['tf_versions'] = _optional_field(graph_def, 'versions')
    graph.graph['tf_library'] = _optional_field(graph_def, 'library')
    graph.graph['tf_debug_info'] = _optional_field(graph_def, 'debug_info')
    graph.graph['tf_graph_version'] = graph_def.version
    graph.graph['source_format'] = 'tf'
    return graph


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
