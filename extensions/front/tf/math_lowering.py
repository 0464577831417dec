"""TensorFlow math ops built from opset ops (the ops ``math_ext.LOWERED`` lists).

Each rule (``mo.front.common.rule.OpRule``) builds the formula its docstring gives from the TF node's
inputs; the formula's last op takes the node's name and consumers.
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Ceiling, Exp, Floor, Log
from mo.ops.broadcast import Broadcast
from mo.ops.elementwise import Add, Div, Equal, Less, LogicalAnd, LogicalOr, Maximum, Minimum, Mul, Sign, Sub
from mo.ops.math_ops import Atan, IsInf, IsNaN
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.squeeze import Squeeze


def truncated_quotient(b, x, y):
    """Sign(x) * Sign(y) * Divide(|x|, |y|): integer division rounding toward zero (the division of
    non-negative integers means the same in every convention)."""
    quotient = b.op(Div, [b.op(Abs, [x], 'abs_x'), b.op(Abs, [y], 'abs_y')], 'div')
    sign = b.op(Mul, [b.op(Sign, [x], 'sign_x'), b.op(Sign, [y], 'sign_y')], 'sign')
    return b.op(Mul, [sign, quotient], 'truncated')


class FloorDivLowering(OpRule):
    """FloorDiv(x, y) = Floor(Divide(x, y)) for floats; for integers the truncated quotient q, minus 1
    where the remainder x - q * y is non-zero with the sign opposite to y's."""
    op = 'FloorDiv'

    def rewrite(self, node: Node, b: Builder):
        x, y = node.in_port(0).get_source(), node.in_port(1).get_source()
        if not np.issubdtype(node_dtype(node), np.integer):
            return b.op(Floor, [b.op(Div, [x, y], 'div')], 'floor')
        quotient = truncated_quotient(b, x, y)
        remainder = b.op(Sub, [x, b.op(Mul, [quotient, y], 'product')], 'remainder')
        signs = b.op(Mul, [b.op(Sign, [remainder], 'sign_r'), b.op(Sign, [y], 'sign_y_')], 'signs')
        opposite = b.op(Less, [signs, b.const(0, 'zero')], 'opposite')
        lower = b.op(Sub, [quotient, b.const(1, 'one')], 'lower')
        return b.op(Select, [opposite, lower, quotient], 'floor')


class TruncateDivLowering(OpRule):
    """TruncateDiv(x, y): the quotient rounded toward zero. Integers: Sign(x) * Sign(y) * Divide(|x|, |y|);
    floats (TF truncates them too: 7 / 2 = 3, -7 / 5 = -1): q = Divide(x, y), then Ceiling(q) where q < 0,
    else Floor(q) (keeps -0.0, infinities and NaN as trunc does)."""
    op = 'TruncateDiv'

    def rewrite(self, node: Node, b: Builder):
        x, y = node.in_port(0).get_source(), node.in_port(1).get_source()
        if np.issubdtype(node_dtype(node), np.integer):
            return truncated_quotient(b, x, y)
        quotient = b.op(Div, [x, y], 'div')
        negative = b.op(Less, [quotient, b.const(0, 'zero')], 'negative')
        return b.op(Select, [negative, b.op(Ceiling, [quotient], 'ceil'), b.op(Floor, [quotient], 'floor')],
                    'truncated')


class DivNoNanLowering(OpRule):
    """DivNoNan(x, y) = Select(Equal(y, 0), 0, Divide(x, y))."""
    op = 'DivNoNan'

    def rewrite(self, node: Node, b: Builder):
        y_source = node.in_port(1).get_source()
        div = b.op(Div, [node.in_port(0), node.in_port(1)], 'div')
        is_zero = b.op(Equal, [y_source, b.const(0, 'zero')], 'is_zero')
        return b.op(Select, [is_zero, b.const(0, 'zero_result'), div], 'select')


def _negative(b, v, suffix):
    """Whether ``v``'s sign bit is set: v < 0, or 1 / v < 0 (which tells -0.0 from +0.0)."""
    below = b.op(Less, [v, b.const(0, suffix + '/zero')], suffix + '/below')
    inverse = b.op(Div, [b.const(1, suffix + '/one'), v], suffix + '/inverse')
    return b.op(LogicalOr, [below, b.op(Less, [inverse, b.const(0, suffix + '/zero_')], suffix + '/inverse_below')],
                suffix)


class Atan2Lowering(OpRule):
    """Atan2(y, x) as IEEE (and TensorFlow) define it: Atan(y / x), plus pi when x < 0 (minus pi when y's
    sign bit is set, so atan2(-0, -1) = -pi); on the y axis (x = +-0) +-pi/2; on the x axis (y = +-0) y itself
    where x's sign bit is clear, else +-pi; two infinities as their signs (atan2(inf, -inf) = 3pi/4)."""
    op = 'Atan2'

    def rewrite(self, node: Node, b: Builder):
        y, x = node.in_port(0).get_source(), node.in_port(1).get_source()
        zero = b.const(0, 'zero')
        infinite = b.op(LogicalAnd, [b.op(IsInf, [y], 'y_inf'), b.op(IsInf, [x], 'x_inf')], 'both_inf')
        ratio = b.op(Div, [b.op(Select, [infinite, b.op(Sign, [y], 'sign_y'), y], 'y_finite'),
                           b.op(Select, [infinite, b.op(Sign, [x], 'sign_x'), x], 'x_finite')], 'ratio')
        base = b.op(Atan, [ratio], 'atan')
        y_negative, x_negative = _negative(b, y, 'y_negative'), _negative(b, x, 'x_negative')
        pi = b.op(Select, [y_negative, b.const(-np.pi, 'minus_pi'), b.const(np.pi, 'pi')], 'signed_pi')
        # base + pi only where x < 0: adding a zero turn would make atan2(-3, inf) = -0 into +0
        general = b.op(Select, [x_negative, b.op(Add, [base, pi], 'turned'), base], 'general')
        half_pi = b.op(Select, [y_negative, b.const(-np.pi / 2, 'minus_half_pi'), b.const(np.pi / 2, 'half_pi')],
                       'signed_half_pi')
        off_x_axis = b.op(Select, [b.op(Equal, [x, zero], 'x_zero'), half_pi, general], 'off_x_axis')
        on_x_axis = b.op(Select, [x_negative, pi, y], 'on_x_axis')
        atan2 = b.op(Select, [b.op(Equal, [y, zero], 'y_zero'), on_x_axis, off_x_axis], 'finite_or_axes')
        # a NaN operand gives NaN (the axis branches above would turn atan2(NaN, 0) into pi/2)
        nan = b.op(LogicalOr, [b.op(IsNaN, [y], 'y_nan'), b.op(IsNaN, [x], 'x_nan')], 'any_nan')
        return b.op(Select, [nan, b.op(Add, [y, x], 'nan_sum'), atan2], 'atan2')


class AddNLowering(OpRule):
    """AddN(x0, ..., xn-1) = ((x0 + x1) + x2) + ...; AddN of one input is that input."""
    op = 'AddN'

    def rewrite(self, node: Node, b: Builder):
        # the sources read off the in-edges in one pass: an AddN may sum thousands of tensors, and asking each
        # input port for its source scans all the node's in-edges (quadratic: 49 s for 5,200 inputs)
        graph = node.graph
        inputs = sorted(((attrs['in'], Node(graph, src).out_port(attrs.get('out', 0)))
                         for src, _, attrs in graph.in_edges(node.id, data=True)
                         if 'in' in attrs and not attrs.get('control_flow_edge')), key=lambda item: item[0])
        total = inputs[0][1]
        last = None
        for index, (_, source) in enumerate(inputs[1:]):
            last = b.op(Add, [total, source], 'add_{}'.format(index))
            total = last.out_port(0)
        return total if last is None else last


class Expm1Lowering(OpRule):
    """Expm1(x) = (u - 1) * x / Log(u) with u = Exp(x) (Kahan's form: the rounding of u cancels, so small x keep
    their relative precision, which Exp(x) - 1 loses); x itself where u rounds to 1 (-0 stays -0) or x is NaN, -1
    where u - 1 does, u where u is infinite."""
    op = 'Expm1'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        u = b.op(Exp, [x], 'exp')
        u_minus_one = b.op(Sub, [u, b.const(1, 'one')], 'minus_one')
        general = b.op(Mul, [u_minus_one, b.op(Div, [x, b.op(Log, [u], 'log')], 'x_by_log')], 'general')
        beyond = b.op(Select, [b.op(IsInf, [u], 'u_inf'), u, general], 'beyond')
        saturated = b.op(Select, [b.op(Equal, [u_minus_one, b.const(-1, 'minus_one_value')], 'at_minus_one'),
                                  b.const(-1, 'minus_one_result'), beyond], 'saturated')
        # x itself where u rounds to 1, and where x is NaN (OpenVINO's CPU Exp gives inf for NaN)
        keep_x = b.op(LogicalOr, [b.op(Equal, [u, b.const(1, 'one_value')], 'u_one'), b.op(IsNaN, [x], 'x_nan')],
                      'keep_x')
        return b.op(Select, [keep_x, x, saturated], 'expm1')


def log1p(b, x):
    """Log(u) * x / (u - 1) with u = 1 + x (Goldberg's form: exact to a few ulps for small x, where Log(1 + x) loses
    them); x itself where u rounds to 1 (-0 stays -0), Log(u) where u is infinite."""
    u = b.op(Add, [x, b.const(1, 'one')], 'plus_one')
    log = b.op(Log, [u], 'log')
    general = b.op(Mul, [log, b.op(Div, [x, b.op(Sub, [u, b.const(1, 'one_back')], 'u_minus_one')], 'ratio')],
                   'general')
    beyond = b.op(Select, [b.op(IsInf, [u], 'u_inf'), log, general], 'beyond')
    return b.op(Select, [b.op(Equal, [u, b.const(1, 'one_value')], 'u_one'), x, beyond], 'log1p')


class Log1pLowering(OpRule):
    """Log1p(x) = :func:`log1p` (Goldberg's form, small x keep their precision)."""
    op = 'Log1p'

    def rewrite(self, node: Node, b: Builder):
        return log1p(b, node.in_port(0).get_source())


class ClipByValueLowering(OpRule):
    """ClipByValue(x, lo, hi) = Maximum(Minimum(x, hi), lo) (bounds broadcast as TF's do).

    The order is TF's kernel's (``x.cwiseMin(hi).cwiseMax(lo)``): where ``lo > hi`` the result is ``lo``; the
    other order would give ``hi`` there.
    """
    op = 'ClipByValue'

    def rewrite(self, node: Node, b: Builder):
        high = b.op(Minimum, [node.in_port(0), node.in_port(2)], 'min')
        return b.op(Maximum, [high, node.in_port(1)], 'max')


class FilledLikeLowering(OpRule):
    """ZerosLike(x) = Broadcast(0, ShapeOf(x)); OnesLike likewise with 1."""
    op = 'ZerosLike'
    fill = 0

    def rewrite(self, node: Node, b: Builder):
        shape = b.op(ShapeOf, [node.in_port(0)], 'shape')
        return b.op(Broadcast, [b.const(self.fill, 'value'), shape], 'broadcast')


class OnesLikeLowering(FilledLikeLowering):
    op = 'OnesLike'
    fill = 1


class RankLowering(OpRule):
    """Rank(x) = Squeeze(ShapeOf(ShapeOf(x))), an int32 scalar."""
    op = 'Rank'

    def rewrite(self, node: Node, b: Builder):
        shape = b.op(ShapeOf, [node.in_port(0)], 'shape', output_type=np.dtype(np.int32))
        rank = b.op(ShapeOf, [shape], 'rank', output_type=np.dtype(np.int32))
        return b.op(Squeeze, [rank, b.const([0], 'squeeze/port_1', np.int64)], 'squeeze')


class BroadcastToLowering(OpRule):
    """BroadcastTo(x, shape) = Broadcast(x, shape), numpy rules."""
    op = 'BroadcastTo'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Broadcast, [node.in_port(0), node.in_port(1)], 'broadcast')
