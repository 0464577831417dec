"""Every registered op case: convert with mo, run in OpenVINO, compare with TensorFlow.

``test_every_extractor_has_a_case`` keeps the harness honest: each TF op type that a built-in
extractor claims must occur in the frozen graph of at least one case.
"""
import pytest

from tests.ops.harness import all_cases, graph_op_types, run_case

tf = pytest.importorskip('tensorflow')

CASES = all_cases()


def _params():
    for name in sorted(CASES):
        case = CASES[name]
        marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize('name', list(_params()))
def test_op_case_matches_tensorflow(name, tmp_path):
    run_case(CASES[name], str(tmp_path))


def test_every_extractor_has_a_case():
    from mo.front.extractor import FrontExtractorOp
    from mo.utils.class_registration import is_builtin
    claimed = {op for op, cls in FrontExtractorOp.registry.get('tf', {}).items() if is_builtin(cls)}
    seen = set()
    for case in CASES.values():
        seen |= graph_op_types(case)
    missing = sorted(claimed - seen)
    assert not missing, 'TF ops with an extractor but no harness case: %s' % ', '.join(missing)
