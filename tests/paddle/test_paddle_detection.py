"""Paddle's detection ops against Paddle Inference, both formats: yolo_box, box_coder, roi_align,
deformable_conv(_v1) (``cases_detection.py``), prior_box, multiclass_nms3, matrix_nms, generate_proposals
(``cases_nms.py``), their attributes varied."""
import os

import pytest

from tests.paddle import cases_detection, cases_nms
from tests.paddle.op_check import FORMATS, HERE, check_case, export_cases

MODULES = {'cases_detection': cases_detection.CASES, 'cases_nms': cases_nms.CASES}


@pytest.fixture(scope='module', params=FORMATS)
def exported(request, tmp_path_factory):
    fmt = request.param
    return fmt, {module: export_cases(module, fmt, str(tmp_path_factory.mktemp('{}_{}'.format(module, fmt))))
                 for module in MODULES}


@pytest.mark.parametrize('module,case', [(m, c) for m, cases in MODULES.items() for c in sorted(cases)])
def test_detection(exported, module, case, tmp_path):
    fmt, dirs = exported
    check_case(dirs[module], case, fmt, tmp_path)


def test_density_prior_box_classic(tmp_path):
    """density_prior_box (no Python API in Paddle 3): a Paddle 2.6 fixture of three ops (given steps, steps from
    the sizes with clip, unequal steps with flatten_to_2d; ``tools/make_paddle_op_fixtures.py``)."""
    check_case(os.path.join(HERE, 'fixtures', 'ops_p26'), 'density_prior_box', 'classic', tmp_path)


@pytest.mark.parametrize('case', sorted(cases_nms.CASES_P26))
def test_detection_classic_p26(case, tmp_path):
    """The classic multiclass_nms and multiclass_nms2, which only Paddle 2.6 writes (``fixtures/ops_p26``)."""
    check_case(os.path.join(HERE, 'fixtures', 'ops_p26'), case, 'classic', tmp_path)
