"""Paddle models through the command line: the framework is told by content, options shape and cut the model,
and damaged models, unknown ops and params that do not fit end in one ``[ ERROR ]`` line with nothing written."""
import os
import shutil
import subprocess
import sys

import pytest

from mo.front.frameworks import detect
from tests.paddle.convert_support import FIXTURES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _mo(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'mo', 'convert'] + [str(a) for a in args], capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))


def _copy(tmp_path, *names):
    for name in names:
        shutil.copy(os.path.join(FIXTURES, name), tmp_path / os.path.basename(name))
    return tmp_path / os.path.basename(names[0])


def _errors(result) -> list:
    return [line for line in result.stderr.splitlines() if line.startswith('[ ERROR ]')]


def _fails_cleanly(result, out_dir, words):
    """Exit status not 0, the first error line saying ``words``, no traceback, no IR written."""
    errors = _errors(result)
    assert result.returncode != 0 and errors, result.stderr
    assert all(w in errors[0] for w in words), errors
    assert len([e for e in errors if not e.startswith('[ ERROR ] Hint:')]) == 1, errors
    assert 'Traceback' not in result.stderr
    assert not any(name.endswith(('.xml', '.bin')) for name in (os.listdir(out_dir) if out_dir.exists() else []))


def _ir_io(xml):
    import openvino as ov
    model = ov.Core().read_model(str(xml))
    inputs = {sorted(p.get_names())[0]: p.get_partial_shape().to_string() for p in model.inputs}
    outputs = {name: p.get_partial_shape().to_string() for p in model.outputs for name in p.get_names()}
    return inputs, outputs


@pytest.mark.parametrize('path', ['p26/net.pdmodel', 'p3_classic/net.pdmodel', 'p3_pir/net.json', 'p26_dir/net'])
def test_paddle_models_are_told_by_content(path, tmp_path):
    assert detect({'input_model': os.path.join(FIXTURES, path)}).name == 'paddle'
    if path.endswith('.pdmodel'):  # a renamed program is still Paddle's, not a GraphDef
        renamed = tmp_path / 'model.pb'
        shutil.copy(os.path.join(FIXTURES, path), renamed)
        assert detect({'input_model': str(renamed)}).name == 'paddle'


def test_input_shape_batch_and_names(tmp_path):
    model = os.path.join(FIXTURES, 'p26/net.pdmodel')
    assert _mo('--input_model', model, '--output_dir', tmp_path / 'a').returncode == 0
    inputs, outputs = _ir_io(tmp_path / 'a' / 'net.xml')
    assert inputs == {'x': '[?,3,8,8]'} and outputs == {'save_infer_model/scale_0.tmp_0': '[?,5]'}
    assert _mo('--input_model', model, '--output_dir', tmp_path / 'b', '--input_shape', '[1,3,8,8]').returncode == 0
    assert _ir_io(tmp_path / 'b' / 'net.xml')[0] == {'x': '[1,3,8,8]'}
    assert _mo('--input_model', model, '--output_dir', tmp_path / 'c', '--batch', '4').returncode == 0
    assert _ir_io(tmp_path / 'c' / 'net.xml')[0] == {'x': '[4,3,8,8]'}


def test_input_and_output_cut_at_paddle_vars(tmp_path):
    model = os.path.join(FIXTURES, 'p26/net.pdmodel')
    done = _mo('--input_model', model, '--output_dir', tmp_path, '--input', 'relu_0.tmp_0[2,4,8,8]',
               '--output', 'flatten_0.tmp_0')
    assert done.returncode == 0, done.stderr
    inputs, outputs = _ir_io(tmp_path / 'net.xml')
    assert inputs == {'relu_0.tmp_0': '[2,4,8,8]'}
    assert list(outputs) == ['flatten_0.tmp_0']


def test_pir_outputs_are_named_by_their_fetch_names(tmp_path):
    done = _mo('--input_model', os.path.join(FIXTURES, 'p3_pir/net.json'), '--output_dir', tmp_path)
    assert done.returncode == 0, done.stderr
    inputs, outputs = _ir_io(tmp_path / 'net.xml')
    assert list(inputs) == ['x'] and 'fetch_name_0' in outputs


def test_an_unknown_var_name_is_a_usage_error_with_close_matches(tmp_path):
    done = _mo('--input_model', os.path.join(FIXTURES, 'p26/net.pdmodel'), '--output_dir', tmp_path / 'out',
               '--output', 'relu_0.tmp')
    _fails_cleanly(done, tmp_path / 'out', ['relu_0.tmp'])
    assert 'relu_0.tmp_0' in done.stderr


# (a classic program cut inside its trailing op_version_map still parses, complete: fractions stay below it)
@pytest.mark.parametrize('fraction', [0.05, 0.3, 0.6])
def test_truncated_programs_fail_cleanly(fraction, tmp_path):
    for name in ('p26/net.pdmodel', 'p3_pir/net.json'):
        with open(os.path.join(FIXTURES, name), 'rb') as f:
            data = f.read()
        model = tmp_path / os.path.basename(name)
        model.write_bytes(data[:int(len(data) * fraction)])
        shutil.copy(os.path.join(FIXTURES, os.path.splitext(name)[0] + '.pdiparams'),
                    tmp_path / (os.path.splitext(os.path.basename(name))[0] + '.pdiparams'))
        done = _mo('--input_model', model, '--output_dir', tmp_path / 'out')
        _fails_cleanly(done, tmp_path / 'out', [''])
        assert len(done.stderr) < 2000  # the program is never pasted into the message


def _renamed_op(tmp_path, old: bytes, new: bytes):
    """The PIR fixture ``net`` with its ``old`` ops renamed ``new``."""
    model = _copy(tmp_path, 'p3_pir/net.json', 'p3_pir/net.pdiparams')
    model.write_bytes(model.read_bytes().replace(old, new))
    return model


def test_unknown_ops_are_listed_with_counts_and_names(tmp_path):
    model = _renamed_op(tmp_path, b'"1.add"', b'"1.frobnicate"')
    model.write_bytes(model.read_bytes().replace(b'"1.relu"', b'"1.quux"'))
    done = _mo('--input_model', model, '--output_dir', tmp_path / 'out')
    _fails_cleanly(done, tmp_path / 'out', ['frobnicate (2 nodes: %', 'quux (1 node: %'])
    assert "op = 'frobnicate'" in done.stderr and 'front/paddle/' in done.stderr


def test_an_unknown_classic_op_is_listed(tmp_path):
    model = _copy(tmp_path, 'p26/net.pdmodel', 'p26/net.pdiparams')
    model.write_bytes(model.read_bytes().replace(b'\x04relu', b'\x04xelu'))
    done = _mo('--input_model', model, '--output_dir', tmp_path / 'out')
    _fails_cleanly(done, tmp_path / 'out', ['xelu (1 node: relu_0.tmp_0)'])


def test_params_of_another_model_fail_cleanly(tmp_path):
    model = _copy(tmp_path, 'p3_pir/seq.json')
    shutil.copy(os.path.join(FIXTURES, 'p3_pir/net.pdiparams'), tmp_path / 'seq.pdiparams')
    done = _mo('--input_model', model, '--output_dir', tmp_path / 'out')
    _fails_cleanly(done, tmp_path / 'out', ['seq.pdiparams', 'another model'])


def test_missing_and_short_params_fail_cleanly(tmp_path):
    model = _copy(tmp_path, 'p26/net.pdmodel')
    done = _mo('--input_model', model, '--output_dir', tmp_path / 'out')
    _fails_cleanly(done, tmp_path / 'out', ['net.pdiparams'])
    with open(os.path.join(FIXTURES, 'p26/net.pdiparams'), 'rb') as f:
        data = f.read()
    (tmp_path / 'net.pdiparams').write_bytes(data[:len(data) // 2])
    done = _mo('--input_model', model, '--output_dir', tmp_path / 'out')
    _fails_cleanly(done, tmp_path / 'out', ['net.pdiparams'])
