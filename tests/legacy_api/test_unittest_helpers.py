"""The Model Optimizer's unit-test helpers as its authors' tests use them: ``connect``/``connect_data`` port
syntax, ``compare_graphs`` skipping reference attributes set to None, ``build_graph_with_edge_attrs`` and
``build_graph_with_attrs``, ``compare_graphs`` under its 2022-2024 module path, and ``check_value`` in patterns."""
import unittest

import numpy as np

from mo.middle.pattern_match import apply_pattern, check_value
from mo.utils.ir_engine.compare_graphs import compare_graphs as compare_graphs_2022
from mo.utils.unittest.graph import (build_graph, build_graph_with_attrs, build_graph_with_edge_attrs,
                                     compare_graphs, connect, connect_data, regular_op_with_empty_data, result,
                                     valued_const_with_data)

_NODES = {
    **regular_op_with_empty_data('split', {'op': 'Split', 'type': 'Split'}),
    **regular_op_with_empty_data('add', {'op': 'Add', 'type': 'Add'}),
    **result(),
}


class ConnectTest(unittest.TestCase):
    def test_output_port_keeps_the_data_node_name(self):
        # the Model Optimizer's connect: 'op:1' still goes through op_d, the out port on the edge
        self.assertEqual(connect('split:1', '1:add'), [('split', 'split_d', {'out': 1}), ('split_d', 'add', {'in': 1})])

    def test_connect_data_starts_at_the_data_node(self):
        self.assertEqual(connect_data('split:0', '1:add'), [('split_d', 'add', {'out': 0, 'in': 1})])

    def test_graph_from_connect_data(self):
        graph = build_graph(_NODES, [*connect('split', '0:add'), *connect_data('split', '1:add'),
                                     *connect('add', 'output')])
        self.assertEqual(sorted(d['in'] for _, _, d in graph.in_edges('add', data=True)), [0, 1])
        self.assertEqual({u for u, _ in graph.in_edges('add')}, {'split_d'})


class CompareGraphsTest(unittest.TestCase):
    def _graphs(self, ref_attrs):
        graph = build_graph({**valued_const_with_data('c', np.array([1.0])), **regular_op_with_empty_data(
            'relu', {'op': 'ReLU', 'type': 'ReLU', 'alpha': 0.0}), **result()},
            [*connect('c', 'relu'), *connect('relu', 'output')])
        ref = build_graph({**valued_const_with_data('c', np.array([1.0])), **regular_op_with_empty_data(
            'relu', {'op': 'ReLU', **ref_attrs}), **result()}, [*connect('c', 'relu'), *connect('relu', 'output')])
        return graph, ref

    def test_reference_none_is_not_compared(self):
        graph, ref = self._graphs({'type': None, 'value': None, 'alpha': 0.0})
        flag, resp = compare_graphs(graph, ref, 'output', check_op_attrs=True)
        self.assertTrue(flag, resp)

    def test_a_set_attribute_is_compared(self):
        graph, ref = self._graphs({'type': 'ReLU', 'alpha': 1.0})
        flag, resp = compare_graphs(graph, ref, 'output', check_op_attrs=True)
        self.assertFalse(flag)
        self.assertIn('alpha', resp)

    def test_the_2022_module_path(self):
        graph, ref = self._graphs({'type': 'ReLU', 'alpha': 0.0})
        flag, resp = compare_graphs_2022(graph, ref, 'output', check_op_attrs=True)
        self.assertTrue(flag, resp)


class BuildGraphVariantsTest(unittest.TestCase):
    def test_with_edge_attrs_makes_only_the_nodes_of_edges(self):
        nodes = {**_NODES, 'unused': {'kind': 'op', 'op': 'Unused'}}
        graph = build_graph_with_edge_attrs(nodes, [('split', 'split_d', {'out': 0}), ('split_d', 'add', {'in': 0}),
                                                    ('add', 'add_d', {'out': 0}), ('add_d', 'output', {'in': 0})])
        self.assertNotIn('unused', graph)
        self.assertEqual(sorted(graph.nodes), ['add', 'add_d', 'output', 'split', 'split_d'])

    def test_with_attrs_lists_and_updates(self):
        graph = build_graph_with_attrs(
            nodes_with_attrs=[('a', {'kind': 'op', 'op': 'A'}), ('a_d', {'kind': 'data', 'value': None})],
            edges_with_attrs=[('a', 'a_d')], new_nodes_with_attrs=[('r', {'kind': 'op', 'op': 'Result'})],
            new_edges_with_attrs=[('a_d', 'r')], update_edge_attrs={('a_d', 'r', 0): {'in': 0, 'extra': 1}},
            update_nodes_attributes=[('a', {'alpha': 2})])
        self.assertEqual(graph.nodes['a']['alpha'], 2)
        self.assertEqual(graph['a_d']['r'][0]['extra'], 1)

    def test_with_attrs_refuses_repeated_nodes(self):
        with self.assertRaisesRegex(Exception, 'already in nodes'):
            build_graph_with_attrs([('a', {'kind': 'op'})], [], new_nodes_with_attrs=[('a', {'kind': 'op'})])


class CheckValueTest(unittest.TestCase):
    def test_constraint_on_a_value(self):
        graph = build_graph({**valued_const_with_data('three', np.array(3.0)), **valued_const_with_data(
            'four', np.array(4.0))}, [])
        found = []
        apply_pattern(graph, nodes=[('c', dict(kind='op', value=lambda v: check_value(v, lambda x: np.allclose(x, 3.0))))],
                      edges=[], action=lambda g, match: found.append(match['c'].id))
        self.assertEqual(found, ['three'])
        self.assertFalse(check_value(None, lambda x: True))
        self.assertFalse(check_value(np.array([1 + 2j]), lambda x: True))
