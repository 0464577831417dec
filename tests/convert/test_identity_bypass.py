"""Load-phase Identity bypass (``extensions.load.tf.identity_bypass``): the IR is the one IdentityEraser gives.

Each graph is converted twice: as is, where TFIdentityBypass removes the plain Identities before extraction,
and with an empty ``--extensions`` directory, where the load phase leaves them to IdentityEraser. The layers
and edges must be the same bytes, and OpenVINO running the IR must give TensorFlow's numbers.
"""
import re

import numpy as np
import pytest

from tests.convert.conftest import TOLERANCE, max_error

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')


def _graph_def():
    """Identity chains on activations and on an input, an Identity read twice, one that is an output, one
    with a control dependency on it, a StopGradient (left to IdentityEraser) and an IdentityN."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name='x')
        xi = tf.identity(tf.identity(x, name='x/id1'), name='x/id2')
        w = tf.identity(tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2) / 7, name='w'), name='w/read')
        h = tf.identity(tf.tanh(tf.matmul(xi, w, name='mm'), name='tanh'), name='h')
        twice = tf.add(h, tf.identity(h, name='h/again'), name='twice')
        with tf.control_dependencies([tf.identity(twice, name='dep')]):
            gated = tf.identity(tf.nn.relu(twice, name='relu'), name='gated')
        stopped = tf.stop_gradient(gated, name='stop')
        a, b = tf.raw_ops.IdentityN(input=[stopped, h], name='idn')
        tf.identity(a * b, name='out')
        tf.identity(h, name='out_h')
    return graph.as_graph_def().SerializeToString()


def _layers_and_edges(xml_path) -> str:
    text = open(xml_path).read()
    return text[text.index('<layers>'):text.index('</edges>')]


def test_bypassed_identities_give_the_ir_identity_eraser_gives(tmp_path):
    from mo.pipeline.convert import convert
    from tests.support import oracles
    graph_def = _graph_def()
    outputs = ['out', 'out_h']
    common = dict(graph_def_bytes=graph_def, output=','.join(outputs), model_name='m')
    (tmp_path / 'none').mkdir()
    _, bypassed, _, steps = convert(dict(common, output_dir=str(tmp_path / 'a')))
    _, erased, _, steps_erased = convert(dict(common, output_dir=str(tmp_path / 'b'),
                                              extensions=str(tmp_path / 'none')))
    by_id = {step['id']: step for step in steps}
    assert by_id['TFIdentityBypass']['matches'] >= 5
    assert 'TFIdentityBypass' not in {step['id'] for step in steps_erased if not step.get('skipped')}
    assert _layers_and_edges(bypassed) == _layers_and_edges(erased)
    names = re.findall(r'names="([^"]*)"', open(bypassed).read())
    assert any('h/again' in n and 'h:0' in n for n in names), names  # the Identities' TF names moved on
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    expected = oracles.run_tf(graph_def, {'x': x}, [name + ':0' for name in outputs])
    actual = oracles.run_openvino_by_name(bypassed, {'x': x}, [name + ':0' for name in outputs])
    for got, want in zip(actual, expected):
        assert max_error(got, want) < TOLERANCE
