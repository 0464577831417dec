"""Shape and value inference of the tensor ops on hand-built graphs, checked against tf.raw_ops."""
import itertools

import numpy as np
import pytest

from mo.utils.error import Error
from mo.utils.graph_builder import build_graph
from tests.tensor_ops.tf_graphs import assert_same, infer

tf = pytest.importorskip('tensorflow')

X4 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)


def run(op, attrs, inputs, out_port=0):
    """Infer ``op`` fed by Consts (arrays) or Parameters (``('param', shape)``); its output's shape and value."""
    nodes = [('op', op, attrs), ('out', 'Result')]
    edges = [('op', 'out', out_port, 0)]
    for i, item in enumerate(inputs):
        if isinstance(item, tuple) and item[0] == 'param':
            nodes.append(('in{}'.format(i), 'Parameter', {'shape': np.array(item[1], dtype=np.int64)}))
        else:
            nodes.append(('in{}'.format(i), 'Const', {'value': np.asarray(item)}))
        edges.append(('in{}'.format(i), 'op', 0, i))
    graph = infer(build_graph(nodes, edges))
    from mo.graph.graph import Node
    port = Node(graph, 'out').in_port(0)
    return [int(d) for d in port.data.get_shape()], port.data.get_value(), graph


def _mask_cases():
    """(begin, end, strides, masks) for a rank-4 input: every single mask bit pattern over 3 entries."""
    rng = np.random.RandomState(7)
    cases = []
    for ellipsis, new_axis, shrink in itertools.product([0, 2], [0, 1, 4], [0, 1, 4]):
        for begin_mask, end_mask in ((0, 0), (5, 2), (7, 7)):
            begin = rng.randint(-3, 3, size=3)
            end = rng.randint(-3, 5, size=3)
            strides = rng.choice([-2, -1, 1, 2], size=3)
            cases.append((begin, end, strides, dict(begin_mask=begin_mask, end_mask=end_mask,
                                                    ellipsis_mask=ellipsis, new_axis_mask=new_axis,
                                                    shrink_axis_mask=shrink)))
    return cases


@pytest.mark.parametrize('dynamic', [False, True])
def test_strided_slice_masks_match_tf(dynamic):
    from mo.ops.strided_slice import bits_to_list
    checked = 0
    for begin, end, strides, masks in _mask_cases():
        if masks['shrink_axis_mask']:
            begin = np.where(begin >= 2, 1, begin)  # shrink indices must be in range
        attrs = {k: bits_to_list(v, 3) for k, v in masks.items()}
        try:
            expected = tf.raw_ops.StridedSlice(input=X4, begin=begin, end=end, strides=strides, **masks).numpy()
        except (tf.errors.InvalidArgumentError, ValueError):
            if not dynamic:  # what TensorFlow rejects, mo rejects too
                with pytest.raises(Error):
                    run('StridedSlice', attrs, [X4, begin, end, strides])
            continue
        data = ('param', [-1, 3, 4, 5]) if dynamic else X4
        shape, value, _ = run('StridedSlice', attrs, [data, begin, end, strides])
        if dynamic:
            # dims that come from the dynamic batch stay unknown; the others match TF
            known = [d for d in shape if d >= 0]
            assert len(shape) == expected.ndim, (masks, shape, expected.shape)
            assert all(d in (-1, e) for d, e in zip(shape, expected.shape)), (masks, shape, expected.shape)
            assert known or expected.ndim == 0 or -1 in shape
        else:
            assert_same(value, expected, str(masks))
        checked += 1
    assert checked > 35


def test_strided_slice_unknown_begin_keeps_rank():
    shape, value, _ = run('StridedSlice', {'shrink_axis_mask': [0, 1], 'new_axis_mask': [1, 0, 0]},
                          [X4, ('param', [3]), np.array([1, 2, 3]), np.array([1, 1, 1])])
    # new axis, shrink of dim 0, ranges over dims 1 and then 2, 3 implied whole
    assert shape == [1, -1, 4, 5] and value is None


def test_strided_slice_masks_padded_to_spec_length():
    _, _, graph = run('StridedSlice', {'begin_mask': [1]}, [X4, np.array([0, 1]), np.array([1, 2]), np.array([1, 1])])
    from mo.graph.graph import Node
    node = Node(graph, 'op')
    assert node.begin_mask == [1, 0] and node.ellipsis_mask == [0, 0]


@pytest.mark.parametrize('axis,batch_dims,indices', [
    (0, 0, [1, 0, 1]), (-1, 0, [[4, 0], [2, 2]]), (2, 1, [[0, 3], [1, 1]]), (3, 2, [[[0], [4], [2]], [[1], [1], [3]]]),
    (1, 1, [[2], [0]]), (2, -1, [[[0], [1], [3]], [[2], [2], [0]]]),
])
def test_gather_matches_tf(axis, batch_dims, indices):
    indices = np.array(indices, dtype=np.int32)
    expected = tf.raw_ops.GatherV2(params=X4, indices=indices, axis=axis, batch_dims=batch_dims).numpy()
    shape, value, _ = run('Gather', {'batch_dims': batch_dims}, [X4, indices, np.array(axis, np.int32)])
    assert_same(value, expected)
    shape, value, _ = run('Gather', {'batch_dims': batch_dims}, [('param', X4.shape), indices, np.array(axis)])
    assert shape == list(expected.shape) and value is None


@pytest.mark.parametrize('axes,keep', [([1], False), ([-1, 0], True), ([], False), ([0, 1, 2, 3], True)])
@pytest.mark.parametrize('op,tf_op', [('ReduceMean', 'Mean'), ('ReduceSum', 'Sum'), ('ReduceMax', 'Max'),
                                      ('ReduceMin', 'Min'), ('ReduceProd', 'Prod')])
def test_reductions_match_tf(op, tf_op, axes, keep):
    data = X4 / 50
    axes = np.array(axes, dtype=np.int32)
    expected = getattr(tf.raw_ops, tf_op)(input=data, axis=axes, keep_dims=keep).numpy()
    shape, value, _ = run(op, {'keep_dims': keep}, [data, axes])
    assert_same(value, expected, op)
    shape, value, _ = run(op, {'keep_dims': keep}, [('param', [-1, 3, 4, 5]), axes])
    assert shape == [-1 if (i == 0 and 0 not in np.where(axes < 0, axes + 4, axes)) else d
                     for i, d in enumerate(expected.shape)] or shape == list(expected.shape)


@pytest.mark.parametrize('pattern', [[-1, 20], [6, -1, 5], [120], [2, 3, 20, 1]])
def test_reshape(pattern):
    expected = tf.raw_ops.Reshape(tensor=X4, shape=pattern).numpy()
    shape, value, _ = run('Reshape', {}, [X4, np.array(pattern)])
    assert_same(value, expected)
    shape, _, _ = run('Reshape', {}, [('param', X4.shape), np.array(pattern)])
    assert shape == list(expected.shape)


def test_reshape_zero_is_a_size_without_special_zero():
    shape, value, _ = run('Reshape', {}, [np.zeros([0, 3], np.float32), np.array([3, 0])])
    assert shape == [3, 0]
    shape, _, _ = run('Reshape', {'special_zero': True}, [('param', [2, 3, 4]), np.array([0, -1])])
    assert shape == [2, 12]


@pytest.mark.parametrize('shape,target', [([3, 1], [2, 3, 4]), ([], [2, 2]), ([1], [5])])
def test_broadcast_numpy(shape, target):
    data = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    expected = tf.raw_ops.BroadcastTo(input=data, shape=target).numpy()
    _, value, _ = run('Broadcast', {'mode': 'numpy'}, [data, np.array(target)])
    assert_same(value, expected)


def test_tile_and_select_broadcasting():
    expected = tf.raw_ops.Tile(input=X4[0], multiples=[1, 2, 3]).numpy()
    assert_same(run('Tile', {}, [X4[0], np.array([1, 2, 3])])[1], expected)
    assert run('Tile', {}, [('param', [-1, 4]), np.array([2, 3])])[0] == [-1, 12]
    cond = np.array([True, False, True, False, True])
    expected = tf.raw_ops.SelectV2(condition=cond, t=X4, e=np.float32(-1)).numpy()
    assert_same(run('Select', {}, [cond, X4, np.float32(-1)])[1], expected)
    assert run('Select', {}, [cond, ('param', [-1, 3, 1, 5]), np.float32(0)])[0] == [-1, 3, 1, 5]


@pytest.mark.parametrize('mode', ['constant', 'reflect', 'symmetric'])
def test_pad_modes(mode):
    begin, end = np.array([0, 1, 2, 1]), np.array([1, 0, 1, 3])
    paddings = np.stack([begin, end], axis=1)
    if mode == 'constant':
        expected = tf.raw_ops.PadV2(input=X4, paddings=paddings, constant_values=np.float32(2)).numpy()
        inputs = [X4, begin, end, np.float32(2)]
    else:
        expected = tf.raw_ops.MirrorPad(input=X4, paddings=paddings, mode=mode.upper()).numpy()
        inputs = [X4, begin, end]
    assert_same(run('Pad', {'pad_mode': mode}, inputs)[1], expected)
    assert run('Pad', {'pad_mode': mode}, [('param', [-1, 3, 4, 5]), begin, end])[0] == [-1, 4, 7, 9]


def test_split_outputs():
    for port in range(3):
        expected = tf.split(X4, 3, axis=1)[port].numpy()
        assert_same(run('Split', {'num_splits': 3}, [X4, np.array(-3)], out_port=port)[1], expected)
        expected = tf.split(X4, [2, -1, 1], axis=-1)[port].numpy()
        assert_same(run('VariadicSplit', {}, [X4, np.array(3), np.array([2, -1, 1])], out_port=port)[1], expected)
    assert run('Split', {'num_splits': 2}, [('param', [-1, 4]), np.array(1)], out_port=1)[0] == [-1, 2]


def test_shapeof_folds_only_static_shapes():
    shape, value, graph = run('ShapeOf', {'output_type': np.int32}, [('param', [2, 3])])
    assert_same(value, np.array([2, 3], np.int32))
    shape, value, graph = run('ShapeOf', {}, [('param', [-1, 3, 7])])
    assert shape == [3] and value is None
    from mo.graph.graph import Node
    assert Node(graph, 'out').in_port(0).data.get_data_type() == np.int64


def test_convert_and_range_types():
    data = np.array([-2.7, -0.2, 0.0, 0.6, 3.9], np.float32)
    for dtype, tf_type in ((np.int32, tf.int32), (np.bool_, tf.bool), (np.uint8, tf.uint8)):
        expected = tf.raw_ops.Cast(x=np.abs(data) if dtype == np.uint8 else data, DstT=tf_type).numpy()
        _, value, graph = run('Cast', {'dst_type': dtype}, [np.abs(data) if dtype == np.uint8 else data])
        assert_same(value, expected)
    _, _, graph = run('Cast', {'dst_type': np.int32}, [('param', [3])])
    from mo.graph.graph import Node
    assert Node(graph, 'out').in_port(0).data.get_data_type() == np.int32
    expected = tf.raw_ops.Range(start=np.int64(-3), limit=np.int64(9), delta=np.int64(5)).numpy()
    assert_same(run('Range', {'output_type': np.int64}, [np.int64(-3), np.int64(9), np.int64(5)])[1], expected)
    assert run('Range', {}, [('param', []), np.int32(9), np.int32(5)])[0] == [-1]


def test_slice_opset8():
    start, stop, step = np.array([1, -3]), np.array([np.iinfo(np.int64).max, 4]), np.array([1, 2])
    axes = np.array([3, 1])
    shape, value, _ = run('Slice', {}, [X4, start, stop, step, axes])
    assert_same(value, X4[:, -3:4:2, :, 1:])
    assert run('Slice', {}, [('param', [-1, 3, 4, 5]), start, stop, step, axes])[0] == [-1, 2, 4, 4]
