"""The Model Optimizer's graph API as extension authors' own unit tests use it: graphs built from
node/edge dicts with ``mo.utils.unittest.graph``, checked with ``compare_graphs``."""
import numpy as np
import pytest

from mo.graph.graph import (Graph, Node, add_opoutput, dict_includes_compare_attrs, get_edge_attribute_between_nodes,
                            set_edge_attribute_between_nodes)
from mo.utils.error import Error
from mo.utils.unittest.graph import (build_graph, compare_graphs, connect, connect_front, regular_op,
                                     regular_op_with_shaped_data, result,
                                     valued_const_with_data)

PARAM = {'type': 'Parameter', 'op': 'Parameter'}
MUL = {'type': 'Multiply', 'op': 'Mul'}
RELU = {'type': 'ReLU', 'op': 'ReLU'}


def _middle_graph():
    nodes = {**regular_op_with_shaped_data('input', [1, 3], PARAM),
             **valued_const_with_data('k', np.array([2.0], dtype=np.float32)),
             **regular_op_with_shaped_data('mul', [1, 3], MUL),
             **result('out')}
    return build_graph(nodes, [*connect('input', '0:mul'), *connect('k', '1:mul'), *connect('mul', 'out')])


def test_build_graph_middle_phase_wiring_and_data_node_neighbours():
    graph = _middle_graph()
    assert graph.stage == 'middle'  # nobody set a stage and there are data nodes
    mul = Node(graph, 'mul')
    assert mul.in_port(1).data.get_value().tolist() == [2.0]
    assert mul.in_port(0).data.get_shape().tolist() == [1, 3]
    assert mul.in_port(0).get_source().node.id == 'input'
    data = Node(graph, 'mul_d')
    assert data.in_nodes() == [mul] and data.out_nodes() == [Node(graph, 'out')]
    assert data.in_node() == mul and data.out_node(0).id == 'out'


def test_compare_graphs_finds_differences_and_agreement():
    graph, ref = _middle_graph(), _middle_graph()
    assert compare_graphs(graph, ref, 'out', check_op_attrs=True) == (True, '')
    Node(ref, 'k_d')['value'] = np.array([3.0], dtype=np.float32)
    Node(ref, 'mul')['type'] = 'Add'
    flag, message = compare_graphs(graph, ref, 'out', check_op_attrs=True)
    assert not flag
    assert 'type is' in message and "'Multiply'" in message and 'k_d' in message


def test_graph_node_alias_and_get_node_id_by_name():
    graph = _middle_graph()
    assert graph.node['mul']['op'] == 'Mul'
    graph.node['mul']['name'] = 'my_mul'
    assert graph.get_node_id_by_name('my_mul') == 'mul'
    with pytest.raises(Error, match='No node with name nothing'):
        graph.get_node_id_by_name('nothing')


def test_erase_node_reconnects_its_input_to_its_consumers():
    nodes = {**regular_op('input', PARAM), **regular_op('relu', RELU), **regular_op('a', MUL), **regular_op('b', MUL)}
    graph = build_graph(nodes, [*connect_front('input', '0:relu'), *connect_front('relu', '0:a'),
                                *connect_front('relu', '1:b')])
    assert graph.stage == 'front'
    graph.erase_node(Node(graph, 'relu'))
    assert 'relu' not in graph
    assert Node(graph, 'a').in_port(0).get_source().node.id == 'input'
    assert Node(graph, 'b').in_port(1).get_source().node.id == 'input'


def test_erase_node_refuses_a_node_with_two_inputs():
    nodes = {**regular_op('x', PARAM), **regular_op('y', PARAM), **regular_op('mul', MUL), **regular_op('z', RELU)}
    graph = build_graph(nodes, [*connect_front('x', '0:mul'), *connect_front('y', '1:mul'), *connect_front('mul', 'z')])
    with pytest.raises(Error, match='2 inputs'):
        graph.erase_node(Node(graph, 'mul'))


def test_get_inputs_get_outputs_and_edge_attributes():
    graph = _middle_graph()
    mul = Node(graph, 'mul')
    assert sorted(u for u, _ in mul.get_inputs()) == ['input_d', 'k_d']
    assert [u for u, _ in mul.get_inputs({'in': 1})] == ['k_d']
    assert [v for v, _ in mul.get_outputs()] == ['mul_d']
    k_d = Node(graph, 'k_d')
    assert get_edge_attribute_between_nodes(k_d, mul, 'in') == 1
    set_edge_attribute_between_nodes(k_d, mul, 'custom', 'x')
    assert get_edge_attribute_between_nodes(k_d, mul, 'custom') == 'x'
    assert get_edge_attribute_between_nodes(k_d, mul, 'missing') is None


def test_get_inputs_with_ports_of_a_pattern_match():
    nodes = {**regular_op('a', PARAM), **regular_op('b', PARAM), **regular_op('mul', MUL)}
    graph = build_graph(nodes, [('a', 'mul', {'out': 0, 'in': 0}), ('b', 'mul', {'out': 0, 'in': 1})])
    match = {'x': Node(graph, 'a'), 'y': Node(graph, 'b'), 'm': Node(graph, 'mul')}
    inputs = graph.get_inputs_with_ports(match, [('x', 'm'), ('y', 'm')], ['y', 'x'])
    assert [(n.id, port) for n, port in inputs] == [('b', 0), ('a', 0)]


def test_topological_helpers_and_consistency_checks():
    graph = _middle_graph()
    order = [n.id for n in graph.pseudo_topological_sort_with_start_node(Node(graph, 'input'))]
    assert order.index('input') < order.index('mul') < order.index('out')
    assert 'k' not in order  # not reachable from the start node
    post = graph.dfs('input', set())
    assert post[-1] == 'input' and post[0] == 'out'
    graph.check_shapes_consistency()
    graph.check_nodes_ports_are_consecutive()
    Node(graph, 'mul_d')['shape'] = [1, 3]  # a list, not an array
    with pytest.raises(Error, match='inconsistent shapes'):
        graph.check_shapes_consistency()


def test_add_opoutput_in_front_and_middle_phase():
    nodes = {**regular_op('input', PARAM), **regular_op('relu', RELU)}
    graph = build_graph(nodes, [*connect_front('input', 'relu')])
    result_id = add_opoutput(graph, 'relu', 0, False)
    assert Node(graph, result_id).in_port(0).get_source().node.id == 'relu'
    middle = _middle_graph()
    result_id = add_opoutput(middle, 'input_d', 0, False)
    assert Node(middle, result_id).in_port(0).get_source().node.id == 'input'


@pytest.mark.parametrize('attr, probe, expected', [
    (np.array([1, 2]), np.array([1, 2]), True), (np.array([1, 2]), np.array([1, 3]), False),
    (3, 3, True), ('Mul', 'Add', False), (5, lambda v: v > 4, True), (None, None, True),
])
def test_dict_includes_compare_attrs(attr, probe, expected):
    assert dict_includes_compare_attrs(attr, probe) is expected


def test_in_ports_leave_out_declared_control_flow_ports():
    graph = Graph()
    graph.add_node('n', kind='op', op='X')
    node = Node(graph, 'n')
    node.add_input_port(0)
    node.add_input_port(1, control_flow=True)
    assert list(node.in_ports()) == [0]
    assert list(node.in_ports(control_flow=True)) == [0, 1]


def test_replacer_match_count_before_the_pipeline_runs():
    from mo.front.common.replacement import FrontReplacementOp

    class ReluCounter(FrontReplacementOp):
        op = 'ReLU'
        enabled = False

        def replace_op(self, graph, node):
            return []

    assert ReluCounter.match_count == 0 and ReluCounter().match_count == 0


def test_fw_tensor_debug_info_lives_on_data_nodes_and_survives_rewiring():
    """As in the Model Optimizer, a data node's ``fw_tensor_debug_info`` holds (node, tensor) names;
    here they follow the tensor when its producer is replaced."""
    from mo.graph.graph import Node
    from mo.utils.unittest.graph import build_graph, regular_op_with_shaped_data, result
    graph = build_graph({**regular_op_with_shaped_data('a', [2], {'op': 'Relu', 'type': 'ReLU'}),
                         **regular_op_with_shaped_data('b', [2], {'op': 'Sigmoid', 'type': 'Sigmoid'}),
                         **result('out')},
                        [('a', 'a_d'), ('a_d', 'b'), ('b', 'b_d'), ('b_d', 'out')])
    a_data = Node(graph, 'a_d')
    a_data['fw_tensor_debug_info'] = [('relu', 'relu:0')]
    assert a_data['fw_tensor_debug_info'] == [('relu', 'relu:0')]
    assert a_data.has_valid('fw_tensor_debug_info') and 'fw_tensor_debug_info' in a_data
    replacement = Node(graph, 'b')
    Node(graph, 'a').out_port(0).get_connection().set_source(replacement.out_port(0))
    assert ('relu', 'relu:0') in replacement.out_port(0).get_tensor_debug_info()
    assert ('relu', 'relu:0') in replacement.out_node(0).soft_get('fw_tensor_debug_info')


def test_a_deep_copy_of_a_graph_is_independent_and_keeps_its_own_index():
    """``copy.deepcopy(graph)`` (authors' tests keep a reference graph so): the copy's attributes are its own, and
    its op index follows writes to the copy, not to the original."""
    import copy
    from mo.utils.unittest.graph import build_graph
    graph = build_graph({'x': {'kind': 'op', 'op': 'Parameter'}, 'r': {'kind': 'op', 'op': 'Relu', 'name': 'r'}},
                        [('x', 'r')])
    twin = copy.deepcopy(graph)
    twin.node['r']['op'] = 'Tanh'
    assert [n.id for n in twin.get_op_nodes(op='Tanh')] == ['r'] and not twin.get_op_nodes(op='Relu')
    assert [n.id for n in graph.get_op_nodes(op='Relu')] == ['r'] and not graph.get_op_nodes(op='Tanh')
    assert list(twin.edges()) == [('x', 'r')] and twin.get_node_by_name('r').id == 'r'
