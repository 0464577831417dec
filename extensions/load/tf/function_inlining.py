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
from mo.front.tf.node_def import add_input_edge, format_input, op_node_attrs
from mo.front.tf.op_signatures import output_arg_offsets
from mo.front.tf.proto import NodeDef
from mo.graph.graph import Graph
from mo.utils.error import Error

CALL_OPS = ('PartitionedCall', 'StatefulPartitionedCall')

#: calls nested deeper than this are taken for a recursive function
MAX_DEPTH = 64


def _called_function(graph: Graph, node_id, functions: dict):
    """The FunctionDef a call node runs, or None when the node is not a function call."""
    attrs = graph.nodes[node_id]
    pb = attrs.get('pb')
    op = attrs.get('op')
    if pb is None or attrs.get('kind') != 'op':
        return None
    if op in CALL_OPS:
        name = pb.attr['f'].func.name if 'f' in pb.attr else ''
        if name not in functions:
            raise Error('Node "{}" ({}) calls function "{}", which the graph\'s function library does not define',
                        attrs.get('name', node_id), op, name)
        return functions[name]
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


def inline_call(graph: Graph, call_id, fdef, functions: dict) -> list:
    """Replace call node ``call_id`` by a copy of ``fdef``'s body; returns the ids of the new nodes."""
    call = graph.nodes[call_id]
    call_name = call.get('name', call_id)
    call_pb = call.get('pb')
    fname = fdef.signature.name
    where = 'Inlining function "{}" called by node "{}"'.format(fname, call_name)

    for arg in fdef.signature.input_arg:
        if arg.number_attr or arg.type_list_attr:
            raise Error('{}: input argument "{}" is a list of tensors, which mo does not inline', where, arg.name)
    data_inputs = {}
    control_sources = []
    for src, _, data in graph.in_edges(call_id, data=True):
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
    body = {}
    for nd in fdef.node_def:
        pb = NodeDef()
        pb.CopyFrom(nd)
        pb.name = '{}/{}'.format(call_name, nd.name)
        if pb.name in graph:
            raise Error('{}: a node named "{}" exists already', where, pb.name)
        _resolve_placeholders(pb, call_pb if call.get('op') not in CALL_OPS else None, where)
        body[nd.name] = pb
    offsets = {}

    def resolve(text):
        """(node id, port) for a body input string; port None for a control input."""
        if text.startswith('^'):
            name = text[1:]
            if name not in body:
                raise Error('{}: control input "{}" names no node of the body', where, text)
            return body[name].name, None
        parts = text.split(':')
        if parts[0] in args and len(parts) <= 2:
            if len(parts) == 2 and parts[1] != '0':
                raise Error('{}: input "{}" indexes a single-tensor argument', where, text)
            return args[parts[0]]
        if parts[0] not in body:
            raise Error('{}: input "{}" names neither an argument nor a node of the body', where, text)
        pb = body[parts[0]]
        if len(parts) == 1:
            return pb.name, 0
        if pb.name not in offsets:
            offsets[pb.name] = output_arg_offsets(pb, functions, where)
        out_arg = parts[1]
        index = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
        if out_arg not in offsets[pb.name]:
            raise Error('{}: input "{}": op {} has no output argument "{}"', where, text, pb.op, out_arg)
        first, count = offsets[pb.name][out_arg]
        if index >= count:
            raise Error('{}: input "{}": output argument "{}" has {} tensor(s)', where, text, out_arg, count)
        return pb.name, first + index

    new_ids = []
    for pb in body.values():
        graph.add_node(pb.name, **op_node_attrs(pb))
        new_ids.append(pb.name)
    for pb in body.values():
        resolved = [resolve(text) for text in pb.input]
        data_position = control_position = 0
        for source, port in resolved:
            if port is None:
                add_input_edge(graph, source, pb.name, None, control_position)
                control_position += 1
            else:
                add_input_edge(graph, source, pb.name, port, data_position)
                data_position += 1
        # keep the NodeDef's input strings true to the graph (the GraphDef writer reads the edges,
        # but a reader of pb.input should not see names of the function body)
        del pb.input[:]
        pb.input.extend(format_input(graph.nodes[s].get('name', s), p) for s, p in resolved)
        # control inputs of the call hold for the nodes that start the body
        if not pb.input:
            for position, src in enumerate(control_sources):
                add_input_edge(graph, src, pb.name, None, position)
                pb.input.append(format_input(graph.nodes[src].get('name', src), None))

    # output k of the call: the k-th output argument, through the function's ``ret`` map
    outputs = []
    for arg in fdef.signature.output_arg:
        if arg.number_attr or arg.type_list_attr:
            raise Error('{}: output argument "{}" is a list of tensors, which mo does not inline', where, arg.name)
        if arg.name not in fdef.ret:
            raise Error('{}: output argument "{}" has no value in the function\'s "ret"', where, arg.name)
        outputs.append(resolve(fdef.ret[arg.name]))
    for _, dst, key, data in list(graph.out_edges(call_id, keys=True, data=True)):
        if data.get('control_flow_edge'):
            continue  # control dependencies on the call are dropped with it: inference has no side effects
        port = data.get('out', 0)
        if port >= len(outputs):
            raise Error('{}: node "{}" reads output {}, but the function has {} output(s)', where,
                        graph.nodes[dst].get('name', dst), port, len(outputs))
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
