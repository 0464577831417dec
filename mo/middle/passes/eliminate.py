"""The Model Optimizer's ``mo.middle.passes.eliminate`` helpers (middle phase: op and data nodes)."""
import numpy as np

from mo.graph.graph import Graph, Node
from mo.utils.error import Error
from mo.utils.shape import is_masked
from mo.middle.partial_infer import infer_node


def mark_output_reachable_nodes(graph: Graph):
    """Set ``is_output_reachable`` on every node from which a Result (or a node marked ``is_output``) is
    reached, False on the others."""
    reached = set()
    stack = [n for n, d in graph.nodes(data=True) if d.get('op') == 'Result' or d.get('is_output')]
    reached.update(stack)
    while stack:
        for src in graph.predecessors(stack.pop()):
            if src not in reached:
                reached.add(src)
                stack.append(src)
    for node_id, data in graph.nodes(data=True):
        data['is_output_reachable'] = node_id in reached


def mark_const_producer_nodes(graph: Graph):
    """Set ``is_const_producer``, as the Model Optimizer did: a node is a constant producer unless one of its
    consumers has no fully known ``value`` (an op without a value, a data node whose value is unknown or has
    dynamic entries), or it is at either end of a control-flow edge. So a Const op and a valued data node
    read only by valued nodes are constant producers, and so is a node nothing reads."""
    nodes = graph.pseudo_topological_sort()
    for node in nodes:
        graph.nodes[node.id]['is_const_producer'] = True
    for node in nodes:
        data = graph.nodes[node.id]
        for src, _, attrs in graph.in_edges(node.id, data=True):
            if attrs.get('control_flow_edge'):
                graph.nodes[src]['is_const_producer'] = False
                data['is_const_producer'] = False
        value = data.get('value')
        if value is None or is_masked(value):
            for src in graph.predecessors(node.id):
                graph.nodes[src]['is_const_producer'] = False


def shape_inference(graph: Graph):
    """Re-infer the ops marked ``need_shape_inference``, in topological order. An output shape that
    changes is an Error unless the op sets ``override_output_shape`` (then the mark is consumed)."""
    for node in graph.pseudo_topological_sort():
        if node.kind != 'op' or not node.has_and_set('need_shape_inference'):
            continue
        ports = [p for p in node.out_ports().values() if p.is_connected()]
        before = [p.data.get_shape() for p in ports]
        infer_node(node)
        after = [p.data.get_shape() for p in ports]
        if node.has_and_set('override_output_shape'):
            del node['override_output_shape']
            continue
        for old, new in zip(before, after):
            if old is not None and (new is None or not np.array_equal(old, new)):
                raise Error('After partial shape inference were found shape collision for node {} '
                            '(old shape: {}, new shape: {})', node.soft_get('name', node.id), old, new)


def remove_op_node_with_data_node(graph: Graph, node_to_remove: Node, input_data_node: Node = None):
    """Remove an op and its output data node; the op's (first, or ``input_data_node``) input data node
    feeds the consumers instead."""
    if input_data_node is None:
        input_data_node = node_to_remove.in_node(0)
    outputs = [Node(graph, v) for v in graph.successors(node_to_remove.id)]
    if len(outputs) > 1:
        raise Error('remove_op_node_with_data_node: "{}" has {} output data nodes, expected one',
                    node_to_remove.soft_get('name', node_to_remove.id), len(outputs))
    if outputs:
        output = outputs[0]
        for _, consumer, key, attrs in list(graph.out_edges(output.id, keys=True, data=True)):
            graph.add_edge(input_data_node.id, consumer, **attrs)
        graph.remove_node(output.id)
    graph.remove_node(node_to_remove.id)


def merge_data_nodes(graph: Graph, survived: Node, removed: Node):
    """Move every consumer of data node ``removed`` to data node ``survived``, then remove ``removed``
    (its producer's edge too)."""
    if survived.kind != 'data' or removed.kind != 'data':
        raise Error('merge_data_nodes takes two data nodes, got {} and {}', survived.kind, removed.kind)
    for _, consumer, attrs in list(graph.out_edges(removed.id, data=True)):
        graph.add_edge(survived.id, consumer, **attrs)
    graph.remove_node(removed.id)
