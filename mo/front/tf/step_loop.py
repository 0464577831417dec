"""``StepLoop``: a Loop (opset5) that runs one TensorFlow cell per time step.

It is how TF's whole-sequence RNN ops (BlockLSTM) become opset ops: OpenVINO's Loop slices its sequence input
along axis 0, one step per iteration, carries the cell's states from one iteration to the next and concatenates
the cell's outputs over the iterations. The body is a one-node TensorFlow graph, the cell op itself, converted by
the whole pipeline like a ``While`` body (``mo.front.tf.function_graph``), so the cell's own lowering makes it
opset ops.
"""
import numpy as np

from mo.back.ir.xml_builder import ElementList
from mo.front.tf.attrs import encode_attr
from mo.front.tf.dtypes import tf_dtype_from_numpy
from mo.front.tf.function_graph import BodyGraphDef, convert_body
from mo.front.tf.proto import NodeDef
from mo.ops.body_io import BodyInput, body_parameters, body_results
from mo.ops.op import Op
from mo.utils.error import Error

#: StepLoop's inputs: trip count, execution condition, then the body's inputs (the sequence first)
FIRST_BODY_INPUT = 2


def _node_def(name: str, op: str, inputs=(), **attrs) -> NodeDef:
    """A NodeDef; ``attrs`` values are numpy dtypes (type), bools, floats, ints or int lists."""
    pb = NodeDef()
    pb.name, pb.op = name, op
    pb.input.extend(inputs)
    for key, value in attrs.items():
        pb.attr[key].CopyFrom(encode_attr(value))
    return pb


def _scalar_const(name: str, value, dtype) -> NodeDef:
    dtype = np.dtype(dtype)
    pb = _node_def(name, 'Const', dtype=dtype)
    tensor = pb.attr['value'].tensor
    tensor.dtype = tf_dtype_from_numpy(dtype)
    tensor.tensor_shape.SetInParent()
    tensor.tensor_content = np.asarray(value, dtype=dtype).tobytes()
    return pb


class StepLoop(Op):
    """Loop over the steps of a sequence, one TF cell per step.

    Inputs: trip count (int64 scalar), execution condition (bool), the sequence ``[time, ...]`` (sliced: the body
    sees ``[1, ...]``), ``state_count`` states (carried), then invariant parameters. ``cell`` describes the body:
    ``op`` (the TF op), ``dtype`` (its ``T``), ``attrs``, ``inputs`` (for each cell input: ``'slice'``,
    ``'state<k>'``, ``'param<k>'`` or None for an input the cell does not read with these attributes),
    ``states`` (the cell outputs that are the next states) and ``outputs`` (how many cell outputs there are).
    Output k is cell output k of every iteration, concatenated along axis 0.
    """
    op = 'StepLoop'

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'Loop', 'op': 'StepLoop', 'version': 'opset5', 'infer': StepLoop.infer,
                                 'type_infer': StepLoop.type_infer, 'ir_sections': StepLoop.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def _body(node, specs) -> BodyGraphDef:
        cell, states = node.cell, int(node.state_count)
        body = BodyGraphDef({}, specs)
        dtype = np.dtype(cell['dtype'])
        body.add_node(_node_def('step', 'Squeeze', ['body_input_0'], T=dtype, squeeze_dims=[0]))
        body.add_node(_scalar_const('unused', 0, dtype))
        names = {'slice': 'step'}
        names.update({'state{}'.format(k): 'body_input_{}'.format(1 + k) for k in range(states)})
        names.update({'param{}'.format(k): 'body_input_{}'.format(1 + states + k)
                      for k in range(len(specs) - 1 - states)})
        cell_inputs = [names[role] if role is not None else 'unused' for role in cell['inputs']]
        body.add_node(_node_def('cell', cell['op'], cell_inputs, T=dtype, **cell['attrs']))
        body.add_node(_scalar_const('go_on', True, np.bool_))
        body.add_node(_scalar_const('time_axis', 0, np.int32))
        for k in range(cell['outputs']):
            body.add_node(_node_def('step_output_{}'.format(k), 'ExpandDims', ['cell:{}'.format(k), 'time_axis'],
                                    T=dtype, Tdim=np.dtype(np.int32)))
        body.set_outputs(['go_on'] + ['step_output_{}'.format(k) for k in range(cell['outputs'])] +
                         ['cell:{}'.format(k) for k in cell['states']])
        return body

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        specs = []
        for port in range(FIRST_BODY_INPUT, len(node.in_ports())):
            data = node.in_port(port).data
            shape, dtype = data.get_shape(), data.get_data_type()
            if shape is None or dtype is None:
                return
            shape = [int(d) for d in shape]
            if port == FIRST_BODY_INPUT:
                if not shape:
                    raise Error('StepLoop "{}": the sequence has no time axis', name)
                shape = [1] + shape[1:]
            specs.append(BodyInput(dtype, shape))
        graph = convert_body(StepLoop._body(node, specs), 'The step of "{}"'.format(name))
        params, results = body_parameters(graph), body_results(graph)
        node['bodies'] = {'body': graph}
        node['body_parameters'] = {k: p.id for k, p in params.items()}
        node['body_results'] = {k: r.id for k, r in results.items()}
        trips = node.in_port(0).data.get_value()
        length = int(np.ravel(trips)[0]) if trips is not None else -1
        for k in range(node.cell['outputs']):
            if node.out_port(k).disconnected():
                continue
            step_shape = results[1 + k].in_port(0).data.get_shape()
            node.out_port(k).data.set_shape([length] + [int(d) for d in step_shape[1:]])
            node.out_port(k).data.set_data_type(results[1 + k].in_port(0).data.get_data_type())

    @staticmethod
    def type_infer(node):
        pass  # infer sets the output types from the converted body

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        ids = layer_ids['body']
        params, results = node.body_parameters, node.body_results
        port_map = ElementList('port_map')
        for k, param in sorted(params.items()):
            attrs = [('external_port_id', str(FIRST_BODY_INPUT + k)), ('internal_layer_id', str(ids[param]))]
            if k == 0:  # the sequence: one step of axis 0 per iteration
                attrs += [('axis', '0'), ('start', '0'), ('end', '-1'), ('stride', '1'), ('part_size', '1')]
            port_map.items.append(('input', attrs))
        for k, port in sorted(output_ports.items()):
            port_map.items.append(('output', [('external_port_id', str(port)),
                                              ('internal_layer_id', str(ids[results[1 + k]])), ('axis', '0')]))
        port_map.items.append(('output', [('external_port_id', '-1'), ('internal_layer_id', str(ids[results[0]])),
                                          ('purpose', 'execution_condition')]))
        outputs = int(node.cell['outputs'])
        edges = [('edge', [('from-layer', str(ids[results[1 + outputs + s]])), ('to-layer', str(ids[params[1 + s]]))])
                 for s in range(int(node.state_count)) if 1 + s in params]
        return [port_map, ElementList('back_edges', edges)]
