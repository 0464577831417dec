"""Harness cases for the shape, slicing, joining and identity-like extractors mo had before the
op-coverage work."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _concat(op, axis, n):
    if op == 'Concat':
        return OpCase('', lambda *xs: tf.raw_ops.Concat(concat_dim=axis, values=list(xs)), [In((2, 3, 4))] * n)
    return OpCase('', lambda *xs: tf.raw_ops.ConcatV2(values=list(xs), axis=axis), [In((2, 3, 4))] * n)


def _expand_dims(axis):
    return OpCase('', lambda x: tf.raw_ops.ExpandDims(input=x, axis=axis), [In((2, 3))])


def _fill(dtype):
    return OpCase('', lambda v: tf.raw_ops.Fill(dims=[2, 3], value=v), [In((), dtype)])


def _gather(op, axis, batch_dims):
    indices = tf.constant(np.array([[2, 0], [1, 1]], np.int32))
    if op == 'Gather':
        if axis != 0 or batch_dims:
            return None
        return OpCase('', lambda x: tf.raw_ops.Gather(params=x, indices=indices), [In((3, 4, 5))])
    if batch_dims and axis == 0:
        return None
    idx = tf.constant(np.array([[2, 0], [1, 1], [0, 2]], np.int32)) if batch_dims else indices
    return OpCase('', lambda x: tf.raw_ops.GatherV2(params=x, indices=idx, axis=axis, batch_dims=batch_dims),
                  [In((3, 4, 5))])


def _gather_runtime_indices():
    return OpCase('base/GatherV2_runtime_indices', lambda x, i: tf.raw_ops.GatherV2(params=x, indices=i, axis=1),
                  [In((2, 5)), In((3,), np.int32, values=lambda rng, s: rng.integers(0, 5, s))])


def _pack(axis, n):
    return OpCase('', lambda *xs: tf.raw_ops.Pack(values=list(xs), axis=axis), [In((2, 3))] * n)


def _unpack(axis):
    return OpCase('', lambda x: tuple(tf.raw_ops.Unpack(value=x, num=3, axis=axis)), [In((3, 3, 3))])


def _pad(op, mode):
    paddings = [[1, 0], [0, 2], [2, 1]]
    if op == 'Pad':
        return None if mode else OpCase('', lambda x: tf.raw_ops.Pad(input=x, paddings=paddings), [In((2, 3, 4))])
    if op == 'PadV2':
        return None if mode else OpCase('', lambda x: tf.raw_ops.PadV2(input=x, paddings=paddings,
                                                                      constant_values=1.5), [In((2, 3, 4))])
    if not mode:
        return None
    return OpCase('', lambda x: tf.raw_ops.MirrorPad(input=x, paddings=paddings, mode=mode), [In((2, 3, 4))])


def _range(dtype, delta):
    return OpCase('', lambda start: tf.raw_ops.Range(start=start, limit=tf.cast(7, dtype) * delta,
                                                     delta=tf.cast(delta, dtype)) + start,
                  [In((), dtype, values=lambda rng, s: np.array(0))])


def _reshape(target):
    return OpCase('', lambda x: tf.raw_ops.Reshape(tensor=x, shape=target), [In((2, 3, 4))])


def _reshape_from_shape():
    # the target shape is another input's, known only at run time
    return OpCase('base/Reshape_from_tf_shape', lambda x, y: tf.raw_ops.Reshape(tensor=x, shape=tf.shape(y)),
                  [In((2, 6)), In((None, 4), run=[(3, 4)])])


def _shape(out_type):
    return OpCase('', lambda x: tf.raw_ops.Shape(input=x, out_type=out_type), [In((2, 3, 4))])


def _slice(begin, size):
    return OpCase('', lambda x: tf.raw_ops.Slice(input=x, begin=begin, size=size), [In((4, 5, 6))])


def _split(axis, num):
    return OpCase('', lambda x: tuple(tf.raw_ops.Split(axis=axis, value=x, num_split=num)), [In((4, 6, 2))])


def _splitv(sizes, axis):
    return OpCase('', lambda x: tuple(tf.raw_ops.SplitV(value=x, size_splits=sizes, axis=axis, num_split=len(sizes))),
                  [In((6, 6))])


def _squeeze(dims):
    return OpCase('', lambda x: tf.raw_ops.Squeeze(input=x, axis=dims), [In((1, 3, 1, 4))])


#: (begin, end, strides, masks) grids for StridedSlice on a [4, 5, 6] input
_SLICES = {
    'plain': ([1, 0, 2], [3, 5, 6], [1, 1, 1], {}),
    'negative_indices': ([-3, 0, -4], [-1, 5, -1], [1, 1, 1], {}),
    'negative_strides': ([3, 4, 5], [0, 0, 0], [-1, -2, -3], {}),
    'strides_2': ([0, 1, 0], [4, 5, 6], [2, 2, 3], {}),
    'begin_end_masks': ([1, 2, 3], [2, 3, 4], [1, 1, 1], {'begin_mask': 0b101, 'end_mask': 0b010}),
    'shrink': ([1, 0, 2], [2, 5, 3], [1, 1, 1], {'shrink_axis_mask': 0b101}),
    'new_axis': ([0, 1, 0], [4, 3, 6], [1, 1, 1], {'new_axis_mask': 0b010}),
    'ellipsis': ([0, 1], [0, 3], [1, 1], {'ellipsis_mask': 0b01}),
    'ellipsis_shrink': ([0, 2], [0, 3], [1, 1], {'ellipsis_mask': 0b01, 'shrink_axis_mask': 0b10}),
    'out_of_range': ([-10, 1, 0], [10, 100, 6], [1, 1, 1], {}),
}


def _strided_slice(kind):
    begin, end, strides, masks = _SLICES[kind]
    return OpCase('', lambda x: tf.raw_ops.StridedSlice(input=x, begin=begin, end=end, strides=strides, **masks),
                  [In((4, 5, 6))])


def _tile(multiples):
    return OpCase('', lambda x: tf.raw_ops.Tile(input=x, multiples=multiples), [In((2, 3))])


def _tile_runtime(multiples):
    """Multiples fed at run time (OpenVINO's CPU Tile gets those wrong on rank 4 along
    three dimensions or more: mo broadcasts)."""
    return OpCase('', lambda x, m: tf.raw_ops.Tile(input=x, multiples=m),
                  [In((2, 3, 4, 5)), In((4,), np.int32, values=lambda rng, shape: np.array(multiples))])


def _transpose(perm):
    return OpCase('', lambda x: tf.raw_ops.Transpose(x=x, perm=perm), [In((2, 3, 4))])


def _identity_like(op):
    if op == 'IdentityN':
        return OpCase('', lambda x, y: tuple(tf.raw_ops.IdentityN(input=[x * 2.0, y + 1.0])), [In((2, 3)), In((4,))])
    fn = getattr(tf.raw_ops, op)
    return OpCase('', lambda x: fn(input=x * 2.0) + 1.0, [In((2, 3))])


def _no_op():
    def fn(x):
        with tf.control_dependencies([tf.raw_ops.NoOp()]):
            return tf.identity(x * 3.0)
    return OpCase('base/NoOp', fn, [In((2, 3))])


def _placeholder_with_default():
    return OpCase('base/PlaceholderWithDefault', lambda x: x + tf.raw_ops.PlaceholderWithDefault(input=tf.constant([1.0, 2.0, 3.0]), shape=[3]),
                  [In((2, 3))])


register(
    grid('base/concat', _concat, op=['Concat', 'ConcatV2'], axis=[0, -1, 1], n=[2, 3])
    + grid('base/ExpandDims', _expand_dims, axis=[0, 1, -1, 2])
    + grid('base/Fill', _fill, dtype=[np.float32, np.int32])
    + grid('base/gather', _gather, op=['Gather', 'GatherV2'], axis=[0, 1, -1], batch_dims=[0, 1])
    + [_gather_runtime_indices()]
    + grid('base/Pack', _pack, axis=[0, 1, -1], n=[1, 3])
    + grid('base/Unpack', _unpack, axis=[0, 1, -1])
    + grid('base/pad', _pad, op=['Pad', 'PadV2', 'MirrorPad'], mode=[None, 'REFLECT', 'SYMMETRIC'])
    + grid('base/Range', _range, dtype=[np.int32, np.float32], delta=[1, 2, -1])
    + grid('base/Reshape', _reshape, target=[[6, 4], [-1, 2], [2, -1, 3], [24]])
    + [_reshape_from_shape()]
    + grid('base/Shape', _shape, out_type=[tf.int32, tf.int64])
    + grid('base/Slice', _slice, begin=[[0, 1, 2], [1, 0, 0]], size=[[2, 3, 4], [-1, 2, -1]])
    + grid('base/Split', _split, axis=[0, 1, -1], num=[2])
    + grid('base/SplitV', _splitv, sizes=[[1, 2, 3], [2, -1]], axis=[0, -1])
    + grid('base/Squeeze', _squeeze, dims=[[], [0], [-2], [0, 2]])
    + grid('base/StridedSlice', _strided_slice, kind=sorted(_SLICES))
    + grid('base/Tile', _tile, multiples=[[1, 2], [3, 1], [2, 2]])
    + grid('base/Tile_runtime', _tile_runtime, multiples=[[1, 2, 1, 1], [2, 2, 2, 2], [7, 6, 4, 2], [2, 0, 3, 1]])
    + grid('base/Transpose', _transpose, perm=[[1, 0, 2], [2, 0, 1], [0, 1, 2]])
    + grid('base/identity_like', _identity_like, op=['IdentityN', 'PreventGradient', 'Snapshot', 'StopGradient'])
    + [_no_op(), _placeholder_with_default()]
)
