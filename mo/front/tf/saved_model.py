"""SavedModels, meta graphs and checkpoints, frozen into a GraphDef without TensorFlow.

Whatever the source, the result is a ``FrozenModel``: a GraphDef holding only what the chosen
outputs need, in which every variable has become a ``Const`` whose value is a numpy view of the
checkpoint's mapped shard (``contents``: the loader wraps those bytes instead of the message's).

* TF2 SavedModel: a signature's outputs are outputs of a ``StatefulPartitionedCall`` of the
  signature function; the call's trailing inputs are the function's captures, and the
  ``SavedObjectGraph`` says which object each one is (``concrete_functions[f].bound_inputs``). A
  variable object's checkpoint key is found at the same node id of the checkpoint's own object
  graph (``TrackableObjectGraph``, attribute ``VARIABLE_VALUE``).
* TF1 (SavedModel, ``.meta`` + checkpoint, GraphDef + checkpoint): a ``VariableV2`` (or
  ``VarHandleOp``) is saved under the key its saver's ``RestoreV2`` restores it from, by default
  its node name.

``ReadVariableOp`` becomes ``Identity`` and ``ResourceGather`` becomes ``GatherV2`` (at top
level and in every library function), since their resource input is now the value itself.
"""
import contextlib
import os

import numpy as np

from mo.front.tf import dtypes
from mo.front.tf.node_def import parse_input
from mo.front.tf.proto import GraphDef, MetaGraphDef, NodeDef, SavedModel, TrackableObjectGraph
from mo.front.tf.tensor import shape_proto
from mo.front.tf.tensor_bundle import OBJECT_GRAPH_KEY, BundleReader
from mo.pipeline import progress
from mo.utils.error import Error, UsageError

VARIABLE_OPS = ('VariableV2', 'Variable', 'VarHandleOp')
#: ops of a TF1 graph that are never its outputs: initialisation, saving, restoring
_NOT_OUTPUTS = ('NoOp', 'Const', 'Assert', 'Placeholder', 'Assign', 'AssignVariableOp', 'VarIsInitializedOp',
                'IsVariableInitialized', 'SaveV2', 'RestoreV2', 'MergeV2Checkpoints')
_CALL_OPS = ('StatefulPartitionedCall', 'PartitionedCall')
_VARIABLE_VALUE = 'VARIABLE_VALUE'


class FrozenModel:
    """A model with its variables turned into constants.

    ``graph_def``: the frozen GraphDef (variable Consts have dtype and shape but no data);
    ``contents``: ``{Const name: memoryview of its bytes}``, views of the checkpoint shards;
    ``aliases``: ``{node name: {port: [extra tensor names]}}`` (a signature's input and output
    names); ``outputs``: the output node names in signature order (None: every dangling output).
    """

    def __init__(self, graph_def, contents, aliases=None, outputs=None):
        self.graph_def = graph_def
        self.contents = contents
        self.aliases = aliases or {}
        self.outputs = outputs

    def materialized(self):
        """The GraphDef with every variable's bytes copied into its Const (for GraphDef writers)."""
        graph_def = GraphDef()
        graph_def.CopyFrom(self.graph_def)
        for node in graph_def.node:
            if node.name in self.contents:
                node.attr['value'].tensor.tensor_content = bytes(self.contents[node.name])
        return graph_def


# --- reading the protos ------------------------------------------------------------------------

def _read(path: str) -> bytes:
    try:
        with open(path, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        raise Error('Cannot read "{}": the file does not exist', path) from None
    except OSError as e:
        raise Error('Cannot read "{}": {}', path, e.strerror or e) from None


def read_saved_model(directory: str):
    """The ``SavedModel`` message of ``directory`` (``saved_model.pb`` or ``saved_model.pbtxt``)."""
    binary, text = os.path.join(directory, 'saved_model.pb'), os.path.join(directory, 'saved_model.pbtxt')
    if os.path.isfile(binary):
        progress.detail('reading saved_model.pb')
        try:
            return SavedModel.FromString(_read(binary))
        except Exception:  # noqa: B902 - protobuf's DecodeError and friends
            raise Error('Cannot read the SavedModel "{}": "{}" is truncated or corrupt', directory, binary) from None
    if os.path.isfile(text):
        from google.protobuf import text_format
        try:
            return text_format.Parse(_read(text).decode('utf-8'), SavedModel())
        except (text_format.ParseError, UnicodeDecodeError) as e:
            raise Error('Cannot read the SavedModel "{}": "{}" does not parse: {}', directory, text, e) from None
    if os.path.isfile(os.path.join(directory, 'saved_model.cpb')):
        raise Error('The SavedModel "{}" is in the chunked format (saved_model.cpb), which mo does not read',
                    directory, hint='save it again without experimental_image_format=True')
    raise Error('"{}" is not a SavedModel directory: it has no saved_model.pb', directory)


def read_meta_graph(path: str):
    data = _read(path)
    try:
        meta_graph = MetaGraphDef.FromString(data)
    except Exception:  # noqa: B902
        meta_graph = None
    if meta_graph is None or not meta_graph.HasField('graph_def'):
        try:
            from google.protobuf import text_format
            meta_graph = text_format.Parse(data.decode('utf-8'), MetaGraphDef())
        except Exception:  # noqa: B902 - neither binary nor text
            raise Error('Cannot read the meta graph "{}": it is not a MetaGraphDef (truncated, corrupt or another '
                        'kind of file)', path) from None
    return meta_graph


def select_meta_graph(saved_model, directory: str, tags: str):
    """The meta graph whose tag set is exactly ``tags`` (comma-separated)."""
    wanted = set(t.strip() for t in (tags or 'serve').split(',') if t.strip())
    available = []
    for meta_graph in saved_model.meta_graphs:
        have = set(meta_graph.meta_info_def.tags)
        if have == wanted:
            return meta_graph
        available.append(','.join(sorted(have)) or '(none)')
    raise UsageError('--saved_model_tags: the SavedModel "{}" has no meta graph tagged "{}"; it has: {}', directory,
                     ','.join(sorted(wanted)), '; '.join(available) or 'no meta graphs')


def select_signature(meta_graph, where: str, name: str):
    signatures = {k: v for k, v in meta_graph.signature_def.items() if not k.startswith('__')}
    name = name or 'serving_default'
    if name not in signatures:
        raise UsageError('--signature: {} has no signature "{}"; available: {}', where, name,
                         ', '.join(sorted(signatures)) or 'none')
    return signatures[name]


# --- freezing ----------------------------------------------------------------------------------

def _tensor(name: str, where: str):
    node, port = parse_input(name, where)
    if port is None:
        raise Error('{}: "{}" is not a tensor name', where, name)
    return node, port


def _capture_keys(graph_def, meta_graph, reader: BundleReader, needed) -> dict:
    """``{node name: checkpoint key}`` of the variables the needed calls capture (TF2)."""
    objects = meta_graph.object_graph_def
    if not len(objects.nodes):
        return {}
    if OBJECT_GRAPH_KEY not in reader:
        raise Error('The checkpoint "{}" has no object graph ({}), so its variables cannot be matched to the '
                    'SavedModel\'s', reader.prefix, OBJECT_GRAPH_KEY)
    trackable = TrackableObjectGraph.FromString(reader.tensor(OBJECT_GRAPH_KEY).item())
    keys = {}
    for node in graph_def.node:
        if node.name not in needed or node.op not in _CALL_OPS:
            continue
        function = node.attr['f'].func.name
        if function not in objects.concrete_functions:
            continue
        bound = list(objects.concrete_functions[function].bound_inputs)
        data_inputs = [text for text in node.input if not text.startswith('^')]
        if len(bound) > len(data_inputs):
            raise Error('Node "{}" calls "{}" with {} inputs, but the function captures {} objects', node.name,
                        function, len(data_inputs), len(bound))
        for text, object_id in zip(data_inputs[len(data_inputs) - len(bound):], bound):
            source = parse_input(text, node.name)[0]
            obj = objects.nodes[object_id] if 0 <= object_id < len(objects.nodes) else None
            kind = obj.WhichOneof('kind') if obj is not None else None
            if kind == 'constant':
                continue  # a captured constant is a Const of the graph already
            if kind != 'variable':
                raise Error('Function "{}" captures object {} ({}), which mo cannot convert (only variables and '
                            'constants)', function, object_id, kind or 'unknown')
            attributes = trackable.nodes[object_id].attributes if object_id < len(trackable.nodes) else ()
            key = next((a.checkpoint_key for a in attributes if a.name == _VARIABLE_VALUE), None)
            if key is None:
                raise Error('Variable "{}" is not in the checkpoint "{}" (object {} has no saved value)',
                            obj.variable.name, reader.prefix, object_id)
            keys[source] = (key, obj.variable.name or source)
    return keys


def saver_keys(graph_def) -> dict:
    """``{variable node: (checkpoint key, slice spec)}`` as the graph's own TF1 saver restores them.

    A ``Saver`` may store a variable under any name (``var_list={'key': v}``); its restore ops say
    which: ``RestoreV2`` reads the keys of its ``tensor_names`` Const, and output i is assigned
    (``Assign``/``AssignVariableOp``, maybe through an Identity) to the variable. The values are
    ``(key, slice spec)``: a part of a partitioned variable restores a slice of the saved tensor
    (``shape_and_slices``, e.g. ``"10 4 4,3:0,4"``; empty for the whole).
    """
    restores = [node for node in graph_def.node if node.op == 'RestoreV2']
    if not restores:  # a TF2 SavedModel's restore ops are in its functions
        return {}
    by_name = {node.name: node for node in graph_def.node}

    def strings(node, index):
        source = by_name.get(parse_input(node.input[index], node.name)[0]) if len(node.input) > index else None
        if source is None or source.op != 'Const':
            return []
        return [v.decode('utf-8', 'replace') for v in source.attr['value'].tensor.string_val]

    names = {}
    for node in restores:
        keys, specs = strings(node, 1), strings(node, 2)
        names[node.name] = [(key, specs[i] if i < len(specs) else '') for i, key in enumerate(keys)]

    def restored(text, depth=0):
        source, port = parse_input(text, '?')
        node = by_name.get(source)
        if node is None or port is None or depth > 4:
            return None
        if node.name in names:
            restores = names[node.name]
            return restores[port] if port < len(restores) else None
        if node.op == 'Identity' and node.input:
            return restored(node.input[0], depth + 1)
        return None

    keys = {}
    for node in graph_def.node:
        if node.op in ('Assign', 'AssignVariableOp') and len(node.input) >= 2:
            key = restored(node.input[1])
            if key is not None:
                keys[parse_input(node.input[0], node.name)[0]] = key
    return keys


def _restored_part(value: np.ndarray, spec: str, what: str) -> np.ndarray:
    """The part of ``value`` a saver's slice spec (``"10 4 4,3:0,4"``: full shape, then
    ``start,length`` or ``-`` per dimension) restores; all of it for an empty spec."""
    if not spec.strip():
        return value
    words = spec.split()
    try:
        full = [int(w) for w in words[:-1]]
        region = tuple(slice(None) if part == '-' else slice(int(part.split(',')[0]),
                                                               int(part.split(',')[0]) + int(part.split(',')[1]))
                       for part in words[-1].split(':'))
    except (ValueError, IndexError):
        raise Error('Variable "{}": the saver restores it with a slice spec mo cannot read: "{}"', what,
                    spec) from None
    if list(value.shape) != full or len(region) != len(full):
        raise Error('Variable "{}": the saver restores a slice of a {} tensor, the checkpoint holds {}', what, full,
                    list(value.shape))
    return np.ascontiguousarray(value[region])


def _needed_nodes(graph_def, outputs) -> set:
    """Names of the nodes the ``outputs`` (node names) depend on, control inputs included."""
    by_name = {node.name: node for node in graph_def.node}
    needed, stack = set(), list(outputs)
    while stack:
        name = stack.pop()
        if name in needed:
            continue
        if name not in by_name:
            raise Error('The graph has no node "{}"', name)
        needed.add(name)
        stack.extend(parse_input(text, name)[0] for text in by_name[name].input)
    return needed


def _variable_const(node, value: np.ndarray, tf_dtype: int):
    const = NodeDef(name=node.name, op='Const', device=node.device)
    const.attr['dtype'].type = tf_dtype
    tensor = const.attr['value'].tensor
    tensor.dtype = tf_dtype
    tensor.tensor_shape.CopyFrom(shape_proto(value.shape))
    return const


def _rewrite_resource_reads(nodes, new_node):
    """ReadVariableOp -> Identity, ResourceGather -> GatherV2 (axis 0) in a list of NodeDefs;
    ``new_node(name, op)`` adds a NodeDef next to them and returns it with the reference to use."""
    for node in list(nodes):
        if node.op == 'ReadVariableOp':
            dtype = node.attr['dtype'].type
            node.op = 'Identity'
            del node.attr['dtype']
            node.attr['T'].type = dtype
        elif node.op == 'ResourceGather':
            batch_dims = node.attr['batch_dims'].i if 'batch_dims' in node.attr else 0
            axis, reference = new_node(node.name + '/axis', 'Const')
            axis.attr['dtype'].type = dtypes.DT_INT32
            axis.attr['value'].tensor.dtype = dtypes.DT_INT32
            axis.attr['value'].tensor.int_val.append(int(batch_dims))
            data_inputs = [text for text in node.input if not text.startswith('^')]
            controls = [text for text in node.input if text.startswith('^')]
            del node.input[:]
            node.input.extend(data_inputs[:2] + [reference] + controls)
            node.op = 'GatherV2'
            node.attr['Tparams'].type = node.attr['dtype'].type
            node.attr['Taxis'].type = dtypes.DT_INT32
            for name in ('dtype', 'validate_indices'):
                if name in node.attr:
                    del node.attr[name]
            node.attr['batch_dims'].i = batch_dims


def _rewrite_library(library):
    for function in library.function:
        nodes = list(function.node_def)
        reads = {node.name for node in nodes if node.op == 'ReadVariableOp'}
        if not reads and not any(node.op == 'ResourceGather' for node in nodes):
            continue

        def new_node(name, op, function=function):
            node = function.node_def.add(name=name, op=op)
            return node, '{}:output:0'.format(name)
        _rewrite_resource_reads(nodes, new_node)
        if not reads:
            continue
        # inside a function an output is named by its argument: ReadVariableOp's "value" is
        # Identity's "output"
        def renamed(text):
            node, sep, rest = text.partition(':value:')
            return node + ':output:' + rest if sep and node.lstrip('^') in reads else text
        for node in nodes:
            for i, text in enumerate(node.input):
                if ':value:' in text:
                    node.input[i] = renamed(text)
        for key, text in list(function.ret.items()):
            function.ret[key] = renamed(text)


def freeze(graph_def, reader: BundleReader, outputs, capture_keys=None, aliases=None, output_names=None,
           needed=None):
    """The ``FrozenModel`` of ``graph_def`` cut to ``outputs`` (``[(node, port)]``).

    Variables are read from ``reader``: those in ``capture_keys`` (``{node: (key, variable
    name)}``) under that key, other variable nodes under the key the graph's saver restores them
    from (``saver_keys``), else their own name. ``output_names`` (one
    per output) adds an Identity node of that name on each output, carrying the graph's tensor
    name too. ``needed``: the nodes the outputs depend on (``_needed_nodes``), if the caller has them.
    """
    capture_keys = capture_keys or {}
    aliases = dict(aliases or {})
    if needed is None:
        needed = _needed_nodes(graph_def, [node for node, _ in outputs])
    frozen = GraphDef()
    if graph_def.HasField('versions'):
        frozen.versions.CopyFrom(graph_def.versions)
    # the variables' checksums are verified on a second thread while the graph is rewritten
    with reader.checks_in_background() if reader is not None else contextlib.nullcontext():
        contents = _freeze_nodes(graph_def, frozen, reader, needed, capture_keys, saver_keys(graph_def))
        if graph_def.HasField('library'):
            frozen.library.CopyFrom(graph_def.library)
            _rewrite_library(frozen.library)

        def new_node(name, op):
            created = frozen.node.add(name=name, op=op)
            return created, name

        _rewrite_resource_reads(list(frozen.node), new_node)
        _retype_captures(frozen, set(contents))
    frozen_outputs = None
    if output_names:
        taken = {node.name for node in frozen.node}
        frozen_outputs = []
        for (node, port), name in zip(outputs, output_names):
            identity_name = name if name not in taken else '{}/signature_output'.format(name)
            taken.add(identity_name)
            tensor_name = node if port == 0 else '{}:{}'.format(node, port)
            dtype = _output_dtype(graph_def, node, port)
            identity = frozen.node.add(name=identity_name, op='Identity', input=[tensor_name])
            if dtype is not None:
                identity.attr['T'].type = dtype
            # the signature's key is the output's name, as ovc gives it (the Identity's own names are TF's ``op:0``)
            aliases[identity_name] = {0: ['{}:{}'.format(node, port), name]}
            frozen_outputs.append(identity_name)
    return FrozenModel(frozen, contents, aliases, frozen_outputs)


def _freeze_nodes(graph_def, frozen, reader, needed, capture_keys, restored_as) -> dict:
    """Copy the ``needed`` nodes of ``graph_def`` into ``frozen``, variables as constants of their
    values; return ``{node: the value's bytes}`` of those constants."""
    contents = {}
    variables = sum(1 for node in graph_def.node if node.name in needed and
                    (node.name in capture_keys or node.op in VARIABLE_OPS))
    read = 0
    for node in graph_def.node:
        if node.name not in needed:
            continue
        if node.name in capture_keys or node.op in VARIABLE_OPS:
            read += 1
            progress.detail('reading variable {} of {}'.format(read, variables))
            key, spec = restored_as.get(node.name, (node.name, ''))
            key, what = capture_keys.get(node.name, (key, node.name))
            if reader is None:
                raise UsageError('Node "{}" is a variable ({}); give its checkpoint with --input_checkpoint',
                                 node.name, node.op)
            entry = reader.entry(key, what)
            value = _restored_part(reader.tensor(key, what), spec, what)
            if value.dtype == object:
                raise Error('Variable "{}" holds strings, which mo does not convert', what)
            frozen.node.append(_variable_const(node, value, entry.dtype))
            contents[node.name] = value.reshape(-1).view(np.uint8).data if value.size else b''
        else:
            frozen.node.add().CopyFrom(node)
    return contents


def _retype_captures(graph_def, constants):
    """Calls whose resource inputs are now variable values: the call's ``Tin`` and the function's
    argument (and so on into nested calls) take the value's dtype, so TensorFlow imports the result.

    One pass over the top-level nodes, then one pass over a function's nodes per batch of its
    arguments that changed (a Keras model's signature function captures every variable: its
    thousand arguments are retyped in a single walk of its body).
    """
    functions = {f.signature.name: f for f in graph_def.library.function}
    dtype_of = {node.name: node.attr['dtype'].type for node in graph_def.node if node.name in constants}
    done = set()
    changed_args = {}   # function name -> {argument name: new dtype}, not yet propagated into its body
    to_visit = []

    def retype_argument(function_name, index, dtype):
        if (function_name, index) in done or function_name not in functions:
            return
        done.add((function_name, index))
        arguments = functions[function_name].signature.input_arg
        if index >= len(arguments) or arguments[index].type != dtypes.DT_RESOURCE:
            return
        arguments[index].type = dtype
        if function_name not in changed_args:
            changed_args[function_name] = {}
            to_visit.append(function_name)
        changed_args[function_name][arguments[index].name] = dtype

    for node in graph_def.node:
        if node.op in _CALL_OPS:
            _retype_call(node, lambda text, node=node: dtype_of.get(parse_input(text, node.name)[0]),
                         retype_argument)
    while to_visit:
        function_name = to_visit.pop()
        arguments = changed_args.pop(function_name)
        for node in functions[function_name].node_def:
            if node.op in _CALL_OPS:
                _retype_call(node, arguments.get, retype_argument)


def _retype_call(node, new_dtype, retype_argument):
    """Set the ``Tin`` of each data input of call ``node`` for which ``new_dtype(input text)``
    gives a dtype, and retype the callee's argument at that position."""
    position = 0
    for text in node.input:
        if text.startswith('^'):
            continue
        dtype = new_dtype(text)
        if dtype is not None:
            tin = node.attr['Tin'].list.type
            if position < len(tin) and tin[position] == dtypes.DT_RESOURCE:
                tin[position] = dtype
            retype_argument(node.attr['f'].func.name, position, dtype)
        position += 1


def _output_dtype(graph_def, node_name, port):
    """The dtype of ``node_name:port`` when the node states it (``T``, ``dtype`` or ``Tout``)."""
    for node in graph_def.node:
        if node.name != node_name:
            continue
        if 'Tout' in node.attr and len(node.attr['Tout'].list.type) > port:
            return node.attr['Tout'].list.type[port]
        for name in ('T', 'dtype'):
            if name in node.attr and node.attr[name].WhichOneof('value') == 'type':
                return node.attr[name].type
    return None


def _signature_inputs(graph_def, signature, where):
    """The extra tensor names a SignatureDef's inputs give (``{node: {port: [names]}}``).

    An input that is not a Placeholder (a TF1 signature may feed any tensor) becomes one: a new
    Placeholder named after the input takes over the tensor's readers in ``graph_def`` (changed
    in place), so that what computed the tensor before is cut off.
    """
    aliases = {}
    for name in sorted(signature.inputs):
        info = signature.inputs[name]
        if info.WhichOneof('encoding') != 'name':
            raise Error('{}: input "{}" is a sparse or composite tensor, which mo does not convert', where, name)
        node, port = _tensor(info.name, where)
        if not _is_placeholder(graph_def, node):
            original = '{}:{}'.format(node, port)
            node, port = _cut_at(graph_def, node, port, name, info), 0
            aliases.setdefault(node, {}).setdefault(port, []).append(original)
        aliases.setdefault(node, {}).setdefault(port, []).append(name)
    return aliases


def _is_placeholder(graph_def, name) -> bool:
    return any(n.name == name and n.op in ('Placeholder', 'PlaceholderV2') for n in graph_def.node)


def _cut_at(graph_def, node_name, port, input_name, info) -> str:
    """A Placeholder in place of ``node_name:port`` for its readers; returns its name."""
    taken = {n.name for n in graph_def.node}
    if node_name not in taken:
        raise Error('Signature input "{}" names tensor "{}:{}", but the graph has no node "{}"', input_name,
                    node_name, port, node_name)
    name = input_name if input_name not in taken else '{}/signature_input'.format(input_name)
    references = {'{}:{}'.format(node_name, port)} | ({node_name} if port == 0 else set())
    for node in graph_def.node:
        for i, text in enumerate(node.input):
            if text in references:
                node.input[i] = name
    placeholder = graph_def.node.add(name=name, op='Placeholder')
    placeholder.attr['dtype'].type = info.dtype
    placeholder.attr['shape'].shape.CopyFrom(info.tensor_shape)
    return name
def _signature_outputs(signature, where):
    """``(outputs, output names)`` of a SignatureDef: ``(node, port)`` in the order of the names."""
    outputs, output_names = [], []
    for name in sorted(signature.outputs):
        info = signature.outputs[name]
        if info.WhichOneof('encoding') != 'name':
            raise Error('{}: output "{}" is a sparse or composite tensor, which mo does not convert', where, name)
        outputs.append(_tensor(info.name, where))
        output_names.append(name)
    return outputs, output_names


def load_saved_model(directory: str, tags: str = None, signature: str = None) -> FrozenModel:
    """Freeze signature ``signature`` (default ``serving_default``) of the meta graph tagged ``tags``
    (default ``serve``) of the SavedModel in ``directory``."""
    saved_model = read_saved_model(directory)
    meta_graph = select_meta_graph(saved_model, directory, tags)
    where = 'the SavedModel "{}"'.format(directory)
    chosen = select_signature(meta_graph, where, signature)
    graph_def = meta_graph.graph_def
    aliases = _signature_inputs(graph_def, chosen, where)
    outputs, output_names = _signature_outputs(chosen, where)
    prefix = os.path.join(directory, 'variables', 'variables')
    needed = _needed_nodes(graph_def, [node for node, _ in outputs])
    # a model without variables may come without a variables/ directory
    reader = BundleReader(prefix) if _has_variables(graph_def, needed, meta_graph) else None
    keys = _capture_keys(graph_def, meta_graph, reader, needed) if reader is not None else {}
    return freeze(graph_def, reader, outputs, keys, aliases, output_names, needed)


def _has_variables(graph_def, needed, meta_graph) -> bool:
    """Whether the ``needed`` nodes read variables: variable nodes, or calls capturing objects."""
    if any(node.name in needed and node.op in VARIABLE_OPS for node in graph_def.node):
        return True
    functions = meta_graph.object_graph_def.concrete_functions
    return any(node.name in needed and node.op in _CALL_OPS and node.attr['f'].func.name in functions and
               len(functions[node.attr['f'].func.name].bound_inputs) for node in graph_def.node)


def dangling_outputs(graph_def):
    """``[(node, 0)]`` for the nodes nothing reads (what a frozen graph's outputs are taken to be)."""
    consumed = {parse_input(text, node.name)[0] for node in graph_def.node for text in node.input}
    skip = set(_NOT_OUTPUTS) | set(VARIABLE_OPS)
    return [(node.name, 0) for node in graph_def.node if node.name not in consumed and node.op not in skip
            and not node.name.startswith(('save/', 'init'))]


def load_graph_with_checkpoint(graph_def, prefix: str, outputs=None) -> FrozenModel:
    """Freeze a TF1 GraphDef whose variables are in the checkpoint ``prefix``; ``outputs``
    (``[(node, port)]``, default: the dangling nodes) decide what is kept."""
    reader = BundleReader(prefix)
    return freeze(graph_def, reader, outputs or dangling_outputs(graph_def))


def load_meta_graph(path: str, prefix: str = None, outputs=None) -> FrozenModel:
    """Freeze a TF1 ``.meta`` file with its checkpoint (default: ``path`` without ``.meta``)."""
    meta_graph = read_meta_graph(path)
    if prefix is None:
        prefix = path[:-len('.meta')] if path.endswith('.meta') else path
        if not os.path.isfile(prefix + '.index'):
            raise UsageError('The meta graph "{}" has no checkpoint beside it ("{}.index")', path, prefix,
                             hint='give the checkpoint with --input_checkpoint PREFIX')
    if prefix.endswith('.index'):
        prefix = prefix[:-len('.index')]
    return load_graph_with_checkpoint(meta_graph.graph_def, prefix, outputs)
