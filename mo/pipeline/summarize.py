"""``mo summarize``: what a GraphDef holds, to find its inputs and outputs (TF's summarize_graph).

It prints the likely inputs (Placeholders, with type and shape), variables, likely outputs
(nodes nothing consumes), the parameter counts, control edges, the op types used, and the
arguments a benchmark run would need; ``--print_structure`` also lists every node.
"""
import math
from collections import Counter

from mo.front.tf import dtypes
from mo.front.tf.attrs import decode_shape
from mo.front.tf.node_def import parse_input
from mo.utils.error import Error

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
    from mo.front.tf.model_source import add_source_arguments
    add_source_arguments(parser)  # a SavedModel or checkpoint is summarized frozen


def _elements(shape) -> int:
    """Elements of a tensor shape (a tuple; unknown dims and ranks count as 0)."""
    if shape is None or any(d < 0 for d in shape):
        return 0
    return math.prod(shape)


def _shape_text(shape) -> str:
    if shape is None:
        return 'unknown'
    return '[' + ','.join('?' if d < 0 else str(d) for d in shape) + ']'


def _short_count(n: int) -> str:
    for limit, suffix in ((1e9, 'B'), (1e6, 'M'), (1e3, 'k')):
        if n >= limit:
            return '{:.2f}{}'.format(n / limit, suffix)
    return str(n)


def _attr_shape(node, name):
    return decode_shape(node.attr[name].shape) if name in node.attr and node.attr[name].HasField('shape') else None


def summarize(graph_def) -> dict:
    """The numbers ``mo summarize`` prints, computed from a GraphDef."""
    consumed, control_edges = set(), 0
    for node in graph_def.node:
        for text in node.input:
            source, port = parse_input(text, node.name)
            consumed.add(source)
            control_edges += port is None
    inputs, variables, outputs = [], [], []
    const_params = variable_params = 0
    for node in graph_def.node:
        if node.op in PLACEHOLDER_OPS:
            dtype = node.attr['dtype'].type if 'dtype' in node.attr else 0
            inputs.append((node.name, dtype, _attr_shape(node, 'shape')))
        elif node.op in VARIABLE_OPS:
            shape = _attr_shape(node, 'shape')
            variables.append((node.name, shape))
            variable_params += _elements(shape)
        elif node.op == 'Const' and 'value' in node.attr:
            tensor_shape = node.attr['value'].tensor.tensor_shape
            const_params += _elements(None if tensor_shape.unknown_rank else tuple(d.size for d in tensor_shape.dim))
        if node.name not in consumed and node.op not in NOT_OUTPUTS:
            outputs.append((node.name, node.op))
    op_counts = sorted(Counter(node.op for node in graph_def.node).items(), key=lambda item: (-item[1], item[0]))
    return {'inputs': inputs, 'variables': variables, 'outputs': outputs, 'const_parameters': const_params,
            'variable_parameters': variable_params, 'control_edges': control_edges, 'op_counts': op_counts}


def format_summary(graph_def, path: str, print_structure: bool = False) -> str:
    """The text ``mo summarize`` prints for ``graph_def`` read from ``path``."""
    info = summarize(graph_def)
    lines = []
    if print_structure:
        for node in graph_def.node:
            lines.append('{} ({}): [{}]'.format(node.name, node.op, ', '.join(node.input)))
    inputs = info['inputs']
    if inputs:
        lines.append('Found {} possible inputs: {}'.format(len(inputs), ' '.join(
            '(name={}, type={}({}), shape={})'.format(name, dtypes.tf_dtype_name(dtype), dtype, _shape_text(shape))
            for name, dtype, shape in inputs)))
    else:
        lines.append('No inputs spotted.')
    variables = info['variables']
    if variables:
        lines.append('Found {} variables: {}'.format(len(variables), ' '.join(
            '(name={}, shape={})'.format(name, _shape_text(shape)) for name, shape in variables)))
    else:
        lines.append('No variables spotted.')
    outputs = info['outputs']
    if outputs:
        lines.append('Found {} possible outputs: {}'.format(len(outputs), ' '.join(
            '(name={}, op={})'.format(name, op) for name, op in outputs)))
    else:
        lines.append('No outputs spotted.')
    lines.append('Found {} ({}) const parameters, {} ({}) variable parameters, and {} control_edges'.format(
        info['const_parameters'], _short_count(info['const_parameters']), info['variable_parameters'],
        _short_count(info['variable_parameters']), info['control_edges']))
    lines.append('Op types used: ' + ', '.join('{} {}'.format(count, op) for op, count in info['op_counts']))
    lines.append('To use with tensorflow/tools/benchmark:benchmark_model try these arguments:')
    args = ['bazel run tensorflow/tools/benchmark:benchmark_model --', '--graph={}'.format(path), '--show_flops']
    if inputs:
        args.append('--input_layer=' + ','.join(name for name, _, _ in inputs))
        args.append('--input_layer_type=' + ','.join(dtypes.tf_dtype_name(dtype) for _, dtype, _ in inputs))
        args.append('--input_layer_shape=' + ':'.join(
            '' if shape is None else ','.join(str(d) for d in shape) for _, _, shape in inputs))
    args.append('--output_layer=' + ','.join(name for name, _ in outputs))
    lines.append(' '.join(args))
    return '\n'.join(lines)


def run(args) -> int:
    from mo.front.tf.model_source import read_frozen_graph_def
    graph_def = read_frozen_graph_def(args.in_graph, args)
    try:
        print(format_summary(graph_def, args.in_graph, args.print_structure))
    except (ValueError, KeyError) as exc:
        raise Error('Cannot summarize "{}": {}', args.in_graph, exc) from exc
    return 0
