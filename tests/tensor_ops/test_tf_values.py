"""Whole front pipeline on small frozen TF functions: every output folds to TensorFlow's value.

Each function works on constants only, so after extraction, the front replacers and partial
inference the single Result must hold a value; it is compared with the function run eagerly.
"""
import numpy as np
import pytest

from tests.tensor_ops.tf_graphs import assert_same, freeze, front, infer, load_and_extract, results

tf = pytest.importorskip('tensorflow')

X = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4) - 7.5
X4 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
XI = np.array([[-7, 3, 0], [5, -2, 9]], dtype=np.int32)


def c(value):
    return tf.constant(value)


CASES = {
    # ---- StridedSlice: python slicing and explicit masks
    'ss_begin_mask': lambda: tf.strided_slice(c(X), [1, 1], [2, 3], [1, 1], begin_mask=1),
    'ss_end_mask': lambda: tf.strided_slice(c(X), [1, 1], [2, 2], [1, 1], end_mask=2),
    'ss_ellipsis': lambda: c(X4)[..., 1:3],
    'ss_ellipsis_middle': lambda: c(X4)[1, ..., 2],
    'ss_new_axis': lambda: c(X)[:, tf.newaxis, ::-1],
    'ss_new_axis_after_ellipsis': lambda: c(X4)[..., None, 1],
    'ss_shrink_negative': lambda: c(X)[-1],
    'ss_negative_strides': lambda: c(X4)[::-2, 2:0:-1, :, -1:-6:-2],
    'ss_clamp': lambda: c(X)[-10:10, 5:, 1:100:3],
    'ss_all_masks': lambda: tf.strided_slice(c(X4), [0, 1, 0, 2], [0, 3, 0, 4], [1, 1, 1, 1], begin_mask=0b1001,
                                             end_mask=0b0001, ellipsis_mask=0b0100, new_axis_mask=0,
                                             shrink_axis_mask=0b0001),
    'ss_int64_begin': lambda: tf.strided_slice(c(X), tf.constant([0, 2], tf.int64), tf.constant([1, 3], tf.int64),
                                               tf.constant([1, 1], tf.int64)),
    'slice': lambda: tf.slice(c(X4), [1, 0, 1, 2], [-1, 2, 3, -1]),
    # ---- shapes
    'shape_i32': lambda: tf.shape(c(X)),
    'shape_i64': lambda: tf.shape(c(X), out_type=tf.int64),
    'keras_flatten': lambda: tf.reshape(c(X4), tf.stack([tf.shape(c(X4))[0], -1])),
    'reshape_minus_one': lambda: tf.reshape(c(X), [-1, 2, 2]),
    'expand_dims_negative': lambda: tf.expand_dims(c(X), -2),
    'squeeze_dims': lambda: tf.squeeze(c(X4[:, :1, :, :1]), axis=[-1]),
    'squeeze_all': lambda: tf.squeeze(c(X4[:, :1, :, :1])),
    'transpose': lambda: tf.transpose(c(X4), [0, 3, 1, 2]),
    'concat_negative_axis': lambda: tf.concat([c(X), c(X) * 2], axis=-1),
    'concat_axis0': lambda: tf.concat([c(XI), c(XI)], axis=0),
    'stack': lambda: tf.stack([c(X), c(X) + 1], axis=-1),
    'unstack': lambda: tf.unstack(c(X), axis=1)[1] + tf.unstack(c(X), axis=1)[2],
    'split': lambda: tf.split(c(X4), 3, axis=1)[2],
    'splitv': lambda: tf.split(c(X4), [1, -1, 2], axis=-1)[1],
    'gather': lambda: tf.gather(c(X4), [[2, 0], [1, 1]], axis=-2),
    'gather_batch_dims': lambda: tf.gather(c(X4), tf.constant([[0, 2, 2], [1, 0, 1]]), axis=2, batch_dims=1),
    'tile': lambda: tf.tile(c(XI), [2, 3]),
    'fill': lambda: tf.fill([2, 3], 1.5),
    'range_int': lambda: tf.range(3, 17, 4),
    'range_float_negative': lambda: tf.range(2.5, -1.0, -0.7),
    'range_int64': lambda: tf.range(tf.constant(10, tf.int64)),
    'pad': lambda: tf.pad(c(X), [[1, 0], [0, 2], [1, 1]]),
    'pad_v2': lambda: tf.pad(c(X), [[0, 1], [2, 0], [0, 0]], constant_values=-3.0),
    'mirror_pad_reflect': lambda: tf.pad(c(X), [[1, 1], [2, 1], [0, 3]], mode='REFLECT'),
    'mirror_pad_symmetric': lambda: tf.pad(c(X), [[2, 1], [0, 3], [1, 0]], mode='SYMMETRIC'),
    # ---- select / cast
    'select_v1_vector': lambda: tf.raw_ops.Select(condition=tf.constant([True, False]), x=c(X), y=-c(X)),
    'select_v1_same_shape': lambda: tf.raw_ops.Select(condition=c(X) > 0, x=c(X), y=c(X) * 3),
    'select_v2_broadcast': lambda: tf.where(tf.constant([True, False, True, True]), c(X), 0.5),
    'cast_float_to_int': lambda: tf.cast(c(X) / 3, tf.int32),
    'cast_float_to_bool': lambda: tf.cast(c(X) - 0.5, tf.bool),
    'cast_bool_to_float': lambda: tf.cast(c(XI) > 0, tf.float32),
    # ---- reductions
    'mean_keep': lambda: tf.reduce_mean(c(X), axis=[0, -1], keepdims=True),
    'sum': lambda: tf.reduce_sum(c(X4), axis=2),
    'max_negative_axis': lambda: tf.reduce_max(c(X), axis=-2),
    'min_keep': lambda: tf.reduce_min(c(XI), axis=1, keepdims=True),
    'prod': lambda: tf.reduce_prod(c(XI), axis=0),
    'mean_int': lambda: tf.reduce_mean(c(XI), axis=1),
    'any_all': lambda: tf.logical_and(tf.reduce_any(c(XI) > 4, axis=1), tf.reduce_all(c(XI) > -8, axis=1)),
    # ---- element-wise
    'arith': lambda: (c(X) + 1.0) * 2.0 - c(X) / 3.0,
    'add_v2_broadcast': lambda: tf.raw_ops.AddV2(x=c(X), y=tf.constant([1.0, 2.0, 3.0, 4.0])),
    'max_min': lambda: tf.maximum(tf.minimum(c(X), 3.0), -2.0),
    'pow_sqdiff': lambda: tf.pow(tf.abs(c(X)), 1.5) + tf.math.squared_difference(c(X), 1.0),
    'neg_rsqrt_sqrt_square': lambda: -tf.math.rsqrt(tf.abs(c(X)) + 1) + tf.sqrt(tf.abs(c(X))) + tf.square(c(X)),
    'square_int': lambda: tf.square(c(XI)),
    'exp_log': lambda: tf.exp(c(X) / 10) + tf.math.log(tf.abs(c(X)) + 1),
    'erf_erfc': lambda: tf.math.erf(c(X) / 5) + tf.math.erfc(c(X) / 5),
    'sigmoid_tanh': lambda: tf.sigmoid(c(X)) + tf.tanh(c(X) / 4),
    'floormod': lambda: tf.math.floormod(c(XI), 4),
    'sign': lambda: tf.sign(c(X)),
    'comparisons': lambda: tf.stack([c(X) < 1, c(X) > 1, c(X) <= 1.5, c(X) >= 2.5, tf.equal(c(X), 0.5),
                                     tf.not_equal(c(X), 2.5)]),
    'logical': lambda: tf.logical_or(tf.logical_not(c(XI) > 0), tf.logical_and(c(XI) < 5, c(XI) > -3)),
    'identity_chain': lambda: tf.identity(tf.stop_gradient(tf.identity_n([c(X), c(XI)])[0]) + 1),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_folds_to_tf_value(name):
    fn = CASES[name]
    expected = fn().numpy()
    graph = infer(front(load_and_extract(freeze(fn))))
    outputs = results(graph)
    assert len(outputs) == 1, outputs
    (shape, value, dtype), = outputs.values()
    assert_same(value, expected, name)
    assert shape == list(expected.shape)
    assert np.dtype(dtype) == expected.dtype
    # every TF op became an mo op with inference (no TF-only op left behind)
    leftovers = {n.soft_get('op') for n in graph.get_op_nodes() if n.soft_get('infer', None) is None}
    assert not leftovers - {'Result'}, leftovers
