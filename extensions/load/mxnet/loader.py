"""Load phase for MXNet: read the symbol and params, apply --input/--output, add Results, extract ops."""
from extensions.load.preprocessing import InputPreprocessing
from mo.front.common.input_spec import input_specs, parse_input, parse_output
from mo.front.extractor import extractors_of_nodes, unknown_ops_error
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.mxnet.loader import read_model, symbol2nx
from mo.front.mxnet.nd_merge import merged_weights, wants_merge
from mo.front.mxnet.symbol import read_symbol
from mo.graph.graph import Graph, Node
from mo.ops.body_io import output_name
from mo.ops.result import Result
from mo.utils.error import Error, UsageError
from mo.utils.replacement import for_framework

#: the graph came from an MXNet model (``graph_condition`` of the MXNet-only steps)
is_mxnet = for_framework('mxnet')


def _params(graph: Graph) -> dict:
    return graph.graph.get('cmd_params') or {}


def find_tensor(graph: Graph, name: str, port, option: str):
    """``(node id, output port)`` of what ``--input``/``--output`` names: an MXNet node (its output ``port``,
    default 0) or ``NAME:k``; an Error with close matches when the model has neither."""
    tensors = graph.graph.get('mxnet_tensors', {})
    full = name if not port else '{}:{}'.format(name, port)
    if full in tensors:
        return tensors[full]
    import difflib  # only on this error path
    close = difflib.get_close_matches(name, list(tensors), n=3)
    raise UsageError('{}: the model has no node "{}"', option, full,
                     hint='did you mean {}?'.format(', '.join('"{}"'.format(c) for c in close)) if close else None)


class MXNetLoader(LoadReplacementPattern):
    """Reads the MXNet symbol and params (``--input_model``, ``--input_symbol``) into the graph; with
    ``--nd_prefix_name`` and ``--pretrained_model_name``, the weights merged from those
    (``mo.front.mxnet.nd_merge``)."""
    id = 'MXNetLoader'
    graph_condition = [is_mxnet]
    auto_clean_up = False  # no Results yet: everything would look dead

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already
        params = _params(graph)
        if not params.get('input_model') and not params.get('input_symbol'):
            raise UsageError('An MXNet model is read from --input_model PREFIX-0000.params or PREFIX-symbol.json')
        if wants_merge(params):
            symbol = read_symbol(params['input_symbol'])
            weights = merged_weights(symbol, params['nd_prefix_name'], params['pretrained_model_name'])
        else:
            symbol, weights = read_model(params.get('input_model') or params['input_symbol'],
                                         params.get('input_symbol'))
        inputs = [spec.name for spec in parse_input(params.get('input') or '') if spec.port is None]
        symbol2nx(graph, symbol, weights, inputs)
        graph.check_acyclic()
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()


class MXNetInputsOutputs(LoadReplacementPattern):
    """Applies --input (shapes, types, frozen values of the model's inputs), --input_shape, --batch and --output."""
    id = 'MXNetInputsOutputs'
    graph_condition = [is_mxnet]
    auto_clean_up = False

    def run_after(self):
        return [MXNetLoader]

    def find_and_replace_pattern(self, graph: Graph):
        params = _params(graph)
        for spec in input_specs(params, graph.get_op_nodes(op='Parameter')):
            node = Node(graph, find_tensor(graph, spec.name, spec.port, '--input')[0])
            if node.op != 'Parameter':
                raise UsageError('--input "{}": only the model\'s inputs can be given (it is a {}{})', spec.name,
                                 node.op, ' weight' if node.op == 'Const' else ' node')
            for key, value in (('user_shape', spec.shape), ('user_dtype', spec.dtype), ('user_value', spec.value)):
                if value is not None:
                    node[key] = value
        outputs = parse_output(params.get('output') or '')
        if outputs:
            graph.graph['explicit_outputs'] = [find_tensor(graph, name, port, '--output') for name, port in outputs]
        if params.get('batch'):
            for node in graph.get_op_nodes(op='Parameter'):
                node['user_batch'] = int(params['batch'])


class MXNetAddResults(LoadReplacementPattern):
    """Puts a Result on every model output: the --output tensors, else the symbol's heads."""
    id = 'MXNetAddResults'
    graph_condition = [is_mxnet]

    def run_after(self):
        return [MXNetInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        outputs = graph.graph.get('explicit_outputs') or graph.graph.get('mxnet_heads') or []
        if not outputs:
            raise Error('The symbol has no heads; name the outputs with --output')
        for index, (node_id, port) in enumerate(outputs):
            source = Node(graph, node_id)
            names = source.out_port(port).get_tensor_names() if port in source.out_ports() else []
            label = names[0] if names else '{}:{}'.format(source.soft_get('name', node_id), port)
            if graph.graph.get('mxnet_body'):
                label = output_name(index)  # how the op owning the body finds its outputs (mo.ops.body_io)
            result = Result(graph, {'name': graph.unique_id(label + '/sink_port_0'),
                                    'output_index': index}).create_node()
            source.out_port(port).connect(result.in_port(0))
            self.match_count += 1
        graph.clean_up(undead_node_types=())


class MXNetExtractor(LoadReplacementPattern):
    """Gives every MXNet node its mo op through the extractors registered for framework ``mxnet``."""
    id = 'MXNetExtractor'
    graph_condition = [is_mxnet]

    def run_after(self):
        return [MXNetAddResults]

    def run_before(self):
        return [InputPreprocessing]  # the preprocessing flags act on the extracted inputs

    def find_and_replace_pattern(self, graph: Graph):
        todo, unknown = extractors_of_nodes(graph, 'mxnet')
        if unknown:
            raise unknown_ops_error(unknown, 'mxnet')
        for node_id, extractor in todo:
            node = Node(graph, node_id)
            mxnet_op = node.op
            if not extractor.extract(node):
                raise Error('Node "{}" ({}) could not be extracted', node.soft_get('name', node_id), mxnet_op)
            node['mxnet_op'] = mxnet_op
            node['extracted'] = True
            self.match_count += 1
