"""``mo summarize`` against counts computed independently with TensorFlow's GraphDef and numpy."""
from collections import Counter

import numpy as np
import pytest

from mo.main import main
from tests.gtt_structural import graphs


def summarize(tmp_path, capsys, data, *extra):
    path = tmp_path / 'g.pb'
    path.write_bytes(data)
    capsys.readouterr()
    assert main(['summarize', '--in_graph', str(path)] + list(extra)) == 0
    return capsys.readouterr().out


@pytest.fixture(scope='module')
def keras_model():
    from tests.support import models
    return models.get_model('small_cnn_bn')


def test_summarize_frozen_keras_model(tmp_path, capsys, keras_model):
    from tensorflow.python.framework import tensor_util
    data = keras_model.graph_def
    out = summarize(tmp_path, capsys, data)
    gd = graphs.parse(data)
    consts = sum(tensor_util.MakeNdarray(n.attr['value'].tensor).size for n in gd.node if n.op == 'Const')
    controls = sum(i.startswith('^') for n in gd.node for i in n.input)
    consumed = {i.lstrip('^').split(':')[0] for n in gd.node for i in n.input}
    outputs = sorted(n.name for n in gd.node if n.name not in consumed and n.op not in ('Const', 'NoOp'))
    assert outputs == sorted(keras_model.outputs)
    assert 'Found {} ('.format(consts) in out and 'and {} control_edges'.format(controls) in out
    assert 'Found 1 possible inputs: (name=input, type=float32(1), shape=[2,16,16,3])' in out
    assert 'Found {} possible outputs: {}'.format(len(outputs), ' '.join(
        '(name={}, op=Identity)'.format(o) for o in outputs)) in out
    counts = Counter(n.op for n in gd.node)
    expected = ', '.join('{} {}'.format(c, op) for op, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    assert 'Op types used: ' + expected in out
    assert '--input_layer=input --input_layer_type=float32 --input_layer_shape=2,16,16,3' in out
    assert '--output_layer=' + ','.join(outputs) in out


def test_summarize_variables_and_structure(tmp_path, capsys):
    import tensorflow as tf
    tf1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.int32, [None, 3], name='ids')
        v = tf1.Variable(np.ones((3, 5), np.float32), name='v', use_resource=False)
        tf.matmul(tf.cast(x, tf.float32), v, name='logits')
    out = summarize(tmp_path, capsys, g.as_graph_def().SerializeToString(), '--print_structure')
    assert 'Found 1 variables: (name=v, shape=[3,5])' in out
    assert '0 (0) const parameters' not in out and '15 (15) variable parameters' in out
    assert 'possible inputs: (name=ids, type=int32(3), shape=[?,3])' in out
    assert 'logits (MatMul): [Cast, v/read]' in out
    assert '(name=logits, op=MatMul)' in out


def test_summarize_missing_file(tmp_path):
    assert main(['summarize', '--in_graph', str(tmp_path / 'nope.pb')]) == 1
