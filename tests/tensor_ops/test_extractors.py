"""Extractors on real frozen TF graphs: each TF node gets the right mo op, attributes and inputs."""
import numpy as np
import pytest

from mo.graph.graph import Node
from tests.tensor_ops.tf_graphs import freeze, front, load_and_extract

tf = pytest.importorskip('tensorflow')

SPEC = tf.TensorSpec([None, 3, 4, 5], tf.float32, name='x')  # dynamic: TF keeps Shape ops


def extracted(fn, *spec):
    graph = load_and_extract(freeze(fn, *(spec or (SPEC,))))
    return graph, {n.soft_get('tf_op'): n for n in graph.get_op_nodes() if n.has_valid('tf_op')}


def const_value(node, port):
    return node.in_port(port).get_source().node.value


def test_strided_slice_masks_become_lists():
    graph, nodes = extracted(lambda x: tf.strided_slice(x, [0, 1, 0], [1, 2, 3], [1, 1, 1], begin_mask=0b101,
                                                       end_mask=0b010, ellipsis_mask=0, new_axis_mask=0b100,
                                                       shrink_axis_mask=0b001))
    node = nodes['StridedSlice']
    assert node.op == 'StridedSlice' and node.type == 'StridedSlice' and node.version == 'opset1'
    assert node.begin_mask == [1, 0, 1] and node.end_mask == [0, 1, 0]
    assert node.new_axis_mask == [0, 0, 1] and node.shrink_axis_mask == [1, 0, 0] and node.ellipsis_mask == [0, 0, 0]


def test_concat_axis_input_becomes_attribute():
    graph, nodes = extracted(lambda x: tf.concat([x, x * 2, x], axis=-2))
    node = nodes['ConcatV2']
    assert node.op == 'Concat' and node.axis == -2 and node.in_ports_count == 3
    assert sorted(p for p in node.in_ports() if node.is_in_port_connected(p)) == [0, 1, 2]


def test_split_and_splitv_inputs_follow_the_opset():
    graph, nodes = extracted(lambda x: (tf.split(x, 2, axis=2)[1], tf.split(x, [1, 4], axis=3)[0]))
    split, splitv = nodes['Split'], nodes['SplitV']
    assert split.op == 'Split' and split.num_splits == 2
    assert const_value(split, 1) == 2 and split.in_port(0).get_source().node.op == 'Parameter'
    assert splitv.op == 'VariadicSplit' and splitv.out_ports_count == 2
    assert const_value(splitv, 1) == 3 and list(const_value(splitv, 2)) == [1, 4]


def test_fill_becomes_broadcast_of_the_value():
    graph, nodes = extracted(lambda x: x + tf.fill(tf.shape(x), 2.0))
    node = nodes['Fill']
    assert node.op == 'Broadcast' and node.mode == 'numpy'
    assert const_value(node, 0) == 2.0 and node.in_port(1).get_source().node.op == 'ShapeOf'


@pytest.mark.parametrize('fn,tf_op,expected', [
    (lambda x: tf.cast(tf.shape(x), tf.float32), 'Shape', {'op': 'ShapeOf', 'output_type': np.int32}),
    (lambda x: tf.cast(x, tf.int64), 'Cast', {'op': 'Cast', 'type': 'Convert', 'dst_type': np.int64}),
    (lambda x: tf.reduce_mean(x, axis=1, keepdims=True), 'Mean', {'op': 'ReduceMean', 'keep_dims': True}),
    (lambda x: tf.reduce_prod(x, axis=1), 'Prod', {'op': 'ReduceProd', 'keep_dims': False}),
    (lambda x: tf.gather(x, [[0, 1]] * 2, axis=1, batch_dims=1), 'GatherV2', {'op': 'Gather', 'batch_dims': 1}),
    (lambda x: tf.pad(x, [[0, 0]] * 4, mode='SYMMETRIC'), 'MirrorPad', {'op': 'TFPad', 'pad_mode': 'symmetric'}),
    (lambda x: tf.pad(x, [[0, 1]] * 4), 'Pad', {'op': 'TFPad', 'pad_mode': 'constant'}),
    (lambda x: tf.cast(tf.range(tf.shape(x, out_type=tf.int64)[0]), tf.float32), 'Range',
     {'op': 'Range', 'output_type': np.int64}),
    (lambda x: tf.squeeze(x[:, :1], axis=[1]), 'Squeeze', {'op': 'Squeeze'}),
    (lambda x: tf.expand_dims(x, 1), 'ExpandDims', {'op': 'Unsqueeze'}),
    (lambda x: tf.reshape(x, [6, -1]), 'Reshape', {'op': 'Reshape', 'special_zero': False}),
    (lambda x: tf.tile(x, [1, 2, 1, 1]), 'Tile', {'op': 'Tile', 'type': 'Tile'}),
    (lambda x: tf.transpose(x, [0, 3, 1, 2]), 'Transpose', {'op': 'Transpose', 'type': 'Transpose'}),
    (lambda x: tf.stack([x, x], axis=-1), 'Pack', {'op': 'Pack', 'axis': -1}),
    (lambda x: tf.unstack(x, axis=2)[0], 'Unpack', {'op': 'Unpack', 'axis': 2, 'num': 4}),
    (lambda x: tf.math.rsqrt(x), 'Rsqrt', {'op': 'Rsqrt', 'data_type': np.float32}),
    (lambda x: tf.raw_ops.RealDiv(x=x, y=x), 'RealDiv', {'op': 'Div', 'type': 'Divide'}),
    (lambda x: -x, 'Neg', {'op': 'Negative'}),
    (lambda x: tf.cast(tf.not_equal(x, 1.0), tf.float32), 'NotEqual', {'op': 'NotEqual', 'type': 'NotEqual'}),
    (lambda x: tf.where(x > 0, x, 0.0), 'SelectV2', {'op': 'Select', 'auto_broadcast': 'numpy'}),
])
def test_extracted_attributes(fn, tf_op, expected):
    graph, nodes = extracted(fn)
    node = nodes[tf_op]
    for key, value in expected.items():
        actual = node[key]
        if isinstance(value, type) and issubclass(value, np.generic):
            assert np.dtype(actual) == np.dtype(value), (key, actual)
        else:
            assert actual == value, (key, actual)
    assert node.has_valid('infer') or node.op in ('TFPad', 'Pack', 'Unpack', 'Rsqrt')


def test_squeeze_without_dims_squeezes_all():
    # the Model Optimizer's extractor always set squeeze_dims (empty: every size-1 dimension), and
    # legacy extensions such as the seed's SqueezeNormalize rely on it
    graph, nodes = extracted(lambda x: tf.squeeze(x[:, :1]))
    dims = nodes['Squeeze'].soft_get('squeeze_dims', None)
    assert dims is not None and dims.size == 0


def test_identity_removal_keeps_tensor_names():
    graph, _ = extracted(lambda x: tf.identity(tf.stop_gradient(x * 2.0), name='named'))
    front(graph)
    assert not graph.get_op_nodes(op='Identity')
    mul = graph.get_op_nodes(op='Mul')[0]
    names = set(mul.out_port(0).get_tensor_names())
    assert {'named:0', 'StopGradient:0', 'Identity:0'} <= names, names


def test_comparison_output_is_bool_without_constants():
    from tests.tensor_ops.tf_graphs import infer
    graph, nodes = extracted(lambda x: tf.cast(tf.logical_and(x > 1.0, tf.less(x, 3.0)), tf.float32))
    infer(front(graph))
    for op in ('Greater', 'Less', 'LogicalAnd'):
        node = graph.get_op_nodes(op=op)[0]
        assert node.out_port(0).data.get_data_type() == np.bool_, op
        assert list(node.out_port(0).data.get_shape()) == [-1, 3, 4, 5]
