"""Harness cases for TF's Dequantize (the form ``mo transform quantize_weights`` writes): quantized constant weights
of each type and mode, per tensor and per channel, read by a MatMul of a float input."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

_TYPES = {'quint8': (tf.quint8, 0, 255), 'qint8': (tf.qint8, -128, 127)}


def _dequantize(dtype, mode, axis):
    tf_type, low, high = _TYPES[dtype]
    codes = np.random.default_rng(5).integers(low, high + 1, (4, 3))
    if axis is None:
        bounds = (-1.5, 2.5)
    else:
        bounds = ([-1.0, -0.5, -2.0], [1.0, 3.0, 0.25])

    def fn(x):
        weights = tf.raw_ops.Dequantize(input=tf.constant(codes, dtype=tf_type),
                                        min_range=tf.constant(bounds[0], tf.float32),
                                        max_range=tf.constant(bounds[1], tf.float32), mode=mode,
                                        axis=-1 if axis is None else axis)
        return tf.matmul(x, weights)
    return OpCase('', fn, [In((2, 4), np.float32)])


register(grid('quantize/Dequantize', _dequantize, dtype=list(_TYPES), mode=['MIN_COMBINED', 'SCALED'],
              axis=[None, 1]))
