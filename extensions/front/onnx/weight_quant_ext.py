"""Extractors for onnxruntime's contrib ops that carry block-quantized weights: ``MatMulNBits`` and
``GatherBlockQuantized`` (com.microsoft).

Each becomes an internal op (``ONNXMSMatMulNBits``, ``ONNXMSGatherBlockQuantized``) with its attributes checked here;
``weight_quant_lowering.py`` builds the compressed-weight form OpenVINO's CPU runs (u4/i4/u8/i8 constants behind an
unfolded Convert, a per-group zero point and scale).
"""
from extensions.front.onnx.math_ext import internal_op
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error

#: the bit widths of the codes (MatMulNBits' 2-bit codes are u2 in the IR, GatherBlockQuantized's widened to 4 bits)
BITS = (2, 4, 8)


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _bits(node, op: str) -> int:
    bits = int(onnx_attr(node, 'bits', 'i', 4))
    if bits not in BITS:
        raise Error('{} "{}": bits {} is not supported (2, 4 or 8)', op, _name(node), bits)
    return bits


def _block_size(node, op: str, default=None) -> int:
    block_size = onnx_attr(node, 'block_size', 'i', default)
    if block_size is None:
        raise Error('{} "{}" has no block_size attribute', op, _name(node))
    # onnxruntime asks for a power of two of at least 16; any positive size computes the same way here
    if int(block_size) <= 0:
        raise Error('{} "{}": block_size {} must be positive', op, _name(node), block_size)
    return int(block_size)


class MatMulNBitsExtractor(FrontExtractorOp):
    """com.microsoft MatMulNBits(A, B, scales, zero_points, g_idx, bias) -> ``ONNXMSMatMulNBits``: A times the
    transpose of the [N, K] weights ``(code - zero point) * scale``, codes of ``bits`` bits packed low bits first in
    blocks of ``block_size`` along K; ``accuracy_level`` (how onnxruntime may compute) is ignored."""
    op = 'MatMulNBits'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return ('MatMul of compressed u2/u4/i4/u8/i8 weights (Convert, Subtract, Multiply, Reshape): bits 2/4/8 '
                '(2-bit codes as u2), packed, float or default zero points, bias; g_idx whose groups are block_size '
                'columns each (act-order: a Gather of A\'s columns), other g_idx refused; weight_prepacked refused')

    @classmethod
    def extract(cls, node):
        attrs = {'bits': _bits(node, 'MatMulNBits'), 'block_size': _block_size(node, 'MatMulNBits')}
        for name in ('K', 'N'):
            value = onnx_attr(node, name, 'i', None)
            if value is None or value <= 0:
                raise Error('MatMulNBits "{}": attribute {} must be given and positive (it is {})', _name(node), name,
                            value)
            attrs[name] = int(value)
        prepacked = onnx_attr(node, 'weight_prepacked', 'i', 0)
        if prepacked:
            raise Error('MatMulNBits "{}": weight_prepacked {} (a CUDA layout) is not supported', _name(node),
                        prepacked)
        return internal_op(node, 'ONNXMSMatMulNBits', **attrs)


class GatherBlockQuantizedExtractor(FrontExtractorOp):
    """com.microsoft GatherBlockQuantized(data, indices, scales, zero_points) -> ``ONNXMSGatherBlockQuantized``:
    Gather along ``gather_axis`` of ``(data - zero point) * scale``, data quantized in blocks of ``block_size`` along
    ``quantize_axis`` (int4/uint4, or uint8 holding ``bits``-bit codes packed along the last axis)."""
    op = 'GatherBlockQuantized'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return ('Gather of compressed u4/i4/u8/i8 weights (Convert, Subtract, Multiply, Reshape): int4/uint4 data, '
                'or uint8 with bits 2/4/8; float8/float4 data refused')

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSGatherBlockQuantized', bits=_bits(node, 'GatherBlockQuantized'),
                           block_size=_block_size(node, 'GatherBlockQuantized', 128),
                           gather_axis=int(onnx_attr(node, 'gather_axis', 'i', 0)),
                           quantize_axis=int(onnx_attr(node, 'quantize_axis', 'i', 1)))
