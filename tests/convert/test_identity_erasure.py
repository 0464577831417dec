"""Identity erasure: the load phase bypasses Identities of constants, IdentityEraser removes the rest.

A GraphDef built here reads tensors through Identities in every way a frozen model does (chains, a
node reading one Identity twice, a model input, the second output of a Split, a control input, the
model's outputs, weights read by one and by several Identities). The IR must compute TensorFlow's
numbers, and each removed Identity's tensor names must stay on the port that now produces its tensor,
as read from the IR's XML. The common case is done without Node and Port objects; it must leave
exactly the IR the general path (the rule's ``rewrite_node``) leaves.
"""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tests.convert.conftest import TOLERANCE, max_error

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')


def _identities_everywhere() -> bytes:
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 6], name='x')
        x_chain = tf.identity(tf.identity(x, name='x_id'), name='x_id2')
        weight = tf.constant(np.linspace(-1, 1, 6, dtype=np.float32).reshape(1, 6), name='w')
        read = tf.identity(weight, name='w/read')
        twice = tf.add(x_chain, x_chain, name='twice')
        scaled = tf.multiply(twice, tf.identity(read, name='w/read2'), name='scaled')
        left, middle, right = tf.split(scaled, 3, axis=1, name='split')
        middle = tf.identity(middle, name='middle_id')
        with tf.control_dependencies([middle]):
            right = tf.identity(right, name='right_after_middle')
        joined = tf.tanh(tf.concat([left, middle, right], axis=1, name='joined'), name='tanh')
        biased = tf.add(joined, tf.identity(read, name='w/read3'), name='biased')
        tf.identity(tf.identity(biased, name='out_id'), name='out')
        tf.identity(tf.nn.relu(biased, name='relu'), name='relu_out')
    return graph.as_graph_def().SerializeToString()


def _convert(tmp_path, graph_def: bytes, *options) -> str:
    from mo.main import main
    model = tmp_path / 'identities.pb'
    model.write_bytes(graph_def)
    out = tmp_path / 'ir'
    assert main(['convert', '--input_model', str(model), '--output_dir', str(out), '--silent', *options]) == 0
    return str(out / 'identities.xml')


def _port_names(xml_path) -> dict:
    """Tensor name -> (layer name, layer type, output port id), read from the IR's XML."""
    found = {}
    for layer in ET.parse(xml_path).getroot().iter('layer'):
        output = layer.find('output')
        for port in (output if output is not None else ()):
            for name in (port.get('names') or '').replace('\\,', '\0').split(','):
                if name:
                    found[name.replace('\0', ',')] = (layer.get('name'), layer.get('type'), port.get('id'))
    return found


@pytest.mark.parametrize('load_folding', [True, False], ids=['load-folding', 'extensions'])
def test_identities_go_and_their_tensors_keep_their_names(tmp_path, load_folding):
    from tests.support import oracles
    graph_def = _identities_everywhere()
    options = []
    if not load_folding:  # the weights' Identities reach IdentityEraser too
        (tmp_path / 'ext' / 'front').mkdir(parents=True)
        options = ['--extensions', str(tmp_path / 'ext')]
    xml = _convert(tmp_path, graph_def, *options)
    types = [layer.get('type') for layer in ET.parse(xml).getroot().iter('layer')]
    assert 'Identity' not in types
    assert oracles.ir_inconsistencies(xml, graph_def) == []
    names = _port_names(xml)
    assert names['x_id:0'][:2] == names['x_id2:0'][:2] == ('x', 'Parameter')
    assert names['w/read:0'] == names['w/read2:0'] == names['w/read3:0'] == names['w:0']
    assert names['w:0'][1] == 'Const'
    assert names['middle_id:0'] == names['split:1'] and names['right_after_middle:0'] == names['split:2']
    assert names['out:0'] == names['out_id:0'] == names['biased:0']
    x = np.random.default_rng(3).standard_normal((2, 6)).astype(np.float32)
    expected = oracles.run_tf(graph_def, {'x': x}, ['out', 'relu_out'])
    compiled = oracles.compile_openvino(xml)
    results = compiled({0: x})
    for name, want in zip(['out', 'relu_out'], expected):  # each output found by its TF tensor name
        assert max_error([results[compiled.output(name + ':0')]], [want]) < TOLERANCE


@pytest.mark.parametrize('load_folding', [True, False], ids=['load-folding', 'extensions'])
def test_the_plain_case_leaves_the_ir_the_general_path_leaves(tmp_path, monkeypatch, load_folding):
    from extensions.front import identity_eraser
    graph_def = _identities_everywhere()
    options = []
    if not load_folding:
        (tmp_path / 'ext' / 'front').mkdir(parents=True)
        options = ['--extensions', str(tmp_path / 'ext')]
    def converted() -> list:  # the same paths both times: the IR's meta data names them
        xml = _convert(tmp_path, graph_def, *options)
        return [open(xml[:-4] + suffix, 'rb').read() for suffix in ('.xml', '.bin')]

    plain = converted()
    monkeypatch.setattr(identity_eraser, '_erase_plain_identity', lambda graph, node_id: False)
    assert converted() == plain
