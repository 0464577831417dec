"""fuse_* convolutions and freeze_requantization_ranges against TensorFlow's own tool."""
import numpy as np
import pytest

from tests.gtt_numeric.helpers import check_against_tf, mo_transform, ops
from tests.support.oracles import graph_def_from, run_tf, run_tf_gtt

tf = pytest.importorskip('tensorflow')

OUTPUTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']


def _conv_graph(shared_weights=False):
    """Resize/MirrorPad/Pad in front of convolutions, private and shared, in every combination."""
    rng = np.random.default_rng(0)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 5, 5, 3], name='x')
        shared = tf.constant(rng.normal(size=(3, 3, 3, 4)).astype(np.float32), name='w')

        def w():
            return shared if shared_weights else tf.constant(rng.normal(size=(3, 3, 3, 4)).astype(np.float32))
        resize = tf.compat.v1.image.resize_bilinear
        p1 = tf.pad(resize(x, [10, 10], name='rs1'), [[0, 0], [1, 1], [2, 2], [0, 0]], mode='REFLECT', name='pad1')
        tf.nn.conv2d(p1, w(), 1, 'VALID', name='c1')  # resize -> mirror pad -> conv
        p2 = tf.pad(x, [[0, 0], [1, 1], [2, 2], [0, 0]], mode='SYMMETRIC', name='pad2')
        tf.nn.conv2d(p2, w(), [1, 2, 2, 1], 'SAME', name='c2')  # mirror pad -> conv
        rs3 = resize(x, [8, 9], align_corners=True, name='rs3')
        tf.nn.conv2d(rs3, w(), 2, 'SAME', name='c3')  # resize -> conv
        tf.nn.conv2d(tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], name='pad4'), w(), 1, 'VALID', name='c4')  # zero pad
        rs5 = resize(x, [7, 7], name='rs5')  # shared: read by two convs
        tf.nn.conv2d(rs5, w(), 1, 'SAME', name='c5')
        tf.nn.conv2d(rs5, w(), 1, 'VALID', dilations=2, name='c6')
    feeds = {'x': np.random.default_rng(1).normal(size=(1, 5, 5, 3)).astype(np.float32)}
    return g.as_graph_def().SerializeToString(), feeds


@pytest.mark.parametrize('transforms, fused', [
    ('fuse_resize_pad_and_conv', {'c1': 'FusedResizeAndPadConv2D'}),
    ('fuse_resize_and_conv', {'c3': 'FusedResizeAndPadConv2D'}),
    ('fuse_pad_and_conv', {'c1': 'FusedPadConv2D', 'c2': 'FusedPadConv2D'}),
    ('fuse_resize_pad_and_conv fuse_resize_and_conv fuse_pad_and_conv',
     {'c1': 'FusedResizeAndPadConv2D', 'c2': 'FusedPadConv2D', 'c3': 'FusedResizeAndPadConv2D'}),
])
def test_fuse(tmp_path, transforms, fused):
    graph_def, feeds = _conv_graph()
    ours = check_against_tf(tmp_path, graph_def, ['x'], OUTPUTS, transforms, feeds)
    theirs = run_tf_gtt(graph_def, ['x'], OUTPUTS, transforms)
    assert ops(ours) == ops(theirs)
    nodes = {n.name: n.op for n in graph_def_from(ours).node}
    for name in OUTPUTS:
        assert nodes[name] == fused.get(name, 'Conv2D')


def test_fuse_with_shared_weights(tmp_path):
    """TF's tool fuses one convolution per shared weight Const (its matches may not overlap); every
    convolution that can be fused is."""
    graph_def, feeds = _conv_graph(shared_weights=True)
    transforms = 'fuse_resize_pad_and_conv fuse_resize_and_conv fuse_pad_and_conv'
    ours = check_against_tf(tmp_path, graph_def, ['x'], OUTPUTS, transforms, feeds)
    assert ops(ours)['Conv2D'] == 3 and ops(ours)['FusedResizeAndPadConv2D'] == 2


def test_fuse_keeps_protected_intermediate(tmp_path):
    graph_def, feeds = _conv_graph()
    ours = mo_transform(tmp_path, graph_def, ['x'], OUTPUTS + ['pad2'], 'fuse_pad_and_conv')
    assert {n.name: n.op for n in graph_def_from(ours).node}['c2'] == 'Conv2D'


# ----- freeze_requantization_ranges ----------------------------------------------------------

def _quantized_graph():
    """A conv/relu/matmul graph put through TF's own quantize_weights + quantize_nodes, which gives
    it RequantizationRange ops (this test is about freezing those, not about quantize_nodes)."""
    rng = np.random.default_rng(0)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 6, 6, 3], name='x')
        c = tf.nn.conv2d(x, tf.constant(rng.normal(size=(3, 3, 3, 40)).astype(np.float32)), 1, 'SAME', name='c')
        r = tf.nn.relu(c, name='r')
        tf.matmul(tf.reshape(r, [1, -1]), tf.constant(rng.normal(size=(1440, 5)).astype(np.float32)), name='out')
    return run_tf_gtt(g.as_graph_def().SerializeToString(), ['x'], ['out'], 'quantize_weights quantize_nodes')


def _write_log(path, runs):
    lines = ['I0108 21:45:42.261883    1972 some_other_op.cc:12] unrelated line', 'garbage ;x__print__;[1][2]']
    for name, low, high in runs:
        lines.append('I0108 21:45:42.261883    1972 logging_ops.cc:79] ;{}__print__;__requant_min_max:[{}][{}]'
                     .format(name, low, high))
    path.write_text('\n'.join(lines) + '\n')


@pytest.mark.parametrize('args', ['', ',min_percentile=10,max_percentile=10', ',min_percentile=0,max_percentile=0',
                                  ',min_percentile=50,max_percentile=50', ',min_percentile=2.5,max_percentile=33'])
def test_freeze_requantization_ranges(tmp_path, args):
    graph_def = _quantized_graph()
    ranges = [n.name for n in graph_def_from(graph_def).node if n.op == 'RequantizationRange']
    assert len(ranges) == 2
    rng = np.random.default_rng(2)
    # the first op logged over 21 runs, with outliers; the second one not at all
    runs = [(ranges[0], -float(k), float(k) * 1.5) for k in rng.permutation(np.arange(1, 21))]
    runs.append((ranges[0], -200.5, 322.25))
    log = tmp_path / 'log.txt'
    _write_log(log, runs)
    transforms = 'freeze_requantization_ranges(min_max_log_file={}{})'.format(log, args)
    ours = mo_transform(tmp_path, graph_def, ['x'], ['out'], transforms)
    theirs = run_tf_gtt(graph_def, ['x'], ['out'], transforms)
    assert ops(ours) == ops(theirs)

    def frozen(gd):
        return {n.name: float(tf.make_ndarray(n.attr['value'].tensor)) for n in graph_def_from(gd).node
                if 'frozen' in n.name}
    assert frozen(ours) == frozen(theirs) and len(frozen(ours)) == 2
    feeds = {'x': np.random.default_rng(1).uniform(-1, 1, size=(1, 6, 6, 3)).astype(np.float32)}
    np.testing.assert_allclose(run_tf(ours, feeds, ['out'])[0], run_tf(theirs, feeds, ['out'])[0], rtol=1e-6)


@pytest.mark.parametrize('args', ['', 'min_max_log_file=/nonexistent/log.txt',
                                  'min_max_log_file={log},min_percentile=101'])
def test_freeze_requantization_ranges_bad_arguments(tmp_path, args):
    from mo.main import main
    log = tmp_path / 'log.txt'
    log.write_text('')
    src = tmp_path / 'in.pb'
    src.write_bytes(_quantized_graph())
    transforms = 'freeze_requantization_ranges({})'.format(args.format(log=log)) if args else \
        'freeze_requantization_ranges'
    code = main(['transform', '--in_graph', str(src), '--out_graph', str(tmp_path / 'out.pb'), '--inputs', 'x',
                 '--outputs', 'out', '--transforms', transforms])
    assert code != 0
