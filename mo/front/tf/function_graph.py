"""Convert TensorFlow functions (the bodies of While and If) into graphs of their own.

A body is converted the way a model is: a GraphDef is made of Placeholders for the body's inputs
(with the shapes and types the enclosing graph has inferred for them), calls of the library
functions on them, and one named ``Identity`` per body output; the whole pipeline then runs on
it (loader, function inlining, front, middle, back), nested loops included, except the
replacers that set ``run_not_recursively``. The result is a back-phase graph the IR writer
writes inside the Loop or If layer.
"""
import numpy as np

from mo.front.tf.dtypes import tf_dtype_from_numpy
from mo.front.tf.framework import FRAMEWORK
from mo.front.tf.proto import GraphDef, NodeDef
from mo.graph import body_conversion
from mo.graph.graph import Graph
from mo.ops.body_io import BodyInput, input_name, output_name
from mo.utils.error import Error


class BodyGraphDef:
    """Builds the GraphDef of one body: ``add_call`` calls a library function, ``set_outputs`` names
    the tensors the body returns (``input_name(k)`` or ``'call:port'`` strings)."""

    def __init__(self, functions: dict, inputs):
        self.functions = functions
        self.inputs = list(inputs)
        self.graph_def = GraphDef()
        self.graph_def.library.function.extend(functions[name] for name in sorted(functions))
        for k, spec in enumerate(inputs):
            self._add_input(k, spec)

    def _add_input(self, k: int, spec: BodyInput):
        node = self.graph_def.node.add()
        node.name = input_name(k)
        dtype = tf_dtype_from_numpy(spec.dtype)
        node.op = 'Placeholder'
        node.attr['dtype'].type = dtype
        shape = node.attr['shape'].shape
        shape.SetInParent()  # a scalar's shape has no fields, but it must be present
        if spec.shape is None:
            shape.unknown_rank = True
        else:
            for d in spec.shape:
                shape.dim.add().size = d

    def add_call(self, name: str, function: str, inputs, output_types):
        """``name`` = PartitionedCall(function)(inputs) with outputs of ``output_types`` (TF enums)."""
        node = self.graph_def.node.add()
        node.name, node.op = name, 'PartitionedCall'
        node.input.extend(inputs)
        node.attr['f'].func.name = function
        signature = self.functions[function].signature
        node.attr['Tin'].list.type.extend(arg.type for arg in signature.input_arg)
        node.attr['Tout'].list.type.extend(output_types)

    def add_case(self, name: str, index: str, functions, inputs, output_types):
        """``name`` = Case(index - 1, inputs) over ``functions``: the rest of a Case once its first branch is
        an If's then-branch (TF runs the last branch for an index out of range, so does this chain)."""
        one = self.graph_def.node.add()
        one.name, one.op = name + '/one', 'Const'
        one.attr['dtype'].type = tf_dtype_from_numpy(np.int32)
        one.attr['value'].tensor.dtype = tf_dtype_from_numpy(np.int32)
        one.attr['value'].tensor.int_val.append(1)
        shifted = self.graph_def.node.add()
        shifted.name, shifted.op = name + '/shifted_index', 'Sub'
        shifted.input.extend([index, one.name])
        shifted.attr['T'].type = tf_dtype_from_numpy(np.int32)
        node = self.graph_def.node.add()
        node.name, node.op = name, 'StatelessCase'
        node.input.extend([shifted.name] + list(inputs))
        for function in functions:
            node.attr['branches'].list.func.add().name = function
        signature = self.functions[functions[0]].signature
        node.attr['Tin'].list.type.extend(arg.type for arg in signature.input_arg)
        node.attr['Tout'].list.type.extend(output_types)

    def add_node(self, pb: NodeDef):
        self.graph_def.node.add().CopyFrom(pb)

    def set_outputs(self, tensors):
        for k, tensor in enumerate(tensors):
            node = self.graph_def.node.add()
            node.name, node.op = output_name(k), 'Identity'
            node.input.append(tensor)
        self.count = len(tensors)


def convert_sub_graph(graph_def_bytes: bytes, outputs: str) -> Graph:
    """Run the pipeline on the GraphDef of a loop or conditional body (its Placeholders carry the input shapes);
    returns the back-phase graph (the same one for the same body and inputs within one model's conversion: treat
    it as read-only)."""
    import hashlib  # only models with loops or conditionals need it: most conversions skip its import
    key = (hashlib.sha256(graph_def_bytes).digest(), outputs)
    options = {'framework': FRAMEWORK.name, 'graph_def_bytes': graph_def_bytes, 'output': outputs, 'sub_graph': True}
    return body_conversion.convert_body(
        key, lambda: Graph(cmd_params=options, source_format=FRAMEWORK.name, layout=FRAMEWORK.layout))


def convert_body(body: BodyGraphDef, where: str) -> Graph:
    """Run the conversion pipeline on ``body``; returns the back-phase graph whose Parameters are
    named ``input_name(k)`` and whose Results read ``output_name(k)``."""
    outputs = ','.join(output_name(k) for k in range(body.count))
    try:
        return convert_sub_graph(body.graph_def.SerializeToString(), outputs)
    except Error as exc:
        raise Error('{}: {}', where, exc) from exc


def passthrough_outputs(fdef) -> set:
    """Indices k where ``fdef`` returns its input k unchanged (through Identity nodes only): the
    loop-invariant variables of a While body."""
    nodes = {n.name: n for n in fdef.node_def}
    args = [a.name for a in fdef.signature.input_arg]
    result = set()
    for k, out in enumerate(fdef.signature.output_arg):
        text = fdef.ret.get(out.name, '')
        for _ in range(len(nodes) + 1):
            name = text.split(':')[0]
            node = nodes.get(name)
            if node is None or node.op not in ('Identity', 'IdentityN') or not node.input:
                break
            text = node.input[0]
        if k < len(args) and text.split(':')[0] == args[k] and ':' not in text:
            result.add(k)
    return result


def declared_shapes(pb) -> list:
    """TF's ``output_shapes`` attribute of a While/If NodeDef: one list per output (-1: unknown size),
    None for an unknown rank; [] when the attribute is absent."""
    if 'output_shapes' not in pb.attr:
        return []
    shapes = []
    for shape in pb.attr['output_shapes'].list.shape:
        shapes.append(None if shape.unknown_rank else [int(d.size) for d in shape.dim])
    return shapes


def while_body(node, specs) -> Graph:
    """The converted body of a Loop made from a TF While (``Loop.build_body``): the While's body function, then its
    cond function on the body's results; output 0 is the condition, output k + 1 loop variable k."""
    functions = node.tf_functions
    body = BodyGraphDef(functions, specs)
    tf_types = [tf_dtype_from_numpy(spec.dtype) for spec in specs]
    body.add_call('body', node.body_function, [input_name(k) for k in range(len(specs))], tf_types)
    body.add_call('cond', node.cond_function, ['body:{}'.format(k) for k in range(len(specs))],
                  [tf_dtype_from_numpy(np.bool_)])
    body.set_outputs(['cond:0'] + ['body:{}'.format(k) for k in range(len(specs))])
    return convert_body(body, 'The body of loop "{}"'.format(node.soft_get('name', node.id)))


def if_branch(node, tag: str, specs) -> Graph:
    """The converted ``tag`` branch (``then_body``, ``else_body``) of an If made from a TF If or Case
    (``If.build_branch``)."""
    body = BodyGraphDef(node.tf_functions, specs)
    _add_branch(body, node.then_branch if tag == 'then_body' else node.else_branch, node.output_types)
    body.set_outputs(['branch:{}'.format(k) for k in range(len(node.output_types))])
    return convert_body(body, 'The {} branch of conditional "{}"'.format(tag.split('_')[0],
                                                                         node.soft_get('name', node.id)))


def _add_branch(body: BodyGraphDef, branch, output_types):
    """The node ``branch`` computing the body's outputs: ``('call', function, first)`` calls a library function on
    inputs ``first``...; ``('case', functions, first)`` is what is left of a TF Case after its first branch: input
    0 is the branch index, so it calls ``functions[0]`` when the index is 1, ... (one function left: that one, TF's
    default branch for any index out of range)."""
    kind, functions, first = branch
    args = [input_name(k) for k in range(first, len(body.inputs))]
    tout = [tf_dtype_from_numpy(t) for t in output_types]
    if kind == 'call':
        body.add_call('branch', functions, args, tout)
        return
    if len(functions) == 1:
        body.add_call('branch', functions[0], args, tout)
        return
    body.add_case('branch', input_name(0), list(functions), args, tout)
