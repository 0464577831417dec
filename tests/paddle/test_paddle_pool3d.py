"""Paddle's 3-D pools (pool3d, max_pool3d_with_index with its Mask) and the Masks of max_pool2d_with_index
(``cases_pool3d.py``) against Paddle Inference in both formats; partial_concat and partial_sum (Paddle 2.6's
program of the ops, ``fixtures/ops_p26``) against Paddle 2.6 Inference's outputs stored beside it."""
import os
import subprocess
import sys

import pytest

from tests.paddle.cases_pool3d import CASES
from tests.paddle.op_check import FORMATS, HERE, check_case, export_cases

P26 = os.path.join(HERE, 'fixtures', 'ops_p26')
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope='module')
def exports(tmp_path_factory):
    """format -> the directory of the cases exported in it (each format exported once, when first asked)."""
    done = {}

    def get(fmt):
        if fmt not in done:
            done[fmt] = export_cases('cases_pool3d', fmt, str(tmp_path_factory.mktemp('pool3d_' + fmt)))
        return done[fmt]
    return get


@pytest.mark.parametrize('fmt', FORMATS)
@pytest.mark.parametrize('case', sorted(CASES))
def test_pool(exports, fmt, case, tmp_path):
    check_case(exports(fmt), case, fmt, tmp_path)


def test_partial_concat_and_sum(tmp_path):
    """Columns [start_index, start_index + length) of each input, concatenated (a negative start counted from the
    end) or summed; length -1 to the end."""
    check_case(P26, 'partial_ops', 'classic', tmp_path)


def test_partial_sum_negative_start_is_an_error(tmp_path):
    """partial_sum with a negative start_index (Paddle's kernel reads outside its inputs then): one error line
    naming the op, nothing written."""
    out = tmp_path / 'out'
    done = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model',
                           os.path.join(P26, 'partial_sum_negative_start.pdmodel'), '--output_dir', str(out)],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    errors = [line for line in done.stderr.splitlines() if line.startswith('[ ERROR ]')]
    assert done.returncode != 0 and errors, done.stderr
    assert 'partial_sum' in errors[0] and 'start_index -2' in errors[0], errors
    assert 'Traceback' not in done.stderr
    assert not (out.exists() and any(name.endswith(('.xml', '.bin')) for name in os.listdir(out)))
