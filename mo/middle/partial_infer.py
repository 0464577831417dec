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
from mo.graph.port import data_node_attrs, data_node_port_table, own_port_table
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
    out_adjacency = graph.out_adjacency  # the adjacency read directly: this visits every op and edge of the model
    unique_id, insert_data_nodes, node_attrs = graph.unique_id, graph.insert_data_nodes, graph.node_attrs
    # This edits every node, and clean-up after a step looks around the nodes it edited; but a graph clean before
    # stays clean here except for the data nodes of declared outputs nothing reads: only those are reported.
    outer_edits, graph.edited = graph.edited, None
    unread = []
    try:
        for node_id, data in [(n, d) for n, d in graph.node_items() if d.get('kind') == 'op']:
            out_edges = [(consumer, key, attrs) for consumer, keyed in out_adjacency(node_id).items()
                         for key, attrs in keyed.items() if not attrs.get('control_flow_edge')]
            records = data.get('_out_ports')
            if not out_edges and not records:
                continue
            if records is None:
                records = data['_out_ports'] = {}
            read = {attrs.get('out', 0) for _, _, attrs in out_edges}
            ports = read if records.keys() <= read else read.union(records)
            name = data.get('name', node_id)
            data_nodes = {}
            for port in sorted(ports) if len(ports) > 1 else ports:
                data_id = unique_id('{}/out{}'.format(name, port) if port else '{}/out'.format(name))
                data_nodes[port] = (data_id, data_node_attrs(data_id, records.get(port)))
                if port not in read:
                    unread.append(data_id)
            insert_data_nodes(node_id, data_nodes, out_edges)
            if _all_on_data_nodes(records, data_nodes):
                data['_out_ports'] = data_node_port_table(len(data_nodes))
            else:
                records = own_port_table(data, '_out_ports')
                for port, (data_id, _) in data_nodes.items():
                    records[port] = node_attrs(data_id)  # the tensor's record is its data node (see add_data_node)
    finally:
        graph.edited = outer_edits
        if outer_edits is not None:
            outer_edits.update(unread)
    graph.stage = 'middle'


def _all_on_data_nodes(records: dict, data_nodes: dict) -> bool:
    """Whether the op's outputs are ports 0..n-1, each with a data node now, none a control-flow port: its records
    can all be its data nodes' dicts (``ON_DATA_NODE``)."""
    count = len(data_nodes)
    return (records.keys() <= data_nodes.keys() and all(port in data_nodes for port in range(count))
            and not any(record.get('control_flow') for record in records.values() if record))


def inputs_ready(node: Node) -> bool:
    """Every connected input has a shape."""
    return all(tensor.get('shape') is not None for tensor in node.in_tensors().values())


def infer_node(node: Node, inputs: dict = None):
    """Infer one op; failures become an Error that names the node and its input shapes. ``inputs``: the op's
    ``in_tensors()`` when the caller has them already (whole-graph inference reads them to see the op is ready)."""
    graph, node_id = node.graph, node.id
    attrs = graph.node_attrs(node_id)
    infer = attrs.get('infer')
    if infer is None:
        raise Error('Operation "{}" ({}) has no shape inference; it cannot be converted as is',
                    node.soft_get('name', node_id), node.soft_get('op'))
    version = graph.version
    try:
        if is_author_code(infer):
            with author_call():  # the author's code reads shapes in the Model Optimizer's masked form
                infer(node)
        else:
            infer(node)
    except Error as exc:
        given = user_shapes_upstream(node)
        if given:
            raise Error('{} does not fit the model: {}: {}', given, _model_node_text(node), _reason(node, exc)) from exc
        raise Error('Shape inference failed for "{}" ({}): {}', node.soft_get('name', node_id),
                    node.soft_get('op'), exc) from exc
    except Exception as exc:
        shapes = {i: (None if p.data.get_shape() is None else p.data.get_shape().tolist())
                  for i, p in node.in_ports().items() if p.is_connected()}
        raise Error('Shape inference failed for "{}" ({}) with input shapes {}: {}: {}',
                    node.soft_get('name', node_id), node.soft_get('op'), shapes, type(exc).__name__, exc) from exc
    # an infer that rewired the op's inputs leaves the records read before it stale
    _propagate_data_types(graph, node_id, attrs, inputs if graph.version == version else None, node)
    attrs['need_shape_inference'] = False


#: the functions behind the built-in element-wise infers -> which inputs give the output's shape: 'first' for
#: ``Activation.infer`` (input 0's shape), 'broadcast' for ``Elementwise.infer`` (every input's, broadcast)
_SHAPE_ONLY_INFERS = {Activation.infer.__func__: 'first', Elementwise.infer.__func__: 'broadcast'}


def _infer_plain_const(graph: Graph, node_id, attrs: dict, infer) -> bool:
    """``Const.infer`` and ``Const.type_infer`` for the usual Const (attributes ``attrs``), a plain array and no
    declared shape to keep (``force_shape``): its value, shape and element type written onto its data node, as
    ``PortData.set_value`` does, without the ports (a third of a frozen model's ops are Consts). Says whether it
    did."""
    if infer is not Const.infer or attrs.get('type_infer') is not Const.type_infer:
        return False
    value = attrs.get('value')
    if type(value) is not np.ndarray or attrs.get('force_shape') is not None:
        return False
    output = _output_record(graph, node_id)
    if output is None or output.get('force_shape') is not None:
        return False
    output['value'] = value
    output['shape'] = np.array(value.shape, dtype=np.int64)
    output['data_type'] = value.dtype
    return True


def _output_record(graph: Graph, node_id, outputs: dict = None):
    """The data node of output 0 of ``node_id`` (the first data edge of port 0, as ``Port.tensor`` finds it), or
    None. ``outputs``: the op's out adjacency when the caller has it."""
    for data_id, keyed in (graph.out_adjacency(node_id) if outputs is None else outputs).items():
        for attrs in keyed.values():
            if attrs.get('out') == 0 and not attrs.get('control_flow_edge'):
                output = graph.node_attrs(data_id)
                return output if output.get('kind') == 'data' else None
    return None


def _infer_directly(graph: Graph, node_id, attrs: dict, infer, inputs: dict) -> bool:
    """Whole-graph inference spends most of its calls on element-wise ops whose inputs are not constant; for
    those the output's shape is input 0's (activations) or all inputs' broadcast (binary ops), which this writes
    onto the output's data node, with the element types ``_propagate_data_types`` gives, without going through
    the op's infer and its ports (Port objects and adjacency scans per op: at a million ops they cost more than
    the shapes). Says whether it did; anything else (a constant input, whose value the op's infer computes;
    another infer; an output without a data node; shapes that do not broadcast) goes the general way, which
    gives the same shape."""
    rule = _SHAPE_ONLY_INFERS.get(getattr(infer, '__func__', None))
    if rule is None:
        return False
    first = inputs.get(0)
    if rule == 'first':
        if first is None:
            return False
        tensors = (first,)
    else:
        tensors = inputs.values()
        if first is None:
            first = inputs[min(inputs)]
    shape = None  # the output's: the inputs' one shape, scalars aside (a scalar adds nothing to a broadcast)
    dims = None  # ``shape`` as a list, to compare the next inputs' with
    constant = agree = True
    for tensor in tensors:
        tensor_shape = tensor.get('shape')
        if tensor.get('kind') != 'data' or type(tensor_shape) is not np.ndarray or tensor_shape.ndim != 1:
            return False  # a masked or list shape an author's code wrote: the op's infer reads it
        if constant and tensor.get('value') is None:
            constant = False
        if shape is None:
            shape = tensor_shape
        elif len(tensor_shape) and agree:
            if not len(shape):
                shape = tensor_shape
            else:
                if dims is None:
                    dims = shape.tolist()
                agree = tensor_shape.tolist() == dims
    if constant:
        return False
    outputs = graph.out_adjacency(node_id)
    output = _output_record(graph, node_id, outputs)
    if output is None:
        return False
    if not agree:
        try:
            shape = broadcast_shapes(*[inputs[index]['shape'] for index in sorted(inputs)])
        except Error:
            return False  # shapes that do not broadcast: the op's infer says so, named as its failures are
    output['shape'] = shape_array(shape)
    if len(outputs) == 1 and attrs.get('type_infer') is None:  # the usual op: one successor, that data node
        source_type = first.get('data_type')
        if source_type is None:
            source_type = attrs.get('data_type')
        if source_type is not None and output.get('data_type') is None:
            output['data_type'] = np.dtype(source_type)
    else:
        _propagate_data_types(graph, node_id, attrs, {0: first})
    return True


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


def _propagate_data_types(graph: Graph, node_id, attrs: dict, inputs: dict = None, node: Node = None):
    """Give every output of op ``node_id`` (attributes ``attrs``) a dtype: the op's ``type_infer`` decides (given
    ``node``, or a Node made for it), else output = input 0's type. ``inputs``: the op's ``in_tensors()`` when
    known."""
    type_infer = attrs.get('type_infer')
    if type_infer is not None or inputs is None:
        node = node if node is not None else Node.view(graph, node_id)
        if type_infer is not None:
            type_infer(node)
            return
        inputs = node.in_tensors()
    source_type = next(iter(inputs.values())).get('data_type') if inputs else None
    if source_type is None:
        source_type = attrs.get('data_type')
    if source_type is None:
        return
    nodes = graph.node_attrs
    for data_id in graph.out_adjacency(node_id):
        data = nodes(data_id)
        if data.get('kind') == 'data' and data.get('data_type') is None:
            data['data_type'] = np.dtype(source_type)


def partial_infer(graph: Graph, nodes=None):
    """Infer every op (or just ``nodes``) in topological order."""
    wanted = None if nodes is None else {n.id if isinstance(n, Node) else n for n in nodes}
    if graph.phase == 'front':  # tensors are port records there, read through the op's ports
        view = Node.view  # ids straight from the graph's own order: no existence check per op
        for node_id in graph.topological_ids():
            if graph.node_attrs(node_id).get('kind') == 'op' and (wanted is None or node_id in wanted):
                inputs = view(graph, node_id).in_tensors()
                if _shapes_known(graph, node_id, inputs):
                    infer_node(view(graph, node_id), inputs)
        return
    attrs_of, in_adjacency = graph.node_attrs, graph.in_adjacency
    for node_id in graph.topological_ids():
        attrs = attrs_of(node_id)
        if attrs.get('kind') != 'op' or (wanted is not None and node_id not in wanted):
            continue
        # ``middle_in_tensors`` without its sort: the usual ops read their inputs in any order
        inputs = {}
        for source, keyed in in_adjacency(node_id).items():
            for edge in keyed.values():
                if 'in' in edge and not edge.get('control_flow_edge'):
                    inputs[edge['in']] = attrs_of(source)
        for tensor in inputs.values():
            if tensor.get('shape') is None:
                if tensor.get('dynamic_rank'):
                    _dynamic_rank_outputs(graph, node_id, attrs, inputs)
                else:
                    _log_skipped(attrs)
                break
        else:
            # the ops that make most of a model (a plain Const; an element-wise op of inputs not all constant) are
            # inferred on their data nodes, without a Node, Port objects or the op's infer: at a million ops those
            # cost more than the shapes; any other op goes the general way, which gives the same result
            infer = attrs.get('infer')
            if infer is not None and (_infer_directly(graph, node_id, attrs, infer, inputs) if inputs else
                                      _infer_plain_const(graph, node_id, attrs, infer)):
                attrs['need_shape_inference'] = False
            else:
                infer_node(Node.view(graph, node_id), dict(sorted(inputs.items())) if len(inputs) > 1 else inputs)


def _shapes_known(graph: Graph, node_id, inputs: dict) -> bool:
    """Every input of op ``node_id`` has a shape (else its inference waits: logged)."""
    for tensor in inputs.values():
        if tensor.get('shape') is None:
            if tensor.get('dynamic_rank'):
                _dynamic_rank_outputs(graph, node_id, graph.node_attrs(node_id), inputs)
            else:
                _log_skipped(graph.node_attrs(node_id))
            return False
    return True


def _dynamic_rank_outputs(graph: Graph, node_id, attrs: dict, inputs: dict):
    """An op reading a tensor of dynamic rank (an ONNX If whose branches give different ranks): mo has no shapes
    to infer, so its outputs are of dynamic rank too and OpenVINO infers them when it reads the IR; their element
    types still follow (the op's type_infer where it does without shapes, else input 0's type)."""
    node = Node.view(graph, node_id)
    if attrs.get('then_graph_proto') is not None or attrs.get('body_proto') is not None:
        # a body's Parameters need the rank of what they stand for
        raise Error('{} "{}" reads a tensor of dynamic rank (an If whose branches give it different ranks); mo '
                    'converts control flow bodies for inputs of known rank only',
                    attrs.get('onnx_op', attrs.get('op')), attrs.get('name', node_id))
    for port in node.out_ports().values():
        if not port.disconnected():
            port.data.set_dynamic_rank()
    try:
        _propagate_data_types(graph, node_id, attrs, inputs, node)
    except Exception:  # a type_infer that reads shapes: input 0's type
        source_type = next(iter(inputs.values())).get('data_type') if inputs else None
        for port in node.out_ports().values():
            if not port.disconnected() and source_type is not None and port.data.get_data_type() is None:
                port.data.set_data_type(source_type)
    attrs['need_shape_inference'] = False


def _log_skipped(attrs: dict):
    log.debug('Skipping inference of "{}": an input shape is unknown'.format(attrs.get('name', '<UNKNOWN>')))


def reinfer_marked_nodes(graph: Graph):
    """Re-infer the ops marked ``need_shape_inference`` and everything downstream of them."""
    marked = [n for n, d in graph.node_items() if d.get('kind') == 'op' and d.get('need_shape_inference')]
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
