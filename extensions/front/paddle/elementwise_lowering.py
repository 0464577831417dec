"""The classic element-wise ops whose ``axis`` aligns Y inside X (``Paddle_eltwise`` of ``elementwise_ext.py``)."""
import numpy as np

from mo.ops.convert import ConvertLike
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import input_rank
from mo.graph.graph import Node
from mo.ops import elementwise
from mo.ops.activation_ops import Floor
from mo.ops.unsqueeze import Unsqueeze

_ELTWISE = {cls.op: cls for cls in (
    elementwise.Add, elementwise.Sub, elementwise.Mul, elementwise.Div, elementwise.Pow, elementwise.Maximum,
    elementwise.Minimum, elementwise.FloorMod, elementwise.Equal, elementwise.NotEqual, elementwise.Less,
    elementwise.LessEqual, elementwise.Greater, elementwise.GreaterEqual, elementwise.LogicalAnd,
    elementwise.LogicalOr, elementwise.LogicalXor)}


class EltwiseAxisLowering(OpRule):
    """A classic element-wise op with ``axis``: Y gets trailing 1-dims (Unsqueeze) so that it lines up with X from
    ``axis`` on, then the op broadcasts as numpy does."""
    op = 'Paddle_eltwise'

    def rewrite(self, node: Node, b: Builder):
        rank_y = input_rank(node, 'Y')
        axes = np.arange(rank_y, rank_y + node.y_trailing_ones, dtype=np.int64)
        y = b.op(Unsqueeze, [node.in_port(1), b.const(axes, 'axes')], 'y_aligned')
        attrs = {'python_div': False} if node.soft_get('python_div', True) is False else {}
        return b.op(_ELTWISE[node.eltwise], [node.in_port(0), y], 'eltwise', **attrs)


class FloorDivideLowering(OpRule):
    """floor_divide(x, y) = Floor(x / y) for floats; for integers q = x / y truncated, less 1 where a remainder
    is left and x, y differ in sign (spelled out: OpenVINO's CPU plugin truncates whatever m_pythondiv says)."""
    op = 'Paddle_floor_divide'

    def rewrite(self, node: Node, b: Builder):
        x, y = node.in_port(0), node.in_port(1)
        if node.float_quotient:
            return b.op(Floor, [b.op(elementwise.Div, [x, y], 'quotient')], 'floor')
        quotient = b.op(elementwise.Div, [x, y], 'truncated', python_div=False)
        remainder = b.op(elementwise.Sub, [x, b.op(elementwise.Mul, [quotient, y], 'product')], 'remainder')
        zero = b.op(ConvertLike, [b.const(np.array(0, np.int64), 'zero/value'), x], 'zero')
        inexact = b.op(elementwise.NotEqual, [remainder, zero], 'inexact')
        signs_differ = b.op(elementwise.NotEqual, [b.op(elementwise.Less, [remainder, zero], 'r_negative'),
                                                   b.op(elementwise.Less, [y, zero], 'y_negative')], 'signs_differ')
        rounds_down = b.op(elementwise.LogicalAnd, [inexact, signs_differ], 'rounds_down')
        step = b.op(ConvertLike, [rounds_down, x], 'step')
        return b.op(elementwise.Sub, [quotient, step], 'floor')
