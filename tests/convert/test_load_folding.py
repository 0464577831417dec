"""Load-phase constant folding: constant sub-graphs become Consts before extraction.

Every case converts a GraphDef built here, runs the IR in OpenVINO and compares with TensorFlow
running the original graph; the report and the IR tell what was folded.
"""
import json

import numpy as np
import pytest

from mo.utils.error import Error
from tests.convert.conftest import TOLERANCE, max_error

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')


def _graph_def(build) -> bytes:
    """A GraphDef built in a v1 graph by ``build()`` (which names the nodes it makes)."""
    graph = tf.Graph()
    with graph.as_default():
        build()
    return graph.as_graph_def().SerializeToString()


def _const(name, shape, seed, positive=False):
    value = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return tf.constant(np.abs(value) + 0.5 if positive else value, name=name)


def _batch_norm_after_matmul():
    """x @ w, then a batch norm decomposed as frozen Keras graphs have it, weights read through Identity."""
    x = tf.compat.v1.placeholder(tf.float32, [2, 4], name='x')
    w = tf.identity(_const('w', (4, 3), 1), name='w/read')
    variance = tf.identity(_const('variance', (3,), 2, positive=True), name='variance/read')
    gamma, beta, mean = _const('gamma', (3,), 3), _const('beta', (3,), 4), _const('mean', (3,), 5)
    scale = tf.multiply(tf.math.rsqrt(tf.add(variance, 1e-3, name='bn/add'), name='bn/rsqrt'), gamma, name='bn/scale')
    shift = tf.subtract(beta, tf.multiply(mean, scale, name='bn/mul_mean'), name='bn/shift')
    y = tf.add(tf.multiply(tf.matmul(x, w, name='matmul'), scale, name='bn/mul'), shift, name='bn/out')
    tf.identity(y, name='out')


def _convert(graph_def, tmp_path, name, **options):
    from mo.pipeline.convert import convert
    opts = dict(options, graph_def_bytes=graph_def, output_dir=str(tmp_path), model_name=name)
    _, xml, _, steps = convert(opts)
    return xml, {step['id']: step for step in steps}


def test_constant_subgraphs_are_folded_at_load_and_keep_their_names(tmp_path):
    from tests.support import oracles
    graph_def = _graph_def(_batch_norm_after_matmul)
    xml, steps = _convert(graph_def, tmp_path, 'bn')
    assert steps['TFConstantFolding']['matches'] >= 2  # the scale and the shift
    # nothing of the batch norm's constant arithmetic reaches inference
    assert steps['RsqrtLowering']['matches'] == 0
    text = open(xml).read()
    assert 'Sqrt' not in text and 'Power' not in text
    # the weight is stored transposed for the MatMul (transpose_b, the CPU plugin's layout): another tensor, so
    # neither TF's name of the weight nor of the Identity that read it names it
    assert 'transpose_b="true"' in text and 'w/read:0' not in text and '"w:0' not in text
    assert oracles.ir_inconsistencies(xml, graph_def) == []
    x = np.random.default_rng(7).standard_normal((2, 4)).astype(np.float32)
    expected = oracles.run_tf(graph_def, {'x': x}, ['out'])
    assert max_error(oracles.run_openvino(xml, {'x': x}), expected) < TOLERANCE


def test_a_constant_split_read_at_its_second_output(tmp_path):
    """A multi-output op cannot become one Const: it stays, computing from folded inputs."""
    from tests.support import oracles

    def build():
        x = tf.compat.v1.placeholder(tf.float32, [4, 3], name='x')
        table = tf.identity(_const('table', (4, 6), 8), name='table/read')
        _, right = tf.split(tf.multiply(table, 2.0, name='doubled'), 2, axis=1, name='split')
        tf.identity(x + right, name='out')

    graph_def = _graph_def(build)
    xml, steps = _convert(graph_def, tmp_path, 'split')
    assert steps['TFConstantFolding']['matches'] >= 1
    assert oracles.ir_inconsistencies(xml, graph_def) == []
    x = np.random.default_rng(9).standard_normal((4, 3)).astype(np.float32)
    expected = oracles.run_tf(graph_def, {'x': x}, ['out'])
    assert max_error(oracles.run_openvino(xml, {'x': x}), expected) < TOLERANCE


def test_a_cut_inside_a_constant_subgraph_is_an_input(tmp_path):
    """--input at a node of the constant arithmetic: it is fed, so what reads it is not folded."""
    from tests.support import oracles
    graph_def = _graph_def(_batch_norm_after_matmul)
    with pytest.raises(Error, match=r'Input "bn/rsqrt:0" has an unknown rank; give its shape with --input "bn/rsqrt:0\[\.\.\.\]"'):
        _convert(graph_def, tmp_path, 'cut', input='x,bn/rsqrt')
    xml, _ = _convert(graph_def, tmp_path, 'cut', input='x,bn/rsqrt[3]')
    x = np.random.default_rng(10).standard_normal((2, 4)).astype(np.float32)
    rsqrt = np.full((3,), 0.75, np.float32)
    expected = oracles.run_tf(graph_def, {'x': x, 'bn/rsqrt': rsqrt}, ['out'])
    actual = oracles.run_openvino(xml, {'x': x, 'bn/rsqrt': rsqrt})
    assert len(actual) == 1  # the node the cut replaced is no output of its own
    assert max_error(actual, expected) < TOLERANCE


def test_a_constant_model_output_keeps_its_name(tmp_path):
    from tests.support import oracles

    def build():
        x = tf.compat.v1.placeholder(tf.float32, [3], name='x')
        tf.identity(x * 2.0, name='doubled')
        tf.identity(tf.add(_const('a', (3,), 11), 1.0, name='a_plus_1'), name='constant_out')

    graph_def = _graph_def(build)
    xml, _ = _convert(graph_def, tmp_path, 'const_out')
    assert 'constant_out:0' in open(xml).read()
    assert oracles.ir_inconsistencies(xml, graph_def) == []
    x = np.arange(3, dtype=np.float32)
    expected = oracles.run_tf(graph_def, {'x': x}, ['doubled', 'constant_out'])
    actual = oracles.run_openvino(xml, {'x': x})
    assert sorted(a.tolist() for a in actual) == sorted(e.tolist() for e in expected)


def test_expanding_ops_over_the_size_limit_stay_computations(tmp_path):
    from tests.support import oracles

    def build():
        x = tf.compat.v1.placeholder(tf.float32, [64, 64], name='x')
        ones = tf.fill(tf.constant([64, 64]), 1.5, name='ones')
        tf.identity(x + ones, name='out')

    graph_def = _graph_def(build)
    xml, steps = _convert(graph_def, tmp_path, 'limit', max_constant_size=1024)
    assert steps['TFConstantFolding']['matches'] == 0
    x = np.random.default_rng(12).standard_normal((64, 64)).astype(np.float32)
    expected = oracles.run_tf(graph_def, {'x': x}, ['out'])
    assert max_error(oracles.run_openvino(xml, {'x': x}), expected) < TOLERANCE


def test_bfloat16_arithmetic_is_left_to_later_phases():
    """bfloat16 tensors are bit patterns of another numpy type: the load phase does not compute them."""
    from extensions.load.tf.constant_folding import compute_constants
    from mo.front.tf.loader import graph_def_to_graph
    from mo.front.tf.proto import GraphDef

    def build():
        half = tf.constant(np.array([1.5, 2.5], np.float32), name='c')
        tf.cast(tf.cast(half, tf.bfloat16, name='to_bf16') * tf.constant(2.0, tf.bfloat16, name='two'),
                tf.float32, name='back')
        tf.add(half, 1.0, name='f32_add')

    graph = graph_def_to_graph(GraphDef.FromString(_graph_def(build)))
    values = compute_constants(graph, 1 << 30)
    assert 'f32_add' in values and 'to_bf16' not in values and 'back' not in values


def test_folding_is_off_when_users_rewrite_the_graph(tmp_path):
    """Users' replacers and sub-graph configs name and match the nodes TensorFlow wrote."""
    from mo.main import main
    from tests.support import oracles
    ext = tmp_path / 'ext'
    (ext / 'front').mkdir(parents=True)
    (ext / 'front' / 'noop.py').write_text('"""an extension that changes nothing"""\n')
    model = tmp_path / 'bn.pb'
    model.write_bytes(_graph_def(_batch_norm_after_matmul))
    report = tmp_path / 'report.json'
    assert main(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'ir'),
                 '--extensions', str(ext), '--report', str(report)]) == 0
    steps = {step['id']: step for step in json.loads(report.read_text())['steps']}
    assert steps['TFConstantFolding'].get('skipped') == 'graph_condition'
    assert steps['RsqrtLowering']['matches'] == 1  # the original graph reached the front phase
    x = np.random.default_rng(13).standard_normal((2, 4)).astype(np.float32)
    expected = oracles.run_tf(model.read_bytes(), {'x': x}, ['out'])
    assert max_error(oracles.run_openvino(str(tmp_path / 'ir' / 'bn.xml'), {'x': x}), expected) < TOLERANCE


@pytest.mark.parametrize('op, inputs, big', [
    ('Fill', [np.array([1024, 1024]), np.float32(1)], True),
    ('Fill', [np.array([16, 16]), np.float32(1)], False),
    ('Tile', [np.zeros((4, 4), np.float32), np.array([512, 512])], True),
    ('Range', [np.int64(0), np.int64(10 ** 9), np.int64(1)], True),
    ('LinSpace', [np.float32(0), np.float32(1), np.int32(10 ** 8)], True),
    ('OneHot', [np.arange(4096), np.int32(4096), np.float32(1), np.float32(0)], True),
    ('Pad', [np.zeros((2, 2), np.float32), np.array([[0, 4096], [0, 4096]])], True),
    ('AddV2', [np.zeros((4096, 1), np.float32), np.zeros((1, 4096), np.float32)], True),
    ('AddV2', [np.zeros((64, 1), np.float32), np.zeros((1, 64), np.float32)], False),
    ('MatMul', [np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32)], False),
])
def test_growing_ops_are_sized_before_they_are_computed(op, inputs, big):
    from mo.front.tf import kernels
    assert kernels.too_big(op, inputs, 1 << 20) is big
