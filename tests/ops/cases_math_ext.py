"""Harness cases for the math ops of ``extensions/front/tf/math_ext.py``."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

#: op -> the range of input values it is defined on
_UNARY = {
    'Sin': (-4, 4), 'Cos': (-4, 4), 'Tan': (-1.2, 1.2), 'Asin': (-0.99, 0.99), 'Acos': (-0.99, 0.99),
    'Atan': (-5, 5), 'Sinh': (-3, 3), 'Cosh': (-3, 3), 'Asinh': (-5, 5), 'Acosh': (1.01, 5), 'Atanh': (-0.95, 0.95),
    'Softsign': (-5, 5), 'Floor': (-5, 5), 'Ceil': (-5, 5), 'Reciprocal': (0.5, 3), 'Inv': (0.5, 3),
    'Expm1': (-2, 2), 'Log1p': (-0.5, 3),
}


def _unary(op):
    low, high = _UNARY[op]
    fn = getattr(tf.raw_ops, op)
    arg = 'features' if op == 'Softsign' else 'x'
    return OpCase('', lambda x: fn(**{arg: x}), [In((3, 7), values=lambda rng, s: rng.uniform(low, high, s))])


def _round():
    # ties (x.5) hit both rounding directions: TF rounds half to even
    values = lambda rng, s: np.array([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.2, -3.7]])  # noqa: E731
    return OpCase('base/Round_ties', lambda x: tf.raw_ops.Round(x=x), [In((1, 8), values=values)])


def _float_class(op):
    values = lambda rng, s: np.array([[np.nan, np.inf, -np.inf, 0.0, -1.5, 3.0]])  # noqa: E731
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(x=x), [In((1, 6), values=values)])


def _nonzero(rng, shape):
    return rng.integers(1, 7, shape) * rng.choice([-1, 1], shape)


def _int_division(op, dtype, shapes):
    a_shape, b_shape = {'same': ((3, 4), (3, 4)), 'broadcast': ((3, 4), (4,))}[shapes]
    fn = getattr(tf.raw_ops, op)
    if op == 'TruncateDiv' and np.dtype(dtype).kind == 'f':
        return None
    return OpCase('', lambda x, y: fn(x=x, y=y), [In(a_shape, dtype, low=-20, high=21),
                                                  In(b_shape, dtype, values=lambda rng, s: _nonzero(rng, s))])


def _div_no_nan():
    return OpCase('base/DivNoNan', lambda x, y: tf.raw_ops.DivNoNan(x=x, y=y),
                  [In((3, 4)), In((3, 4), values=lambda rng, s: rng.integers(-2, 3, s).astype(np.float32))])


def _atan2():
    values = lambda rng, s: rng.integers(-2, 3, s) * rng.uniform(0.5, 1.5, s)  # noqa: E731
    return OpCase('base/Atan2_quadrants_and_axes', lambda y, x: tf.raw_ops.Atan2(y=y, x=x),
                  [In((6, 6), values=values), In((6, 6), values=values)])


def _add_n(n):
    return OpCase('', lambda *xs: tf.raw_ops.AddN(inputs=list(xs)), [In((2, 3))] * n)


def _clip(bounds):
    if bounds == 'scalar':
        return OpCase('', lambda x: tf.raw_ops.ClipByValue(t=x, clip_value_min=-0.5, clip_value_max=0.7), [In((3, 4))])
    return OpCase('', lambda x, lo: tf.raw_ops.ClipByValue(t=x, clip_value_min=lo, clip_value_max=lo + 1.0),
                  [In((3, 4)), In((3, 4))])


def _like(op, dtype):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(x=x), [In((None, 3), dtype, run=[(2, 3), (4, 3)])])


def _size_rank(op, out_type):
    if op == 'Rank':
        return None if out_type == tf.int64 else OpCase('', lambda x: tf.raw_ops.Rank(input=x) + 0,
                                                        [In((None, 3, 2), run=[(2, 3, 2)])])
    return OpCase('', lambda x: tf.raw_ops.Size(input=x, out_type=out_type), [In((None, 3), run=[(2, 3), (5, 3)])])


def _broadcast_to(target):
    return OpCase('', lambda x: tf.raw_ops.BroadcastTo(input=x, shape=target), [In((3, 1))])


register(
    grid('base/unary_math', _unary, op=sorted(_UNARY))
    + [_round(), _div_no_nan(), _atan2()]
    + grid('base/float_class', _float_class, op=['IsNan', 'IsInf', 'IsFinite'])
    + grid('base/int_division', _int_division, op=['FloorDiv', 'TruncateDiv'], dtype=[np.int32, np.int64, np.float32],
           shapes=['same', 'broadcast'])
    + grid('base/AddN', _add_n, n=[1, 2, 4])
    + grid('base/ClipByValue', _clip, bounds=['scalar', 'tensor'])
    + grid('base/filled_like', _like, op=['ZerosLike', 'OnesLike'], dtype=[np.float32, np.int32])
    + grid('base/size_rank', _size_rank, op=['Size', 'Rank'], out_type=[tf.int32, tf.int64])
    + grid('base/BroadcastTo', _broadcast_to, target=[[3, 4], [2, 3, 5]])
)


def _elementwise_exact(ov, tf_, zero_sign=True):
    """Each element to a few ulps of TF's (relative to itself, not to the tensor's largest), NaN where TF gives
    NaN, and zeros with TF's sign (unless ``zero_sign`` is False): what the max-relative default comparison cannot
    see for tiny values."""
    for got, want in zip(ov, tf_):
        got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
        assert np.array_equal(np.isnan(got), np.isnan(want)), (got, want)
        finite = np.isfinite(want)
        assert np.array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)]), (got, want)
        scale = np.maximum(np.abs(want[finite]), np.finfo(np.float32).tiny)
        assert np.max(np.abs(got[finite] - want[finite]) / scale, initial=0) < 4e-6, (got, want)
        zeros = want == 0
        assert not zero_sign or np.array_equal(np.signbit(got[zeros]), np.signbit(want[zeros])), (got, want)


#: tiny magnitudes (where Exp(x) - 1 and Log(1 + x) cancel every digit), signed zeros, the ends of the domain
_EDGES = {
    'Expm1': [-1e-8, 1e-8, -3e-6, 2e-5, -1e-3, 0.5, -0.0, 0.0, 30.0, -30.0, 100.0, -100.0, np.inf, -np.inf, np.nan],
    'Log1p': [-1e-8, 1e-8, -3e-6, 2e-5, -1e-3, 0.5, -0.0, 0.0, 1e6, -0.999, -1.0, -2.0, np.inf, -np.inf, np.nan],
    'Rsqrt': [1e-8, 0.25, 2.0, 1e6, -0.0, 0.0, -1.0, np.inf, -np.inf, np.nan],
}


def _edges(op):
    values = np.array(_EDGES[op], np.float32)
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(x=x), [In(values.shape, values=lambda rng, s: values)], check=_elementwise_exact)


register(grid('base/unary_edges', _edges, op=sorted(_EDGES)))


def _xlog1py_small():
    """Xlog1py where y is tiny: x * Log(1 + y) would be 0 (or lose digits), TF computes x * log1p(y)."""
    x = np.array([1e30, 2.0, -3.0, 0.0, 1.0, 4.0, 1e8], np.float32)
    y = np.array([1e-30, 1e-8, -1e-7, 5.0, -1.0, 3e-4, 1e-8], np.float32)
    return OpCase('base/Xlog1py_small_y', lambda a, c: tf.raw_ops.Xlog1py(x=a, y=c),
                  [In(x.shape, values=lambda rng, s: x), In(y.shape, values=lambda rng, s: y)], check=_elementwise_exact)


register([_xlog1py_small()])
