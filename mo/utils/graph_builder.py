"""Building small front-phase graphs in a few lines, for tests and examples.

``build_graph([('x', 'Parameter', {'shape': [1, 3]}), ('y', 'Relu')], [('x', 'y')])`` creates op
nodes through the registered Op classes (so they get their defaults and inference) and connects
them; an edge is ``(src, dst)``, ``(src, dst, in_port)`` or ``(src, dst, out_port, in_port)``.
"""
from mo.graph.graph import Graph, Node
from mo.ops.op import Op


def build_graph(nodes, edges, graph_attrs: dict = None) -> Graph:
    graph = Graph()
    graph.graph.update(graph_attrs or {})
    for item in nodes:
        node_id, op = item[0], item[1]
        attrs = dict(item[2]) if len(item) > 2 and item[2] else {}
        attrs.setdefault('name', node_id)
        op_class = Op.registered_ops.get(op)
        if op_class is not None:
            new_attrs = op_class(graph, attrs).attrs
        else:
            new_attrs = dict(attrs, kind='op', op=op)
        graph.add_node(node_id, **new_attrs)
    for edge in edges:
        src, dst = edge[0], edge[1]
        out_port, in_port = (0, 0)
        if len(edge) == 3:
            in_port = edge[2]
        elif len(edge) == 4:
            out_port, in_port = edge[2], edge[3]
        graph.add_edge(src, dst, out=out_port, **{'in': in_port})
    return graph


def consumers(graph: Graph, node_id, out_port: int = 0) -> list:
    """``[(consumer_id, in_port)]`` of one output of a node, sorted (handy in assertions)."""
    return sorted((p.node.id, p.idx) for p in Node(graph, node_id).out_port(out_port).get_destinations())
