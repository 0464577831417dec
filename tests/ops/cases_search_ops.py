"""Harness cases for the search and counting ops: UpperBound/LowerBound (tf.searchsorted, both sides, values
equal to entries, below and above every entry, out_type int32/int64, every real type TF registers, rows known at
run time) and Bincount/DenseBincount (with and without weights, binary_output, 1-D and 2-D input, values past
the size, the size computed in the graph as tf.math.bincount does, weight types int32/int64/float32/float64)."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _sorted(dtype):
    def make(rng, shape):
        values = np.sort(rng.integers(-6, 7, shape), axis=-1)  # repeated entries
        return values if np.issubdtype(np.dtype(dtype), np.signedinteger) or np.dtype(dtype).kind == 'f' \
            else values + 6
    return make


def _values(dtype):
    def make(rng, shape):
        values = rng.integers(-8, 9, shape)  # equal to entries, below and above all of them
        if np.dtype(dtype).kind == 'f':
            values = values + rng.choice([0.0, 0.5], shape)
        return values if np.dtype(dtype).kind != 'u' else values + 8
    return make


def _bound(op, side_type, dtype):
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda s, v: fn(sorted_inputs=s, values=v, out_type=side_type),
                  [In((3, 7), dtype=dtype, values=_sorted(dtype)), In((3, 5), dtype=dtype, values=_values(dtype))])


def _searchsorted(side):
    rows = In((None, None), values=_sorted(np.float32), run=[(2, 6), (4, 3)])
    values = In((None, None), values=_values(np.float32), run=[(2, 9), (4, 1)])
    return OpCase('', lambda s, v: tf.searchsorted(s, v, side=side), [rows, values])


_TYPES = [np.float32, np.float16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          np.uint32, np.uint64]


def _weights(kind, dtype, shape):
    if kind == 'none':
        return None
    return In(shape, dtype=dtype, low=-3, high=9)


def _bincount(weights, dtype):
    arr = In((4, 6), dtype=np.int32, low=0, high=9)  # values past size 7 count nowhere
    if weights == 'none':
        return OpCase('', lambda a: tf.raw_ops.Bincount(arr=a, size=7, weights=tf.constant([], dtype)), [arr])
    return OpCase('', lambda a, w: tf.raw_ops.Bincount(arr=a, size=7, weights=w), [arr, _weights(weights, dtype,
                                                                                                  (4, 6))])


def _dense(rank, weights, binary, dtype, index_type):
    shape = (10,) if rank == 1 else (3, 8)
    arr = In(shape, dtype=index_type, low=0, high=7)
    if binary and weights == 'given':
        return None  # TF refuses binary_output with weights
    size = tf.constant(5, index_type)
    if weights == 'none':
        return OpCase('', lambda a: tf.raw_ops.DenseBincount(input=a, size=size, weights=tf.constant([], dtype),
                                                             binary_output=binary), [arr])
    return OpCase('', lambda a, w: tf.raw_ops.DenseBincount(input=a, size=size, weights=w, binary_output=binary),
                  [arr, _weights(weights, dtype, shape)])


def _math_bincount(kind):
    """tf.math.bincount: the size from the largest value (computed in the graph), or minlength/maxlength."""
    arr = In((None,), dtype=np.int32, low=0, high=9, run=[(12,), (5,)])
    if kind == 'counts':
        return OpCase('', lambda a: tf.math.bincount(a), [arr])
    if kind == 'weights':
        return OpCase('', lambda a: tf.math.bincount(a, weights=tf.cast(a, tf.float32) * 0.5, minlength=4,
                                                     maxlength=6), [arr])
    return OpCase('', lambda a: tf.math.bincount(a, minlength=10, binary_output=True), [arr])


register(grid('search/bound', _bound, op=['UpperBound', 'LowerBound'], side_type=[tf.int32, tf.int64],
              dtype=[np.float32])
         + grid('search/bound', _bound, op=['UpperBound', 'LowerBound'], side_type=[tf.int32], dtype=_TYPES[1:])
         + grid('search/searchsorted', _searchsorted, side=['left', 'right'])
         + grid('count/Bincount', _bincount, weights=['none', 'given'],
                dtype=[np.float32, np.float64, np.int32, np.int64])
         + grid('count/DenseBincount', _dense, rank=[1, 2], weights=['none', 'given'], binary=[False, True],
                dtype=[np.float32], index_type=[np.int32, np.int64])
         + grid('count/DenseBincount', _dense, rank=[2], weights=['none', 'given'], binary=[False],
                dtype=[np.float64, np.int32, np.int64], index_type=[np.int32])
         + grid('count/math_bincount', _math_bincount, kind=['counts', 'weights', 'binary']))
