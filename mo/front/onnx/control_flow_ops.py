"""ONNX's If, Loop and Scan as OpenVINO's If (opset8), Loop (opset5) and TensorIterator (opset1).

The bodies are ONNX GraphProtos, converted when the op's inputs are inferred (``mo.front.onnx.bodies``) so
that each body Parameter gets the shape and type of the tensor it stands for; the converted bodies live in
the node's ``bodies`` attribute (IR tag -> graph) and the IR writer writes them inside the layer with the
port maps and back edges ``ir_sections`` gives. A body's reads of the enclosing graphs' tensors are inputs
of the node after its own (``onnx_outer_inputs``, see ``mo.front.onnx.scopes``).

They live with the ONNX reader: only ONNX graphs hold them, and only ONNX's extractors create them.
"""
from collections import namedtuple

import numpy as np

from mo.back.ir.xml_builder import ElementList
from mo.utils.shape import int64_array
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Node
from mo.ops.op import Op
from mo.ops.squeeze import Squeeze
from mo.ops.unsqueeze import Unsqueeze
from mo.front.onnx.bodies import INPUT_INDEX, OUTER_INDEX, BodyInput, convert_body, input_spec
from mo.front.onnx.loader import TENSORS
from mo.utils.error import Error

#: how often a loop body is converted again with loosened shapes before giving up
MAX_SHAPE_ROUNDS = 3

_Output = namedtuple('_Output', 'name')  # stands for a body output's ValueInfoProto (only its name is read)


def _name(node) -> str:
    return node.soft_get('name', node.id)


def merge_shapes(a, b):
    """The shape both ``a`` and ``b`` fit: equal sizes kept, others -1; None when the ranks differ."""
    if a is None or b is None or len(a) != len(b):
        return None
    return [int(x) if int(x) == int(y) else -1 for x, y in zip(a, b)]


def _set_output(node, port, shape, dtype):
    if node.out_port(port).disconnected():
        return
    node.out_port(port).data.set_shape(int64_array(shape))
    if dtype is not None:
        node.out_port(port).data.set_data_type(dtype)


def _set_dynamic_rank_output(node, port, dtype):
    """An output whose branches give it different ranks: no shape (OpenVINO's If output of dynamic rank)."""
    if node.out_port(port).disconnected():
        return
    node.out_port(port).data.set_dynamic_rank()
    if dtype is not None:
        node.out_port(port).data.set_data_type(dtype)


def _outer_specs(node, first: int) -> list:
    return [input_spec(node, first + k) for k in range(len(node.soft_get('onnx_outer_inputs', None) or []))]


def _port(ext, layer_id, *extra) -> list:
    return [('external_port_id', str(ext)), ('internal_layer_id', str(layer_id))] + list(extra)


def _slicing(axis: int, reverse: bool) -> list:
    """Port-map attributes of an input sliced, or an output concatenated, one step of ``axis`` per iteration."""
    start, end, stride = ('-1', '0', '-1') if reverse else ('0', '-1', '1')
    return [('axis', str(axis)), ('start', start), ('end', end), ('stride', stride), ('part_size', '1')]


def wrap_outputs(graph, first: int, make):
    """In a loaded (front) body, put ``make(graph, k, source_port)`` between body output k (k >= ``first``) and
    the Result it will get: each such output is renamed to the new node's output."""
    tensors = graph.graph[TENSORS]
    outputs = list(graph.graph['onnx_graph_outputs'])
    for k in range(first, len(outputs)):
        node_id, port = tensors[outputs[k].name]
        new = make(graph, k, Node(graph, node_id).out_port(port))
        name = graph.unique_id('{}/scan_output_{}'.format(outputs[k].name, k))
        tensors[name] = (new.id, 0)
        outputs[k] = _Output(name)
    graph.graph['onnx_graph_outputs'] = outputs


def _unsqueezed(axis_of):
    """A ``wrap_outputs`` maker: Unsqueeze at ``axis_of(k)``, the axis a scan output is concatenated on."""
    def make(graph, k, source):
        node = create_op_with_const_inputs(graph, Unsqueeze, {1: int64_array([axis_of(k)])},
                                           {'name': graph.unique_id('scan_output_{}/unsqueeze'.format(k))})
        source.connect(node.in_port(0))
        return node
    return make


class ONNXIf(Op):
    """ONNX If -> If (opset8): input 0 the condition, inputs 1.. the enclosing tensors the branches read."""
    op = 'ONNXIf'

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'If', 'op': 'ONNXIf', 'version': 'opset8', 'infer': self.infer,
                                 'type_infer': lambda node: None, 'ir_sections': self.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def infer(node):
        outer = _outer_specs(node, 1)
        count = len(node.then_graph_proto.output)
        if len(node.else_graph_proto.output) != count:
            raise Error('If "{}": its then branch has {} outputs, its else branch {}', _name(node), count,
                        len(node.else_graph_proto.output))
        branches = (('then_body', node.then_graph_proto), ('else_body', node.else_graph_proto))
        # a condition known at conversion: only the taken branch is converted, and stands for both (the other
        # never runs). ONNX functions branch on a rank this way (AffineGrid's body on its size's length), and
        # the branch not taken may not even convert for that rank
        condition = node.in_port(0).data.get_value()
        if condition is not None and np.size(condition) == 1:
            branches = [branches[0 if bool(np.ravel(condition)[0]) else 1]]
        bodies = {}
        for tag, proto in branches:
            where = 'The {} branch of If "{}"'.format(tag.split('_')[0], _name(node))
            bodies[tag] = convert_body(node, proto, [], outer, where)
        then, other = bodies.get('then_body'), bodies.get('else_body')
        then, other = then or other, other or then
        bodies = {'then_body': then, 'else_body': other}
        node['bodies'] = {tag: body.graph for tag, body in bodies.items()}
        node['onnx_bodies'] = bodies
        for k in range(count):
            shape = merge_shapes(then.result_shape(k), other.result_shape(k))
            if shape is None:
                _set_dynamic_rank_output(node, k, then.result_dtype(k) or other.result_dtype(k))
                continue
            _set_output(node, k, shape, then.result_dtype(k))
            value = then.results[k].in_port(0).data.get_value() if then is other else None
            if value is not None and not node.out_port(k).disconnected():
                node.out_port(k).data.set_value(value)  # lets what depends on it fold (a rank, a size)

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        sections = []
        for tag in ('then_body', 'else_body'):
            ids, body = layer_ids[tag], node.onnx_bodies[tag]
            port_map = ElementList(tag.split('_')[0] + '_port_map')
            for k, param in enumerate(body.outer):
                if param is not None:
                    port_map.items.append(('input', _port(1 + k, ids[param.id])))
            for k, port in sorted(output_ports.items()):
                port_map.items.append(('output', _port(port, ids[body.results[k].id])))
            sections.append(port_map)
        return sections


class ONNXLoop(Op):
    """ONNX Loop -> Loop (opset5). Inputs: 0 trip count (-1: none), 1 the first execution condition, 2 the same
    condition again for the body's ``cond`` input, 3.. the N loop-carried values, then the enclosing tensors the
    body reads. Outputs: the N final values, then the K scan outputs (each iteration's value stacked on axis 0).
    The body's iteration number is Loop's ``current_iteration``; its condition output Loop's
    ``execution_condition``, fed back to its ``cond`` input."""
    op = 'ONNXLoop'
    FIRST_VALUE = 3

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'Loop', 'op': 'ONNXLoop', 'version': 'opset5', 'infer': self.infer,
                                 'type_infer': lambda node: None, 'ir_sections': self.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def infer(node):
        proto, carried = node.body_proto, int(node.carried_count)
        first_outer = ONNXLoop.FIRST_VALUE + carried
        specs = [BodyInput(np.int64, []), input_spec(node, 2)] + \
            [input_spec(node, ONNXLoop.FIRST_VALUE + k) for k in range(carried)]
        outer = _outer_specs(node, first_outer)
        where = 'The body of Loop "{}"'.format(_name(node))
        scans = len(proto.output) - 1 - carried
        if scans < 0:
            raise Error('Loop "{}": its body has {} outputs for {} loop-carried values', _name(node),
                        len(proto.output), carried)
        prepare = lambda graph: wrap_outputs(graph, 1 + carried, _unsqueezed(lambda k: 0))  # noqa: E731
        for _ in range(MAX_SHAPE_ROUNDS):
            body = convert_body(node, proto, specs, outer, where, prepare, variant=('loop', carried))
            loosened = False
            for k in range(carried):
                merged = merge_shapes(specs[2 + k].shape, body.result_shape(1 + k))
                if merged is None:
                    raise Error('Loop "{}": loop-carried value {} changes rank from {} to {} in the body; '
                                'OpenVINO\'s Loop needs a fixed rank', _name(node), k, specs[2 + k].shape,
                                body.result_shape(1 + k))
                loosened |= merged != specs[2 + k].shape
                specs[2 + k] = BodyInput(specs[2 + k].dtype, merged)
            if not loosened:
                break
        else:
            raise Error('Loop "{}": the shapes of its loop-carried values did not settle', _name(node))
        body.complete(range(1, 2 + carried))
        node['bodies'] = {'body': body.graph}
        node['onnx_bodies'] = {'body': body}
        for k in range(carried):
            _set_output(node, k, specs[2 + k].shape, body.result_dtype(1 + k) or specs[2 + k].dtype)
        length = ONNXLoop._static_length(node, body)
        for j in range(scans):
            shape = body.result_shape(1 + carried + j)
            _set_output(node, carried + j, [length] + shape[1:], body.result_dtype(1 + carried + j))

    @staticmethod
    def _static_length(node, body) -> int:
        """The number of iterations when the trip count is a constant and the condition always true; else -1."""
        trips = node.in_port(0).data.get_value()
        conditions = [node.in_port(1).data.get_value(), body.results[0].in_port(0).data.get_value()]
        if trips is None or any(c is None or not bool(np.all(c)) for c in conditions) or int(np.ravel(trips)[0]) < 0:
            return -1
        return int(np.ravel(trips)[0])

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        ids, body = layer_ids['body'], node.onnx_bodies['body']
        carried = int(node.carried_count)
        port_map = ElementList('port_map')
        if body.inputs[0] is not None:
            port_map.items.append(('input', _port(-1, ids[body.inputs[0].id], ('purpose', 'current_iteration'))))
        for k in range(1 + carried):
            port_map.items.append(('input', _port(2 + k, ids[body.parameter(INPUT_INDEX, 1 + k).id])))
        for k in range(len(body.outer)):
            port_map.items.append(('input', _port(ONNXLoop.FIRST_VALUE + carried + k,
                                                  ids[body.parameter(OUTER_INDEX, k).id])))
        for k, port in sorted(output_ports.items()):
            extra = [('axis', '0')] if k >= carried else []
            port_map.items.append(('output', _port(port, ids[body.results[1 + k].id], *extra)))
        port_map.items.append(('output', _port(-1, ids[body.results[0].id], ('purpose', 'execution_condition'))))
        edges = [('edge', [('from-layer', str(ids[body.results[k].id])),
                           ('to-layer', str(ids[body.parameter(INPUT_INDEX, 1 + k).id]))])
                 for k in range(1 + carried)]
        return [port_map, ElementList('back_edges', edges)]


class ONNXScan(Op):
    """ONNX Scan (opset 9+) -> TensorIterator (opset1). Inputs: the N initial states, the M scan inputs (sliced
    one step of ``scan_input_axes[j]`` per iteration, in ``scan_input_directions[j]``), then the enclosing
    tensors the body reads. Outputs: the N final states, then the K scan outputs (stacked on
    ``scan_output_axes[j]`` in ``scan_output_directions[j]``)."""
    op = 'ONNXScan'

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'TensorIterator', 'op': 'ONNXScan', 'version': 'opset1',
                                 'infer': self.infer, 'type_infer': lambda node: None,
                                 'ir_sections': self.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def infer(node):
        proto, states, scans = node.body_proto, int(node.state_count), int(node.scan_input_count)
        specs = [input_spec(node, k) for k in range(states)]
        lengths, axes = [], []
        for j in range(scans):
            spec = input_spec(node, states + j)
            axis = int(node.scan_input_axes[j]) if j < len(node.scan_input_axes) else 0
            axis = axis + len(spec.shape) if axis < 0 else axis
            if not 0 <= axis < len(spec.shape):
                raise Error('Scan "{}": scan_input_axes[{}] = {} is out of range for an input of rank {}',
                            _name(node), j, node.scan_input_axes[j], len(spec.shape))
            lengths.append(spec.shape[axis])
            axes.append(axis)
            spec.shape[axis] = 1
            specs.append(spec)
        node['input_axes'] = axes
        outer = _outer_specs(node, states + scans)
        outputs = len(proto.output) - states
        if outputs < 0:
            raise Error('Scan "{}": its body has {} outputs for {} states', _name(node), len(proto.output), states)
        rank_of = {}

        def output_axis(k):
            axis = int(node.scan_output_axes[k - states]) if k - states < len(node.scan_output_axes) else 0
            return axis + rank_of[k] + 1 if axis < 0 else axis

        def prepare(graph):
            ONNXScan._squeeze_inputs(graph, states, axes)
            wrap_outputs(graph, states, _unsqueezed(output_axis))

        # the output ranks (for negative axes) are known once converted; convert with axes >= 0 first
        where = 'The body of Scan "{}"'.format(_name(node))
        if any(int(a) < 0 for a in node.scan_output_axes):
            probe = convert_body(node, proto, specs, outer, where, lambda g: ONNXScan._squeeze_inputs(g, states, axes),
                                 variant=('scan-probe', tuple(axes)))
            rank_of.update({states + j: len(probe.result_shape(states + j)) for j in range(outputs)})
        # a state the body makes less definite (sizes its inference cannot tell, e.g. from axes or shapes the
        # body reads from the enclosing graph) is loosened to what the body makes of it, as Loop's are
        for _ in range(MAX_SHAPE_ROUNDS):
            body = convert_body(node, proto, specs, outer, where, prepare,
                                variant=('scan', tuple(axes), tuple(int(a) for a in node.scan_output_axes)))
            loosened = False
            for k in range(states):
                merged = merge_shapes(specs[k].shape, body.result_shape(k))
                if merged is None:
                    raise Error('Scan "{}": state {} changes rank from {} to {} in the body; OpenVINO\'s '
                                'TensorIterator needs a fixed rank', _name(node), k, specs[k].shape,
                                body.result_shape(k))
                loosened |= merged != specs[k].shape
                specs[k] = BodyInput(specs[k].dtype, merged)
            if not loosened:
                break
        else:
            raise Error('Scan "{}": the shapes of its states did not settle', _name(node))
        node['output_axes'] = [output_axis(states + j) for j in range(outputs)]
        body.complete(range(states + scans))
        node['bodies'] = {'body': body.graph}
        node['onnx_bodies'] = {'body': body}
        length = lengths[0] if lengths and all(n == lengths[0] for n in lengths) else -1
        for k in range(states):
            _set_output(node, k, specs[k].shape, body.result_dtype(k) or specs[k].dtype)
        for j in range(outputs):
            shape = body.result_shape(states + j)
            shape[node.output_axes[j]] = length
            _set_output(node, states + j, shape, body.result_dtype(states + j))

    @staticmethod
    def _squeeze_inputs(graph, states: int, axes: list):
        """Each scan input's Parameter (one slice, the axis kept) is read through a Squeeze of that axis."""
        tensors = graph.graph[TENSORS]
        for node in list(graph.get_op_nodes(op='Parameter')):
            k = node.soft_get(INPUT_INDEX, None)
            if k is None or k < states:
                continue
            squeeze = create_op_with_const_inputs(graph, Squeeze, {1: int64_array([axes[k - states]])},
                                                  {'name': graph.unique_id(node.name + '/step')})
            for _, dst, key, attrs in list(graph.out_edges(node.id, keys=True, data=True)):
                graph.remove_edge(node.id, dst, key)
                graph.add_edge(squeeze.id, dst, **dict(attrs, out=0))
            node.out_port(0).connect(squeeze.in_port(0))
            for name, (node_id, port) in list(tensors.items()):
                if node_id == node.id:
                    tensors[name] = (squeeze.id, 0)

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        ids, body = layer_ids['body'], node.onnx_bodies['body']
        states, scans = int(node.state_count), int(node.scan_input_count)
        directions_in = list(node.scan_input_directions) + [0] * scans
        directions_out = list(node.scan_output_directions) + [0] * len(node.output_axes)
        port_map = ElementList('port_map')
        for k in range(states + scans):
            param = body.parameter(INPUT_INDEX, k)
            extra = _slicing(node.input_axes[k - states], bool(directions_in[k - states])) if k >= states else []
            port_map.items.append(('input', _port(k, ids[param.id], *extra)))
        for k in range(len(body.outer)):
            port_map.items.append(('input', _port(states + scans + k, ids[body.parameter(OUTER_INDEX, k).id])))
        for k, port in sorted(output_ports.items()):
            extra = _slicing(node.output_axes[k - states], bool(directions_out[k - states])) if k >= states else []
            port_map.items.append(('output', _port(port, ids[body.results[k].id], *extra)))
        edges = [('edge', [('from-layer', str(ids[body.results[k].id])),
                           ('to-layer', str(ids[body.parameter(INPUT_INDEX, k).id]))]) for k in range(states)]
        return [port_map, ElementList('back_edges', edges)]
