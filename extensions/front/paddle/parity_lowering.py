"""Paddle ops that OpenVINO's Paddle front end maps and mo lacked (``Paddle_*`` of ``tensor_ext.py``), as opset
ops: eye, linspace, atan2, scatter_nd_add, grid_sample, quantize_linear, dequantize_linear, unique."""
import numpy as np

from extensions.front.paddle.constant_ext import attr_dtype
from extensions.front.paddle.formulas import I64, attr, int_arg, out_dtype, port
from extensions.front.paddle.shape_lowering import rank_of
from extensions.ops.grid_sample import GridSample
from extensions.ops.opset_tensor import Eye
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Add, Div, Equal, Greater, GreaterEqual, Less, Maximum, Mul, Sub
from mo.ops.activation_ops import Clamp
from mo.ops.math_ops import Atan, Round
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.sequence_ops import Unique
from mo.ops.tensor_ops import ScatterNDUpdate


def _scalar(b: Builder, value, tag: str, dtype=None):
    """A 0-d tensor of ``value`` (a 1-element tensor from the program reshaped, or a number made a Const)."""
    if isinstance(value, (int, float)):
        return b.const(np.array(value, dtype or I64), tag)
    if dtype is not None:
        value = b.op(Convert, [value], tag + '/converted', dst_type=np.dtype(dtype))
    return b.op(Reshape, [value, b.const(np.array([], I64), tag + '/shape')], tag)


class EyeLowering(OpRule):
    """eye = Eye(num_rows, num_columns, 0) of the program's type; num_columns -1 (or none) is num_rows. The sizes
    are attributes (classic) or tensors (PIR's full values, read now when constant)."""
    op = 'Paddle_eye'

    def rewrite(self, node: Node, b: Builder):
        rows, rows_tensor = int_arg(b, node, 'num_rows', 'num_rows', 'rows')
        columns, columns_tensor = int_arg(b, node, 'num_columns', 'num_columns', 'columns', -1)
        rows_input = _scalar(b, rows if rows_tensor is None else rows_tensor, 'num_rows')
        if columns_tensor is None and (columns is None or columns < 0):
            columns_input = rows_input
        else:
            columns_input = _scalar(b, columns if columns_tensor is None else columns_tensor, 'num_columns')
        return [b.op(Eye, [rows_input, columns_input, b.const(np.array(0, I64), 'diagonal')], 'eye',
                     output_type=np.dtype(out_dtype(node)))]


class LinspaceLowering(OpRule):
    """linspace(Start, Stop, Num) = start + i * (stop - start) / max(num - 1, 1) for i in [0, num), computed in
    float64 and converted to the program's type (an integer type truncates, as Paddle's kernel casts)."""
    op = 'Paddle_linspace'

    def rewrite(self, node: Node, b: Builder):
        start = _scalar(b, port(node, 'Start').get_source(), 'start', np.float64)
        stop = _scalar(b, port(node, 'Stop').get_source(), 'stop', np.float64)
        num = _scalar(b, port(node, 'Num').get_source(), 'num', np.int64)
        one = b.const(np.array(1, I64), 'one')
        steps = b.op(Convert, [b.op(Maximum, [b.op(Sub, [num, one], 'intervals'), one], 'at_least_one')],
                     'steps', dst_type=np.dtype(np.float64))
        step = b.op(Div, [b.op(Sub, [stop, start], 'span'), steps], 'step')
        index = b.op(Range, [b.const(np.array(0, I64), 'first'), num, one], 'index', output_type=np.dtype(np.int64))
        offsets = b.op(Mul, [b.op(Convert, [index], 'index_f64', dst_type=np.dtype(np.float64)), step], 'offsets')
        values = b.op(Add, [start, offsets], 'values')
        return [b.op(Convert, [values], 'linspace', dst_type=np.dtype(out_dtype(node)))]


class Atan2Lowering(OpRule):
    """atan2(X1 = y, X2 = x) = atan(y / x) for x > 0; atan(y / x) +- pi for x < 0 (+ when y >= 0); +-pi/2 for
    x = 0 by the sign of y, and 0 at the origin."""
    op = 'Paddle_atan2'

    def rewrite(self, node: Node, b: Builder):
        y, x = port(node, 'X1').get_source(), port(node, 'X2').get_source()

        def like(value, tag):
            return b.op(ConvertLike, [b.const(np.array(value, np.float64), tag + '/value'), x], tag)
        zero = like(0.0, 'zero')
        x_is_zero = b.op(Equal, [x, zero], 'x_is_zero')
        safe_x = b.op(Select, [x_is_zero, like(1.0, 'one'), x], 'safe_x')
        base = b.op(Atan, [b.op(Div, [y, safe_x], 'ratio')], 'atan')
        half_turn = b.op(Select, [b.op(GreaterEqual, [y, zero], 'y_not_negative'), like(np.pi, 'pi'),
                                  like(-np.pi, 'minus_pi')], 'half_turn')
        left = b.op(Add, [base, half_turn], 'left_half')
        vertical = b.op(Select, [b.op(Greater, [y, zero], 'y_positive'), like(np.pi / 2, 'quarter'),
                                 b.op(Select, [b.op(Less, [y, zero], 'y_negative'), like(-np.pi / 2, 'minus_quarter'),
                                               zero], 'y_axis_down')], 'on_y_axis')
        not_right = b.op(Select, [x_is_zero, vertical, left], 'not_right_half')
        return [b.op(Select, [b.op(Greater, [x, zero], 'x_positive'), base, not_right], 'atan2')]


class ScatterNdAddLowering(OpRule):
    """scatter_nd_add(X, Index, Updates) = ScatterNDUpdate with reduction sum (repeated indices add up)."""
    op = 'Paddle_scatter_nd_add'

    def rewrite(self, node: Node, b: Builder):
        return [b.op(ScatterNDUpdate, [port(node, 'X'), port(node, 'Index'), port(node, 'Updates')], 'scatter_nd_add',
                     reduction='sum')]


class GridSampleLowering(OpRule):
    """grid_sample / grid_sampler(X, Grid) = GridSample with Paddle's mode, padding_mode and align_corners (True
    unless the program says otherwise, as Paddle's default)."""
    op = 'Paddle_grid_sample'

    def rewrite(self, node: Node, b: Builder):
        return [b.op(GridSample, [port(node, 'X'), port(node, 'Grid')], 'grid_sample',
                     mode=str(attr(node, 'mode', 'bilinear')), padding_mode=str(attr(node, 'padding_mode', 'zeros')),
                     align_corners=bool(attr(node, 'align_corners', True)))]


def _levels_per_scale(b: Builder, node: Node):
    """(x, scale shaped to broadcast along ``quant_axis`` (-1: one scale), 2^(bit_length - 1) - 1 as a Const of
    x's type, that count): Paddle's symmetric quantization maps [-scale, scale] to [-count, count]."""
    x = port(node, 'X')
    scale = port(node, 'Scale').get_source()
    axis = int(attr(node, 'quant_axis', -1))
    if axis >= 0:
        shape = [1] * rank_of(node)
        shape[axis] = -1
        scale = b.op(Reshape, [scale, b.const(np.array(shape, I64), 'scale_shape')], 'scale_per_channel')
    count = 2 ** (int(attr(node, 'bit_length', 8)) - 1) - 1
    levels = b.op(ConvertLike, [b.const(np.array(count, np.float64), 'levels/value'), x], 'levels')
    return x, scale, levels, count


class QuantizeLinearLowering(OpRule):
    """quantize_linear(X, Scale) = clip(round(x / scale * n), lo, n) with n = 2^(bit_length - 1) - 1, per tensor
    or per channel (``quant_axis``); round_type 0 rounds half to even and clips at -n - 1, round_type 1 half away
    from zero and clips at -n (as Paddle's kernels do). The zero point is Paddle's 0 (symmetric)."""
    op = 'Paddle_quantize_linear'

    def rewrite(self, node: Node, b: Builder):
        x, scale, levels, count = _levels_per_scale(b, node)
        away = int(attr(node, 'round_type', 0)) == 1
        scaled = b.op(Mul, [b.op(Div, [x, scale], 'normalised'), levels], 'scaled')
        rounded = b.op(Round, [scaled], 'rounded', mode='half_away_from_zero' if away else 'half_to_even')
        return [b.op(Clamp, [rounded], 'quantized', min=float(-count if away else -count - 1), max=float(count))]


class DequantizeLinearLowering(OpRule):
    """dequantize_linear(X, Scale) = x * scale / n with n = 2^(bit_length - 1) - 1, per tensor or per channel."""
    op = 'Paddle_dequantize_linear'

    def rewrite(self, node: Node, b: Builder):
        x, scale, levels, _ = _levels_per_scale(b, node)
        return [b.op(Div, [b.op(Mul, [x, scale], 'scaled'), levels], 'dequantized')]


class UniqueLowering(OpRule):
    """unique(X) = Unique (sorted unless ``is_sorted`` is false), of X flattened or of its slices along the one
    ``axis``: the distinct values, the index of each one's first occurrence, every element's index into them (the
    inverse) and the counts, the indices in the op's ``dtype``."""
    op = 'Paddle_unique'

    def rewrite(self, node: Node, b: Builder):
        axes = [int(a) for a in attr(node, 'axis', []) or []]
        inputs = [node.in_port(0)]
        if axes:
            inputs.append(b.const(np.array(axes[0], I64), 'axis'))
        # the dtype attribute (both formats give it): the type PIR declares for the inverse output read as f32 here
        index_type = np.dtype(attr_dtype(node, default=np.dtype(np.int64)))
        unique = b.op(Unique, inputs, 'unique', sorted=bool(attr(node, 'is_sorted', True)),
                      index_element_type=index_type, count_element_type=index_type)
        return [unique.out_port(i) for i in range(4)]
