"""The Model Optimizer's ``mo.middle.passes.infer`` entry points, on mo's inference."""
import numpy as np

from mo.front.common.partial_infer.utils import shape_array
from mo.graph.graph import Graph, Node
from mo.middle import partial_infer as _inference
from mo.utils.error import Error


def partial_infer(graph: Graph, start_node: str = None):
    """Infer every op in topological order (from ``start_node`` on, when given); creates the data
    nodes first if the graph has none."""
    _inference.create_data_nodes(graph)
    if start_node is None:
        _inference.partial_infer(graph)
        return graph
    order = [n.id for n in graph.pseudo_topological_sort()]
    if start_node not in order:
        raise Error('partial_infer: there is no node "{}"', start_node)
    _inference.partial_infer(graph, order[order.index(start_node):])
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
    """Set Parameter shapes from ``user_shapes`` (node id -> shape, or -> [{'shape': s}, ...] as the
    Model Optimizer's parser made them), then the batch."""
    for node_id, spec in (user_shapes or {}).items():
        if node_id not in graph:
            raise Error('override_placeholder_shapes: there is no input "{}"', node_id)
        shape = spec
        if isinstance(spec, (list, tuple)) and spec and isinstance(spec[0], dict):
            shape = spec[0].get('shape')
        if shape is not None:
            Node(graph, node_id)['shape'] = shape_array(np.ravel(shape))
    override_batch(graph, batch)
