"""Paddle's tensor arrays against Paddle Inference: a ``while`` loop appending to a list (one and two lists, a
recurrent decoder of a fed length, a single iteration), the list stacked or concatenated on several axes, its
length, elements and a slice read after the loop; an array written at constant indexes outside loops (append,
overwrite); a list read inside the loop that appends to it, or filled before it, and a write outside loops at an
index computed at run time are each one clear error.

PIR programs (``create_array``/``array_write_``/``array_length``/``array_to_tensor``/``slice_array_dense``) are
exported at test time; the classic ones (``write_to_array``/``lod_array_length``/``tensor_array_to_tensor``/
``read_from_array``) are Paddle 2.6 fixtures (``fixtures/ops_p26``, written by ``tools/make_paddle_op_fixtures.py``):
Paddle 3.3's classic export fails on control flow."""
import os
import subprocess
import sys

import pytest

from tests.paddle.cases_array import CASES, CASES_REFUSED, PIR_ONLY
from tests.paddle.op_check import HERE, check_case, export_cases

FIXTURES = os.path.join(HERE, 'fixtures', 'ops_p26')
CLASSIC = sorted(name[:-len('.pdmodel')] for name in os.listdir(FIXTURES) if name.endswith('.pdmodel')
                 and name[:-len('.pdmodel')] in CASES) if os.path.isdir(FIXTURES) else []
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope='module')
def exported(tmp_path_factory):
    return export_cases('cases_array', 'pir', str(tmp_path_factory.mktemp('array_pir')))


@pytest.mark.parametrize('case', sorted(CASES))
def test_arrays_pir(exported, case, tmp_path):
    check_case(exported, case, 'pir', tmp_path)


def test_classic_fixtures_cover_every_case():
    assert CLASSIC == sorted(set(CASES) - PIR_ONLY)


@pytest.mark.parametrize('case', CLASSIC)
def test_arrays_classic(case, tmp_path):
    check_case(FIXTURES, case, 'classic', tmp_path)


@pytest.fixture(scope='module')
def refused(tmp_path_factory):
    out = str(tmp_path_factory.mktemp('array_refused'))
    subprocess.run([sys.executable, os.path.join(HERE, 'paddle_export.py'), 'pir', out, 'cases_array'] +
                   sorted(CASES_REFUSED), env=dict(os.environ, PYTHONPATH=HERE), capture_output=True, check=True,
                   timeout=600)
    return out


@pytest.mark.parametrize('case, words', [('array_read_in_loop', ('reads tensor array', 'inside the loop')),
                                         ('array_filled_before_loop', ('used before the loop', 'from empty')),
                                         ('array_computed_index', ('index is computed at run time',))])
def test_unconverted_array_use_is_one_error(refused, case, words, tmp_path):
    """Arrays mo does not make a scan of (PIR: Paddle 2.6 refuses to export the first one)."""
    ir_dir = tmp_path / 'ir'
    done = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model',
                           os.path.join(refused, case + '.json'), '--output_dir', str(ir_dir)],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    errors = [line for line in done.stderr.splitlines() if line.startswith('[ ERROR ]')]
    assert done.returncode != 0 and len(errors) == 1, done.stderr
    assert all(word in errors[0] for word in words), errors
    assert 'Traceback' not in done.stderr
    assert not (ir_dir.exists() and any(name.endswith('.xml') for name in os.listdir(ir_dir)))
