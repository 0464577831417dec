"""Extractors for ONNX's quantization ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearConv,
QLinearMatMul, MatMulInteger and ConvInteger.

Each keeps an internal op name (``ONNXQuantizeLinear``...) and its attributes for ``quantize_lowering.py``, which
builds the form OpenVINO's CPU plugin runs as int8: a QuantizeLinear -> DequantizeLinear pair on float data becomes
one FakeQuantize, a DequantizeLinear of integer weights Convert -> Subtract(zero point) -> Multiply(scale) left
unfolded. Element types are checked here, where the node still says which ONNX op it is.
"""
import numpy as np

from extensions.front.onnx.elementwise_ext import input_dtype
from extensions.front.onnx.nn_ext import window_attrs
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.utils.error import Error

# Types by numpy name (``np.dtype(t).name``): the narrow ones are ml_dtypes', imported only when a model has one.
#: the integer types the QLinear*/...Integer ops read and produce
QUANTIZED_TYPES = ('int8', 'uint8', 'int16', 'uint16')
#: QuantizeLinear/DequantizeLinear also take int4/uint4 (opset 21), float8 (opset 19) and float4e2m1 (opset 23):
#: the float types with no zero point but 0, which a Convert rounds to (FLOAT8_TYPES: with ``saturate``)
FLOAT8_TYPES = ('float8_e4m3fn', 'float8_e5m2')
FLOAT_QDQ_TYPES = FLOAT8_TYPES + ('float4_e2m1fn',)
QDQ_TYPES = QUANTIZED_TYPES + ('int4', 'uint4') + FLOAT_QDQ_TYPES
_TYPES_TEXT = {QUANTIZED_TYPES: 'int8, uint8, int16, uint16',
               QDQ_TYPES: 'int8, uint8, int16, uint16, int4, uint4, float8e4m3fn, float8e5m2, float4e2m1'}


def _name(node):
    return node.soft_get('name', node.id)


def _granularity_attrs(node) -> dict:
    """``axis`` (per-axis quantization, opset 13 on; opset 10 knows per-tensor only) and ``block_size`` (blocked,
    opset 21 on; 0 when not blocked)."""
    version = get_onnx_opset_version(node)
    attrs = {'axis': int(onnx_attr(node, 'axis', 'i', 1)) if version >= 13 else None,
             'block_size': int(onnx_attr(node, 'block_size', 'i', 0)) if version >= 21 else 0}
    if attrs['block_size'] < 0:
        raise Error('{} "{}": block_size {} must not be negative', node.op, _name(node), attrs['block_size'])
    return attrs


def quantized_type(node, port: int, default=np.uint8, types=QUANTIZED_TYPES):
    """The quantized type of the node's input ``port`` (a zero point or a quantized tensor), ``default`` when the
    model does not state it; an Error for a type mo cannot quantize to (one not in ``types``)."""
    dtype = input_dtype(node, port)
    dtype = np.dtype(default if dtype is None else dtype)
    if dtype.name not in types and not (dtype == np.int32 and node.op == 'DequantizeLinear'):
        raise Error('{} "{}": quantized type {} is not one of {}', node.op, _name(node), dtype, _TYPES_TEXT[types])
    return dtype


class QuantizeLinearExtractor(FrontExtractorOp):
    """QuantizeLinear -> ``ONNXQuantizeLinear``: FakeQuantize together with a DequantizeLinear that reads it, else
    Convert(Clamp(Round(x / scale) + zero point)) to the zero point's type (or ``output_dtype``, or uint8)."""
    op = 'QuantizeLinear'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'FakeQuantize (with a DequantizeLinear) or Divide, Round, Add, Clamp, Convert'

    @classmethod
    def extract(cls, node):
        default = np.uint8
        output_dtype = onnx_attr(node, 'output_dtype', 'i', 0) if get_onnx_opset_version(node) >= 21 else 0
        if output_dtype:
            default = np_dtype(output_dtype, 'QuantizeLinear "{}" output_dtype'.format(_name(node)))
        dtype = quantized_type(node, 2, default, QDQ_TYPES) if node.is_in_port_connected(2) else np.dtype(default)
        if output_dtype and np.dtype(dtype) != np.dtype(default):
            raise Error('QuantizeLinear "{}": output_dtype {} differs from the zero point\'s type {}', _name(node),
                        np.dtype(default), dtype)
        if np.dtype(dtype).name not in QDQ_TYPES:
            raise Error('QuantizeLinear "{}": quantized type {} is not one of {}', _name(node), dtype,
                        _TYPES_TEXT[QDQ_TYPES])
        # saturate (opset 19) only concerns float8: the cast of x / scale + zero point to it
        node.attrs().update(_granularity_attrs(node), quantized_type=np.dtype(dtype),
                            saturate=bool(onnx_attr(node, 'saturate', 'i', 1)))
        node['op'] = 'ONNXQuantizeLinear'
        return True


class DequantizeLinearExtractor(FrontExtractorOp):
    """DequantizeLinear -> ``ONNXDequantizeLinear``: (Convert(x) - zero point) * scale, the Convert of constant
    integer weights kept so the plugin reads them as int8."""
    op = 'DequantizeLinear'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Convert, Subtract, Multiply (FakeQuantize after a QuantizeLinear)'

    @classmethod
    def extract(cls, node):
        dtype = input_dtype(node, 0)
        if dtype is not None:
            quantized_type(node, 0, types=QDQ_TYPES)
        node.attrs().update(_granularity_attrs(node))
        node['op'] = 'ONNXDequantizeLinear'
        return True


class DynamicQuantizeLinearExtractor(FrontExtractorOp):
    """DynamicQuantizeLinear -> ``ONNXDynamicQuantizeLinear``: scale and zero point from the input's range
    (widened to include 0) over 256 uint8 levels, then QuantizeLinear's formula."""
    op = 'DynamicQuantizeLinear'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'ReduceMin/ReduceMax, Divide, Round, Clamp, Convert'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNXDynamicQuantizeLinear'
        return True


class QLinearMatMulExtractor(FrontExtractorOp):
    """QLinearMatMul -> ``ONNXQLinearMatMul``: QuantizeLinear(MatMul(DequantizeLinear(a) per row,
    DequantizeLinear(b) per column), y_scale, y_zero_point)."""
    op = 'QLinearMatMul'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'MatMul between Convert/Subtract/Multiply dequantizations, then the QuantizeLinear formula'

    @classmethod
    def extract(cls, node):
        node['quantized_type'] = quantized_type(node, 7)
        node['op'] = 'ONNXQLinearMatMul'
        return True


class QLinearConvExtractor(FrontExtractorOp):
    """QLinearConv -> ``ONNXQLinearConv``: QuantizeLinear(Convolution(DequantizeLinear(x), DequantizeLinear(w) per
    output channel) + B * x_scale * w_scale, y_scale, y_zero_point); GroupConvolution for group > 1."""
    op = 'QLinearConv'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Convolution/GroupConvolution between dequantizations, then the QuantizeLinear formula'

    @classmethod
    def extract(cls, node):
        group = onnx_attr(node, 'group', 'i', 1)
        if group < 1:
            raise Error('QLinearConv "{}": group {} must be positive', _name(node), group)
        node.attrs().update(dict(window_attrs(node), group=int(group), quantized_type=quantized_type(node, 7)))
        node['op'] = 'ONNXQLinearConv'
        return True


class MatMulIntegerExtractor(FrontExtractorOp):
    """MatMulInteger -> ``ONNXMatMulInteger``: MatMul of (A - a_zero_point) and (B - b_zero_point) in int32
    (a_zero_point per row of A, b_zero_point per column of B)."""
    op = 'MatMulInteger'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Convert to int32, Subtract, MatMul'

    @classmethod
    def extract(cls, node):
        node['op'] = 'ONNXMatMulInteger'
        return True


class ConvIntegerExtractor(FrontExtractorOp):
    """ConvInteger -> ``ONNXConvInteger``: Convolution of (x - x_zero_point) and (w - w_zero_point, per output
    channel) computed in f32 (exact for the sums of 8-bit products it meets) and converted to int32."""
    op = 'ConvInteger'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Convert, Subtract, Convolution/GroupConvolution, Round, Convert to int32'

    @classmethod
    def extract(cls, node):
        group = onnx_attr(node, 'group', 'i', 1)
        if group < 1:
            raise Error('ConvInteger "{}": group {} must be positive', _name(node), group)
        node.attrs().update(dict(window_attrs(node), group=int(group)))
        node['op'] = 'ONNXConvInteger'
        return True
