"""Lowering of TensorFlow element-wise ops that have no opset op of their own.

* ``Rsqrt(x)`` = ``Divide(1, Sqrt(x))``, TF's definition (``Power(x, -0.5)`` differs at ``-0`` and ``-inf``)
* ``Square(x)`` = ``Multiply(x, x)`` (exact, and valid for integers too)
* ``Erfc(x)`` = ``Subtract(1, Erf(x))``

The constants take the element type the extractor recorded from the TF ``T`` attribute.
"""
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Erf, Sqrt
from mo.ops.elementwise import Div, Mul, Sub


class RsqrtLowering(OpRule):
    """Rsqrt(x) = Divide(1, Sqrt(x)): rsqrt(-0) = -inf and rsqrt(-inf) = NaN as in TF, where Power(x, -0.5)
    gives +inf and 0."""
    op = 'Rsqrt'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Div, [b.const(1, 'one'), b.op(Sqrt, [node.in_port(0)], 'sqrt')], 'rsqrt')


class SquareLowering(OpRule):
    """Square(x) = Multiply(x, x)."""
    op = 'Square'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Mul, [node.in_port(0), node.in_port(0)], 'Mul')


class ErfcLowering(OpRule):
    """Erfc(x) = Subtract(1, Erf(x))."""
    op = 'Erfc'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Sub, [b.const(1, 'Sub/port_0'), b.op(Erf, [node.in_port(0)], 'Erf')], 'Sub')
