"""Harness cases for ``extensions/front/tf/division_norm_ext.py``: Mod and TruncateMod (every sign combination,
floats and integers, broadcasting), Xdivy/Xlogy/Xlog1py (x = 0 against y = 0, negative and positive,
broadcasting, a dynamic dimension), EuclideanNorm (axes incl. negative and none, keep_dims, integers) and
L2Loss."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _nonzero(low, high):
    """Integers in [low, high) without 0 (divisors)."""
    def values(rng, shape):
        v = rng.integers(low, high - 1, shape)
        return np.where(v >= 0, v + 1, v)
    return values


def _mod(op, dtype, shapes):
    fn = getattr(tf.raw_ops, op)
    x_shape, y_shape = {'same': ((3, 4), (3, 4)), 'broadcast': ((2, 1, 4), (3, 1)), 'scalar': ((3, 4), ())}[shapes]
    if dtype == np.float32:
        x = In(x_shape, dtype, values=lambda rng, s: rng.uniform(-10, 10, s))
        y = In(y_shape, dtype, values=lambda rng, s: rng.choice([-3.5, -1.25, 0.75, 2.0, 4.5], s))
    else:
        x = In(x_shape, dtype, low=-20, high=21)
        y = In(y_shape, dtype, values=_nonzero(-6, 7))
    return OpCase('', lambda a, b: fn(x=a, y=b), [x, y])


def _x_weighted(op, shapes):
    fn = getattr(tf.raw_ops, op)
    x_shape, y_shape = {'same': ((3, 4), (3, 4)), 'broadcast': ((3, 1), (4,))}[shapes]
    low = -1.0 if op == 'Xlog1py' else 0.0  # log's domain (negative values give nan, zeros -inf: both kept)

    def x_values(rng, s):
        return np.where(rng.random(s) < 0.4, 0.0, rng.uniform(-2, 2, s))

    def y_values(rng, s):
        return np.where(rng.random(s) < 0.3, 0.0, rng.uniform(low, 3, s))
    return OpCase('', lambda a, b: fn(x=a, y=b), [In(x_shape, values=x_values), In(y_shape, values=y_values)],
                  check=_same_with_nan)


def _same_with_nan(actual, expected):
    for a, e in zip(actual, expected):
        assert a.shape == e.shape
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6, equal_nan=True)


def _x_dynamic(op):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda a, b: fn(x=a, y=b),
                  [In((None, 3), run=[(2, 3), (5, 3)],
                      values=lambda rng, s: rng.uniform(0, 2, s) * (rng.random(s) > .3)),
                   In((3,), run=[(3,), (3,)], values=lambda rng, s: rng.uniform(0.5, 3, s))])


def _euclidean(axes, keep_dims, dtype):
    values = None if dtype == np.float32 else (lambda rng, s: rng.integers(-9, 10, s))
    return OpCase('', lambda x: tf.raw_ops.EuclideanNorm(input=x, axis=np.array(axes, np.int32), keep_dims=keep_dims),
                  [In((2, 3, 4), dtype, values=values)])


register(
    grid('batch_a/Mod', _mod, op=['Mod', 'TruncateMod'], dtype=[np.float32, np.int32, np.int64],
         shapes=['same', 'broadcast', 'scalar'])
    + grid('batch_a/x_weighted', _x_weighted, op=['Xdivy', 'Xlogy', 'Xlog1py'], shapes=['same', 'broadcast'])
    + grid('batch_a/x_weighted_dynamic', _x_dynamic, op=['Xdivy', 'Xlogy', 'Xlog1py'])
    + grid('batch_a/EuclideanNorm', _euclidean, axes=[[1], [-1], [0, 2], [], [-3, -2, -1]], keep_dims=[False, True],
           dtype=[np.float32, np.int32])
    + [OpCase('batch_a/EuclideanNorm_axis_input',
              lambda x, a: tf.raw_ops.EuclideanNorm(input=x, axis=a, keep_dims=False),
              [In((2, 3, 4)), In((1,), np.int32, values=lambda rng, s: np.array([-2]))]),
       OpCase('batch_a/L2Loss', lambda x: tf.raw_ops.L2Loss(t=x), [In((None, 3), run=[(4, 3), (1, 3)])]),
       OpCase('batch_a/L2Loss_scalar', lambda x: tf.raw_ops.L2Loss(t=x), [In(())])]
)


def _div(dtype):
    if dtype == np.float32:
        return OpCase('', lambda a, b: tf.raw_ops.Div(x=a, y=b), [In((3, 4)), In((4,))])
    return OpCase('', lambda a, b: tf.raw_ops.Div(x=a, y=b),
                  [In((3, 4), dtype, low=-20, high=21), In((4,), dtype, values=_nonzero(-6, 7))])


#: the IEEE corners of atan2: signed zeros on both axes, infinities, and ordinary quadrants
_ATAN2_Y = [0.0, -0.0, 0.0, -0.0, -0.0, 0.0, np.inf, np.inf, -np.inf, 1.0, -1.0, 1.0, -1.0, 2.0, -2.0, np.inf,
            np.nan, 0.0, np.nan, 1.0]
_ATAN2_X = [-1.0, -1.0, -0.0, -0.0, 1.0, 0.0, np.inf, -1.0, -np.inf, np.inf, -np.inf, -0.0, 0.0, -3.0, -3.0, -np.inf,
            0.0, np.nan, np.nan, np.nan]


def _cast_to_bool(src):
    def values(rng, s):
        return np.array([np.nan, 0.0, -0.0, 1e-30, -np.inf, 2.5], src)
    return OpCase('', lambda x: tf.raw_ops.Cast(x=x, DstT=tf.bool), [In((6,), src, values=values)])


register(
    grid('batch_a/Div', _div, dtype=[np.float32, np.int32, np.int64])
    + [OpCase('batch_a/Atan2_ieee_corners', lambda y, x: tf.raw_ops.Atan2(y=y, x=x),
              [In((20,), values=lambda rng, s: np.array(_ATAN2_Y)),
               In((20,), values=lambda rng, s: np.array(_ATAN2_X))])]
    + grid('batch_a/Cast_float_to_bool', _cast_to_bool, src=[np.float32, np.float64])
)


register([
    OpCase('batch_a/EuclideanNorm_dynamic', lambda x: tf.raw_ops.EuclideanNorm(input=x, axis=[0, -1], keep_dims=True),
           [In((None, 3, None), run=[(2, 3, 4), (5, 3, 1)])]),
    OpCase('batch_a/Mod_dynamic', lambda a, b: tf.raw_ops.Mod(x=a, y=b),
           [In((None, 4), np.int32, run=[(2, 4), (3, 4)], low=-20, high=21),
            In((4,), np.int32, run=[(4,), (4,)], values=_nonzero(-6, 7))]),
])
