"""The Model Optimizer's ``mo.middle.passes.infer`` entry points, on mo's inference."""
import numpy as np

from mo.utils.shape import shape_array
from mo.graph.graph import Graph, Node
from mo.middle import partial_infer as _inference
from mo.utils.error import Error


def partial_infer(graph: Graph, start_node: str = None):
    """Infer every op in topological order (from ``start_node`` on, when given); creates the data
    nodes first if the graph has none.

    As in the Model Optimizer, every node from ``start_node`` on gets ``is_partial_inferred``: False before
    inference, True once it is inferred (a data node: once its producer is); the nodes before it get none.
    A graph with a cycle is an Error: "Graph contains a cycle. Can not proceed."
    """
    _inference.create_data_nodes(graph)
    cycle = graph.find_cycle()
    if cycle:
        names = [str(graph.nodes[n].get('name', n)) for n in cycle]
        raise Error('Graph contains a cycle. Can not proceed. The cycle: {}', ' -> '.join(names + names[:1]))
    order = [n.id for n in graph.pseudo_topological_sort()]
    if start_node is not None:
        if start_node not in order:
            raise Error('partial_infer: there is no node "{}"', start_node)
        order = order[order.index(start_node):]
    for node_id in order:
        graph.nodes[node_id]['is_partial_inferred'] = False
    _inference.partial_infer(graph, None if start_node is None else order)
    for node_id in order:
        attrs = graph.nodes[node_id]
        if attrs.get('kind') == 'data':
            producers = list(graph.predecessors(node_id))
            attrs['is_partial_inferred'] = all(graph.nodes[p].get('is_partial_inferred', True) for p in producers)
        elif _inference.inputs_ready(Node(graph, node_id)):
            attrs['is_partial_inferred'] = True
    return graph


def type_infer(graph: Graph):
    """Give every data node the element type its producer computes (ops' ``type_infer``, else
    the type of their first input)."""
    for node in graph.pseudo_topological_sort():
        if node.kind == 'op':
            _inference._propagate_data_types(node)


def override_batch(graph: Graph, batch: int):
    """Set the first dimension of every Parameter's shape to ``batch`` (None: leave them)."""
    if batch is None:
        return
    for node in graph.get_op_nodes(op='Parameter'):
        shape = node.soft_get('shape', None)
        if shape is None or len(shape) == 0:
            raise Error('Cannot override the batch of input "{}": its shape {} has no batch dimension',
                        node.soft_get('name', node.id), shape)
        shape = shape_array(shape).copy()
        shape[0] = batch
        node['shape'] = shape


def override_placeholder_shapes(graph: Graph, user_shapes, batch: int = None):
    """Set Parameter shapes from ``user_shapes`` (node id -> ``[{'shape': s}, ...]`` as the Model Optimizer's
    parser made them, or -> a shape), then the batch (the first dimension of every Parameter with a shape), as
    the Model Optimizer did: ``user_shapes`` None changes nothing (not even the batch), an id that is not a
    Parameter of the graph is ignored, and a spec for a port (``'in'`` or ``'out'`` in it) is not the node's."""
    if user_shapes is None:
        return None
    for node in graph.get_op_nodes(op='Parameter'):
        shape = None
        if node.id in user_shapes:
            spec = user_shapes[node.id]
            if isinstance(spec, (list, tuple)) and spec and isinstance(spec[0], dict):
                shape = next((item.get('shape') for item in spec if 'in' not in item and 'out' not in item), None)
            else:
                shape = spec
        if shape is not None:
            node['shape'] = shape_array(np.ravel(shape))
        current = node.soft_get('shape', None)
        if batch is not None and current is not None and len(current) > 0:
            current = shape_array(current).copy()
            current[0] = batch
            node['shape'] = current
    return None
