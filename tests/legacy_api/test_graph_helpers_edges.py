"""The graph helpers' edge cases, as the Model Optimizer's behaved (issue 29, point 3).

In the idiom of the Model Optimizer's own unit tests (``unittest`` classes, ``build_graph`` dicts,
``compare_graphs``), so that a ported author's test observes the same graphs, attributes and errors.
"""
import unittest

import numpy as np

from mo.graph.graph import Graph, Node
from mo.middle.passes.eliminate import mark_const_producer_nodes
from mo.middle.passes.infer import override_placeholder_shapes, partial_infer
from mo.ops.const import Const
from mo.utils.error import Error
from mo.utils.graph import sub_graph_between_nodes
from mo.utils.unittest.graph import build_graph, compare_graphs

IDENTITY = {'type': 'Identity', 'value': None, 'kind': 'op'}
PARAMETER = {'type': 'Parameter', 'op': 'Parameter', 'value': None, 'kind': 'op'}


class TestEraseNode(unittest.TestCase):
    def test_one_input_several_consumers_keep_their_input_ports(self):
        graph = build_graph({'input': PARAMETER, 'noop': {'type': 'NoOp', 'kind': 'op'},
                             'output_1': IDENTITY, 'output_2': IDENTITY, 'output_3': IDENTITY},
                            [('input', 'noop'),
                             ('noop', 'output_1', {'in': 4, 'out': 1}),
                             ('noop', 'output_2', {'in': 2, 'out': 1}),
                             ('noop', 'output_3', {'in': 10, 'out': 1})])
        graph.erase_node(Node(graph, 'noop'))
        self.assertNotIn('noop', graph)
        edges = sorted((v, d['in'], d['out']) for _, v, d in graph.out_edges('input', data=True))
        # each consumer now reads the output that fed the erased node
        self.assertEqual(edges, [('output_1', 4, 0), ('output_2', 2, 0), ('output_3', 10, 0)])

    def test_consumers_of_several_outputs_are_refused(self):
        graph = build_graph({'input': PARAMETER, 'noop': {'type': 'NoOp', 'kind': 'op'},
                             'output_1': IDENTITY, 'output_2': IDENTITY},
                            [('input', 'noop'), ('noop', 'output_1', {'in': 0, 'out': 0}),
                             ('noop', 'output_2', {'in': 0, 'out': 1})])
        with self.assertRaisesRegex(AssertionError, 'The node noop must produce just one output tensor'):
            graph.erase_node(Node(graph, 'noop'))
        self.assertIn('noop', graph)

    def test_several_inputs_are_refused_with_an_error_that_is_also_an_assertion(self):
        nodes = {'input_1': PARAMETER, 'input_2': PARAMETER, 'noop': {'type': 'NoOp', 'kind': 'op'},
                 'output': IDENTITY}
        graph = build_graph(nodes, [('input_1', 'noop'), ('input_2', 'noop'), ('noop', 'output')])
        with self.assertRaises(AssertionError):
            graph.erase_node(Node(graph, 'noop'))
        with self.assertRaisesRegex(Error, 'The node noop must have just one input'):
            graph.erase_node(Node(graph, 'noop'))

    def test_no_consumer_or_no_input_or_alone(self):
        graph = build_graph({'noop': {'type': 'NoOp', 'kind': 'op'}, 'output': IDENTITY}, [('noop', 'output')])
        graph.erase_node(Node(graph, 'noop'))
        self.assertEqual((list(graph.nodes()), len(graph.edges())), (['output'], 0))

        graph = build_graph({'input': PARAMETER, 'noop': {'type': 'NoOp', 'kind': 'op'}}, [('input', 'noop')])
        graph.erase_node(Node(graph, 'noop'))
        self.assertEqual((list(graph.nodes()), len(graph.edges())), (['input'], 0))

        graph = Graph()
        graph.add_node('noop', **{'type': 'NoOp', 'value': None, 'kind': 'op'})
        graph.erase_node(Node(graph, 'noop'))
        self.assertEqual(len(graph.nodes()), 0)

    def test_an_erased_result_leaves_a_result_on_its_input(self):
        graph = build_graph({'input': PARAMETER, 'relu': {'op': 'ReLU', 'type': 'ReLU', 'kind': 'op'},
                             'out': {'op': 'Result', 'type': 'Result', 'kind': 'op'}},
                            [('input', 'relu'), ('relu', 'out')])
        graph.erase_node(Node(graph, 'out'))
        results = graph.get_op_nodes(op='Result')
        self.assertEqual(len(results), 1)
        self.assertEqual(results[0].in_port(0).get_source().node.id, 'relu')

    def test_middle_phase_graph_is_refused(self):
        graph = build_graph({'input': PARAMETER, 'input_d': {'kind': 'data', 'value': None, 'shape': None},
                             'output': IDENTITY}, [('input', 'input_d'), ('input_d', 'output')])
        with self.assertRaisesRegex(AssertionError, 'before the partial infer'):
            graph.erase_node(Node(graph, 'input'))


class TestReplaceNode(unittest.TestCase):
    def test_several_consumers_keep_their_edges(self):
        graph = build_graph({'input_1': PARAMETER, 'input_2': PARAMETER, 'old': IDENTITY,
                             'output_1': IDENTITY, 'output_2': IDENTITY, 'output_3': IDENTITY},
                            [('input_1', 'old'), ('input_2', 'old'),
                             ('old', 'output_3'), ('old', 'output_2'), ('old', 'output_1')])
        new_node = Const(graph, {'name': 'new'}).create_node([Node(graph, 'input_1'), Node(graph, 'input_2')])
        Node(graph, 'old').replace_node(new_node)
        self.assertEqual((len(graph.nodes()), len(graph.edges())), (6, 5))
        # an op feeding three consumers without ports uses its outputs 0, 1 and 2 (build_graph's numbering)
        self.assertListEqual(sorted(graph.out_edges('new', data=True)),
                             [('new', 'output_1', {'in': 0, 'out': 2, 'name': 'old'}),
                              ('new', 'output_2', {'in': 0, 'out': 1, 'name': 'old'}),
                              ('new', 'output_3', {'in': 0, 'out': 0, 'name': 'old'})])

    def test_one_consumer(self):
        graph = build_graph({'input_1': PARAMETER, 'input_2': PARAMETER, 'old': IDENTITY,
                             'output': {'op': 'Result', 'value': None, 'kind': 'op'}},
                            [('input_1', 'old'), ('input_2', 'old'), ('old', 'output')])
        new_node = Const(graph, {'name': 'new'}).create_node([Node(graph, 'input_1'), Node(graph, 'input_2')])
        Node(graph, 'old').replace_node(new_node)
        self.assertEqual((len(graph.nodes()), len(graph.edges())), (4, 3))
        self.assertEqual(new_node.out_node().op, 'Result')


class TestCleanUpRestoresConstOperations(unittest.TestCase):
    def test_constant_data_without_producer_gets_a_const(self):
        weights = np.array([1.0, 2.0, 3.0], dtype=np.float32)
        nodes = {'input': PARAMETER, 'input_d': {'kind': 'data', 'value': None, 'shape': np.array([3])},
                 'w/Output_0/Data_': {'kind': 'data', 'value': weights, 'shape': np.array([3])},
                 'mul': {'type': 'Multiply', 'op': 'Mul', 'kind': 'op'},
                 'mul_d': {'kind': 'data', 'value': None, 'shape': np.array([3])},
                 'out': {'type': 'Result', 'op': 'Result', 'kind': 'op'}}
        graph = build_graph(nodes, [('input', 'input_d'), ('input_d', 'mul', {'in': 0}),
                                    ('w/Output_0/Data_', 'mul', {'in': 1}), ('mul', 'mul_d'), ('mul_d', 'out')])
        graph.clean_up()
        source = Node(graph, 'mul').in_port(1).get_source().node
        self.assertEqual((source.op, source.type, source.name), ('Const', 'Const', 'w'))
        np.testing.assert_array_equal(source.value, weights)
        self.assertEqual(source.out_node(0).id, 'w/Output_0/Data_')

        ref = build_graph({**nodes, 'w': {'kind': 'op', 'op': 'Const', 'type': 'Const', 'value': weights}},
                          [('input', 'input_d'), ('input_d', 'mul', {'in': 0}), ('w', 'w/Output_0/Data_'),
                           ('w/Output_0/Data_', 'mul', {'in': 1}), ('mul', 'mul_d'), ('mul_d', 'out')])
        flag, resp = compare_graphs(graph, ref, 'out', check_op_attrs=True)
        self.assertTrue(flag, resp)

    def test_unread_constant_data_gets_no_const(self):
        nodes = {'input': PARAMETER, 'input_d': {'kind': 'data', 'value': None, 'shape': np.array([3])},
                 'lonely': {'kind': 'data', 'value': np.ones(3), 'shape': np.array([3])},
                 'out': {'type': 'Result', 'op': 'Result', 'kind': 'op'}}
        graph = build_graph(nodes, [('input', 'input_d'), ('input_d', 'out')])
        graph.clean_up()
        self.assertEqual(graph.get_op_nodes(op='Const'), [])


class TestInPortsOrder(unittest.TestCase):
    def test_eleven_inputs_and_a_control_flow_port(self):
        nodes = {'concat': {'type': 'Concat', 'op': 'Concat', 'kind': 'op'},
                 'guard': {'type': 'NoOp', 'op': 'NoOp', 'kind': 'op'}}
        nodes.update({'in_{}'.format(i): dict(PARAMETER) for i in range(11)})
        edges = [('in_{}'.format(i), 'concat') for i in range(11)]
        edges.append(('guard', 'concat', {'control_flow_edge': True}))
        graph = build_graph(nodes, edges)
        concat = Node(graph, 'concat')
        self.assertEqual(list(concat.in_ports()), list(range(11)))
        self.assertEqual(list(concat.in_ports(control_flow=True)), list(range(12)))
        self.assertEqual([p.get_source().node.id for p in concat.in_ports().values()],
                         ['in_{}'.format(i) for i in range(11)])
        self.assertEqual(sorted(concat.in_edges(control_flow=True)), list(range(12)))


class TestDisconnectSharedEdges(unittest.TestCase):
    def test_middle_three_edges_from_one_data_node(self):
        nodes = {'input': PARAMETER, 'input_data': {'kind': 'data', 'value': None, 'shape': None},
                 'Op1': IDENTITY, 'Op1_data': {'kind': 'data', 'value': None, 'shape': None}, 'Op2': IDENTITY}
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1'), ('Op1', 'Op1_data'),
                                    ('Op1_data', 'Op2', {'in': 0}), ('Op1_data', 'Op2', {'in': 1}),
                                    ('Op1_data', 'Op2', {'in': 2})], nodes_with_edges_only=True)
        op1 = Node(graph, 'Op1')
        op1.out_port(0).disconnect()
        self.assertEqual(op1.out_port(0).get_destinations(), [])
        self.assertEqual(graph.number_of_edges('Op1_data', 'Op2'), 0)

    def test_one_input_of_several_from_the_same_data_node(self):
        nodes = {'input': PARAMETER, 'input_data': {'kind': 'data', 'value': None, 'shape': None}, 'Op2': IDENTITY}
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op2', {'in': 0}),
                                    ('input_data', 'Op2', {'in': 1})])
        Node(graph, 'Op2').in_port(0).disconnect()
        self.assertEqual([p.idx for p in Node(graph, 'input').out_port(0).get_destinations()], [1])

    def test_front_two_edges_between_two_ops(self):
        graph = build_graph({'a': PARAMETER, 'b': IDENTITY}, [('a', 'b', {'out': 0, 'in': 0}),
                                                            ('a', 'b', {'out': 0, 'in': 1})])
        graph.stage = 'front'
        Node(graph, 'b').in_port(1).disconnect()
        self.assertEqual([(p.node.id, p.idx) for p in Node(graph, 'a').out_port(0).get_destinations()], [('b', 0)])


class TestMarkConstProducerNodes(unittest.TestCase):
    def test_ops_producing_only_constants(self):
        data = {'value': None, 'kind': 'data'}
        nodes = {'placeholder_1': PARAMETER, **{'node_{}'.format(i): dict(IDENTITY, op='Identity') for i in range(1, 7)},
                 'placeholder_1_data_node': dict(data), 'data_node_1': dict(data), 'data_node_2': dict(data),
                 'data_node_3': dict(data, value=np.array(1)), 'data_node_3_2': dict(data),
                 'data_node_4': dict(data), 'data_node_5': dict(data),
                 'data_node_6': dict(data, value=np.array(1)),
                 'op_output': {'kind': 'op', 'op': 'Result'}, 'op_output_1': {'kind': 'op', 'op': 'Result'}}
        graph = build_graph(nodes, [('placeholder_1', 'placeholder_1_data_node'),
                                    ('placeholder_1_data_node', 'node_1'), ('node_1', 'data_node_1'),
                                    ('data_node_1', 'node_2'), ('node_2', 'data_node_2'),
                                    ('node_3', 'data_node_3'), ('node_3', 'data_node_3_2'),
                                    ('node_6', 'data_node_6'), ('data_node_6', 'node_1'),
                                    ('data_node_3_2', 'node_5'), ('node_5', 'data_node_5'),
                                    ('data_node_3', 'node_4'), ('data_node_4', 'node_1'),
                                    ('data_node_2', 'op_output'), ('data_node_5', 'op_output_1')],
                            nodes_with_edges_only=True)
        mark_const_producer_nodes(graph)
        self.assertTrue(graph.nodes['node_6']['is_const_producer'])
        self.assertTrue(graph.nodes['node_4']['is_const_producer'])  # nothing reads it
        self.assertListEqual(sorted(n for n, d in graph.nodes(data=True)
                                    if d.get('kind') == 'op' and not d['is_const_producer']),
                             ['node_1', 'node_2', 'node_3', 'node_5', 'placeholder_1'])
        # a constant data node read by an op that computes no value is not a constant producer
        self.assertFalse(graph.nodes['data_node_6']['is_const_producer'])

    def test_control_flow_edges_end_constness(self):
        nodes = {'c': {'kind': 'op', 'op': 'Const'}, 'c_d': {'kind': 'data', 'value': np.array(1)},
                 'guard': {'kind': 'op', 'op': 'NoOp'}}
        graph = build_graph(nodes, [('c', 'c_d'), ('guard', 'c', {'control_flow_edge': True})])
        mark_const_producer_nodes(graph)
        self.assertFalse(graph.nodes['c']['is_const_producer'])
        self.assertFalse(graph.nodes['guard']['is_const_producer'])


class TestOverridePlaceholderShapes(unittest.TestCase):
    nodes = {'placeholder_1': dict(PARAMETER, shape=np.array([1, 2, 3, 4])),
             'placeholder_2': dict(PARAMETER, shape=np.array([5, 6, 7, 8])),
             'node_1': IDENTITY}

    def graph(self):
        return build_graph(self.nodes, [('placeholder_1', 'node_1'), ('placeholder_2', 'node_1')])

    def test_an_unknown_node_is_ignored(self):
        graph = self.graph()
        override_placeholder_shapes(graph, {'some_node': [{'shape': np.zeros(3)}]})
        np.testing.assert_array_equal(graph.nodes['placeholder_1']['shape'], [1, 2, 3, 4])

    def test_no_user_shapes_changes_nothing_not_even_the_batch(self):
        graph = self.graph()
        self.assertIsNone(override_placeholder_shapes(graph, None, batch=4))
        np.testing.assert_array_equal(graph.nodes['placeholder_1']['shape'], [1, 2, 3, 4])

    def test_shapes_and_batch(self):
        graph = self.graph()
        override_placeholder_shapes(graph, {'placeholder_1': [{'shape': np.array([1, 2, 3, 4])}],
                                            'placeholder_2': [{'shape': np.array([1, 5, 6, 7])}]}, 4)
        np.testing.assert_array_equal(graph.nodes['placeholder_1']['shape'], [4, 2, 3, 4])
        np.testing.assert_array_equal(graph.nodes['placeholder_2']['shape'], [4, 5, 6, 7])

    def test_batch_with_no_shape_given(self):
        graph = self.graph()
        override_placeholder_shapes(graph, {'placeholder_1': [{'shape': None}], 'placeholder_2': [{'shape': None}]}, 4)
        np.testing.assert_array_equal(graph.nodes['placeholder_2']['shape'], [4, 6, 7, 8])

    def test_a_port_spec_is_not_the_node_shape(self):
        graph = self.graph()
        override_placeholder_shapes(graph, {'placeholder_1': [{'shape': np.array([9]), 'out': 0}]})
        np.testing.assert_array_equal(graph.nodes['placeholder_1']['shape'], [1, 2, 3, 4])


def _identity_infer(node):
    node.out_port(0).data.set_shape(node.in_port(0).data.get_shape())


class TestPartialInfer(unittest.TestCase):
    nodes = {'node_1': {'kind': 'data', 'value': None, 'shape': np.array([1, 3, 227, 227])},
             'op': {'kind': 'op', 'op': 'MyIdentity', 'type': 'Identity', 'infer': _identity_infer},
             'op_d': {'kind': 'data', 'value': None, 'shape': np.array([1, 3, 227, 227])},
             'op_2': {'kind': 'op', 'op': 'MyIdentity', 'type': 'Identity', 'infer': _identity_infer},
             'op_2_d': {'kind': 'data', 'value': None, 'shape': None},
             'op_output': {'kind': 'op', 'op': 'Result', 'infer': lambda node: None}}

    def test_is_partial_inferred_from_the_start_node_on(self):
        graph = build_graph(self.nodes, [('node_1', 'op'), ('op', 'op_d'), ('op_d', 'op_2'), ('op_2', 'op_2_d'),
                                         ('op_2_d', 'op_output')])
        partial_infer(graph, 'op_2')
        op_2 = Node(graph, 'op_2')
        self.assertTrue(op_2.is_partial_inferred)
        self.assertTrue(op_2.out_node().is_partial_inferred)
        self.assertTrue(Node(graph, 'op_output').is_partial_inferred)
        for before in ('node_1', 'op', 'op_d'):
            self.assertFalse(Node(graph, before).has('is_partial_inferred'), before)

    def test_whole_graph(self):
        graph = build_graph({**self.nodes, 'op_d': {'kind': 'data', 'value': None, 'shape': None}}, [('node_1', 'op'), ('op', 'op_d'), ('op_d', 'op_2'), ('op_2', 'op_2_d'),
                                         ('op_2_d', 'op_output')])
        partial_infer(graph)
        self.assertTrue(all(attrs['is_partial_inferred'] for _, attrs in graph.nodes(data=True)))
        np.testing.assert_array_equal(Node(graph, 'op_2_d').shape, [1, 3, 227, 227])

    def test_cycle(self):
        graph = build_graph({'node_1': {'type': 'Identity', 'value': None, 'kind': 'op'},
                             'node_1_data': {'value': None, 'kind': 'data'},
                             'node_3': {'type': 'Identity', 'value': None, 'kind': 'op'},
                             'node_3_data': {'value': None, 'kind': 'data'}},
                            [('node_1', 'node_1_data'), ('node_1_data', 'node_3'), ('node_3', 'node_3_data'),
                             ('node_3_data', 'node_1')], nodes_with_edges_only=True)
        with self.assertRaisesRegex(Error, 'Graph contains a cycle. Can not proceed.*'):
            partial_infer(graph)

    def test_op_without_infer_is_an_error(self):
        graph = build_graph({'node_1': IDENTITY, 'node_2': IDENTITY, 'out': {'kind': 'op', 'op': 'Result'}},
                            [('node_1', 'node_2'), ('node_2', 'out')], {'node_1': {'infer': None}})
        self.assertRaises(Error, partial_infer, graph, 'node_1')


class TestSubGraphBetweenNodes(unittest.TestCase):
    def graph(self):
        #  input -> a -> b -> c,  guard --control--> b
        nodes = {'input': PARAMETER, 'a': IDENTITY, 'b': IDENTITY, 'c': IDENTITY, 'guard': IDENTITY}
        return build_graph(nodes, [('input', 'a'), ('a', 'b'), ('b', 'c'), ('guard', 'b', {'control_flow_edge': True})])

    def test_control_flow_inputs_only_when_asked(self):
        graph = self.graph()
        self.assertEqual(sorted(sub_graph_between_nodes(graph, ['a'], ['c'])), ['a', 'b', 'c', 'guard'])
        self.assertEqual(sorted(sub_graph_between_nodes(graph, ['a'], ['c'], include_control_flow=False)),
                         ['a', 'b', 'c'])

    def test_a_model_input_inside_is_an_error(self):
        graph = self.graph()
        graph.add_edge('input', 'c', out=0, **{'in': 1})
        with self.assertRaisesRegex(Error, 'network input node "input"'):
            sub_graph_between_nodes(graph, ['b'], ['c'])  # c needs the model input too
        # a model input that is a start node is the sub-graph's own input
        self.assertEqual(sorted(sub_graph_between_nodes(self.graph(), ['input'], ['b'], include_control_flow=False)),
                         ['a', 'b', 'input'])


class TestStage(unittest.TestCase):
    def test_stage_as_set(self):
        graph = Graph()
        self.assertIsNone(graph.graph.get('stage'))
        graph.stage = 'front'
        self.assertEqual(graph.stage, 'front')
        graph.stage = 'middle'
        self.assertEqual((graph.stage, graph.graph['stage']), ('middle', 'middle'))


if __name__ == '__main__':
    unittest.main()
