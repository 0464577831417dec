"""Harness cases for TF's bitwise ops (BitwiseAnd/Or/Xor, Invert) over every integer type TF registers them for,
and Bitcast where it converts (``extensions/front/tf/bitwise_lowering.py``): constant inputs, integers of one width.

OpenVINO's CPU plugin computes 64-bit integers in 32 bits, so the int64/uint64 feeds stay inside the int32 range.
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


_SAME_WIDTH = [(np.int32, np.uint32), (np.uint32, np.int32), (np.int8, np.uint8), (np.uint16, np.int16),
               (np.int64, np.uint64)]


register(grid('bits/binary', _binary, op=['BitwiseAnd', 'BitwiseOr', 'BitwiseXor'], dtype=INTEGER_TYPES)
         + grid('bits/Invert', _invert, dtype=INTEGER_TYPES)
         + [OpCase('bits/Bitcast[{}->{}]'.format(np.dtype(s).name, np.dtype(t).name), _bitcast(s, t).fn,
                   _bitcast(s, t).inputs, check=same_type_and_values) for s, t in _SAME_WIDTH]
         + grid('bits/Bitcast_constant', _bitcast_constant, source=[np.float32, np.float16],
                target=[np.int32, np.uint16, np.uint8]))
