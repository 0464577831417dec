"""round_weights and quantize_weights against TensorFlow's own Graph Transform Tool."""
import numpy as np
import pytest

from tests.gtt_numeric.helpers import mo_transform, ops
from tests.support.oracles import graph_def_from, run_tf, run_tf_gtt

tf = pytest.importorskip('tensorflow')


def _graph():
    """A conv and a matmul on one input, with weights large and small, and a constant buffer."""
    rng = np.random.default_rng(0)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 6, 6, 3], name='x')
        w = tf.constant(rng.normal(size=(3, 3, 3, 40)).astype(np.float32), name='w')  # 1080 elements
        c = tf.nn.conv2d(x, w, 1, 'SAME', name='c')
        tf.nn.relu(tf.nn.bias_add(c, tf.constant(rng.normal(size=40).astype(np.float32), name='b')), name='out1')
        mw = tf.constant(rng.uniform(0.5, 2, size=(108, 9)).astype(np.float32), name='mw')
        tf.matmul(tf.reshape(x, [1, -1]), mw, name='out2')
        tf.identity(tf.constant(np.full(20, 3.0, np.float32), name='flat'), name='out3')
        tf.identity(tf.constant(np.arange(15, dtype=np.float32), name='small'), name='out4')
    feeds = {'x': np.random.default_rng(1).normal(size=(1, 6, 6, 3)).astype(np.float32)}
    return g.as_graph_def().SerializeToString(), feeds


OUTPUTS = ['out1', 'out2', 'out3', 'out4']


def _weights_bound(feeds, half_step_w, half_step_mw):
    """max |output change| when every weight moves by at most its half step (ReLU and bias do not
    increase it): |x| convolved with all-ones filters, times the half step."""
    x = np.abs(feeds['x'])
    conv = tf.nn.conv2d(x, np.ones((3, 3, 3, 1), np.float32), 1, 'SAME').numpy().max()
    return conv * half_step_w * 1.001, x.sum() * half_step_mw * 1.001


def _consts(graph_def):
    return {n.name: tf.make_ndarray(n.attr['value'].tensor) for n in graph_def_from(graph_def).node if n.op == 'Const'}


@pytest.mark.parametrize('num_steps', [4, 256])
def test_round_weights(tmp_path, num_steps):
    graph_def, feeds = _graph()
    ours = mo_transform(tmp_path, graph_def, ['x'], OUTPUTS, 'round_weights(num_steps={})'.format(num_steps))
    theirs = run_tf_gtt(graph_def, ['x'], OUTPUTS, 'round_weights(num_steps={})'.format(num_steps))
    before, mine, tfs = _consts(graph_def), _consts(ours), _consts(theirs)
    assert np.array_equal(mine['small'], before['small'])  # 15 elements: left alone
    for name in ('w', 'mw'):
        assert len(np.unique(mine[name])) <= num_steps + 1
        half_step = (before[name].max() - before[name].min()) / num_steps / 2
        assert np.abs(mine[name] - before[name]).max() <= half_step * 1.0001
        np.testing.assert_allclose(mine[name], tfs[name], atol=half_step * 2.0001)
    expected, got = run_tf(graph_def, feeds, OUTPUTS), run_tf(ours, feeds, OUTPUTS)
    bounds = _weights_bound(feeds, *[(before[n].max() - before[n].min()) / num_steps / 2 for n in ('w', 'mw')])
    for e, g, bound in zip(expected, got, bounds):
        assert np.abs(e - g).max() <= bound
    assert ops(ours) == ops(theirs) == ops(graph_def)


@pytest.mark.parametrize('minimum_size', [None, 16])
def test_quantize_weights(tmp_path, minimum_size):
    graph_def, feeds = _graph()
    transforms = 'quantize_weights' + ('' if minimum_size is None else '(minimum_size={})'.format(minimum_size))
    ours = mo_transform(tmp_path, graph_def, ['x'], OUTPUTS, transforms)
    theirs = run_tf_gtt(graph_def, ['x'], OUTPUTS, transforms)
    assert ops(ours) == ops(theirs)
    quantized = {'w'} if minimum_size is None else {'w', 'mw', 'b', 'flat'}
    nodes = {n.name: n for n in graph_def_from(ours).node}
    assert {n for n, node in nodes.items() if node.op == 'Dequantize'} == quantized
    # TF itself dequantizes our eight-bit weights back to within half a step of the originals
    before = _consts(graph_def)
    names = sorted(quantized)
    dequantized = dict(zip(names, run_tf(ours, feeds, names)))
    half_steps = {}
    for name in names:
        low, high = min(before[name].min(), 0), max(before[name].max(), 0)
        half_steps[name] = (high - low) / 255 / 2
        assert np.abs(dequantized[name] - before[name]).max() <= half_steps[name] * 1.01 + 1e-7
    expected, got = run_tf(graph_def, feeds, OUTPUTS), run_tf(ours, feeds, OUTPUTS)
    bounds = _weights_bound(feeds, half_steps['w'], half_steps.get('mw', 0))
    bias_error = half_steps.get('b', 0) * 1.01
    assert np.abs(expected[0] - got[0]).max() <= bounds[0] + bias_error
    assert np.abs(expected[1] - got[1]).max() <= bounds[1] + 1e-6
    for e, g in zip(expected[2:], got[2:]):
        np.testing.assert_allclose(g, e, atol=(3.0 / 255) if minimum_size else 0)


def test_quantize_all_zero_buffer(tmp_path):
    g = tf.Graph()
    with g.as_default():
        tf.identity(tf.constant(np.zeros(2000, np.float32), name='z'), name='out')
    graph_def = g.as_graph_def().SerializeToString()
    ours = mo_transform(tmp_path, graph_def, [], ['out'], 'quantize_weights')
    assert not run_tf(ours, {}, ['out'])[0].any()


@pytest.mark.parametrize('transforms', ['round_weights(num_steps=0)', 'round_weights(num_steps=x)',
                                        'quantize_weights(minimum_size=-1)', 'quantize_weights(size=3)'])
def test_bad_arguments(tmp_path, transforms):
    from mo.main import main
    graph_def, _ = _graph()
    src = tmp_path / 'in.pb'
    src.write_bytes(graph_def)
    code = main(['transform', '--in_graph', str(src), '--out_graph', str(tmp_path / 'out.pb'), '--inputs', 'x',
                 '--outputs', 'out1', '--transforms', transforms])
    assert code != 0
    assert not (tmp_path / 'out.pb').exists()


BUFFERS = {
    'normal': np.random.default_rng(2).normal(size=(4, 5, 3)),
    'negative': -np.random.default_rng(3).uniform(0.5, 2, size=40),  # TF's range reaches up to 0
    'positive': np.random.default_rng(4).uniform(0.5, 2, size=40),
    'equal': np.full(20, 3.0),  # one repeated value: TF's made-up range [v, 2v]
    'equal_negative': np.full(20, -2.0),
    'equal_tiny': np.full(16, 1e-7),  # [v, v + 1]
    'zeros': np.zeros(32),
    'sixteen': np.linspace(-1, 1, 16),
    'fifteen': np.linspace(-1, 1, 15),  # too small: left alone
}


@pytest.mark.parametrize('num_steps', [4, 7, 256])
def test_round_weights_is_tfs_bit_for_bit(tmp_path, num_steps):
    """Every buffer, the degenerate ones included, rounds to exactly the float32 values TF's tool writes."""
    g = tf.Graph()
    with g.as_default():
        for name, value in BUFFERS.items():
            tf.identity(tf.constant(value.astype(np.float32), name=name), name='out_' + name)
        tf.identity(tf.constant(np.arange(20, dtype=np.int32), name='ints'), name='out_ints')
    graph_def = g.as_graph_def().SerializeToString()
    outputs = ['out_' + name for name in list(BUFFERS) + ['ints']]
    transforms = 'round_weights(num_steps={})'.format(num_steps)
    mine = _consts(mo_transform(tmp_path, graph_def, [], outputs, transforms))
    theirs = _consts(run_tf_gtt(graph_def, [], outputs, transforms))
    for name in list(BUFFERS) + ['ints']:
        assert mine[name].dtype == theirs[name].dtype, name
        assert np.array_equal(mine[name].view(np.uint8), theirs[name].view(np.uint8)), name
    assert np.array_equal(mine['fifteen'], BUFFERS['fifteen'].astype(np.float32))
    assert not np.array_equal(mine['equal'], BUFFERS['equal'].astype(np.float32))
