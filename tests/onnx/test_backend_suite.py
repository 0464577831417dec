"""The ONNX backend test suite (node, simple, pytorch-converted and pytorch-operator sets), each case converted
by mo, run by OpenVINO and compared with the case's expected outputs (``backend_suite.py``).

Out-of-scope cases are skipped with their reason (``backend_exclusions.py``); in-scope cases mo does not convert
right yet are strict expected failures (``backend_known_failures.py``), so a regression and a fix both show.
"""
import pytest

pytest.importorskip('onnx')

from tests.onnx.backend_exclusions import exclusion_reason  # noqa: E402
from tests.onnx.backend_known_failures import KNOWN_FAILURES  # noqa: E402
from tests.onnx.backend_suite import _model, load_cases, run_case  # noqa: E402

CASES = load_cases()


def _params():
    for name in sorted(CASES):
        reason = exclusion_reason(name, _model(CASES[name]))
        marks = [pytest.mark.skip(reason='out of scope: ' + reason)] if reason else []
        if not reason and name in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[name]))
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize('name', list(_params()))
def test_backend_case(name, tmp_path):
    run_case(CASES[name], str(tmp_path))


def test_known_failures_are_cases_of_the_suite():
    assert not sorted(set(KNOWN_FAILURES) - set(CASES))
