"""Harness cases for SpaceToBatchND and BatchToSpaceND whose block shape is shorter than the spatial rank (the
remaining dimensions are not blocked) or covers every dimension after the batch (no channels), over the
paddings/crops, several ranks and the element types TF registers kernels for."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

#: (input shape for SpaceToBatchND, block shape, paddings); BatchToSpaceND undoes it
_LAYOUTS = {
    'rank3_block1': ((2, 5, 3), [2], [[1, 0]]),
    'rank4_block1': ((2, 4, 5, 3), [2], [[0, 2]]),
    'rank5_block2': ((1, 4, 3, 2, 3), [2, 3], [[1, 1], [0, 3]]),
    'rank3_block2': ((2, 4, 6), [2, 3], [[0, 0], [1, 2]]),
    'rank2_block1': ((3, 7), [3], [[2, 0]]),
}


def _values(dtype):
    kind = np.dtype(dtype)
    if np.issubdtype(kind, np.unsignedinteger):
        return {'low': 0, 'high': 100}
    return {}


def _space_to_batch(layout, dtype):
    shape, block, paddings = _LAYOUTS[layout]
    return OpCase('', lambda x: tf.raw_ops.SpaceToBatchND(input=x, block_shape=block, paddings=paddings),
                  [In(shape, dtype=dtype, **_values(dtype))])


def _batch_to_space(layout, dtype):
    shape, block, paddings = _LAYOUTS[layout]
    count = len(block)
    blocked = [(d + p[0] + p[1]) // k for d, k, p in zip(shape[1:1 + count], block, paddings)]
    batched = (shape[0] * int(np.prod(block)),) + tuple(blocked) + tuple(shape[1 + count:])
    return OpCase('', lambda x: tf.raw_ops.BatchToSpaceND(input=x, block_shape=block, crops=paddings),
                  [In(batched, dtype=dtype, **_values(dtype))])


def _dynamic(op):
    """Dimensions known only at run time (the rank is known)."""
    if op == 'SpaceToBatchND':
        return OpCase('', lambda x: tf.raw_ops.SpaceToBatchND(input=x, block_shape=[2], paddings=[[1, 1]]),
                      [In((None, None, None, 3), run=[(2, 4, 5, 3), (1, 6, 2, 3)])])
    return OpCase('', lambda x: tf.raw_ops.BatchToSpaceND(input=x, block_shape=[2], crops=[[0, 1]]),
                  [In((None, None, None, 3), run=[(4, 3, 5, 3), (2, 2, 1, 3)])])


#: TF's CPU kernels: the real number types (bfloat16 has no numpy type to feed)
_TYPES = [np.float32, np.float16, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          np.uint32, np.uint64]

register(grid('space_batch_partial/SpaceToBatchND', _space_to_batch, layout=list(_LAYOUTS), dtype=[np.float32])
         + grid('space_batch_partial/SpaceToBatchND', _space_to_batch, layout=['rank4_block1'], dtype=_TYPES[1:])
         + grid('space_batch_partial/BatchToSpaceND', _batch_to_space, layout=list(_LAYOUTS), dtype=[np.float32])
         + grid('space_batch_partial/BatchToSpaceND', _batch_to_space, layout=['rank4_block1'], dtype=_TYPES[1:])
         + grid('space_batch_partial/dynamic', _dynamic, op=['SpaceToBatchND', 'BatchToSpaceND']))
