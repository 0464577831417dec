"""Inline TensorFlow function calls: PartitionedCall / StatefulPartitionedCall bodies become graph nodes.

A frozen graph may keep (part of) the model in its function library (``graph.graph['tf_library']``,
a ``FunctionDefLibrary``) and call it from a ``PartitionedCall`` node. The extractors only see
top-level nodes, so every call is replaced by a copy of the function's body before anything
else looks at the graph:

* inlined nodes are named ``<call node name>/<body node name>``;
* inside a ``FunctionDef`` an input argument is referenced as ``arg_name`` and a node output as
  ``node:out_arg_name:index``; the output argument lists of the ops (generated from TensorFlow's
  op registry into ``mo/front/tf/op_output_args.json``) turn that into a flat output port;
* output ``k`` of the call (the ``k``-th output argument of the signature, see ``ret``) takes
  over the call node's consumers;
* calls inside a body are inlined the same way, recursively (the copies are calls themselves);
* a node whose op type is the name of a library function (a direct function call) is inlined too.
"""
import logging as log

from extensions.load.tf.loader import TFInputsOutputs, TFLoader, _is_tf
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.tf.node_def import control_edge_attrs, data_edge_attrs, format_input, op_node_attrs
from mo.front.tf.op_signatures import output_arg_offsets
from mo.front.tf.proto import FunctionDef, NodeDef
from mo.graph.graph import Graph
from mo.utils.error import Error

CALL_OPS = ('PartitionedCall', 'StatefulPartitionedCall')

#: calls nested deeper than this are taken for a recursive function
MAX_DEPTH = 64


def _called_function(graph: Graph, node_id, functions: dict):
    """The FunctionDef a call node runs, or None when the node is not a function call."""
    attrs = graph.node_attrs(node_id)
    pb = attrs.get('pb')
    if pb is None or attrs.get('kind') != 'op':
        return None
    return _function_of(attrs.get('op'), pb, functions, attrs.get('name', node_id))


def _function_of(op: str, pb, functions: dict, name: str):
    """The FunctionDef that a node of ``op`` (NodeDef ``pb``, node name ``name``) runs, or None."""
    if op in CALL_OPS:
        fname = pb.attr['f'].func.name if 'f' in pb.attr else ''
        if fname not in functions:
            raise Error('Node "{}" ({}) calls function "{}", which the graph\'s function library does not define',
                        name, op, fname)
        return functions[fname]
    return functions.get(op)


def _resolve_placeholders(pb: NodeDef, call_pb, where: str):
    """Attributes of a body node given as ``$name`` take the call node's attribute of that name."""
    for key in sorted(pb.attr.keys()):
        attr = pb.attr[key]
        if attr.WhichOneof('value') != 'placeholder':
            continue
        source = attr.placeholder
        if call_pb is None or source not in call_pb.attr:
            raise Error('{}: attribute "{}" of node "{}" refers to "${}", which the call does not set',
                        where, key, pb.name, source)
        attr.CopyFrom(call_pb.attr[source])


#: a NodeDef bigger than this is not serialized to rule out placeholders (a constant's tensor, say)
_SERIALIZED_CHECK_BYTES = 1 << 12


def _has_placeholder(nd: NodeDef) -> bool:
    """Whether an attribute of ``nd`` is a ``$name`` placeholder.

    A placeholder is field 9 of an AttrValue, a string: its tag is the single byte 0x4A (``J``). Most NodeDefs
    hold no such byte at all, and looking for it in the serialized node costs a fraction of reading each
    attribute through the protobuf map; only the nodes that do hold it are read attribute by attribute."""
    if nd.ByteSize() <= _SERIALIZED_CHECK_BYTES and b'J' not in nd.SerializeToString():
        return False
    return any(attr.WhichOneof('value') == 'placeholder' for attr in nd.attr.values())


def inline_call(graph: Graph, call_id, fdef, functions: dict) -> list:
    """Replace call node ``call_id`` by a copy of ``fdef``'s body; returns the ids of the new nodes."""
    call = graph.node_attrs(call_id)
    call_name = call.get('name', call_id)
    call_pb = call.get('pb')
    fname = fdef.signature.name
    where = 'Inlining function "{}" called by node "{}"'.format(fname, call_name)

    for arg in fdef.signature.input_arg:
        if arg.number_attr or arg.type_list_attr:
            raise Error('{}: input argument "{}" is a list of tensors, which mo does not inline', where, arg.name)
    data_inputs = {}
    control_sources = []
    for src, _, data in graph.in_edge_list(call_id):
        if data.get('control_flow_edge'):
            control_sources.append(src)
        else:
            data_inputs[data['in']] = (src, data.get('out', 0))
    args = {}
    for i, arg in enumerate(fdef.signature.input_arg):
        if i not in data_inputs:
            raise Error('{}: the call has no input {} for argument "{}"', where, i, arg.name)
        args[arg.name] = data_inputs[i]

    # copy the body's NodeDefs under the call's name
    placeholder_source = call_pb if call.get('op') not in CALL_OPS else None
    prefix = call_name + '/'
    body, ids = {}, {}  # body node name -> its NodeDef copy, its node id (the copy's name)
    # one copy of the whole body (upb copies a message tree at a fraction of the cost of a copy per node)
    copied = FunctionDef()
    copied.CopyFrom(fdef)
    for pb in copied.node_def:
        body_name = pb.name
        name = pb.name = prefix + body_name
        if name in graph:
            raise Error('{}: a node named "{}" exists already', where, name)
        if _has_placeholder(pb):
            _resolve_placeholders(pb, placeholder_source, where)
        body[body_name] = pb
        ids[body_name] = name
    offsets = {}

    def resolve(text):
        """(node id, port) for a body input string; port None for a control input."""
        if text.startswith('^'):
            name = text[1:]
            if name not in body:
                raise Error('{}: control input "{}" names no node of the body', where, text)
            return ids[name], None
        parts = text.split(':')
        if parts[0] in args and len(parts) <= 2:
            if len(parts) == 2 and parts[1] != '0':
                raise Error('{}: input "{}" indexes a single-tensor argument', where, text)
            return args[parts[0]]
        node_id = ids.get(parts[0])
        if node_id is None:
            raise Error('{}: input "{}" names neither an argument nor a node of the body', where, text)
        if len(parts) == 1:
            return node_id, 0
        table = offsets.get(node_id)
        if table is None:
            pb = body[parts[0]]
            table = offsets[node_id] = output_arg_offsets(pb, functions, where)
        out_arg = parts[1]
        index = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
        if out_arg not in table:
            raise Error('{}: input "{}": op {} has no output argument "{}"', where, text, body[parts[0]].op, out_arg)
        first, count = table[out_arg]
        if index >= count:
            raise Error('{}: input "{}": output argument "{}" has {} tensor(s)', where, text, out_arg, count)
        return node_id, first + index

    new_ids = list(ids.values())
    graph.add_new_nodes((ids[body_name], op_node_attrs(pb, name=ids[body_name])) for body_name, pb in body.items())
    # a source's name as a NodeDef input names it: the call's inputs are outside nodes, a body node's id is its name
    outside_names = {source: graph.node_attrs(source).get('name', source) for source in control_sources}
    outside_names.update((source, graph.node_attrs(source).get('name', source)) for source, _ in args.values())
    edges = []
    for body_name, pb in body.items():
        target = ids[body_name]
        resolved = [resolve(text) for text in pb.input]
        texts = []
        data_position = control_position = 0
        for source, port in resolved:
            if port is None:
                edges.append((source, target, control_edge_attrs(control_position)))
                control_position += 1
            else:
                edges.append((source, target, data_edge_attrs(port, data_position)))
                data_position += 1
            texts.append(format_input(outside_names.get(source, source), port))
        # keep the NodeDef's input strings true to the graph (the GraphDef writer reads the edges,
        # but a reader of pb.input should not see names of the function body)
        del pb.input[:]
        # control inputs of the call hold for the nodes that start the body
        if not texts:
            for position, src in enumerate(control_sources):
                edges.append((src, target, control_edge_attrs(position)))
                texts.append(format_input(outside_names[src], None))
        pb.input.extend(texts)
    graph.add_new_edges(edges)

    # output k of the call: the k-th output argument, through the function's ``ret`` map
    outputs = []
    for arg in fdef.signature.output_arg:
        if arg.number_attr or arg.type_list_attr:
            raise Error('{}: output argument "{}" is a list of tensors, which mo does not inline', where, arg.name)
        if arg.name not in fdef.ret:
            raise Error('{}: output argument "{}" has no value in the function\'s "ret"', where, arg.name)
        outputs.append(resolve(fdef.ret[arg.name]))
    for dst, _, data in graph.out_edge_list(call_id):
        if data.get('control_flow_edge'):
            continue  # control dependencies on the call are dropped with it: inference has no side effects
        port = data.get('out', 0)
        if port >= len(outputs):
            raise Error('{}: node "{}" reads output {}, but the function has {} output(s)', where,
                        graph.node_attrs(dst).get('name', dst), port, len(outputs))
        source, source_port = outputs[port]
        graph.add_edge(source, dst, **dict(data, out=source_port))
    graph.remove_node(call_id)
    return new_ids


def inline_functions(graph: Graph) -> int:
    """Inline every function call of ``graph`` (nested calls too); returns how many calls were inlined."""
    library = graph.graph.get('tf_library')
    functions = {f.signature.name: f for f in library.function} if library is not None else {}
    if not functions:
        calls = graph.get_op_nodes(op='PartitionedCall') + graph.get_op_nodes(op='StatefulPartitionedCall')
        if calls:
            raise Error('Node "{}" calls a function, but the graph has no function library',
                        calls[0].soft_get('name', calls[0].id))
        return 0
    depth = {}
    todo = [n for n in graph.nodes if _called_function(graph, n, functions) is not None]
    count = 0
    while todo:
        call_id = todo.pop(0)
        fdef = _called_function(graph, call_id, functions)
        level = depth.get(call_id, 0)
        if level >= MAX_DEPTH:
            raise Error('Node "{}" calls functions nested more than {} deep; is function "{}" recursive?',
                        call_id, MAX_DEPTH, fdef.signature.name)
        new_ids = inline_call(graph, call_id, fdef, functions)
        count += 1
        for node_id in new_ids:
            if _called_function(graph, node_id, functions) is not None:
                depth[node_id] = level + 1
                todo.append(node_id)
    return count


class TFFunctionInlining(LoadReplacementPattern):
    """Replaces PartitionedCall / StatefulPartitionedCall nodes by the bodies of the functions they call."""
    id = 'TFFunctionInlining'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFLoader]

    def run_before(self):
        return super().run_before() + [TFInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        self.match_count = inline_functions(graph)
        if self.match_count:
            log.info('[ mo ] inlined {} function call(s)'.format(self.match_count))
