"""Harness cases for ops whose TF definition is a formula with an order that matters at the edges (issue 26):
bounds given the wrong way round, negative steps, empty results. The bounds are model inputs (the IR computes
the formula at run time) as well as constants (folded while converting), each fed with the edge values in turn.

- ClipByValue: TF's kernel computes ``max(min(x, hi), lo)``, so where ``lo > hi`` the result is ``lo``.
- Relu6 on every type TF registers it for (a clamp to [0, 6]).
- Range: negative and fractional deltas, empty ranges (start == limit), every index type.
- Slice and StridedSlice: negative and out-of-range bounds, reversed bounds (empty), negative strides with masks.
"""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _values(values, dtype):
    """An input fed with each of ``values`` in turn (one run per value)."""
    items = [np.asarray(v, dtype) for v in values]
    shape = items[0].shape
    return In(shape, dtype, run=[shape] * len(items),
              values=lambda rng, s, it=iter(items * 1000): next(it))


# ----- ClipByValue -----------------------------------------------------------------------------
#: the real types ClipByValue's CPU kernel is registered for (numpy has no bfloat16; complex is another issue's)
CLIP_TYPES = [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64]


def _clip(bounds, dtype):
    """``bounds``: constants lo > hi; scalar inputs fed in both orders and equal; element-wise inputs, some
    pairs reversed."""
    signed = not np.issubdtype(np.dtype(dtype), np.unsignedinteger)
    x = In((3, 4), dtype, low=-6 if signed else 0, high=7)
    if bounds == 'constants_reversed':
        lo, hi = np.array(3, dtype), np.array(1, dtype)
        return OpCase('', lambda x: tf.raw_ops.ClipByValue(t=x, clip_value_min=lo, clip_value_max=hi), [x])
    fn = lambda x, lo, hi: tf.raw_ops.ClipByValue(t=x, clip_value_min=lo, clip_value_max=hi)  # noqa: E731
    if bounds == 'scalars':
        return OpCase('', fn, [In((3, 4), dtype, run=[(3, 4)] * 3, low=-6 if signed else 0, high=7),
                               _values([3, 1, 2], dtype), _values([1, 3, 2], dtype)])
    return OpCase('', fn, [x, In((3, 4), dtype, low=0, high=5), In((3, 4), dtype, low=0, high=5)])


# ----- Relu6 -------------------------------------------------------------------------------------
#: the types Relu6's CPU kernel is registered for, less bfloat16
RELU6_TYPES = [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64,
               np.uint32, np.uint64]


def _relu6(dtype):
    signed = not np.issubdtype(np.dtype(dtype), np.unsignedinteger)
    return OpCase('', lambda x: tf.raw_ops.Relu6(features=x), [In((3, 5), dtype, low=-9 if signed else 0, high=10)])


# ----- Range -------------------------------------------------------------------------------------
#: (start, limit, delta) fed in turn: negative and fractional deltas, empty ranges, a single element
_RANGES = {
    'int': [(0, 7, 2), (7, 0, -2), (5, 5, 1), (5, 5, -3), (-3, -10, -3), (-4, 4, 9), (2, 3, 1)],
    'float': [(0.0, 1.0, 0.3), (1.0, -1.0, -0.7), (2.5, 2.5, 0.5), (-0.5, -3.0, -0.25), (0.0, 1.0, 5.0)],
}
#: the index types Range's CPU kernel is registered for, less bfloat16
RANGE_TYPES = [np.int32, np.int64, np.float16, np.float32, np.float64]


def _range(dtype, bounds):
    floating = np.issubdtype(np.dtype(dtype), np.floating)
    triples = _RANGES['float' if floating else 'int']
    if bounds == 'constants':
        if dtype == np.float16:
            return None  # TF's shape function refuses a half Range of known bounds while tracing
        start, limit, delta = (np.array(v, dtype) for v in triples[1])
        return OpCase('', lambda x: tf.raw_ops.Range(start=start, limit=limit, delta=delta) + x,
                      [In((), dtype, values=lambda rng, s: np.array(0, dtype))])
    starts, limits, deltas = zip(*triples)
    return OpCase('', lambda a, b, c: tf.raw_ops.Range(start=a, limit=b, delta=c),
                  [_values(starts, dtype), _values(limits, dtype), _values(deltas, dtype)])


# ----- Slice and StridedSlice --------------------------------------------------------------------------
#: StridedSlice (begin, end, strides, masks) on a [5, 6] input
_STRIDED = {
    'reversed_bounds': ([4, 5], [1, 2], [1, 1], {}),
    'reversed_negative_stride': ([1, 2], [4, 5], [-1, -1], {}),
    'negative_stride_masks': ([2, 4], [0, 1], [-1, -2], {'begin_mask': 0b01, 'end_mask': 0b10}),
    'negative_stride_out_of_range': ([10, -10], [-10, 10], [-2, 3], {}),
    'negative_indices_reversed': ([-1, -2], [-4, -6], [-1, -1], {}),
    'negative_stride_shrink': ([-1, 5], [0, 0], [1, -1], {'shrink_axis_mask': 0b01}),
}
#: Slice (begin, size) fed in turn at run time on a [5, 6] input: size -1 (to the end), empty, at the end
_SLICES = [([0, 0], [-1, -1]), ([2, 3], [-1, 2]), ([4, 6], [1, 0]), ([5, 0], [0, -1]), ([1, 2], [3, 4])]


def _strided(kind, bounds):
    begin, end, strides, masks = _STRIDED[kind]
    if bounds == 'constants':
        return OpCase('', lambda x: tf.raw_ops.StridedSlice(input=x, begin=begin, end=end, strides=strides, **masks),
                      [In((5, 6))])
    return OpCase('', lambda x, b, e, s: tf.raw_ops.StridedSlice(input=x, begin=b, end=e, strides=s, **masks),
                  [In((5, 6)), _values([begin], np.int32), _values([end], np.int32), _values([strides], np.int32)])


def _slice_inputs():
    begins, sizes = zip(*_SLICES)
    return OpCase('', lambda x, b, s: tf.raw_ops.Slice(input=x, begin=b, size=s),
                  [In((5, 6), run=[(5, 6)] * len(_SLICES)), _values(begins, np.int32), _values(sizes, np.int32)])


register(
    grid('edges/ClipByValue', _clip, bounds=['constants_reversed', 'scalars', 'elementwise'], dtype=CLIP_TYPES)
    + grid('edges/Relu6', _relu6, dtype=RELU6_TYPES)
    + grid('edges/Range', _range, dtype=RANGE_TYPES, bounds=['inputs', 'constants'])
    + grid('edges/StridedSlice', _strided, kind=sorted(_STRIDED), bounds=['constants', 'inputs'])
    + [OpCase('edges/Slice_inputs', _slice_inputs().fn, _slice_inputs().inputs)]
)
