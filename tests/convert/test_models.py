"""Issue 4: ``mo convert`` on the test model list matches TensorFlow within 1e-4.

Each model is built once per session (``tests.support.models.get_model``, also cached on disk
when ``MO_TEST_CACHE`` is set), frozen, converted with ``mo``, run by the OpenVINO runtime on
random inputs and compared with TensorFlow: max|ov - tf| / max|tf| < 1e-4.  The CNNs also must
come out with at most two Transposes (input and output); the table printed at the end of the
session lists build and convert times, IR sizes, errors and Transposes per model.
"""
import collections
import os

import pytest

from tests.convert.conftest import TOLERANCE, convert_bytes, max_error

pytest.importorskip('tensorflow')
pytest.importorskip('openvino')

#: name -> (is a channels-last CNN whose IR may keep at most 2 Transposes, compare the logits)
MODELS = {
    'small_cnn_bn': (True, False),
    'mobilenet_v2': (True, False),
    'resnet50': (True, False),
    'inception_v3': (True, False),
    # random EfficientNet weights saturate the softmax to one-hot: its logits are what can differ
    'efficientnet_b0': (True, True),
    'densenet121': (True, False),
    'transformer_encoder': (False, False),
    'lstm_gru': (False, False),
}


def _logits_node(record) -> str:
    """The node feeding the Softmax that produces the model's output."""
    from mo.front.tf.graphdef_io import parse_graph_def_bytes
    graph_def = parse_graph_def_bytes(record.graph_def, record.name)
    nodes = {n.name: n for n in graph_def.node}
    node = nodes[record.outputs[0]]
    while node.op != 'Softmax':
        node = nodes[node.input[0].split(':')[0]]
    return node.input[0].split(':')[0]

#: per-model facts, printed as a table after the module's tests
TIMINGS = collections.OrderedDict()


@pytest.fixture(scope='module', autouse=True)
def model_table(request):
    yield
    reporter = request.config.pluginmanager.get_plugin('terminalreporter')
    if not TIMINGS or reporter is None:
        return
    capture = request.config.pluginmanager.get_plugin('capturemanager')
    with capture.global_and_fixture_disabled():
        reporter.write_line('')
        reporter.write_line('%-22s %8s %10s %6s %12s %11s' % ('model', 'build s', 'convert s', 'nodes',
                                                            'max rel err', 'transposes'))
        for name, row in TIMINGS.items():
            reporter.write_line('%-22s %8.2f %10.2f %6d %12.2e %11d' % (
                name, row['build'], row['convert'], row['nodes'], row['error'], row['transposes']))


@pytest.mark.parametrize('name', list(MODELS))
def test_model_matches_tensorflow(name, session_dir):
    from tests.support import models, oracles
    is_cnn, logits = MODELS[name]
    record = models.get_model(name)
    outputs = [_logits_node(record)] if logits else list(record.outputs)
    options = {'output': ','.join(outputs)} if logits else {}
    converted = convert_bytes(record.graph_def, session_dir / name, name, **options)
    feeds = record.random_feeds(seed=0)
    expected = oracles.run_tf(record.graph_def, feeds, outputs)
    actual = oracles.run_openvino(converted.xml, feeds)
    error = max_error(actual, expected)
    transposes = converted.types.get('Transpose', 0)
    TIMINGS[name] = {'build': record.build_seconds, 'convert': converted.seconds, 'nodes': converted.nodes,
                     'error': error, 'transposes': transposes}
    assert error < TOLERANCE, '{}: max relative error {:.3g}'.format(name, error)
    if is_cnn:
        assert transposes <= 2, '{}: {} Transposes left in the IR'.format(name, transposes)
    assert oracles.ir_inconsistencies(converted.xml, record.graph_def) == []


def test_funclib_model_is_inlined_and_matches(session_dir):
    """A frozen graph that keeps its network in the function library (nested PartitionedCalls)."""
    from tests.support import models, oracles
    record = models.get_model('small_cnn_bn_funclib')
    converted = convert_bytes(record.graph_def, session_dir / 'funclib', 'funclib')
    feeds = record.random_feeds(seed=0)
    expected = oracles.run_tf(record.graph_def, feeds, list(record.outputs))
    actual = oracles.run_openvino(converted.xml, feeds)
    error = max_error(actual, expected)
    TIMINGS['small_cnn_bn_funclib'] = {'build': record.build_seconds, 'convert': converted.seconds,
                                       'nodes': converted.nodes, 'error': error,
                                       'transposes': converted.types.get('Transpose', 0)}
    assert error < TOLERANCE
    # the wrapper's Relu6 (a Clamp) follows the inlined body
    assert converted.types.get('Clamp', 0) == 1
    assert converted.types.get('Transpose', 0) <= 2


SEED_EXT = os.path.join(os.path.dirname(__file__), "..", "core", "seed_ext")


@pytest.mark.parametrize('name', list(MODELS) + ['inception_blocks', 'ssd_like_postprocessor', 'yolo_like_head'])
def test_model_with_the_seed_extensions_matches_tensorflow(name, session_dir):
    """The seeds' example extensions (SquaredDifference as legacy Power/Eltwise, SqueezeNormalize,
    Pack, MishFusion) loaded as a user's extension directory take over from the built-ins on every
    test model, and the IR still computes what TensorFlow computes."""
    from tests.support import models, oracles
    record = models.get_model(name)
    converted = convert_bytes(record.graph_def, session_dir / (name + '_seed_ext'), name, extensions=SEED_EXT)
    feeds = record.random_feeds(seed=0)
    expected = oracles.run_tf(record.graph_def, feeds, list(record.outputs))
    actual = oracles.run_openvino_by_name(converted.xml, feeds, list(record.outputs))
    error = max_error(actual, expected)
    assert error < TOLERANCE, '{} with the seed extensions: max relative error {:.3g}'.format(name, error)
