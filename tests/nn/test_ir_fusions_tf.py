"""The back-phase fusions on TensorFlow's own forms: tf.nn.silu (x * sigmoid(beta x), beta 1), Keras' gelu (exact
and tanh), a dense layer's MatMul by constant weights; the IR has the fused op and matches TensorFlow."""
import numpy as np
import pytest

from tests.nn.conftest import freeze, rel_error, tf_outputs

tf = pytest.importorskip('tensorflow')
RNG = np.random.default_rng(45)
W = RNG.standard_normal((16, 12)).astype(np.float32)

CASES = {
    'silu': (lambda x: tf.nn.silu(x), 'type="Swish"'),
    'gelu_erf': (lambda x: tf.keras.activations.gelu(x, approximate=False), 'approximation_mode="erf"'),
    'gelu_tanh': (lambda x: tf.keras.activations.gelu(x, approximate=True), 'approximation_mode="tanh"'),
    'nn_gelu_tanh': (lambda x: tf.nn.gelu(x, approximate=True), 'approximation_mode="tanh"'),
    'dense': (lambda x: tf.matmul(x, tf.constant(W)), 'transpose_b="true"'),
}


@pytest.mark.parametrize('case', sorted(CASES))
def test_fused_and_matches_tensorflow(case, convert_and_run):
    fn, expected_text = CASES[case]
    graph_def, outputs = freeze(fn, ((3, 16), 'x'))
    x = (RNG.standard_normal((3, 16)) * 3).astype(np.float32)
    expected = tf_outputs(graph_def, {'x:0': x}, outputs)
    actual, text = convert_and_run(graph_def, {'x': x})
    assert expected_text in text
    assert 'type="Sigmoid"' not in text and 'type="Erf"' not in text and 'type="Tanh"' not in text
    assert rel_error(actual[0], expected[0]) < 1e-5


@pytest.mark.parametrize('padding', ['valid', 'same'])
def test_zero_padding_into_nhwc_convolution(padding, convert_and_run):
    # Keras' ZeroPadding2D before a strided Conv2D (ResNet's stem): the Pad of the NHWC input joins the convolution
    kernel = RNG.standard_normal((3, 3, 3, 5)).astype(np.float32)

    def fn(x):
        padded = tf.pad(x, [[0, 0], [2, 1], [1, 3], [0, 0]])
        return tf.nn.conv2d(padded, tf.constant(kernel), strides=2, padding=padding.upper())
    graph_def, outputs = freeze(fn, ((1, 11, 12, 3), 'x'))
    x = RNG.standard_normal((1, 11, 12, 3)).astype(np.float32)
    expected = tf_outputs(graph_def, {'x:0': x}, outputs)
    actual, text = convert_and_run(graph_def, {'x': x})
    assert 'type="Pad"' not in text
    assert rel_error(actual[0], expected[0]) < 1e-5
