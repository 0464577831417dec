"""Paddle's interpolate ops (nearest/bilinear/bicubic/linear/trilinear_interp, classic ``_v2`` and PIR) against
Paddle Inference: every mode with align_corners/align_mode, scales and sizes from attributes, a SizeTensor
list, an OutSize tensor and a Scale tensor, NCHW and NHWC."""
import os

import pytest

from tests.paddle.cases_interp import CASES
from tests.paddle.op_check import FORMATS, HERE, check_case, export_cases


@pytest.fixture(scope='module', params=FORMATS)
def exported(request, tmp_path_factory):
    fmt = request.param
    return fmt, export_cases('cases_interp', fmt, str(tmp_path_factory.mktemp('interp_' + fmt)))


@pytest.mark.parametrize('case', sorted(CASES))
def test_interpolate(exported, case, tmp_path):
    fmt, out_dir = exported
    check_case(out_dir, case, fmt, tmp_path)


def test_interpolate_v1_classic(tmp_path):
    """The classic ops before ``_v2`` (one float scale, the ratio in / out): a Paddle 2.6 fixture
    (``tools/make_paddle_op_fixtures.py``), Paddle's executor the reference."""
    check_case(os.path.join(HERE, 'fixtures', 'ops_p26'), 'interp_v1', 'classic', tmp_path)
