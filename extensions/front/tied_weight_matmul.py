"""A weight read both as it is and transposed into a MatMul stays one constant (a tied embedding)."""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node


def _swapped_shared_constant(node: Node, port: int):
    """The Const behind input ``port`` of MatMul ``node`` when that input is a Transpose of it swapping only the last
    two axes and the Const is read elsewhere too; else None."""
    if not node.is_in_port_connected(port):
        return None
    transpose = node.in_port(port).get_source().node
    if transpose.soft_get('op') != 'Transpose' or not transpose.is_in_port_connected(1) or \
            len(transpose.out_port(0).get_destinations()) != 1:
        return None
    order_node = transpose.in_port(1).get_source().node
    weight = transpose.in_port(0).get_source()
    if order_node.soft_get('op') != 'Const' or weight.node.soft_get('op') != 'Const' or \
            len(weight.get_destinations()) < 2:
        return None
    order = np.asarray(order_node.soft_get('value', None)).ravel()
    rank = order.size
    if rank < 2 or list(order) != list(range(rank - 2)) + [rank - 1, rank - 2]:
        return None
    return weight


class TiedWeightIntoMatMul(OpRule):
    """MatMul(a, Transpose(W, last two axes swapped)) = MatMul(a, W) with that input's transpose flag flipped, where
    the constant W is also read elsewhere (GPT-2's embedding and output layer share W): folding the Transpose would
    store W twice, the flag keeps one copy."""
    op = 'MatMul'

    def matches(self, node: Node) -> bool:
        return any(_swapped_shared_constant(node, port) is not None for port in (0, 1))

    def rewrite(self, node: Node, b: Builder):
        for port, flag in ((0, 'transpose_a'), (1, 'transpose_b')):
            weight = _swapped_shared_constant(node, port)
            if weight is not None:
                node.in_port(port).get_connection().set_source(weight)
                node[flag] = not bool(node.soft_get(flag, False))
        return node
