"""onnxruntime's QOperator int8 ops (the internal ``ONNXMSQ...`` ops ``qoperator_ext`` extracts) as opset ops, with
the arithmetic of onnxruntime's CPU kernels.

Integer data is centred (``Convert(x) - zero point``) in f32, where sums of 8-bit products are exact below 2^24;
results are requantized as ``Convert(Clamp(Round(v) + y_zero_point, qmin, qmax))`` with rounding half to even, as the
kernels' ``nearbyint``/``cvtps`` do. Where a kernel reads a lookup table built from dequantized values (LeakyRelu,
Sigmoid, Concat) the formula is the table's: ``QuantizeLinear(f(x_scale * (x - x_zero_point)), y_scale, y_zero_point)``.
Integer weights stay integer behind an unfolded Convert (the IR form OpenVINO's CPU runs as int8 weights).
"""
import numpy as np

from extensions.front.onnx.microsoft_attention_ext import ONNXMSAttention
from extensions.front.onnx.microsoft_lowering import embed_layer_normalization
from extensions.front.onnx.quantize_lowering import Quantization, centered, dynamic_uint8, is_zero
from mo.front.common.nn_formulas import I64, axes_from
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp, Exp, Floor, Sigmoid
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.math_ops import Round
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import PRelu
from mo.ops.pooling import AvgPool
from mo.ops.reduce import ReduceMax, ReduceProd, ReduceSum
from mo.ops.shapeof import ShapeOf
from mo.ops.transpose import Transpose
from mo.utils.error import Error

F32 = np.dtype(np.float32)


def _f32(b: Builder, value, tag: str):
    return b.op(Convert, [value], tag, dst_type=F32)


def _requantized(b: Builder, node: Node, value, zero_port: int, tag: str = 'y'):
    """``Convert(Clamp(Round(value) + zero point, qmin, qmax))`` to the node's quantized type: ``value`` is already
    in units of the output scale."""
    info = np.iinfo(node.quantized_type)
    value = b.op(Round, [value], tag + '/round', mode='half_to_even')
    if node.is_in_port_connected(zero_port) and not is_zero(node, zero_port):
        value = b.op(Add, [value, _f32(b, node.in_port(zero_port), tag + '/zero_point_f32')], tag + '/add_zero_point')
    value = b.op(Clamp, [value], tag + '/saturate', min=float(info.min), max=float(info.max))
    return b.op(Convert, [value], tag + '/convert', dst_type=np.dtype(node.quantized_type))


def _dequantized(b: Builder, node: Node, data_port: int, scale_port: int, zero_port: int, tag: str):
    """``scale * (Convert(x) - zero point)`` in f32 (a per-column scale or zero point broadcasts on the last axis)."""
    return b.op(Mul, [centered(b, node, data_port, zero_port, F32, None, tag), node.in_port(scale_port)],
                tag + '/dequantized')


def _quantized(b: Builder, node: Node, value, scale_port: int, zero_port: int, tag: str = 'y', convert=True):
    """QuantizeLinear of the f32 ``value`` by the node's ``scale_port``/``zero_port`` to its quantized type."""
    quantization = Quantization(b, node, scale_port, zero_port, value, F32, tag=tag)
    return quantization.quantize(b, value, node.quantized_type, tag, convert=convert)


class ONNXMSQLinearAddLowering(OpRule):
    """QLinearAdd = requantized (A - A_zp) * (A_scale / C_scale) + (B - B_zp) * (B_scale / C_scale)."""
    op = 'ONNXMSQLinearAdd'

    def rewrite(self, node: Node, b: Builder):
        a = centered(b, node, 0, 2, F32, None, 'a')
        b_ = centered(b, node, 3, 5, F32, None, 'b')
        a_ratio = b.op(Div, [node.in_port(1), node.in_port(6)], 'a_ratio')
        b_ratio = b.op(Div, [node.in_port(4), node.in_port(6)], 'b_ratio')
        total = b.op(Add, [b.op(Mul, [a, a_ratio], 'a_scaled'), b.op(Mul, [b_, b_ratio], 'b_scaled')], 'sum')
        return _requantized(b, node, total, 7)


class ONNXMSQLinearMulLowering(OpRule):
    """QLinearMul = requantized (A - A_zp) * (B - B_zp) * (A_scale * B_scale / C_scale)."""
    op = 'ONNXMSQLinearMul'

    def rewrite(self, node: Node, b: Builder):
        a = centered(b, node, 0, 2, F32, None, 'a')
        b_ = centered(b, node, 3, 5, F32, None, 'b')
        ratio = b.op(Div, [b.op(Mul, [node.in_port(1), node.in_port(4)], 'scale_product'), node.in_port(6)], 'ratio')
        return _requantized(b, node, b.op(Mul, [b.op(Mul, [a, b_], 'product'), ratio], 'scaled'), 7)


class ONNXMSQLinearLeakyReluLowering(OpRule):
    """QLinearLeakyRelu = QuantizeLinear(LeakyRelu(X_scale * (X - X_zp), alpha), Y_scale, Y_zp)."""
    op = 'ONNXMSQLinearLeakyRelu'

    def rewrite(self, node: Node, b: Builder):
        x = _dequantized(b, node, 0, 1, 2, 'x')
        y = b.op(PRelu, [x, b.const(np.array([node.alpha], np.float32), 'alpha')], 'leaky_relu')
        return _quantized(b, node, y, 3, 4)


class ONNXMSQLinearSigmoidLowering(OpRule):
    """QLinearSigmoid = QuantizeLinear(Sigmoid(X_scale * (X - X_zp)), Y_scale, Y_zp)."""
    op = 'ONNXMSQLinearSigmoid'

    def rewrite(self, node: Node, b: Builder):
        return _quantized(b, node, b.op(Sigmoid, [_dequantized(b, node, 0, 1, 2, 'x')], 'sigmoid'), 3, 4)


class ONNXMSQLinearConcatLowering(OpRule):
    """QLinearConcat = Concat along axis of QuantizeLinear(X_i_scale * (X_i - X_i_zp), Y_scale, Y_zp) for each input."""
    op = 'ONNXMSQLinearConcat'

    def rewrite(self, node: Node, b: Builder):
        last = max(port for port in node.in_ports() if node.is_in_port_connected(port))
        if last < 4 or (last - 1) % 3:
            raise Error('QLinearConcat "{}": inputs after Y_scale and Y_zero_point must be (X, X_scale, X_zero_point) '
                        'triples', b.name)
        parts = []
        for index, port in enumerate(range(2, last + 1, 3)):
            tag = 'input{}'.format(index)
            x = _dequantized(b, node, port, port + 1, port + 2, tag)
            parts.append(_quantized(b, node, x, 0, 1, tag + '/requantized', convert=False))
        joined = b.op(Concat, parts, 'concat', axis=node.axis)
        return b.op(Convert, [joined], 'convert', dst_type=np.dtype(node.quantized_type))


class ONNXMSQLinearGlobalAveragePoolLowering(OpRule):
    """QLinearGlobalAveragePool = requantized ReduceSum(X - x_zp over the spatial axes, kept) * (x_scale / (y_scale *
    spatial size)); channels_last: the spatial axes are 1 .. rank - 2."""
    op = 'ONNXMSQLinearGlobalAveragePool'

    def rewrite(self, node: Node, b: Builder):
        x = centered(b, node, 0, 2, F32, None, 'x')
        axes = axes_from(b, x, 1, 'axes', stop_offset=-1) if node.channels_last else axes_from(b, x, 2, 'axes')
        total = b.op(ReduceSum, [x, axes], 'sum', keep_dims=True)
        sizes = b.op(Gather, [b.op(ShapeOf, [x], 'shape', output_type=np.dtype(I64)), axes,
                              b.const(np.array(0, I64), 'gather_axis')], 'spatial_sizes')
        count = _f32(b, b.op(ReduceProd, [sizes, b.const(np.array([0], I64), 'count_axis')], 'count_i64',
                             keep_dims=False), 'count')
        scale = b.op(Div, [node.in_port(1), b.op(Mul, [node.in_port(3), count], 'output_scale')], 'scale')
        return _requantized(b, node, b.op(Mul, [total, scale], 'scaled'), 4)


class ONNXMSQLinearAveragePoolLowering(OpRule):
    """QLinearAveragePool = QuantizeLinear(AvgPool(x_scale * (X - x_zp)), y_scale, y_zp) (channels_last: transposed
    to channels first and back)."""
    op = 'ONNXMSQLinearAveragePool'

    def rewrite(self, node: Node, b: Builder):
        x = _dequantized(b, node, 0, 1, 2, 'x')
        rank = len(node.kernel) + 2
        if node.channels_last:
            x = b.op(Transpose, [x, b.const(np.array([0, rank - 1] + list(range(1, rank - 1)), I64), 'to_nchw')],
                     'nchw')
        attrs = {attr: node[attr] for attr in ('kernel', 'strides', 'pads_begin', 'pads_end', 'auto_pad',
                                               'rounding_type', 'layout') if node.has_valid(attr)}
        if attrs['rounding_type'] == 'ceil_torch':
            attrs['version'] = 'opset14'
        pooled = b.op(AvgPool, [x], 'pool', **dict(attrs, **{'exclude-pad': not node.count_include_pad}))
        if node.channels_last:
            pooled = b.op(Transpose, [pooled, b.const(np.array([0] + list(range(2, rank)) + [1], I64), 'to_nhwc')],
                          'nhwc')
        return _quantized(b, node, pooled, 3, 4)


class ONNXMSQLinearSoftmaxLowering(OpRule):
    """QLinearSoftmax as onnxruntime's kernel computes it: e = Exp((X - max X) * X_scale) over the softmax axes (axis
    alone from opset 13, the axes from axis on before), y = Round(e * Floor(1 / y_scale) / ReduceSum(e)) + y_zp,
    saturated. (The kernel scales by the integer Floor(1 / y_scale), not 1 / y_scale; for int8 it also wraps a
    result above 127 where this saturates.)"""
    op = 'ONNXMSQLinearSoftmax'

    def rewrite(self, node: Node, b: Builder):
        x = _f32(b, node.in_port(0), 'x')
        if node.softmax_opset >= 13:
            axes = b.const(np.array([node.axis], I64), 'axes')
        else:
            axes = axes_from(b, x, node.axis, 'axes')
        highest = b.op(ReduceMax, [x, axes], 'max', keep_dims=True)
        e = b.op(Exp, [b.op(Mul, [b.op(Sub, [x, highest], 'shifted'), node.in_port(1)], 'scaled')], 'exp')
        total = b.op(ReduceSum, [e, axes], 'sum', keep_dims=True)
        levels = b.op(Floor, [b.op(Div, [b.const(np.array(1.0, np.float32), 'one'), node.in_port(3)], 'inverse')],
                      'levels')
        return _requantized(b, node, b.op(Div, [b.op(Mul, [e, levels], 'scaled_exp'), total], 'ratio'), 4)


class ONNXMSQGemmLowering(OpRule):
    """QGemm = MatMul(A - a_zp, B - b_zp, transA, transB) + C, times alpha * a_scale * b_scale (b's per column):
    requantized by y_scale and y_zp, or that float without y_scale."""
    op = 'ONNXMSQGemm'

    def rewrite(self, node: Node, b: Builder):
        a = centered(b, node, 0, 2, F32, None, 'a')
        # b's zero point per column N: B's axis 0 when B is [N, K]
        b_ = centered(b, node, 3, 5, F32, 0 if node.transpose_b else None, 'b')
        acc = b.op(MatMul, [a, b_], 'matmul', transpose_a=node.transpose_a, transpose_b=node.transpose_b)
        if node.is_in_port_connected(6):
            acc = b.op(Add, [acc, _f32(b, node.in_port(6), 'c_f32')], 'add_c')
        scale = node.in_port(1)
        if node.alpha != 1.0:
            scale = b.op(Mul, [b.const(np.array(node.alpha, np.float32), 'alpha'), scale], 'alpha_a_scale')
        scale = b.op(Mul, [scale, node.in_port(4)], 'scale')
        if node.quantized_type is None:
            return b.op(Mul, [acc, scale], 'y')
        multiplier = b.op(Div, [scale, node.in_port(7)], 'multiplier')
        return _requantized(b, node, b.op(Mul, [acc, multiplier], 'scaled'), 8)


class ONNXMSDynamicQuantizeMatMulLowering(OpRule):
    """DynamicQuantizeMatMul(A, B, b_scale, b_zp, bias) = MatMul(levels - a_zp, B - b_zp) * (a_scale * b_scale) +
    bias, with A's uint8 levels, scale and zero point as DynamicQuantizeLinear computes them."""
    op = 'ONNXMSDynamicQuantizeMatMul'

    def rewrite(self, node: Node, b: Builder):
        levels, a_scale, a_zero = dynamic_uint8(b, node.in_port(0).get_source())
        a = b.op(Sub, [levels, a_zero], 'a_centered')
        acc = b.op(MatMul, [a, centered(b, node, 1, 3, F32, None, 'b')], 'matmul')
        y = b.op(Mul, [acc, b.op(Mul, [a_scale, node.in_port(2)], 'scale')], 'scaled')
        if node.is_in_port_connected(4):
            y = b.op(Add, [y, node.in_port(4)], 'bias_add')
        return y


class ONNXMSMatMulIntegerToFloatLowering(OpRule):
    """MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zp, b_zp, bias) = MatMul(A - a_zp, B - b_zp) * (a_scale *
    b_scale) + bias (b's scale and zero point per column)."""
    op = 'ONNXMSMatMulIntegerToFloat'

    def rewrite(self, node: Node, b: Builder):
        acc = b.op(MatMul, [centered(b, node, 0, 4, F32, None, 'a'), centered(b, node, 1, 5, F32, None, 'b')],
                   'matmul')
        y = b.op(Mul, [acc, b.op(Mul, [node.in_port(2), node.in_port(3)], 'scale')], 'scaled')
        if node.is_in_port_connected(6):
            y = b.op(Add, [y, node.in_port(6)], 'bias_add')
        return y


class ONNXMSQAttentionLowering(OpRule):
    """QAttention = Attention(input - input_zp, (weight - weight_zp) * input_scale * weight_scale, bias, mask_index,
    past): the projection's integer sums scaled by the product of the scales (the weight's per column), then
    Attention's arithmetic (``extensions.middle.onnx.microsoft_attention_lowering``)."""
    op = 'ONNXMSQAttention'

    def rewrite(self, node: Node, b: Builder):
        for port, what in ((2, 'bias'), (3, 'input_scale'), (4, 'weight_scale')):
            if not node.is_in_port_connected(port):
                raise Error('QAttention "{}" has no input {} ({})', b.name, port, what)
        x = centered(b, node, 0, 6, F32, None, 'input')
        scale = b.op(Mul, [node.in_port(3), node.in_port(4)], 'dequant_scale')
        weights = b.op(Mul, [centered(b, node, 1, 7, F32, None, 'weight'), scale], 'weight_dequantized')
        inputs = [x, weights, node.in_port(2)] + [node.in_port(port) if node.is_in_port_connected(port) else None
                                                  for port in (5, 8)]
        attention = b.op(ONNXMSAttention, inputs, 'attention', num_heads=node.num_heads, scale=node.scale,
                         mask_filter_value=node.mask_filter_value, unidirectional=node.unidirectional)
        return [attention.out_port(0), attention.out_port(1) if node.is_out_port_connected(1) else None]


class ONNXMSQEmbedLayerNormalizationLowering(OpRule):
    """QEmbedLayerNormalization = EmbedLayerNormalization of the tables dequantized, (q - zero point) * scale."""
    op = 'ONNXMSQEmbedLayerNormalization'

    def rewrite(self, node: Node, b: Builder):
        inputs = {port: node.in_port(port) for port in (0, 1, 7) if node.is_in_port_connected(port)}
        names = {2: 'word_embedding', 3: 'position_embedding', 4: 'segment_embedding', 5: 'gamma', 6: 'beta'}
        for port, name in names.items():
            if node.is_in_port_connected(port):
                if not node.is_in_port_connected(port + 6):
                    raise Error('QEmbedLayerNormalization "{}" has no {}_scale (input {})', b.name, name, port + 6)
                inputs[port] = _dequantized(b, node, port, port + 6, port + 11, name)
        return embed_layer_normalization(b, 'QEmbedLayerNormalization', inputs, node.epsilon,
                                         [node.is_out_port_connected(port) for port in range(2)])
