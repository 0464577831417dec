"""An ovc user's habits with ``mo.convert_model`` (issue 41, point 2): the result goes to ``openvino``'s own
``compile_model``, ``Core.compile_model`` and ``save_model``; ovc-style ``input=`` values; other frameworks'
models get an ``mo.Error`` that says what to do; without ``openvino`` the result is what it was. Numbers
against TensorFlow and onnxruntime, run by the OpenVINO runtime."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

ov = pytest.importorskip('openvino')
tf = pytest.importorskip('tensorflow')

import mo  # noqa: E402
from tests.support.oracles import EXACT_F32, TFRunner  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / 'examples' / 'small_cnn.pb'
X = np.random.default_rng(7).standard_normal((1, 32, 32, 3)).astype(np.float32)


def _tf_reference(x=X):
    with TFRunner(EXAMPLE.read_bytes()) as runner:
        return runner.run({'input:0': x}, ['Identity:0'])[0]


def _run(compiled, x):
    return np.array(compiled([x])[compiled.outputs[0]])


def test_the_result_goes_to_openvinos_own_functions(tmp_path):
    expected = _tf_reference()
    ov_model = mo.convert_model(EXAMPLE)
    assert isinstance(ov_model, ov.Model) and isinstance(ov_model, mo.ConversionResult)

    np.testing.assert_allclose(_run(ov.compile_model(ov_model, 'CPU', EXACT_F32), X), expected, rtol=1e-4, atol=1e-5)
    core = ov.Core()
    np.testing.assert_allclose(_run(core.compile_model(ov_model, 'CPU', EXACT_F32), X), expected, rtol=1e-4,
                               atol=1e-5)

    # the files themselves, as openvino reads paths (its read_model takes no Model)
    read = core.read_model(ov_model.xml_path)
    np.testing.assert_allclose(_run(core.compile_model(read, 'CPU', EXACT_F32), X), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_run(ov.compile_model(ov_model.xml_path, 'CPU', EXACT_F32), X), expected, rtol=1e-4,
                               atol=1e-5)

    ov.save_model(ov_model, tmp_path / 'exact.xml', compress_to_fp16=False)
    ov.save_model(ov_model, str(tmp_path / 'half.xml'))  # ovc's default: f16 weights
    for name, tolerance in (('exact.xml', 1e-4), ('half.xml', 2e-2)):
        read = core.read_model(tmp_path / name)
        actual = _run(core.compile_model(read, 'CPU', EXACT_F32), X)
        np.testing.assert_allclose(actual, expected, rtol=tolerance, atol=tolerance)


def test_a_result_compiled_at_once_outlives_its_temporary_files(tmp_path):
    """The issue's own line: ``ov.compile_model(mo.convert_model(...))``; the result and its temporary directory
    go right after, the compiled model stays usable."""
    import gc
    compiled = ov.compile_model(mo.convert_model(EXAMPLE), 'CPU', EXACT_F32)
    gc.collect()
    np.testing.assert_allclose(_run(compiled, X), _tf_reference(), rtol=1e-4, atol=1e-5)


def test_mo_save_model_takes_openvino_models_too(tmp_path):
    ov_model = mo.convert_model(EXAMPLE)
    xml, _ = mo.save_model(ov_model.to_openvino(), tmp_path / 'from_openvino')
    np.testing.assert_allclose(_run(ov.compile_model(xml, 'CPU', EXACT_F32), X), _tf_reference(), rtol=1e-4,
                               atol=1e-5)
    with pytest.raises(mo.Error, match='not a dict'):
        mo.save_model({}, tmp_path / 'x.xml')


def test_ports_answer_as_mo_tensor_infos_and_as_openvino_ports():
    ov_model = mo.convert_model(EXAMPLE)
    port = ov_model.inputs[0]
    assert (port.name, port.shape, port.dtype) == ('input:0', (1, 32, 32, 3), np.float32)  # mo's TensorInfo
    assert port.get_any_name() == 'input:0' and port.get_partial_shape() == ov.PartialShape([1, 32, 32, 3])
    assert port.get_element_type() == ov.Type.f32 and port.get_names() == {'input:0'}
    assert ov_model.input(0).get_any_name() == 'input:0' and len(ov_model.get_parameters()) == 1
    assert ov_model.outputs[0].get_partial_shape() == ov.PartialShape([1, 10])


def test_the_runtimes_model_edits_compile(tmp_path):
    """What ovc users do next to the model: reshape it, add preprocessing, then compile."""
    ov_model = mo.convert_model(EXAMPLE)
    ppp = ov.preprocess.PrePostProcessor(ov_model)
    ppp.input().tensor().set_element_type(ov.Type.u8)
    ppp.build()
    pixels = np.random.default_rng(3).integers(0, 255, (1, 32, 32, 3)).astype(np.uint8)
    actual = _run(ov.compile_model(ov_model, 'CPU', EXACT_F32), pixels)
    np.testing.assert_allclose(actual, _tf_reference(pixels.astype(np.float32)), rtol=1e-4, atol=1e-5)


def _keras_function():
    import keras
    keras.utils.set_random_seed(5)
    inputs = keras.Input((6,), name='features')
    model = keras.Model(inputs, keras.layers.Dense(3)(keras.layers.Dense(5, activation='tanh')(inputs)))

    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, name='x')])
    def forward(v):
        return model(v)
    return forward


@pytest.mark.parametrize('value, shape', [
    ([2, 6], (2, 6)),
    ((2, 6), (2, 6)),
    (('x', [2, 6]), (2, 6)),
    ({'x': [2, 6]}, (2, 6)),
    ({'x': ov.PartialShape([2, 6])}, (2, 6)),
    (ov.PartialShape([2, 6]), (2, 6)),
    (ov.Shape([2, 6]), (2, 6)),
    ([ov.PartialShape([-1, 6])], (-1, 6)),
    ([ov.Dimension(-1), 6], (-1, 6)),
    (('x', [ov.Dimension(2), 6], ov.Type.f32), (2, 6)),
    ([('x', [2, 6], np.float32)], (2, 6)),
    ((np.dtype('float32'), 'x', [None, 6]), (-1, 6)),
    ({'x': ([2, 6], ov.Type.f32)}, (2, 6)),
    ({'x': np.float32}, (-1, 6)),
    ('x[2,6]', (2, 6)),
])
def test_ovc_style_input_values(value, shape):
    forward = _keras_function()
    ov_model = mo.convert_model(forward, input=value)
    assert ov_model.inputs[0].shape == shape
    x = np.random.default_rng(2).standard_normal((2, 6)).astype(np.float32)
    actual = _run(ov.compile_model(ov_model, 'CPU', EXACT_F32), x)
    np.testing.assert_allclose(actual, forward(x).numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('value, words', [
    (np.float32, "type needs the input's name"),
    (ov.Type.f32, "type needs the input's name"),
    ([ov.Dimension(1, 4), 32, 32, 3], 'bounded dimension'),
    (ov.PartialShape.dynamic(), 'dynamic rank'),
    (3.5, 'cannot read 3.5'),
    ({'input': 'x'}, "cannot read 'x'"),
    ({3: [1, 32, 32, 3]}, 'keys of an input dict'),
    ([[1, 32, 32, 3], 'input'], 'name every input or none'),
    (('input', [1, 32, 32, 3], np.complex64), 'not one an IR input can have'),
    ([1.5, 32, 32, 3], 'cannot read'),
    (object(), 'cannot read'),
])
def test_input_values_mo_cannot_take_are_mo_errors(value, words):
    with pytest.raises(mo.Error) as error:
        mo.convert_model(EXAMPLE, input=value)
    assert words in str(error.value)


def test_unnamed_shape_and_input_shape_together_is_an_error():
    with pytest.raises(mo.Error, match='use one of them'):
        mo.convert_model(EXAMPLE, input=[1, 32, 32, 3], input_shape=[1, 32, 32, 3])


def test_ovc_keywords_mo_has_no_option_for():
    assert mo.convert_model(EXAMPLE, share_weights=False).inputs[0].shape == (1, 32, 32, 3)  # no meaning for mo
    with pytest.raises(mo.Error, match='example_input is for a paddle.nn.Layer'):
        mo.convert_model(EXAMPLE, example_input=np.zeros((1, 32, 32, 3), np.float32))
    with pytest.raises(mo.Error, match='verbose') as error:
        mo.convert_model(EXAMPLE, verbose=True)
    assert 'log_level' in error.value.hint


def _fake_instance(module, class_name):
    """An object whose class comes, by its module, from another framework (that framework is not installed)."""
    base = type(class_name, (), {'__module__': module})
    return type('UserNet', (base,), {'__module__': '__main__'})()


@pytest.mark.parametrize('module, class_name, advice', [
    ('torch.nn.modules.module', 'Module', 'torch.onnx.export'),
    ('torch.jit._script', 'RecursiveScriptModule', 'torch.onnx.export'),
    ('paddle.nn.layer.layers', 'Layer', 'give example_input'),
    ('paddle.tensor', 'Tensor', 'no paddle.nn.Layer'),
])
def test_other_frameworks_models_get_what_to_do(module, class_name, advice):
    with pytest.raises(mo.Error) as error:
        mo.convert_model(_fake_instance(module, class_name))
    assert advice in str(error.value)
    assert 'torch' not in sys.modules and 'paddle' not in sys.modules


def test_an_openvino_model_or_a_result_passed_back_is_an_error():
    ov_model = mo.convert_model(EXAMPLE)
    with pytest.raises(mo.Error, match='IR already'):
        mo.convert_model(ov_model)
    with pytest.raises(mo.Error, match='converted already'):
        mo.convert_model(ov_model.to_openvino())


def test_onnx_model_through_openvinos_functions(tmp_path):
    onnx = pytest.importorskip('onnx')
    ort = pytest.importorskip('onnxruntime')
    from onnx import TensorProto, helper
    from tests.onnx.onnx_oracle import make_model
    rng = np.random.default_rng(11)
    model = make_model([helper.make_node('MatMul', ['images', 'w'], ['m']),
                        helper.make_node('Relu', ['m'], ['logits'])],
                       [('images', TensorProto.FLOAT, ['batch', 4])], [('logits', TensorProto.FLOAT, ['batch', 3])],
                       initializers={'w': rng.standard_normal((4, 3)).astype(np.float32)})
    path = tmp_path / 'model.onnx'
    onnx.save(model, str(path))
    x = rng.standard_normal((5, 4)).astype(np.float32)
    expected = ort.InferenceSession(str(path)).run(None, {'images': x})[0]
    for value in (('images', [5, 4]), {'images': ov.PartialShape([-1, 4])}, None):
        ov_model = mo.convert_model(path, input=value)
        actual = _run(ov.Core().compile_model(ov_model, 'CPU', EXACT_F32), x)
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


WITHOUT_OPENVINO = textwrap.dedent('''
    import json, sys
    sys.modules['openvino'] = None  # openvino not installed, as far as mo can tell
    import mo
    result = mo.convert_model(sys.argv[1], input=('input', [1, 32, 32, 3]))
    facts = {'inputs': [[i.name, list(i.shape), str(i.dtype)] for i in result.inputs],
             'outputs': [list(o.shape) for o in result.outputs],
             'classes': [c.__module__ + '.' + c.__name__ for c in type(result).__mro__]}
    try:
        result.to_openvino()
    except mo.Error as exc:
        facts['to_openvino'] = str(exc)
    xml, _ = mo.save_model(result, sys.argv[2])
    facts['saved'] = str(xml)
    facts['scratch'] = str(result.xml_path.parent)
    del result
    import os
    facts['scratch_left'] = os.path.exists(facts['scratch'])
    print(json.dumps(facts))
''')


def test_without_openvino_the_result_is_what_it_was(tmp_path):
    done = subprocess.run([sys.executable, '-c', WITHOUT_OPENVINO, str(EXAMPLE), str(tmp_path / 'kept.xml')],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    assert facts['inputs'] == [['input:0', [1, 32, 32, 3], 'float32']] and facts['outputs'] == [[1, 10]]
    assert not any(c.startswith('openvino') for c in facts['classes'])
    assert 'needs the openvino package' in facts['to_openvino']
    assert facts['scratch_left'] is False  # the temporary directory went with the result
    compiled = ov.compile_model(facts['saved'], 'CPU', EXACT_F32)
    np.testing.assert_allclose(_run(compiled, X), _tf_reference(), rtol=1e-4, atol=1e-5)
