"""Load phase for TensorFlow: read the GraphDef, cut it at --input/--output, add Results, extract ops."""
import logging as log

from extensions.back.signature_names import SIGNATURE_NAMES  # the signature's names, which --input/--output accept
from extensions.load.preprocessing import InputPreprocessing
from mo.utils.heap import release_free_heap
from mo.front.extractor import extractors_of_nodes, unknown_ops_error
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.tf import model_source
from mo.front.tf.graphdef_io import parse_graph_def_bytes, read_graph_def_in_parts
from mo.front.common.input_spec import input_specs, parse_output
from mo.front.tf.loader import graph_def_to_graph
from mo.front.tf.op_signatures import output_arg_offsets, output_arg_table
from mo.front.tf.wire import const_contents
from mo.graph.graph import Graph, Node
from mo.graph.port import DEBUG_INFO, add_names_to_record, own_port_table, writable_port_record
from mo.ops.result import Result
from mo.utils.class_registration import is_builtin
from mo.utils.error import Error, UsageError
from mo.utils.replacement import for_framework

#: node attr: an --input cut took this node's readers; left unread, it is not a model output
CUT_BY_INPUT = '_cut_by_input'

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
    """TF's names for the given outputs of a node, ``name:k`` (TensorFlow's tensor names, as ovc gives them: a
    bare ``name`` is the op's, and would be the one ``get_any_name()`` returns)."""
    return {port: ['{}:{}'.format(node_name, port)] for port in sorted(ports)}


def _file_bytes(path) -> bytes:
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError:
        return b''


#: op types of variables, whose values a GraphDef does not hold
_VARIABLE_OPS = frozenset(('VariableV2', 'Variable', 'VarHandleOp'))


def _op_types(nodes) -> set:
    """The op types of the NodeDefs ``nodes`` (one read of each node's op for the scans below)."""
    return {node.op for node in nodes}


def _refuse_variables(nodes, path, op_types: set):
    """A GraphDef with variables needs their values: say which flag gives them."""
    if op_types.isdisjoint(_VARIABLE_OPS):
        return
    for node in nodes:
        if node.op in _VARIABLE_OPS:
            raise UsageError('"{}" is not frozen: node "{}" is a variable ({})', path, node.name, node.op,
                             hint='give its checkpoint with --input_checkpoint PREFIX')


def _has_control_flow(op_types: set) -> bool:
    from mo.front.tf.control_flow import CONTROL_FLOW_OPS
    return not op_types.isdisjoint(CONTROL_FLOW_OPS)


def raise_lowered_control_flow(graph_def, op_types: set = None) -> None:
    """Lowered loops and conditionals become While/If nodes, so that the graph is built from the
    functional form only (see ``mo.front.tf.control_flow``). One scan when there is none (none with
    ``op_types``, the op types of the GraphDef's nodes)."""
    from mo.front.tf.control_flow import CONTROL_FLOW_OPS, has_control_flow, raise_control_flow
    if has_control_flow(graph_def) if op_types is None else not op_types.isdisjoint(CONTROL_FLOW_OPS):
        count = raise_control_flow(graph_def)
        log.info('[ mo ] raised {} lowered loop(s) and conditional(s) to While/If'.format(count))


class TFLoader(LoadReplacementPattern):
    """Reads ``--input_model`` (binary or text GraphDef) into the graph."""
    id = 'TFLoader'
    graph_condition = [_is_tf]
    auto_clean_up = False  # no Results yet: there is nothing to keep alive

    def find_and_replace_pattern(self, graph: Graph):
        if graph.number_of_nodes():
            return  # the caller loaded the model already (API use)
        params = _params(graph)
        contents = nodes = None
        weights_apart = False
        if params.get('graph_def_bytes') is not None:
            graph_def = parse_graph_def_bytes(params['graph_def_bytes'], params.get('input_model') or '<bytes>')
        else:
            frozen = model_source.load(params)  # SavedModels, meta graphs, checkpoints
            if frozen is not None:
                self._load_frozen(graph, frozen)
                return
            try:
                # a binary file's nodes come in parts, whose memory extraction gives back node by node; a smaller
                # one is parsed without its weights, which stay in the file's bytes (numpy views)
                graph_def, nodes, data, binary, largest_node, contents = read_graph_def_in_parts(
                    params['input_model'], weights_apart_from=_VIEWED_CONST_BYTES)
            except Error as exc:  # maybe a MetaGraphDef or a SavedModel proto: look closer
                self._load_frozen(graph, model_source.load_other_message(params, _file_bytes(params['input_model']),
                                                                         exc))
                return
            weights_apart = contents is not None
            if not weights_apart and binary and (largest_node is None or largest_node >= _VIEWED_CONST_BYTES):
                contents = const_contents(data, min_node_bytes=_VIEWED_CONST_BYTES)
        op_types = _op_types(graph_def.node if nodes is None else nodes)
        if weights_apart and _has_control_flow(op_types):
            # raising lowered loops moves NodeDefs into functions, which are converted from their NodeDefs alone
            graph_def = parse_graph_def_bytes(data, params['input_model'], text=False)
        if params.get('graph_def_bytes') is None:  # a model read from a file must be frozen
            _refuse_variables(graph_def.node if nodes is None else nodes, params['input_model'], op_types)
        if nodes is not None and _has_control_flow(op_types):  # raising it rewrites one whole GraphDef
            graph_def.node.extend(nodes)
            nodes = None
        raise_lowered_control_flow(graph_def, op_types)
        # nodes in an order that depends on the graph, not the file (a cycle is an Error naming it)
        graph_def_to_graph(graph_def, graph, node_order=nodes, const_contents=contents, canonical=True)
        self.match_count = graph.graph['source_nodes'] = graph.number_of_nodes()

    def _load_frozen(self, graph: Graph, frozen):
        """A model frozen from variables: its Consts are views of the checkpoint, its signature names
        become extra tensor names, its signature outputs the model's outputs."""
        raise_lowered_control_flow(frozen.graph_def)  # TF1 meta graphs and checkpoints have lowered loops
        graph_def_to_graph(frozen.graph_def, graph, const_contents=frozen.contents, canonical=True)
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
            tensor_name = '{}:{}'.format(spec.name, port)
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
    auto_clean_up = False  # it cleans up itself, and only when something is dead

    def run_after(self):
        return [TFInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        outputs = graph.graph.get('explicit_outputs')
        sinks_without_result = None  # of a model whose outputs nobody named: the sinks that get no Result
        if outputs is None:
            outputs, sinks_without_result = self._unnamed_outputs(graph)
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
        if sinks_without_result is not None and not sinks_without_result:
            # every node of an acyclic graph leads to a sink, and every sink has a Result: nothing is dead
            graph.clean_version = graph.version
            return
        removed = graph.clean_up(undead_node_types=())
        log.debug('TFAddResults: {} nodes not needed for the outputs were removed'.format(removed))

    @staticmethod
    def _unnamed_outputs(graph: Graph):
        """``([(node id, 0)] of the model outputs, whether some node read by nothing gets no Result)`` when nobody
        named the outputs: every op output nothing reads (see ``_is_model_output``), in the graph's order."""
        outputs = []
        sinks_without_result = False
        without_outputs = {op for op, args in output_arg_table().items() if args == []}  # see _has_no_outputs
        out_adjacency = graph.out_adjacency  # the adjacency itself: this visits every node of the model
        for node_id, data in graph.node_items():
            consumers = out_adjacency(node_id)
            if consumers and _has_a_data_reader(consumers):
                continue  # nearly every node: read by the next one
            op = data.get('op')
            if data.get('kind') != 'op' or op in _NOT_OUTPUTS or op == 'Result' or op in without_outputs \
                    or data.get(CUT_BY_INPUT):
                sinks_without_result = sinks_without_result or (not consumers and op != 'Result')
                continue
            if _is_model_output(graph, node_id):
                outputs.append((node_id, 0))
            elif not consumers:
                sinks_without_result = True
        real = [(n, p) for n, p in outputs if not _reads_a_frozen_variable(graph, n, graph.nodes[n])]
        if real and len(real) != len(outputs):
            sinks_without_result = True  # the dropped readers are sinks
        return real or outputs, sinks_without_result


def _has_a_data_reader(consumers: dict) -> bool:
    """Whether some edge of ``consumers`` (a node's ``{reader: {key: edge attrs}}``) carries data, not control."""
    for keyed in consumers.values():  # the first reader answers for nearly every node
        for attrs in keyed.values():
            if not attrs.get('control_flow_edge'):
                return True
    return False


def _read_outputs(consumers: dict):
    """``(the used data outputs, whether no edge holds fw_tensor_debug_info)`` of a front-phase op whose readers
    are ``consumers`` (``{reader: {key: edge attrs}}``), in one pass over its edges."""
    ports = set()
    plain = True
    for keyed in consumers.values():
        for attrs in keyed.values():
            if not attrs.get('control_flow_edge'):
                ports.add(attrs.get('out', 0))
                if plain and DEBUG_INFO in attrs and attrs[DEBUG_INFO]:
                    plain = False
    return ports, plain


def _name_outputs_first(node_attrs: dict, node_name: str, ports) -> None:
    """Put TF's names of outputs ``ports`` of a node (see ``tf_tensor_names``) before the tensor names of their
    port records: what ``Port.add_tensor_names(names, first=True)`` does to a front-phase output whose edges
    hold no fw_tensor_debug_info records."""
    table = own_port_table(node_attrs, '_out_ports')
    for port in sorted(ports):
        names = ['{}:{}'.format(node_name, port)]
        if table.get(port) is None:  # the record ``Node.out_port`` makes, written to: a dict of its own
            table[port] = {'control_flow': False, 'tensor_names': names}
        else:
            add_names_to_record(writable_port_record(table, port), names, first=True)


#: a GraphDef of this many nodes or more leaves enough freed protobuf memory (~5 MB per 10^4 nodes) to be worth
#: handing back (``release_free_heap`` takes 5-15 ms; a loop's body is extracted again on every conversion of it)
_TRIM_AFTER_NODES = 10000

#: while a big model is extracted, the memory of its freed NodeDefs is handed back after every this many (see
#: ``mo.front.tf.wire.graph_def_in_parts``: a part's memory is freed when its last NodeDef is)
_TRIM_EVERY_NODES = 1 << 16


class TFExtractor(LoadReplacementPattern):
    """Gives every TensorFlow node its mo op through the registered extractors.

    Op types no extractor knows are reported together, each with a count and its first nodes.
    """
    id = 'TFExtractor'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFAddResults]

    def run_before(self):
        return [InputPreprocessing]  # the preprocessing flags act on the extracted inputs

    def find_and_replace_pattern(self, graph: Graph):
        todo, unknown = extractors_of_nodes(graph, 'tf')
        if unknown:
            raise unknown_ops_error(unknown, 'tf')
        # the loaders' front-phase graph (no data nodes): TF's names go straight into the port records
        direct = graph.phase == 'front' and not graph.count_by_attr('kind', 'data')
        out_adjacency, nodes, view = graph.out_adjacency, graph.node_attrs, Node.view  # runs for every node
        # each node's NodeDef goes once it is extracted, so that its memory goes while the graph grows (the built-in
        # extractors read their own node's only; a user's may read its inputs': then all go at the end). ``pb`` is no
        # indexed attribute: a plain dict pop
        release_early = all(is_builtin(extractor) for extractor in {extractor for _, extractor in todo})
        released = 0
        for node_id, extractor in todo:
            node = view(graph, node_id)
            attrs = nodes(node_id)
            tf_op = attrs['op']
            # a node the loader made (an input at an --input cut or a queue's) has no TF names of its own:
            # the user's tensor names it carries are its only ones
            ports, plain = _read_outputs(out_adjacency(node_id)) if attrs.get('pb') is not None else ((), True)
            if not extractor.extract(node):
                raise Error('Node "{}" ({}) could not be extracted', node.soft_get('name', node_id), tf_op)
            attrs = nodes(node_id)  # an extractor may have replaced the dict
            attrs['tf_op'] = tf_op
            attrs['extracted'] = True
            if release_early and dict.pop(attrs, 'pb', None) is not None:
                if 'pb_value' in attrs:  # Consts only
                    dict.pop(attrs, 'pb_value')
                released += 1
                if released % _TRIM_EVERY_NODES == 0:
                    release_free_heap()
            if ports:
                # before the names of what load-phase folding bypassed and the signature's names
                if direct and plain:
                    _name_outputs_first(attrs, attrs.get('name', node_id), ports)
                else:
                    for port, port_names in tf_tensor_names(attrs.get('name', node_id), ports).items():
                        node.out_port(port).add_tensor_names(port_names, first=True)
            self.match_count += 1
        self._release_graph_def(graph, released)

    @staticmethod
    def _release_graph_def(graph: Graph, released: int):
        """Drop every reference into the parsed GraphDef (the extracted nodes' NodeDefs went already, ``released``
        of them): its buffers are as big as the model.

        After extraction nothing reads the NodeDefs; the weights are numpy arrays of their own.
        """
        for _, data in graph.node_items():
            if 'pb' in data:
                del data['pb']
                released += 1
                if 'pb_value' in data:  # Consts only
                    del data['pb_value']
        for key in ('tf_versions', 'tf_library', 'tf_debug_info'):
            graph.graph.pop(key, None)
        if released >= _TRIM_AFTER_NODES:
            release_free_heap()
