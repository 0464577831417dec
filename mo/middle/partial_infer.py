"""From the front phase's op graph to the middle phase's op/data graph, and shape inference.

``create_data_nodes`` puts a data node on every used output port. ``partial_infer`` then visits
the ops in topological order and calls each one's ``infer``: output shapes always, output values
too when the inputs are constant, so constant sub-graphs fold as a side effect.
"""
import logging as log

import numpy as np

from mo.graph.graph import Graph, Node
from mo.graph.port import add_data_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.utils.error import Error
from mo.utils.class_registration import anchor


def create_data_nodes(graph: Graph):
    """Turn every op -> op data edge into op -> data -> op; one data node per used output port."""
    if graph.stage != 'front':
        return
    for node_id, data in list(graph.node_items()):
        if data.get('kind') != 'op':
            continue
        out_edges = graph.out_edge_list(node_id, data_only=True)
        records = data.get('_out_ports') or {}
        if not out_edges and not records:
            continue
        name = data.get('name', node_id)
        data_nodes = {}
        for port in sorted({attrs.get('out', 0) for _, _, attrs in out_edges}.union(records)):
            data_id = graph.unique_id('{}/out{}'.format(name, port) if port else '{}/out'.format(name))
            add_data_node(graph, node_id, port, data_id)
            graph.add_edge(node_id, data_id, out=port)
            data_nodes[port] = data_id
        for v, key, attrs in out_edges:
            graph.remove_edge(node_id, v, key)
            graph.add_edge(data_nodes[attrs.get('out', 0)], v, **{k: val for k, val in attrs.items() if k != 'out'})
    graph.stage = 'middle'


def _inputs_ready(node: Node) -> bool:
    """Every connected input has a shape."""
    return all(tensor.get('shape') is not None for tensor in node.in_tensors().values())


def infer_node(node: Node):
    """Infer one op; failures become an Error that names the node and its input shapes."""
    infer = node.soft_get('infer', None)
    if infer is None:
        raise Error('Operation "{}" ({}) has no shape inference; it cannot be converted as is',
                    node.soft_get('name', node.id), node.soft_get('op'))
    try:
        infer(node)
    except Error as exc:
        raise Error('Shape inference failed for "{}" ({}): {}', node.soft_get('name', node.id),
                    node.soft_get('op'), exc) from exc
    except Exception as exc:
        shapes = {i: (None if p.data.get_shape() is None else p.data.get_shape().tolist())
                  for i, p in node.in_ports().items() if p.is_connected()}
        raise Error('Shape inference failed for "{}" ({}) with input shapes {}: {}: {}',
                    node.soft_get('name', node.id), node.soft_get('op'), shapes, type(exc).__name__, exc) from exc
    _propagate_data_types(node)
    node['need_shape_inference'] = False


def _propagate_data_types(node: Node):
    """Give every output a dtype: the op's ``type_infer`` decides, else output = input 0's type."""
    type_infer = node.soft_get('type_infer', None)
    if type_infer is not None:
        type_infer(node)
        return
    graph = node.graph
    inputs = node.in_tensors()
    source_type = next(iter(inputs.values())).get('data_type') if inputs else None
    if source_type is None:
        source_type = graph.node_attrs(node.id).get('data_type')
    if source_type is None:
        return
    for data_id in graph.consumer_ids(node.id):
        data = graph.node_attrs(data_id)
        if data.get('kind') == 'data' and data.get('data_type') is None:
            data['data_type'] = np.dtype(source_type)


def partial_infer(graph: Graph, nodes=None):
    """Infer every op (or just ``nodes``) in topological order."""
    wanted = None if nodes is None else {n.id if isinstance(n, Node) else n for n in nodes}
    for node in graph.pseudo_topological_sort():
        if node.kind != 'op' or (wanted is not None and node.id not in wanted):
            continue
        if not _inputs_ready(node):
            log.debug('Skipping inference of "{}": an input shape is unknown'.format(node.soft_get('name')))
            continue
        infer_node(node)


def reinfer_marked_nodes(graph: Graph):
    """Re-infer the ops marked ``need_shape_inference`` and everything downstream of them."""
    marked = [n for n, d in graph.nodes(data=True) if d.get('kind') == 'op' and d.get('need_shape_inference')]
    if not marked:
        return
    downstream = set(marked)
    queue = list(marked)
    while queue:
        for succ in graph.successors(queue.pop()):
            if succ not in downstream:
                downstream.add(succ)
                queue.append(succ)
    partial_infer(graph, [n for n in downstream if graph.nodes[n].get('kind') == 'op'])


class PartialInfer(MiddleReplacementPattern):
    """Creates data nodes and infers every op's output shapes (and constant values)."""
    id = 'PartialInfer'

    def run_after(self):
        return [anchor('FrontFinish')]

    def run_before(self):
        return [anchor('PreMiddleStart')]

    def find_and_replace_pattern(self, graph: Graph):
        create_data_nodes(graph)
        partial_infer(graph)
        self.match_count = graph.count_by_attr('kind', 'op')


def value_or_none(port):
    value = port.data.get_value()
    return None if value is None else np.asarray(value)
