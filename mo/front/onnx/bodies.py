"""Convert an ONNX body graph (then/else branch of If, body of Loop or Scan) into a graph of its own.

A body is converted the way a model is: its GraphProto is loaded (``protobuf2nx``, the enclosing graphs'
tensors it reads becoming Parameters marked ``outer_tensor``), its inputs are given the shapes and types
the enclosing graph inferred for the tensors they stand for (ONNX bodies often declare none), and the
whole pipeline runs on it (``mo.graph.body_conversion.convert_body``) except the replacers that
set ``run_not_recursively``. The result is a back-phase graph the IR writer writes inside the owner's
layer; ``Body`` tells which of its Parameters and Results is which.
"""
import hashlib

import numpy as np

from mo.front.onnx.loader import OPSETS, TENSORS, protobuf2nx
from mo.graph.graph import Graph, Node
from mo.ops.parameter import Parameter
from mo.graph import body_conversion
from mo.utils.error import Error

#: the attributes marking a body's Parameters and Results (see ``Body``)
INPUT_INDEX, OUTER_INDEX, OUTPUT_INDEX = 'body_input_index', 'body_outer_index', 'output_index'


class BodyInput:
    """A tensor a body reads: ``shape`` (-1 for any size; None: keep what the body declares) and ``dtype``."""

    def __init__(self, dtype, shape=None):
        self.dtype = np.dtype(dtype)
        self.shape = None if shape is None else [int(d) for d in shape]

    def key(self):
        return self.dtype.str, None if self.shape is None else tuple(self.shape)


def input_spec(node: Node, port: int) -> BodyInput:
    """The shape and type ``node``'s input ``port`` was inferred to have; an Error naming the node if unknown."""
    data = node.in_port(port).data
    shape, dtype = data.get_shape(), data.get_data_type()
    if shape is None or dtype is None:
        raise Error('{} "{}": the {} of input {} is unknown', node.soft_get('onnx_op', node.soft_get('op')),
                    node.soft_get('name', node.id), 'shape' if shape is None else 'type', port)
    return BodyInput(dtype, shape)


class Body:
    """A converted body: ``graph`` (back phase), ``inputs`` (declared input k -> Parameter, or None when the
    body does not read it), ``outer`` (outer tensor k -> Parameter or None), ``results`` (output k -> Result)."""

    def __init__(self, graph: Graph, inputs: list, outer: list):
        self.graph = graph
        params = {}
        for node in graph.get_op_nodes(type='Parameter'):
            for attr in (INPUT_INDEX, OUTER_INDEX):
                if node.has_valid(attr):
                    params[(attr, int(node[attr]))] = node
        self.inputs = [params.get((INPUT_INDEX, k)) for k in range(len(inputs))]
        self.outer = [params.get((OUTER_INDEX, k)) for k in range(len(outer))]
        self.results = {}
        for node in graph.get_op_nodes(type='Result'):
            if node.has_valid(OUTPUT_INDEX):
                self.results[int(node[OUTPUT_INDEX])] = node
        self._specs = {INPUT_INDEX: inputs, OUTER_INDEX: outer}

    def result_shape(self, k: int):
        shape = self.results[k].in_port(0).data.get_shape()
        return None if shape is None else [int(d) for d in shape]

    def result_dtype(self, k: int):
        return self.results[k].in_port(0).data.get_data_type()

    def complete(self, inputs):
        """Give declared inputs ``inputs`` and every outer tensor a Parameter, one the body does not read
        included: OpenVINO's Loop and TensorIterator want one for each input they are given."""
        for k in inputs:
            self.parameter(INPUT_INDEX, k)
        for k in range(len(self.outer)):
            self.parameter(OUTER_INDEX, k)

    def parameter(self, which: str, k: int) -> Node:
        """Input k (``which`` = INPUT_INDEX) or outer tensor k (OUTER_INDEX) of the body: its Parameter (added
        by ``complete`` for one the body does not read)."""
        found = (self.inputs if which == INPUT_INDEX else self.outer)[k]
        if found is None:
            spec = self._specs[which][k]
            found = Parameter(self.graph, {'name': self.graph.unique_id('unread_input_{}'.format(k)),
                                           'shape': np.array(spec.shape, dtype=np.int64),
                                           'data_type': spec.dtype, which: k}).create_node()
            (self.inputs if which == INPUT_INDEX else self.outer)[k] = found
        return found


def convert_body(owner: Node, graph_proto, inputs: list, outer: list, where: str, prepare=None,
                 variant=()) -> Body:
    """Convert ``graph_proto``, a body of ``owner``: its declared inputs get ``inputs`` (BodyInput each), the
    enclosing tensors it reads (``owner.onnx_outer_inputs``) get ``outer``. ``prepare(graph)`` may edit the
    loaded body before the pipeline runs (``variant`` then tells its edits apart in the cache key)."""
    names = list(owner.soft_get('onnx_outer_inputs', None) or [])
    if len(graph_proto.input) != len(inputs):
        raise Error('{}: the body declares {} inputs where {} are expected', where, len(graph_proto.input),
                    len(inputs))
    digest = hashlib.sha256(graph_proto.SerializeToString(deterministic=True)).digest()
    key = ('onnx', digest, tuple(s.key() for s in inputs), tuple(s.key() for s in outer), tuple(names), variant)
    parent = owner.graph.graph

    def make_graph():
        graph = body_conversion.body_graph('onnx')
        for attr in (OPSETS, 'onnx_functions', 'onnx_ir_version', 'onnx_model_path'):
            if attr in parent:
                graph.graph[attr] = parent[attr]
        protobuf2nx(graph, graph_proto, outer_tensors=set(names))
        tensors = graph.graph[TENSORS]
        for k, (value_info, spec) in enumerate(zip(graph_proto.input, inputs)):
            _set_input(Node(graph, tensors[value_info.name][0]), spec, INPUT_INDEX, k)
        outer_nodes = graph.graph.get('onnx_outer_tensors', {})
        for k, (name, spec) in enumerate(zip(names, outer)):
            if name in outer_nodes:
                _set_input(Node(graph, outer_nodes[name]), spec, OUTER_INDEX, k)
        if prepare is not None:
            prepare(graph)
        return graph

    return Body(body_conversion.convert_body(key, make_graph, where), inputs, outer)


def _set_input(node: Node, spec: BodyInput, which: str, k: int):
    node[which] = k
    if spec is None:
        return
    if spec.shape is not None:
        node['user_shape'] = list(spec.shape)
    elif node.soft_get('pb', None) is not None:
        return  # the body's declared shape and type stand
    node['user_dtype'] = spec.dtype
    node['pb'] = None  # the enclosing graph's type, not the (often missing) declared one
