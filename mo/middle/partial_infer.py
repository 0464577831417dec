"""From the front phase's op graph to the middle phase's op/data graph, and shape inference.

``create_data_nodes`` puts a data node on every used output port. ``partial_infer`` then visits
the ops in topological order and calls each one's ``infer``: output shapes always, output values
too when the inputs are constant, so constant sub-graphs fold as a side effect.
"""
import logging as log

import numpy as np

from mo.front.common.partial_infer.elemental import broadcast_shapes
from mo.graph.author_view import author_call, is_author_code
from mo.graph.graph import Graph, Node
from mo.graph.port import data_node_attrs
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.activation_ops import Activation
from mo.ops.const import Const
from mo.ops.elementwise import Elementwise
from mo.utils.error import Error
from mo.utils.class_registration import anchor
from mo.utils.shape import shape_array


def create_data_nodes(graph: Graph):
    """Turn every op -> op data edge into op -> data -> op; one data node per used output port."""
    if graph.phase != 'front':
        return
    out_edge_list, node_attrs, unique_id = graph.out_edge_list, graph.node_attrs, graph.unique_id
    for node_id, data in list(graph.node_items()):
        if data.get('kind') != 'op':
            continue
        out_edges = out_edge_list(node_id, True)
        records = data.get('_out_ports')
        if not out_edges and not records:
            continue
        if records is None:
            records = data['_out_ports'] = {}
        ports = set(records)
        for _, _, attrs in out_edges:
            ports.add(attrs.get('out', 0))
        name = data.get('name', node_id)
        data_nodes = {}
        for port in sorted(ports) if len(ports) > 1 else ports:
            data_id = unique_id('{}/out{}'.format(name, port) if port else '{}/out'.format(name))
            data_nodes[port] = (data_id, data_node_attrs(data_id, records.get(port)))
        graph.insert_data_nodes(node_id, data_nodes, out_edges)
        for port, (data_id, _) in data_nodes.items():
            records[port] = node_attrs(data_id)  # the tensor's record is its data node (see add_data_node)
    graph.stage = 'middle'


def inputs_ready(node: Node) -> bool:
    """Every connected input has a shape."""
    return all(tensor.get('shape') is not None for tensor in node.in_tensors().values())


def infer_node(node: Node, inputs: dict = None):
    """Infer one op; failures become an Error that names the node and its input shapes. ``inputs``: the op's
    ``in_tensors()`` when the caller has them already (whole-graph inference reads them to see the op is ready)."""
    infer = node.soft_get('infer', None)
    if infer is None:
        raise Error('Operation "{}" ({}) has no shape inference; it cannot be converted as is',
                    node.soft_get('name', node.id), node.soft_get('op'))
    if inputs is not None and not inputs and _infer_plain_const(node, infer):
        node['need_shape_inference'] = False  # its data node has the value's element type too
        return
    version = node.graph.version
    try:
        if inputs is not None and _infer_directly(node, infer, inputs):
            pass  # an element-wise op of unknown input values: its output shape written without its infer
        elif is_author_code(infer):
            with author_call():  # the author's code reads shapes in the Model Optimizer's masked form
                infer(node)
        else:
            infer(node)
    except Error as exc:
        given = user_shapes_upstream(node)
        if given:
            raise Error('{} does not fit the model: {}: {}', given, _model_node_text(node), _reason(node, exc)) from exc
        raise Error('Shape inference failed for "{}" ({}): {}', node.soft_get('name', node.id),
                    node.soft_get('op'), exc) from exc
    except Exception as exc:
        shapes = {i: (None if p.data.get_shape() is None else p.data.get_shape().tolist())
                  for i, p in node.in_ports().items() if p.is_connected()}
        raise Error('Shape inference failed for "{}" ({}) with input shapes {}: {}: {}',
                    node.soft_get('name', node.id), node.soft_get('op'), shapes, type(exc).__name__, exc) from exc
    # an infer that rewired the op's inputs leaves the records read before it stale
    _propagate_data_types(node, inputs if node.graph.version == version else None)
    node['need_shape_inference'] = False


#: the functions behind the built-in element-wise infers -> which inputs give the output's shape: 'first' for
#: ``Activation.infer`` (input 0's shape), 'broadcast' for ``Elementwise.infer`` (every input's, broadcast)
_SHAPE_ONLY_INFERS = {Activation.infer.__func__: 'first', Elementwise.infer.__func__: 'broadcast'}


def _infer_plain_const(node: Node, infer) -> bool:
    """``Const.infer`` and ``Const.type_infer`` for the usual Const, a plain array and no declared shape to keep
    (``force_shape``): its value, shape and element type written onto its data node, as ``PortData.set_value``
    does, without the ports (a third of a frozen model's ops are Consts). Says whether it did."""
    graph = node.graph
    attrs = graph.node_attrs(node.id)
    if infer is not Const.infer or attrs.get('type_infer') is not Const.type_infer:
        return False
    value = attrs.get('value')
    output = _output_record(graph, node.id)
    if type(value) is not np.ndarray or output is None or attrs.get('force_shape') is not None or \
            output.get('force_shape') is not None:
        return False
    output['value'] = value
    output['shape'] = np.array(value.shape, dtype=np.int64)
    output['data_type'] = value.dtype
    return True


def _output_record(graph: Graph, node_id):
    """The data node of output 0 of ``node_id`` (the first data edge of port 0, as ``Port.tensor`` finds it), or
    None."""
    for data_id in graph.consumer_ids(node_id):
        for attrs in graph.edges_between(node_id, data_id).values():
            if attrs.get('out') == 0 and not attrs.get('control_flow_edge'):
                output = graph.node_attrs(data_id)
                return output if output.get('kind') == 'data' else None
    return None


def _infer_directly(node: Node, infer, inputs: dict) -> bool:
    """Whole-graph inference spends most of its calls on element-wise ops whose inputs are not constant; for
    those the output's shape is input 0's (activations) or all inputs' broadcast (binary ops), which this writes
    onto the output's data node without going through the op's infer and its ports (Port objects and adjacency
    scans per op: at a million ops they cost more than the shapes). Says whether it did; anything else (a
    constant input, whose value the op's infer computes; another infer; an output without a data node) goes the
    general way, which gives the same shape."""
    rule = _SHAPE_ONLY_INFERS.get(getattr(infer, '__func__', None))
    if rule is None or not inputs:
        return False
    if rule == 'first':
        if 0 not in inputs:
            return False
        inputs = {0: inputs[0]}
    if any(tensor.get('kind') != 'data' for tensor in inputs.values()) or \
            all(tensor.get('value') is not None for tensor in inputs.values()):
        return False
    shapes = [tensor['shape'] for tensor in inputs.values()]
    if any(type(shape) is not np.ndarray for shape in shapes):
        return False  # a masked or list shape an author's code wrote: the op's infer reads it
    output = _output_record(node.graph, node.id)
    if output is None:
        return False
    output['shape'] = shape_array(shapes[0] if rule == 'first' else _broadcast(shapes))
    return True


def _broadcast(shapes: list):
    """``broadcast_shapes(*shapes)``, told without its per-dimension loop in the usual case: scalars aside, the
    inputs have one shape (a scalar adds nothing to a broadcast, and equal shapes broadcast to themselves)."""
    ranked = [shape for shape in shapes if len(shape)] or shapes[:1]
    first = ranked[0].tolist()
    if all(shape.tolist() == first for shape in ranked[1:]):
        return np.array([int(d) for d in first], dtype=np.int64)
    return broadcast_shapes(*shapes)


def user_shapes_upstream(node: Node) -> str:
    """The shapes the user gave (--input, --input_shape) to the inputs that ``node`` computes from, as the user gave
    them, e.g. ``The shape [1,64,64] given for input "image" (NHWC, as the model takes it)``; '' when none."""
    graph, seen, queue, given = node.graph, {node.id}, [node.id], []
    while queue:
        for source in graph.predecessors(queue.pop()):
            if source not in seen:
                seen.add(source)
                queue.append(source)
                attrs = graph.nodes[source]
                if attrs.get('kind') == 'op' and attrs.get('user_shape') is not None:
                    given.append(attrs)
    if not given:
        return ''
    layout = graph.graph.get('layout')
    layout_text = ' ({}, as the model takes it)'.format(
        'channels-last: NHWC for images' if layout == 'NHWC' else 'channels-first: NCHW for images') \
        if layout in ('NHWC', 'NCHW') else ''
    parts = ['[{}] given for input "{}"'.format(','.join(str(int(d)) for d in attrs['user_shape']),
                                                 attrs.get('name')) for attrs in given]
    return 'The shape{} {}{}'.format('s' if len(parts) > 1 else '', ' and '.join(parts), layout_text)


def _reason(node: Node, exc: Error) -> str:
    """Why ``node`` failed, in the model's terms: a layout Transpose fails only on a tensor of another rank than the
    channels-last op it stands for takes."""
    if node.has_valid('layout_transpose_of') and node.in_port(1).data.get_value() is not None:
        shape = node.in_port(0).data.get_shape()
        rank = len(node.in_port(1).data.get_value())
        if shape is not None and len(shape) != rank:
            return 'it takes a {}-D channels-last tensor and gets one of shape [{}]'.format(
                rank, ','.join(str(int(d)) for d in shape))
    return str(exc)


def _model_node_text(node: Node) -> str:
    """The model's node that could not take the shapes: a layout Transpose mo put around a channels-last op stands
    for that op, whose own shapes mo handles channels-first."""
    name = node.soft_get('layout_transpose_of', None) or node.soft_get('name', node.id)
    op = node.graph.get_node_by_name(name) if node.has_valid('layout_transpose_of') else node
    op = op if op is not None else node
    pb = op.soft_get('pb', None)
    op_type = getattr(pb, 'op', None) or getattr(pb, 'op_type', None) or op.soft_get('op')  # the framework's op
    text = 'node "{}" ({}) cannot take it'.format(name, op_type)
    if op.soft_get('source_layout', None) not in (None, 'NCHW') and not node.has_valid('layout_transpose_of'):
        text += ' (mo holds its shapes channels-first)'
    return text


def _propagate_data_types(node: Node, inputs: dict = None):
    """Give every output a dtype: the op's ``type_infer`` decides, else output = input 0's type."""
    type_infer = node.soft_get('type_infer', None)
    if type_infer is not None:
        type_infer(node)
        return
    graph = node.graph
    if inputs is None:
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
    view = Node.view  # ids straight from the graph's own order: no existence check per op
    for node_id in graph.topological_ids():
        if graph.node_attrs(node_id).get('kind') != 'op' or (wanted is not None and node_id not in wanted):
            continue
        node = view(graph, node_id)
        inputs = node.in_tensors()  # read once: the readiness test and the data types both need them
        if not all(tensor.get('shape') is not None for tensor in inputs.values()):
            log.debug('Skipping inference of "{}": an input shape is unknown'.format(node.soft_get('name')))
            continue
        infer_node(node, inputs)


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
