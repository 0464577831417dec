"""Helpers for building small sub-graphs inside TensorFlow-flavoured replacers."""
import numpy as np

from mo.ops.const import feed_constant


def create_op_with_const_inputs(graph, op_class, port_value_dict: dict, op_attrs: dict = None,
                                input_node=None):
    """Create an ``op_class`` node whose inputs listed in ``port_value_dict`` are Const values.

    ``create_op_with_const_inputs(graph, Unsqueeze, {1: int64_array([0])}, {'name': 'x/unsq'})``
    gives an Unsqueeze whose port 1 is fed the axis; port 0 is left for the caller to connect
    (or fed from ``input_node`` when given).
    """
    op_attrs = dict(op_attrs or {})
    node = op_class(graph, op_attrs).create_node()
    base_name = op_attrs.get('name', node.soft_get('name', node.id))
    for port, value in sorted(port_value_dict.items()):
        feed_constant(node, port, np.asarray(value), '{}/port_{}'.format(base_name, port))
    if input_node is not None:
        input_node.out_port(0).connect(node.in_port(0))
    return node


def create_op_node_with_second_input(graph, op_class, second_input_value, op_attrs=None, input_node=None):
    """Shorthand for ``create_op_with_const_inputs`` with a Const on port 1."""
    return create_op_with_const_inputs(graph, op_class, {1: second_input_value}, op_attrs, input_node)
