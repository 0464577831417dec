"""Paddle's eye, linspace, atan2 and scatter_nd_add (ops OpenVINO's Paddle front end maps) against Paddle
Inference, both formats (``cases_more.py``)."""
import pytest

from tests.paddle.cases_more import CASES
from tests.paddle.op_check import FORMATS, check_case, export_cases


@pytest.fixture(scope='module', params=FORMATS)
def exported(request, tmp_path_factory):
    fmt = request.param
    return fmt, export_cases('cases_more', fmt, str(tmp_path_factory.mktemp('more_' + fmt)))


@pytest.mark.parametrize('case', sorted(CASES))
def test_more_op(exported, case, tmp_path):
    fmt, out_dir = exported
    check_case(out_dir, case, fmt, tmp_path)
