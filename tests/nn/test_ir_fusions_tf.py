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
