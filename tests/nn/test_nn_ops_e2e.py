"""Each TF NN op end to end: freeze a tiny tf.function, ``mo convert``, run OpenVINO, compare with TF."""
import numpy as np
import pytest

from tests.nn.conftest import freeze, rel_error, tf_outputs

tf = pytest.importorskip('tensorflow')

RNG = np.random.default_rng(7)


def _const(*shape):
    return tf.constant(RNG.standard_normal(shape).astype(np.float32))


W_CONV = _const(3, 3, 4, 6)
W_DW = _const(3, 3, 4, 2)
W_DECONV = _const(3, 3, 5, 4)  # [H, W, out_channels, in_channels]
B6 = _const(6)
BN = [tf.constant(RNG.uniform(0.5, 1.5, 6).astype(np.float32)) for _ in range(4)]


def _bn(y):
    scale, offset, mean, var = BN
    return tf.raw_ops.FusedBatchNormV3(x=y, scale=scale, offset=offset - 1.0, mean=mean - 1.0, variance=var,
                                       epsilon=1e-3, is_training=False)[0]


CASES = {
    'conv_same_s2': (lambda x: tf.nn.conv2d(x, W_CONV, 2, 'SAME'), (1, 9, 8, 4)),
    'conv_valid_dil': (lambda x: tf.nn.conv2d(x, W_CONV, 1, 'VALID', dilations=2), (2, 9, 9, 4)),
    'conv_explicit': (lambda x: tf.nn.conv2d(x, W_CONV, 1, [[0, 0], [1, 2], [0, 1], [0, 0]]), (1, 7, 7, 4)),
    'conv_bias_bn_relu6': (lambda x: tf.nn.relu6(_bn(tf.nn.bias_add(tf.nn.conv2d(x, W_CONV, 1, 'SAME'), B6))),
                           (1, 8, 8, 4)),
    'depthwise': (lambda x: tf.nn.depthwise_conv2d(x, W_DW, [1, 2, 2, 1], 'SAME'), (1, 9, 9, 4)),
    'deconv_same': (lambda x: tf.nn.conv2d_transpose(x, W_DECONV, [1, 9, 9, 5], 2, 'SAME'), (1, 5, 5, 4)),
    'deconv_valid': (lambda x: tf.nn.conv2d_transpose(x, W_DECONV, [1, 12, 11, 5], 2, 'VALID'), (1, 5, 5, 4)),
    'maxpool_same': (lambda x: tf.nn.max_pool2d(x, 3, 2, 'SAME'), (1, 8, 9, 3)),
    'avgpool_same': (lambda x: tf.nn.avg_pool2d(x, 3, 2, 'SAME'), (1, 8, 9, 3)),
    'avgpool_valid': (lambda x: tf.nn.avg_pool2d(x, 2, 2, 'VALID'), (1, 8, 9, 3)),
    'matmul_tb': (lambda x: tf.linalg.matmul(x, _const(5, 6), transpose_b=True), (3, 6)),
    'batch_matmul_adj': (lambda x: tf.raw_ops.BatchMatMulV2(x=x, y=_const(2, 4, 3), adj_x=True, adj_y=True),
                         (2, 3, 5)),
    'einsum': (lambda x: tf.einsum('bij,jk->bik', x, _const(4, 3)), (2, 5, 4)),
    'softmax_logsoftmax': (lambda x: tf.nn.softmax(x) + tf.nn.log_softmax(x), (2, 3, 7)),
    'activations': (lambda x: tf.nn.elu(x) + tf.nn.selu(x) + tf.nn.leaky_relu(x, 0.3) + tf.nn.softplus(x)
                    + tf.nn.relu(x), (2, 11)),
    'resize_bilinear': (lambda x: tf.raw_ops.ResizeBilinear(images=x, size=[7, 9]), (1, 4, 5, 3)),
    'resize_bilinear_ac': (lambda x: tf.raw_ops.ResizeBilinear(images=x, size=[7, 9], align_corners=True),
                           (1, 4, 5, 3)),
    'resize_bilinear_hp': (lambda x: tf.raw_ops.ResizeBilinear(images=x, size=[7, 3], half_pixel_centers=True),
                           (1, 4, 5, 3)),
    'resize_nearest': (lambda x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[7, 9]), (1, 4, 5, 3)),
    'resize_nearest_ac': (lambda x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[7, 9], align_corners=True),
                          (1, 4, 5, 3)),
    'resize_nearest_hp': (lambda x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[9, 3],
                                                                     half_pixel_centers=True), (1, 4, 5, 3)),
}


@pytest.mark.parametrize('case', sorted(CASES))
def test_op_matches_tensorflow(case, convert_and_run):
    fn, shape = CASES[case]
    graph_def, outputs = freeze(fn, (shape, 'x'))
    x = RNG.standard_normal(shape).astype(np.float32)
    expected = tf_outputs(graph_def, {'x:0': x}, outputs)
    actual, _ = convert_and_run(graph_def, {'x': x})
    assert rel_error(actual[0], expected[0]) < 1e-4


def test_topk_and_argmax(convert_and_run):
    def fn(x):
        values, indices = tf.math.top_k(x, 3)
        return values, tf.cast(indices, tf.float32) + tf.cast(tf.argmax(x, axis=1), tf.float32)[:, None]
    graph_def, outputs = freeze(fn, ((4, 10), 'x'))
    x = RNG.permutation(40).reshape(4, 10).astype(np.float32)  # no ties: indices are well defined
    expected = tf_outputs(graph_def, {'x:0': x}, outputs)
    actual, text = convert_and_run(graph_def, {'x': x})
    assert 'type="TopK"' in text
    for a, e in zip(actual, expected):
        assert rel_error(a, e) == 0


def test_keras_cnn_leaves_few_transposes_and_folds_bn(convert_and_run):
    keras = tf.keras
    tf.random.set_seed(3)
    inp = keras.Input((16, 16, 3), batch_size=1)
    y = keras.layers.Conv2D(8, 3, padding='same', use_bias=False)(inp)
    y = keras.layers.BatchNormalization()(y)
    y = keras.layers.ReLU()(y)
    y = keras.layers.DepthwiseConv2D(3, strides=2, padding='same')(y)
    y = keras.layers.BatchNormalization()(y)
    y = keras.layers.ReLU(6.0)(y)
    y = keras.layers.MaxPooling2D()(y)
    y = keras.layers.Flatten()(y)
    y = keras.layers.Dense(5)(y)
    model = keras.Model(inp, y)
    for layer in model.layers:  # non-trivial batch-norm statistics
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.set_weights([np.asarray(RNG.uniform(0.5, 1.5, w.shape), np.float32) for w in layer.get_weights()])
    graph_def, outputs = freeze(lambda x: model(x, training=False), ((1, 16, 16, 3), 'x'))
    x = RNG.standard_normal((1, 16, 16, 3)).astype(np.float32)
    expected = tf_outputs(graph_def, {'x:0': x}, outputs)
    actual, text = convert_and_run(graph_def, {'x': x})
    assert rel_error(actual[0], expected[0]) < 1e-4
    assert text.count('type="Transpose"') <= 2
    assert text.count('type="Multiply"') == 0  # batch-norm scales are in the weights
