"""The pipeline's layout: folder = phase, and an order that does not hang on class names.

Every built-in step lives in the ``extensions/<phase>/`` folder of the phase it runs in (framework
steps and anchors live in ``mo/``), every one is placed by ``extensions/pipeline_order.py``, and
converting the pinned corpus with the tie-break between classes shuffled gives the same IR bytes.
"""
import json
import os
import subprocess
import sys

import pytest

from mo.utils.class_registration import SHUFFLE_TIE_BREAK_ENV, full_name, is_builtin, pipeline
from mo.utils.import_extensions import load_builtin

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope='module')
def steps():
    load_builtin(with_transforms=False)
    return [info for info in pipeline() if is_builtin(info.cls)]


def test_every_builtin_step_lives_in_the_folder_of_its_phase(steps):
    misplaced = []
    for info in steps:
        module = info.cls.__module__
        if module.startswith('mo.'):  # framework steps: anchors, inference
            continue
        if not module.startswith('extensions.{}.'.format(info.cls.phase)):
            misplaced.append('{} runs in phase {}'.format(full_name(info.cls), info.cls.phase))
    assert not misplaced, misplaced


#: phase -> the anchors its steps run between (None: the pipeline's start)
_WINDOWS = {'load': (None, 'LoadFinish'), 'front': ('FrontStart', 'FrontFinish'),
            'middle': ('PreMiddleStart', 'MiddleFinish'), 'back': ('BackStart', 'BackFinish')}


def test_every_builtin_step_runs_between_the_anchors_of_its_phase(steps):
    """The config-driven replacers first in the front phase, FusedBatchNormToScaleShift last in it,
    FinalConstantFolding last in the back phase: inside their phases, not beside them."""
    position = {info.cls.__name__: k for k, info in enumerate(steps) if info.cls.__module__ == 'mo.utils.anchors'}
    outside = []
    for k, info in enumerate(steps):
        if not info.cls.__module__.startswith('extensions.'):
            continue
        start, finish = _WINDOWS[info.cls.phase]
        if not (start is None or position[start] < k) or not k < position[finish]:
            outside.append('{} ({})'.format(full_name(info.cls), info.cls.phase))
    assert not outside, outside


def test_every_builtin_step_is_placed_by_the_declared_order(steps):
    from extensions import pipeline_order
    declared = set(pipeline_order.LOAD + pipeline_order.FRONT + pipeline_order.MIDDLE + pipeline_order.BACK)
    names = {full_name(info.cls) for info in steps}
    assert not sorted(names - declared), 'steps missing from extensions/pipeline_order.py'
    assert not sorted(declared - names), 'extensions/pipeline_order.py names classes that do not exist'


def _order(seed):
    env = dict(os.environ, **{SHUFFLE_TIE_BREAK_ENV: seed})
    run = subprocess.run([sys.executable, '-m', 'mo', 'transforms', '--json'], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return [row['class'] for row in json.loads(run.stdout)]


def test_shuffled_tie_break_keeps_the_pipeline_order():
    assert _order('') == _order('one') == _order('two')


def test_shuffled_tie_break_keeps_every_pinned_ir_byte_identical():
    env = dict(os.environ, **{SHUFFLE_TIE_BREAK_ENV: 'shuffled'})
    run = subprocess.run([sys.executable, '-m', 'tests.support.ir_pins', '--check'], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_two_builtin_op_classes_cannot_claim_one_op_but_a_users_class_takes_over(caplog):
    import logging
    import types
    from mo.ops.const import Const  # noqa: F401 - registers the built-in Const
    from mo.ops.op import Op
    original = Op.registered_ops['Const']
    builtin_module = types.ModuleType('extensions.ops.duplicate_const')
    with pytest.raises(TypeError, match='both register op "Const"'):
        type('DuplicateConst', (Op,), {'op': 'Const', '__module__': builtin_module.__name__})
    try:
        with caplog.at_level(logging.INFO):
            users = type('UsersConst', (Op,), {'op': 'Const', '__module__': 'my_extensions.ops.const'})
        assert Op.registered_ops['Const'] is users and 'takes over op "Const"' in caplog.text
    finally:
        Op.registered_ops['Const'] = original
