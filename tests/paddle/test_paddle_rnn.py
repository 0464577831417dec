"""Paddle's ``rnn`` op (LSTM, GRU, simple RNN with tanh and relu) against Paddle Inference: one to three layers,
forward and bidirectional, batch- and time-major, initial states, sequence lengths, a dynamic batch.

PIR programs are exported at test time. Paddle 3.3 cannot export the op to the classic format ("Unknown place
type"), so the classic cases are fixtures ``paddle_export.py`` wrote with Paddle 2.6 (``fixtures/ops_p26``,
see ``tools/make_paddle_op_fixtures.py``), Paddle 2.6's outputs beside them."""
import os

import pytest

from tests.paddle.cases_rnn import CASES
from tests.paddle.op_check import HERE, check_case, export_cases

FIXTURES = os.path.join(HERE, 'fixtures', 'ops_p26')
CLASSIC = sorted(name[:-len('.pdmodel')] for name in os.listdir(FIXTURES) if name.endswith('.pdmodel')
                 and name[:-len('.pdmodel')] in CASES) if os.path.isdir(FIXTURES) else []


@pytest.fixture(scope='module')
def exported(tmp_path_factory):
    return export_cases('cases_rnn', 'pir', str(tmp_path_factory.mktemp('rnn_pir')))


@pytest.mark.parametrize('case', sorted(CASES))
def test_rnn_pir(exported, case, tmp_path):
    check_case(exported, case, 'pir', tmp_path)


@pytest.mark.parametrize('case', CLASSIC)
def test_rnn_classic(case, tmp_path):
    check_case(FIXTURES, case, 'classic', tmp_path)
