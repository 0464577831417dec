"""ovc's command-line habits: the model as a positional argument, --output_model, the default weight type said in
--help; a failed conversion leaves no output directory behind; `mo ops` shows each op's inputs and attributes."""
import subprocess
import sys
from pathlib import Path

import numpy as np
from tests.support.oracles import compile_openvino

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / 'examples' / 'small_cnn.pb')


def _mo(*args):
    return subprocess.run([sys.executable, '-m', 'mo'] + list(args), capture_output=True, text=True, cwd=str(ROOT))


def _tf_output(x):
    import tensorflow as tf
    graph_def = tf.compat.v1.GraphDef()
    graph_def.ParseFromString(Path(EXAMPLE).read_bytes())
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name='')
        with tf.compat.v1.Session(graph=graph) as session:
            return session.run('Identity:0', {'input:0': x})


def test_the_model_positional_and_output_model_as_ovc_takes_them(tmp_path):
    target = tmp_path / 'deep' / 'er' / 'cnn.xml'
    proc = _mo('convert', EXAMPLE, '--output_model', str(target))
    assert proc.returncode == 0, proc.stderr
    assert target.exists() and target.with_suffix('.bin').exists()
    x = np.random.default_rng(0).standard_normal((1, 32, 32, 3)).astype(np.float32)
    compiled = compile_openvino(target)
    np.testing.assert_allclose(compiled([x])[0], _tf_output(x), rtol=1e-4, atol=1e-5)


def test_the_model_given_twice_is_a_usage_error(tmp_path):
    proc = _mo('convert', EXAMPLE, '--input_model', 'other.pb', '--output_dir', str(tmp_path))
    assert proc.returncode == 2 and 'given twice' in proc.stderr and 'Traceback' not in proc.stderr


def test_the_model_first_without_a_command_as_ovc_takes_it(tmp_path):
    proc = _mo(EXAMPLE, '--output_model', str(tmp_path / 'm.xml'))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / 'm.xml').exists()


def test_output_model_with_output_dir_is_a_usage_error(tmp_path):
    proc = _mo('convert', EXAMPLE, '--output_model', str(tmp_path / 'a.xml'), '--output_dir', str(tmp_path))
    assert proc.returncode == 2 and '--output_model' in proc.stderr


def test_a_failed_conversion_leaves_no_output_directory(tmp_path):
    broken = tmp_path / 'broken.pb'
    broken.write_bytes(Path(EXAMPLE).read_bytes()[:200])
    out = tmp_path / 'new' / 'dir'
    proc = _mo('convert', '--input_model', str(broken), '--output_dir', str(out))
    assert proc.returncode == 1 and proc.stderr.startswith('[ ERROR ]')
    assert not (tmp_path / 'new').exists()


def test_an_output_dir_under_a_file_is_a_usage_error_before_converting(tmp_path):
    (tmp_path / 'file').write_text('x')
    proc = _mo('convert', EXAMPLE, '--output_dir', str(tmp_path / 'file' / 'sub'))
    assert proc.returncode == 2 and 'is a file' in proc.stderr


def test_help_says_the_default_weight_type():
    text = ' '.join(_mo('convert', '--help').stdout.split())
    assert 'keeps them f32, where ovc writes f16' in text


def test_mo_ops_shows_inputs_and_ir_attributes():
    proc = _mo('ops', '--filter', 'Interpolate')
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    row = next(line for line in lines if line.startswith('Interpolate '))
    assert row.split()[3] == '3'  # data, sizes/scales, axes
    attributes = lines[lines.index(row) + 1]
    assert 'attributes:' in attributes and 'mode' in attributes and 'coordinate_transformation_mode' in attributes
