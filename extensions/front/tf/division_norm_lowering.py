"""TensorFlow's x-weighted and norm ops built from opset ops (the ops ``division_norm_ext.LOWERED`` lists)."""
import numpy as np

from mo.front.common.formulas import int_range, squeeze
from extensions.front.tf.tensor_ext import constant_input
from extensions.front.tf.math_lowering import log1p, truncated_quotient
from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Log
from mo.ops.elementwise import Div, Equal, Mul, NotEqual
from mo.ops.reduce import ReduceL2, ReduceSum
from mo.ops.select import Select


class DivLowering(OpRule):
    """Div(x, y) = Divide(x, y) for floats; for integers C's division, rounded toward zero (the opset's Divide
    of integers rounds down)."""
    op = 'TFDiv'

    def rewrite(self, node: Node, b: Builder):
        x, y = node.in_port(0).get_source(), node.in_port(1).get_source()
        if np.issubdtype(node_dtype(node), np.integer):
            return truncated_quotient(b, x, y)
        return b.op(Div, [x, y], 'div')


class XdivyLowering(OpRule):
    """Xdivy(x, y) = Select(x == 0, 0, Divide(x, y)): 0 wherever x is 0, whatever y (0, inf, nan) is."""
    op = 'Xdivy'

    def weighted(self, b: Builder, x, y):
        return b.op(Div, [x, y], 'div')

    def rewrite(self, node: Node, b: Builder):
        x, y = node.in_port(0).get_source(), node.in_port(1).get_source()
        is_zero = b.op(Equal, [x, b.const(0, 'zero')], 'x_is_zero')
        return b.op(Select, [is_zero, b.const(0, 'zero_result'), self.weighted(b, x, y)], 'select')


class XlogyLowering(XdivyLowering):
    """Xlogy(x, y) = Select(x == 0, 0, x * Log(y))."""
    op = 'Xlogy'

    def weighted(self, b: Builder, x, y):
        return b.op(Mul, [x, b.op(Log, [y], 'log')], 'product')


class Xlog1pyLowering(XdivyLowering):
    """Xlog1py(x, y) = Select(x == 0, 0, x * Log1p(y)), with Log1p's precise form (``math_lowering.log1p``)."""
    op = 'Xlog1py'

    def weighted(self, b: Builder, x, y):
        return b.op(Mul, [x, log1p(b, y)], 'product')


class EuclideanNormLowering(OpRule):
    """EuclideanNorm(x, axes) = ReduceL2(x, axes); over no axes TF gives |x| (the runtime refuses empty axes)."""
    op = 'EuclideanNorm'

    def rewrite(self, node: Node, b: Builder):
        axes = constant_input(node, 1)
        if axes is not None and np.size(axes) == 0:
            return b.op(Abs, [node.in_port(0)], 'abs')
        return b.op(ReduceL2, [node.in_port(0), node.in_port(1)], 'norm', keep_dims=node.keep_dims)


class L2LossLowering(OpRule):
    """L2Loss(x) = ReduceSum(x * x, every axis) / 2."""
    op = 'L2Loss'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        axes = int_range(b, squeeze(b, b.rank_of(x, 'rank'), 0, 'rank_scalar'), np.int64, 'axes')
        total = b.op(ReduceSum, [b.op(Mul, [x, x], 'square'), axes], 'sum', keep_dims=False)
        return b.op(Div, [total, b.const(2, 'two')], 'half')


class FloatToBoolLowering(OpRule):
    """Cast(x float -> bool) = NotEqual(x, 0): TF's truth of a float, which the runtime's Convert gets wrong
    for NaN (true in TF)."""
    op = 'Cast'

    def rewrite(self, node: Node, b: Builder):
        source = node.soft_get('src_type', None)
        if np.dtype(node.dst_type) != np.bool_ or source is None or not np.issubdtype(np.dtype(source), np.floating):
            b.reject('not a float to bool cast')
        return b.op(NotEqual, [node.in_port(0), b.const(0, 'zero', np.dtype(source))], 'not_zero')
