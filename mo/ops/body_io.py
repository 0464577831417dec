"""The inputs and outputs of a Loop's or If's body graph, whichever framework's reader built it.

A body's Parameter for input k is named ``input_name(k)`` and its Result for output k ``output_name(k)``: the ops
that own bodies (``mo.ops.loop``) find them by these names after the pipeline converted the body.
"""
import numpy as np

from mo.graph.graph import Graph, Node
from mo.ops.parameter import Parameter


class BodyInput:
    """One input of a body: a Placeholder of ``shape`` (-1: any size; None: any rank) and ``dtype``."""

    def __init__(self, dtype, shape=None):
        self.dtype = np.dtype(dtype)
        self.shape = None if shape is None else [int(d) for d in shape]


def input_name(k: int) -> str:
    return 'body_input_{}'.format(k)


def output_name(k: int) -> str:
    return 'body_output_{}'.format(k)


def body_parameters(graph: Graph) -> dict:
    """Input index -> the body's Parameter node (an input the body does not read has none left)."""
    result = {}
    for node in graph.get_op_nodes(type='Parameter'):
        name = node.soft_get('name', node.id)
        if name.startswith('body_input_'):
            result[int(name[len('body_input_'):])] = node
    return result


def add_unread_parameter(graph: Graph, k: int, spec: BodyInput) -> Node:
    """A Parameter for body input ``k`` that the body does not read (the loader dropped its
    Placeholder): OpenVINO's Loop wants a body Parameter for every input it is given."""
    return Parameter(graph, {'name': input_name(k), 'shape': np.array(spec.shape, dtype=np.int64),
                             'data_type': spec.dtype}).create_node()


def body_results(graph: Graph) -> dict:
    """Output index -> the body's Result node."""
    result = {}
    for node in graph.get_op_nodes(type='Result'):
        name = node.soft_get('name', node.id)
        if name.startswith('body_output_'):
            result[int(name[len('body_output_'):].split('/')[0])] = node
    return result


def result_shape(result: Node):
    return result.in_port(0).data.get_shape()


def result_dtype(result: Node):
    return result.in_port(0).data.get_data_type()
