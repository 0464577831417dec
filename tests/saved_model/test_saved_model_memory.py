"""Peak memory of converting a SavedModel follows its largest variable, not the sum of them."""
import os
import subprocess
import sys

import numpy as np

from tests.saved_model.conftest import ROOT


def _save(directory, count, size):
    import tensorflow as tf

    class Stack(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(15)
            self.weights = [tf.Variable((rng.standard_normal((size, size)) / size).astype(np.float32))
                            for _ in range(count)]

        @tf.function(input_signature=[tf.TensorSpec([None, size], tf.float32, name='x')])
        def serve(self, x):
            for w in self.weights:
                x = tf.tanh(tf.matmul(x, w))
            return {'y': x}

    module = Stack()
    tf.saved_model.save(module, str(directory), signatures={'serving_default': module.serve})
    return directory


_MEASURED_RUN = """
import sys
from mo.main import main
code = main(sys.argv[1:])
# VmHWM: the peak RSS of this process since its exec (ru_maxrss would carry over the forking
# test process's size)
peak = [line for line in open('/proc/self/status') if line.startswith('VmHWM:')][0].split()[1]
print('PEAK_KIB', peak)
sys.exit(code)
"""


def _peak_mib(*args) -> float:
    """Peak RSS of one ``mo`` process running ``args``."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-c', _MEASURED_RUN] + [str(a) for a in args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout.split('PEAK_KIB')[1].split()[0]) / 1024.0


def test_peak_memory_near_the_largest_variable(tmp_path):
    """8 variables of 16 MiB (128 MiB of weights): the conversion needs little more than one of
    them above what a tiny model needs, and the .bin holds all of them."""
    small = _save(tmp_path / 'small', 8, 32)
    big = _save(tmp_path / 'big', 8, 2048)
    baseline = _peak_mib('convert', '--input_model', small, '--output_dir', tmp_path / 'a')
    peak = _peak_mib('convert', '--input_model', big, '--output_dir', tmp_path / 'b', '--model_name', 'big')
    assert os.path.getsize(tmp_path / 'b' / 'big.bin') >= 8 * 16 * 2 ** 20
    assert peak - baseline < 64, (peak, baseline)  # the weights' sum is 128 MiB
