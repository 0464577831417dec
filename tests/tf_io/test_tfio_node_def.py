"""Creating TF nodes in a graph with add_tf_node / set_tf_attr, checked by running the result in TensorFlow."""
import numpy as np
import pytest

from mo.back.tf.graphdef_writer import graph_to_graph_def
from mo.front.tf import dtypes as dt
from mo.front.tf.attrs import encode_attr
from mo.front.tf.loader import default_graph_class
from mo.front.tf.node_def import add_tf_node, format_input, parse_input, set_tf_attr
from mo.front.tf.proto import AttrValue, NodeDef
from mo.utils.error import Error


def _graph():
    graph = default_graph_class()()
    graph.graph['tf_versions'] = None
    return graph


def test_built_graph_runs_in_tensorflow(tf, tf_run):
    graph = _graph()
    add_tf_node(graph, 'x', 'Placeholder', attrs={'dtype': np.float32, 'shape': encode_attr((None, 3), 'shape')})
    add_tf_node(graph, 'c', 'Const', attrs={'dtype': np.float32, 'value': np.array([1, 2, 3], np.float32)})
    add_tf_node(graph, 'noop', 'NoOp')
    add_tf_node(graph, 'sum', 'AddV2', inputs=['x', ('c', 0), '^noop'], attrs={'T': np.float32})
    add_tf_node(graph, 'axis', 'Const', attrs={'value': np.array(1, np.int32)})
    add_tf_node(graph, 'parts', 'Split', inputs=['axis', 'sum'], attrs={'T': np.float32, 'num_split': 3})
    add_tf_node(graph, 'out', 'Mul', inputs=['parts:2', ('parts', 1)], attrs={'T': encode_attr(1, 'type')})

    nodes = graph.nodes
    assert nodes['sum']['kind'] == 'op' and nodes['sum']['op'] == 'AddV2'
    assert list(nodes['sum']['pb'].input) == ['x', 'c', '^noop']
    edges = sorted((u, tuple(sorted(d.items()))) for u, _, d in graph.in_edges('sum', data=True))
    assert edges == [('c', (('in', 1), ('out', 0))), ('noop', (('control_flow_edge', True), ('control_index', 0))),
                     ('x', (('in', 0), ('out', 0)))]
    assert nodes['c']['value'] is nodes['c']['pb_value']
    assert nodes['axis']['pb'].attr['dtype'].type == dt.DT_INT32  # filled in from the tensor

    gd = graph_to_graph_def(graph)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got, = tf_run(gd.SerializeToString(), {'x': x}, ['out'])
    s = x + [1, 2, 3]
    np.testing.assert_array_equal(got, s[:, 2:] * s[:, 1:2])


def test_add_tf_node_errors():
    graph = _graph()
    add_tf_node(graph, 'a', 'NoOp')
    with pytest.raises(Error, match='"a".*already exists'):
        add_tf_node(graph, 'a', 'NoOp')
    with pytest.raises(Error, match='"b".*input node "ghost"'):
        add_tf_node(graph, 'b', 'Identity', inputs=['ghost'])
    assert 'b' not in graph
    with pytest.raises(Error, match='"b".*malformed input'):
        add_tf_node(graph, 'b', 'Identity', inputs=['a:'])
    with pytest.raises(Error, match='attribute "x" of node "b"'):
        add_tf_node(graph, 'b', 'Identity', attrs={'x': object()})


def test_set_tf_attr_with_and_without_pb():
    graph = _graph()
    add_tf_node(graph, 'c', 'Const', attrs={'value': np.zeros(2, np.float32), 'dtype': np.float32})
    attrs = graph.nodes['c']
    set_tf_attr(attrs, 'value', np.array([7, 8], np.int64))
    assert attrs['pb'].attr['dtype'].type == dt.DT_INT64
    np.testing.assert_array_equal(attrs['value'], [7, 8])
    assert attrs['value'] is attrs['pb_value']
    set_tf_attr(attrs, 'T', 3, kind='type')
    assert attrs['pb'].attr['T'].type == 3
    set_tf_attr(attrs, 'ready', AttrValue(b=True))
    assert attrs['pb'].attr['ready'].b

    graph.add_node('bare', kind='op', name='bare', op='Identity')
    set_tf_attr(graph.nodes['bare'], 'T', np.float32)
    assert graph.nodes['bare']['tf_attrs']['T'].type == dt.DT_FLOAT
    with pytest.raises(Error, match='attribute "T" of node "bare"'):
        set_tf_attr(graph.nodes['bare'], 'T', 'x', kind='type')
    gd = graph_to_graph_def(graph)
    assert gd.node[1].attr['T'].type == dt.DT_FLOAT
    assert list(gd.node[0].attr['value'].tensor.tensor_content) == list(np.array([7, 8], np.int64).tobytes())


def test_input_strings():
    assert parse_input('a') == ('a', 0)
    assert parse_input('scope/a:12') == ('scope/a', 12)
    assert parse_input('^a') == ('a', None)
    for bad in ('', ':1', 'a:', 'a:b', '^'):
        with pytest.raises(Error):
            parse_input(bad, 'n')
    assert format_input('a', 0) == 'a' and format_input('a', 2) == 'a:2' and format_input('a', None) == '^a'


def test_nodes_made_here_are_plain_node_defs():
    graph = _graph()
    add_tf_node(graph, 'n', 'Identity', device='/cpu:0')
    pb = graph.nodes['n']['pb']
    assert isinstance(pb, NodeDef) and pb.device == '/cpu:0' and graph.nodes['n']['device'] == '/cpu:0'
