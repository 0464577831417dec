"""Graph, Node, Port and Connection behaviour in the front and middle phases."""
import numpy as np
import pytest

from mo.graph.graph import Graph, Node, rename_nodes
from mo.middle.partial_infer import create_data_nodes
from mo.ops.activation_ops import Sigmoid
from mo.utils.error import Error
from mo.utils.graph_builder import build_graph, consumers


def diamond(stage='front'):
    graph = build_graph([('x', 'Parameter', {'shape': np.array([2])}), ('a', 'ReLU'), ('b', 'Tanh'),
                         ('add', 'Add'), ('out', 'Result')],
                        [('x', 'a'), ('x', 'b'), ('a', 'add', 0), ('b', 'add', 1), ('add', 'out')])
    if stage != 'front':
        create_data_nodes(graph)
    return graph


@pytest.mark.parametrize('stage', ['front', 'middle'])
def test_navigation(stage):
    graph = diamond(stage)
    x, add = Node(graph, 'x'), Node(graph, 'add')
    assert sorted(consumers(graph, 'x')) == [('a', 0), ('b', 0)]
    assert add.in_port(1).get_source().node.id == 'b'
    assert add.in_port(0).get_connection().get_destinations() == [add.in_port(0)]
    assert len(x.out_port(0).get_connection().get_destinations()) == 2


@pytest.mark.parametrize('stage', ['front', 'middle'])
def test_set_source_moves_every_consumer(stage):
    graph = diamond(stage)
    sig = Sigmoid(graph, {'name': 'sig'}).create_node()
    Node(graph, 'x').out_port(0).get_connection().set_source(sig.out_port(0))
    assert consumers(graph, sig.id) == [('a', 0), ('b', 0)]
    assert consumers(graph, 'x') == []


@pytest.mark.parametrize('stage', ['front', 'middle'])
def test_in_port_connection_set_destination_moves_only_that_input(stage):
    graph = diamond(stage)
    sig = Sigmoid(graph, {'name': 'sig'}).create_node()
    Node(graph, 'a').in_port(0).get_connection().set_destination(sig.in_port(0))
    assert consumers(graph, 'x') == [('b', 0), (sig.id, 0)]
    assert not Node(graph, 'a').is_in_port_connected(0)


@pytest.mark.parametrize('stage', ['front', 'middle'])
def test_insert_node(stage):
    graph = diamond(stage)
    sig = Sigmoid(graph, {'name': 'sig'}).create_node()
    Node(graph, 'x').out_port(0).get_connection().insert_node(sig)
    assert consumers(graph, 'x') == [(sig.id, 0)]
    assert consumers(graph, sig.id) == [('a', 0), ('b', 0)]


@pytest.mark.parametrize('stage', ['front', 'middle'])
def test_parallel_edges_survive_editing_one_of_them(stage):
    graph = build_graph([('x', 'Parameter'), ('mul', 'Mul'), ('out', 'Result')],
                        [('x', 'mul', 0), ('x', 'mul', 1), ('mul', 'out')])
    if stage != 'front':
        create_data_nodes(graph)
    sig = Sigmoid(graph, {'name': 'sig'}).create_node()
    mul = Node(graph, 'mul')
    mul.in_port(1).get_connection().set_destination(sig.in_port(0))
    assert mul.in_port(0).get_source().node.id == 'x'
    assert not mul.is_in_port_connected(1)
    sig.out_port(0).connect(mul.in_port(1))
    assert mul.in_port(1).get_source().node.id == sig.id
    assert mul.in_port(0).get_source().node.id == 'x'


def test_index_follows_every_kind_of_attribute_write():
    graph = diamond()
    Node(graph, 'a').op = 'Elu'
    graph.nodes['b']['op'] = 'Elu'
    assert [n.id for n in graph.get_op_nodes(op='Elu')] == ['a', 'b']
    assert graph.get_op_nodes(op='ReLU') == []
    del graph.nodes['a']['op']
    graph.nodes['b'].update(op='Selu')
    assert graph.get_op_nodes(op='Elu') == [] and [n.id for n in graph.get_op_nodes(op='Selu')] == ['b']
    graph.remove_node('b')
    assert graph.get_op_nodes(op='Selu') == []
    assert [n.id for n in graph.get_op_nodes(type='Result')] == ['out']


def test_node_attribute_helpers():
    graph = diamond()
    node = Node(graph, 'a')
    node['flag'] = np.array([1, 1])
    node['empty'] = None
    assert node.has_valid('flag') and node.has_and_set('flag') and not node.has_valid('empty')
    assert node.soft_get('missing', 7) == 7 and node.soft_get('missing') == '<UNKNOWN>'
    with pytest.raises(AttributeError):
        node.missing


def test_rename_nodes_swaps_names_and_refuses_duplicates():
    graph = diamond()
    a, b = Node(graph, 'a'), Node(graph, 'b')
    rename_nodes([(a, 'a/TBR'), (b, 'a')])
    assert graph.get_node_by_name('a') == b and graph.get_node_by_name('a/TBR') == a
    with pytest.raises(Error, match='another node'):
        rename_nodes([(a, 'a')])


def test_unique_id_and_create_edge():
    graph = diamond()
    assert graph.unique_id('fresh') == 'fresh'
    assert graph.unique_id('a') not in graph
    graph.create_edge(Node(graph, 'x'), Node(graph, 'add'), 0, 1)
    assert Node(graph, 'add').in_port(1).get_source().node.id == 'x'


def test_clean_up_removes_only_dead_code_and_keeps_inputs():
    graph = diamond()
    graph.add_node('dead', kind='op', op='ReLU')
    graph.add_edge('x', 'dead', out=0, **{'in': 0})
    graph.add_node('unused_input', kind='op', op='Parameter')
    graph.add_node('kept', kind='op', op='ReLU', undead=True)
    assert graph.clean_up() == 1
    assert 'dead' not in graph and 'unused_input' in graph and 'kept' in graph


def test_cycle_is_reported_with_names():
    graph = diamond()
    graph.add_edge('add', 'a', out=0, **{'in': 1})
    with pytest.raises(Error, match='cycle'):
        graph.pseudo_topological_sort()
