"""Load phase for MXNet: read the symbol and params, apply --input/--output, add Results, extract ops (the steps
after the reader are the common ones of ``extensions/load/common_steps.py``)."""
from extensions.load.common_steps import (AddResultsStep, ExtractorStep, InputsOutputsStep, command_params,
                                          no_such_tensor, set_user_input)
from mo.front.common.input_spec import parse_input
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.mxnet.loader import read_model, symbol2nx
from mo.front.mxnet.nd_merge import merged_weights, wants_merge
from mo.front.mxnet.symbol import read_symbol
from mo.graph.graph import Graph, Node
from mo.ops.body_io import output_name
from mo.utils.error import UsageError
from mo.utils.replacement import for_framework

#: the graph came from an MXNet model (``graph_condition`` of the MXNet-only steps)
is_mxnet = for_framework('mxnet')


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
        params = command_params(graph)
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


class MXNetInputsOutputs(InputsOutputsStep):
    """Applies --input (shapes, types, frozen values of the model's inputs), --input_shape, --batch and --output: a
    name is an MXNet node (its output 0) or ``NAME:k``; only the model's inputs can be given."""
    id = 'MXNetInputsOutputs'
    graph_condition = [is_mxnet]

    def run_after(self):
        return [MXNetLoader]

    def find_tensor(self, graph: Graph, name: str, port, option: str):
        tensors = graph.graph.get('mxnet_tensors', {})
        full = name if not port else '{}:{}'.format(name, port)
        if full in tensors:
            return tensors[full]
        raise no_such_tensor(option, full, 'node', name, tensors)

    def apply_input(self, graph: Graph, spec):
        node = Node(graph, self.find_tensor(graph, spec.name, spec.port, '--input')[0])
        if node.op != 'Parameter':
            raise UsageError('--input "{}": only the model\'s inputs can be given (it is a {}{})', spec.name,
                             node.op, ' weight' if node.op == 'Const' else ' node')
        set_user_input(node, spec)


class MXNetAddResults(AddResultsStep):
    """Puts a Result on every model output: the --output tensors, else the symbol's heads."""
    id = 'MXNetAddResults'
    graph_condition = [is_mxnet]
    no_outputs = 'The symbol has no heads; name the outputs with --output'

    def run_after(self):
        return [MXNetInputsOutputs]

    def model_outputs(self, graph: Graph) -> list:
        return [(node_id, port, None) for node_id, port in graph.graph.get('mxnet_heads') or []]

    def result_label(self, graph: Graph, index: int, source: Node, port: int, label) -> str:
        if graph.graph.get('mxnet_body'):
            return output_name(index)  # how the op owning the body finds its outputs (mo.ops.body_io)
        return super().result_label(graph, index, source, port, label)


class MXNetExtractor(ExtractorStep):
    """Gives every MXNet node its mo op through the extractors registered for framework ``mxnet``."""
    id = 'MXNetExtractor'
    graph_condition = [is_mxnet]
    framework = 'mxnet'

    def run_after(self):
        return [MXNetAddResults]
