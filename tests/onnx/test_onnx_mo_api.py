"""The Model Optimizer's ONNX module names (issue 25): ``mo.front.onnx.loader`` (``load_onnx_model`` returns the
ModelProto, ``protobuf2nx(graph, model_proto)``) and ``mo.front.onnx.extractor`` (``onnx_op_extractors``,
``onnx_op_extractor``, ``common_onnx_fields``, ``node_pb_arg``), as extension code written for the Model Optimizer
calls them."""
import os

import numpy as np
import pytest

from mo.front.onnx.extractor import (common_onnx_fields, lowered_keys_map, node_pb_arg, onnx_op_extractor,
                                     onnx_op_extractors)
from mo.front.onnx.loader import load_onnx_model, protobuf2nx, read_onnx_model
from mo.front.onnx.proto import ModelProto
from mo.graph.graph import Graph, Node
from mo.utils.error import Error
from mo.utils.import_extensions import load_dir
from tests.onnx.onnx_oracle import make_model

onnx = pytest.importorskip('onnx')
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT
WEIGHT = np.arange(12, dtype=np.float32).reshape(3, 4)


def small_model():
    return make_model([helper.make_node('MatMul', ['x', 'w'], ['m'], name='/fc/MatMul'),
                       helper.make_node('Relu', ['m'], ['y'], name='/act/Relu'),
                       helper.make_node('MyOp', ['y'], ['z'], name='my', domain='com.example', alpha=2.0)],
                      [('x', F, [2, 3])], [('z', F, [2, 4])], initializers={'w': WEIGHT},
                      domains={'com.example': 1})


def by_name(graph):
    return {Node(graph, n).soft_get('name', n): Node(graph, n) for n in graph.nodes}


# ----- mo.front.onnx.loader ---------------------------------------------------------------------------------------
def test_load_onnx_model_returns_the_model_proto_with_its_weights(tmp_path):
    path = str(tmp_path / 'm.onnx')
    onnx.save(small_model(), path)
    model = load_onnx_model(path)
    assert isinstance(model, ModelProto)
    assert [n.name for n in model.graph.node] == ['/fc/MatMul', '/act/Relu', 'my']  # the onnx package's fields
    [w] = model.graph.initializer
    np.testing.assert_array_equal(numpy_helper.to_array(onnx.TensorProto.FromString(w.SerializeToString())), WEIGHT)
    # the same message as the onnx package reads
    assert onnx.ModelProto.FromString(model.SerializeToString()) == onnx.load(path)


def test_load_onnx_model_reads_external_data_in(tmp_path):
    big = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    model = make_model([helper.make_node('MatMul', ['x', 'w'], ['y'], name='mm')], [('x', F, [1, 64])],
                       [('y', F, [1, 64])], initializers={'w': big})
    path = str(tmp_path / 'ext.onnx')
    onnx.save(model, path, save_as_external_data=True, all_tensors_to_one_file=True, location='ext.bin',
              size_threshold=0)
    loaded = load_onnx_model(path)
    [w] = loaded.graph.initializer
    assert w.data_location == 0 and not len(w.external_data)
    np.testing.assert_array_equal(np.frombuffer(w.raw_data, np.float32).reshape(64, 64), big)
    # mo's own reader keeps the weights where they are: a view of the mapped file
    graph = protobuf2nx(Graph(), read_onnx_model(path))
    value = by_name(graph)['w'].value
    assert not value.flags.owndata
    np.testing.assert_array_equal(value, big)


@pytest.mark.parametrize('kind', ['ours', 'onnx', 'bytes'])
def test_protobuf2nx_takes_a_model_proto(kind):
    model = small_model()
    source = {'ours': lambda: load_onnx_model(model.SerializeToString()), 'onnx': lambda: model,
              'bytes': lambda: read_onnx_model(model.SerializeToString())}[kind]()
    graph = Graph()
    assert protobuf2nx(graph, source) is graph
    nodes = by_name(graph)
    assert nodes['/fc/MatMul'].pb.op_type == 'MatMul' and nodes['my'].domain == 'com.example'
    np.testing.assert_array_equal(nodes['w'].value, WEIGHT)
    assert {(Node(graph, u).name, Node(graph, v).name, d['in']) for u, v, d in graph.edges(data=True)} == \
        {('x', '/fc/MatMul', 0), ('w', '/fc/MatMul', 1), ('/fc/MatMul', '/act/Relu', 0), ('/act/Relu', 'my', 0)}
    assert graph.graph['source_format'] == 'onnx'


def test_protobuf2nx_rejects_what_is_not_a_model():
    with pytest.raises(Error, match='Cannot read an ONNX model from int'):
        read_onnx_model(3)


# ----- mo.front.onnx.extractor ------------------------------------------------------------------------------------
def test_onnx_op_extractors_is_the_live_registry():
    assert 'Relu' in onnx_op_extractors and 'MatMul' in onnx_op_extractors and 'MyOp' not in onnx_op_extractors
    load_dir(os.path.join(HERE, 'ext_custom_op'))  # the registry is restored after the test (tests/conftest.py)
    assert 'MyOp' in onnx_op_extractors
    assert onnx_op_extractors['MyOp'].extractor_class.__name__ == 'MyOpExtractor'
    with pytest.raises(Error, match='FrontExtractorOp'):
        onnx_op_extractors['Other'] = lambda node: {}


def test_onnx_op_extractor_extracts_like_the_model_optimizer():
    load_dir(os.path.join(HERE, 'ext_custom_op'))
    graph = protobuf2nx(Graph(), small_model())
    nodes = by_name(graph)
    keys = lowered_keys_map()
    assert keys['relu'] == 'Relu'
    supported, attrs = onnx_op_extractor(nodes['/act/Relu'], keys)
    assert supported and attrs['op'] == nodes['/act/Relu'].op == 'ReLU' and attrs['name'] == '/act/Relu'
    supported, attrs = onnx_op_extractor(nodes['my'], keys)
    assert supported and attrs['op'] == 'MyOp' and attrs['alpha'] == 2.0 and attrs['version'] == 'extension'
    # a node the loader made (an initializer) needs no extractor
    supported, attrs = onnx_op_extractor(nodes['w'], keys)
    assert supported and attrs['op'] == 'Const'
    # an op no extractor knows
    supported, attrs = onnx_op_extractor(nodes['/fc/MatMul'], {})
    assert not supported and attrs == {'kind': 'op', 'name': '/fc/MatMul', 'op': 'MatMul'}


def test_common_fields_and_node_pb_arg():
    graph = protobuf2nx(Graph(), small_model())
    node = by_name(graph)['my']
    assert common_onnx_fields(node) == {'kind': 'op', 'name': 'my', 'op': 'MyOp'}
    # an extractor written for the NodeProto alone
    alpha_of = node_pb_arg(lambda pb: {'alpha': [a.f for a in pb.attribute if a.name == 'alpha'][0]})
    assert alpha_of(node) == {'alpha': 2.0}
