"""Load phase for ONNX: read the model, apply --input/--output, add Results, extract ops."""

from extensions.load.preprocessing import InputPreprocessing
from mo.front.common.input_spec import input_specs, parse_output
from mo.front.extractor import extractors_of_nodes, unsupported_op_hint
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.onnx.loader import TENSORS, protobuf2nx, read_onnx_model
from mo.graph.graph import Graph, Node
from mo.ops.result import Result
from mo.utils.error import Error, UsageError
from mo.utils.replacement import for_framework


#: the graph came from an ONNX model (``graph_condition`` of the ONNX-only steps)
is_onnx = for_framework('onnx')


def _params(graph: Graph) -> dict:
    return graph.graph.get('cmd_params') or {}


def find_tensor(graph: Graph, name: str, port, option: str):
    """``(node id, output port)`` of what ``--input``/``--output`` names: an ONNX tensor, else a node (its output
    ``port``, default 0). An Error with close matches when the model has neither."""
    tensors = graph.graph.get(TENSORS, {})
    full = name if port is None else '{}:{}'.format(name, port)
    for candidate in (full, name):
        if candidate in tensors and (candidate == full or port is None):
            return tensors[candidate]
    node = graph.get_node_by_name(name)
    if node is not None:
        return node.id, port or 0
    import difflib  # only on this error path
    close = difflib.get_close_matches(name, list(tensors), n=3)
    raise UsageError('{}: the model has no tensor or node "{}"', option, full,
                     hint='did you mean {}?'.format(', '.join('"{}"'.format(c) for c in close)) if close else None)


class ONNXLoader(LoadReplacementPattern):
    """Reads the ONNX model (``--input_model``, or the API's bytes or ModelProto) into the graph."""
    id = 'ONNXLoader'
    graph_condition = [is_onnx]
    auto_clean_up = False  # no Results yet: everything would look dead

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already (API use, bodies)
        params = _params(graph)
        source = params.get('onnx_model')
        loaded = read_onnx_model(source if source is not None else params['input_model'])
        protobuf2nx(graph, loaded)
        graph.check_acyclic()
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()


class ONNXInputsOutputs(LoadReplacementPattern):
    """Applies --input (new inputs anywhere, shapes, types, frozen values), --input_shape, --batch, --output and
    --freeze_placeholder_with_value."""
    id = 'ONNXInputsOutputs'
    graph_condition = [is_onnx]
    auto_clean_up = False  # no Results yet: everything would look dead

    def run_after(self):
        return [ONNXLoader]

    def find_and_replace_pattern(self, graph: Graph):
        params = _params(graph)
        for spec in input_specs(params, graph.get_op_nodes(op='Parameter')):
            self._apply_input(graph, spec)
        outputs = parse_output(params.get('output') or '')
        if outputs:
            graph.graph['explicit_outputs'] = [find_tensor(graph, name, port, '--output') for name, port in outputs]
        if params.get('batch'):
            for node in graph.get_op_nodes(op='Parameter'):
                node['user_batch'] = int(params['batch'])

    @staticmethod
    def _apply_input(graph: Graph, spec):
        node_id, port = find_tensor(graph, spec.name, spec.port, '--input')
        node = Node(graph, node_id)
        if node.op != 'Parameter':
            # a cut: a new input takes over the readers of node:port; what feeds only it becomes dead code
            tensor_name = (node.out_port(port).get_tensor_names() or [spec.name])[0] \
                if port in node.out_ports() else spec.name
            target_id = graph.unique_id(tensor_name)
            graph.add_node(target_id, kind='op', op='Parameter', name=tensor_name, pb=None,
                           _out_ports={0: {'tensor_names': [tensor_name]}})
            for _, dst, key, data in list(graph.out_edges(node_id, keys=True, data=True)):
                if data.get('out', 0) == port:
                    graph.remove_edge(node_id, dst, key)
                    graph.add_edge(target_id, dst, **dict(data, out=0))
            graph.graph[TENSORS][tensor_name] = (target_id, 0)
            node = Node(graph, target_id)
        if spec.shape is not None:
            node['user_shape'] = spec.shape
        if spec.dtype is not None:
            node['user_dtype'] = spec.dtype
        if spec.value is not None:
            node['user_value'] = spec.value


class ONNXAddResults(LoadReplacementPattern):
    """Puts a Result on every model output: the --output tensors, else the ONNX graph's outputs."""
    id = 'ONNXAddResults'
    graph_condition = [is_onnx]

    def run_after(self):
        return [ONNXInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        explicit = graph.graph.get('explicit_outputs')
        if explicit is not None:
            outputs = explicit
        else:
            tensors = graph.graph[TENSORS]
            outputs = []
            for value_info in graph.graph.get('onnx_graph_outputs', []):
                if value_info.name not in tensors:
                    raise Error('The ONNX graph\'s output "{}" is produced by no node, input or initializer',
                                value_info.name)
                outputs.append(tensors[value_info.name])
        if not outputs:
            raise Error('The model has no outputs; name them with --output')
        for index, (node_id, port) in enumerate(outputs):
            source = Node(graph, node_id)
            # what only follows the chosen outputs goes with the clean-up below (not by cutting the edges after
            # each: one chosen output may be computed from another)
            names = source.out_port(port).get_tensor_names() if port in source.out_ports() else []
            label = names[0] if names else '{}:{}'.format(source.soft_get('name', node_id), port)
            # output_index: which output a body's Result is (mo.front.onnx.bodies)
            result = Result(graph, {'name': graph.unique_id(label + '/sink_port_0'),
                                    'output_index': index}).create_node()
            source.out_port(port).connect(result.in_port(0))
            self.match_count += 1
        graph.clean_up(undead_node_types=())


def unknown_ops_error(unknown: dict) -> Error:
    """One error naming every ONNX op no extractor knows: domain, opset, count and the first nodes."""
    parts = []
    for (op, domain, opset), names in sorted(unknown.items(), key=lambda item: (item[0][1], item[0][0])):
        parts.append('{} ({}, opset {}; {} node{}: {}{})'.format(
            op, domain or 'ai.onnx', opset, len(names), 's' if len(names) > 1 else '', ', '.join(names[:3]),
            ', ...' if len(names) > 3 else ''))
    return Error('The model has operations mo cannot convert: {}', '; '.join(parts),
                 hint=unsupported_op_hint(sorted(unknown)[0][0], 'front/onnx/'))


class ONNXExtractor(LoadReplacementPattern):
    """Gives every ONNX node its mo op through the extractors registered for framework ``onnx``."""
    id = 'ONNXExtractor'
    graph_condition = [is_onnx]

    def run_after(self):
        return [ONNXAddResults]

    def run_before(self):
        return [InputPreprocessing]  # the preprocessing flags act on the extracted inputs

    def find_and_replace_pattern(self, graph: Graph):
        todo, unknown = extractors_of_nodes(
            graph, 'onnx', lambda data: (data['op'], data.get('domain', ''), data.get('onnx_opset')))
        if unknown:
            raise unknown_ops_error(unknown)
        for node_id, extractor in todo:
            node = Node(graph, node_id)
            onnx_op = node.op
            if not extractor.extract(node):
                raise Error('Node "{}" ({}) could not be extracted', node.soft_get('name', node_id), onnx_op)
            node['onnx_op'] = onnx_op
            node['extracted'] = True
            self.match_count += 1
