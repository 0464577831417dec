"""Paddle's eye, linspace, atan2, scatter_nd_add and grid_sample (ops OpenVINO's Paddle front end maps) against
Paddle Inference, both formats (``cases_more.py``); the classic grid_sampler programs are Paddle 2.6's
(``fixtures/ops_p26``), checked against Paddle 2.6 Inference's outputs stored beside them."""
import os

import pytest

from tests.paddle.cases_more import CASES, CLASSIC_FROM_P26
from tests.paddle.op_check import FORMATS, HERE, check_case, export_cases


@pytest.fixture(scope='module', params=FORMATS)
def exported(request, tmp_path_factory):
    fmt = request.param
    return fmt, export_cases('cases_more', fmt, str(tmp_path_factory.mktemp('more_' + fmt)))


@pytest.mark.parametrize('case', sorted(CASES))
def test_more_op(exported, case, tmp_path):
    fmt, out_dir = exported
    if fmt == 'classic' and case in CLASSIC_FROM_P26:
        out_dir = os.path.join(HERE, 'fixtures', 'ops_p26')
    check_case(out_dir, case, fmt, tmp_path)
