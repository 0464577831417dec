"""A Keras 2 (tf_keras) model with ``LayerNormalization`` (tf_keras builds it from a training-mode FusedBatchNormV3)
built at test time and saved with ``Model.save``: mo converts the SavedModel, OpenVINO runs the IR and TensorFlow,
loading the same directory, gives the reference."""
import os

import numpy as np
import pytest

from tests.saved_model.conftest import (TOLERANCE, random_feeds, relative_error, run_ir, run_mo, signature_specs,
                                        tf_signature_outputs)


def _convert(directory, out_dir):
    code, _, err = run_mo('convert', '--input_model', directory, '--output_dir', out_dir, '--model_name', 'model')
    assert code == 0, err
    return out_dir / 'model.xml'


def _matches_tensorflow(xml, directory, feeds):
    expected = tf_signature_outputs(directory, 'serving_default', feeds)
    actual = run_ir(xml, feeds)
    assert set(expected) <= set(actual), (sorted(expected), sorted(actual))
    for name, value in expected.items():
        assert actual[name].shape == value.shape, name
        assert actual[name].dtype == value.dtype, (name, actual[name].dtype, value.dtype)
        assert relative_error(actual[name], value) < TOLERANCE, name


def _tf_keras():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    return pytest.importorskip('tf_keras')


def test_keras2_layer_normalization_saved_with_model_save(tmp_path):
    """tf_keras LayerNormalization (over the last axis and over two axes) in a small transformer-like block,
    ``Model.save`` to a SavedModel directory: converts and matches TensorFlow."""
    keras2 = _tf_keras()
    keras2.utils.set_random_seed(26)
    tokens = keras2.Input((7, 16), name='tokens')
    hidden = keras2.layers.Dense(16, activation='gelu')(tokens)
    hidden = keras2.layers.LayerNormalization(epsilon=1e-5)(hidden + tokens)
    hidden = keras2.layers.Reshape((7, 4, 4))(hidden)
    hidden = keras2.layers.LayerNormalization(axis=[2, 3], center=False)(hidden)
    model = keras2.Model(tokens, keras2.layers.Dense(5)(keras2.layers.Flatten()(hidden)))
    for layer in model.layers:  # gamma and beta away from their initial 1 and 0
        if isinstance(layer, keras2.layers.LayerNormalization):
            layer.set_weights([np.random.default_rng(1).uniform(0.5, 1.5, w.shape).astype(np.float32)
                               for w in layer.get_weights()])
    directory = tmp_path / 'keras2'
    model.save(str(directory))
    xml = _convert(directory, tmp_path / 'ir')
    specs = signature_specs(directory, 'serving_default')
    for seed in (0, 1):
        _matches_tensorflow(xml, directory, random_feeds(specs, seed))
