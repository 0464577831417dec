"""IntegerShift (TF's LeftShift/RightShift, ONNX's BitShift) with opset13 ops, once its element type is known.

opset15's BitwiseLeftShift/RightShift would be one op, but the IRs must load in OpenVINO 2023.3 (README), so the
shifts are formulas. Each is built so that no step overflows or rounds, because OpenVINO's CPU plugin computes
integers in its own way: an 8-bit Multiply saturates, an integer Divide truncates towards zero and goes through
f32 for 32 bits (wrong beyond 2^24), unsigned 32-bit values are signed ones inside (and a u32 constant of 2^31 or
more saturates to 2^31 - 1), 64-bit tensors keep their low 32 bits (and 64-bit constants saturate to the int32
range). What the formulas use is exact there: bitwise ops, a Multiply whose product fits, f32 arithmetic on values
of at most 16 significant bits, Floor, Converts of exact values.

32- and 64-bit types are shifted as signed 32-bit values (Converts around the formula): for 64 bits that is
exact when ``x``, and for a left shift the result, lie within int32 (uint64: ``x`` below 2^32), which is all
OpenVINO's CPU plugin holds of a 64-bit integer anyway; a 64-bit formula would need constants beyond int32,
which that plugin saturates.

The shift amount picks entries of constant tables by a Gather: index ``s`` in ``[0, bits)``, and index ``bits``
for ONNX's out-of-range amounts (its result: what the sign extension alone gives).

* ``x << s = (x & (2^(bits-1-s) - 1)) * 2^s | (top bit if bit (bits-1-s) of x is set)``: the product stays
  below 2^(bits-1), the bit that becomes the top (sign) bit is set with an Or.
* ``x >> s = floor(x * 2^-s)`` in f32 for 8 and 16 bits (exact). For 32 bits, ``x`` (read as signed) is cut into
  ``x & 0xFFFF`` and ``x & -0x10000`` (the high piece keeps the sign): each piece is exact in f32, its
  ``floor(piece * 2^-s)`` too, and the shifted pieces have no bit in common, so their Or is the arithmetic
  shift. An unsigned shift is the arithmetic one with the ``s`` top bits cleared.
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.activation_ops import Floor
from mo.ops.bitwise import BitwiseAnd, BitwiseOr
from mo.ops.convert import Convert
from mo.ops.elementwise import Less, Minimum, Mul, NotEqual
from mo.ops.gather import Gather
from mo.ops.select import Select
from mo.utils.error import Error


def _bits(values, dtype) -> np.ndarray:
    """Python integers as the bit patterns of ``dtype`` (2^(bits-1) is the sign bit of a signed type)."""
    dtype = np.dtype(dtype)
    unsigned = np.dtype('u{}'.format(dtype.itemsize))
    modulus = 1 << (8 * dtype.itemsize)
    return np.array([v % modulus for v in values], dtype=unsigned).view(dtype)


class IntegerShiftLowering(MiddleOpRule):
    """IntegerShift(x, y) -> the opset13 formulas of the module docstring."""
    id = 'IntegerShiftLowering'
    op = 'IntegerShift'

    def rewrite(self, node: Node, b: Builder):
        dtype = node.in_port(0).data.get_data_type()
        if dtype is None or np.dtype(dtype).kind not in 'iu':
            raise Error('{} shift "{}": shifts are defined on integers, not on {}', node.soft_get('direction'),
                        b.name, dtype)
        dtype = np.dtype(dtype)
        bits = 8 * dtype.itemsize
        # 32 and 64 bits: computed on signed 32-bit values (module docstring)
        work = dtype if bits < 32 else np.dtype(np.int32)
        x = node.in_port(0) if work == dtype else b.op(Convert, [node.in_port(0)], 'as_i32', dst_type=work)
        index = self._index(node, b, dtype)
        # the amount each table entry stands for in the work type's width (64-bit: 32 and beyond are alike)
        amounts = [min(s, 8 * work.itemsize) for s in range(bits + 1)]
        if node.direction == 'left':
            result = self._left(b, x, index, work, amounts)
        else:
            result = self._right(b, x, index, work, amounts, unsigned=dtype.kind == 'u')
        return result if work == dtype else b.op(Convert, [result], 'shifted', dst_type=dtype)

    @staticmethod
    def _index(node: Node, b: Builder, dtype: np.dtype):
        """The table index of the shift amount: ``y`` in ``[0, bits)``; out of it, TF's clamp (a negative amount
        is 0, a larger one ``bits - 1``) or ONNX's ``bits``. An unsigned amount is read as signed (Less and
        Minimum of unsigned 32-bit values are signed in OpenVINO's CPU plugin): a negative one is a large one."""
        bits = 8 * dtype.itemsize
        index_type = np.dtype(np.int64 if bits == 64 else np.int32)
        clamp = node.soft_get('out_of_range', 'clamp') == 'clamp'
        amount = b.op(Convert, [node.in_port(1)], 'amount', dst_type=index_type)
        negative = b.op(Less, [amount, b.const(0, 'amount/zero', index_type)], 'amount/negative')
        limit = bits - 1 if clamp else bits
        upper = b.op(Minimum, [amount, b.const(limit, 'amount/limit', index_type)], 'amount/at_most')
        below = (0 if dtype.kind == 'i' else bits - 1) if clamp else bits
        return b.op(Select, [negative, b.const(below, 'amount/below', index_type), upper], 'amount/index')

    @staticmethod
    def _table(b: Builder, values, dtype, index, tag: str):
        table = b.const(np.asarray(values).astype(dtype, copy=False), tag + '/table', dtype)
        return b.op(Gather, [table, index, b.const(0, tag + '/axis', np.int64)], tag)

    def _left(self, b: Builder, x, index, work: np.dtype, amounts):
        bits = 8 * work.itemsize  # amounts[i] == bits: shifted out entirely, 0
        low_mask = _bits([(1 << (bits - 1 - s)) - 1 if s < bits else 0 for s in amounts], work)
        factor = _bits([1 << s if s < bits - 1 else 1 for s in amounts], work)
        carried = _bits([1 << (bits - 1 - s) if s < bits else 0 for s in amounts], work)
        low = b.op(BitwiseAnd, [x, self._table(b, low_mask, work, index, 'low_mask')], 'low')
        moved = b.op(Mul, [low, self._table(b, factor, work, index, 'factor')], 'moved')
        top_bit = b.op(BitwiseAnd, [x, self._table(b, carried, work, index, 'to_top')], 'to_top_bit')
        has_top = b.op(NotEqual, [top_bit, b.const(0, 'zero', work)], 'has_top')
        top = b.op(Select, [has_top, b.const(_bits([1 << (bits - 1)], work)[0], 'top_bit', work),
                            b.const(0, 'no_top_bit', work)], 'top')
        return b.op(BitwiseOr, [moved, top], 'left_shifted')

    def _right(self, b: Builder, x, index, work: np.dtype, amounts, unsigned: bool):
        bits = 8 * work.itemsize  # amounts[i] == bits: what the sign extension alone gives
        scale = self._table(b, [2.0 ** -s for s in amounts], np.float32, index, 'scale')

        def shifted(piece, tag):
            scaled = b.op(Mul, [b.op(Convert, [piece], tag + '/f32', dst_type=np.dtype(np.float32)), scale],
                          tag + '/scaled')
            return b.op(Convert, [b.op(Floor, [scaled], tag + '/floor')], tag + '/int', dst_type=work)

        if bits <= 16:  # x itself has at most 16 significant bits: exact in f32, signed or not
            return shifted(x, 'right_shifted')
        low = shifted(b.op(BitwiseAnd, [x, b.const(0xFFFF, 'low16/mask', work)], 'low16'), 'low16')
        high = shifted(b.op(BitwiseAnd, [x, b.const(-0x10000, 'high16/mask', work)], 'high16'), 'high16')
        result = b.op(BitwiseOr, [high, low], 'arithmetic')
        if not unsigned:
            return result
        kept = _bits([(1 << (bits - s)) - 1 for s in amounts], work)  # logical: clear the s top bits
        return b.op(BitwiseAnd, [result, self._table(b, kept, work, index, 'kept')], 'logical')
