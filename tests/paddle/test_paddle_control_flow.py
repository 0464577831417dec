"""Paddle's control flow against Paddle Inference: ``if``/``else`` on a tensor (a branch with its own weights,
two outputs, either branch taken) and ``while`` (a data-dependent count, zero iterations, a loop inside an
``if``), through ``paddle.jit.to_static``.

PIR programs (``if``/``while`` regions) are exported at test time; the classic ones (``conditional_block`` +
``select_input``, ``while`` sub-blocks) are Paddle 2.6 fixtures (``fixtures/ops_p26``, written by
``tools/make_paddle_op_fixtures.py``): Paddle 3.3's classic export fails on control flow."""
import os

import pytest

from tests.paddle.cases_control import CASES
from tests.paddle.op_check import HERE, check_case, export_cases

FIXTURES = os.path.join(HERE, 'fixtures', 'ops_p26')
CLASSIC = sorted(name[:-len('.pdmodel')] for name in os.listdir(FIXTURES) if name.endswith('.pdmodel')
                 and name[:-len('.pdmodel')] in CASES) if os.path.isdir(FIXTURES) else []


@pytest.fixture(scope='module')
def exported(tmp_path_factory):
    return export_cases('cases_control', 'pir', str(tmp_path_factory.mktemp('control_pir')))


@pytest.mark.parametrize('case', sorted(CASES))
def test_control_flow_pir(exported, case, tmp_path):
    check_case(exported, case, 'pir', tmp_path)


@pytest.mark.parametrize('case', CLASSIC)
def test_control_flow_classic(case, tmp_path):
    check_case(FIXTURES, case, 'classic', tmp_path)
