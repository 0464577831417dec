"""A Keras 3 model with ``keras.ops.argmax`` on floats, built at test time and exported with ``Model.export``: Keras 3
writes the sign test of ``ops.signbit`` as ``BitwiseAnd(Bitcast(x, int32), int32.min) < 0`` (to keep -0.0 from
winning a tie), which mo rewrites into a sign test (``extensions/front/tf/bitwise_lowering.py``: SignBitTest). mo
converts the SavedModel, OpenVINO runs the IR and TensorFlow, loading the same directory, gives the reference."""
import os

import numpy as np
import pytest

from tests.saved_model.conftest import run_ir, run_mo, tf_signature_outputs


def _keras3():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    keras = pytest.importorskip('keras')
    if int(keras.__version__.split('.')[0]) < 3:
        pytest.skip('Keras 3 is needed, found {}'.format(keras.__version__))
    return keras


def _model(keras):
    """Scores from a Dense layer, their argmax over the last axis and over axis 1 (keepdims), and the argmax of a
    ReLU's output, and of the input itself, fed rows where -0.0 comes before +0.0 (ops.argmax makes -0.0 lose to
    +0.0, which only a right sign test of zeros gives)."""
    keras.utils.set_random_seed(26)
    features = keras.Input((6, 8), name='features')
    scores = keras.layers.Dense(5)(features)
    relu = keras.layers.ReLU()(scores - 0.5)
    top = keras.layers.Lambda(lambda t: keras.ops.argmax(t, axis=-1), name='top')(scores)
    top_step = keras.layers.Lambda(lambda t: keras.ops.argmax(t, axis=1, keepdims=True), name='top_step')(scores)
    top_relu = keras.layers.Lambda(lambda t: keras.ops.argmax(-t, axis=-1), name='top_relu')(relu)
    top_input = keras.layers.Lambda(lambda t: keras.ops.argmax(t, axis=-1), name='top_input')(features)
    return keras.Model(features, {'top': top, 'top_step': top_step, 'top_relu': top_relu, 'top_input': top_input})


def _feeds(seed):
    values = np.random.default_rng(seed).standard_normal((3, 6, 8)).astype(np.float32)
    values[0, :2] = 0.0  # rows of zeros: Dense gives its bias, ReLU exact zeros
    values[1] = -np.abs(values[1])
    values[1, :, :4] = [-0.0, 0.0, -1e-40, -1.0]  # the largest is +0.0, after -0.0 (and a negative subnormal)
    values[2, :, :3] = [-0.0, -0.0, -2.0]  # only -0.0: the first wins
    return {'features': values}


def test_keras3_argmax_on_floats_converts_and_matches_tensorflow(tmp_path):
    keras = _keras3()
    model = _model(keras)
    directory = tmp_path / 'keras3'
    model.export(str(directory), verbose=False)
    code, _, err = run_mo('convert', '--input_model', directory, '--output_dir', tmp_path / 'ir', '--model_name',
                          'model')
    assert code == 0, err
    for seed in (0, 1):
        feeds = _feeds(seed)
        expected = tf_signature_outputs(directory, 'serving_default', feeds)
        actual = run_ir(tmp_path / 'ir' / 'model.xml', feeds)
        assert (expected['top_input'][1] == 1).all(), expected['top_input']  # the feeds test the sign of zeros
        assert set(expected) <= set(actual), (sorted(expected), sorted(actual))
        for name, value in expected.items():
            assert actual[name].dtype == value.dtype, (name, actual[name].dtype, value.dtype)
            np.testing.assert_array_equal(actual[name], value, err_msg=name)


def test_keras3_argmax_graph_has_the_sign_bit_test(tmp_path):
    """The exported graph really holds the pattern the rule is for (so the test above tests it)."""
    keras = _keras3()
    import tensorflow as tf
    model = _model(keras)
    directory = tmp_path / 'keras3'
    model.export(str(directory), verbose=False)
    function = tf.saved_model.load(str(directory)).signatures['serving_default']
    graph = function.graph.as_graph_def()
    ops = {node.op for node in graph.node} | {node.op for f in graph.library.function for node in f.node_def}
    assert {'Bitcast', 'BitwiseAnd'} <= ops, sorted(ops)
