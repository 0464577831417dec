"""AddN over hundreds of inputs (a wide graph's sum): lowered to a chain of Adds in input order, whatever ports of
which producers feed it, and run in OpenVINO against TensorFlow."""
import numpy as np
import pytest

from tests.convert.conftest import TOLERANCE, convert_bytes, max_error

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')


def test_an_addn_of_300_inputs_from_shuffled_ports_matches_tensorflow(tmp_path):
    from tests.support import oracles
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [100, 3], name='x')
        parts = tf.split(x, 100, axis=0)  # one producer, 100 outputs
        scaled = [part * (k + 1) for k, part in enumerate(parts)]
        order = np.random.default_rng(3).permutation(300) % 100  # ports out of order, each read three times
        inputs = [parts[k] if j % 2 else scaled[k] for j, k in enumerate(order)]
        tf.raw_ops.AddN(inputs=inputs, name='total')
    graph_def = graph.as_graph_def().SerializeToString()
    converted = convert_bytes(graph_def, tmp_path)
    feeds = {'x': np.random.default_rng(4).standard_normal((100, 3)).astype(np.float32)}
    expected = oracles.run_tf(graph_def, feeds, ['total'])
    actual = oracles.run_openvino_by_name(converted.xml, feeds, ['total'])  # the products no input reads are outputs too
    assert max_error(actual, expected) < TOLERANCE


def test_sums_of_sums_into_a_wide_addn_and_concat_match_tensorflow(tmp_path):
    """Each of 200 small AddNs is lowered and its result rewired into a port of a 200-input AddN and ConcatV2 (the
    rewiring that finds its port through the wide node's in-port index)."""
    from tests.support import oracles
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name='x')
        sums = [tf.raw_ops.AddN(inputs=[x * (k + 1.0), x, x - float(k)], name='group{}'.format(k))
                for k in range(200)]
        tf.raw_ops.AddN(inputs=sums, name='total')
        tf.concat(sums[::-1], axis=0, name='stacked')
    graph_def = graph.as_graph_def().SerializeToString()
    converted = convert_bytes(graph_def, tmp_path)
    feeds = {'x': np.random.default_rng(5).standard_normal((2, 3)).astype(np.float32)}
    expected = oracles.run_tf(graph_def, feeds, ['total', 'stacked'])
    actual = oracles.run_openvino_by_name(converted.xml, feeds, ['total', 'stacked'])
    assert max_error(actual, expected) < TOLERANCE
