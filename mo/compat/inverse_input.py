"""The rewrite the Model Optimizer's ``Sub`` and ``Div`` replacers share (``extensions.front.sub``/``div``, kept
for authors' unit tests): a binary op becomes another of its first input and its second input's inverse."""
import numpy as np

from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Node, rename_node


def replace_with_inverse_of_second(node: Node, op_class, inverse_class, suffix: str):
    """``node(a, b)`` -> ``op_class(a, inverse_class(b, -1))``, as the Model Optimizer built it: the new op takes
    ``node``'s name, ``node`` is renamed ``<name>/to_be_removed`` and left unconnected for the clean-up, and the
    inverse (Mul by -1, or Pow to -1) is named ``<name>/<suffix>`` with -1 of the node's ``data_type``."""
    graph = node.graph
    name = node.soft_get('name', node.id)
    rename_node(node, name + '/to_be_removed')
    replacement = op_class(graph, {'name': name}).create_node()
    rename_node(replacement, name)
    node.in_port(0).get_connection().set_destination(replacement.in_port(0))
    node.in_port(1).get_connection().set_destination(replacement.in_port(1))
    node.out_port(0).get_connection().set_source(replacement.out_port(0))
    minus_one = np.array(-1, dtype=node.soft_get('data_type', np.float32))
    inverse = create_op_with_const_inputs(graph, inverse_class, {1: minus_one}, {'name': name + '/' + suffix})
    replacement.in_port(1).get_connection().insert_node(inverse)
