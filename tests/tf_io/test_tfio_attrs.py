"""AttrValue decoding and encoding, checked against attributes TensorFlow itself writes."""
import numpy as np
import pytest

from mo.front.tf import dtypes as dt
from mo.front.tf.attrs import decode_attr, encode_attr, node_attrs
from mo.front.tf.proto import AttrValue, GraphDef, NameAttrList, NodeDef, TensorShapeProto


def _tf_graph_with_many_attr_kinds(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 8, 8, 3], name='x')
        y = tf.compat.v1.placeholder(tf.float32, None, name='unknown_rank')
        k = tf.constant(np.ones((3, 3, 3, 2), np.float32), name='k')
        c = tf.nn.conv2d(x, k, strides=[1, 2, 2, 1], padding='SAME', name='conv')
        tf.nn.leaky_relu(c, alpha=0.125, name='leaky')
        tf.matmul(tf.reshape(c, [1, -1]), tf.ones([32, 2]), transpose_b=False, transpose_a=False, name='mm')
        tf.identity_n([x, y], name='idn')
        tf.raw_ops.FakeQuantWithMinMaxArgs(inputs=x, min=-1.0, max=1.0, num_bits=8, name='fq')
        tf.raw_ops.EnsureShape(input=y, shape=[None, 3], name='ensure')
        tf.raw_ops.Bitcast(input=tf.constant([1.0]), type=tf.int32, name='bitcast')
        tf.strings.join(['a', 'b'], separator='-', name='join')
        tf.constant(['x', 'yy'], name='strings')
    return g.as_graph_def()


def test_decode_and_reencode_match_tensorflow(tf):
    from tensorflow.python.framework import op_def_registry
    gd = GraphDef.FromString(_tf_graph_with_many_attr_kinds(tf).SerializeToString())
    seen_kinds = set()
    for node in gd.node:
        op_def = op_def_registry.get(node.op)
        kinds = {a.name: a.type for a in op_def.attr}
        for name, decoded in node_attrs(node).items():
            if name not in kinds:
                continue
            original = node.attr[name]
            kind = kinds[name]
            seen_kinds.add(kind)
            encoded = encode_attr(decoded, kind)
            if kind == 'tensor' and not original.tensor.tensor_content and np.size(decoded) > 1:
                # A splat (one value padded to the shape) is written back in full: same values.
                np.testing.assert_array_equal(decode_attr(encoded), decoded)
                continue
            assert encoded.SerializeToString(deterministic=True) == original.SerializeToString(deterministic=True), \
                (node.name, name, kind, decoded)
    assert {'type', 'shape', 'tensor', 'string', 'int', 'float', 'bool', 'list(int)', 'list(type)'} <= seen_kinds


def test_decoded_forms(tf):
    gd = GraphDef.FromString(_tf_graph_with_many_attr_kinds(tf).SerializeToString())
    nodes = {n.name: node_attrs(n) for n in gd.node}
    assert nodes['x']['dtype'] == dt.DT_FLOAT and nodes['x']['shape'] == (1, 8, 8, 3)
    assert nodes['unknown_rank']['shape'] is None
    assert nodes['ensure']['shape'] == (-1, 3)
    assert nodes['conv']['strides'] == [1, 2, 2, 1] and nodes['conv']['padding'] == b'SAME'
    assert nodes['leaky']['alpha'] == 0.125 and isinstance(nodes['leaky']['alpha'], float)
    assert nodes['mm']['transpose_a'] is False
    assert nodes['fq']['num_bits'] == 8
    assert nodes['idn']['T'] == [dt.DT_FLOAT, dt.DT_FLOAT]
    assert nodes['bitcast']['type'] == dt.DT_INT32
    np.testing.assert_array_equal(nodes['k']['value'], np.ones((3, 3, 3, 2), np.float32))
    assert list(nodes['strings']['value']) == [b'x', b'yy']
    assert list(nodes['conv']) == sorted(nodes['conv'])  # attrs come in a stable order


def test_func_placeholder_and_empty_list():
    a = AttrValue()
    a.func.name = 'body'
    a.func.attr['T'].type = 1
    assert decode_attr(a) == 'body'
    assert decode_attr(encode_attr('body', 'func')) == 'body'
    a = AttrValue(placeholder='T')
    assert decode_attr(a) == 'T'
    empty = AttrValue()
    empty.list.SetInParent()
    assert decode_attr(empty) == []
    assert encode_attr([], 'list(int)').SerializeToString() == empty.SerializeToString()
    assert encode_attr([]).SerializeToString() == empty.SerializeToString()
    assert decode_attr(AttrValue()) is None


def test_encode_inference_and_kinds():
    assert encode_attr(True).b is True
    assert encode_attr(3).i == 3
    assert encode_attr(3, 'type').type == 3
    assert encode_attr(np.float16).type == dt.DT_HALF
    assert encode_attr(np.dtype(np.int64)).type == dt.DT_INT64
    assert encode_attr(0.5).f == 0.5
    assert encode_attr('NHWC').s == b'NHWC'
    assert decode_attr(encode_attr((2, None, -1), 'shape')) == (2, -1, -1)
    assert decode_attr(encode_attr(None, 'shape')) is None
    assert decode_attr(encode_attr([(1, 2), None], 'list(shape)')) == [(1, 2), None]
    assert decode_attr(encode_attr([(1, 2), ()])) == [(1, 2), ()]
    assert decode_attr(encode_attr([1, 2], 'list(type)')) == [1, 2]
    assert decode_attr(encode_attr([b'a', 'b'])) == [b'a', b'b']
    assert decode_attr(encode_attr([0.5, 1])) == [0.5, 1.0]
    np.testing.assert_array_equal(decode_attr(encode_attr(np.arange(3))), np.arange(3))
    shape = TensorShapeProto()
    shape.dim.add().size = 4
    assert decode_attr(encode_attr(shape)) == (4,)
    assert decode_attr(encode_attr(NameAttrList(name='f'))) == 'f'
    original = AttrValue(i=7)
    copy = encode_attr(original)
    assert copy == original and copy is not original
    with pytest.raises(ValueError):
        encode_attr(1.5, 'int')
    with pytest.raises(ValueError):
        encode_attr(object())
    with pytest.raises(ValueError):
        encode_attr(1, 'list(bogus)')


def test_node_attrs_does_not_insert_keys():
    node = NodeDef(name='n', op='Identity')
    node.attr['T'].type = 1
    assert node_attrs(node) == {'T': 1}
    assert list(node.attr) == ['T']
