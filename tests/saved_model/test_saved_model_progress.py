"""The progress line while a step runs long (reading a big SavedModel is one step): on a terminal, it shows
within two seconds of the start which step runs and what it says it is doing. A load step of an extension
stands in for a slow read (a sleep, and ``progress.detail`` as the SavedModel reader uses it)."""
import os
import re
import select
import subprocess
import sys
import time

import pytest

from tests.saved_model import builders
from tests.saved_model.conftest import ROOT

SLOW_STEP = '''
import time

from extensions.load.tf.loader import TFLoader
from mo.front.loader_replacement import LoadReplacementPattern
from mo.pipeline import progress


class SlowLoadStep(LoadReplacementPattern):
    """Runs before the reader for {seconds} s, saying what it does."""
    enabled = True

    def run_before(self):
        return [TFLoader]

    def find_and_replace_pattern(self, graph):
        progress.detail('reading a huge model')
        time.sleep({seconds})
'''


@pytest.fixture(scope='module')
def saved_model(tmp_path_factory):
    return builders.keras_cnn(tmp_path_factory.mktemp('progress') / 'keras_cnn')


def _extension(tmp_path, seconds):
    directory = tmp_path / 'ext'
    (directory / 'load').mkdir(parents=True)
    (directory / 'load' / 'slow_step.py').write_text(SLOW_STEP.format(seconds=seconds))
    return directory


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''), **extra)
    env.pop('MO_PROGRESS_DELAY', None)
    env.update(extra)
    return env


def _on_a_terminal(args, env):
    """Run mo with stderr on a pseudo-terminal: ``(exit code, [(seconds since the start, text)])``, one
    entry per drawing of the rewritten line."""
    import pty
    leader, follower = pty.openpty()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, '-m', 'mo'] + [str(a) for a in args], stdout=subprocess.PIPE,
                            stderr=follower, cwd=ROOT, env=env)
    os.close(follower)
    drawn, pending = [], b''
    while True:
        ready, _, _ = select.select([leader], [], [], 0.05)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:   # the terminal's other end is closed: the process is done
            break
        if not chunk:
            break
        now = time.perf_counter() - start
        pending += chunk
        *complete, pending = re.split(rb'[\r\n]', pending)
        drawn += [(now, part.decode().strip()) for part in complete if part.strip()]
    os.close(leader)
    proc.stdout.read()
    return proc.wait(timeout=60), drawn


def test_a_long_load_step_shows_on_the_terminal_within_two_seconds(saved_model, tmp_path):
    code, drawn = _on_a_terminal(['convert', '--input_model', saved_model, '--output_dir', tmp_path / 'out',
                                  '--extensions', _extension(tmp_path, 3)], _env())
    assert code == 0, drawn
    lines = [text for _, text in drawn if text.startswith('[ mo ]')]
    assert lines, drawn
    first = lines[0]
    # drawn by the timer while the step runs: the step running, what it says, no step after it done yet
    assert re.match(r'\[ mo \]\s+\d+% load phase: SlowLoadStep, reading a huge model \(\d+/\d+ steps, [\d.]+ s\)$',
                    first), first
    assert float(re.search(r'([\d.]+) s\)$', first).group(1)) <= 2.0, first
    # redrawn while the step runs (every half second), then the steps after it
    assert sum('SlowLoadStep, reading a huge model' in line for line in lines) >= 3, lines
    assert any('100%' in line for line in lines), lines


def test_a_log_gets_the_load_phase_line_when_asked(saved_model, tmp_path):
    """Not a terminal, ``--progress``: one line per phase, the load phase's drawn while its long step runs."""
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(saved_model), '--output_dir',
                           str(tmp_path / 'out'), '--extensions', str(_extension(tmp_path, 2.5)), '--progress'],
                          capture_output=True, text=True, cwd=ROOT, env=_env())
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith('[ mo ]') and '%' in line]
    assert 'load phase: SlowLoadStep, reading a huge model' in lines[0], lines
    assert [line.split('% ')[1].split()[0] for line in lines] == ['load', 'front', 'middle', 'back'], lines
    assert '\r' not in proc.stderr


def test_silent_shows_no_progress_even_when_a_step_runs_long(saved_model, tmp_path):
    code, drawn = _on_a_terminal(['convert', '--input_model', saved_model, '--output_dir', tmp_path / 'out',
                                  '--silent', '--extensions', _extension(tmp_path, 2)], _env())
    assert code == 0 and not [text for _, text in drawn if text.startswith('[ mo ]')], drawn
