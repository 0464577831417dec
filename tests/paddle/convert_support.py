"""Shared by the Paddle conversion tests: export models in a child process (``paddle_models.py``), convert them
with mo, run the IR in OpenVINO and compare with what Paddle Inference computed."""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MAKER = os.path.join(HERE, 'paddle_models.py')
FIXTURES = os.path.join(HERE, 'fixtures')
#: the relative tolerance of the brief; an absolute floor for values near 0
RTOL, ATOL = 1e-4, 1e-5


def export(out_dir, fmt: str, names) -> str:
    """Export the ``paddle_models.MODELS`` named ``names`` in format ``fmt`` (``pir``/``classic``) to ``out_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, GLOG_minloglevel='3', FLAGS_call_stack_level='0')
    done = subprocess.run([sys.executable, MAKER, str(out_dir), fmt] + list(names), capture_output=True, text=True,
                          env=env, timeout=900)
    # Paddle logs every pass it runs: keep the traceback
    assert done.returncode == 0, done.stderr[done.stderr.rfind('Traceback'):][-4000:]
    return str(out_dir)


def infer(out_dir, plan: dict) -> str:
    """Record Paddle Inference on models that exist: ``plan`` maps a model path to its feeds
    ``[[name, shape, dtype], ...]``; the records are ``<dir name>_<stem>.npz`` in ``out_dir``."""
    import json
    os.makedirs(out_dir, exist_ok=True)
    plan_file = os.path.join(str(out_dir), 'plan.json')
    with open(plan_file, 'w') as f:
        json.dump(plan, f)
    env = dict(os.environ, GLOG_minloglevel='3', FLAGS_call_stack_level='0')
    done = subprocess.run([sys.executable, MAKER, str(out_dir), 'infer', plan_file], capture_output=True, text=True,
                          env=env, timeout=900)
    assert done.returncode == 0, done.stderr[done.stderr.rfind('Traceback'):][-4000:]
    return str(out_dir)


def infer_models(out_dir, model_dir, names) -> str:
    """Record Paddle Inference on the programs ``model_dir/NAME.*`` exported (by another Paddle) from the
    ``paddle_models`` models ``names``, fed those models' example inputs: ``NAME.npz`` in ``out_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, GLOG_minloglevel='3', FLAGS_call_stack_level='0')
    done = subprocess.run([sys.executable, MAKER, str(out_dir), 'infer_models', str(model_dir)] + list(names),
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[done.stderr.rfind('Traceback'):][-4000:]
    return str(out_dir)


def rename_ops(out_dir, source, renames) -> str:
    """Copy the classic program ``source`` (and params) into ``out_dir`` with op types renamed (``'OLD:NEW'``)."""
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, GLOG_minloglevel='3', FLAGS_call_stack_level='0')
    done = subprocess.run([sys.executable, MAKER, str(out_dir), 'rename', str(source)] + list(renames),
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[done.stderr.rfind('Traceback'):][-4000:]
    return str(out_dir)


def model_file(out_dir, name: str) -> str:
    for ext in ('.json', '.pdmodel'):
        path = os.path.join(str(out_dir), name + ext)
        if os.path.exists(path):
            return path
    raise FileNotFoundError(name)


def convert(path, out_dir, **options):
    import mo
    return mo.convert_model(path, output_dir=str(out_dir), **options)


def run_ir(xml, inputs: dict) -> dict:
    """The IR's outputs by each of their names, for ``inputs`` (by input name), on the CPU in f32."""
    from tests.support.oracles import compile_openvino
    compiled = compile_openvino(xml)
    request = compiled.create_infer_request()
    feed = {}
    for port in compiled.inputs:
        names = port.get_names()
        value = next((inputs[n] for n in names if n in inputs), None)
        assert value is not None, 'no value for IR input {}'.format(names)
        feed[port] = value
    results = request.infer(feed)
    return {name: np.asarray(results[port]) for port in compiled.outputs for name in port.get_names()}


def reference(out_dir, name: str):
    """(inputs by feed name, outputs by fetch name) that Paddle Inference computed."""
    data = np.load(os.path.join(str(out_dir), name + '.npz'))
    inputs = {k[3:]: data[k] for k in data.files if k.startswith('in:')}
    outputs = {k[4:]: data[k] for k in data.files if k.startswith('out:')}
    return inputs, outputs


def assert_close(ours: dict, theirs: dict, what=''):
    """Every output Paddle computed is an IR output of that name, of the same shape and values."""
    for i, b in theirs.items():
        assert i in ours, '{}: no IR output named {} (the IR has {})'.format(what, i, sorted(ours))
        # a reference of NaNs or infinities would match anything: the model degenerated, not the conversion
        assert b.dtype.kind != 'f' or np.isfinite(b).all(), '{} output {}: Paddle computed NaN/inf'.format(what, i)
        a = ours[i]
        assert a.shape == b.shape, '{} output {}: shape {} vs Paddle {}'.format(what, i, a.shape, b.shape)
        if b.dtype.kind in 'biu':
            assert a.dtype.kind == b.dtype.kind or b.dtype.kind == 'b', (what, i, a.dtype, b.dtype)
            np.testing.assert_array_equal(a.astype(b.dtype), b, err_msg='{} output {}'.format(what, i))
        else:
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg='{} output {}'.format(what, i))


def max_rel_error(ours: dict, theirs: dict) -> float:
    worst = 0.0
    for key, b in theirs.items():
        a = ours[key]
        if b.dtype.kind == 'f' and b.size:
            worst = max(worst, float(np.max(np.abs(a - b) / (np.abs(b) + 1e-6))))
    return worst


def check_model(out_dir, name, tmp_path, **options):
    """Convert model ``name`` exported to ``out_dir``, run it and compare with Paddle; the conversion result."""
    result = convert(model_file(out_dir, name), tmp_path / name, **options)
    inputs, expected = reference(out_dir, name)
    assert_close(run_ir(result.xml_path, inputs), expected, name)
    return result
