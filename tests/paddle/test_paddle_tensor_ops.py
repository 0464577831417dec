"""Paddle's set_value (slice assignment through ``paddle.jit.to_static``) and nonzero (branch ``paddle``'s rule)
against Paddle Inference, both formats: a scalar and a tensor value, steps, negative bounds, a dropped axis,
bounds computed from the input's shape."""
import pytest

from tests.paddle.cases_tensor import CASES
from tests.paddle.op_check import FORMATS, check_case, export_cases


@pytest.fixture(scope='module', params=FORMATS)
def exported(request, tmp_path_factory):
    fmt = request.param
    return fmt, export_cases('cases_tensor', fmt, str(tmp_path_factory.mktemp('tensor_' + fmt)))


@pytest.mark.parametrize('case', sorted(CASES))
def test_tensor_op(exported, case, tmp_path):
    fmt, out_dir = exported
    check_case(out_dir, case, fmt, tmp_path)
