"""OpenVINO's TensorIterator (opset1) for bodies a reader builds: MXNet's ``_foreach``.

Inputs: first the ``sliced`` ones, read one step of axis 0 per iteration (the body sees a slice of size 1 there),
then the ``states`` (fed back from the body's last outputs), then inputs the body only reads. The body's outputs:
first ``stacked`` per-step values (of size 1 on axis 0, concatenated along it), then the states' new values. The
op's outputs are the body's: the stacked values, then the final states. ``build_body(node, specs)`` (given by
the reader) converts the body for inputs of ``specs`` (``mo.ops.body_io``: Parameters ``body_input_k``, Results
``body_output_k``).
"""
import numpy as np

from mo.back.ir.xml_builder import ElementList
from mo.ops.body_io import BodyInput, add_unread_parameter, body_parameters, body_results, result_dtype, result_shape
from mo.ops.op import Op
from mo.utils.error import Error

_SLICING = [('axis', '0'), ('start', '0'), ('end', '-1'), ('stride', '1'), ('part_size', '1')]


def _port(external, internal, extra=()) -> list:
    return [('external_port_id', str(external)), ('internal_layer_id', str(internal))] + list(extra)


class TensorIterator(Op):
    """TensorIterator: ``sliced`` inputs stepped along axis 0, ``states`` fed back, ``stacked`` outputs (see the
    module docstring); the body is converted when the op is inferred."""
    op = type = 'TensorIterator'

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'TensorIterator', 'op': 'TensorIterator', 'version': 'opset1',
                                 'infer': self.infer, 'type_infer': lambda node: None,
                                 'ir_sections': self.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        count = node.in_ports_count
        specs, length = [], None
        for k in range(count):
            data = node.in_port(k).data
            shape, dtype = data.get_shape(), data.get_data_type() or np.dtype(np.float32)
            if shape is None:
                raise Error('TensorIterator "{}": the shape of input {} is unknown', name, k)
            shape = [int(d) for d in shape]
            if k < node.sliced:
                if not shape:
                    raise Error('TensorIterator "{}": input {} is a scalar; it has no axis 0 to iterate', name, k)
                if length is not None and shape[0] != length:
                    raise Error('TensorIterator "{}": its sliced inputs have {} and {} steps', name, length, shape[0])
                length, shape = shape[0], [1] + shape[1:]
            specs.append(BodyInput(dtype, shape))
        graph = node.build_body(node, specs)
        params, results = body_parameters(graph), body_results(graph)
        for k in range(count):
            if k not in params:
                params[k] = add_unread_parameter(graph, k, specs[k])
        node['bodies'] = {'body': graph}
        node['body_parameters'] = {k: p.id for k, p in params.items()}
        node['body_results'] = {k: r.id for k, r in results.items()}
        for k in range(node.stacked + node.states):
            if node.out_port(k).disconnected():
                continue
            shape = [int(d) for d in result_shape(results[k])]
            if k < node.stacked:
                shape = [length if length is not None else -1] + shape[1:]
            node.out_port(k).data.set_shape(np.array(shape, np.int64))
            node.out_port(k).data.set_data_type(result_dtype(results[k]) or np.dtype(np.float32))

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        ids = layer_ids['body']
        port_map = ElementList('port_map')
        for k, param in sorted(node.body_parameters.items()):
            port_map.items.append(('input', _port(k, ids[param], _SLICING if k < node.sliced else ())))
        for k, port in sorted(output_ports.items()):
            port_map.items.append(('output', _port(port, ids[node.body_results[k]],
                                                   _SLICING if k < node.stacked else ())))
        first_state = node.sliced
        edges = [('edge', [('from-layer', str(ids[node.body_results[node.stacked + j]])),
                           ('to-layer', str(ids[node.body_parameters[first_state + j]]))])
                 for j in range(node.states)]
        return [port_map, ElementList('back_edges', edges)]
