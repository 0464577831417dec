"""Harness cases for ``ArgMax``/``ArgMin`` over every input dtype and ``output_type`` TensorFlow's CPU kernels
are registered for (ArgMax: int16, uint16, int32, int64 indices; ArgMin: int32, int64).

bfloat16 inputs are left out: the harness feeds numpy arrays, and numpy has no bfloat16.
"""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

#: the input dtypes both kernels are registered for (less bfloat16, see the module docstring)
INPUT_TYPES = [np.bool_, np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32,
               np.uint32, np.int64, np.uint64]
OUTPUT_TYPES = {'ArgMax': ['int16', 'uint16', 'int32', 'int64'], 'ArgMin': ['int32', 'int64']}


def _values(dtype):
    """Feeds with ties (bool, narrow types) and without: TF picks the first of equal values, as must the IR."""
    if dtype == np.bool_:
        return None
    if np.dtype(dtype).kind == 'u':
        return lambda rng, s: rng.integers(0, 200, s)
    return lambda rng, s: rng.integers(-100, 100, s)


def same_type_and_values(ov, expected):
    """Exact equality, element types included (the harness's own comparison casts the IR's result to TF's type)."""
    for index, (a, e) in enumerate(zip(ov, expected)):
        assert a.dtype == e.dtype, 'output %d: element type %s, TF %s' % (index, a.dtype, e.dtype)
        assert np.array_equal(a, e), 'output %d differs from TF:\n%s\nTF:\n%s' % (index, a, e)


def _arg(op, dtype, output_type, axis):
    if output_type not in OUTPUT_TYPES[op]:
        return None
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(input=x, dimension=axis, output_type=tf.as_dtype(output_type)),
                  [In((3, 4, 5), dtype=dtype, values=_values(dtype))], check=same_type_and_values)


register(grid('types/ArgMax', _arg, op=['ArgMax', 'ArgMin'], dtype=INPUT_TYPES,
              output_type=['int16', 'uint16', 'int32', 'int64'], axis=[1])
         + grid('types/ArgMax', _arg, op=['ArgMax'], dtype=[np.float32], output_type=['int16', 'uint16'],
                axis=[0, -1]))
