"""Harness cases for TensorFlow's index-type attributes (``Tidx``, ``Tpaddings``, ``Tshape``, ``Tmultiples``,
``Tindices``, ``Tsegmentids``, ``index_type``, ...) in int64 (and int16/int8/uint8 where TF registers them),
several ops per graph: the index half of the dtype grid (``cases_dtype_grid.py`` widens the data types).
"""
import numpy as np
import tensorflow as tf

from tests.ops.cases_dtype_grid import _distinct, _sorted_ids, _tfd
from tests.ops.harness import In, OpCase, grid, register


def _index_reduce(tidx):
    """The reductions, Cumsum/Cumprod and ReverseV2 with their axis in ``tidx``."""
    def fn(x, b):
        axis = tf.constant([1], _tfd(tidx))
        one = tf.constant(1, _tfd(tidx))
        return (tf.raw_ops.Sum(input=x, axis=axis), tf.raw_ops.Mean(input=x, axis=axis, keep_dims=True),
                tf.raw_ops.Max(input=x, axis=axis), tf.raw_ops.Min(input=x, axis=axis),
                tf.raw_ops.Prod(input=x, axis=axis), tf.raw_ops.EuclideanNorm(input=x, axis=axis),
                tf.raw_ops.All(input=b, axis=axis), tf.raw_ops.Any(input=b, axis=axis),
                tf.raw_ops.Cumsum(x=x, axis=one, exclusive=True), tf.raw_ops.Cumprod(x=x, axis=one, reverse=True),
                tf.raw_ops.ReverseV2(tensor=x, axis=axis),
                tf.raw_ops.ArgMax(input=x, dimension=one), tf.raw_ops.ConcatV2(values=[x, x], axis=one),
                tf.raw_ops.Roll(input=x, shift=tf.constant([1], _tfd(tidx)), axis=axis))
    return OpCase('', fn, [In((2, 3, 4)), In((2, 3, 4), np.bool_)])


def _index_shape(tidx):
    """Pad/PadV2/MirrorPad paddings, Reshape's shape, Tile's multiples, ExpandDims' dim, Fill's dims,
    BroadcastTo's shape and Range in ``tidx``."""
    t = _tfd(tidx)

    def fn(x):
        pads = tf.constant([[1, 0], [0, 2]], t)
        return (tf.raw_ops.Pad(input=x, paddings=pads), tf.raw_ops.PadV2(input=x, paddings=pads, constant_values=1.5),
                tf.raw_ops.MirrorPad(input=x, paddings=pads, mode='SYMMETRIC'),
                tf.raw_ops.Reshape(tensor=x, shape=tf.constant([1, -1], t)),
                tf.raw_ops.Tile(input=x, multiples=tf.constant([2, 1], t)),
                tf.raw_ops.ExpandDims(input=x, axis=tf.constant(-1, t)),
                tf.raw_ops.Fill(dims=tf.constant([2, 3], t), value=x[0, 0]),
                tf.raw_ops.BroadcastTo(input=x[:1], shape=tf.constant([3, 3, 3], t)),
                tf.raw_ops.Squeeze(input=tf.raw_ops.ExpandDims(input=x, axis=tf.constant(0, t)), axis=[0]))
    return OpCase('', fn, [In((3, 3))])


def _index_dynamic_shape(tidx):
    """Shapes computed at run time in ``tidx`` (Shape out_type, Reshape, Fill, Tile, Pad from it)."""
    t = _tfd(tidx)

    def fn(x):
        shape = tf.raw_ops.Shape(input=x, out_type=t)
        return (tf.raw_ops.Reshape(tensor=x, shape=tf.reverse(shape, [0])),
                tf.raw_ops.Fill(dims=shape, value=tf.constant(2.0)),
                tf.raw_ops.Tile(input=x, multiples=shape // shape),
                tf.raw_ops.Pad(input=x, paddings=tf.stack([shape // shape, shape - shape], axis=1)))
    return OpCase('', fn, [In((None, 3), run=[(2, 3), (4, 3)])])


def _index_gather(tindices):
    """Gather/GatherV2/GatherNd/ScatterNd/TensorScatter*/UnsortedSegment*/OneHot/ReverseSequence index inputs."""
    def fn(x, i, nd):
        return (tf.raw_ops.Gather(params=x, indices=i), tf.raw_ops.GatherV2(params=x, indices=i, axis=1),
                tf.raw_ops.GatherNd(params=x, indices=nd),
                tf.raw_ops.ScatterNd(indices=nd, updates=tf.ones([3], x.dtype), shape=tf.constant([4, 4], nd.dtype)),
                tf.raw_ops.TensorScatterAdd(tensor=x, indices=nd, updates=tf.ones([3], x.dtype)),
                tf.raw_ops.TensorScatterUpdate(tensor=x, indices=nd[:1], updates=tf.ones([1], x.dtype)))
    return OpCase('', fn, [In((4, 4)), In((5,), tindices, low=0, high=4),
                           In((3, 2), tindices, values=lambda rng, s: np.array([[0, 1], [3, 2], [1, 1]]))])


def _index_misc(tidx):
    """OneHot's indices (TI: int8, uint8, int64), SplitV's sizes (Tlen int64; TF's shape function aborts the
    process for an int8 Tlen), ReverseSequence's lengths (Tlen: int64) and TopKV2's index_type (int16, int64)."""
    t = _tfd(tidx)

    def fn(x, i):
        out = []
        if tidx in (np.int8, np.uint8, np.int64):
            out.append(tf.raw_ops.OneHot(indices=i, depth=4, on_value=1.0, off_value=0.0, axis=-1))
        if tidx == np.int64:
            out.append(tf.raw_ops.SplitV(value=x, size_splits=tf.constant([1, 3], t), axis=1, num_split=2)[1])
            out.append(tf.raw_ops.ReverseSequence(input=x, seq_lengths=tf.constant([2, 4, 1], t), seq_dim=1))
        if tidx in (np.int16, np.int64):
            out.extend(tf.raw_ops.TopKV2(input=x, k=2, index_type=t))
        return tuple(out)
    if tidx == np.int16:
        return OpCase('', lambda x: fn(x, None), [In((3, 4), values=_distinct(6))])
    if tidx in (np.int8, np.uint8):  # OneHot only: x is not read
        return OpCase('', lambda i: fn(None, i), [In((5,), tidx, low=0, high=5)])
    return OpCase('', fn, [In((3, 4), values=_distinct(6)), In((5,), tidx, low=0, high=5)])


def _index_sparse_segment(ids_dtype, tidx):
    """SparseSegment* with ``ids_dtype`` segment ids and ``tidx`` indices."""
    def fn(x, i, s):
        return tuple(getattr(tf.raw_ops, 'SparseSegment' + r)(data=x, indices=i, segment_ids=s)
                     for r in ('Sum', 'Mean', 'SqrtN')) + tuple(
            getattr(tf.raw_ops, 'SparseSegment' + r + 'WithNumSegments')(
                data=x, indices=i, segment_ids=s, num_segments=tf.constant(4, tidx))
            for r in ('Sum', 'Mean', 'SqrtN'))
    return OpCase('', fn, [In((4, 3)), In((5,), tidx, low=0, high=4), In((5,), ids_dtype, values=_sorted_ids)])


#: the known failures: case name -> reason (pytest xfail, strict)
XFAIL = {}

_CASES = (
    grid('dtype/index/reduce', _index_reduce, tidx=[np.int64])
    + grid('dtype/index/shape', _index_shape, tidx=[np.int64])
    + grid('dtype/index/dynamic_shape', _index_dynamic_shape, tidx=[np.int64])
    + grid('dtype/index/gather', _index_gather, tindices=[np.int64])
    + grid('dtype/index/misc', _index_misc, tidx=[np.int8, np.int16, np.int64, np.uint8])
    + grid('dtype/index/sparse_segment', _index_sparse_segment, ids_dtype=[np.int64], tidx=[np.int64])
)
for _case in _CASES:
    _case.xfail = XFAIL.get(_case.name, _case.xfail)
assert set(XFAIL) <= {c.name for c in _CASES}, sorted(set(XFAIL) - {c.name for c in _CASES})
register(_CASES)
