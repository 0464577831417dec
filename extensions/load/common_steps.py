"""The load steps that follow a framework's reader, written once: ``--input``/``--output``/``--batch``, a Result on
every model output, and extraction by the framework's extractors.

ONNX, PaddlePaddle and MXNet run them alike (``extensions/load/<framework>/loader.py``); each framework's step is
a subclass that states only what differs: where its reader lists the tensors, the words its messages use, how it
labels an output. TensorFlow's steps (``extensions/load/tf/loader.py``) also handle function libraries, control
flow and the load-phase folding, and keep their own. The bases are abstract, so they are not steps themselves.
"""
from extensions.load.preprocessing import InputPreprocessing
from mo.front.common.input_spec import input_specs, parse_output
from mo.front.extractor import extractors_of_nodes, unknown_ops_error
from mo.front.loader_replacement import LoadReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.result import Result
from mo.utils.error import Error, UsageError


def command_params(graph: Graph) -> dict:
    """The conversion's options (``cmd_params``), empty for a graph built without them."""
    return graph.graph.get('cmd_params') or {}


def find_named_tensor(graph: Graph, tensors_key: str, name: str, port, option: str, words: str):
    """``(node id, output port)`` of what ``--input``/``--output`` names: a tensor of the reader's table
    ``graph.graph[tensors_key]`` (``NAME`` or ``NAME:port``), else a node by name (its output ``port``, default 0).
    A UsageError naming the model's ``words`` ("tensor or node") and close matches when it has neither."""
    tensors = graph.graph.get(tensors_key, {})
    full = name if port is None else '{}:{}'.format(name, port)
    for candidate in (full, name):
        if candidate in tensors and (candidate == full or port is None):
            return tensors[candidate]
    node = graph.get_node_by_name(name)
    if node is not None:
        return node.id, port or 0
    raise no_such_tensor(option, full, words, name, tensors)


def no_such_tensor(option: str, full: str, words: str, name: str, tensors) -> UsageError:
    """The error for a name the model lacks, with up to three close matches among ``tensors``."""
    import difflib  # only on this error path
    close = difflib.get_close_matches(name, list(tensors), n=3)
    return UsageError('{}: the model has no {} "{}"', option, words, full,
                      hint='did you mean {}?'.format(', '.join('"{}"'.format(c) for c in close)) if close else None)


def set_user_input(node: Node, spec):
    """What ``--input`` gives for the input ``node``: its shape, element type, frozen value."""
    for key, value in (('user_shape', spec.shape), ('user_dtype', spec.dtype), ('user_value', spec.value)):
        if value is not None:
            node[key] = value


class InputsOutputsStep(LoadReplacementPattern):
    """Applies --input (new inputs anywhere, shapes, types, frozen values), --input_shape, --batch, --output and
    --freeze_placeholder_with_value.

    A subclass sets ``tensors_key`` (the reader's table of tensor names) and ``tensor_words`` (what messages call a
    name), or overrides ``find_tensor``; ``model_inputs`` and ``apply_input`` when its inputs differ."""
    _abstract = True
    auto_clean_up = False  # no Results yet: everything would look dead
    tensors_key = None
    tensor_words = 'tensor or node'

    def find_tensor(self, graph: Graph, name: str, port, option: str):
        return find_named_tensor(graph, self.tensors_key, name, port, option, self.tensor_words)

    def model_inputs(self, graph: Graph) -> list:
        """The model's own inputs, which ``--input``'s specs without a name are for."""
        return graph.get_op_nodes(op='Parameter')

    def find_and_replace_pattern(self, graph: Graph):
        params = command_params(graph)
        for spec in input_specs(params, self.model_inputs(graph)):
            self.apply_input(graph, spec)
        outputs = parse_output(params.get('output') or '')
        if outputs:
            graph.graph['explicit_outputs'] = [self.find_tensor(graph, name, port, '--output')
                                               for name, port in outputs]
        if params.get('batch'):
            for node in graph.get_op_nodes(op='Parameter'):
                node['user_batch'] = int(params['batch'])

    def apply_input(self, graph: Graph, spec):
        """``spec`` on the input it names; a tensor that is not an input becomes one (a cut)."""
        node_id, port = self.find_tensor(graph, spec.name, spec.port, '--input')
        node = Node(graph, node_id)
        if node.op != 'Parameter':
            node = self.cut(graph, node, port, spec.name)
        set_user_input(node, spec)

    def cut(self, graph: Graph, node: Node, port: int, name: str) -> Node:
        """A new input that takes over the readers of ``node:port``; what feeds only it becomes dead code."""
        names = node.out_port(port).get_tensor_names() if port in node.out_ports() else []
        tensor_name = (names or [name])[0]
        target_id = graph.unique_id(tensor_name)
        graph.add_node(target_id, kind='op', op='Parameter', name=tensor_name, pb=None,
                       _out_ports={0: {'tensor_names': [tensor_name]}})
        for _, dst, key, data in list(graph.out_edges(node.id, keys=True, data=True)):
            if data.get('out', 0) == port:
                graph.remove_edge(node.id, dst, key)
                graph.add_edge(target_id, dst, **dict(data, out=0))
        graph.graph[self.tensors_key][tensor_name] = (target_id, 0)
        return Node(graph, target_id)


class AddResultsStep(LoadReplacementPattern):
    """Puts a Result on every model output: the --output tensors, else those ``model_outputs`` gives.

    A subclass defines ``model_outputs`` and may change ``result_label`` (what the Result is named after) and
    ``no_outputs`` (the message for a model without outputs)."""
    _abstract = True
    no_outputs = 'The model has no outputs; name them with --output'

    def model_outputs(self, graph: Graph) -> list:
        """``[(node id, port, label or None)]``: the outputs the model itself declares."""
        raise NotImplementedError

    def result_label(self, graph: Graph, index: int, source: Node, port: int, label) -> str:
        """What output ``index`` (``source:port``, the model's ``label`` for it or None) is called: by default the
        tensor's first name, else ``node:port``."""
        names = source.out_port(port).get_tensor_names() if port in source.out_ports() else []
        return names[0] if names else '{}:{}'.format(source.soft_get('name', source.id), port)

    def find_and_replace_pattern(self, graph: Graph):
        explicit = graph.graph.get('explicit_outputs')
        if explicit is not None:
            outputs = [(node_id, port, None) for node_id, port in explicit]
        else:
            outputs = self.model_outputs(graph)
        if not outputs:
            raise Error(self.no_outputs)
        for index, (node_id, port, label) in enumerate(outputs):
            source = Node(graph, node_id)
            # what only follows the chosen outputs goes with the clean-up below (not by cutting the edges after
            # each: one chosen output may be computed from another)
            name = self.result_label(graph, index, source, port, label)
            # output_index: which output a body's Result is (the readers' body conversions)
            result = Result(graph, {'name': graph.unique_id(name + '/sink_port_0'),
                                    'output_index': index}).create_node()
            source.out_port(port).connect(result.in_port(0))
            self.match_count += 1
        graph.clean_up(undead_node_types=())


class ExtractorStep(LoadReplacementPattern):
    """Gives every node its mo op through the extractors registered for ``framework``; the node keeps the
    framework's op name in ``<framework>_op``.

    A subclass sets ``framework``, and ``node_words`` (what the message calls a node), ``unknown_key`` and
    ``unknown_error`` (how the ops no extractor knows are told) where they differ."""
    _abstract = True
    framework = None
    node_words = 'Node'

    def run_before(self):
        return [InputPreprocessing]  # the preprocessing flags act on the extracted inputs

    @staticmethod
    def unknown_key(data: dict):
        """What an op no extractor knows is listed as, from its node's attributes (its op name)."""
        return data['op']

    def unknown_error(self, unknown: dict) -> Error:
        """The one error naming every op no extractor knows (``{unknown_key: [node names]}``)."""
        return unknown_ops_error(unknown, self.framework)

    def find_and_replace_pattern(self, graph: Graph):
        todo, unknown = extractors_of_nodes(graph, self.framework, self.unknown_key)
        if unknown:
            raise self.unknown_error(unknown)
        attr = self.framework + '_op'
        for node_id, extractor in todo:
            node = Node(graph, node_id)
            framework_op = node.op
            if not extractor.extract(node):
                raise Error('{} "{}" ({}) could not be extracted', self.node_words, node.soft_get('name', node_id),
                            framework_op)
            node[attr] = framework_op
            node['extracted'] = True
            self.match_count += 1
