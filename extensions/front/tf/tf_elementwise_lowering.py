"""Lowering of TensorFlow element-wise ops that have no opset op of their own.

* ``Rsqrt(x)`` = ``Power(x, -0.5)``
* ``Square(x)`` = ``Multiply(x, x)`` (exact, and valid for integers too)
* ``Erfc(x)`` = ``Subtract(1, Erf(x))``

The constants take the element type the extractor recorded from the TF ``T`` attribute.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.activation_ops import Erf
from mo.ops.elementwise import Mul, Pow, Sub


def _dtype(node):
    return np.dtype(node.soft_get('data_type', None) or np.float32)


def _take_name(node, new_node):
    name = node.soft_get('name', node.id)
    rename_nodes([(node, name + '/TBR'), (new_node, name)])


class RsqrtLowering(FrontReplacementOp):
    op = 'Rsqrt'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        power = create_op_with_const_inputs(graph, Pow, {1: np.array(-0.5, dtype=_dtype(node))},
                                            {'name': name + '/Pow'})
        node.in_port(0).get_connection().set_destination(power.in_port(0))
        _take_name(node, power)
        return [power.id]


class SquareLowering(FrontReplacementOp):
    op = 'Square'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        mul = Mul(graph, {'name': node.soft_get('name', node.id) + '/Mul'}).create_node()
        source = node.in_port(0).get_source()
        source.connect(mul.in_port(0))
        source.connect(mul.in_port(1))
        node.in_port(0).disconnect()
        _take_name(node, mul)
        return [mul.id]


class ErfcLowering(FrontReplacementOp):
    op = 'Erfc'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        erf = Erf(graph, {'name': name + '/Erf'}).create_node()
        node.in_port(0).get_connection().set_destination(erf.in_port(0))
        sub = create_op_with_const_inputs(graph, Sub, {0: np.array(1, dtype=_dtype(node))}, {'name': name + '/Sub'})
        erf.out_port(0).connect(sub.in_port(1))
        _take_name(node, sub)
        return [sub.id]
