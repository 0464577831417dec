"""Harness cases: TF's Multinomial (``tf.random.categorical``). OpenVINO's Philox draws are not TensorFlow's, so
the check is on the distribution: per row, each class's share of the samples from the IR is within five standard
errors of its share of TensorFlow's samples (classes TF never draws, such as -inf logits, are never drawn), and
the IR's samples are of TF's shape and type. Logit rows: ordinary, large (exp would overflow without the
shift mo applies), uniform, and with -inf entries; the sample count constant or fed at run time.
"""
import ml_dtypes
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

_SAMPLES = 20000
_LOGITS = np.array([[0.0, 1.0, 2.0, -1.0, 0.5], [100.0, 101.0, 99.0, 50.0, 100.5], [-3.0, -3.0, -3.0, -3.0, -3.0],
                    [-np.inf, 0.0, -np.inf, 1.0, -2.0]], np.float32)


def _same_distribution(actual, expected):
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype, (a.shape, a.dtype, e.shape, e.dtype)
        classes = _LOGITS.shape[1]
        assert a.min() >= 0 and a.max() < classes, (a.min(), a.max())
        for row_a, row_e in zip(a, e):
            share_a = np.bincount(row_a, minlength=classes) / row_a.size
            share_e = np.bincount(row_e, minlength=classes) / row_e.size
            p = (share_a + share_e) / 2
            error = np.sqrt(2 * p * (1 - p) / row_a.size)
            assert np.all(np.abs(share_a - share_e) <= 5 * error + 1e-9), (share_a, share_e)


def _multinomial(output_dtype, seeded, samples, logits_type=np.float32):
    seed, seed2 = (7, 11) if seeded else (0, 0)
    out_type = tf.int32 if output_dtype == np.int32 else tf.int64
    if samples == 'constant':
        return OpCase('', lambda x: tf.raw_ops.Multinomial(logits=x, num_samples=_SAMPLES, seed=seed, seed2=seed2,
                                                           output_dtype=out_type),
                      [In((None, 5), logits_type, run=[(4, 5)], values=lambda rng, s: _LOGITS)],
                      check=_same_distribution)
    return OpCase('', lambda x, n: tf.raw_ops.Multinomial(logits=x, num_samples=n, seed=seed, seed2=seed2,
                                                          output_dtype=out_type),
                  [In((4, 5), values=lambda rng, s: _LOGITS), In((), np.int32, values=lambda rng, s: _SAMPLES)],
                  check=_same_distribution)


register(grid('random/Multinomial', _multinomial, output_dtype=[np.int64, np.int32], seeded=[True, False],
              samples=['constant', 'runtime'])
         + grid('random/Multinomial_logits', _multinomial, output_dtype=[np.int64], seeded=[True],
                samples=['constant'], logits_type=[np.float16, np.float64, np.dtype(ml_dtypes.bfloat16)]))
