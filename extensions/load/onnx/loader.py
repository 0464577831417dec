"""Load phase for ONNX: read the model, apply --input/--output, add Results, extract ops (the steps after the reader
are the common ones of ``extensions/load/common_steps.py``)."""

from extensions.load.common_steps import AddResultsStep, ExtractorStep, InputsOutputsStep, command_params
from mo.front.extractor import unsupported_op_hint
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.onnx.loader import TENSORS, protobuf2nx, read_onnx_model
from mo.graph.graph import Graph
from mo.utils.error import Error
from mo.utils.replacement import for_framework


#: the graph came from an ONNX model (``graph_condition`` of the ONNX-only steps)
is_onnx = for_framework('onnx')


class ONNXLoader(LoadReplacementPattern):
    """Reads the ONNX model (``--input_model``, or the API's bytes or ModelProto) into the graph."""
    id = 'ONNXLoader'
    graph_condition = [is_onnx]
    auto_clean_up = False  # no Results yet: everything would look dead

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already (API use, bodies)
        params = command_params(graph)
        source = params.get('onnx_model')
        loaded = read_onnx_model(source if source is not None else params['input_model'])
        protobuf2nx(graph, loaded)
        graph.check_acyclic()
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()


class ONNXInputsOutputs(InputsOutputsStep):
    """Applies --input (new inputs anywhere, shapes, types, frozen values), --input_shape, --batch, --output and
    --freeze_placeholder_with_value: a name is an ONNX tensor, else a node (its output 0 or the port given)."""
    id = 'ONNXInputsOutputs'
    graph_condition = [is_onnx]
    tensors_key = TENSORS

    def run_after(self):
        return [ONNXLoader]


class ONNXAddResults(AddResultsStep):
    """Puts a Result on every model output: the --output tensors, else the ONNX graph's outputs."""
    id = 'ONNXAddResults'
    graph_condition = [is_onnx]

    def run_after(self):
        return [ONNXInputsOutputs]

    def model_outputs(self, graph: Graph) -> list:
        tensors = graph.graph[TENSORS]
        outputs = []
        for value_info in graph.graph.get('onnx_graph_outputs', []):
            if value_info.name not in tensors:
                raise Error('The ONNX graph\'s output "{}" is produced by no node, input or initializer',
                            value_info.name)
            node_id, port = tensors[value_info.name]
            outputs.append((node_id, port, None))
        return outputs


def unknown_ops_error(unknown: dict) -> Error:
    """One error naming every ONNX op no extractor knows: domain, opset, count and the first nodes."""
    parts = []
    for (op, domain, opset), names in sorted(unknown.items(), key=lambda item: (item[0][1], item[0][0])):
        parts.append('{} ({}, opset {}; {} node{}: {}{})'.format(
            op, domain or 'ai.onnx', opset, len(names), 's' if len(names) > 1 else '', ', '.join(names[:3]),
            ', ...' if len(names) > 3 else ''))
    return Error('The model has operations mo cannot convert: {}', '; '.join(parts),
                 hint=unsupported_op_hint(sorted(unknown)[0][0], 'front/onnx/'))


class ONNXExtractor(ExtractorStep):
    """Gives every ONNX node its mo op through the extractors registered for framework ``onnx``."""
    id = 'ONNXExtractor'
    graph_condition = [is_onnx]
    framework = 'onnx'

    def run_after(self):
        return [ONNXAddResults]

    @staticmethod
    def unknown_key(data: dict):
        return data['op'], data.get('domain', ''), data.get('onnx_opset')

    def unknown_error(self, unknown: dict) -> Error:
        return unknown_ops_error(unknown)
