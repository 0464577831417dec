"""The compact forms nodes are stored in (issue 28, memory per node) behave as the plain ones did.

Declared ports share one read-only record, a name held by one node is indexed by its bare id, a tensor's
first names are a list of their own: none of it may show through the API authors use.
"""
import copy
import pickle

import numpy as np
import pytest

from mo.graph.graph import Graph, Node, rename_nodes
from mo.middle.partial_infer import create_data_nodes
from mo.ops.activation_ops import Sigmoid, Tanh
from mo.ops.elementwise import Add
from mo.utils.graph_builder import build_graph


def _two_ops(stage='front'):
    graph = build_graph([('x', 'Parameter', {'shape': np.array([2])}), ('out', 'Result')], [('x', 'out')])
    if stage != 'front':
        create_data_nodes(graph)
    tanh = Tanh(graph, {'name': 'tanh'}).create_node()
    add = Add(graph, {'name': 'add'}).create_node()
    return graph, tanh, add


def test_declared_ports_read_as_plain_records_and_stay_independent():
    graph, tanh, add = _two_ops()
    for node in (tanh, add):
        assert all(record == {'control_flow': False} for record in node['_in_ports'].values())
        assert all(record['control_flow'] is False for record in node['_out_ports'].values())
    assert sorted(add.in_ports()) == [0, 1] and sorted(tanh.out_ports()) == [0]
    tanh.out_port(0).add_tensor_names(['t:0'])
    add.out_port(0).data.set_shape([3])
    assert tanh.out_port(0).get_tensor_names() == ['t:0'] and add.out_port(0).get_tensor_names() == []
    assert add.out_port(0).data.get_shape().tolist() == [3] and tanh.out_port(0).data.get_shape() is None
    # a record that something was written to is the port's own
    assert tanh['_out_ports'][0] is not add['_out_ports'][0]
    assert tanh['_in_ports'][0] == {'control_flow': False}


def test_control_flow_ports_get_records_of_their_own():
    graph, tanh, _ = _two_ops()
    tanh.add_input_port(1, control_flow=True)
    tanh.in_port(2)
    assert tanh['_in_ports'][1] == {'control_flow': True} and tanh['_in_ports'][2] == {'control_flow': False}
    assert sorted(tanh.in_ports()) == [0, 2] and sorted(tanh.in_ports(control_flow=True)) == [0, 1, 2]


def test_the_shared_record_refuses_writes_instead_of_changing_every_port():
    _, tanh, add = _two_ops()
    record = tanh['_in_ports'][0]
    with pytest.raises(TypeError, match='read-only'):
        record['control_flow'] = True
    with pytest.raises(TypeError, match='read-only'):
        record.update(x=1)
    assert record.pop('missing', None) is None
    assert add['_in_ports'][1] == {'control_flow': False}


def test_copied_and_pickled_port_tables_read_the_same():
    _, _, add = _two_ops()
    table = add['_in_ports']
    for other in (copy.deepcopy(table), copy.copy(table), pickle.loads(pickle.dumps(table))):
        assert other == {0: {'control_flow': False}, 1: {'control_flow': False}}
        with pytest.raises(TypeError, match='read-only'):
            other[0]['control_flow'] = True


def test_ops_made_alike_share_one_input_table_until_their_ports_change():
    graph, _, add = _two_ops()
    other = Add(graph, {'name': 'add2'}).create_node()
    assert add['_in_ports'] is other['_in_ports']  # one read-only table for every op of two plain inputs
    with pytest.raises(TypeError, match='read-only'):
        add['_in_ports'][2] = {'control_flow': False}
    with pytest.raises(TypeError, match='read-only'):
        add['_in_ports'].pop(0)
    assert add['_in_ports'].setdefault(0) == {'control_flow': False}
    # each way of changing one op's ports gives it a table of its own and leaves the other's alone
    changes = (lambda node: node.add_input_port(2), lambda node: node.in_port(3),
               lambda node: node.add_input_port(4, control_flow=True), lambda node: node.delete_input_port(1))
    for change in changes:
        node = Add(graph, {'name': 'changed'}).create_node()
        change(node)
        assert node['_in_ports'] is not other['_in_ports']
        assert sorted(other.in_ports()) == [0, 1] and other['_in_ports'] == {0: {'control_flow': False},
                                                                             1: {'control_flow': False}}
    assert sorted(node.in_ports()) == [0]
    # reading never unshares: ports asked for, connected and read
    other.in_port(1)
    assert sorted(other.in_ports(control_flow=True)) == [0, 1] and other['_in_ports'] is add['_in_ports']
    assert copy.deepcopy(graph).nodes[add.id]['_in_ports'] is add['_in_ports']
    assert pickle.loads(pickle.dumps(add['_in_ports'])) is add['_in_ports']


def test_ops_wired_through_shared_records_convert_like_fresh_ones():
    graph = build_graph([('x', 'Parameter', {'shape': np.array([2])}), ('out', 'Result')], [('x', 'out')])
    x = Node(graph, 'x')
    sig = Sigmoid(graph, {'name': 'sig'}).create_node()
    x.out_port(0).get_connection().insert_node(sig)
    assert sig.in_port(0).get_source().node.id == 'x'
    assert [d.node.id for d in sig.out_port(0).get_destinations()] == ['out']


def test_name_lookups_follow_renames_duplicates_and_removals():
    graph = build_graph([('x', 'Parameter', {'shape': np.array([2])}), ('a', 'ReLU'), ('b', 'Tanh'),
                         ('out', 'Result')], [('x', 'a'), ('a', 'b'), ('b', 'out')])
    a, b = Node(graph, 'a'), Node(graph, 'b')
    assert graph.get_node_by_name('a') == a and graph.count_by_attr('name', 'a') == 1
    assert graph.nodes_by_attr('name', 'a') == ['a']
    graph.nodes['b']['name'] = 'a'  # two nodes with one name (a data node and its op, e.g.)
    assert graph.nodes_by_attr('name', 'a') == ['a', 'b'] and graph.count_by_attr('name', 'a') == 2
    graph.nodes['b']['name'] = 'b'
    assert graph.nodes_by_attr('name', 'a') == ['a'] and graph.nodes_by_attr('name', 'b') == ['b']
    rename_nodes([(a, 'a/TBR'), (b, 'a')])
    assert graph.get_node_by_name('a') == b and graph.get_node_by_name('a/TBR') == a
    assert graph.count_by_attr('name', 'b') == 0
    graph.remove_node('a')
    assert graph.get_node_by_name('a/TBR') is None and graph.nodes_by_attr('name', 'a/TBR') == []


def test_names_index_nodes_whose_ids_are_not_strings():
    graph = Graph()
    graph.add_node(7, kind='op', op='ReLU', name='seven')
    graph.add_node(('t', 1), kind='op', op='ReLU', name='pair')
    assert graph.nodes_by_attr('name', 'seven') == [7] and graph.nodes_by_attr('name', 'pair') == [('t', 1)]
    graph.nodes[7]['name'] = 'pair'
    assert graph.count_by_attr('name', 'pair') == 2 and graph.nodes_by_attr('name', 'seven') == []


def test_tensor_names_added_in_steps_keep_their_order_once_each():
    _, tanh, _ = _two_ops()
    port = tanh.out_port(0)
    port.add_tensor_names(['t', 't:0', 't'])
    port.add_tensor_names(['u', 't'])
    port.add_tensor_names(['first'], first=True)
    assert port.get_tensor_names() == ['first', 't', 't:0', 'u']


def _expected_kind_order(graph, kind):
    return [n for n, attrs in graph.nodes(data=True) if attrs.get('kind') == kind]


def test_kinds_are_counted_and_listed_in_insertion_order_through_every_edit():
    rng = np.random.default_rng(5)
    graph = Graph()
    added = []
    for step in range(400):
        action = rng.integers(4) if added else 0
        if action == 0:
            node_id = 'n{}'.format(step)
            graph.add_node(node_id, kind=('op', 'data')[rng.integers(2)], op='ReLU')
            added.append(node_id)
        elif action == 1:
            graph.remove_node(added.pop(rng.integers(len(added))))
        elif action == 2:  # a kind rewritten in place, through each write form
            node_id = added[rng.integers(len(added))]
            new_kind = ('op', 'data')[rng.integers(2)]
            forms = (lambda: graph.nodes[node_id].__setitem__('kind', new_kind),
                     lambda: graph.nodes[node_id].update(kind=new_kind),
                     lambda: setattr(Node(graph, node_id), 'kind', new_kind))
            forms[rng.integers(3)]()
        else:  # the node order rewritten
            order = list(graph.nodes)
            rng.shuffle(order)
            graph.reorder(order)
        for kind in ('op', 'data'):
            expected = _expected_kind_order(graph, kind)
            assert graph.nodes_by_attr('kind', kind) == expected
            assert graph.count_by_attr('kind', kind) == len(expected)
        ids = list(graph.nodes)
        shuffled = list(ids)
        rng.shuffle(shuffled)
        assert graph.in_insertion_order(shuffled) == ids
    assert graph.phase == ('middle' if _expected_kind_order(graph, 'data') else 'front')


def test_insertion_ranks_survive_copies_and_order_sorts_and_topological_ties():
    graph = Graph()
    for name in ('c', 'a', 'b'):  # three sources: the topological order breaks their tie by insertion
        graph.add_node(name, kind='op', op='Const')
    graph.add_node('sum', kind='op', op='AddN')
    for name in ('c', 'a', 'b'):
        graph.add_edge(name, 'sum')
    for other in (copy.deepcopy(graph), graph.copy(), pickle.loads(pickle.dumps(graph))):
        assert other.topological_ids() == ['c', 'a', 'b', 'sum']
        assert other.in_insertion_order(['sum', 'b', 'a', 'c']) == ['c', 'a', 'b', 'sum']
        assert other.nodes_by_attr('kind', 'op') == ['c', 'a', 'b', 'sum']
        other.add_node('late', kind='op', op='Const')
        assert other.in_insertion_order(['late', 'c']) == ['c', 'late']
    graph.remove_node('c')
    graph.add_node('c', kind='op', op='Const')  # added again: now the last one
    assert graph.in_insertion_order(['c', 'a', 'b']) == ['a', 'b', 'c']


def test_a_data_node_without_name_and_value_keys_reads_as_the_model_optimizers_name_id_value_none():
    graph = build_graph([('x', 'Parameter', {'shape': np.array([2])}), ('t', 'Tanh'), ('out', 'Result')],
                        [('x', 't'), ('t', 'out')])
    create_data_nodes(graph)
    tanh = Node(graph, 't')
    data = tanh.out_node(0)
    assert 'value' not in graph.node_attrs(data.id) and 'name' not in graph.node_attrs(data.id)  # the compact form
    assert data.name == data['name'] == data.soft_get('name') == graph.nodes[data.id]['name'] == data.id
    assert 'name' in data and graph.nodes_by_attr('name', data.id) == [data.id]
    assert graph.count_by_attr('name', data.id) == 1 and graph.get_node_id_by_name(data.id) == data.id
    assert data.value is None and data['value'] is None and data.soft_get('value') is None
    assert graph.nodes[data.id]['value'] is None and graph.nodes[data.id].get('value') is None
    assert 'value' in data and data.has('value') and not data.has_valid('value')
    assert tanh.out_port(0).data.get_value() is None
    tanh.out_port(0).data.set_value(np.array([0.5, 1.0], np.float32))
    assert data.value.tolist() == [0.5, 1.0] and data.has_valid('value')
    # an op keeps the plain dict behaviour: a missing key is missing
    with pytest.raises(AttributeError):
        tanh.value
    with pytest.raises(KeyError):
        graph.nodes['t']['value']
    assert tanh.soft_get('value') == '<UNKNOWN>' and 'value' not in tanh
