"""Preprocessing embedded in the IR (--mean_values, --scale_values, --scale, --reverse_input_channels,
--layout): the IR fed raw data must give what TensorFlow gives on the same data preprocessed in numpy."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip('tensorflow')

import mo  # noqa: E402
from tests.support.oracles import TFRunner, run_openvino  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / 'examples' / 'small_cnn.pb'   # input [1,32,32,3] NHWC, output Identity [1,10]
MEAN, SCALE = [120.0, 110.0, 100.0], [60.0, 50.0, 40.0]


def _numpy_preprocessing(raw, mean=None, scale=None, reverse=False, nchw=False):
    x = np.transpose(raw, (0, 2, 3, 1)) if nchw else raw
    if reverse:
        x = x[..., ::-1]
    if mean is not None:
        x = x - np.array(mean, np.float32)
    if scale is not None:
        x = x / np.array(scale, np.float32)
    return x.astype(np.float32)


CASES = {
    'mean': (['--mean_values', '[120,110,100]'], dict(mean=MEAN)),
    'named_mean_and_scale': (['--mean_values', 'input[120,110,100]', '--scale_values', 'input[60,50,40]'],
                             dict(mean=MEAN, scale=SCALE)),
    'one_scale': (['--scale', '255'], dict(scale=[255.0])),
    'reverse_mean_scale': (['--reverse_input_channels', '--mean_values', '[120,110,100]', '--scale_values',
                            '[60,50,40]'], dict(mean=MEAN, scale=SCALE, reverse=True)),
    'nchw_input_reversed': (['--layout', 'input(nhwc->nchw)', '--reverse_input_channels', '--scale', '255'],
                            dict(scale=[255.0], reverse=True, nchw=True)),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_preprocessing_matches_numpy_then_tensorflow(name, tmp_path):
    flags, how = CASES[name]
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(EXAMPLE), '--output_dir',
                           str(tmp_path)] + flags, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    shape = (1, 3, 32, 32) if how.get('nchw') else (1, 32, 32, 3)
    raw = np.random.default_rng(0).uniform(0, 255, shape).astype(np.float32)
    with TFRunner(EXAMPLE.read_bytes()) as tf_model:
        expected = tf_model.run({'input:0': _numpy_preprocessing(raw, **how)}, ['Identity:0'])[0]
    actual = run_openvino(tmp_path / 'small_cnn.xml', {'input': raw})[0]
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-6)


def test_python_api_takes_lists_and_dicts():
    result = mo.convert_model(EXAMPLE, mean_values={'input': MEAN}, scale_values=SCALE, layout={'input': 'nhwc'})
    raw = np.random.default_rng(1).uniform(0, 255, (1, 32, 32, 3)).astype(np.float32)
    with TFRunner(EXAMPLE.read_bytes()) as tf_model:
        expected = tf_model.run({'input:0': _numpy_preprocessing(raw, MEAN, SCALE)}, ['Identity:0'])[0]
    np.testing.assert_allclose(run_openvino(result.to_openvino(), {'input': raw})[0], expected, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize('flags,message', [
    (['--mean_values', 'image[1,2,3]'], 'does not have'),
    (['--mean_values', '[1,2]'], '2 values for input "input", which has 3 channels'),
    (['--layout', 'input(nchw->nc)'], 'has 2 dimensions'),
    (['--scale_values', 'input[a,b]'], 'not a list of numbers'),
])
def test_bad_preprocessing_is_one_usage_error(flags, message, tmp_path):
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(EXAMPLE), '--output_dir',
                           str(tmp_path / 'out')] + flags, capture_output=True, text=True, cwd=ROOT, timeout=300)
    errors = [line for line in proc.stderr.splitlines() if line.startswith('[ ERROR ]') and 'Hint' not in line]
    assert proc.returncode == 2 and len(errors) == 1 and message in errors[0], proc.stderr
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').iterdir())


def _first_conv_model(padding: str) -> bytes:
    """x [1,12,12,3] -> Conv2D(4, 3x3, padding) with bias -> Relu: a first convolution of either padding."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    rng = np.random.default_rng(5)
    kernel = tf.constant(rng.standard_normal((3, 3, 3, 4)).astype(np.float32))
    bias = tf.constant(rng.standard_normal(4).astype(np.float32))

    def model(x):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, kernel, 1, padding), bias))
    concrete = tf.function(model).get_concrete_function(tf.TensorSpec((1, 12, 12, 3), tf.float32, name='input'))
    return convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString()


@pytest.mark.parametrize('padding, kept', [('VALID', set()), ('SAME', {'Subtract'})])
def test_scale_folds_into_the_first_convolution_and_the_mean_where_it_reads_no_padding(padding, kept, tmp_path):
    """Dividing an input channel is dividing the weights that read it; subtracting the mean commutes with the
    convolution only where it reads no padding, so a padded first convolution keeps its Subtract."""
    model = tmp_path / 'first_conv.pb'
    model.write_bytes(_first_conv_model(padding))
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(model), '--output_dir',
                           str(tmp_path), '--mean_values', '[120,110,100]', '--scale_values', '[60,50,40]'],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    xml = (tmp_path / 'first_conv.xml').read_text()
    assert {t for t in ('Subtract', 'Divide') if 'type="{}"'.format(t) in xml} == kept
    raw = np.random.default_rng(2).uniform(0, 255, (1, 12, 12, 3)).astype(np.float32)
    with TFRunner(model.read_bytes()) as tf_model:
        expected = tf_model.run({'input:0': _numpy_preprocessing(raw, MEAN, SCALE)}, ['Identity:0'])[0]
    actual = run_openvino(tmp_path / 'first_conv.xml', {'input': raw})[0]
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)


def test_a_savedmodel_input_takes_preprocessing_by_the_name_mo_shows(tmp_path):
    """A SavedModel's input is shown by its signature's key (``keras_tensor``); the preprocessing flags take that
    name, as --input does, and the IR computes the model on the preprocessed data as TensorFlow does."""
    import tensorflow as tf
    keras = tf.keras
    inputs = keras.Input((4,))
    model = keras.Model(inputs, keras.layers.Dense(3)(inputs))
    model.export(str(tmp_path / 'sm'))
    plain = mo.convert_model(str(tmp_path / 'sm'), output_dir=str(tmp_path / 'plain'))
    name = plain.inputs[0].name
    mean, scale = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 8.0, 16.0]
    result = mo.convert_model(str(tmp_path / 'sm'), output_dir=str(tmp_path / 'prep'), input=[(name, [2, 4])],
                              mean_values={name: mean}, scale_values={name: scale})
    raw = np.random.default_rng(3).standard_normal((2, 4)).astype(np.float32) * 10
    expected = model((raw - np.array(mean, np.float32)) / np.array(scale, np.float32)).numpy()
    np.testing.assert_allclose(run_openvino(result.xml_path, {name: raw})[0], expected, rtol=1e-5, atol=1e-5)
    with pytest.raises(mo.Error, match='inputs: {}'.format(name)):
        mo.convert_model(str(tmp_path / 'sm'), output_dir=str(tmp_path / 'bad'), mean_values={'nope': mean})
