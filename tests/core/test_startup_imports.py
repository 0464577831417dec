"""What a conversion imports: ml_dtypes only for a model with narrow element types (its import costs 0.7-0.8 s
from version 0.7), and `mo --version` nothing but mo's version."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from tests.support.oracles import compile_openvino

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> list:
    """The top-level packages a fresh interpreter has imported after running ``code``."""
    script = textwrap.dedent(code) + textwrap.dedent('''
        import json, sys
        print(json.dumps(sorted({m.partition('.')[0] for m in sys.modules})))
    ''')
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, cwd=str(ROOT),
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _onnx_model(path: Path, weight_type: int, weight: np.ndarray):
    w = numpy_helper.from_array(weight, 'w')
    w.data_type = weight_type
    nodes = [helper.make_node('Cast', ['w'], ['wf'], to=TensorProto.FLOAT), helper.make_node('Add', ['x', 'wf'], ['y'])]
    graph = helper.make_graph(nodes, 'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2, 3])],
                              [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 3])], [w])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)]), str(path))


def test_a_tensorflow_conversion_imports_no_ml_dtypes(tmp_path):
    loaded = _modules_after('''
        import mo
        mo.convert_model('examples/small_cnn.pb', output_dir={!r})
    '''.format(str(tmp_path)))
    assert 'ml_dtypes' not in loaded and 'tensorflow' not in loaded


def test_an_onnx_conversion_imports_no_ml_dtypes(tmp_path):
    _onnx_model(tmp_path / 'm.onnx', TensorProto.INT64, np.arange(6, dtype=np.int64).reshape(2, 3))
    loaded = _modules_after('''
        import mo
        mo.convert_model({!r}, output_dir={!r})
    '''.format(str(tmp_path / 'm.onnx'), str(tmp_path / 'out')))
    assert 'ml_dtypes' not in loaded and 'onnx' not in loaded


@pytest.mark.parametrize('weight_type', [TensorProto.BFLOAT16, TensorProto.FLOAT16])
def test_a_model_with_a_narrow_type_imports_it_when_met_and_runs(tmp_path, weight_type):
    """bf16 weights need ml_dtypes, and the IR runs with onnxruntime's numbers; f16 ones do not need it."""
    import ml_dtypes
    import onnxruntime
    values = np.array([[0.5, -1.25, 3.0], [7.5, 0.125, -2.0]], np.float32)
    if weight_type == TensorProto.BFLOAT16:
        weight = values.astype(ml_dtypes.bfloat16).view(np.uint16)
    else:
        weight = values.astype(np.float16)
    _onnx_model(tmp_path / 'm.onnx', weight_type, weight)
    loaded = _modules_after('''
        import mo
        mo.convert_model({!r}, output_dir={!r}, model_name='m')
    '''.format(str(tmp_path / 'm.onnx'), str(tmp_path / 'out')))
    assert ('ml_dtypes' in loaded) == (weight_type == TensorProto.BFLOAT16)
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    expected = onnxruntime.InferenceSession(str(tmp_path / 'm.onnx')).run(None, {'x': x})[0]
    compiled = compile_openvino(tmp_path / 'out' / 'm.xml')
    np.testing.assert_allclose(compiled([x])[0], expected, rtol=1e-6)


def test_mo_version_imports_no_command():
    out = subprocess.run([sys.executable, '-X', 'importtime', '-m', 'mo', '--version'], capture_output=True,
                         text=True, cwd=str(ROOT), env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0 and out.stdout.strip().startswith('mo ')
    imported = {line.split('|')[-1].strip() for line in out.stderr.splitlines() if line.startswith('import time:')}
    assert 'numpy' not in imported and not imported & {'mo.pipeline.convert', 'mo.pipeline.transform'}
