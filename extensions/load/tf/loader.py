"""Load phase for TensorFlow: read the GraphDef, cut it at --input/--output, add Results, extract ops."""
import logging as log

from mo.utils.heap import release_free_heap
from mo.front.extractor import extractors_of_nodes, unsupported_op_hint
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.tf import model_source
from mo.front.tf.graphdef_io import parse_graph_def_bytes, read_graph_def_and_bytes
from mo.front.common.input_spec import input_specs, parse_output
from mo.front.tf.loader import graph_def_to_graph
from mo.front.tf.node_def import parse_input as parse_node_input
from mo.front.tf.op_signatures import output_arg_offsets, output_arg_table
from mo.front.tf.wire import const_contents
from mo.graph.graph import Graph, Node
from mo.ops.result import Result
from mo.utils.error import Error, UsageError
from mo.utils.replacement import for_framework

#: node attr: an --input cut took this node's readers; left unread, it is not a model output
CUT_BY_INPUT = '_cut_by_input'

#: graph attr {signature name: node id}: a SavedModel signature's input and output names, which
#: --input and --output accept as well as node names
SIGNATURE_NAMES = 'signature_names'

#: TF ops that never produce model outputs even when nothing consumes them
#: ops that have outputs but are no model outputs when nothing reads them (an op TF's registry gives no outputs,
#: such as NoOp, Assert or TensorArrayCloseV3, is none either)
_NOT_OUTPUTS = {'Const', 'RestoreV2', 'VarHandleOp', 'Placeholder'}


#: Consts whose NodeDef is shorter than this are read from the parsed message, not viewed in the file's bytes:
#: copying a few hundred bytes costs less than finding them in the wire format (and the GraphDef writer streams
#: only tensors of mo.back.tf.graphdef_writer.STREAMED_BYTES and up, which it finds viewed in the file)
_VIEWED_CONST_BYTES = 1024


def _params(graph: Graph) -> dict:
    return graph.graph.get('cmd_params') or {}


#: the graph came from TensorFlow (``graph_condition`` of the TF-only steps)
_is_tf = for_framework('tf')


def find_op_node(graph: Graph, name: str, option: str) -> Node:
    """The op node called ``name`` (or a SavedModel signature's input or output named so); an Error with close
    matches when there is none, or else with the names the option can take."""
    node = graph.get_node_by_name(name)
    if node is not None:
        return node
    signature = graph.graph.get(SIGNATURE_NAMES) or {}
    signature_node = signature.get(name)
    if signature_node is not None and signature_node in graph:
        return Node(graph, signature_node)
    import difflib  # only on this error path
    names = [d.get('name', n) for n, d in graph.nodes(data=True) if d.get('kind') == 'op']
    close = difflib.get_close_matches(name, list(dict.fromkeys(list(signature) + names)), n=3)
    scope_outputs = _scope_outputs(graph, name)
    if scope_outputs:  # a Keras layer's name: its ops are in a scope of that name
        hint = 'the ops of scope "{}" (a Keras layer?) give their result at {}'.format(
            name, ', '.join('"{}"'.format(c) for c in scope_outputs[:3]))
    elif close:
        hint = 'did you mean {}?'.format(', '.join('"{}"'.format(c) for c in close))
    else:
        hint = _valid_names_hint(graph, signature, option)
    raise UsageError('{}: the model has no node "{}"', option, name, hint=hint)


def _scope_outputs(graph: Graph, scope: str) -> list:
    """The names of the nodes of scope ``scope`` (a component of their names) whose output leaves the scope: where
    a Keras layer of that name gives its result."""
    import re
    scope_pattern = re.compile(re.escape(scope) + r'(_\d+)?')  # Keras 3 traces a layer "probs" as "probs_1"

    def in_scope(node_id):
        parts = str(graph.nodes[node_id].get('name', node_id)).split('/')[:-1]
        return any(scope_pattern.fullmatch(part) for part in parts)
    members = [n for n, d in graph.nodes(data=True) if d.get('kind') == 'op' and d.get('op') != 'Const' and
               in_scope(n)]  # a layer's weights are read by its ops, not its result
    outputs = {n for n, _ in graph.graph.get('explicit_outputs') or ()}
    return [graph.nodes[n].get('name', n) for n in members
            if n in outputs or any(not in_scope(dst) for _, dst, d in graph.out_edges(n, data=True)
                                   if not d.get('control_flow_edge'))]


def _valid_names_hint(graph: Graph, signature: dict, option: str):
    """What ``--input``/``--output`` may name, most useful first: the signature's keys, else the graph's
    Placeholders or outputs (any node may be named; these are the usual ones)."""
    placeholders = {n.id for n in graph.get_op_nodes(op='Placeholder')}
    if signature:
        keys = sorted(key for key, node in signature.items() if (node in placeholders) == (option == '--input'))
        if keys:
            return 'the signature\'s {} are {}'.format('inputs' if option == '--input' else 'outputs',
                                                      ', '.join('"{}"'.format(k) for k in keys))
    if option == '--input':
        candidates = sorted(Node(graph, n).soft_get('name', n) for n in placeholders)
    else:
        candidates = [Node(graph, n).soft_get('name', n) for n, _ in graph.graph.get('explicit_outputs') or ()]
        candidates = candidates or sorted(Node(graph, n).soft_get('name', n) for n, d in graph.nodes(data=True)
                                          if d.get('kind') == 'op' and _is_model_output(graph, n))
    if not candidates:
        return None
    shown = ', '.join('"{}"'.format(c) for c in candidates[:10]) + (', ...' if len(candidates) > 10 else '')
    return 'the model\'s {} are {}'.format('inputs' if option == '--input' else 'outputs', shown)


def output_ports(node: Node) -> list:
    """The used data outputs of a front-phase op (read off the adjacency: runs for every node)."""
    return sorted({attrs.get('out', 0) for _, _, attrs in node.graph.out_edge_list(node.id, data_only=True)})


def tf_tensor_names(node_name: str, ports) -> dict:
    """TF's names for the given outputs of a node: ``name`` and ``name:0`` for 0, ``name:k`` otherwise."""
    return {port: [node_name, '{}:0'.format(node_name)] if port == 0 else ['{}:{}'.format(node_name, port)]
            for port in sorted(ports)}


def canonical_order(graph_def):
    """The GraphDef's nodes in one order that depends only on the graph, not on the file.

    Conversion output must not change when the same graph is stored with its nodes shuffled, so
    nodes are put in topological order with ties broken by name (a cycle keeps the file order;
    it is reported later).
    """
    import heapq
    nodes = {n.name: n for n in graph_def.node}
    if len(nodes) != len(graph_def.node):
        return None  # duplicate names: the loader reports them
    consumers = {}
    indegree = dict.fromkeys(nodes, 0)
    for name, node in nodes.items():
        for text in node.input:
            # most inputs are a bare node name: parsed only when they name a port or a control input
            source = text if ':' not in text and text[:1] != '^' else parse_node_input(text, name)[0]
            if source in nodes:
                consumers.setdefault(source, []).append(name)
                indegree[name] += 1
    heap = [name for name, degree in indegree.items() if degree == 0]
    heapq.heapify(heap)
    order = []
    pop, push, no_consumers = heapq.heappop, heapq.heappush, ()
    while heap:
        name = pop(heap)
        order.append(name)
        for consumer in consumers.get(name, no_consumers):
            degree = indegree[consumer] - 1
            indegree[consumer] = degree
            if degree == 0:
                push(heap, consumer)
    if len(order) != len(nodes):
        return None  # a cycle: file order, and the loader reports it
    return [nodes[name] for name in order]


def _file_bytes(path) -> bytes:
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError:
        return b''


def _refuse_variables(graph_def, path):
    """A GraphDef with variables needs their values: say which flag gives them."""
    for node in graph_def.node:
        if node.op in ('VariableV2', 'Variable', 'VarHandleOp'):
            raise UsageError('"{}" is not frozen: node "{}" is a variable ({})', path, node.name, node.op,
                             hint='give its checkpoint with --input_checkpoint PREFIX')


def raise_lowered_control_flow(graph_def) -> None:
    """Lowered loops and conditionals become While/If nodes, so that the graph is built from the
    functional form only (see ``mo.front.tf.control_flow``). One scan when there is none."""
    from mo.front.tf.control_flow import has_control_flow, raise_control_flow
    if has_control_flow(graph_def):
        count = raise_control_flow(graph_def)
        log.info('[ mo ] raised {} lowered loop(s) and conditional(s) to While/If'.format(count))


class TFLoader(LoadReplacementPattern):
    """Reads ``--input_model`` (binary or text GraphDef) into the graph."""
    id = 'TFLoader'
    graph_condition = [_is_tf]

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already (API use)
        params = _params(graph)
        contents = None
        if params.get('graph_def_bytes') is not None:
            graph_def = parse_graph_def_bytes(params['graph_def_bytes'], params.get('input_model') or '<bytes>')
        else:
            frozen = model_source.load(params)  # SavedModels, meta graphs, checkpoints
            if frozen is not None:
                self._load_frozen(graph, frozen)
                return
            try:
                graph_def, data, binary = read_graph_def_and_bytes(params['input_model'])
            except Error as exc:  # maybe a MetaGraphDef or a SavedModel proto: look closer
                self._load_frozen(graph, model_source.load_other_message(params, _file_bytes(params['input_model']),
                                                                         exc))
                return
            # the weights stay in the file's bytes (numpy views) instead of copies out of the message
            contents = const_contents(data, min_node_bytes=_VIEWED_CONST_BYTES) if binary else None
            _refuse_variables(graph_def, params['input_model'])
        raise_lowered_control_flow(graph_def)
        order = canonical_order(graph_def)
        graph_def_to_graph(graph_def, graph, node_order=order, const_contents=contents)
        if order is None:  # a topological order exists exactly when there is no cycle: name it
            graph.check_acyclic()
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()

    def _load_frozen(self, graph: Graph, frozen):
        """A model frozen from variables: its Consts are views of the checkpoint, its signature names
        become extra tensor names, its signature outputs the model's outputs."""
        raise_lowered_control_flow(frozen.graph_def)  # TF1 meta graphs and checkpoints have lowered loops
        order = canonical_order(frozen.graph_def)
        graph_def_to_graph(frozen.graph_def, graph, node_order=order, const_contents=frozen.contents)
        if order is None:
            graph.check_acyclic()
        for name, ports in frozen.aliases.items():
            if name in graph:
                for port, names in ports.items():  # TFExtractor puts the node's own names before these
                    Node(graph, name).out_port(port).add_tensor_names(names)
                graph.graph.setdefault(SIGNATURE_NAMES, {}).update(
                    (alias, name) for port, names in ports.items() if port == 0 for alias in names if ':' not in alias)
        for name in frozen.outputs or ():  # a signature output's Identity is named by its key (unless taken)
            if name in graph and frozen.aliases.get(name) is not None and not name.endswith('/signature_output'):
                graph.graph.setdefault(SIGNATURE_NAMES, {}).setdefault(name, name)
        if frozen.outputs and not _params(graph).get('output'):
            graph.graph['explicit_outputs'] = [(name, 0) for name in frozen.outputs]
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()


class TFInputsOutputs(LoadReplacementPattern):
    """Applies --input (new Parameters, shapes, types, frozen values), --input_shape, --batch, --output,
    --freeze_placeholder_with_value."""
    id = 'TFInputsOutputs'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFLoader]

    def find_and_replace_pattern(self, graph: Graph):
        params = _params(graph)
        for spec in input_specs(params, graph.get_op_nodes(op='Placeholder')):
            self._apply_input(graph, spec)
        outputs = parse_output(params.get('output') or '')
        for name, port in outputs:
            node = find_op_node(graph, name, '--output')
            _check_output_port(graph, node, port)
            node['is_output_port'] = sorted(set(node.soft_get('is_output_port', None) or []) | {port or 0})
        if outputs:
            graph.graph['explicit_outputs'] = [(find_op_node(graph, n, '--output').id, p or 0) for n, p in outputs]
        batch = params.get('batch')
        if batch:
            for node in graph.get_op_nodes(op='Placeholder'):
                node['user_batch'] = int(batch)

    @staticmethod
    def _apply_input(graph: Graph, spec):
        node = find_op_node(graph, spec.name, '--input')
        if node.op == 'Placeholder' and spec.port in (None, 0):
            target = node
        else:
            port = spec.port or 0
            if port not in output_ports(node) and port != 0:
                raise UsageError('--input: node "{}" has no output {}', spec.name, port)
            # cut: a new input takes over the consumers of node:port; upstream becomes dead code
            tensor_name = spec.name if port == 0 else '{}:{}'.format(spec.name, port)
            target_id = graph.unique_id(tensor_name.replace(':', '_') + '/input')
            graph.add_node(target_id, kind='op', op='Placeholder', name=target_id, pb=None,
                           _out_ports={0: {'tensor_names': [tensor_name]}})
            target = Node(graph, target_id)
            for _, dst, key, data in list(graph.out_edges(node.id, keys=True, data=True)):
                if data.get('out', 0) == port and not data.get('control_flow_edge'):
                    graph.remove_edge(node.id, dst, key)
                    graph.add_edge(target_id, dst, **dict(data, out=0))
            node[CUT_BY_INPUT] = True
        if spec.shape is not None:
            target['user_shape'] = spec.shape
        if spec.dtype is not None:
            target['user_dtype'] = spec.dtype
        if spec.value is not None:
            target['user_value'] = spec.value


def _check_output_port(graph: Graph, node: Node, port) -> None:
    """``--output name:port`` must name an output the node's op has (TF's registry numbers them)."""
    pb = node.soft_get('pb', None)
    if not port or pb is None:
        return
    library = graph.graph.get('tf_library')
    functions = {f.signature.name: f for f in library.function} if library is not None else {}
    try:
        count = sum(n for _, n in output_arg_offsets(pb, functions, '--output').values())
    except Error:
        return  # an op mo does not know: the conversion reports it
    if port >= count:
        name = node.soft_get('name', node.id)
        raise UsageError('--output: node "{}" ({}) has {} output{}, so "{}:{}" names none', name, pb.op, count,
                         '' if count == 1 else 's', name, port,
                         hint='its outputs are {}'.format(', '.join(
                             '"{}:{}"'.format(name, k) for k in range(count))) if count else None)


def _reads_a_frozen_variable(graph: Graph, node_id, data) -> bool:
    """An unread ``ReadVariableOp`` turned Identity of a Const: what freezing leaves of a variable read
    whose readers were in a function (a loop body takes the Const itself). Not a model output when the
    model has others; ``--output`` can still name it."""
    if data.get('op') not in ('Identity', 'ReadVariableOp'):
        return False
    if not str(data.get('name', node_id)).rsplit('/', 1)[-1].startswith('ReadVariableOp'):
        return False
    sources = [s for s, _, d in graph.in_edges(node_id, data=True) if not d.get('control_flow_edge')]
    return len(sources) == 1 and graph.nodes[sources[0]].get('op') == 'Const'


def _has_no_outputs(data: dict) -> bool:
    """An op TF's registry gives no outputs (NoOp, Assert, ...)."""
    return output_arg_table().get(data.get('op')) == []


def _is_model_output(graph: Graph, node_id) -> bool:
    """Whether ``node_id`` is an output of a model whose outputs nobody named: no op reads its value, and it is
    not there only to run before another op. A node read through control edges alone is an output only when one
    of those readers is a sink without outputs (``tf.group``'s NoOp: what a TF1 graph runs to fetch the node);
    one whose control readers compute (the Identity of an Assert guard, which TF makes the predicate of the
    next ``tf.cond`` wait for) is not: made an output, it would be a model output TF's function does not have."""
    readers = graph.consumer_ids(node_id)  # the adjacency itself: this runs for every node of the model
    for reader in readers:  # nearly every node has a reader of its value: the first one answers
        if any(not attrs.get('control_flow_edge') for attrs in graph.edges_between(node_id, reader).values()):
            return False
    return not readers or any(not graph.consumer_ids(r) and _has_no_outputs(graph.node_attrs(r)) for r in readers)


class TFAddResults(LoadReplacementPattern):
    """Puts a Result on every model output: --output tensors, or every unconsumed op output."""
    id = 'TFAddResults'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        outputs = graph.graph.get('explicit_outputs')
        if outputs is None:
            outputs = []
            without_outputs = {op for op, args in output_arg_table().items() if args == []}  # see _has_no_outputs
            for node_id, data in list(graph.node_items()):
                op = data.get('op')
                if data.get('kind') != 'op' or op in _NOT_OUTPUTS or op == 'Result' or op in without_outputs \
                        or data.get(CUT_BY_INPUT):
                    continue
                if _is_model_output(graph, node_id):
                    outputs.append((node_id, 0))
            real = [(n, p) for n, p in outputs if not _reads_a_frozen_variable(graph, n, graph.nodes[n])]
            outputs = real or outputs
        if not outputs:
            raise Error('The model has no outputs; name them with --output')
        for node_id, port in outputs:
            source = Node(graph, node_id)
            # what only follows the chosen outputs goes with the clean-up below (not by cutting the edges after
            # each: one chosen output may be computed from another)
            result = Result(graph, {'name': graph.unique_id('{}/sink_port_{}'.format(source.soft_get('name'), port))})
            result_node = result.create_node()
            source.out_port(port).connect(result_node.in_port(0))
            self.match_count += 1
        removed = graph.clean_up(undead_node_types=())
        log.debug('TFAddResults: {} nodes not needed for the outputs were removed'.format(removed))


class TFExtractor(LoadReplacementPattern):
    """Gives every TensorFlow node its mo op through the registered extractors.

    Op types no extractor knows are reported together, each with a count and its first nodes.
    """
    id = 'TFExtractor'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFAddResults]

    def find_and_replace_pattern(self, graph: Graph):
        todo, unknown = extractors_of_nodes(graph, 'tf')
        if unknown:
            parts = ['{} ({} node{}: {}{})'.format(op, len(names), 's' if len(names) > 1 else '',
                                                   ', '.join(names[:3]), ', ...' if len(names) > 3 else '')
                     for op, names in sorted(unknown.items())]
            raise Error('The model has operations mo cannot convert: {}', '; '.join(parts),
                        hint=unsupported_op_hint(sorted(unknown)[0], 'front/tf/'))
        for node_id, extractor in todo:
            node = Node(graph, node_id)
            attrs = graph.node_attrs(node_id)
            tf_op = attrs['op']
            # a node the loader made (an input at an --input cut or a queue's) has no TF names of its own:
            # the user's tensor names it carries are its only ones
            names = tf_tensor_names(attrs.get('name', node_id), output_ports(node)) \
                if attrs.get('pb') is not None else {}
            if not extractor.extract(node):
                raise Error('Node "{}" ({}) could not be extracted', node.soft_get('name', node_id), tf_op)
            attrs = graph.node_attrs(node_id)  # an extractor may have replaced the dict
            attrs['tf_op'] = tf_op
            attrs['extracted'] = True
            for port, port_names in names.items():
                # before the names of what load-phase folding bypassed and the signature's names
                node.out_port(port).add_tensor_names(port_names, first=True)
            self.match_count += 1
        self._release_graph_def(graph)

    @staticmethod
    def _release_graph_def(graph: Graph):
        """Drop every reference into the parsed GraphDef: its buffers are as big as the model.

        After extraction nothing reads the NodeDefs; the weights are numpy arrays of their own.
        """
        for _, data in graph.node_items():
            if 'pb' in data:
                data.pop('pb')
                data.pop('pb_value', None)
        for key in ('tf_versions', 'tf_library', 'tf_debug_info'):
            graph.graph.pop(key, None)
        release_free_heap()
