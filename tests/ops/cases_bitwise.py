"""Harness cases for TF's bitwise ops (BitwiseAnd/Or/Xor, Invert, LeftShift, RightShift) over every integer type TF
registers them for, and Bitcast where it converts (``extensions/front/tf/bitwise_lowering.py``,
``extensions/middle/bitcast_lowering.py``): constant inputs, integers of one width, float16/float32 <-> integers of
their width at run time (random bit patterns and the special ones), the sign-bit test Keras 3 writes.

OpenVINO's CPU plugin computes 64-bit integers in 32 bits, so the int64/uint64 feeds (and a shift's results) stay
inside the int32 range.
"""
import numpy as np
import tensorflow as tf

from tests.ops.cases_argmax_types import same_type_and_values
from tests.ops.harness import In, OpCase, grid, register

INTEGER_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def _full_range(dtype):
    """Values over the whole type (both signs, the extremes), the 64-bit types within 32 bits (module docstring)."""
    info = np.iinfo(np.int32 if dtype in (np.int64, np.uint64) else dtype)

    def make(rng, shape):
        low = 0 if np.dtype(dtype).kind == 'u' else int(info.min)
        values = rng.integers(low, int(info.max) + 1, shape, dtype=np.int64)
        flat = values.reshape(-1)
        flat[:4] = [low, info.max, 0, 1 if low == 0 else -1][:len(flat[:4])]
        return values.astype(dtype)
    return make


def _binary(op, dtype):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x, y: fn(x=x, y=y), [In((3, 5), dtype, values=_full_range(dtype)),
                                                   In((5,), dtype, values=_full_range(dtype))],
                  check=same_type_and_values)


def _invert(dtype):
    return OpCase('', lambda x: tf.raw_ops.Invert(x=x), [In((4, 6), dtype, values=_full_range(dtype))],
                  check=same_type_and_values)


def _bitcast(source, target):
    return OpCase('', lambda x: tf.raw_ops.Bitcast(input=x, type=tf.as_dtype(target)),
                  [In((4, 16), source, values=_full_range(source))], check=same_type_and_values)


def _bitcast_constant(source, target):
    """A constant input folds, also between widths (TF's shape rule: a last dimension of the ratio appears or goes)."""
    value = tf.constant(np.random.default_rng(5).standard_normal((3, 2)).astype(source))
    return OpCase('', lambda x: (tf.raw_ops.Bitcast(input=value, type=tf.as_dtype(target)), x + 1),
                  [In((2,), np.int32)], check=same_type_and_values)


def _shift_amounts(dtype):
    """Every amount in [0, bits), and outside: negative (signed types), bits, beyond, the type's largest."""
    bits = 8 * np.dtype(dtype).itemsize
    amounts = list(range(bits)) + [bits, bits + 1, bits + 9]
    if np.dtype(dtype).kind == 'i':
        amounts += [-1, -bits, int(np.iinfo(dtype).min)]
    return amounts + [int(np.iinfo(np.int32 if bits == 64 else dtype).max)]


def _shifted_values(op, dtype):
    """Rows of x (the extremes, -1, 1, random) against a row of every shift amount. For 64-bit types (32 bits in
    OpenVINO's CPU plugin): x within int32 and, for a left shift, small enough that the product stays within it
    at the amounts below 24 (the larger amounts are shifted out of 32 bits, which that plugin cannot hold)."""
    bits = 8 * np.dtype(dtype).itemsize
    wide = bits == 64
    info = np.iinfo(np.int32 if wide else dtype)
    signed = np.dtype(dtype).kind == 'i'
    lowest = int(info.min) if signed else 0

    def make(rng, shape):
        rows = [lowest, info.max, -1 if signed else info.max - 1, 1, info.max // 3]
        if wide and op == 'LeftShift':
            rows = [-128 if signed else 0, 127, -1 if signed else 3, 1, 0]
        low, high = (lowest, info.max) if not (wide and op == 'LeftShift') else (-(1 << 7) * signed, 1 << 7)
        values = rng.integers(low, high + 1, shape, dtype=np.int64)
        values[:len(rows)] = np.array(rows, dtype=np.int64)[:, None]
        return values.astype(dtype)
    return make


def _shift(op, dtype):
    amounts = _shift_amounts(dtype)
    if np.dtype(dtype).itemsize == 8 and op == 'LeftShift':
        amounts = [a for a in amounts if a < 24]  # see _shifted_values
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x, y: fn(x=x, y=y), [
        In((7, len(amounts)), dtype, values=_shifted_values(op, dtype)),
        In((len(amounts),), dtype, values=lambda rng, shape: np.array(amounts).astype(dtype))],
        check=same_type_and_values)


def _shift_by_constant(op, dtype, amount):
    """``x << 3`` as models write it: a constant amount, one for all."""
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(x=x, y=tf.constant(amount, dtype=tf.as_dtype(dtype))),
                  [In((4, 6), dtype, values=_full_range(dtype))], check=same_type_and_values)


def _signed_floats(dtype):
    """Normal values of both signs with the values a sign test gets wrong most easily: +-0, +-subnormals, +-inf."""
    info = np.finfo(dtype)

    def make(rng, shape):
        values = rng.standard_normal(shape).astype(dtype)
        flat = values.reshape(-1)
        special = [0.0, -0.0, info.tiny / 4, -info.tiny / 4, info.smallest_subnormal, -info.smallest_subnormal,
                   np.inf, -np.inf, info.tiny, -info.tiny, info.max, -info.max]
        flat[:len(special)] = np.array(special, dtype=dtype)
        return values
    return make


_SIGN_INTEGER = {np.float16: np.int16, np.float32: np.int32, np.float64: np.int64}


def _sign_bit(dtype, form):
    """Keras 3's ``ops.signbit`` on floats: ``BitwiseAnd(Bitcast(x, int), int.min) < 0`` ('keras'), the masked bits
    themselves ('bits', either operand order, a signed or an unsigned integer), the sign of float64 (the 64-bit
    masked bits are past what OpenVINO's CPU plugin holds: compared with 0 only)."""
    target = {'bits_unsigned': np.dtype('u{}'.format(np.dtype(dtype).itemsize))}.get(form, _SIGN_INTEGER[dtype])
    sign = np.array(1 << (8 * np.dtype(dtype).itemsize - 1), dtype='u{}'.format(np.dtype(dtype).itemsize)).view(
        target)
    if form != 'keras' and dtype == np.float64:
        return None

    def fn(x):
        bits = tf.bitcast(x, tf.as_dtype(target))
        mask = tf.constant(sign, dtype=tf.as_dtype(target))
        if form == 'keras':
            return tf.less(tf.bitwise.bitwise_and(bits, mask), tf.constant(0, tf.as_dtype(target)))
        if form == 'bits_swapped':
            return tf.bitwise.bitwise_and(mask, bits)
        return tf.bitwise.bitwise_and(bits, mask)
    return OpCase('', fn, [In((5, 8), dtype, values=_signed_floats(dtype))], check=same_type_and_values)


def _bit_patterns(dtype):
    """Random bit patterns of ``dtype``'s width with the special ones: +-0, the smallest and largest subnormals and
    normals, +-inf, +-1, a NaN; for a float type every NaN is the quiet NaN (the formula cannot keep a NaN's payload
    or sign: ``extensions/middle/bitcast_lowering.py``)."""
    width = np.dtype(dtype).itemsize
    unsigned = np.dtype('u{}'.format(width))
    special = ([0, 0x80000000, 1, 0x80000001, 0x7FFFFF, 0x807FFFFF, 0x800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
                0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0xBF800000] if width == 4 else
               [0, 0x8000, 1, 0x8001, 0x3FF, 0x83FF, 0x400, 0x8400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3C00,
                0xBC00])

    def make(rng, shape):
        bits = rng.integers(0, 1 << (8 * width), shape, dtype=np.uint64).astype(unsigned)
        flat = bits.reshape(-1)
        flat[:len(special)] = np.array(special[:flat.size], dtype=np.uint64).astype(unsigned)
        if np.dtype(dtype).kind == 'f':
            flat[np.isnan(flat.view(dtype))] = special[12]
        return bits.view(dtype)
    return make


def same_bits(ov, expected):
    """The same element types and bit patterns (a NaN: any NaN, as the NaNs of two runtimes need not agree)."""
    for index, (a, e) in enumerate(zip(ov, expected)):
        assert a.dtype == e.dtype, 'output %d: element type %s, TF %s' % (index, a.dtype, e.dtype)
        unsigned = 'u{}'.format(a.dtype.itemsize)
        same = a.view(unsigned) == e.view(unsigned)
        if a.dtype.kind == 'f':
            same |= np.isnan(a) & np.isnan(e)
        assert same.all(), 'output %d differs from TF at %d elements, e.g. %s (TF %s)' % (
            index, (~same).sum(), a[~same][:5], e[~same][:5])


def _bitcast_runtime(pair, use):
    """A run-time Bitcast between a float and an integer type of its width, alone or feeding another op."""
    source, target = pair

    def fn(x):
        y = tf.raw_ops.Bitcast(input=x, type=tf.as_dtype(target))
        if use == 'alone':
            return y
        if np.dtype(target).kind == 'f':
            return tf.negative(y)
        return tf.bitwise.bitwise_xor(y, tf.constant(0x5A, tf.as_dtype(target)))
    return OpCase('', fn, [In((64, 1024), source, values=_bit_patterns(source))], check=same_bits)


_FLOAT_INT_PAIRS = [(np.float32, np.int32), (np.float32, np.uint32), (np.int32, np.float32), (np.uint32, np.float32),
                    (np.float16, np.int16), (np.float16, np.uint16), (np.int16, np.float16), (np.uint16, np.float16)]


_SAME_WIDTH = [(np.int32, np.uint32), (np.uint32, np.int32), (np.int8, np.uint8), (np.uint16, np.int16),
               (np.int64, np.uint64)]


register(grid('bits/binary', _binary, op=['BitwiseAnd', 'BitwiseOr', 'BitwiseXor'], dtype=INTEGER_TYPES)
         + grid('bits/Invert', _invert, dtype=INTEGER_TYPES)
         + grid('bits/shift', _shift, op=['LeftShift', 'RightShift'], dtype=INTEGER_TYPES)
         + grid('bits/shift_constant', _shift_by_constant, op=['LeftShift', 'RightShift'], dtype=[np.int8, np.uint32],
                amount=[3])
         + grid('bits/sign_bit', _sign_bit, dtype=[np.float16, np.float32, np.float64],
                form=['keras', 'bits', 'bits_swapped', 'bits_unsigned'])
         + [OpCase('bits/Bitcast[{}->{}]'.format(np.dtype(s).name, np.dtype(t).name), _bitcast(s, t).fn,
                   _bitcast(s, t).inputs, check=same_type_and_values) for s, t in _SAME_WIDTH]
         + grid('bits/Bitcast_runtime', _bitcast_runtime, pair=_FLOAT_INT_PAIRS, use=['alone', 'used'])
         + grid('bits/Bitcast_constant', _bitcast_constant, source=[np.float32, np.float16],
                target=[np.int32, np.uint16, np.uint8]))
