"""Harness cases for the ops of ``extensions/front/tf/indexing_ext.py``."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register


def _one_hot(axis, dtype):
    on, off = (np.array(5, dtype), np.array(-1, dtype))
    return OpCase('', lambda i: tf.raw_ops.OneHot(indices=i, depth=4, on_value=on, off_value=off, axis=axis),
                  [In((2, 3), np.int32, low=-1, high=5)])  # -1 and 4 are out of range: rows of off_value


def _cumsum(exclusive, reverse, axis):
    return OpCase('', lambda x: tf.raw_ops.Cumsum(x=x, axis=axis, exclusive=exclusive, reverse=reverse),
                  [In((3, 4, 2))])


def _reverse(axes):
    return OpCase('', lambda x: tf.raw_ops.ReverseV2(tensor=x, axis=axes), [In((2, 3, 4))])


def _gather_nd(depth):
    params_shape = (4, 3, 2)
    indices = np.array([[[1, 2, 0][:depth], [3, 0, 1][:depth]], [[0, 1, 1][:depth], [2, 2, 0][:depth]]], np.int32)
    return OpCase('', lambda x: tf.raw_ops.GatherNd(params=x, indices=indices), [In(params_shape)])


def _scatter_nd(duplicates):
    indices = np.array([[0, 1], [2, 0], [0, 1] if duplicates else [1, 1]], np.int32)
    return OpCase('', lambda u: tf.raw_ops.ScatterNd(indices=indices, updates=u, shape=[3, 2, 4]), [In((3, 4))])


def _where(dtype):
    return OpCase('', lambda x: tf.raw_ops.Where(condition=x), [In((3, 4, 2), dtype, low=0, high=2)])


def _depth_space(op, block):
    fn = getattr(tf.raw_ops, op)
    shape = (1, 3, 2, 4 * block * block) if op == 'DepthToSpace' else (1, 3 * block, 2 * block, 3)
    return OpCase('', lambda x: fn(input=x, block_size=block), [In(shape)])


register(
    grid('base/OneHot', _one_hot, axis=[-1, 0, 1], dtype=[np.float32, np.int32])
    + grid('base/Cumsum', _cumsum, exclusive=[False, True], reverse=[False, True], axis=[0, -1])
    + grid('base/ReverseV2', _reverse, axes=[[0], [-1], [0, 2]])
    + grid('base/GatherNd', _gather_nd, depth=[1, 2, 3])
    + grid('base/ScatterNd', _scatter_nd, duplicates=[False, True])
    + grid('base/Where', _where, dtype=[np.bool_, np.float32, np.int32])
    + grid('base/depth_space', _depth_space, op=['DepthToSpace', 'SpaceToDepth'], block=[2, 3])
)


def _space_batch(op, block, pads):
    if op == 'SpaceToBatchND':
        paddings = [[0, 0], [0, 0]] if pads == 'none' else [[1, 2], [0, 1]]
        height = 3 * block[0] - (0 if pads == 'none' else 3)  # (height + pads) divisible by the block
        width = 2 * block[1] - (0 if pads == 'none' else 1)
        return OpCase('', lambda x: tf.raw_ops.SpaceToBatchND(input=x, block_shape=block, paddings=paddings),
                      [In((2, height, width, 3))])
    crops = [[0, 0], [0, 0]] if pads == 'none' else [[1, 0], [0, 1]]
    return OpCase('', lambda x: tf.raw_ops.BatchToSpaceND(input=x, block_shape=block, crops=crops),
                  [In((2 * block[0] * block[1], 3, 4, 2))])


def _atrous_conv(rate, padding):
    w = tf.constant(np.random.default_rng(3).standard_normal((3, 3, 2, 4)).astype(np.float32))
    return OpCase('', lambda x: tf.nn.atrous_conv2d(x, w, rate, padding), [In((1, 13, 11, 2))])


def _lrn(radius, bias, alpha, beta):
    return OpCase('', lambda x: tf.raw_ops.LRN(input=x, depth_radius=radius, bias=bias, alpha=alpha, beta=beta),
                  [In((1, 3, 4, 7))])


register(
    grid('base/space_batch', _space_batch, op=['SpaceToBatchND', 'BatchToSpaceND'], block=[[2, 2], [2, 3]],
         pads=['none', 'some'])
    + grid('base/atrous_conv2d', _atrous_conv, rate=[2, 3], padding=['SAME', 'VALID'])
    + grid('base/LRN', _lrn, radius=[1, 2], bias=[1.0, 2.0], alpha=[1.0, 0.1], beta=[0.5, 0.75])
)
