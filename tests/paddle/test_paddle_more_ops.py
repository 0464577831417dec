"""Paddle's eye, linspace, atan2, scatter_nd_add, grid_sample, unique and reverse (ops OpenVINO's Paddle front end maps)
against Paddle Inference, both formats (``cases_more.py``); the classic grid_sampler programs are Paddle 2.6's
(``fixtures/ops_p26``), checked against Paddle 2.6 Inference's outputs stored beside them."""
import os
import shutil

import pytest

from tests.paddle.cases_more import CASES, CLASSIC_FROM_P26
from tests.paddle.convert_support import rename_ops
from tests.paddle.op_check import FORMATS, HERE, check_case, export_cases


@pytest.fixture(scope='module')
def exports(tmp_path_factory):
    """format -> the directory of the cases exported in it (each format exported once, when first asked)."""
    done = {}

    def get(fmt):
        if fmt not in done:
            done[fmt] = export_cases('cases_more', fmt, str(tmp_path_factory.mktemp('more_' + fmt)))
        return done[fmt]
    return get


@pytest.mark.parametrize('fmt', FORMATS)
@pytest.mark.parametrize('case', sorted(CASES))
def test_more_op(exports, fmt, case, tmp_path):
    out_dir = exports(fmt)
    if fmt == 'classic' and case in CLASSIC_FROM_P26:
        out_dir = os.path.join(HERE, 'fixtures', 'ops_p26')
    check_case(out_dir, case, fmt, tmp_path)


def test_reverse_is_flip(exports, tmp_path):
    """Older Paddles wrote ``reverse`` for what is now ``flip`` (same ``axis`` attribute): the flip case's classic
    program with its op renamed computes what Paddle computed for the flip."""
    classic = exports('classic')
    renamed = rename_ops(tmp_path / 'renamed', os.path.join(classic, 'flip_for_reverse.pdmodel'), ['flip:reverse'])
    for suffix in ('.feeds.npz', '.outputs.npz', '.outputs.txt'):
        shutil.copy(os.path.join(classic, 'flip_for_reverse' + suffix), renamed)
    with open(os.path.join(renamed, 'flip_for_reverse.pdmodel'), 'rb') as f:
        assert b'reverse' in f.read()
    check_case(renamed, 'flip_for_reverse', 'classic', tmp_path / 'ir')


def test_fill_constant_batch_size_like(tmp_path):
    """Paddle 1.x's fill_constant_batch_size_like (a Paddle 2.6 program of the op itself, ``fixtures/ops_p26``):
    the batch taken from the input's first and second dimension, both left dynamic so that it is read at run time."""
    check_case(os.path.join(HERE, 'fixtures', 'ops_p26'), 'fill_constant_batch_size_like', 'classic', tmp_path,
               input='x[?,?]')


def test_quantize_and_dequantize_linear(tmp_path):
    """PaddleSlim's quantize_linear and dequantize_linear (a Paddle 2.6 program of the ops, ``fixtures/ops_p26``):
    8 and 4 bits, per tensor and per channel, both rounding types."""
    check_case(os.path.join(HERE, 'fixtures', 'ops_p26'), 'quantize_linear', 'classic', tmp_path)
