"""``mo convert`` options end to end: cutting, freezing inputs, FP16 weights, dynamic batch, errors."""
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.convert.conftest import TOLERANCE, convert_bytes, max_error, parameter_shapes

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELU1 = 'small_cnn_bn_1/relu1_1/Relu'
RELU3 = 'small_cnn_bn_1/relu3_1/Relu'


def _freeze(fn, *specs) -> bytes:
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    concrete = tf.function(fn).get_concrete_function(*specs)
    return convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString()


def _mo(*args):
    """Run the ``mo`` CLI in a subprocess; returns (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo.main'] + list(args), capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def _error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith('[ ERROR ]') and 'Hint:' not in line]


def test_input_and_output_cut_the_graph(tmp_path):
    """--input at an inner tensor (with its shape) and --output at another: the IR is the part between."""
    from tests.support import models, oracles
    record = models.get_model('small_cnn_bn')
    feeds = record.random_feeds(seed=1)
    inner, = oracles.run_tf(record.graph_def, feeds, [RELU1])
    shape = ','.join(str(d) for d in inner.shape)
    converted = convert_bytes(record.graph_def, tmp_path, 'cut', input='{}[{}]'.format(RELU1, shape), output=RELU3)
    assert parameter_shapes(converted.text) == [list(inner.shape)]
    assert 'SoftMax' not in converted.types and 'MatMul' not in converted.types
    assert converted.types['Convolution'] == 1  # conv1 is upstream of the cut
    expected = oracles.run_tf(record.graph_def, {RELU1: inner}, [RELU3])
    actual = oracles.run_openvino(converted.xml, {RELU1: inner})
    assert max_error(actual, expected) < TOLERANCE


def test_input_frozen_to_a_value(tmp_path):
    """``--input "scale->2.5"``: the placeholder becomes a constant and the IR keeps one input."""
    from tests.support import oracles
    w = np.random.default_rng(5).standard_normal((4, 3)).astype(np.float32)
    graph_def = _freeze(lambda x, scale: tf.identity(tf.matmul(x * scale, w) + scale, name='out'),
                        tf.TensorSpec([2, 4], tf.float32, name='x'), tf.TensorSpec([], tf.float32, name='scale'))
    converted = convert_bytes(graph_def, tmp_path, 'frozen', input='scale->2.5')
    assert converted.types['Parameter'] == 1
    x = np.random.default_rng(6).standard_normal((2, 4)).astype(np.float32)
    out = [n for n in parse_names(graph_def) if n.startswith('Identity')][0]
    expected = oracles.run_tf(graph_def, {'x': x, 'scale': np.float32(2.5)}, [out])
    actual = oracles.run_openvino(converted.xml, {'x': x})
    assert max_error(actual, expected) < TOLERANCE


def parse_names(graph_def):
    from mo.front.tf.graphdef_io import parse_graph_def_bytes
    return [n.name for n in parse_graph_def_bytes(graph_def, 'test').node]


def test_compress_to_fp16(tmp_path):
    """Float weights are stored as f16 (with Converts back to f32); results stay close."""
    from tests.support import models, oracles
    record = models.get_model('small_cnn_bn')
    full = convert_bytes(record.graph_def, tmp_path / 'f32', 'm')
    half = convert_bytes(record.graph_def, tmp_path / 'f16', 'm', compress_to_fp16=True)
    assert 'element_type="f16"' in half.text and 'element_type="f16"' not in full.text
    assert half.types['Convert'] >= 1
    assert os.path.getsize(half.bin) < 0.6 * os.path.getsize(full.bin)
    feeds = record.random_feeds(seed=2)
    expected = oracles.run_tf(record.graph_def, feeds, list(record.outputs))
    actual = oracles.run_openvino(half.xml, feeds)
    assert max_error(actual, expected) < 1e-2  # f16 weights: about 3 decimal digits


def test_dynamic_batch_stays_dynamic(tmp_path):
    """An unknown batch stays -1 in the IR and OpenVINO runs it with batch 1 and 3."""
    from tests.support import oracles
    rng = np.random.default_rng(8)
    w = rng.standard_normal((3, 3, 3, 8)).astype(np.float32)
    dw = rng.standard_normal((3, 3, 8, 1)).astype(np.float32)
    bias = rng.standard_normal(8).astype(np.float32)
    fc = rng.standard_normal((8, 5)).astype(np.float32)

    def net(x):
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, 'SAME'), bias))
        y = tf.nn.relu6(tf.nn.depthwise_conv2d(y, dw, [1, 2, 2, 1], 'SAME'))
        y = tf.reduce_mean(y, axis=[1, 2])
        return tf.identity(tf.nn.softmax(tf.matmul(y, fc)), name='out')

    graph_def = _freeze(net, tf.TensorSpec([None, 8, 8, 3], tf.float32, name='input'))
    converted = convert_bytes(graph_def, tmp_path, 'dyn')
    assert parameter_shapes(converted.text) == [[-1, 8, 8, 3]]
    assert converted.types.get('Transpose', 0) <= 2
    out = [n for n in parse_names(graph_def) if n.startswith('Identity')][0]
    for batch in (1, 3):
        x = rng.uniform(-1, 1, (batch, 8, 8, 3)).astype(np.float32)
        expected = oracles.run_tf(graph_def, {'input': x}, [out])
        actual = oracles.run_openvino(converted.xml, {'input': x})
        assert actual[0].shape == (batch, 5)
        assert max_error(actual, expected) < TOLERANCE


def _graph_with_unknown_ops(path):
    from mo.front.tf.node_def import make_node_def
    from mo.front.tf.proto import GraphDef
    graph_def = GraphDef()
    graph_def.node.append(make_node_def('x', 'Placeholder', {'dtype': np.float32}))
    graph_def.node.append(make_node_def('foo_1', 'FooOp', {}, inputs=['x']))
    graph_def.node.append(make_node_def('foo_2', 'FooOp', {}, inputs=['foo_1']))
    graph_def.node.append(make_node_def('bar', 'BarOp', {}, inputs=['foo_2']))
    graph_def.node.append(make_node_def('relu', 'Relu', {'T': np.float32}, inputs=['bar']))
    path.write_bytes(graph_def.SerializeToString())


def test_unknown_ops_are_listed_in_one_message(tmp_path):
    model = tmp_path / 'unknown.pb'
    _graph_with_unknown_ops(model)
    code, _, stderr = _mo('convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'out'))
    assert code != 0
    errors = _error_lines(stderr)
    assert len(errors) == 1, stderr
    assert 'BarOp (1 node: bar)' in errors[0] and 'FooOp (2 nodes: foo_1, foo_2)' in errors[0]
    assert 'Traceback' not in stderr
    assert not list((tmp_path / 'out').glob('*.xml'))


def test_corrupt_model_file_is_one_error(tmp_path):
    model = tmp_path / 'corrupt.pb'
    model.write_bytes(b'\x0a\xff\xff\xff\x0fnot a graph' + bytes(range(256)))
    code, _, stderr = _mo('convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'out'))
    assert code != 0
    errors = _error_lines(stderr)
    assert len(errors) == 1 and 'corrupt.pb' in errors[0], stderr
    assert 'Traceback' not in stderr


def test_a_cycle_is_one_error_naming_its_nodes(tmp_path):
    from mo.front.tf.proto import GraphDef
    graph_def = GraphDef()
    x = graph_def.node.add(name='x', op='Placeholder')
    x.attr['dtype'].type = 1
    for name, inputs in (('loop_a', ['x', 'loop_b']), ('loop_b', ['loop_a', 'x']), ('out', ['loop_b'])):
        node = graph_def.node.add(name=name, op='AddV2' if name != 'out' else 'Relu', input=inputs)
        node.attr['T'].type = 1
    model = tmp_path / 'cycle.pb'
    model.write_bytes(graph_def.SerializeToString())
    code, _, stderr = _mo('convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'out'))
    errors = _error_lines(stderr)
    assert code != 0 and len(errors) == 1, stderr
    assert 'cycle' in errors[0] and 'loop_a' in errors[0] and 'loop_b' in errors[0]
    assert 'Traceback' not in stderr
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').iterdir())


def test_the_console_script_flushes_its_output_before_exiting(tmp_path):
    """``mo`` leaves without interpreter teardown: stdout, stderr and the log must be complete."""
    model = os.path.join(ROOT, 'examples', 'small_cnn.pb')
    code, out, err = _mo('convert', '--input_model', model, '--output_dir', str(tmp_path), '--log_level', 'INFO')
    assert code == 0
    assert out.splitlines()[-2:] == ['[ SUCCESS ] XML file: {}'.format(tmp_path / 'small_cnn.xml'),
                                     '[ SUCCESS ] BIN file: {}'.format(tmp_path / 'small_cnn.bin')]
    assert 'converted in' in out + err
    code, out, err = _mo('convert', '--input_model', str(tmp_path / 'missing.pb'), '--output_dir', str(tmp_path))
    assert code == 1 and _error_lines(err) and 'missing.pb' in _error_lines(err)[0]
