"""Bitcast between element types of one width (TF's Bitcast at run time, ONNX's BitCast) with opset13 ops.

OpenVINO has no op that reinterprets bits, so each case is a formula whose every step is exact on OpenVINO's CPU
plugin, which computes in its own way (see ``bitshift_lowering``): an integer Divide goes through f32, an Equal of
32-bit integers may too, u32 values are signed ones inside, 64-bit tensors keep 32 bits. Exact there: bitwise ops,
Less of int32, Converts of exact values (and Convert between integers of one width, which wraps), Gathers from
constant tables, f32 products by powers of two whose result is representable (subnormals included: the plugin
does not flush them).

* integer <-> integer of one width, and bool <-> 8-bit integers: a Convert (two's complement wrap);
* float16/float32 -> int16/uint16/int32/uint32: the fields from the value, in f32 (float16 is exact there):
  the sign is ``x < 0 or (x == 0 and 1 / x < 0)`` (that finds -0); the biased exponent E is the largest k with
  ``|x| >= 2^(k - bias)``, a binary search over a constant table of those powers (+inf above the last), one Gather
  and one comparison per exponent bit; the mantissa ``|x| * 2^(mbits + bias - E) - 2^mbits`` (subnormals:
  ``|x| * 2^(mbits + bias - 1)``), an exact integer below 2^mbits, with the power of two applied as two halves
  (one would overflow f32); then ``E << mbits | mantissa | sign`` with bitwise ops on int32;
* int16/uint16/int32/uint32 -> float16/float32: the fields by BitwiseAnd; ``E`` from the exponent bits times
  2^-mbits in f32 (exact); the value ``(mantissa + 2^mbits) * 2^(E - bias - mbits)`` (subnormals: ``mantissa *
  2^(1 - bias - mbits)``) with the power of two in two halves, inf or NaN for the top exponent, negated by the sign.

Not exact, and so not offered: the payload and sign of a NaN (no opset op reads or writes them): a NaN becomes the
positive quiet NaN (0x7FC00000, 0x7E00), and a NaN bit pattern becomes a NaN; float64 <-> int64 (the CPU plugin
computes both in 32 bits: the bit patterns of float64 values are far outside int32), bfloat16 and changes of
width at run time: an Error naming the node.
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.activation_ops import Abs
from mo.ops.bitwise import BitwiseAnd, BitwiseOr
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Equal, Less, LogicalAnd, LogicalNot, LogicalOr, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.math_ops import IsNaN
from mo.ops.select import Select
from mo.utils.error import Error

_F32, _I32 = np.dtype(np.float32), np.dtype(np.int32)

#: float type -> (exponent bits, mantissa bits, exponent bias)
_FORMATS = {np.dtype(np.float16): (5, 10, 15), np.dtype(np.float32): (8, 23, 127)}
_INTEGERS = {np.dtype(t) for t in (np.int16, np.uint16, np.int32, np.uint32)}


def _halves(exponents):
    """2^t for each t as two f32 factors 2^ceil(t/2) * 2^(t - ceil(t/2)), each representable."""
    first = [-((-t) // 2) for t in exponents]
    return [2.0 ** f for f in first], [2.0 ** (t - f) for t, f in zip(exponents, first)]


def _table(b: Builder, values, dtype, index, tag: str):
    """``values[index]`` elementwise: a Gather from a constant table."""
    table = b.const(np.asarray(values, dtype=dtype), tag + '/table', dtype)
    return b.op(Gather, [table, index, b.const(0, tag + '/axis', np.int64)], tag)


def _scaled(b: Builder, value, exponents, index, tag: str):
    """``value * 2^exponents[index]``, the power of two in two halves (module docstring)."""
    first, second = _halves(exponents)
    partial = b.op(Mul, [value, _table(b, first, _F32, index, tag + '/first')], tag + '/partial')
    return b.op(Mul, [partial, _table(b, second, _F32, index, tag + '/second')], tag)


class BitcastLowering(MiddleOpRule):
    """Bitcast(x, dst_type) -> the opset13 formulas of the module docstring."""
    id = 'BitcastLowering'
    op = 'Bitcast'

    def rewrite(self, node: Node, b: Builder):
        source = node.in_port(0).data.get_data_type()
        target = np.dtype(node.dst_type)
        if source is None:
            raise Error('Bitcast "{}": the element type of its input is not known', b.name)
        source = np.dtype(source)
        if source == target:
            return node.in_port(0)
        if source.itemsize != target.itemsize:
            raise Error('Bitcast "{}" from {} to {}: the widths differ (converted only for a constant input)',
                        b.name, source, target)
        kinds = source.kind + target.kind
        if set(kinds) <= set('iub'):
            return b.op(Convert, [node.in_port(0)], 'bits', dst_type=target)
        if source in _FORMATS and target in _INTEGERS:
            return self._float_to_bits(b, node.in_port(0), source, target)
        if source in _INTEGERS and target in _FORMATS:
            return self._bits_to_float(b, node.in_port(0), source, target)
        raise Error('Bitcast "{}" from {} to {} is not supported at run time (integers of one width, and float16/'
                    'float32 <-> 16/32-bit integers; OpenVINO\'s CPU plugin holds float64 and 64-bit integers in '
                    '32 bits)', b.name, source, target)

    @staticmethod
    def _float_to_bits(b: Builder, x, source: np.dtype, target: np.dtype):
        ebits, mbits, bias = _FORMATS[source]
        top, width = (1 << ebits) - 1, 8 * target.itemsize
        if source != _F32:
            x = b.op(Convert, [x], 'as_f32', dst_type=_F32)  # float16 values are exact in f32
        zero = b.const(0, 'zero', _F32)
        minus_zero = b.op(LogicalAnd, [b.op(Equal, [x, zero], 'is_zero'),
                                       b.op(Less, [b.op(Div, [b.const(1, 'one', _F32), x], 'reciprocal'), zero],
                                            'reciprocal_negative')], 'minus_zero')
        negative = b.op(LogicalOr, [b.op(Less, [x, zero], 'below_zero'), minus_zero], 'negative')
        magnitude = b.op(Abs, [x], 'magnitude')
        # E: the largest k with |x| >= thresholds[k] (thresholds[0] is never a candidate)
        thresholds = [0.0] + [2.0 ** (k - bias) for k in range(1, top)] + [np.inf]
        exponent = b.const(0, 'exponent/0', _I32)
        for bit in reversed(range(ebits)):
            step = 1 << bit
            candidate = (b.const(step, 'exponent/candidate{}'.format(step), _I32) if bit == ebits - 1 else
                         b.op(Add, [exponent, b.const(step, 'exponent/step{}'.format(step), _I32)],
                              'exponent/candidate{}'.format(step)))
            below = b.op(Less, [magnitude, _table(b, thresholds, _F32, candidate, 'exponent/threshold{}'.format(step))],
                         'exponent/below{}'.format(step))
            exponent = b.op(Select, [below, exponent, candidate], 'exponent/{}'.format(step))
        # the mantissa field: 0 for infinities (their magnitude taken as 0)
        finite = b.op(Select, [b.op(Equal, [exponent, b.const(top, 'top', _I32)], 'is_top'), zero, magnitude],
                      'finite')
        scales = [mbits + bias - 1] + [mbits + bias - k for k in range(1, top)] + [0]
        implicit = [0.0] + [2.0 ** mbits] * (top - 1) + [0.0]
        mantissa = b.op(Sub, [_scaled(b, finite, scales, exponent, 'mantissa/scaled'),
                              _table(b, implicit, _F32, exponent, 'mantissa/implicit')], 'mantissa/f32')
        # a NaN: the quiet NaN's fields, chosen while they are small (values the plugin may hold in f32 exactly)
        is_nan = b.op(IsNaN, [x], 'is_nan')
        mantissa = b.op(Select, [is_nan, b.const(1 << (mbits - 1), 'nan/mantissa', _F32), mantissa], 'mantissa/nan')
        exponent = b.op(Select, [is_nan, b.const(top, 'nan/exponent', _I32), exponent], 'exponent/nan')
        negative = b.op(LogicalAnd, [negative, b.op(LogicalNot, [is_nan], 'not_nan')], 'sign/negative')
        fields = b.op(BitwiseOr, [_table(b, [k << mbits for k in range(top + 1)], _I32, exponent, 'exponent/field'),
                                  b.op(Convert, [mantissa], 'mantissa', dst_type=_I32)], 'fields')
        sign_bit = -(1 << 31) if width == 32 else 1 << 15  # an int32: the int32 sign bit, or 2^15 for 16 bits
        sign = b.op(Select, [negative, b.const(sign_bit, 'sign/set', _I32), b.const(0, 'sign/clear', _I32)], 'sign')
        bits = b.op(BitwiseOr, [fields, sign], 'bits/i32')
        if target == _I32:
            return bits
        if width == 16 and target.kind == 'i':  # 0..65535 -> -32768..32767, so that the Convert is in range
            wrapped = b.op(Select, [b.op(Less, [bits, b.const(1 << 15, 'bits/half', _I32)], 'bits/low'),
                                    b.const(0, 'bits/no_wrap', _I32), b.const(1 << 16, 'bits/wrap', _I32)],
                           'bits/wrap_by')
            bits = b.op(Sub, [bits, wrapped], 'bits/i16_value')
        return b.op(Convert, [bits], 'bits', dst_type=target)  # int32 -> uint32 wraps; 16 bits: in range

    @staticmethod
    def _bits_to_float(b: Builder, x, source: np.dtype, target: np.dtype):
        ebits, mbits, bias = _FORMATS[target]
        top, width = (1 << ebits) - 1, 8 * source.itemsize
        bits = x if source == _I32 else b.op(Convert, [x], 'as_i32', dst_type=_I32)  # u32: wraps; 16 bits: exact
        if width == 32 or source.kind == 'i':
            negative = b.op(Less, [bits, b.const(0, 'zero_i32', _I32)], 'negative')
        else:
            negative = b.op(Less, [b.const((1 << 15) - 1, 'positive_max', _I32), bits], 'negative')
        magnitude = b.op(BitwiseAnd, [bits, b.const((1 << (width - 1)) - 1, 'magnitude/mask', _I32)], 'magnitude')
        mantissa = b.op(BitwiseAnd, [magnitude, b.const((1 << mbits) - 1, 'mantissa/mask', _I32)], 'mantissa')
        exponent_bits = b.op(BitwiseAnd, [magnitude, b.const(top << mbits, 'exponent/mask', _I32)], 'exponent/bits')
        # E << mbits has at most ebits significant bits: exact in f32, and so is the product
        exponent = b.op(Convert, [b.op(Mul, [b.op(Convert, [exponent_bits], 'exponent/f32', dst_type=_F32),
                                             b.const(2.0 ** -mbits, 'exponent/unit', _F32)], 'exponent/value')],
                        'exponent', dst_type=_I32)
        implicit = [0.0] + [2.0 ** mbits] * (top - 1) + [0.0]
        significand = b.op(Add, [b.op(Convert, [mantissa], 'mantissa/f32', dst_type=_F32),
                                 _table(b, implicit, _F32, exponent, 'mantissa/implicit')], 'significand')
        scales = [1 - bias - mbits] + [k - bias - mbits for k in range(1, top)] + [0]
        value = _scaled(b, significand, scales, exponent, 'value/scaled')
        special = b.op(Select, [b.op(Equal, [mantissa, b.const(0, 'mantissa/zero', _I32)], 'mantissa/is_zero'),
                                b.const(np.inf, 'inf', _F32), b.const(np.nan, 'nan', _F32)], 'special')
        value = b.op(Select, [b.op(Equal, [exponent, b.const(top, 'top', _I32)], 'is_top'), special, value],
                     'magnitude/f32')
        value = b.op(Select, [negative, b.op(Mul, [value, b.const(-1, 'minus_one', _F32)], 'negated'), value],
                     'value/f32')
        return value if target == _F32 else b.op(Convert, [value], 'value', dst_type=target)  # exact
