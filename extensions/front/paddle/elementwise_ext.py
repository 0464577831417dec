"""Extractors for Paddle's element-wise binary ops, classic (``elementwise_add``...) and Paddle 3 (``add``...).

Paddle 3 broadcasts as numpy does. A classic op's ``axis`` (not -1) aligns Y's dimensions with X's from
``axis`` on, so Y gets trailing 1-dims (``elementwise_lowering.py``) before numpy broadcasting applies.
"""
from mo.front.extractor import FrontExtractorOp
from mo.front.paddle.extractor_utils import input_rank, output_dtype, paddle_attr
from mo.ops import bitwise, elementwise

#: the binary ops by Paddle name: (mo op class, extra attributes)
BINARY = {
    'elementwise_add': elementwise.Add, 'add': elementwise.Add,
    'elementwise_sub': elementwise.Sub, 'subtract': elementwise.Sub,
    'elementwise_mul': elementwise.Mul, 'multiply': elementwise.Mul,
    'elementwise_div': elementwise.Div, 'divide': elementwise.Div,
    'elementwise_pow': elementwise.Pow,
    'elementwise_max': elementwise.Maximum, 'maximum': elementwise.Maximum,
    'elementwise_min': elementwise.Minimum, 'minimum': elementwise.Minimum,
    'elementwise_mod': elementwise.FloorMod, 'remainder': elementwise.FloorMod,
    'elementwise_floordiv': elementwise.Div, 'floor_divide': elementwise.Div,
    'equal': elementwise.Equal, 'not_equal': elementwise.NotEqual, 'less_than': elementwise.Less,
    'less_equal': elementwise.LessEqual, 'greater_than': elementwise.Greater,
    'greater_equal': elementwise.GreaterEqual, 'logical_and': elementwise.LogicalAnd,
    'logical_or': elementwise.LogicalOr, 'logical_xor': elementwise.LogicalXor,
    # on bool tensors too (``~mask``, ``a & b``): the opset's bitwise ops take booleans
    'bitwise_and': bitwise.BitwiseAnd, 'bitwise_or': bitwise.BitwiseOr, 'bitwise_xor': bitwise.BitwiseXor,
}

#: Paddle divides integers rounding toward zero (C's division); floor_divide rounds toward -inf
#: (``elementwise_lowering.FloorDivideLowering``: OpenVINO's CPU plugin truncates whatever m_pythondiv says)
_TRUNCATING = {'elementwise_div', 'divide'}
_FLOOR = {'elementwise_floordiv', 'floor_divide'}


def trailing_ones(node) -> int:
    """How many 1-dims Y needs after its own for a classic ``axis`` (0 when numpy broadcasting suffices)."""
    axis = paddle_attr(node, 'axis', -1)
    if axis is None or axis == -1:
        return 0
    rank_x, rank_y = input_rank(node, 'X'), input_rank(node, 'Y')
    if rank_x is None or rank_y is None or rank_y >= rank_x:
        return 0
    if axis < 0:
        axis += rank_x
    return max(rank_x - axis - rank_y, 0)


class BinaryExtractor(FrontExtractorOp):
    """elementwise_* / add, subtract, multiply, ... -> Add, Sub, Mul, Div, Pow, Maximum, Minimum, FloorMod and the
    comparisons (numpy broadcasting; a classic ``axis`` via ``Paddle_eltwise``)."""
    op = sorted(BINARY)

    @classmethod
    def extract(cls, node):
        op_class = BINARY[node.op]
        attrs = {'python_div': False} if node.op in _TRUNCATING else {}
        if node.op in _FLOOR:
            dtype = output_dtype(node, 'Out')
            node['float_quotient'] = dtype is None or dtype.kind == 'f'
            node['op'] = 'Paddle_floor_divide'
            return True
        ones = trailing_ones(node)
        if ones:
            node.attrs().update(dict(attrs, eltwise=op_class.op, y_trailing_ones=ones))
            node['op'] = 'Paddle_eltwise'
        else:
            op_class.update_node_stat(node, attrs)
        return True
