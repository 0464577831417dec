"""ONNX's quantization ops as opset ops, in the form OpenVINO's CPU plugin runs as int8 (the internal ops
``quantize_ext.py`` extracts).

* QuantizeLinear -> DequantizeLinear on float data is one FakeQuantize (levels = the integer type's range):
  ``input_low/high = (qmin/qmax - z_q) * s_q``, ``output_low/high = (qmin/qmax - z_dq) * s_dq``; the bounds fold
  to constants, which is what the plugin's low precision transformations look for. For 16-bit types it is the
  arithmetic itself, ``(Clamp(Round(x / s_q) + z_q, qmin, qmax) - z_dq) * s_dq`` in float: OpenVINO's CPU computes
  a FakeQuantize of 65536 levels wrong (errors of half the range's scale and more, where onnxruntime is exact).
* DequantizeLinear elsewhere (constant int8 weights above all) is Convert(f) -> Subtract(zero point) ->
  Multiply(scale), the dequantization the low precision transformations match; its Convert does not fold, so the
  weights stay int8 in the IR (an int32 bias folds to float as usual). No Subtract without a zero point.
* QuantizeLinear elsewhere is Convert(Clamp(Round(x / scale) + zero point, qmin, qmax)), exactly ONNX's rounding
  (half to even).

Scales and zero points broadcast against the data: a scalar as is, a per-axis vector reshaped to ``[C, 1, ...]``
(the 1s up to the data's rank), a blocked one repeated ``block_size`` times along its axis (a Gather of
``index // block_size``) and cut to the data's length.
"""
import numpy as np

from extensions.front.onnx.cast_lowering import saturating_convert
from extensions.front.onnx.elementwise_ext import input_dtype
from mo.front.common.nn_formulas import I64, per_channel, shape_tail
from extensions.front.onnx.nn_lowering import grouped_weights, window
from extensions.front.onnx.quantize_ext import FLOAT8_TYPES, FLOAT_QDQ_TYPES
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp
from mo.ops.convert import Convert, ConvertLike
from mo.ops.convolution import Convolution, GroupConvolution
from mo.ops.elementwise import Add, Div, Equal, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.math_ops import Round
from mo.ops.matmul import MatMul
from mo.ops.quantize import FakeQuantize
from mo.ops.range import Range
from mo.ops.reduce import ReduceMax, ReduceMin
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.utils import narrow_types


def _iinfo(dtype):
    """The integer limits of ``dtype``; numpy's iinfo does not know int4/uint4 (ml_dtypes' does)."""
    return np.iinfo(dtype) if np.dtype(dtype).kind in 'iu' else narrow_types.module().iinfo(dtype)


def _convert_shape_only(node: Node):
    """Inference of a dequantization's Convert: the shape, never the value, so the integer weights it reads are
    not folded into float ones."""
    shape = node.in_port(0).data.get_shape()
    if shape is not None:
        node.out_port(0).data.set_shape(shape)


def known_rank(node: Node, port: int):
    """The rank of the node's input ``port`` where the model states it (a constant, a graph input), else None."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    if source.soft_get('op') == 'Const' and source.has_valid('value'):
        return np.ndim(source.value)
    if source.soft_get('op') == 'Parameter' and source.has_valid('shape'):
        return len(source.shape)
    return None


def _converted(b: Builder, value, dtype, like, tag: str, fold: bool = True):
    """``value`` converted to ``dtype`` (a Convert), or to the type of ``like`` where ``dtype`` is unknown (a
    ConvertLike, folded once inference knows it); ``fold=False`` keeps a Convert of constant integers as it is."""
    if dtype is None:
        return b.op(ConvertLike, [value, like], tag)
    attrs = {'dst_type': np.dtype(dtype)}
    if not fold:
        attrs['infer'] = _convert_shape_only
    return b.op(Convert, [value], tag, **attrs)


def _float_const(b: Builder, value, dtype, like, tag: str):
    """A float constant of ``dtype``, or of ``like``'s type where ``dtype`` is unknown."""
    if dtype is None:
        return b.op(ConvertLike, [b.const(np.array(value, np.float32), tag + '/value'), like], tag)
    return b.const(np.array(value, dtype), tag)


def along_axis(b: Builder, value, x, axis, block_size: int, rank, tag: str):
    """A scale or zero point ``value`` shaped to broadcast against the data ``x``: per tensor (``axis`` None, or a
    scalar ``value``) as is; per axis ``[C]`` -> ``[C, 1, ...]``; blocked repeated along ``axis``."""
    if block_size:
        length = b.op(Gather, [b.op(ShapeOf, [x], tag + '/x_shape', output_type=I64),
                               b.const(np.array(axis, I64), tag + '/axis_index'),
                               b.const(np.array(0, I64), tag + '/zero')], tag + '/length')
        positions = b.op(Range, [b.const(np.array(0, I64), tag + '/start'), length,
                                 b.const(np.array(1, I64), tag + '/step')], tag + '/positions', output_type=I64)
        blocks = b.op(Div, [positions, b.const(np.array(block_size, I64), tag + '/block_size')], tag + '/blocks')
        return b.op(Gather, [value, blocks, b.const(np.array(axis, I64), tag + '/axis')], tag)
    if axis is None or rank == 0 or axis == -1:
        return value
    if axis < 0:
        return b.op(Reshape, [value, b.const(np.array([-1] + [1] * (-axis - 1), I64), tag + '/shape')], tag)
    # as many 1s as x has axes after ``axis``: read from x's shape (a constant once shapes are inferred)
    tail = shape_tail(b, x, axis + 1, tag + '/tail')
    ones = b.op(Add, [b.op(Mul, [tail, b.const(np.array(0, I64), tag + '/zero')], tag + '/zeros'),
                      b.const(np.array(1, I64), tag + '/one')], tag + '/ones')
    target = b.concat([b.const(np.array([-1], I64), tag + '/channels'), ones], tag + '/shape')
    return b.op(Reshape, [value, target], tag)


class Quantization:
    """The scale and zero point of one QuantizeLinear/DequantizeLinear-like node, broadcast against its data.

    ``scale_port``/``zero_port`` are the node's input ports (the zero point may be unconnected); ``data`` is the
    tensor they apply to (an output port or input port), ``float_type`` its float type where known."""

    def __init__(self, b: Builder, node: Node, scale_port: int, zero_port: int, data, float_type, axis=None,
                 block_size: int = 0, tag: str = 'q'):
        rank = known_rank(node, scale_port)
        scale = node.in_port(scale_port)
        self.float_type = float_type
        self.like = scale
        self.scale = along_axis(b, scale, data, axis, block_size, rank, tag + '/scale')
        self.zero = None
        self.zero_connected = node.is_in_port_connected(zero_port)
        if self.zero_connected and not is_zero(node, zero_port):
            zero = _converted(b, node.in_port(zero_port), float_type, scale, tag + '/zero_point_float')
            self.zero = along_axis(b, zero, data, axis, block_size, rank, tag + '/zero_point')

    def bound(self, b: Builder, level: int, tag: str):
        """``(level - zero point) * scale``: the float value of the integer ``level``."""
        level_value = _float_const(b, level, self.float_type, self.like, tag + '/level')
        if self.zero is not None:
            level_value = b.op(Sub, [level_value, self.zero], tag + '/shifted')
        return b.op(Mul, [level_value, self.scale], tag)

    def dequantize(self, b: Builder, x_float, tag: str):
        """``(x_float - zero point) * scale``."""
        if self.zero is not None:
            x_float = b.op(Sub, [x_float, self.zero], tag + '/subtract_zero_point')
        return b.op(Mul, [x_float, self.scale], tag + '/multiply_scale')

    def quantize(self, b: Builder, x, dtype, tag: str, saturate: bool = True, convert: bool = True):
        """``Convert(Clamp(Round(x / scale) + zero point, qmin, qmax), dtype)`` (the float levels without the Convert
        when not ``convert``: integer types only); to float8 and float4 ``Convert(x /
        scale + zero point, dtype)`` (the Convert rounds), clamped to float8's range first with ``saturate`` (float4's
        Convert saturates: ONNX's float4 always does)."""
        if np.dtype(dtype).name in FLOAT_QDQ_TYPES:
            value = b.op(Div, [x, self.scale], tag + '/divide_scale')
            if self.zero is not None:
                value = b.op(Add, [value, self.zero], tag + '/add_zero_point')
            elif self.zero_connected and np.dtype(dtype).name not in FLOAT8_TYPES:
                # float4's x / scale + 0 (ONNX's formula, which its reference follows for float4 and not for
                # float8): -0 becomes +0. A Select, as OpenVINO drops an Add of zeros
                zero = _float_const(b, 0.0, self.float_type, self.like, tag + '/zero')
                value = b.op(Select, [b.op(Equal, [value, zero], tag + '/is_zero'), zero, value],
                             tag + '/add_zero_point')
            if saturate and np.dtype(dtype).name in FLOAT8_TYPES:
                return saturating_convert(b, value, dtype, tag)
            return b.op(Convert, [value], tag + '/convert', dst_type=np.dtype(dtype))
        info = _iinfo(dtype)
        value = b.op(Round, [b.op(Div, [x, self.scale], tag + '/divide_scale')], tag + '/round', mode='half_to_even')
        if self.zero is not None:
            value = b.op(Add, [value, self.zero], tag + '/add_zero_point')
        value = b.op(Clamp, [value], tag + '/saturate', min=float(info.min), max=float(info.max))
        if not convert:
            return value
        return b.op(Convert, [value], tag + '/convert', dst_type=np.dtype(dtype))


def is_zero(node: Node, port: int) -> bool:
    """Whether the node's input ``port`` is a constant of zeros (a symmetric quantization: no Subtract)."""
    source = node.in_port(port).get_source().node
    return source.soft_get('op') == 'Const' and source.has_valid('value') and not np.any(source.value)


def dequantize(b: Builder, node: Node, data_port: int, scale_port: int, zero_port: int, axis, block_size: int,
               tag: str):
    """DequantizeLinear of the node's input ``data_port``: Convert -> [Subtract] -> Multiply, the Convert left
    unfolded for integers narrower than 32 bits (the plugin reads those weights as int8)."""
    float_type = input_dtype(node, scale_port)
    data = node.in_port(data_port)
    data_type = input_dtype(node, data_port)
    keep = data_type is None or np.dtype(data_type).itemsize < 4
    x_float = _converted(b, data, float_type, node.in_port(scale_port), tag + '/convert', fold=not keep)
    quantization = Quantization(b, node, scale_port, zero_port, data, float_type, axis, block_size, tag)
    return quantization.dequantize(b, x_float, tag)


def _dequantize_linears(port):
    """The DequantizeLinear nodes reading ``port``, or None when anything else reads it too."""
    readers = [destination.node for destination in port.get_destinations()]
    return readers if readers and all(r.soft_get('op') == 'ONNXDequantizeLinear' for r in readers) else None


class ONNXDequantizeLinearLowering(OpRule):
    """DequantizeLinear(QuantizeLinear(x)) = FakeQuantize(x, (qmin - z_q) * s_q, (qmax - z_q) * s_q,
    (qmin - z_dq) * s_dq, (qmax - z_dq) * s_dq) with qmax - qmin + 1 levels (when DequantizeLinears alone read the
    QuantizeLinear; for 16-bit types (Clamp(Round(x / s_q) + z_q, qmin, qmax) - z_dq) * s_dq); otherwise
    DequantizeLinear(x) = (Convert(x) - zero point) * scale."""
    op = 'ONNXDequantizeLinear'

    def rewrite(self, node: Node, b: Builder):
        source = node.in_port(0).get_source().node
        # float8 and float4 have no FakeQuantize form: their levels are not evenly spaced
        if source.soft_get('op') == 'ONNXQuantizeLinear' and _dequantize_linears(source.out_port(0)) and \
                np.dtype(source.quantized_type).name not in FLOAT_QDQ_TYPES:
            if np.dtype(source.quantized_type).itemsize == 2:
                return self.round_trip(source, node, b)
            return self.fake_quantize(source, node, b)
        return dequantize(b, node, 0, 1, 2, node.axis, node.block_size, 'dequantize')

    @staticmethod
    def fake_quantize(quantize: Node, node: Node, b: Builder):
        x = quantize.in_port(0)
        float_type = input_dtype(quantize, 1) or input_dtype(node, 1)
        info = _iinfo(quantize.quantized_type)
        q = Quantization(b, quantize, 1, 2, x, float_type, quantize.axis, quantize.block_size, 'input')
        dq = Quantization(b, node, 1, 2, x, float_type, node.axis, node.block_size, 'output')
        bounds = [q.bound(b, int(info.min), 'input_low'), q.bound(b, int(info.max), 'input_high'),
                  dq.bound(b, int(info.min), 'output_low'), dq.bound(b, int(info.max), 'output_high')]
        return b.op(FakeQuantize, [x] + bounds, 'fake_quantize', levels=int(info.max) - int(info.min) + 1)

    @staticmethod
    def round_trip(quantize: Node, node: Node, b: Builder):
        """``(Clamp(Round(x / s_q) + z_q, qmin, qmax) - z_dq) * s_dq`` in float: the integer levels of a 16-bit
        type are exact in f32 (below 2^24), so no Convert to int16 is needed."""
        x = quantize.in_port(0)
        float_type = input_dtype(quantize, 1) or input_dtype(node, 1)
        q = Quantization(b, quantize, 1, 2, x, float_type, quantize.axis, quantize.block_size, 'quantize')
        levels = q.quantize(b, x.get_source(), quantize.quantized_type, 'quantize', convert=False)
        dq = Quantization(b, node, 1, 2, x, float_type, node.axis, node.block_size, 'dequantize')
        return dq.dequantize(b, levels, 'dequantize')


class ONNXQuantizeLinearLowering(OpRule):
    """QuantizeLinear(x) = Convert(Clamp(Round(x / scale) + zero point, qmin, qmax)) (half to even), where no
    DequantizeLinear took it into a FakeQuantize."""
    op = 'ONNXQuantizeLinear'

    def run_after(self):
        return [ONNXDequantizeLinearLowering]

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        q = Quantization(b, node, 1, 2, x, input_dtype(node, 1) or input_dtype(node, 0), node.axis, node.block_size,
                         'quantize')
        return q.quantize(b, x.get_source(), node.quantized_type, 'quantize', node.soft_get('saturate', True))


class ONNXDynamicQuantizeLinearLowering(OpRule):
    """DynamicQuantizeLinear(x) = (y, scale, zero point) with lo = min(min(x), 0), hi = max(max(x), 0),
    scale = (hi - lo) / 255, zero point = Clamp(Round(-lo / scale), 0, 255) and y = Convert(Clamp(Round(x / scale)
    + zero point, 0, 255)) (uint8)."""
    op = 'ONNXDynamicQuantizeLinear'

    def rewrite(self, node: Node, b: Builder):
        levels, scale, zero_point = dynamic_uint8(b, node.in_port(0).get_source())
        y = b.op(Convert, [levels], 'quantized', dst_type=np.dtype(np.uint8))
        return [y, scale, b.op(Convert, [zero_point], 'zero_point', dst_type=np.dtype(np.uint8))]


def dynamic_uint8(b: Builder, x):
    """DynamicQuantizeLinear's arithmetic on the f32 tensor ``x``: its uint8 levels, scale and zero point, the levels
    and the zero point as f32 (Convert them for uint8)."""
    flat = b.op(Reshape, [x, b.const(np.array([-1], I64), 'flat_shape')], 'flat')
    axis = b.const(np.array([0], I64), 'reduce_axis')
    zero = b.const(np.array(0, np.float32), 'zero')
    low = b.op(Minimum, [b.op(ReduceMin, [flat, axis], 'min'), zero], 'low')
    high = b.op(Maximum, [b.op(ReduceMax, [flat, axis], 'max'), zero], 'high')
    scale = b.op(Div, [b.op(Sub, [high, low], 'range'), b.const(np.array(255, np.float32), 'levels')], 'scale')
    zero_point = b.op(Clamp, [b.op(Round, [b.op(Div, [b.op(Sub, [zero, low], 'minus_low'), scale],
                                                'zero_point_exact')], 'zero_point_round', mode='half_to_even')],
                      'zero_point_float', min=0.0, max=255.0)
    value = b.op(Round, [b.op(Div, [x, scale], 'divide_scale')], 'round', mode='half_to_even')
    levels = b.op(Clamp, [b.op(Add, [value, zero_point], 'add_zero_point')], 'saturate', min=0.0, max=255.0)
    return levels, scale, zero_point


def requantize(b: Builder, node: Node, accumulated, scale_ports, axes, dtype, tag: str = 'y'):
    """QuantizeLinear of an integer accumulator ``accumulated`` (f32) whose float value is ``accumulated *
    s_1 * s_2``: ``Convert(Clamp(Round(accumulated * (s_1 * s_2 / y_scale)) + y_zero_point))``, the multiplier
    computed in the scales' own type first, as ONNX's reference and onnxruntime compute it. ``scale_ports`` are the
    node's ports of s_1, s_2, y_scale and y_zero_point; ``axes`` the axis of s_1 and s_2 against ``accumulated``
    (None: as it is)."""
    first, second, y_scale, y_zero = scale_ports
    scales = [along_axis(b, node.in_port(port), accumulated, axis, 0, known_rank(node, port),
                         '{}/scale{}'.format(tag, port)) for port, axis in zip((first, second), axes)]
    multiplier = b.op(Div, [b.op(Mul, scales, tag + '/scale_product'), node.in_port(y_scale)], tag + '/multiplier')
    multiplier = b.op(Convert, [multiplier], tag + '/multiplier_f32', dst_type=np.dtype(np.float32))
    value = b.op(Mul, [accumulated, multiplier], tag + '/scaled')
    if node.is_in_port_connected(y_zero) and not is_zero(node, y_zero):
        zero = b.op(Convert, [node.in_port(y_zero)], tag + '/zero_point_f32', dst_type=np.dtype(np.float32))
        value = b.op(Add, [value, zero], tag + '/add_zero_point')
    info = np.iinfo(dtype)
    value = b.op(Round, [value], tag + '/round', mode='half_to_even')
    value = b.op(Clamp, [value], tag + '/saturate', min=float(info.min), max=float(info.max))
    return b.op(Convert, [value], tag + '/convert', dst_type=np.dtype(dtype))


class ONNXQLinearMatMulLowering(OpRule):
    """QLinearMatMul = requantized MatMul(Convert(a) - a_zero_point, Convert(b) - b_zero_point) (f32, exact for
    the integer sums it meets): Convert(Clamp(Round(acc * (a_scale * b_scale / y_scale)) + y_zero_point)); a 1-D
    scale or zero point of a is per row ([M, 1]), b's per column."""
    op = 'ONNXQLinearMatMul'

    def rewrite(self, node: Node, b: Builder):
        a_axis = -2 if known_rank(node, 1) == 1 else None
        a = centered(b, node, 0, 2, np.float32, a_axis, 'a')
        b_ = centered(b, node, 3, 5, np.float32, None, 'b')
        product = b.op(MatMul, [a, b_], 'matmul')
        return requantize(b, node, product, (1, 4, 6, 7), (a_axis, None), node.quantized_type)


def _convolution(b: Builder, node: Node, data, weights):
    if node.group == 1:
        return b.op(Convolution, [data, weights], 'conv', **window(node))
    return b.op(GroupConvolution, [data, grouped_weights(b, weights, node.group, 'grouped_weights')], 'conv',
                **window(node))


class ONNXQLinearConvLowering(OpRule):
    """QLinearConv = requantized (Convolution(Convert(x) - x_zero_point, Convert(w) - w_zero_point (per output
    channel)) + B): Convert(Clamp(Round(acc * (x_scale * w_scale / y_scale)) + y_zero_point)), the convolution in
    f32 (exact for the integer sums it meets); GroupConvolution (weights [G, O/G, C/G, k...]) for group > 1."""
    op = 'ONNXQLinearConv'

    def rewrite(self, node: Node, b: Builder):
        x = centered(b, node, 0, 2, np.float32, None, 'x')
        w_axis = 0 if known_rank(node, 5) != 0 else None
        w = centered(b, node, 3, 5, np.float32, w_axis, 'w')
        conv = _convolution(b, node, x, w)
        if node.is_in_port_connected(8):
            bias = b.op(Convert, [node.in_port(8)], 'bias_f32', dst_type=np.dtype(np.float32))
            conv = b.op(Add, [conv, per_channel(b, bias, conv, 'bias_per_channel')], 'bias_add')
        w_scale_axis = 1 if known_rank(node, 4) != 0 else None  # per output channel: axis 1 of the result
        return requantize(b, node, conv, (1, 4, 6, 7), (None, w_scale_axis), node.quantized_type)


def centered(b: Builder, node: Node, data_port: int, zero_port: int, dtype, axis, tag: str):
    """``Convert(x, dtype) - Convert(zero point, dtype)`` (the zero point broadcast along ``axis``)."""
    data_type = input_dtype(node, data_port)
    keep = data_type is None or np.dtype(data_type).itemsize < 4  # integer weights stay as they are
    value = _converted(b, node.in_port(data_port), dtype, None, tag + '/convert', fold=not keep)
    if not node.is_in_port_connected(zero_port) or is_zero(node, zero_port):
        return value
    zero = b.op(Convert, [node.in_port(zero_port)], tag + '/zero_point_convert', dst_type=np.dtype(dtype))
    rank = known_rank(node, zero_port)
    zero = along_axis(b, zero, node.in_port(data_port), axis, 0, rank, tag + '/zero_point')
    return b.op(Sub, [value, zero], tag + '/centered')


class ONNXMatMulIntegerLowering(OpRule):
    """MatMulInteger(A, B, a_zero_point, b_zero_point) = MatMul(Convert(A) - a_zero_point (per row: [M, 1]),
    Convert(B) - b_zero_point (per column)) in int32."""
    op = 'ONNXMatMulInteger'

    def rewrite(self, node: Node, b: Builder):
        a_axis = -2 if known_rank(node, 2) == 1 else None
        a = centered(b, node, 0, 2, np.int32, a_axis, 'a')
        b_ = centered(b, node, 1, 3, np.int32, None, 'b')
        return b.op(MatMul, [a, b_], 'matmul')


class ONNXConvIntegerLowering(OpRule):
    """ConvInteger(x, w, x_zero_point, w_zero_point) = Convert(Convolution(Convert(x) - x_zero_point,
    Convert(w) - w_zero_point (per output channel)), int32), the convolution in f32 (exact for integer sums below
    2^24)."""
    op = 'ONNXConvInteger'

    def rewrite(self, node: Node, b: Builder):
        x = centered(b, node, 0, 2, np.float32, None, 'x')
        w_axis = 0 if known_rank(node, 3) != 0 else None
        w = centered(b, node, 1, 3, np.float32, w_axis, 'w')
        conv = _convolution(b, node, x, w)
        return b.op(Convert, [b.op(Round, [conv], 'round', mode='half_to_even')], 'convert',
                    dst_type=np.dtype(np.int32))
