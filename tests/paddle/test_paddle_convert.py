"""Paddle models convert and compute what Paddle Inference computes (1e-4 relative): models built by
``paddle_models.py`` in a child process, exported in Paddle 3's PIR format (and the classic one), plus the
committed fixtures written by Paddle 2.6."""
import os

import pytest

from tests.paddle.convert_support import FIXTURES, assert_close, convert, export, infer, reference, run_ir
from tests.paddle.convert_support import check_model

PIR_MODELS = ['misc', 'mish_pattern', 'eltwise', 'dtypes', 'convs', 'pools', 'norms', 'activations', 'shapes',
              'indexing', 'reductions', 'resnet18', 'mobilenet_v3_small', 'encoder']


@pytest.fixture(scope='module')
def pir_dir(tmp_path_factory):
    return export(tmp_path_factory.mktemp('pir_models'), 'pir', PIR_MODELS)


@pytest.mark.parametrize('name', PIR_MODELS)
def test_pir_model_matches_paddle(pir_dir, name, tmp_path):
    check_model(pir_dir, name, tmp_path)


#: the models Paddle 3.3's classic exporter (FLAGS_enable_pir_api=0) writes; it fails on the others ("must be
#: Value, but got Variable"), whose classic forms are Paddle 2.6's in fixtures/p26_ops
CLASSIC_MODELS = ['convs', 'pools', 'norms', 'mobilenet_v3_small']


@pytest.fixture(scope='module')
def classic_dir(tmp_path_factory):
    return export(tmp_path_factory.mktemp('classic_models'), 'classic', CLASSIC_MODELS)


@pytest.mark.parametrize('name', CLASSIC_MODELS)
def test_classic_model_from_paddle3_matches_paddle(classic_dir, name, tmp_path):
    check_model(classic_dir, name, tmp_path)


def test_dynamic_height_and_width(pir_dir, tmp_path):
    """resnet18 with its batch, height and width left dynamic still computes Paddle's numbers."""
    result = check_model(pir_dir, 'resnet18', tmp_path, input='image[?,3,?,?]')
    assert [list(i.shape) for i in result.inputs] == [[-1, 3, -1, -1]]


def test_ir_inputs_and_outputs_carry_the_feed_and_fetch_names(pir_dir, tmp_path):
    result = check_model(pir_dir, 'eltwise', tmp_path)
    assert [i.name for i in result.inputs] == ['x', 'y']
    # PIR's fetch names (the IR orders its Results topologically, not in fetch order)
    assert sorted(o.name for o in result.outputs) == ['fetch_name_0', 'fetch_name_1', 'fetch_name_2']
    assert [list(i.shape) for i in result.inputs] == [[-1, 4], [-1, 4]]


def test_framework_neutral_fusions_match_paddle_graphs(pir_dir, tmp_path):
    """After the front phase the ops have mo's internal names, so the Mish fusion (written for TensorFlow and
    ONNX graphs) finds x * tanh(softplus(x)) in a Paddle model too."""
    result = check_model(pir_dir, 'mish_pattern', tmp_path)
    layers = result.xml_path.read_text()
    assert 'type="Mish"' in layers and 'type="Tanh"' not in layers


def test_an_extension_extractor_converts_an_op_mo_lacks(tmp_path):
    """A user's extractor in ``front/paddle/`` of an --extensions directory takes a Paddle op by its type."""
    import shutil
    model = tmp_path / 'net.json'
    with open(os.path.join(FIXTURES, 'p3_pir/net.json'), 'rb') as f:
        model.write_bytes(f.read().replace(b'"1.relu"', b'"1.frobnicate"'))
    shutil.copy(os.path.join(FIXTURES, 'p3_pir/net.pdiparams'), tmp_path / 'net.pdiparams')
    ext = tmp_path / 'ext' / 'front' / 'paddle'
    ext.mkdir(parents=True)
    (ext / 'frobnicate_ext.py').write_text(
        'from mo.front.extractor import FrontExtractorOp\n'
        'from mo.ops.activation_ops import ReLU\n\n\n'
        'class FrobnicateExtractor(FrontExtractorOp):\n'
        '    op = "frobnicate"\n\n'
        '    @classmethod\n'
        '    def extract(cls, node):\n'
        '        ReLU.update_node_stat(node, {})\n'
        '        return True\n')
    result = convert(str(model), tmp_path / 'ir', extensions=[str(tmp_path / 'ext')])
    assert 'type="ReLU"' in result.xml_path.read_text() or 'type="Relu"' in result.xml_path.read_text()


#: the committed fixtures that hold no control flow or recurrent op: path -> feeds
FIXTURE_FEEDS = {
    'p26/net.pdmodel': [['x', [2, 3, 8, 8], 'float32']],
    'p26/ib.pdmodel': [['a', [2, 4], 'int32'], ['b', [2, 4], 'bool']],
    'p26/mixed.pdmodel': [['x', [4, 3], 'float32']],
    'p26_dir/net': [['x', [2, 3, 8, 8], 'float32']],
    'p3_classic/net.pdmodel': [['x', [2, 3, 8, 8], 'float32']],
    'p3_pir/net.json': [['x', [2, 3, 8, 8], 'float32']],
    'p3_pir/ib.json': [['a', [2, 4], 'int32'], ['b', [2, 4], 'bool']],
    'p3_pir/mixed.json': [['x', [4, 3], 'float32']],
    # paddle_models.py's models exported by Paddle 2.6: the classic op names and attributes (elementwise_* with
    # axis, reshape2, matmul_v2, fill_constant, lookup_table_v2, ...)
    'p26_ops/eltwise.pdmodel': [['x', [3, 4], 'float32'], ['y', [3, 4], 'float32']],
    'p26_ops/activations.pdmodel': [['x', [2, 3, 4, 5], 'float32']],
    'p26_ops/shapes.pdmodel': [['x', [2, 4, 5, 6], 'float32']],
    'p26_ops/indexing.pdmodel': [['x', [4, 5], 'float32'], ['i', [2, 2], 'int64', 4]],
    'p26_ops/reductions.pdmodel': [['x', [2, 3, 3], 'float32'], ['y', [2, 3, 3], 'float32']],
    'p26_ops/encoder.pdmodel': [['src', [2, 7, 32], 'float32']],
}


@pytest.fixture(scope='module')
def fixture_refs(tmp_path_factory):
    plan = {os.path.join(FIXTURES, path): feeds for path, feeds in FIXTURE_FEEDS.items()}
    return infer(tmp_path_factory.mktemp('fixture_refs'), plan)


@pytest.mark.parametrize('path', sorted(FIXTURE_FEEDS))
def test_fixture_matches_paddle(fixture_refs, path, tmp_path):
    """Programs written by Paddle 2.6 (classic, a Paddle 1.x directory) and Paddle 3 (both formats)."""
    full = os.path.join(FIXTURES, path)
    result = convert(full, tmp_path / 'ir')
    tag = os.path.basename(os.path.dirname(full)) + '_' + os.path.splitext(os.path.basename(full))[0]
    inputs, expected = reference(fixture_refs, tag)
    assert_close(run_ir(result.xml_path, inputs), expected, path)
