"""MXNet's element-wise ops that take a few opset ops (the ``MX*`` ops ``elementwise_ext`` leaves).

A formula's constants take their operand's element type through ConvertLike (folded once types are known), as
MXNet's scalar ops compute in the tensor's type.
"""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.formulas import shape_of
from mo.ops.convert import ConvertLike
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp, Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import (Add, Div, Equal, Greater, GreaterEqual, Less, LessEqual, LogicalAnd, LogicalOr,
                                Maximum, Minimum, Mul, NotEqual, Pow, Sub)
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.front.mxnet.dtypes import np_dtype_of_name


def like(b: Builder, value, x, suffix: str):
    """The number ``value`` in the element type of ``x``."""
    return b.op(ConvertLike, [b.const(np.array(value, np.float32), suffix + '/value', np.float32), x], suffix)


#: scalar op -> (opset op, whether the scalar is the first operand)
_SCALAR = {'plus': (Add, False), 'minus': (Sub, False), 'mul': (Mul, False), 'div': (Div, False),
           'rminus': (Sub, True), 'rdiv': (Div, True), 'power': (Pow, False), 'rpower': (Pow, True),
           'maximum': (Maximum, False), 'minimum': (Minimum, False)}


def _scalar_kind(mxnet_op: str) -> str:
    """``_rminus_scalar`` and MXNet 0.x's ``_RMinusScalar`` -> ``rminus``."""
    name = mxnet_op.strip('_')
    if name.endswith('_scalar'):
        return name[:-len('_scalar')]
    return name[:-len('Scalar')].lower()


class ScalarLowering(OpRule):
    """_<op>_scalar(x) = x <op> scalar, and _r<op>_scalar(x) = scalar <op> x, the scalar in x's type."""
    op = 'MXScalar'

    def rewrite(self, node: Node, b: Builder):
        op_class, scalar_first = _SCALAR[_scalar_kind(node.mxnet_op)]
        x = node.in_port(0)
        scalar = like(b, mxnet_attr(node).float('scalar'), x, 'scalar')
        return b.op(op_class, [scalar, x] if scalar_first else [x, scalar], 'op')


_COMPARE = {'equal': Equal, 'not_equal': NotEqual, 'greater': Greater, 'greater_equal': GreaterEqual,
            'lesser': Less, 'lesser_equal': LessEqual, 'logical_and': LogicalAnd, 'logical_or': LogicalOr}


class ComparisonLowering(OpRule):
    """Comparisons and logical ops (``broadcast_*``, ``_*``, ``_*_scalar``, logical_not) = their opset op, the
    result 1 or 0 in x's type as MXNet gives it; logical ops compare their operands with 0 first."""
    op = 'MXComparison'

    def rewrite(self, node: Node, b: Builder):
        name = node.mxnet_op.strip('_')
        x = node.in_port(0)
        if name == 'logical_not':
            return b.op(ConvertLike, [b.op(Equal, [x, like(b, 0, x, 'zero')], 'not'), x], 'like')
        if name.endswith('_scalar'):
            name, other = name[:-len('_scalar')], like(b, mxnet_attr(node).float('scalar'), x, 'scalar')
        else:
            other = node.in_port(1)
        name = name[len('broadcast_'):] if name.startswith('broadcast_') else name
        if name.startswith('logical_'):
            x = b.op(NotEqual, [x, like(b, 0, x, 'zero_x')], 'x_bool')
            other = b.op(NotEqual, [other, like(b, 0, other, 'zero_y')], 'y_bool')
        result = b.op(_COMPARE[name], [x, other], 'compare')
        return b.op(ConvertLike, [result, node.in_port(0)], 'like')


class SquareLowering(OpRule):
    """square(x) = x * x."""
    op = 'MXsquare'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Mul, [node.in_port(0), node.in_port(0)], 'square')


class RsqrtLowering(OpRule):
    """rsqrt(x) = 1 / Sqrt(x)."""
    op = 'MXrsqrt'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        return b.op(Div, [like(b, 1, x, 'one'), b.op(Sqrt, [x], 'sqrt')], 'rsqrt')


class ReciprocalLowering(OpRule):
    """reciprocal(x) = 1 / x."""
    op = 'MXreciprocal'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        return b.op(Div, [like(b, 1, x, 'one'), x], 'reciprocal')


class AddNLowering(OpRule):
    """add_n(a, b, c, ...) = ((a + b) + c) + ..."""
    op = 'MXadd_n'

    def rewrite(self, node: Node, b: Builder):
        ports = [node.in_port(i) for i in sorted(node.in_ports()) if node.is_in_port_connected(i)]
        total = ports[0]
        for index, port in enumerate(ports[1:]):
            total = b.op(Add, [total, port], 'add_{}'.format(index))
        return total


class HardSigmoidLowering(OpRule):
    """hard_sigmoid(x) = Clamp(alpha * x + beta, 0, 1) (alpha 0.2, beta 0.5 by default)."""
    op = 'MXhard_sigmoid'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        scaled = b.op(Mul, [x, like(b, attr.float('alpha', 0.2), x, 'alpha')], 'scaled')
        shifted = b.op(Add, [scaled, like(b, attr.float('beta', 0.5), x, 'beta')], 'shifted')
        return b.op(Clamp, [shifted], 'clamp', min=0.0, max=1.0)


class WhereLowering(OpRule):
    """where(condition, x, y) = Select(condition != 0, x, y)."""
    op = 'MXwhere'

    def rewrite(self, node: Node, b: Builder):
        condition = node.in_port(0)
        test = b.op(NotEqual, [condition, like(b, 0, condition, 'zero')], 'condition')
        return b.op(Select, [test, node.in_port(1), node.in_port(2)], 'select')


class CastLowering(OpRule):
    """Cast(x, dtype) = Convert(x) to dtype."""
    op = 'MXCast'

    def rewrite(self, node: Node, b: Builder):
        name = mxnet_attr(node).str('dtype')
        dtype = np_dtype_of_name(name, 'Cast "{}"'.format(b.name))
        return b.op(Convert, [node.in_port(0)], 'convert', dst_type=dtype)


class ZerosLikeLowering(OpRule):
    """zeros_like(x) = Broadcast(0 in x's type, ShapeOf(x))."""
    op = 'MXzeros_like'
    value = 0

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        return b.op(Broadcast, [like(b, self.value, x, 'value'), shape_of(b, x, 'shape')], 'broadcast')


class OnesLikeLowering(ZerosLikeLowering):
    """ones_like(x) = Broadcast(1 in x's type, ShapeOf(x))."""
    op = 'MXones_like'
    value = 1


class ShapeArrayLowering(OpRule):
    """shape_array(x) = ShapeOf(x) (int64, as MXNet gives it)."""
    op = 'MXshape_array'

    def rewrite(self, node: Node, b: Builder):
        return b.op(ShapeOf, [node.in_port(0)], 'shape', output_type=np.int64)
