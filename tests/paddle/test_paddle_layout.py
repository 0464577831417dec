"""Channels-last (``data_format='NHWC'``) convolutions, transposed convolutions and pools against Paddle
Inference, both formats (``cases_layout.py``)."""
import pytest

from tests.paddle.cases_layout import CASES
from tests.paddle.op_check import FORMATS, check_case, export_cases


@pytest.fixture(scope='module', params=FORMATS)
def exported(request, tmp_path_factory):
    fmt = request.param
    return fmt, export_cases('cases_layout', fmt, str(tmp_path_factory.mktemp('layout_' + fmt)))


@pytest.mark.parametrize('case', sorted(CASES))
def test_channels_last(exported, case, tmp_path):
    fmt, out_dir = exported
    check_case(out_dir, case, fmt, tmp_path)
