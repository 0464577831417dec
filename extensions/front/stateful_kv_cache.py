"""``--stateful``: a decoder's past/present key-value pairs become OpenVINO state, as OpenVINO's LLM exports have it.

Each pair of a graph input ``past_key_values.N.key`` (or ``.value``) and a graph output ``present.N.key`` becomes one
variable: the input is replaced by ``Gather(ReadValue(zeros [batch, ..., 0 on the sequence axis, ...]), beam_idx,
axis 0)`` and the output by an ``Assign`` of the same variable. The model gains the input ``beam_idx`` (i32 [batch]:
which cache row each new row continues, the identity when there is no beam search); the other inputs and ``logits``
stay. OpenVINO GenAI's runtime drives such a model: one infer request keeps the cache, ``reset_state()`` empties it.
"""
import re

import numpy as np

from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.const import Const
from mo.ops.gather import Gather
from mo.ops.parameter import Parameter
from mo.ops.shapeof import ShapeOf
from mo.ops.state import Assign, ReadValue
from mo.utils.error import Error

#: a cache input and a cache output: optimum's and onnxruntime GenAI's names (``past_key_values.0.key``,
#: ``present.0.value``) and their variants; the layer number and key/value pair them
PAST_NAME = re.compile(r'^(?:past_key_values|past_key_value|past)[._](\d+)[._](key|value)$')
PRESENT_NAME = re.compile(r'^(?:present_key_values|present_key_value|present)[._](\d+)[._](key|value)$')
#: the input whose first dimension is the batch of a fresh cache
BATCH_INPUTS = ('input_ids', 'inputs_embeds')
BEAM_IDX = 'beam_idx'


def _stateful(graph: Graph) -> bool:
    return bool((graph.graph.get('cmd_params') or {}).get('stateful'))


def _input_name(node: Node) -> str:
    names = node.out_port(0).get_tensor_names()
    return names[0] if names else node.soft_get('name', node.id)


def _output_names(result: Node) -> list:
    source = result.in_port(0).get_source()
    return source.get_tensor_names() if source is not None else []


def _cache_pairs(graph: Graph):
    """``[(layer, kind, past Parameter, present Result)]`` by layer and kind; an Error when no pair is found or a
    past or present has no partner."""
    inputs = {_input_name(n): n for n in graph.get_op_nodes(op='Parameter')}
    outputs = {name: n for n in graph.get_op_nodes(op='Result') for name in _output_names(n)}
    past = {(int(m.group(1)), m.group(2)): (name, node) for name, node in inputs.items()
            for m in [PAST_NAME.match(name)] if m}
    present = {(int(m.group(1)), m.group(2)): (name, node) for name, node in outputs.items()
               for m in [PRESENT_NAME.match(name)] if m}
    if not past and not present:
        raise Error('--stateful: the model has no key-value cache: no input is named past_key_values.N.key/value and '
                    'no output present.N.key/value (inputs: {}; outputs: {})', ', '.join(sorted(inputs)) or 'none',
                    ', '.join(sorted(outputs)) or 'none')
    unpaired = ['input "{}" has no output {}'.format(past[k][0], 'present.{}.{}'.format(*k))
                for k in sorted(set(past) - set(present))]
    unpaired += ['output "{}" has no input {}'.format(present[k][0], 'past_key_values.{}.{}'.format(*k))
                 for k in sorted(set(present) - set(past))]
    if unpaired:
        raise Error('--stateful: the key-value cache does not pair up: {}', '; '.join(unpaired))
    return [(key, past[key], present[key]) for key in sorted(past)]


def _sequence_axis(name: str, shape) -> int:
    """The cache's sequence axis: the one dynamic dimension after the batch (``[batch, heads, past, head]``)."""
    if shape is None:
        raise Error('--stateful: input "{}" has no declared rank; a cache input is [batch, heads, past, head_size]',
                    name)
    dynamic = [axis for axis in range(1, len(shape)) if int(shape[axis]) < 0]
    if len(dynamic) != 1:
        raise Error('--stateful: input "{}" of shape {} should have exactly one dynamic dimension after the batch (the '
                    'past sequence), the others static (--input "{}[-1,HEADS,-1,HEAD_SIZE]" says so)', name,
                    [int(d) if d >= 0 else '?' for d in shape], name)
    return dynamic[0]


class StatefulKVCache(FrontReplacementPattern):
    """past_key_values.N.* inputs and present.N.* outputs -> ReadValue/Gather(beam_idx) and Assign of one variable."""
    enabled = True
    run_not_recursively = True
    graph_condition = [_stateful]

    def find_and_replace_pattern(self, graph: Graph):
        pairs = _cache_pairs(graph)
        batch_input = next((n for n in graph.get_op_nodes(op='Parameter') if _input_name(n) in BATCH_INPUTS), None)
        if batch_input is None:
            raise Error('--stateful: the model has no input named {}, whose first dimension is the batch of the '
                        'key-value cache', ' or '.join(BATCH_INPUTS))
        if any(_input_name(n) == BEAM_IDX for n in graph.get_op_nodes(op='Parameter')):
            raise Error('--stateful: the model has an input "{}" already; --stateful adds it', BEAM_IDX)
        beam_idx = Parameter(graph, {'name': BEAM_IDX, 'shape': np.array([-1], np.int64),
                                     'data_type': np.dtype(np.int32)}).create_node()
        beam_idx.out_port(0).add_tensor_names([BEAM_IDX])
        shape = ShapeOf(graph, {'name': 'stateful/batch_input_shape'}).create_node([batch_input])
        batch = Gather(graph, {'name': 'stateful/batch'}).create_node([
            shape, self._const(graph, np.array([0], np.int64), 'stateful/batch_index'),
            self._const(graph, np.int64(0), 'stateful/batch_axis')])
        for _, (past_name, past), (present_name, result) in pairs:
            self._make_variable(graph, past_name, past, present_name, result, batch, beam_idx)
            self.match_count += 1

    @staticmethod
    def _const(graph: Graph, value, name: str) -> Node:
        return Const(graph, {'name': graph.unique_id(name), 'value': value}).create_node()

    def _make_variable(self, graph, past_name, past: Node, present_name, result: Node, batch: Node, beam_idx: Node):
        shape = past.soft_get('shape', None)
        axis = _sequence_axis(past_name, shape)
        dtype = np.dtype(past.soft_get('data_type', np.float32))
        # the fresh cache: zeros [batch, the static sizes, 0 on the sequence axis]
        sizes = np.array([0 if i == axis else int(d) for i, d in enumerate(shape)][1:], np.int64)
        target = Concat(graph, {'name': graph.unique_id(past_name + '/init_shape'), 'axis': 0, 'in_ports_count': 2}
                        ).create_node([batch, self._const(graph, sizes, past_name + '/init_sizes')])
        zeros = Broadcast(graph, {'name': graph.unique_id(past_name + '/init')}).create_node(
            [self._const(graph, np.zeros((), dtype), past_name + '/zero'), target])
        variable_id = past_name + present_name  # as OpenVINO's own exports name a cache variable
        variable_shape = [-1 if i in (0, axis) else int(d) for i, d in enumerate(shape)]
        read = ReadValue(graph, {'name': graph.unique_id(past_name + '/read'), 'variable_id': variable_id,
                                 'variable_shape': variable_shape, 'variable_type': dtype}).create_node([zeros])
        reordered = Gather(graph, {'name': graph.unique_id(past_name + '/reorder')}).create_node(
            [read, beam_idx, self._const(graph, np.int64(0), past_name + '/reorder_axis')])
        past.out_port(0).get_connection().set_source(reordered.out_port(0), 'source')
        source = result.in_port(0).get_source()
        assign = Assign(graph, {'name': graph.unique_id(present_name + '/assign'), 'variable_id': variable_id}
                        ).create_node()
        source.connect(assign.in_port(0))
        graph.remove_node(result.id)
        graph.remove_node(past.id)
