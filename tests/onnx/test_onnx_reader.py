"""Reading ONNX models, as a user meets it: the framework told by content, external data, dynamic dimensions,
--input/--output/--input_shape/--batch, the names in the IR, and one clear error for each kind of bad file.

Numbers: onnxruntime runs the ONNX model, OpenVINO runs the IR.
"""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
from onnx import TensorProto as T, helper, numpy_helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model, run_ir, run_onnxruntime  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _mo(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, '-m', 'mo'] + [str(a) for a in args], capture_output=True, text=True,
                          env=env, cwd=cwd or ROOT)


def _mlp(batch='N', opset=17):
    """x [batch, 8] -> MatMul-free affine (Mul, Add) -> Relu -> Sigmoid; weights as initializers."""
    rng = np.random.default_rng(0)
    scale = rng.standard_normal((1, 8)).astype(np.float32)
    shift = rng.standard_normal((8,)).astype(np.float32)
    nodes = [helper.make_node('Mul', ['x', 'scale'], ['scaled'], name='mul'),
             helper.make_node('Add', ['scaled', 'shift'], ['shifted'], name='add'),
             helper.make_node('Relu', ['shifted'], ['relu_out'], name='relu'),
             helper.make_node('Sigmoid', ['relu_out'], ['y'], name='sigmoid')]
    return make_model(nodes, [('x', T.FLOAT, [batch, 8])], [('y', T.FLOAT, [batch, 8])],
                      {'scale': scale, 'shift': shift}, opset=opset)


def _feed(shape, seed=1):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_symbolic_batch_stays_dynamic_and_runs_at_two_sizes(tmp_path):
    model = _mlp()
    result = check_model(model, {'x': _feed((2, 8))}, tmp_path)
    assert [str(d) for d in result.inputs[0].shape] in (['-1', '8'], ['?', '8']) or -1 in list(result.inputs[0].shape)
    for batch in (1, 5):
        feeds = {'x': _feed((batch, 8), seed=batch)}
        np.testing.assert_allclose(run_ir(result.xml_path, feeds, ['y'])[0], run_onnxruntime(model, feeds)[0],
                                   rtol=1e-5, atol=1e-6)


def test_cli_tells_onnx_by_content_whatever_the_file_name(tmp_path):
    path = tmp_path / 'weights.bin'  # not .onnx: the content decides
    onnx.save(_mlp(), str(path))
    proc = _mo('convert', '--input_model', path, '--output_dir', tmp_path / 'out')
    assert proc.returncode == 0, proc.stderr
    assert 'ONNX nodes' in proc.stdout
    feeds = {'x': _feed((3, 8))}
    np.testing.assert_allclose(run_ir(tmp_path / 'out' / 'weights.xml', feeds, ['y'])[0],
                               run_onnxruntime(_mlp(), feeds)[0], rtol=1e-5, atol=1e-6)


def test_framework_flag_and_ir_names(tmp_path):
    path = tmp_path / 'mlp.onnx'
    onnx.save(_mlp(), str(path))
    proc = _mo('convert', '--input_model', path, '--framework', 'onnx', '--output_dir', tmp_path)
    assert proc.returncode == 0, proc.stderr
    import openvino as ov
    model = ov.Core().read_model(str(tmp_path / 'mlp.xml'))
    assert model.inputs[0].get_any_name() == 'x'
    assert 'y' in model.outputs[0].get_names()


def test_api_takes_a_model_proto_bytes_and_a_path(tmp_path):
    import mo
    model = _mlp()
    path = tmp_path / 'm.onnx'
    onnx.save(model, str(path))
    feeds = {'x': _feed((2, 8))}
    expected = run_onnxruntime(model, feeds)[0]
    for index, source in enumerate((model, model.SerializeToString(), str(path))):
        result = mo.convert_model(source, output_dir=str(tmp_path / str(index)))
        np.testing.assert_allclose(run_ir(result.xml_path, feeds, ['y'])[0], expected, rtol=1e-5, atol=1e-6)


def test_external_data_is_read_from_beside_the_model(tmp_path):
    model = _mlp()
    rng = np.random.default_rng(3)
    big = rng.standard_normal((8, 8)).astype(np.float32)
    model.graph.initializer.append(numpy_helper.from_array(big, 'big'))
    model.graph.node.append(helper.make_node('Mul', ['y', 'big_row'], ['z']))
    model.graph.node.insert(0, helper.make_node('Identity', ['big'], ['big_row']))
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info('z', T.FLOAT, None))
    path = tmp_path / 'ext' / 'model.onnx'
    path.parent.mkdir()
    onnx.save(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True, location='weights.data',
              size_threshold=0)
    assert (path.parent / 'weights.data').stat().st_size >= big.nbytes
    feeds = {'x': _feed((8, 8))}
    proc = _mo('convert', '--input_model', path, '--output_dir', tmp_path / 'out')
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(run_ir(tmp_path / 'out' / 'model.xml', feeds, ['z'])[0],
                               run_onnxruntime(str(path), feeds)[0], rtol=1e-5, atol=1e-6)


def test_input_shape_batch_and_cuts(tmp_path):
    model = _mlp()
    path = tmp_path / 'm.onnx'
    onnx.save(model, str(path))
    import mo
    static = mo.convert_model(str(path), output_dir=str(tmp_path / 's'), input_shape=[4, 8])
    assert list(static.inputs[0].shape) == [4, 8]
    batched = mo.convert_model(str(path), output_dir=str(tmp_path / 'b'), batch=3)
    assert list(batched.inputs[0].shape) == [3, 8]
    # --output at an intermediate tensor cuts the graph there
    cut = mo.convert_model(str(path), output_dir=str(tmp_path / 'o'), output=['shifted'])
    feeds = {'x': _feed((2, 8))}
    scale = numpy_helper.to_array(model.graph.initializer[0])
    shift = numpy_helper.to_array(model.graph.initializer[1])
    np.testing.assert_allclose(run_ir(cut.xml_path, feeds, ['shifted'])[0], feeds['x'] * scale + shift, rtol=1e-6)
    # --input at an intermediate tensor makes it the model's input
    cut_in = mo.convert_model(str(path), output_dir=str(tmp_path / 'i'), input=[('relu_out', [2, 8])])
    r = _feed((2, 8), seed=7)
    np.testing.assert_allclose(run_ir(cut_in.xml_path, {'relu_out': r}, ['y'])[0], 1 / (1 + np.exp(-r)), rtol=1e-5)


def test_nodes_in_any_order_are_accepted(tmp_path):
    model = _mlp()
    nodes = list(model.graph.node)
    del model.graph.node[:]
    model.graph.node.extend(reversed(nodes))
    check_model(_mlp(), {'x': _feed((2, 8))}, tmp_path / 'a')
    import mo
    result = mo.convert_model(model, output_dir=str(tmp_path / 'b'))
    feeds = {'x': _feed((2, 8))}
    np.testing.assert_allclose(run_ir(result.xml_path, feeds, ['y'])[0], run_onnxruntime(_mlp(), feeds)[0],
                               rtol=1e-5, atol=1e-6)


def test_mo_transforms_lists_the_onnx_pipeline():
    proc = _mo('transforms', '--framework', 'onnx', '--phase', 'load')
    assert proc.returncode == 0, proc.stderr
    assert 'ONNXLoader' in proc.stdout and 'ONNXExtractor' in proc.stdout
    assert 'TFLoader' not in proc.stdout and 'TFExtractor' not in proc.stdout
    # a replacer in a framework's folder runs for that framework only, unless it says it serves several
    front = _mo('transforms', '--framework', 'onnx', '--phase', 'front')
    assert front.returncode == 0, front.stderr
    assert 'ClipByValueLowering' not in front.stdout and 'extensions.front.tf.nhwc_to_nchw' not in front.stdout
    assert 'IdentityEraser' in front.stdout and 'ONNXLoopInputs' in front.stdout
    tf_front = _mo('transforms', '--framework', 'tf', '--phase', 'front')
    assert 'ClipByValueLowering' in tf_front.stdout and 'extensions.front.onnx.' not in tf_front.stdout


# ---- bad input: one [ ERROR ] line naming what is wrong, a non-zero exit, nothing written ----

def _bad_models(tmp_path):
    good = _mlp().SerializeToString()
    cases = {'truncated': good[:len(good) // 2], 'corrupt': good[:10] + b'\xff' * 20 + good[30:]}

    unknown = _mlp()
    unknown.graph.node.append(helper.make_node('FancyOp', ['y'], ['w'], name='fancy', domain='com.example'))
    unknown.opset_import.append(helper.make_opsetid('com.example', 3))
    unknown.graph.output[0].CopyFrom(helper.make_tensor_value_info('w', T.FLOAT, None))
    cases['unknown op'] = unknown.SerializeToString()

    dangling = _mlp()
    dangling.graph.node[2].input[0] = 'nowhere'
    cases['dangling'] = dangling.SerializeToString()

    duplicate = _mlp()
    duplicate.graph.node[1].output[0] = 'scaled'
    cases['duplicate'] = duplicate.SerializeToString()

    short = _mlp()
    short.graph.initializer[0].raw_data = short.graph.initializer[0].raw_data[:-4]
    cases['short initializer'] = short.SerializeToString()

    newer = _mlp()
    newer.opset_import[0].version = 99
    cases['newer opset'] = newer.SerializeToString()

    ext = _mlp()
    tensor = ext.graph.initializer[0]
    tensor.ClearField('raw_data')
    tensor.data_location = T.EXTERNAL
    tensor.external_data.add(key='location', value='missing.data')
    cases['missing external data'] = ext.SerializeToString()

    cycle = _mlp()
    cycle.graph.node[0].input[0] = 'relu_out'
    cases['cycle'] = cycle.SerializeToString()
    return cases


EXPECTED = {
    'truncated': 'is not a valid ONNX model',
    'corrupt': 'is not a valid ONNX model',
    'unknown op': 'FancyOp (com.example, opset 3; 1 node: fancy)',
    'dangling': 'reads tensor "nowhere", which no node, input or initializer produces',
    'duplicate': 'Tensor "scaled" is produced twice',
    'short initializer': 'Initializer "scale" holds 28 bytes',
    'newer opset': 'opset 99',
    'missing external data': 'missing.data',
    'cycle': 'cycle',
}


@pytest.mark.parametrize('kind', sorted(EXPECTED))
def test_bad_model_is_one_error_line_and_writes_nothing(tmp_path, kind):
    path = tmp_path / 'bad.onnx'
    path.write_bytes(_bad_models(tmp_path)[kind])
    out = tmp_path / 'out'
    proc = _mo('convert', '--input_model', path, '--framework', 'onnx', '--output_dir', out)
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr, proc.stderr
    errors = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith('[ ERROR ]')]
    assert errors and EXPECTED[kind] in errors[0], proc.stdout + proc.stderr
    assert not list(out.glob('*.xml')) and not list(out.glob('*.bin'))
