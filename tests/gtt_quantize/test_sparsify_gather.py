"""sparsify_gather against TensorFlow's own Graph Transform Tool: both outputs, once their tables
are initialized by running ``group_deps``, look up what the dense Gather gathers."""
import numpy as np
import pytest

from tests.gtt_numeric.helpers import mo_transform, ops
from tests.support.oracles import TFRunner, graph_def_from, run_tf, run_tf_gtt

tf = pytest.importorskip('tensorflow')


def _sparse_table(rows, columns=1, seed=0):
    rng = np.random.default_rng(seed)
    table = np.zeros((rows, columns), np.float32)
    hit = rng.choice(rows, size=rows // 50, replace=False)
    table[hit] = rng.normal(size=(len(hit), columns)).astype(np.float32)
    return table


def run_initialized(graph_def, feeds, outputs):
    """Run ``group_deps`` (the table initializers), then ``outputs``."""
    with TFRunner(graph_def) as runner:
        runner.session.run(runner.graph.get_operation_by_name('group_deps'))
        return runner.run(feeds, outputs)


def _linear_model():
    """A frozen linear model's weights: Const + Identity ('w/read'), gathered by int64 ids."""
    g = tf.Graph()
    with g.as_default():
        ids = tf.compat.v1.placeholder(tf.int64, [4, 3], name='ids')
        w = tf.identity(tf.constant(_sparse_table(2000), name='w'), name='w/read')
        tf.reduce_sum(tf.raw_ops.GatherV2(params=w, indices=ids, axis=0, name='g'), axis=1, name='out')
    table = _sparse_table(2000)
    rows = np.flatnonzero(table[:, 0])
    feeds = {'ids': np.concatenate([rows[:6], [0, 1, 2, 3, 1999, rows[-1]]]).reshape(4, 3).astype(np.int64)}
    return g.as_graph_def().SerializeToString(), feeds


def test_against_tf(tmp_path):
    graph_def, feeds = _linear_model()
    ours = mo_transform(tmp_path, graph_def, ['ids'], ['out'], 'sparsify_gather')
    theirs = run_tf_gtt(graph_def, ['ids'], ['out'], 'sparsify_gather')
    expected = run_tf(graph_def, feeds, ['out'])[0]
    assert np.abs(expected).max() > 0
    np.testing.assert_array_equal(run_initialized(ours, feeds, ['out'])[0], expected)
    np.testing.assert_array_equal(run_initialized(theirs, feeds, ['out'])[0], expected)
    assert ops(ours) == ops(theirs)
    assert {'HashTable', 'InitializeTable', 'LookupTableFind'} <= set(ops(ours)) and 'GatherV2' not in ops(ours)
    # 40 non-zero rows of 2000: keys and values take 12 bytes a row, the dense table 4 bytes a row
    assert len(ours) < len(graph_def) / 5 and len(ours) <= len(theirs) * 1.1


def test_beyond_tf_tool(tmp_path):
    """int32 ids (cast), a table with other readers and two gathers, a directly read [N] table."""
    big, flat = _sparse_table(500, seed=1), _sparse_table(300, seed=2)[:, 0]
    g = tf.Graph()
    with g.as_default():
        ids = tf.compat.v1.placeholder(tf.int32, [5], name='ids')
        w = tf.identity(tf.constant(big, name='w'), name='w/read')
        tf.raw_ops.Gather(params=w, indices=ids, name='g1')
        tf.raw_ops.GatherV2(params=w, indices=ids, axis=0, name='g2')
        tf.reduce_sum(w, name='total')
        tf.gather(tf.constant(flat, name='v'), ids, name='g3')
    graph_def = g.as_graph_def().SerializeToString()
    outputs = ['g1', 'g2', 'total', 'g3']
    ours = mo_transform(tmp_path, graph_def, ['ids'], outputs, 'sparsify_gather')
    counts = ops(ours)
    assert counts['HashTable'] == 2 and counts['LookupTableFind'] == 3 and counts['Cast'] == 3
    assert 'Gather' not in counts and 'GatherV2' not in counts
    feeds = {'ids': np.concatenate([np.flatnonzero(big[:, 0])[:3], np.flatnonzero(flat)[:2]]).astype(np.int32)}
    for got, expected in zip(run_initialized(ours, feeds, outputs), run_tf(graph_def, feeds, outputs)):
        np.testing.assert_array_equal(got, expected)


def test_other_shapes_stay_dense(tmp_path):
    g = tf.Graph()
    with g.as_default():
        ids = tf.compat.v1.placeholder(tf.int64, [3], name='ids')
        tf.gather(tf.identity(tf.constant(_sparse_table(100, 3)), name='emb'), ids, name='out')
    graph_def = g.as_graph_def().SerializeToString()
    ours = mo_transform(tmp_path, graph_def, ['ids'], ['out'], 'sparsify_gather')
    counts = ops(ours)
    assert counts['GatherV2'] == 1 and counts['HashTable'] == 0 and counts['NoOp'] == 1
    feeds = {'ids': np.array([0, 5, 99])}
    np.testing.assert_array_equal(run_initialized(ours, feeds, ['out'])[0], run_tf(graph_def, feeds, ['out'])[0])
    assert len(graph_def_from(ours).node) == len(graph_def_from(graph_def).node) + 1
