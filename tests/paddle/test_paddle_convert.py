"""Paddle models convert and compute what Paddle Inference computes (1e-4 relative): models built by
``paddle_models.py`` in a child process, exported in Paddle 3's PIR format (and the classic one), plus the
committed fixtures written by Paddle 2.6."""
import pytest

from tests.paddle.convert_support import check_model, export

PIR_MODELS = ['eltwise', 'convs', 'pools', 'norms', 'activations', 'shapes', 'indexing', 'reductions',
              'resnet18', 'mobilenet_v3_small', 'encoder']


@pytest.fixture(scope='module')
def pir_dir(tmp_path_factory):
    return export(tmp_path_factory.mktemp('pir_models'), 'pir', PIR_MODELS)


@pytest.mark.parametrize('name', PIR_MODELS)
def test_pir_model_matches_paddle(pir_dir, name, tmp_path):
    check_model(pir_dir, name, tmp_path)


def test_ir_inputs_and_outputs_carry_the_feed_and_fetch_names(pir_dir, tmp_path):
    result = check_model(pir_dir, 'eltwise', tmp_path)
    assert [i.name for i in result.inputs] == ['x', 'y']
    # PIR's fetch names (the IR orders its Results topologically, not in fetch order)
    assert sorted(o.name for o in result.outputs) == ['fetch_name_0', 'fetch_name_1', 'fetch_name_2']
    assert [list(i.shape) for i in result.inputs] == [[-1, 4], [-1, 4]]
