"""Harness cases for FusedBatchNorm(V2/V3) in training mode (``is_training=true``): normalization by the batch's
own statistics, and the statistics outputs (batch mean, Bessel-corrected variance blended by
``exponential_avg_factor``, reserve spaces), over layouts, ranks, element types (float32; float16 for V2/V3, whose
statistics stay float32) and dynamic batch sizes; plus inference-mode graphs that read the statistics outputs.

bfloat16 data (registered for V2/V3) is left out: the harness feeds numpy arrays, and numpy has no bfloat16.
"""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

RNG = np.random.default_rng(26)
C = 3
#: data shapes per layout: channels in the layout's place; the first dimension dynamic in the traced graph
SHAPES = {'NHWC': (2, 4, 5, C), 'NCHW': (2, C, 4, 5), 'NDHWC': (2, 3, 2, 4, C), 'NCDHW': (2, C, 3, 2, 4)}


def _vector(low=-1.0, high=1.0):
    return tf.constant(RNG.uniform(low, high, C).astype(np.float32))


def _training(op, layout, dtype, factor, outputs):
    if (op == 'FusedBatchNorm' and dtype != np.float32) or (op != 'FusedBatchNormV3' and len(layout) == 5):
        return None  # TF's FusedBatchNorm (V1) takes float32 only, and only V3 takes 5-D layouts
    scale, offset = _vector(0.5, 2.0), _vector()
    running_mean, running_variance = (_vector(), _vector(0.5, 2.0)) if factor != 1.0 else ([], [])
    fn = getattr(tf.raw_ops, op)

    def case(x):
        result = fn(x=x, scale=scale, offset=offset, mean=running_mean, variance=running_variance, epsilon=1e-3,
                    exponential_avg_factor=factor, data_format=layout, is_training=True)
        return tuple(result[:outputs])
    shape = SHAPES[layout]
    return OpCase('', case, [In((None,) + shape[1:], dtype=dtype, run=[shape, (1,) + shape[1:], (5,) + shape[1:]])],
                  rtol=2e-3 if dtype == np.float16 else 1e-4)


def _single_element(op):
    """One element per channel: the variance is 0 and TF's Bessel correction is left out (no division by 0)."""
    scale, offset = _vector(0.5, 2.0), _vector()
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: tuple(fn(x=x, scale=scale, offset=offset, mean=[], variance=[], epsilon=1e-3,
                                         is_training=True)[:5]), [In((1, 1, 1, C))])


def _inference_statistics(op, dtype):
    """Inference mode: outputs 1 and 2 are the given mean and variance (TF's Eigen kernel leaves the reserve spaces
    3 and 4 unset there: uninitialized memory, not compared)."""
    if op == 'FusedBatchNorm' and dtype != np.float32:
        return None
    scale, offset, mean, variance = _vector(0.5, 2.0), _vector(), _vector(), _vector(0.5, 2.0)
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: tuple(fn(x=x, scale=scale, offset=offset, mean=mean, variance=variance, epsilon=1e-3,
                                         is_training=False)[:3]), [In((2, 4, 5, C), dtype=dtype)],
                  rtol=2e-3 if dtype == np.float16 else 1e-4)


_OPS = ['FusedBatchNorm', 'FusedBatchNormV2', 'FusedBatchNormV3']
register(grid('bn_training/FusedBatchNorm', _training, op=_OPS, layout=['NHWC', 'NCHW', 'NDHWC', 'NCDHW'],
              dtype=[np.float32, np.float16], factor=[1.0, 0.25], outputs=[5])
         + grid('bn_training/FusedBatchNorm', _training, op=['FusedBatchNormV3'], layout=['NHWC', 'NCHW'],
                dtype=[np.float32], factor=[1.0], outputs=[1])
         + grid('bn_training/single_element', _single_element, op=_OPS)
         + grid('bn_training/inference_statistics', _inference_statistics, op=_OPS, dtype=[np.float32, np.float16]))
