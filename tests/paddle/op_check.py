"""The Paddle op tests' harness: export a family's cases in a child process (``paddle_export.py``), convert each
with ``mo.convert_model``, run the IR in OpenVINO and compare with what Paddle Inference computed."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = ('pir', 'classic')


def export_cases(module: str, fmt: str, out_dir: str) -> str:
    """Export every case of ``module`` (a module of this folder) in ``fmt`` into ``out_dir``; returns it."""
    # paddle runs in the export process only: imported beside TensorFlow and OpenVINO in a test worker it crashes
    assert importlib.util.find_spec('paddle') is not None, 'paddlepaddle is a test dependency (pip install -e .[test])'
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=HERE)
    done = subprocess.run([sys.executable, os.path.join(HERE, 'paddle_export.py'), fmt, out_dir, module],
                          env=env, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError('exporting {} ({}) failed:\n{}'.format(module, fmt, done.stderr[-4000:]))
    return out_dir


def model_path(out_dir: str, case: str, fmt: str) -> str:
    error = os.path.join(out_dir, case + '.error')
    if os.path.isfile(error):
        with open(error) as f:
            pytest.fail('Paddle could not export or run case {} ({}):\n{}'.format(case, fmt, f.read()[-3000:]))
    return os.path.join(out_dir, case + ('.json' if fmt == 'pir' else '.pdmodel'))


def run_ir(xml_path: str, feeds: dict, names=None):
    """The IR's outputs on ``feeds``: the ones carrying ``names`` in that order, else all in the IR's order."""
    from tests.support.oracles import compile_openvino
    compiled = compile_openvino(xml_path)
    request = compiled.create_infer_request()
    by_name = {}
    for port in compiled.inputs:
        for name in port.get_names():
            by_name[name] = port
    inputs = {by_name[name]: value for name, value in feeds.items()}
    result = request.infer(inputs)
    ports = list(compiled.outputs)
    if names:
        by_output = {name: port for port in ports for name in port.get_names()}
        if all(name in by_output for name in names):
            ports = [by_output[name] for name in names]
    return [np.asarray(result[port]) for port in ports]


def check_case(out_dir: str, case: str, fmt: str, tmp_path, rtol: float = 1e-4, atol: float = 1e-5, **options):
    """Convert case ``case`` of the export in ``out_dir`` and compare every fetched output with Paddle's; returns
    the largest absolute difference seen (for the report)."""
    import mo
    model = model_path(out_dir, case, fmt)
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model', **options)
    feeds = dict(np.load(os.path.join(out_dir, case + '.feeds.npz')))
    expected = np.load(os.path.join(out_dir, case + '.outputs.npz'))
    expected = [expected['o{}'.format(i)] for i in range(len(expected.files))]
    names_file = os.path.join(out_dir, case + '.outputs.txt')
    names = open(names_file).read().split('\n') if os.path.isfile(names_file) else None
    actual = run_ir(result.xml_path, feeds, names)
    assert len(actual) == len(expected), 'the IR has {} outputs, Paddle {}'.format(len(actual), len(expected))
    worst = 0.0
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert a.shape == e.shape, 'output {}: shape {} != {}'.format(i, a.shape, e.shape)
        if e.dtype.kind in 'fc':
            np.testing.assert_allclose(a, e.astype(a.dtype), rtol=rtol, atol=atol, err_msg='output {}'.format(i))
            if e.size:
                worst = max(worst, float(np.max(np.abs(a.astype(np.float64) - e))))
        else:
            np.testing.assert_array_equal(a, e, err_msg='output {}'.format(i))
    return worst
