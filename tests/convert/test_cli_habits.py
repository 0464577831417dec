"""The Model Optimizer's command-line habits: no command means convert, --version, python -m mo,
--framework/--input_model_is_text accepted, --silent."""
import subprocess
import sys
from pathlib import Path

from mo import __version__

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / 'examples' / 'small_cnn.pb')


def _run(*args):
    return subprocess.run([sys.executable, '-m', 'mo'] + list(args), capture_output=True, text=True, cwd=str(ROOT))


def test_version():
    proc = _run('--version')
    assert proc.returncode == 0 and proc.stdout.strip() == 'mo {}'.format(__version__)


def test_no_command_means_convert_and_python_m_mo_runs(tmp_path):
    proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert '[ SUCCESS ] XML file' in proc.stdout
    assert (tmp_path / 'small_cnn.xml').exists() and (tmp_path / 'small_cnn.bin').exists()


def test_model_optimizer_flags_and_silent(tmp_path):
    proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path), '--framework', 'tf',
                '--input_model_is_text', '--silent')
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == '' and proc.stderr == ''
    assert (tmp_path / 'small_cnn.xml').exists()


def test_other_frameworks_are_a_usage_error(tmp_path):
    proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path), '--framework', 'caffe')
    assert proc.returncode == 2
    assert proc.stderr.startswith('[ ERROR ] mo convert: argument --framework') and 'mo convert --help' in proc.stderr
    assert not (tmp_path / 'small_cnn.xml').exists()


def test_ir_files_get_the_permissions_of_a_normal_write(tmp_path):
    import os
    import stat
    old = os.umask(0o022)
    try:
        proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path))
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    for name in ('small_cnn.xml', 'small_cnn.bin'):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644, name
    assert not [p for p in tmp_path.iterdir() if p.name.startswith('.')]  # no temporary files left


def test_fp16_flags_in_every_spelling(tmp_path):
    """--compress_to_fp16, --compress_to_fp16=False (ovc's spelling) and --data_type FP16 (the Model
    Optimizer's) all work; a bad value is a usage error."""
    def decompressions(*flags):
        out = tmp_path / '_'.join(f.strip('-') for f in flags)
        proc = _run('convert', '--input_model', EXAMPLE, '--output_dir', str(out), '--silent', *flags)
        assert proc.returncode == 0, proc.stderr
        return (out / 'small_cnn.xml').read_text().count('decompression')
    assert decompressions('--compress_to_fp16') > 0
    assert decompressions('--data_type', 'FP16') > 0
    assert decompressions('--compress_to_fp16=False') == 0
    assert decompressions('--data_type', 'FP32') == 0
    proc = _run('convert', '--input_model', EXAMPLE, '--output_dir', str(tmp_path / 'x'), '--compress_to_fp16=maybe')
    assert proc.returncode == 2 and "see 'mo convert --help'" in proc.stderr


def test_an_unknown_flag_names_the_commands_help_and_the_flag_meant(tmp_path):
    proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path), '--inputs', 'input')
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ['[ ERROR ] mo convert: unrecognized arguments: --inputs input',
                                        "[ ERROR ] Hint: did you mean --input? see 'mo convert --help'"]
    proc = _run('transforms', '--phaze', 'front')
    assert proc.returncode == 2 and "did you mean --phase? see 'mo transforms --help'" in proc.stderr


def test_more_model_optimizer_flags_are_accepted(tmp_path):
    config = tmp_path / 'no_replacements.json'
    config.write_text('[]')
    proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path), '--use_new_frontend', '--disable_nhwc_to_nchw',
                '--silent=False', '--tensorflow_use_custom_operations_config', str(config))
    assert proc.returncode == 0, proc.stderr
    assert '[ SUCCESS ]' in proc.stdout


def test_model_optimizer_flags_mo_cannot_honour_are_one_clear_error(tmp_path):
    for flag in ('--transform', '--tensorflow_object_detection_api_pipeline_config', '--tensorboard_logdir',
                 '--tensorflow_custom_layer_libraries'):
        proc = _run('--input_model', EXAMPLE, '--output_dir', str(tmp_path / 'out'), flag, 'x')
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith('[ ERROR ] {} is not supported: '.format(flag))
        assert not (tmp_path / 'out').exists()


def test_freeze_placeholder_with_value(tmp_path):
    """Freezing one input of two makes it a constant of that value: the IR has one input and computes what
    TensorFlow computes with that value fed."""
    import numpy as np
    import pytest
    tf = pytest.importorskip('tensorflow')
    from tests.support.oracles import run_openvino, run_tf
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name='x')
        gain = tf.compat.v1.placeholder(tf.float32, [], name='gain')
        training = tf.compat.v1.placeholder(tf.bool, [], name='training')
        tf.identity(tf.where(training, x, x * gain), name='y')
    model = tmp_path / 'two_inputs.pb'
    model.write_bytes(graph.as_graph_def().SerializeToString())
    proc = _run('--input_model', str(model), '--output_dir', str(tmp_path), '--output', 'y',
                '--freeze_placeholder_with_value', 'gain->2.5,training->False')
    assert proc.returncode == 0, proc.stderr
    xml = (tmp_path / 'two_inputs.xml').read_text()
    assert xml.count('type="Parameter"') == 1
    feed = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected = run_tf(graph.as_graph_def(), {'x:0': feed, 'gain:0': np.float32(2.5), 'training:0': False}, ['y:0'])[0]
    np.testing.assert_allclose(run_openvino(tmp_path / 'two_inputs.xml', {'x': feed})[0], expected, rtol=1e-6)


def test_progress_lines_when_asked_and_a_rewritten_line_on_a_terminal(tmp_path):
    import os
    import pty
    env = dict(os.environ, MO_PROGRESS_DELAY='0')
    plain = subprocess.run([sys.executable, '-m', 'mo', '--input_model', EXAMPLE, '--output_dir', str(tmp_path)],
                           capture_output=True, text=True, cwd=str(ROOT), env=env)
    assert plain.returncode == 0 and '[ mo ]' not in plain.stderr  # a log gets no progress unless asked
    asked = subprocess.run([sys.executable, '-m', 'mo', '--input_model', EXAMPLE, '--output_dir', str(tmp_path),
                            '--progress'], capture_output=True, text=True, cwd=str(ROOT), env=env)
    phases = [line.split('% ')[1].split()[0] for line in asked.stderr.splitlines() if line.startswith('[ mo ]') and '%' in line]
    assert asked.returncode == 0 and phases == ['load', 'front', 'middle', 'back'], asked.stderr
    assert '[ mo ] writing the IR' in asked.stderr and '[ SUCCESS ]' in asked.stdout
    leader, follower = pty.openpty()
    on_terminal = subprocess.run([sys.executable, '-m', 'mo', '--input_model', EXAMPLE, '--output_dir', str(tmp_path)],
                                 stdout=subprocess.PIPE, stderr=follower, cwd=str(ROOT), env=env)
    os.close(follower)
    shown = b''
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert on_terminal.returncode == 0
    assert shown.count(b'\r[ mo ]') >= 2 and shown.endswith(b'\r\n')  # one line, rewritten, ended once
    silent = subprocess.run([sys.executable, '-m', 'mo', '--input_model', EXAMPLE, '--output_dir', str(tmp_path),
                             '--progress', '--silent'], capture_output=True, text=True, cwd=str(ROOT), env=env)
    assert silent.returncode == 0 and silent.stderr == '' and silent.stdout == ''
