"""Load phase for PaddlePaddle: read the program and params, apply --input/--output, add Results, extract ops (the
steps after the reader are the common ones of ``extensions/load/common_steps.py``)."""
from extensions.load.common_steps import AddResultsStep, ExtractorStep, InputsOutputsStep, command_params
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.paddle.graph import PROGRAM, TENSORS, program_to_graph
from mo.front.paddle.load import read_model
from mo.graph.graph import Graph, Node
from mo.utils.error import Error
from mo.utils.replacement import for_framework

#: the graph came from a Paddle model (``graph_condition`` of the Paddle-only steps)
is_paddle = for_framework('paddle')


class PaddleLoader(LoadReplacementPattern):
    """Reads the Paddle program (``--input_model``: ``.pdmodel``, PIR ``.json`` or a Paddle 1.x directory) and
    its params (beside it) into the graph."""
    id = 'PaddleLoader'
    graph_condition = [is_paddle]
    auto_clean_up = False  # no Results yet: everything would look dead

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already
        params = command_params(graph)
        program, weights = read_model(params['input_model'], params.get('paddle_params'))
        program_to_graph(graph, program, weights)
        # the fetch names of a PIR program (``fetch_name_0``) name its outputs as the var names do
        tensors = graph.graph[TENSORS]
        for var, label in zip(program.outputs, program.output_labels):
            if label and label != var and var in tensors and label not in tensors:
                tensors[label] = tensors[var]
        graph.check_acyclic()
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()


class PaddleInputsOutputs(InputsOutputsStep):
    """Applies --input (new inputs anywhere, shapes, types, frozen values), --input_shape, --batch, --output and
    --freeze_placeholder_with_value: a name is a Paddle var (a PIR fetch name too), else an op node by name (its
    output 0 or the port given)."""
    id = 'PaddleInputsOutputs'
    graph_condition = [is_paddle]
    tensors_key = TENSORS
    tensor_words = 'var or op'

    def run_after(self):
        return [PaddleLoader]

    def model_inputs(self, graph: Graph) -> list:
        """The program's feeds that are inputs, in its order."""
        feeds = [Node(graph, graph.graph[TENSORS][name][0]) for name in graph.graph[PROGRAM].inputs
                 if name in graph.graph[TENSORS]]
        return [n for n in feeds if n.op == 'Parameter']


class PaddleAddResults(AddResultsStep):
    """Puts a Result on every model output: the --output tensors, else the program's fetched vars (their
    ports named by the fetch names)."""
    id = 'PaddleAddResults'
    graph_condition = [is_paddle]

    def run_after(self):
        return [PaddleInputsOutputs]

    def model_outputs(self, graph: Graph) -> list:
        program = graph.graph[PROGRAM]
        tensors = graph.graph[TENSORS]
        outputs = []
        for var, label in zip(program.outputs, program.output_labels or program.outputs):
            if var not in tensors:
                raise Error('The Paddle program fetches var "{}", which no op, feed or parameter produces', var)
            node_id, port = tensors[var]
            outputs.append((node_id, port, label))
        return outputs

    def result_label(self, graph: Graph, index: int, source: Node, port: int, label) -> str:
        names = source.out_port(port).get_tensor_names() if port in source.out_ports() else []
        if label and label not in names:
            # the fetch name names the IR output: PIR's value ids (``%11``) go from a fetched tensor, as OpenVINO's
            # get_any_name() gives the least of a tensor's names and '%' sorts before every letter
            kept = [name for name in names if not name.startswith('%')]
            if len(kept) != len(names):
                source.out_port(port).remove_tensor_names()
            source.out_port(port).add_tensor_names([label] + [name for name in kept if name != label], first=True)
        return label or super().result_label(graph, index, source, port, label)


class PaddleExtractor(ExtractorStep):
    """Gives every Paddle op node its mo op through the extractors registered for framework ``paddle``."""
    id = 'PaddleExtractor'
    graph_condition = [is_paddle]
    framework = 'paddle'
    node_words = 'Paddle op'

    def run_after(self):
        return [PaddleAddResults]
