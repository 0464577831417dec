"""GraphDef -> Graph -> GraphDef: conventions, exact round trips, edits, errors."""
import networkx as nx
import numpy as np
import pytest

from mo.back.tf.graphdef_writer import graph_to_graph_def, write_graph
from mo.front.tf.loader import graph_def_to_graph, load_tf_graph
from mo.front.tf.proto import GraphDef, NodeDef
from mo.utils.error import Error


def _det(msg):
    return msg.SerializeToString(deterministic=True)


def _ours(tf_graph_def):
    return GraphDef.FromString(tf_graph_def.SerializeToString())


@pytest.mark.parametrize('fixture', ['v1_graph_def', 'function_graph_def', 'keras_graph_def'])
def test_round_trip_is_byte_exact(request, fixture):
    theirs = request.getfixturevalue(fixture)
    graph = graph_def_to_graph(_ours(theirs))
    assert _det(graph_to_graph_def(graph)) == _det(theirs)


def test_function_graph_keeps_its_library(function_graph_def):
    assert function_graph_def.library.function, 'the fixture should have a function library'
    graph = graph_def_to_graph(_ours(function_graph_def))
    assert graph.graph['tf_library'] is not None and len(graph.graph['tf_library'].function) >= 2
    assert graph.graph['tf_versions'].producer == function_graph_def.versions.producer
    assert graph.graph['source_format'] == 'tf'


def test_absent_versions_and_library_are_none():
    gd = GraphDef()
    gd.node.add(name='a', op='NoOp')
    graph = graph_def_to_graph(gd)
    assert graph.graph['tf_versions'] is None and graph.graph['tf_library'] is None
    assert _det(graph_to_graph_def(graph)) == _det(gd)


def test_node_and_edge_conventions(v1_graph_def):
    graph = graph_def_to_graph(_ours(v1_graph_def))
    assert list(graph.nodes) == [n.name for n in v1_graph_def.node]
    mm = graph.nodes['matmul']
    assert mm['kind'] == 'op' and mm['name'] == 'matmul' and mm['op'] == 'MatMul'
    assert mm['device'] == '/device:CPU:0'
    assert isinstance(mm['pb'], NodeDef) and mm['pb'].name == 'matmul'

    def in_edges(name):
        return sorted((u, d.get('in', -1), d.get('out', -1), d.get('control_index', -1),
                       d.get('control_flow_edge', False)) for u, _, d in graph.in_edges(name, data=True))

    assert in_edges('matmul') == [('w', 1, 0, -1, False), ('x', 0, 0, -1, False)]
    assert in_edges('out') == [('split', 0, 1, -1, False), ('split', 1, 0, -1, False)]
    scaled_inputs = list(graph.nodes['scaled']['pb'].input)
    assert scaled_inputs[:2] == ['matmul', 'scale'] and sorted(scaled_inputs[2:]) == ['^flag', '^marker']
    assert in_edges('scaled') == sorted([(scaled_inputs[2][1:], -1, -1, 0, True),
                                         (scaled_inputs[3][1:], -1, -1, 1, True),
                                         ('matmul', 0, 0, -1, False), ('scale', 1, 0, -1, False)])
    control = [d for _, _, d in graph.in_edges('scaled', data=True) if d.get('control_flow_edge')]
    assert all('in' not in d and 'out' not in d for d in control)


def test_const_values_are_zero_copy_views(v1_graph_def):
    graph = graph_def_to_graph(_ours(v1_graph_def))
    w = graph.nodes['w']
    assert w['value'] is w['pb_value']
    assert not w['value'].flags.writeable
    np.testing.assert_array_equal(w['value'], np.arange(16, dtype=np.float32).reshape(4, 4) / 7.0)
    assert graph.nodes['scale']['value'] == np.float32(2.5)
    assert list(graph.nodes['words']['value']) == [b'a', b'\xff\x00bytes', 'ünïcode'.encode('utf-8')]
    assert 'value' not in graph.nodes['matmul']


def test_changed_const_value_is_written_and_runs(tf, tf_run, v1_graph_def):
    graph = graph_def_to_graph(_ours(v1_graph_def))
    graph.nodes['scale']['value'] = np.array(-1.0, np.float32)
    graph.nodes['w']['value'] = np.eye(4, dtype=np.float32)
    out = graph_to_graph_def(graph)
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    got, = tf_run(out.SerializeToString(), {'x': x}, ['out'])
    scaled = -x
    np.testing.assert_allclose(got, scaled[:, 2:] + scaled[:, :2])
    # The writer updated dtype along with the tensor; other nodes are untouched.
    by_name = {n.name: n for n in out.node}
    assert by_name['w'].attr['dtype'].type == 1 and by_name['w'].attr['value'].tensor.tensor_content


def test_const_dtype_choice(v1_graph_def):
    graph = graph_def_to_graph(_ours(v1_graph_def))
    graph.nodes['scale']['value'] = np.array([1, 2], np.int64)  # incompatible with DT_FLOAT: numpy decides
    graph.nodes['w']['value'] = np.ones((2,), np.uint16)
    graph.nodes['w']['tf_dtype'] = 14  # bfloat16 bit patterns
    by_name = {n.name: n for n in graph_to_graph_def(graph).node}
    assert by_name['scale'].attr['dtype'].type == 9 and by_name['scale'].attr['value'].tensor.dtype == 9
    assert by_name['w'].attr['dtype'].type == 14 and by_name['w'].attr['value'].tensor.dtype == 14


def test_keras_model_survives_a_round_trip_through_files(tf, tf_run, tmp_path, keras_graph_def):
    (tmp_path / 'k.pb').write_bytes(keras_graph_def.SerializeToString())
    graph = load_tf_graph(tmp_path / 'k.pb')
    write_graph(graph, tmp_path / 'k2.pbtxt', as_text=True)
    graph2 = load_tf_graph(tmp_path / 'k2.pbtxt')
    out = graph_to_graph_def(graph2)
    assert _det(out) == _det(keras_graph_def)
    feeds = {'input': np.random.default_rng(0).standard_normal((2, 6)).astype(np.float32)}
    expected, = tf_run(keras_graph_def.SerializeToString(), feeds, ['Identity'])
    got, = tf_run(out.SerializeToString(), feeds, ['Identity'])
    np.testing.assert_array_equal(got, expected)


def test_tensorflow_graph_def_is_accepted_directly(v1_graph_def):
    graph = graph_def_to_graph(v1_graph_def)
    assert isinstance(graph.nodes['w']['pb'], NodeDef)
    assert _det(graph_to_graph_def(graph)) == _det(v1_graph_def)


def test_graph_class_and_existing_graph(v1_graph_def):
    graph = graph_def_to_graph(_ours(v1_graph_def), graph_class=nx.MultiDiGraph)
    assert type(graph) is nx.MultiDiGraph
    target = nx.MultiDiGraph()
    assert graph_def_to_graph(_ours(v1_graph_def), target) is target
    assert _det(graph_to_graph_def(target)) == _det(v1_graph_def)


def test_default_graph_class_is_the_framework_graph(v1_graph_def):
    from mo.front.tf.loader import default_graph_class
    graph = graph_def_to_graph(_ours(v1_graph_def))
    assert isinstance(graph, default_graph_class())
    assert isinstance(graph, nx.MultiDiGraph)


def _graph_def(*nodes):
    gd = GraphDef()
    for name, op, inputs in nodes:
        gd.node.add(name=name, op=op, input=inputs)
    return gd


def test_dangling_input_names_both_nodes():
    gd = _graph_def(('a', 'NoOp', []), ('b', 'Identity', ['ghost:1']))
    with pytest.raises(Error, match='"b".*"ghost:1".*"ghost"'):
        graph_def_to_graph(gd)
    gd = _graph_def(('a', 'NoOp', ['^phantom']))
    with pytest.raises(Error, match='"a".*phantom'):
        graph_def_to_graph(gd)


def test_duplicate_names_and_malformed_inputs():
    with pytest.raises(Error, match='more than one node named "a"'):
        graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('a', 'NoOp', [])))
    with pytest.raises(Error, match='"b".*malformed input "a:x"'):
        graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('b', 'Identity', ['a:x'])))


def test_const_without_value_is_an_error():
    with pytest.raises(Error, match='Const node "c"'):
        graph_def_to_graph(_graph_def(('c', 'Const', [])))


def test_inputs_are_ordered_from_edges_not_pb():
    gd = _graph_def(('a', 'NoOp', []), ('b', 'NoOp', []), ('c', 'Foo', ['a:3', 'b', '^b', '^a']))
    graph = graph_def_to_graph(gd)
    del graph.nodes['c']['pb'].input[:]  # not authoritative
    assert list(graph_to_graph_def(graph).node[2].input) == ['a:3', 'b', '^b', '^a']
    # Swap the data inputs and move a control edge to the front through the edges alone.
    for _, _, d in graph.in_edges('c', data=True):
        if 'in' in d:
            d['in'] = 1 - d['in']
        else:
            d['control_index'] = 1 - d['control_index']
    assert list(graph_to_graph_def(graph).node[2].input) == ['b', 'a:3', '^a', '^b']


def test_renamed_nodes_and_nodes_without_pb():
    gd = _graph_def(('a', 'Placeholder', []), ('b', 'Identity', ['a']))
    graph = graph_def_to_graph(gd)
    graph.nodes['a']['name'] = 'renamed'
    graph.add_node('new', kind='op', name='new', op='Cast', device='/cpu:0',
                   tf_attrs={'SrcT': np.float32, 'DstT': np.dtype(np.int32), 'Truncate': False})
    graph.add_edge('b', 'new', **{'out': 0, 'in': 0})
    graph.add_edge('a', 'new', control_flow_edge=True)  # no index: goes last
    graph.add_node('data_only', kind='data')
    out = graph_to_graph_def(graph)
    assert [n.name for n in out.node] == ['renamed', 'b', 'new']
    assert list(out.node[1].input) == ['renamed']
    new = out.node[2]
    assert new.op == 'Cast' and new.device == '/cpu:0' and list(new.input) == ['b', '^renamed']
    assert new.attr['SrcT'].type == 1 and new.attr['DstT'].type == 3 and new.attr['Truncate'].b is False


def test_data_nodes_are_traced_to_their_producer():
    gd = _graph_def(('a', 'Split', []), ('b', 'AddV2', ['a:1', 'a']))
    graph = graph_def_to_graph(gd)
    # Middle-phase shape: op -> data -> op.
    graph.remove_edges_from(list(graph.in_edges('b', keys=True)))
    graph.add_node('a/out1', kind='data')
    graph.add_node('a/out0', kind='data')
    graph.add_edge('a', 'a/out1', out=1)
    graph.add_edge('a', 'a/out0', out=0)
    graph.add_edge('a/out1', 'b', **{'in': 0})
    graph.add_edge('a/out0', 'b', **{'in': 1})
    assert list(graph_to_graph_def(graph).node[1].input) == ['a:1', 'a']


def test_writer_rejects_broken_inputs():
    graph = graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('b', 'AddV2', ['a', 'a:1'])))
    for _, _, d in graph.in_edges('b', data=True):
        d['in'] = 0
    with pytest.raises(Error, match='"b".*input 0 has more than one producer'):
        graph_to_graph_def(graph)
    graph = graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('b', 'AddV2', ['a', 'a:1'])))
    graph.add_node('c', kind='op', name='c')
    with pytest.raises(Error, match='"c".*no TensorFlow op type'):
        graph_to_graph_def(graph)


@pytest.mark.parametrize('model', ['small_cnn_bn', 'mobilenet_v2'])
def test_streamed_file_is_the_deterministic_serialization(tmp_path, model):
    """``write_graph`` streams large tensors from their arrays: the file holds exactly the bytes of the
    GraphDef's deterministic serialization, for weights read from the file and left alone (then the
    file's own bytes) and for weights a transform replaced."""
    from mo.front.tf.graphdef_io import read_graph_def_and_bytes
    from mo.front.tf.wire import const_contents
    from mo.pipeline.transform import transform_graph
    from mo.utils.import_extensions import load_builtin
    from tests.support.models import get_model
    load_builtin(with_converter=False)
    record = get_model(model)
    (tmp_path / 'in.pb').write_bytes(record.graph_def)
    graph_def, data, _ = read_graph_def_and_bytes(tmp_path / 'in.pb')
    graph = graph_def_to_graph(graph_def, const_contents=const_contents(data))
    assert any(attrs.get('pb_value_in_file') and attrs['value'].nbytes >= 4096 for _, attrs in graph.nodes(data=True))
    write_graph(graph, tmp_path / 'same.pb')
    assert (tmp_path / 'same.pb').read_bytes() == record.graph_def
    graph = transform_graph(graph, record.input_names, record.output_names,
                            'fold_constants fold_batch_norms quantize_weights(minimum_size=4000)')
    write_graph(graph, tmp_path / 'folded.pb')
    assert (tmp_path / 'folded.pb').read_bytes() == _det(graph_to_graph_def(graph))
    assert not list(tmp_path.glob('.*.tmp'))


def test_write_graph_failure_leaves_nothing(tmp_path, v1_graph_def):
    graph = graph_def_to_graph(_ours(v1_graph_def))
    (tmp_path / 'out.pb').write_bytes(b'old')
    node = next(n for n, a in graph.nodes(data=True) if a.get('op') == 'Const')
    graph.nodes[node]['value'] = np.array(['a', 1.5j], dtype=object)  # cannot be a tensor
    with pytest.raises(Error):
        write_graph(graph, tmp_path / 'out.pb')
    assert (tmp_path / 'out.pb').read_bytes() == b'old' and not list(tmp_path.glob('.*.tmp'))


def test_inputs_become_the_edges_add_edge_makes():
    """The loader adds a model's nodes and edges in one step each: the same graph as networkx's add_node/add_edge
    calls (a plain MultiDiGraph loads through them), bare names, ports, control inputs, repeats and forward names."""
    gd = _graph_def(('a', 'NoOp', ['^d']), ('b', 'Identity', ['a', 'a:1', 'a', '^a', '^d']),
                    ('c', 'AddN', ['b:0', 'd', 'b', '^a']), ('d', 'NoOp', []))
    ours, plain = graph_def_to_graph(gd), graph_def_to_graph(gd, graph_class=nx.MultiDiGraph)
    assert list(ours.nodes) == list(plain.nodes) == ['a', 'b', 'c', 'd']
    assert list(ours.edges(keys=True, data=True)) == list(plain.edges(keys=True, data=True))
    assert [ours.in_edge_list('b')] == [[('a', 0, {'out': 0, 'in': 0}), ('a', 1, {'out': 1, 'in': 1}),
                                         ('a', 2, {'out': 0, 'in': 2}),
                                         ('a', 3, {'control_flow_edge': True, 'control_index': 0}),
                                         ('d', 0, {'control_flow_edge': True, 'control_index': 1})]]
    assert ours.nodes_by_attr('op', 'NoOp') == ['a', 'd'] and ours.get_node_by_name('c').id == 'c'


@pytest.mark.parametrize('text', ['', 'a:', ':0', '^'])
def test_an_empty_or_half_input_is_malformed(text):
    with pytest.raises(Error, match='"b".*(malformed input|empty control input)'):
        graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('b', 'Identity', [text])))
