"""Block-quantized weights as the compressed-weight form OpenVINO's CPU plugin runs: MatMulNBits,
GatherBlockQuantized (com.microsoft, ``weight_quant_ext.py``) and a blocked DequantizeLinear of constant weights.

The weights ``(code - zero point) * scale``, quantized in blocks of ``block_size`` along one axis, become

    Const codes [..., groups, block] (u4/i4/u8/i8) -> Convert (f32 or f16, never folded)
    -> Subtract Const zero point [..., groups, 1] (its own Convert of u4/u8 left unfolded too; no Subtract without one)
    -> Multiply Const scale [..., groups, 1] -> Reshape [..., groups * block] (-> Slice to the axis' length)
    (-> Transpose where the blocked axis is not the last) -> MatMul or Gather

(a short last block is padded; a Slice right after the weights keeps OpenVINO's CPU from reading them compressed, so
a MatMul pads its other operand with zeros instead and a Gather cuts the rows it gathered),
the blocked axis moved last at conversion time (a constant's reorder), so the ``.bin`` holds the codes at their own
width (u4/i4 two per byte), one scale and zero point per block: about the size of the ONNX model's quantized data,
never a scale expanded to the weights' size (which an int4 weight times a full-size f32 scale also crashes
OpenVINO's CPU with). The default zero point 2^(bits-1) of MatMulNBits (and of GatherBlockQuantized's uint8 data)
is folded into the codes instead: ``code - 2^(bits-1)`` is a signed code, the symmetric form (i4/i8, no Subtract).
MatMulNBits' 2-bit codes are u2 (four a byte: OpenVINO's CPU runs a MatMul of u2 weights compressed), with a u2 zero
point of 2 where the model gives none (the IR has no i2 for the symmetric form); GatherBlockQuantized's are held as
4-bit ones (the CPU gathers u4 rows compressed, but expands a u2 table to f32).
"""
import numpy as np

from mo.front.common.nn_formulas import I64
from extensions.front.onnx.quantize_lowering import _convert_shape_only
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.const import PackedNibbleConst
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, GreaterEqual, Less, LogicalAnd, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.matmul import MatMul
from mo.ops.pad import Pad
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.transpose import Transpose
from mo.utils import narrow_types
from mo.utils.error import Error

#: the integer types a blocked DequantizeLinear's constant weights may have for the compressed form
_CODE_TYPES = ('int4', 'uint4', 'int8', 'uint8', 'int16', 'uint16')


def _constant(node: Node, port: int, what: str, op: str):
    """The value of the node's constant input ``port``; an Error naming ``what`` when it is not a constant."""
    source = node.in_port(port).get_source().node if node.is_in_port_connected(port) else None
    if source is None or source.soft_get('op') != 'Const' or not source.has_valid('value'):
        raise Error('{} "{}": {} (input {}) must be a constant', op, node.soft_get('name', node.id), what, port)
    return np.asarray(source.value)


def _const_value(node: Node, port: int):
    """The value of the node's input ``port`` when it is a constant, else None."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    return np.asarray(source.value) if source.soft_get('op') == 'Const' and source.has_valid('value') else None


def unpack_bits(packed: np.ndarray, bits: int) -> np.ndarray:
    """uint8 ``packed`` holding ``8 // bits`` codes a byte along its last axis, the first in the low bits (onnxruntime's
    order), as one code a byte (uint8): the last axis ``8 // bits`` times as long."""
    packed = np.asarray(packed, np.uint8)
    if bits == 8:
        return packed
    if bits == 4:  # the usual case, without the general case's [..., 2] temporaries (weights of 10^8 codes)
        codes = np.empty(packed.shape[:-1] + (packed.shape[-1] * 2,), np.uint8)
        np.bitwise_and(packed, np.uint8(0x0F), out=codes[..., 0::2])
        np.right_shift(packed, np.uint8(4), out=codes[..., 1::2])
        return codes
    per_byte = 8 // bits
    shifts = (np.arange(per_byte) * bits).astype(np.uint8)
    codes = (packed[..., None] >> shifts) & np.uint8((1 << bits) - 1)
    return codes.reshape(packed.shape[:-1] + (packed.shape[-1] * per_byte,))


def code_type(bits: int, signed: bool) -> np.dtype:
    """The IR type holding ``bits``-bit codes: uint2 for 2 bits (unsigned only: the IR has no i2), int4/uint4 for 4,
    int8/uint8 for 8."""
    if bits == 8:
        return np.dtype(np.int8 if signed else np.uint8)
    if bits == 2 and not signed:
        return narrow_types.dtype('uint2')
    return narrow_types.dtype('int4' if signed else 'uint4')


def as_code_type(codes: np.ndarray, bits: int) -> np.ndarray:
    """Unsigned ``bits``-bit ``codes`` (uint8, one a byte) in their IR type (``code_type(bits, False)``): a view, as
    uint4 keeps its value in its byte's low bits."""
    return np.asarray(codes, np.uint8).view(code_type(bits, False))


def centered_codes(codes: np.ndarray, bits: int) -> np.ndarray:
    """Unsigned ``bits``-bit ``codes`` (uint8, one a byte) minus the middle of their range, 2^(bits-1): the signed
    codes of the symmetric form, exact in int4/int8. Computed in uint8, whose wrap-around is the two's complement an
    int8 reads, and an int4 its low four bits (its byte's form)."""
    shifted = np.asarray(codes, np.uint8) - np.uint8(1 << (bits - 1))
    if bits == 8:
        return shifted.view(np.int8)
    np.bitwise_and(shifted, np.uint8(0x0F), out=shifted)
    return shifted.view(code_type(bits, True))


def trimmed(b: Builder, x, length: int, axis: int, tag: str):
    """``x`` cut to its first ``length`` elements along ``axis``: a Slice."""
    return b.op(Slice, [x, b.const(np.array([0], I64), tag + '/start'), b.const(np.array([length], I64), tag + '/stop'),
                        b.const(np.array([1], I64), tag + '/step'), b.const(np.array([axis], I64), tag + '/axes')],
                tag)


def compressed_weights(b: Builder, codes: np.ndarray, scale: np.ndarray, zero, axis: int, block: int, tag: str,
                       op: str = 'weights', trim: bool = True, packed: np.ndarray = None):
    """``(Convert(codes) - zero) * scale``, ``codes`` quantized in blocks of ``block`` along ``axis``, in the
    compressed-weight form (see the module docstring). ``scale`` has the codes' shape but ``ceil(length / block)``
    along ``axis``; ``zero`` is None, integers of the codes' type or floats, of the scale's shape. A short last block
    is padded; without ``trim`` the result keeps the padding (whole blocks along ``axis``) for the caller to cut
    later (after a Gather along another axis, say: a Slice right after the weights keeps OpenVINO's CPU from reading
    them compressed). ``packed``: 4-bit codes as the IR stores them, uint8 [..., groups, block / 2] with the blocked
    axis last; ``codes`` then only tells their shape and type (any values: a broadcast zero costs no memory)."""
    rank = codes.ndim
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis < rank:
        raise Error('{} "{}": the quantized axis {} is out of range for rank-{} weights', op, b.name, axis, rank)
    codes, scale = np.moveaxis(codes, axis, -1), np.moveaxis(scale, axis, -1)
    length, groups = codes.shape[-1], -(-codes.shape[-1] // block)
    if scale.shape != codes.shape[:-1] + (groups,):
        raise Error('{} "{}": the scale\'s shape {} does not fit weights of shape {} in blocks of {} along axis {}',
                    op, b.name, list(np.moveaxis(scale, -1, axis).shape), list(np.moveaxis(codes, -1, axis).shape),
                    block, axis)
    padded = groups * block
    if padded != length:
        # the last block is short: pad it (the padding's products are cut off after the Reshape, or by the caller)
        codes = np.concatenate([codes, np.zeros(codes.shape[:-1] + (padded - length,), codes.dtype)], axis=-1)
    float_type = scale.dtype
    if packed is None:
        grouped = b.const(np.ascontiguousarray(codes).reshape(codes.shape[:-1] + (groups, block)), tag + '/codes')
    else:
        if axis != rank - 1 or padded != length or packed.shape != codes.shape[:-1] + (groups, block // 2):
            raise Error('{} "{}": packed codes of shape {} do not fit weights of shape {} in blocks of {}', op, b.name,
                        list(packed.shape), list(codes.shape), block)
        grouped = b.op(PackedNibbleConst, [], tag + '/codes', packed_nibbles=packed, data_type=codes.dtype,
                       shape=np.array(codes.shape[:-1] + (groups, block), I64))
    weights = b.op(Convert, [grouped], tag + '/convert', dst_type=float_type, infer=_convert_shape_only)
    if zero is not None:
        zero = np.ascontiguousarray(np.moveaxis(zero, axis, -1))[..., None]
        if zero.shape != scale.shape + (1,):
            raise Error('{} "{}": the zero point\'s shape {} differs from the scale\'s {}', op, b.name,
                        list(np.moveaxis(zero[..., 0], -1, axis).shape), list(np.moveaxis(scale, -1, axis).shape))
        if np.dtype(zero.dtype).kind in 'fc' or narrow_types.name_of(zero.dtype) == 'bfloat16':
            zero = b.const(zero.astype(float_type), tag + '/zero_point')
        else:
            # integer zero points stay at their width, as the codes do
            zero = b.op(Convert, [b.const(zero.astype(codes.dtype), tag + '/zero_point_codes')], tag + '/zero_point',
                        dst_type=float_type, infer=_convert_shape_only)
        weights = b.op(Sub, [weights, zero], tag + '/subtract_zero_point')
    weights = b.op(Mul, [weights, b.const(np.ascontiguousarray(scale[..., None]), tag + '/scale')],
                   tag + '/multiply_scale')
    weights = b.op(Reshape, [weights, b.const(np.array(codes.shape[:-1] + (padded,), I64), tag + '/shape')],
                   tag + '/ungrouped')
    if padded != length and trim:
        weights = trimmed(b, weights, length, -1, tag + '/unpadded')
    if axis != rank - 1:
        order = list(range(rank - 1))
        order.insert(axis, rank - 1)
        weights = b.op(Transpose, [weights, b.const(np.array(order, I64), tag + '/order')], tag + '/transpose')
    return weights


def padded_last_axis(b: Builder, x, extra: int, tag: str):
    """``x`` with ``extra`` zeros after the end of its last axis, whatever its rank: Pad(x, 0..., [0..., extra])."""
    zeros = b.op(Mul, [b.op(ShapeOf, [x], tag + '/shape', output_type=I64), b.const(np.array(0, I64), tag + '/zero')],
                 tag + '/pads_begin')
    leading = b.op(Slice, [zeros, b.const(np.array([0], I64), tag + '/start'),
                           b.const(np.array([-1], I64), tag + '/stop'), b.const(np.array([1], I64), tag + '/step')],
                   tag + '/leading')
    pads_end = b.concat([leading, b.const(np.array([extra], I64), tag + '/extra')], tag + '/pads_end')
    return b.op(Pad, [x, zeros, pads_end], tag, pad_mode='constant')


class ONNXMSMatMulNBitsLowering(OpRule):
    """MatMulNBits(A, B, scales, zero_points, g_idx, bias) = MatMul(A, W, transpose_b) (+ bias), W [N, K] the
    compressed weights (B's codes unpacked, per-block zero point and scale); A's columns gathered in g_idx's order
    where act-order groups are not the blocks, and padded with zeros to whole blocks."""
    op = 'ONNXMSMatMulNBits'

    def rewrite(self, node: Node, b: Builder):
        op, n, k, bits, block = 'MatMulNBits', node.N, node.K, node.bits, node.block_size
        groups = -(-k // block)
        packed = _constant(node, 1, 'B', op)
        blob = block * bits // 8
        if packed.dtype != np.uint8 or packed.size != n * groups * blob or packed.size == 0:
            raise Error('{} "{}": B must be uint8 of shape [N, ceil(K / block_size), block_size * bits / 8] = {} '
                        '(it is {} {})', op, b.name, [n, groups, blob], packed.dtype, list(packed.shape))
        # all the blocks' codes, the short last block's padding too: A is padded with zeros to match instead of the
        # weights sliced, as a Slice between the weights and the MatMul keeps OpenVINO's CPU from reading them
        # compressed (it decompresses them to f32 at compile time)
        packed = packed.reshape(n, groups, blob)
        scale = _constant(node, 2, 'scales', op)
        if scale.size != n * groups:
            raise Error('{} "{}": scales must have N * ceil(K / block_size) = {} elements (it has shape {})', op,
                        b.name, n * groups, list(scale.shape))
        scale = scale.reshape(n, groups)
        zero = _const_value(node, 3) if node.is_in_port_connected(3) else None
        if node.is_in_port_connected(3) and zero is None:
            raise Error('{} "{}": zero_points (input 3) must be a constant', op, b.name)
        a = node.in_port(0)
        order = self.act_order(node, b, k, block, groups) if node.is_in_port_connected(4) else None
        if order is not None:
            a = b.op(Gather, [a, b.const(order.astype(I64), 'act_order'), b.const(np.array(-1, I64), 'axis')],
                     'act_order_columns')
        # 4-bit codes in block order are B's bytes as they are: onnxruntime packs them as the IR does, two a byte,
        # the first in the low bits; they stay a view of the model's bytes (a 0.5B model's 250 MB), not unpacked
        nibbles = packed if bits == 4 and order is None else None
        codes = None if nibbles is not None else unpack_bits(packed, bits).reshape(n, groups * block)
        if zero is None and bits == 2:
            # the default zero point 2, kept as u2 zero points: no signed 2-bit type to fold it into
            zero = np.full((n, groups), 2, code_type(bits, False))
            codes = as_code_type(codes, bits)
        elif zero is None:
            if nibbles is not None:
                nibbles = nibbles ^ np.uint8(0x88)  # each code minus 8 as int4: its top bit flipped
                codes = np.broadcast_to(np.zeros((), code_type(bits, True)), (n, groups * block))
            else:
                codes = centered_codes(codes, bits)
        else:
            if zero.dtype == np.uint8:
                # packed like B, per row of N: ceil(groups * bits / 8) bytes
                if zero.size != n * -(-groups * bits // 8):
                    raise Error('{} "{}": packed uint8 zero_points must have shape [N, ceil(blocks * bits / 8)] = {} '
                                '(it has {})', op, b.name, [n, -(-groups * bits // 8)], list(zero.shape))
                zero = as_code_type(unpack_bits(zero.reshape(n, -1), bits)[:, :groups], bits)
            elif zero.size != n * groups:
                raise Error('{} "{}": float zero_points must have shape [N, blocks] = {} (it has {})', op, b.name,
                            [n, groups], list(zero.shape))
            else:
                zero = zero.reshape(n, groups)
            codes = np.broadcast_to(np.zeros((), code_type(bits, False)), (n, groups * block)) \
                if nibbles is not None else as_code_type(codes, bits)
        if order is not None:
            codes = np.concatenate([codes[:, order], codes[:, k:]], axis=1)
        if groups * block != k:
            a = padded_last_axis(b, a, groups * block - k, 'padded_a')
        weights = compressed_weights(b, codes, scale, zero, 1, block, 'weights', op, packed=nibbles)
        y = b.op(MatMul, [a, weights], 'matmul', transpose_b=True)
        if node.is_in_port_connected(5):
            y = b.op(Add, [y, node.in_port(5)], 'bias')
        return y

    @staticmethod
    def act_order(node: Node, b: Builder, k: int, block: int, groups: int):
        """The column order that makes g_idx's groups the blocks (None: they are already), from ``g_idx[k]``, the
        group of column k; an Error where its groups are not block_size columns each (the last the rest)."""
        g_idx = _constant(node, 4, 'g_idx', 'MatMulNBits').reshape(-1).astype(np.int64)
        blocks = np.arange(k) // block
        if g_idx.size != k:
            raise Error('MatMulNBits "{}": g_idx has {} elements, not K = {}', b.name, g_idx.size, k)
        if np.array_equal(g_idx, blocks):
            return None
        order = np.argsort(g_idx, kind='stable')
        if not np.array_equal(g_idx[order], blocks):
            # K columns in all: a group of another size than its block means some group in range is one
            group = next(g for g in range(groups) if np.sum(g_idx == g) != np.sum(blocks == g))
            raise Error('MatMulNBits "{}": g_idx puts {} columns in group {} where a block of block_size {} holds {}: '
                        'act-order groups of other sizes cannot be expressed as blocks', b.name,
                        int(np.sum(g_idx == group)), group, block, int(np.sum(blocks == group)))
        return order


def _with_zero_row(value: np.ndarray, axis: int) -> np.ndarray:
    """``value`` with one more row of zeros at the end of ``axis``."""
    shape = list(value.shape)
    shape[axis] = 1
    return np.concatenate([value, np.zeros(shape, value.dtype)], axis=axis)


def _in_range_or(b: Builder, indices, size: int, tag: str):
    """``indices`` (int64) with the negative ones counted from ``size`` and those out of [0, size) made ``size``."""
    indices = b.op(Convert, [indices], tag + '/i64', dst_type=np.dtype(I64))
    size_ = b.const(np.array(size, I64), tag + '/size')
    zero = b.const(np.array(0, I64), tag + '/zero')
    wrapped = b.op(Select, [b.op(Less, [indices, zero], tag + '/negative'),
                            b.op(Add, [indices, size_], tag + '/from_end'), indices], tag + '/wrapped')
    valid = b.op(LogicalAnd, [b.op(GreaterEqual, [wrapped, zero], tag + '/not_below'),
                              b.op(Less, [wrapped, size_], tag + '/below_size')], tag + '/valid')
    return b.op(Select, [valid, wrapped, size_], tag)


class ONNXMSGatherBlockQuantizedLowering(OpRule):
    """GatherBlockQuantized(data, indices, scales, zero_points) = Gather(W, indices, gather_axis), W the compressed
    weights (data's codes, per-block zero point and scale along quantize_axis) and a row of zeros that out-of-range
    indices read."""
    op = 'ONNXMSGatherBlockQuantized'

    def rewrite(self, node: Node, b: Builder):
        op, bits, block = 'GatherBlockQuantized', node.bits, node.block_size
        data = _constant(node, 0, 'data', op)
        scale = _constant(node, 2, 'scales', op)
        kind = narrow_types.name_of(data.dtype) or data.dtype.name
        if kind not in ('int4', 'uint4', 'uint8'):
            raise Error('{} "{}": data of type {} is not supported (int4, uint4 or uint8)', op, b.name, kind)
        rank = data.ndim
        gather_axis, quantize_axis = node.gather_axis, node.quantize_axis
        for name, value in (('gather_axis', gather_axis), ('quantize_axis', quantize_axis)):
            if not -rank <= value < rank:
                raise Error('{} "{}": {} {} is out of range for rank-{} data', op, b.name, name, value, rank)
        gather_axis, quantize_axis = gather_axis % rank, quantize_axis % rank
        zero = _const_value(node, 3)
        if node.is_in_port_connected(3) and zero is None:
            raise Error('{} "{}": zero_points (input 3) must be a constant', op, b.name)
        if kind == 'uint8':
            if gather_axis != 0 or (bits < 8 and gather_axis == quantize_axis):
                raise Error('{} "{}": uint8 data needs gather_axis 0 (and quantize_axis another axis for bits < 8); '
                            'they are {} and {}', op, b.name, gather_axis, quantize_axis)
            codes = unpack_bits(data, bits)
            # 2-bit codes held as 4-bit ones here: OpenVINO's CPU gathers u4 rows compressed, not u2 ones (it expands
            # u2 tables to f32 when it compiles)
            if zero is not None:
                # packed like the data, along the last axis; cut to the scale's shape
                zero = as_code_type(unpack_bits(zero, bits)[tuple(slice(0, d) for d in scale.shape)], max(bits, 4))
                codes = as_code_type(codes, max(bits, 4))
            else:
                codes = centered_codes(codes, bits)
        else:
            codes = data
            if zero is not None and not np.any(zero.astype(np.int8)):
                zero = None  # int4/uint4's default zero point is 0: no Subtract
        later = gather_axis != quantize_axis
        indices = node.in_port(1)
        if later:
            # onnxruntime gives zeros for an out-of-range index; OpenVINO's CPU, gathering compressed rows, reads
            # past the table: a row of zeros (scale 0) is appended and such indices point at it
            size = codes.shape[gather_axis]
            codes, scale = _with_zero_row(codes, gather_axis), _with_zero_row(scale, gather_axis)
            zero = None if zero is None else _with_zero_row(zero, gather_axis)
            indices = _in_range_or(b, indices, size, 'indices')
        # a short last block along quantize_axis is cut from the gathered rows, not from the weights
        weights = compressed_weights(b, codes, scale, zero, quantize_axis, block, 'weights', op, trim=not later)
        y = b.op(Gather, [weights, indices, b.const(np.array(gather_axis, I64), 'axis')], 'gather')
        length = codes.shape[quantize_axis]
        if later and length % block:
            # quantize_axis in the output: the same axis counted from the end where it follows gather_axis
            y = trimmed(b, y, length, quantize_axis - rank if quantize_axis > gather_axis else quantize_axis,
                        'unpadded')
        return y


def _blocked_weights(node: Node) -> bool:
    """Whether ``node`` (a DequantizeLinear) is blocked and reads constant integer weights, scale and zero point."""
    if node.soft_get('op') != 'ONNXDequantizeLinear' or not node.soft_get('block_size', 0):
        return False
    x, scale = _const_value(node, 0), _const_value(node, 1)
    zero_ok = not node.is_in_port_connected(2) or _const_value(node, 2) is not None
    return x is not None and scale is not None and zero_ok and x.ndim >= 1 and \
        (narrow_types.name_of(x.dtype) or x.dtype.name) in _CODE_TYPES and scale.ndim == x.ndim


def _dequantized(b: Builder, node: Node, trim: bool = True):
    """The compressed weights of the blocked DequantizeLinear ``node`` (``_blocked_weights``)."""
    x, scale = _const_value(node, 0), _const_value(node, 1)
    zero = _const_value(node, 2)
    if zero is not None and not np.any(zero.astype(np.int32)):
        zero = None  # a symmetric quantization: no Subtract
    axis = 1 if node.axis is None else node.axis
    return compressed_weights(b, x, scale, zero, axis, node.block_size, 'weights', 'DequantizeLinear', trim=trim)


class ONNXBlockedDequantizeMatMulLowering(OpRule):
    """MatMul(A, DequantizeLinear(w) blocked along K with a short last block) = MatMul(A padded with zeros to whole
    blocks, the compressed weights of whole blocks): no Slice between the weights and the MatMul, which would keep
    OpenVINO's CPU from reading them compressed."""
    op = 'MatMul'

    def run_before(self):
        return [ONNXBlockedDequantizeLinearLowering]

    def matches(self, node: Node) -> bool:
        if not node.is_in_port_connected(1) or node.soft_get('transpose_b', False):
            return False
        dq = node.in_port(1).get_source().node
        if not _blocked_weights(dq) or len(dq.out_port(0).get_destinations()) != 1:
            return False
        x = _const_value(dq, 0)
        axis = 1 if dq.axis is None else dq.axis
        return x.ndim >= 2 and axis % x.ndim == x.ndim - 2 and x.shape[-2] % dq.block_size != 0

    def rewrite(self, node: Node, b: Builder):
        dq = node.in_port(1).get_source().node
        length = _const_value(dq, 0).shape[-2]
        extra = -length % dq.block_size
        a = padded_last_axis(b, node.in_port(0), extra, 'padded_a')
        return b.op(MatMul, [a, _dequantized(b, dq, trim=False)], 'matmul',
                    transpose_a=node.soft_get('transpose_a', False))


class ONNXBlockedDequantizeLinearLowering(OpRule):
    """A blocked DequantizeLinear of constant integer weights = (Convert(x) - zero point) * scale in the
    compressed-weight form: the codes split in blocks along ``axis``, one zero point and scale per block (the other
    DequantizeLinears are ``quantize_lowering``'s)."""
    op = 'ONNXDequantizeLinear'

    def run_before(self):
        from extensions.front.onnx.quantize_lowering import ONNXDequantizeLinearLowering
        return [ONNXDequantizeLinearLowering]

    def matches(self, node: Node) -> bool:
        return _blocked_weights(node)

    def rewrite(self, node: Node, b: Builder):
        return _dequantized(b, node)
