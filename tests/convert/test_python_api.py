"""The Python API (``mo.convert_model``, ``mo.save_model``, ``mo.transform_graph``, ``mo.summarize_graph``):
the CLI's options as Python values, every kind of in-memory model, the same errors as the CLI, and
numbers checked against TensorFlow through the OpenVINO runtime."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tf = pytest.importorskip('tensorflow')

import mo  # noqa: E402
from tests.support.oracles import TFRunner, run_openvino  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / 'examples' / 'small_cnn.pb'


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'mo'] + [str(a) for a in args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def _tf_output(graph_def_bytes, feeds, output):
    with TFRunner(graph_def_bytes) as runner:
        return runner.run(feeds, [output])[0]


def _keras_model():
    import keras
    keras.utils.set_random_seed(4)
    inputs = keras.Input((6,), name='features')
    hidden = keras.layers.Dense(5, activation='tanh')(inputs)
    return keras.Model(inputs, keras.layers.Dense(3)(hidden))


def test_convert_a_path_and_read_the_result():
    result = mo.convert_model(EXAMPLE)
    assert result.xml_path.exists() and result.bin_path.exists()
    assert [(i.name, i.shape, i.dtype) for i in result.inputs] == [('input:0', (1, 32, 32, 3), np.float32)]
    assert len(result.outputs) == 1 and result.outputs[0].shape == (1, 10)
    assert result.source_nodes > result.ir_layers > 0
    x = np.random.default_rng(0).standard_normal((1, 32, 32, 3)).astype(np.float32)
    expected = _tf_output(EXAMPLE.read_bytes(), {'input:0': x}, 'Identity:0')
    actual = run_openvino(result.to_openvino(), {'input': x})[0]
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)


def test_options_as_python_values_and_save_model(tmp_path):
    result = mo.convert_model(EXAMPLE.read_bytes(), input=[('input', [1, 32, 32, 3], np.float32)],
                              output=['Identity'], compress_to_fp16=True, model_name='cnn')
    xml, bin_ = mo.save_model(result, tmp_path / 'saved' / 'cnn.xml')
    assert xml.read_bytes() == result.xml_path.read_bytes() and bin_.exists()
    assert b'decompression' in xml.read_bytes()  # compress_to_fp16 reached the writer
    assert result.outputs[0].shape == (1, 10)


def test_input_shape_list_and_graph_def_message(tmp_path):
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString(EXAMPLE.read_bytes())
    result = mo.convert_model(graph_def, input_shape=[1, 32, 32, 3], output_dir=tmp_path)
    assert result.xml_path.parent == tmp_path and result.xml_path.name == 'model.xml'


def test_keras_model_and_tf_function_are_frozen_in_process():
    model = _keras_model()
    x = np.random.default_rng(1).standard_normal((1, 6)).astype(np.float32)
    expected = model(x).numpy()
    result = mo.convert_model(model, input_shape=[1, 6])
    np.testing.assert_allclose(run_openvino(result.to_openvino(), {result.inputs[0].name: x})[0], expected,
                               rtol=1e-4, atol=1e-5)

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, name='x')])
    def twice(v):
        return model(v) * 2.0
    result = mo.convert_model(twice)
    assert result.inputs[0].shape == (-1, 6)
    x2 = np.concatenate([x, x + 1])
    np.testing.assert_allclose(run_openvino(result.to_openvino(), {'x': x2})[0], twice(x2).numpy(), rtol=1e-4,
                               atol=1e-5)


def test_errors_are_mo_error_with_the_cli_message(tmp_path):
    missing = tmp_path / 'missing.pb'
    with pytest.raises(mo.Error) as info:
        mo.convert_model(missing)
    cli = _cli('convert', '--input_model', missing, '--output_dir', tmp_path / 'out')
    assert cli.returncode != 0
    assert '[ ERROR ] {}'.format(info.value) in cli.stderr.splitlines()
    with pytest.raises(mo.Error):
        mo.convert_model(EXAMPLE, no_such_option=1)


@pytest.mark.parametrize('call,expected', [
    (lambda out: mo.convert_model(EXAMPLE, output_dir=out, inptu_shape=[1, 32, 32, 3]),
     ('mo.convert_model() got an unknown keyword argument "inptu_shape"', 'did you mean "input_shape"')),
    (lambda out: mo.transform_graph(EXAMPLE, out / 'x.pb', 'strip_unused_nodes', outptus=['Identity']),
     ('mo.transform_graph() got an unknown keyword argument "outptus"', 'did you mean "outputs"?')),
    (lambda out: mo.summarize_graph(EXAMPLE, print_structur=True),
     ('mo.summarize_graph() got an unknown keyword argument "print_structur"', 'did you mean "print_structure"?')),
])
def test_a_misspelt_keyword_is_named_as_the_keyword_it_is(tmp_path, call, expected):
    with pytest.raises(mo.Error) as info:
        call(tmp_path)
    message, hint = expected
    assert str(info.value) == message
    assert info.value.hint.startswith(hint)
    assert not list(tmp_path.iterdir())
    with pytest.raises(mo.Error):
        mo.convert_model(object())


def test_transform_and_summarize_mirror_the_commands(tmp_path):
    out = mo.transform_graph(EXAMPLE, tmp_path / 'api.pb', 'strip_unused_nodes fold_constants',
                             inputs=['input'], outputs=['Identity'])
    cli = _cli('transform', '--in_graph', EXAMPLE, '--out_graph', tmp_path / 'cli.pb', '--inputs', 'input',
               '--outputs', 'Identity', '--transforms', 'strip_unused_nodes fold_constants')
    assert cli.returncode == 0, cli.stderr
    assert out.read_bytes() == (tmp_path / 'cli.pb').read_bytes()
    # the command says what it did; the library call is silent
    assert cli.stdout.startswith('[ SUCCESS ] 2 transform(s) applied in ') and str(tmp_path / 'cli.pb') in cli.stdout
    text = mo.summarize_graph(EXAMPLE)
    cli = _cli('summarize', '--in_graph', EXAMPLE)
    assert text.strip() == cli.stdout.strip()


def test_cli_prints_a_readable_summary_and_reports_failures(tmp_path):
    cli = _cli('convert', '--input_model', EXAMPLE, '--output_dir', tmp_path / 'ok')
    lines = cli.stdout.splitlines()
    assert lines[0] == '[ INFO ] Input:  input:0 [1,32,32,3] float32'
    assert lines[1].startswith('[ INFO ] Output: ') and lines[1].endswith(' [1,10] float32')
    assert lines[2].startswith('[ SUCCESS ] Converted in ') and 'TensorFlow nodes ->' in lines[2]
    report = tmp_path / 'report.json'
    cli = _cli('convert', '--input_model', EXAMPLE, '--output_dir', tmp_path / 'bad', '--input_shape', '[2,32,32,3]',
               '--report', report)
    assert cli.returncode == 1
    summary = json.loads(report.read_text())['summary']
    assert 'cannot take the shape' in summary['error'] and summary['failed_in'].endswith('PartialInfer')
    assert not (tmp_path / 'bad').exists() or not list((tmp_path / 'bad').iterdir())


def test_output_port_the_op_does_not_have(tmp_path):
    cli = _cli('convert', '--input_model', EXAMPLE, '--output_dir', tmp_path / 'out', '--output', 'Identity:1')
    assert cli.returncode == 2
    assert cli.stderr.splitlines() == ['[ ERROR ] --output: node "Identity" (Identity) has 1 output, so "Identity:1" '
                                       'names none', '[ ERROR ] Hint: its outputs are "Identity:0"']
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').iterdir())


def test_dump_ops_writes_an_ir_only_into_a_given_directory(tmp_path):
    cli = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(EXAMPLE), '--dump_ops', 'front'],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env=dict(__import__('os').environ, PYTHONPATH=str(ROOT)))
    assert cli.returncode == 0, cli.stderr
    assert 'Parameter\tParameter\tinput\tinputs: none' in cli.stdout and 'no IR written' in cli.stderr
    assert not list(tmp_path.iterdir())
    cli = _cli('convert', '--input_model', EXAMPLE, '--dump_ops', 'front', '--output_dir', tmp_path / 'ir')
    assert cli.returncode == 0 and (tmp_path / 'ir' / 'small_cnn.xml').exists()


@pytest.mark.parametrize('option,value,expected', [
    ('--input_shape', '[1,64,64]',
     '[ ERROR ] The shape [1,64,64] given for input "input" (channels-last: NHWC for images, as the model takes it) '
     'does not fit the model: node "small_cnn_1/conv1_1/convolution" (Convolution) cannot take it: it takes a 4-D '
     'channels-last tensor and gets one of shape [1,64,64]'),
    ('--input', 'input[1,32,32,4]',
     '[ ERROR ] The shape [1,32,32,4] given for input "input" (channels-last: NHWC for images, as the model takes it) '
     'does not fit the model: node "small_cnn_1/conv1_1/convolution" (Convolution) cannot take it (mo holds its '
     'shapes channels-first): Convolution "small_cnn_1/conv1_1/convolution": weights of shape [16, 3, 3, 3] do not '
     'fit data of shape [1, 4, 32, 32]'),
    ('--input', 'input[1,30,30,3]',
     '[ ERROR ] The shape [1,30,30,3] given for input "input" (channels-last: NHWC for images, as the model takes it) '
     'does not fit the model: node "small_cnn_1/flatten_1/Reshape" (Reshape) cannot take it: Reshape '
     '"small_cnn_1/flatten_1/Reshape": an input of shape [1, 7, 7, 32] cannot take the shape [1, 2048]'),
])
def test_a_shape_the_model_cannot_take_is_named_as_the_user_gave_it(tmp_path, option, value, expected):
    """The error names the user's input with the shape as given and its layout, and the model's node that could
    not take it (not mo's layout Transposes)."""
    cli = _cli('convert', '--input_model', EXAMPLE, '--output_dir', tmp_path / 'out', option, value)
    assert cli.returncode == 1
    assert cli.stderr.splitlines()[0] == expected


def test_outputs_computed_from_each_other_both_kept(tmp_path):
    """--output naming a node and one computed from it: both are outputs, with TensorFlow's numbers (the cut used
    to drop the edges after each chosen node, so the later one lost its input)."""
    first, later = 'small_cnn_1/relu1_1/Relu', 'small_cnn_1/softmax_1/Softmax'
    xml = mo.convert_model(EXAMPLE, output_dir=tmp_path, output=[first, later]).xml_path
    x = np.random.default_rng(3).standard_normal((1, 32, 32, 3)).astype(np.float32)
    graph_def = EXAMPLE.read_bytes()
    for name in (first, later):
        expected = _tf_output(graph_def, {'input': x}, name)
        actual = run_openvino(xml, {'input': x})
        assert any(a.shape == expected.shape and np.allclose(a, expected, rtol=1e-4, atol=1e-5) for a in actual), name
