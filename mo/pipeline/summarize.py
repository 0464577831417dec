"""``mo summarize``: what a GraphDef holds, to find its inputs and outputs (TF's summarize_graph).

It prints the likely inputs (Placeholders, with type and shape), variables, likely outputs
(nodes nothing consumes), the parameter counts, control edges, the op types used, and the
arguments a benchmark run would need; ``--print_structure`` also lists every node.
"""
import math
from collections import Counter

import numpy as np

from mo.front.tf import dtypes
from mo.front.tf.attrs import decode_shape
from mo.front.tf.node_def import parse_input
from mo.utils.error import Error
from mo.front.tf.model_source import add_source_arguments
from mo.front.tf.tensor import tensor_to_numpy

HELP = "summarize a GraphDef: likely inputs and outputs, parameters, op types (TF's summarize_graph)"

#: ops that are never a model's output even when nothing reads them
NOT_OUTPUTS = frozenset({'Const', 'NoOp', 'Assert', 'Placeholder', 'PlaceholderWithDefault', 'Assign',
                         'AssignAdd', 'AssignSub', 'AssignVariableOp', 'VarHandleOp', 'Variable', 'VariableV2',
                         'SaveV2', 'RestoreV2', 'Save', 'Restore', 'SaveSlices', 'MergeV2Checkpoints'})
VARIABLE_OPS = frozenset({'Variable', 'VariableV2', 'VarHandleOp', 'TemporaryVariable'})
PLACEHOLDER_OPS = frozenset({'Placeholder', 'PlaceholderV2'})


def add_arguments(parser):
    parser.add_argument('--in_graph', required=True, help='the GraphDef to summarize (.pb binary or .pbtxt text), or a '
                                                          'SavedModel directory, a .meta file, ...')
    parser.add_argument('--print_structure', action='store_true', help='also print every node with its op and inputs')
    add_source_arguments(parser)  # a SavedModel or checkpoint is summarized frozen


def _elements(shape) -> int:
    """Elements of a tensor shape (a tuple; unknown dims and ranks count as 0)."""
    if shape is None or any(d < 0 for d in shape):
        return 0
    return math.prod(shape)


def _shape_text(node) -> str:
    """A Placeholder's ``shape`` attribute as TF's PartialTensorShape prints it (``None`` when absent)."""
    if 'shape' not in node.attr or not node.attr['shape'].HasField('shape'):
        return 'None'
    shape = decode_shape(node.attr['shape'].shape)
    if shape is None:
        return '<unknown>'
    return '[' + ','.join('?' if d < 0 else str(d) for d in shape) + ']'


def human_readable_num(value: int) -> str:
    """TF's strings::HumanReadableNum: 1234 -> "1.23k", 3504872 -> "3.50M" (sizes truncated to thousands
    before the two decimals, as TF does)."""
    sign = '-' if value < 0 else ''
    value = abs(int(value))
    if value < 1000:
        return sign + str(value)
    if value >= 10 ** 15:
        return sign + '%0.3G' % float(value)
    units = 'kMBT'
    unit = 0
    while value >= 1000000:
        value //= 1000
        unit += 1
    return sign + '%.2f%s' % (value / 1000.0, units[unit])


def _node_info(node) -> str:
    dtype = node.attr['dtype'].type if 'dtype' in node.attr else dtypes.DT_INVALID
    shape = _shape_text(node) if node.op != 'Const' else _tensor_shape_text(node.attr['value'].tensor.tensor_shape)
    return '(name={}, type={}({}), shape={}) '.format(node.name, dtypes.tf_type_string(dtype), dtype, shape)


def _tensor_shape_text(tensor_shape) -> str:
    """A Const's shape in the form of ``_shape_text`` (a variable frozen into a Const has no shape attribute)."""
    return '[' + ','.join(str(d.size) for d in tensor_shape.dim) + ']'


def _source_name(text: str) -> str:
    return parse_input(text, '')[0]


def summarize(graph_def, frozen_variables=()) -> dict:
    """The facts ``mo summarize`` prints, computed from a GraphDef the way summarize_graph does.

    ``frozen_variables`` names the Consts that were variables of a SavedModel or checkpoint: they are
    reported, and their elements counted, as variables."""
    frozen_variables = set(frozen_variables)
    consumed, control_edges = set(), 0
    devices = Counter()
    for node in graph_def.node:
        for text in node.input:
            consumed.add(_source_name(text))  # control inputs count: a node read that way is no output
            control_edges += text.startswith('^')
        if node.device:
            devices[node.device] += 1
    placeholders = [n for n in graph_def.node if n.op == 'Placeholder']
    variables = [n for n in graph_def.node if n.op in ('Variable', 'VariableV2') or n.name in frozen_variables]
    outputs = [n for n in graph_def.node if n.name not in consumed and n.op not in SUMMARIZE_NOT_OUTPUTS]
    const_params = variable_params = 0
    for node in graph_def.node:
        if node.op in ('Const', 'Variable', 'VariableV2') and 'value' in node.attr:
            tensor_shape = node.attr['value'].tensor.tensor_shape
            count = _elements(None if tensor_shape.unknown_rank else tuple(d.size for d in tensor_shape.dim))
            if node.op == 'Const' and node.name not in frozen_variables:
                const_params += count
            else:
                variable_params += count
    ops = Counter(node.op for node in graph_def.node)
    for function in graph_def.library.function:
        ops.update(node.op for node in function.node_def)
    # TF sorts its alphabetical op map by count only; for the small maps graphs have, its std::sort
    # keeps the alphabetical order among equal counts, which a stable sort gives always
    op_counts = sorted(sorted(ops.items()), key=lambda item: -item[1])
    names = {n.name for n in graph_def.node}
    invalid = [(n.name, text) for n in graph_def.node for text in n.input if _source_name(text) not in names]
    return {'inputs': placeholders, 'variables': variables, 'outputs': outputs, 'const_parameters': const_params,
            'variable_parameters': variable_params, 'control_edges': control_edges, 'op_counts': op_counts,
            'devices': sorted(devices.items()), 'invalid_inputs': invalid}


#: what summarize_graph never takes for an output
SUMMARIZE_NOT_OUTPUTS = frozenset({'Const', 'Assign', 'NoOp', 'Placeholder'})


def _benchmark_usage(inputs, outputs, path: str) -> list:
    types, shapes = [], []
    for node in inputs:
        types.append(dtypes.tf_type_string(node.attr['dtype'].type if 'dtype' in node.attr else dtypes.DT_INVALID))
        shape = decode_shape(node.attr['shape'].shape) if 'shape' in node.attr else None
        shapes.append('' if shape is None else ','.join(str(int(d)) for d in shape))
    return ['To use with tensorflow/tools/benchmark:benchmark_model try these arguments:',
            'bazel run tensorflow/tools/benchmark:benchmark_model -- --graph={} --show_flops --input_layer={} '
            '--input_layer_type={} --input_layer_shape={} --output_layer={}'.format(
                path, ','.join(n.name for n in inputs), ','.join(types), ':'.join(shapes),
                ','.join(n.name for n in outputs))]


class GraphSummary(str):
    """summarize_graph's text (the ``str`` itself, printed as it is) with the facts behind it: ``inputs``,
    ``variables`` and ``outputs`` (node names), ``const_parameters``, ``variable_parameters``,
    ``control_edges`` and ``op_counts`` (``[(op, count)]``, most used first)."""

    def __new__(cls, text: str, facts: dict):
        summary = super().__new__(cls, text)
        summary.inputs = [n.name for n in facts['inputs']]
        summary.variables = [n.name for n in facts['variables']]
        summary.outputs = [n.name for n in facts['outputs']]
        for key in ('const_parameters', 'variable_parameters', 'control_edges', 'op_counts'):
            setattr(summary, key, facts[key])
        return summary


def format_summary(graph_def, path: str, print_structure: bool = False, frozen_variables=None) -> GraphSummary:
    """The text summarize_graph prints for ``graph_def`` read from ``path``, line for line (its device
    counts included, which it prints without line breaks). ``frozen_variables`` (a list, possibly empty)
    says the graph was frozen from the SavedModel or checkpoint at ``path``: it names the Consts that were
    variables, and the benchmark suggestion freezes the model first (benchmark_model reads GraphDefs only)."""
    info = summarize(graph_def, frozen_variables or ())
    lines = []
    inputs, variables, outputs = info['inputs'], info['variables'], info['outputs']
    lines.append('Found {} possible inputs: {}'.format(len(inputs), ''.join(_node_info(n) for n in inputs))
                 if inputs else 'No inputs spotted.')
    lines.append('Found {} variables: {}'.format(len(variables), ''.join(_node_info(n) for n in variables))
                 if variables else 'No variables spotted.')
    lines.append('Found {} possible outputs: {}'.format(len(outputs), ''.join(
        '(name={}, op={}) '.format(n.name, n.op) for n in outputs)) if outputs else 'No outputs spotted.')
    lines.append('Found {} ({}) const parameters, {} ({}) variable parameters, and {} control_edges'.format(
        info['const_parameters'], human_readable_num(info['const_parameters']), info['variable_parameters'],
        human_readable_num(info['variable_parameters']), info['control_edges']))
    devices = ''.join("{} nodes assigned to device '{}'".format(count, device) for device, count in info['devices'])
    if info['invalid_inputs']:
        node, text = info['invalid_inputs'][0]
        raise Error('Invalid graph: input "{}" of node "{}" refers to a node that does not exist', text, node)
    lines.append(devices + 'Op types used: ' + ', '.join('{} {}'.format(count, op) for op, count in info['op_counts']))
    if frozen_variables is None:
        lines += _benchmark_usage(inputs + variables, outputs, path)
    else:
        # the variables are constants of the frozen graph: benchmark_model feeds the inputs only
        frozen_path = 'frozen_graph.pb'
        lines.append('To freeze it into the GraphDef benchmark_model reads (the signature\'s inputs and outputs are '
                     'the defaults):')
        lines.append("mo transform --in_graph={} --out_graph={} --transforms='strip_unused_nodes'".format(
            path, frozen_path))
        lines += _benchmark_usage(inputs, outputs, frozen_path)
    if print_structure:
        for node in execution_order(graph_def):
            line = '{} ({}): [{}]'.format(node.name, node.op, ', '.join(node.input))
            if node.op == 'Const' and 'value' in node.attr:
                line += ', value=' + tensor_debug_string(node.attr['value'].tensor)
            lines.append(line)
    return GraphSummary('\n'.join(lines), info)


def summarize_model(path: str, args) -> GraphSummary:
    """The summary of the model at ``path`` (any form ``mo summarize --in_graph`` takes; ``args`` holds
    ``print_structure`` and the SavedModel/checkpoint options)."""
    from mo.pipeline.tool_model import ToolModel
    model = ToolModel(path, args)
    graph_def = model.graph_def()
    try:
        return format_summary(graph_def, path, args.print_structure, model.variables if model.frozen else None)
    except (ValueError, KeyError) as exc:
        raise Error('Cannot summarize "{}": {}', path, exc) from exc


def execution_order(graph_def) -> list:
    """The NodeDefs with each after its inputs (data and control), ties in file order."""
    import heapq
    nodes = list(graph_def.node)
    index = {n.name: i for i, n in enumerate(nodes)}
    consumers = [[] for _ in nodes]
    waiting = [0] * len(nodes)
    for i, node in enumerate(nodes):
        sources = {index[s] for s in (_source_name(t) for t in node.input) if s in index}
        waiting[i] = len(sources)
        for source in sources:
            consumers[source].append(i)
    ready = [i for i, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(nodes[i])
        for consumer in consumers[i]:
            waiting[consumer] -= 1
            if waiting[consumer] == 0:
                heapq.heappush(ready, consumer)
    if len(order) != len(nodes):
        raise Error('Cannot print the structure: the graph has a cycle (through "{}")',
                    next(n.name for i, n in enumerate(nodes) if waiting[i] > 0))
    return order


def _element_text(value, dtype) -> str:
    """One element as TF's Tensor::DebugString prints it: shortest float text that reads back (6
    significant digits when they do, else 9; doubles 15 or 17), bools as 1/0... as C++ streams them."""
    if dtype.kind == 'f':
        digits = (6, 9) if dtype.itemsize <= 4 else (15, 17)
        text = '%.*g' % (digits[0], value)
        return text if dtype.type(float(text)) == value or np.isnan(value) else '%.*g' % (digits[1], value)
    if dtype.kind == 'b':
        return '1' if value else '0'
    if dtype.kind == 'O':
        raw = value if isinstance(value, bytes) else str(value).encode()
        return raw.decode('latin-1').encode('unicode_escape').decode('ascii')
    return str(int(value))


def _one_dim(values, shape, dim, limit, state, out):
    """TF's PrintOneDim: nested brackets around the first ``limit`` elements."""
    if state[0] >= limit:
        return
    if dim == len(shape) - 1:
        for i in range(shape[dim]):
            if state[0] >= limit:
                if dim != 0:
                    out.append('...')
                return
            if i > 0:
                out.append(' ')
            out.append(values[state[0]])
            state[0] += 1
        return
    for _ in range(shape[dim]):
        opened = state[0] < limit
        if opened:
            out.append('[')
        _one_dim(values, shape, dim + 1, limit, state, out)
        if state[0] < limit or opened:
            out.append(']')


def tensor_debug_string(tensor_proto, max_entries: int = 3) -> str:
    """``Tensor<type: float shape: [2,3] values: [1 2 3]...>``, as TF's Tensor::DebugString."""
    type_name = dtypes.tf_type_string(tensor_proto.dtype)
    shape = [] if tensor_proto.tensor_shape.unknown_rank else [int(d.size) for d in tensor_proto.tensor_shape.dim]
    head = 'Tensor<type: {} shape: [{}] values: '.format(type_name, ','.join(str(d) for d in shape))
    try:
        value = np.asarray(tensor_to_numpy(tensor_proto))
    except Exception:  # noqa: B902 - a tensor numpy cannot hold is summarized without values
        return head + '>'
    flat = value.reshape(-1)
    limit = min(max_entries, flat.size)
    dtype = np.dtype(np.float32) if tensor_proto.dtype in (dtypes.DT_HALF, dtypes.DT_BFLOAT16) else flat.dtype
    if tensor_proto.dtype == dtypes.DT_BFLOAT16:  # stored as its bit pattern
        flat = (flat.astype(np.uint32) << 16).view(np.float32)
    texts = [_element_text(dtype.type(flat[i]) if dtype.kind == 'f' else flat[i], dtype) for i in range(limit)]
    out = []
    if not shape:
        out.append(' '.join(texts))
    else:
        _one_dim(texts, shape, 0, limit, [0], out)
    if flat.size > limit:
        out.append('...')
    return head + ''.join(out) + '>'


def run(args) -> int:
    print(summarize_model(args.in_graph, args))
    return 0
