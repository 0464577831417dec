"""``MO_TIMING=1``: ``mo convert`` says on stderr where its time went; without the variable it says nothing."""
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / 'examples' / 'small_cnn.pb'
sys.path.insert(0, str(ROOT / 'tools'))
import bench_breakdown  # noqa: E402


def _convert(tmp_path, **env):
    environ = {k: v for k, v in os.environ.items() if k != 'MO_TIMING'}
    environ.update(env)
    start = time.time()
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(MODEL), '--output_dir',
                           str(tmp_path), '--model_name', 'm'], capture_output=True, text=True, cwd=str(ROOT),
                          env=environ, check=True)
    return proc, start, time.time() - start


def test_mo_timing_gives_each_phase_of_the_process(tmp_path):
    proc, start, seconds = _convert(tmp_path, MO_TIMING='1')
    lines = [line for line in proc.stderr.splitlines() if line.startswith('[ TIMING ]')]
    assert len(lines) == 1
    phases = bench_breakdown.parse_timing(proc.stderr, start, seconds)
    assert set(phases) == set(bench_breakdown.PHASES)
    assert all(phases[name] >= 0 for name in bench_breakdown.PHASES), phases


def test_without_mo_timing_nothing_is_printed(tmp_path):
    proc, _, _ = _convert(tmp_path)
    assert '[ TIMING ]' not in proc.stderr + proc.stdout
