"""Load phase for PaddlePaddle: read the program and params, apply --input/--output, add Results, extract ops."""
from extensions.load.preprocessing import InputPreprocessing
from mo.front.common.input_spec import input_specs, parse_output
from mo.front.extractor import extractors_of_nodes, unknown_ops_error
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.paddle.graph import PROGRAM, TENSORS, program_to_graph
from mo.front.paddle.load import read_model
from mo.graph.graph import Graph, Node
from mo.ops.result import Result
from mo.utils.error import Error, UsageError
from mo.utils.replacement import for_framework

#: the graph came from a Paddle model (``graph_condition`` of the Paddle-only steps)
is_paddle = for_framework('paddle')


def _params(graph: Graph) -> dict:
    return graph.graph.get('cmd_params') or {}


def find_tensor(graph: Graph, name: str, port, option: str):
    """``(node id, output port)`` of what ``--input``/``--output`` names: a Paddle var (a PIR fetch name too),
    else an op node by name (its output ``port``, default 0). An Error with close matches when there is none."""
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
    raise UsageError('{}: the model has no var or op "{}"', option, full,
                     hint='did you mean {}?'.format(', '.join('"{}"'.format(c) for c in close)) if close else None)


class PaddleLoader(LoadReplacementPattern):
    """Reads the Paddle program (``--input_model``: ``.pdmodel``, PIR ``.json`` or a Paddle 1.x directory) and
    its params (beside it) into the graph."""
    id = 'PaddleLoader'
    graph_condition = [is_paddle]
    auto_clean_up = False  # no Results yet: everything would look dead

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already
        params = _params(graph)
        program, weights = read_model(params['input_model'], params.get('paddle_params'))
        program_to_graph(graph, program, weights)
        # the fetch names of a PIR program (``fetch_name_0``) name its outputs as the var names do
        tensors = graph.graph[TENSORS]
        for var, label in zip(program.outputs, program.output_labels):
            if label and label != var and var in tensors and label not in tensors:
                tensors[label] = tensors[var]
        graph.check_acyclic()
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()


class PaddleInputsOutputs(LoadReplacementPattern):
    """Applies --input (new inputs anywhere, shapes, types, frozen values), --input_shape, --batch, --output and
    --freeze_placeholder_with_value."""
    id = 'PaddleInputsOutputs'
    graph_condition = [is_paddle]
    auto_clean_up = False  # no Results yet: everything would look dead

    def run_after(self):
        return [PaddleLoader]

    def find_and_replace_pattern(self, graph: Graph):
        params = _params(graph)
        feeds = [Node(graph, graph.graph[TENSORS][name][0]) for name in graph.graph[PROGRAM].inputs
                 if name in graph.graph[TENSORS]]
        for spec in input_specs(params, [n for n in feeds if n.op == 'Parameter']):
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
            names = node.out_port(port).get_tensor_names() if port in node.out_ports() else []
            tensor_name = (names or [spec.name])[0]
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


class PaddleAddResults(LoadReplacementPattern):
    """Puts a Result on every model output: the --output tensors, else the program's fetched vars (their
    ports named by the fetch names)."""
    id = 'PaddleAddResults'
    graph_condition = [is_paddle]

    def run_after(self):
        return [PaddleInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        program = graph.graph[PROGRAM]
        tensors = graph.graph[TENSORS]
        explicit = graph.graph.get('explicit_outputs')
        labels = []
        if explicit is not None:
            outputs = explicit
            labels = [None] * len(outputs)
        else:
            outputs = []
            for var, label in zip(program.outputs, program.output_labels or program.outputs):
                if var not in tensors:
                    raise Error('The Paddle program fetches var "{}", which no op, feed or parameter produces', var)
                outputs.append(tensors[var])
                labels.append(label)
        if not outputs:
            raise Error('The model has no outputs; name them with --output')
        for index, ((node_id, port), label) in enumerate(zip(outputs, labels)):
            source = Node(graph, node_id)
            names = source.out_port(port).get_tensor_names() if port in source.out_ports() else []
            if label and label not in names:
                # the fetch name first: it names the IR output (PIR's var names are bare numbers)
                source.out_port(port).add_tensor_names([label], first=True)
                names = [label] + names
            name = label or (names[0] if names else '{}:{}'.format(source.soft_get('name', node_id), port))
            result = Result(graph, {'name': graph.unique_id(name + '/sink_port_0'),
                                    'output_index': index}).create_node()
            source.out_port(port).connect(result.in_port(0))
            self.match_count += 1
        graph.clean_up(undead_node_types=())


class PaddleExtractor(LoadReplacementPattern):
    """Gives every Paddle op node its mo op through the extractors registered for framework ``paddle``."""
    id = 'PaddleExtractor'
    graph_condition = [is_paddle]

    def run_after(self):
        return [PaddleAddResults]

    def run_before(self):
        return [InputPreprocessing]  # the preprocessing flags act on the extracted inputs

    def find_and_replace_pattern(self, graph: Graph):
        todo, unknown = extractors_of_nodes(graph, 'paddle')
        if unknown:
            raise unknown_ops_error(unknown, 'paddle')
        for node_id, extractor in todo:
            node = Node(graph, node_id)
            paddle_op = node.op
            if not extractor.extract(node):
                raise Error('Paddle op "{}" ({}) could not be extracted', node.soft_get('name', node_id), paddle_op)
            node['paddle_op'] = paddle_op
            node['extracted'] = True
            self.match_count += 1
