"""Extractors for onnxruntime's QOperator int8 ops (``com.microsoft``): QLinearAdd, QLinearMul, QLinearConcat,
QLinearGlobalAveragePool, QLinearAveragePool, QLinearLeakyRelu, QLinearSigmoid, QLinearSoftmax, QGemm,
DynamicQuantizeMatMul, MatMulIntegerToFloat, and the two a dynamic-quantized BERT has after onnxruntime's transformer
optimizer, QAttention and QEmbedLayerNormalization.

Each becomes an internal op ``ONNXMSQ...`` with its attributes and the integer type it produces; ``qoperator_lowering``
builds the arithmetic onnxruntime's CPU kernels compute (requantisation rounding half to even, saturation to the
type's range). The quantized type of a QLinear op is its output zero point's, else its input's (the op schemas tie
them to one type T).
"""
import numpy as np

from extensions.front.onnx import microsoft_attention_ext as attention
from extensions.front.onnx.elementwise_ext import input_dtype
from extensions.front.onnx.math_ext import internal_op
from extensions.front.onnx.pool_ext import pool_attrs
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error

#: the integer types the QOperator kernels of onnxruntime take
EIGHT_BIT = ('int8', 'uint8')


def _name(node) -> str:
    return node.soft_get('name', node.id)


def eight_bit_type(node, ports, op: str = None):
    """The 8-bit type of the first of the node's input ``ports`` whose type the model states (uint8 when none does);
    an Error for a type other than int8 and uint8."""
    for port in ports:
        dtype = input_dtype(node, port)
        if dtype is not None:
            if np.dtype(dtype).name not in EIGHT_BIT:
                raise Error('{} "{}": input {} is of type {}, not int8 or uint8', op or node.op, _name(node), port,
                            np.dtype(dtype))
            return np.dtype(dtype)
    return np.dtype(np.uint8)


class _QLinearExtractor(FrontExtractorOp):
    """Base of the QLinear extractors: ``internal`` is the internal op, ``type_ports`` the ports whose type gives the
    quantized type (output zero point first), ``attrs(node)`` the op's own attributes."""
    _abstract = True
    framework = 'onnx'
    internal = None
    type_ports = ()

    @classmethod
    def attrs(cls, node) -> dict:
        return {}

    @classmethod
    def extract(cls, node):
        return internal_op(node, cls.internal, quantized_type=eight_bit_type(node, cls.type_ports, cls.op),
                           **cls.attrs(node))


class QLinearAddExtractor(_QLinearExtractor):
    """QLinearAdd(A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp) -> requantized A + B (numpy broadcasting)."""
    op = 'QLinearAdd'
    internal = 'ONNXMSQLinearAdd'
    type_ports = (7, 0, 3)


class QLinearMulExtractor(_QLinearExtractor):
    """QLinearMul(A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp) -> requantized A * B (numpy broadcasting)."""
    op = 'QLinearMul'
    internal = 'ONNXMSQLinearMul'
    type_ports = (7, 0, 3)


class QLinearLeakyReluExtractor(_QLinearExtractor):
    """QLinearLeakyRelu(X, X_scale, X_zp, Y_scale, Y_zp) -> requantized LeakyRelu (alpha 0.01 by default)."""
    op = 'QLinearLeakyRelu'
    internal = 'ONNXMSQLinearLeakyRelu'
    type_ports = (4, 0, 2)

    @classmethod
    def attrs(cls, node) -> dict:
        return {'alpha': float(onnx_attr(node, 'alpha', 'f', 0.01))}


class QLinearSigmoidExtractor(_QLinearExtractor):
    """QLinearSigmoid(X, X_scale, X_zp, Y_scale, Y_zp) -> requantized Sigmoid."""
    op = 'QLinearSigmoid'
    internal = 'ONNXMSQLinearSigmoid'
    type_ports = (4, 0, 2)


class QLinearConcatExtractor(_QLinearExtractor):
    """QLinearConcat(Y_scale, Y_zp, X_1, X_1_scale, X_1_zp, ...) -> Concat of each input requantized to Y's
    quantization, along ``axis`` (required)."""
    op = 'QLinearConcat'
    internal = 'ONNXMSQLinearConcat'
    type_ports = (1, 2, 4)

    @classmethod
    def attrs(cls, node) -> dict:
        axis = onnx_attr(node, 'axis', 'i', None)
        if axis is None:
            raise Error('QLinearConcat "{}": the attribute axis is required', _name(node))
        return {'axis': int(axis)}


def _channels_last(node) -> bool:
    value = onnx_attr(node, 'channels_last', 'i', 0)
    if value not in (0, 1):
        raise Error('{} "{}": channels_last must be 0 or 1, got {}', node.op, _name(node), value)
    return bool(value)


class QLinearGlobalAveragePoolExtractor(_QLinearExtractor):
    """QLinearGlobalAveragePool(X, x_scale, x_zp, y_scale, y_zp) -> requantized mean over the spatial axes (kept);
    ``channels_last``: X is [N, spatial..., C]."""
    op = 'QLinearGlobalAveragePool'
    internal = 'ONNXMSQLinearGlobalAveragePool'
    type_ports = (4, 0, 2)

    @classmethod
    def attrs(cls, node) -> dict:
        return {'channels_last': _channels_last(node)}


class QLinearAveragePoolExtractor(_QLinearExtractor):
    """QLinearAveragePool(X, x_scale, x_zp, y_scale, y_zp) -> AveragePool of the dequantized X (kernel_shape, strides,
    pads, auto_pad, ceil_mode, count_include_pad), requantized; ``channels_last``: X is [N, spatial..., C]."""
    op = 'QLinearAveragePool'
    internal = 'ONNXMSQLinearAveragePool'
    type_ports = (4, 0, 2)

    @classmethod
    def attrs(cls, node) -> dict:
        attrs = pool_attrs(node)
        attrs.pop('dilations', None)
        include_pad = bool(onnx_attr(node, 'count_include_pad', 'i', 0))
        pads = list(attrs.get('pads_begin', [])) + list(attrs.get('pads_end', []))
        if include_pad and attrs['rounding_type'] == 'ceil_torch' and (any(pads) or attrs['auto_pad'] != 'explicit'):
            # onnxruntime divides a last window running past the padded input by the whole kernel, ONNX and
            # OpenVINO by its part inside: neither is the other's answer
            raise Error('QLinearAveragePool "{}": count_include_pad with ceil_mode and padding is not supported',
                        _name(node))
        return dict(attrs, count_include_pad=include_pad, channels_last=_channels_last(node))


class QLinearSoftmaxExtractor(_QLinearExtractor):
    """QLinearSoftmax(X, X_scale, x_zp, y_scale, y_zp) -> requantized Softmax over ``axis`` (-1 by default, the
    schema's default whatever ``opset`` says; ``opset`` 13 on: that axis alone; before: the axes from ``axis`` on),
    computed as onnxruntime's kernel."""
    op = 'QLinearSoftmax'
    internal = 'ONNXMSQLinearSoftmax'
    type_ports = (4, 0, 2)

    @classmethod
    def attrs(cls, node) -> dict:
        opset = onnx_attr(node, 'opset', 'i', None)
        if opset is None:
            raise Error('QLinearSoftmax "{}": the attribute opset is required', _name(node))
        return {'axis': int(onnx_attr(node, 'axis', 'i', -1)), 'softmax_opset': int(opset)}


def _flag(node, attr: str) -> bool:
    value = onnx_attr(node, attr, 'i', 0)
    if value not in (0, 1):
        raise Error('{} "{}": {} must be 0 or 1, got {}', node.op, _name(node), attr, value)
    return bool(value)


class QGemmExtractor(FrontExtractorOp):
    """QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp) -> alpha * (A - a_zp) (B - b_zp) + C (int32) in
    the accumulator's scale a_scale * b_scale (b's per column), requantized to y's quantization, or float without
    y_scale; transA, transB."""
    op = 'QGemm'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        output_type = eight_bit_type(node, (8, 0), 'QGemm') if node.is_in_port_connected(7) else None
        return internal_op(node, 'ONNXMSQGemm', alpha=float(onnx_attr(node, 'alpha', 'f', 1.0)),
                           transpose_a=_flag(node, 'transA'), transpose_b=_flag(node, 'transB'),
                           quantized_type=output_type)


class DynamicQuantizeMatMulExtractor(FrontExtractorOp):
    """DynamicQuantizeMatMul(A, B, b_scale, b_zp, bias) -> A quantized to uint8 as DynamicQuantizeLinear does, its
    integer MatMul with B - b_zp (per column) scaled by a_scale * b_scale, + bias."""
    op = 'DynamicQuantizeMatMul'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        eight_bit_type(node, (1, 3), cls.op)
        return internal_op(node, 'ONNXMSDynamicQuantizeMatMul')


class MatMulIntegerToFloatExtractor(FrontExtractorOp):
    """MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zp, b_zp, bias) -> MatMul(A - a_zp, B - b_zp (per column)) *
    a_scale * b_scale (b's per column) + bias."""
    op = 'MatMulIntegerToFloat'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        eight_bit_type(node, (0, 4), cls.op)
        eight_bit_type(node, (1, 5), cls.op)
        return internal_op(node, 'ONNXMSMatMulIntegerToFloat')


class QAttentionExtractor(FrontExtractorOp):
    """QAttention(input, weight, bias, input_scale, weight_scale, mask_index, input_zp, weight_zp, past) ->
    Attention of Q, K, V = (input - input_zp) (weight - weight_zp) * input_scale * weight_scale + bias (the weight's
    scale and zero point per tensor or per column), with Attention's num_heads, scale, mask_filter_value,
    unidirectional; do_rotary and past_present_share_buffer are refused."""
    op = 'QAttention'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = attention.attention_attrs(node, cls.op)
        for flag in ('do_rotary', 'past_present_share_buffer'):
            if onnx_attr(node, flag, 'i', 0):
                raise Error('QAttention "{}": {} = 1 is not supported', _name(node), flag)
        eight_bit_type(node, (0, 6), cls.op)
        eight_bit_type(node, (1, 7), cls.op)
        return internal_op(node, 'ONNXMSQAttention', **attrs)


class QEmbedLayerNormalizationExtractor(FrontExtractorOp):
    """QEmbedLayerNormalization(input_ids, segment_ids, word/position/segment embeddings, gamma, beta (all
    quantized), mask, their scales, their zero points) -> EmbedLayerNormalization of the dequantized tables (epsilon);
    outputs layernorm_out and mask_index_out."""
    op = 'QEmbedLayerNormalization'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        for ports in ((2, 13), (3, 14), (4, 15), (5, 16), (6, 17)):
            eight_bit_type(node, ports, cls.op)
        return internal_op(node, 'ONNXMSQEmbedLayerNormalization',
                           epsilon=float(onnx_attr(node, 'epsilon', 'f', 1e-12)))
