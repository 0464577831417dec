"""``mo convert`` end to end: the IR of small TF graphs built from the tensor ops runs in OpenVINO
with TensorFlow's numbers."""
import numpy as np
import pytest

from tests.support.oracles import compile_openvino
from tests.tensor_ops.tf_graphs import freeze, front, infer, load_and_extract

tf = pytest.importorskip('tensorflow')
ov = pytest.importorskip('openvino')


def shapes_and_slices(x):
    y = tf.strided_slice(x, [0, 1], [2, 3], [1, 1], begin_mask=1)
    z = tf.reshape(x, tf.stack([tf.shape(x)[0], -1]))
    z = tf.reduce_mean(z, axis=-1, keepdims=True) + tf.reduce_sum(y, axis=[1, 2])[:, None]
    parts = tf.split(x, 2, axis=2)
    w = tf.concat([parts[1], tf.square(parts[0]), tf.math.rsqrt(tf.abs(parts[0]) + 1)], axis=-1)
    w = tf.pad(w, [[0, 0], [1, 1], [0, 0], [2, 0]], mode='REFLECT')
    g = tf.gather(w, [2, 0], axis=1)
    signed = tf.where(g > 0.5, g, -g)
    rounded = tf.cast(tf.cast(signed * 3, tf.int32), tf.float32)
    return (z, rounded, tf.unstack(x, axis=1)[1], tf.math.erfc(x), tf.tile(x[:, :1], [1, 2, 1, 1]),
            x[..., ::-2, tf.newaxis, 1])


def selects_and_reductions(x):
    rows = tf.raw_ops.Select(condition=tf.constant([True, False]), x=x, y=x[::-1])
    piece = tf.slice(x, [1, 0, 1, 2], [-1, 2, -1, 3])
    a, b, c = tf.split(x, [1, -1, 2], axis=-1)
    mixed = tf.reduce_max(a, axis=-1) - tf.reduce_min(c, axis=-1) + tf.reduce_prod(b, axis=-1) / 100
    mask = tf.logical_or(tf.logical_not(x > 0), tf.not_equal(x, x * 2))
    counted = tf.reduce_sum(tf.cast(mask, tf.int32), axis=[1, 2])
    ramp = tf.cast(tf.range(0, 10, 3), tf.float32) + tf.fill([4], 0.5)
    mod = tf.math.floormod(x * 7, 3.0) + tf.pad(x, [[0, 0], [0, 0], [0, 0], [0, 0]], constant_values=1.0)
    return rows, piece, mixed, counted, ramp, tf.sign(x) * mod, tf.stack([x[:, 0], x[:, 2]], axis=1)


@pytest.mark.parametrize('fn', [shapes_and_slices, selects_and_reductions])
def test_openvino_matches_tensorflow(fn, tmp_path):
    from mo.pipeline.convert import convert_graph_def
    graph_def = freeze(fn, tf.TensorSpec([2, 3, 4, 5], tf.float32, name='x'))
    xml, _ = convert_graph_def(graph_def.SerializeToString(), str(tmp_path), 'model')
    x = np.random.RandomState(0).randn(2, 3, 4, 5).astype(np.float32)
    expected = [t.numpy() for t in fn(tf.constant(x))]
    compiled = compile_openvino(xml)
    outputs = compiled({0: x})
    for i, want in enumerate(expected):
        name = 'Identity:0' if i == 0 else 'Identity_{}:0'.format(i)
        port = [p for p in compiled.outputs if name in p.get_names()]
        assert port, (name, [p.get_names() for p in compiled.outputs])
        got = outputs[port[0]]
        assert got.shape == want.shape, (name, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=name)


def test_keras_shape_computation_folds_with_static_shapes():
    def flatten(x):
        return tf.reshape(x, [tf.shape(x)[0], -1]) * 2.0
    graph_def = freeze(flatten, tf.TensorSpec([None, 3, 4, 5], tf.float32, name='x'))
    graph = load_and_extract(graph_def)
    graph.get_op_nodes(op='Parameter')[0]['shape'] = np.array([2, 3, 4, 5], np.int64)  # as --input_shape
    infer(front(graph))
    reshape = graph.get_op_nodes(op='Reshape')[0]
    assert list(reshape.in_port(1).data.get_value()) == [2, -1]  # a constant: Shape, StridedSlice, Pack folded
    assert list(reshape.out_port(0).data.get_shape()) == [2, 60]
