"""``fw_tensor_debug_info`` as the Model Optimizer kept it: on front-phase edges and on middle-phase data nodes,
read and carried by the Port and Connection operations (issue 29, point 1).

Written in the idiom of the Model Optimizer's own unit tests (``unittest`` classes, ``build_graph`` dicts), so
that what an extension author's ported test observes is checked here: the records on edges and data nodes after
each re-wiring, with each ``attributes_save_mode``.
"""
import unittest

import numpy as np

from mo.graph.graph import Graph, Node
from mo.ops.op import Op
from mo.utils.error import Error
from mo.utils.unittest.graph import build_graph, compare_graphs, regular_op

DEBUG = 'fw_tensor_debug_info'

nodes = {
    **regular_op('input', {'type': 'Parameter', 'op': 'Parameter'}),
    **regular_op('Op1', {'type': 'Op1', 'op': 'Op1'}),
    **regular_op('Op2', {'type': 'Op2', 'op': 'Op2'}),
    **regular_op('Op3', {'type': 'Op3', 'op': 'Op3'}),
    **regular_op('NewOp', {'type': 'NewOp', 'op': 'NewOp'}),
    'input_data': {'kind': 'data', 'shape': None, 'value': None, DEBUG: [('input', 'input')]},
    'Op1_data': {'kind': 'data', 'shape': None, 'value': None, DEBUG: [('Op1', 'Op1')]},
    'Op2_data': {'kind': 'data', 'shape': None, 'value': None, DEBUG: [('Op2', 'Op2')]},
    'Op3_data': {'kind': 'data', 'shape': None, 'value': None, DEBUG: [('Op3', 'Op3')]},
    'NewOp_data': {'kind': 'data', 'shape': None, 'value': None},
}

named_nodes = {**nodes,
               'input_data': {'kind': 'data', 'shape': None, 'value': None, DEBUG: [('input', 'input'), ('Op1', 'Op1,Op2')]},
               'Op1_data': {'kind': 'data', 'shape': None, 'value': None, DEBUG: [('Op1', 'Op1,Op2')]}}


def front_edge(records):
    return {'in': 0, 'out': 0, DEBUG: records}


class FrontRecordsCheck(unittest.TestCase):
    def assert_front_records(self, graph: Graph, graph_ref: Graph):
        """Every op's output-0 edge carries the reference's records, or none where the reference has none."""
        for node in graph_ref.get_op_nodes():
            if node.out_edges():
                ref_edge = node.out_edge(0)
                edge = Node(graph, node.id).out_edge(0)
                if DEBUG in ref_edge:
                    self.assertEqual(edge.get(DEBUG), ref_edge[DEBUG], node.id)
                else:
                    self.assertNotIn(DEBUG, edge, node.id)

    def rewire_and_check(self, graph, graph_ref, rewire, last):
        graph.stage = 'front'
        rewire(graph)
        flag, resp = compare_graphs(graph, graph_ref, last, check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assert_front_records(graph, graph_ref)


class TestFrontSetSource(FrontRecordsCheck):
    """A new consumer takes its source's tensor: ``NewOp.in_port(0)`` is set to read ``input``."""

    def case(self, mode, expected):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 'input')]))])
        ref_attrs = {'in': 0, 'out': 0} if expected is None else front_edge(expected)
        graph_ref = build_graph(nodes, [('input', 'NewOp', ref_attrs)])

        def rewire(g):
            new = Node(g, 'NewOp')
            new.add_input_port(0)
            new.in_port(0).get_connection().set_source(Node(g, 'input').out_port(0), mode)
        self.rewire_and_check(graph, graph_ref, rewire, 'NewOp')

    def test_merge(self):
        self.case('merge', [('input', 'input')])

    def test_source(self):
        self.case('source', [('input', 'input')])

    def test_dest(self):
        self.case('dest', None)


class TestFrontSetDestination(FrontRecordsCheck):
    """``Op1``'s input moves to ``NewOp``: the records of the replaced edge are the 'source' side."""

    def case(self, mode, expected):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 'input')]))])
        ref_attrs = {'in': 0, 'out': 0} if expected is None else front_edge(expected)
        graph_ref = build_graph(nodes, [('input', 'NewOp', ref_attrs)])

        def rewire(g):
            new = Node(g, 'NewOp')
            new.add_input_port(0)
            Node(g, 'Op1').in_port(0).get_connection().set_destination(new.in_port(0), mode)
        self.rewire_and_check(graph, graph_ref, rewire, 'NewOp')

    def test_merge(self):
        self.case('merge', [('input', 'input')])

    def test_source(self):
        self.case('source', [('input', 'input')])

    def test_dest(self):
        self.case('dest', None)


class TestFrontNewProducer(FrontRecordsCheck):
    """``Op1`` reads ``NewOp`` instead of ``input``, by ``set_source`` on Op1's input connection or by
    ``set_destination`` on NewOp's output connection."""

    def case(self, how, mode, expected):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 0, 'input')]))])
        ref_attrs = {'in': 0, 'out': 0} if expected is None else front_edge(expected)
        graph_ref = build_graph(nodes, [('NewOp', 'Op1', ref_attrs)])

        def rewire(g):
            op1, new = Node(g, 'Op1'), Node(g, 'NewOp')
            new.add_output_port(0)
            if how == 'set_source':
                op1.in_port(0).get_connection().set_source(new.out_port(0), mode)
            else:
                new.out_port(0).get_connection().set_destination(op1.in_port(0), mode)
        self.rewire_and_check(graph, graph_ref, rewire, 'Op1')

    def test_set_source_merge(self):
        self.case('set_source', 'merge', [('input', 0, 'input')])

    def test_set_source_source(self):
        self.case('set_source', 'source', None)

    def test_set_source_dest(self):
        self.case('set_source', 'dest', [('input', 0, 'input')])

    def test_set_destination_merge(self):
        self.case('set_destination', 'merge', [('input', 0, 'input')])

    def test_set_destination_source(self):
        self.case('set_destination', 'source', None)

    def test_set_destination_dest(self):
        self.case('set_destination', 'dest', [('input', 0, 'input')])


class TestFrontBypass(FrontRecordsCheck):
    """``Op1`` is bypassed: ``Op2`` reads ``input``; the two tensors' records combine by the save mode."""

    def case(self, how, mode, expected):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 0, 'input')])),
                                    ('Op1', 'Op2', front_edge([('Op1', 0, 'Op1')]))])
        graph_ref = build_graph(nodes, [('input', 'Op2', front_edge(expected))])

        def rewire(g):
            op1 = Node(g, 'Op1')
            if how == 'set_source':
                op1.out_port(0).get_connection().set_source(op1.in_port(0).get_source(), mode)
            else:
                op1.in_port(0).get_connection().set_destination(op1.out_port(0).get_destination(), mode)
        self.rewire_and_check(graph, graph_ref, rewire, 'Op2')

    def test_set_source_merge(self):
        self.case('set_source', 'merge', [('input', 0, 'input'), ('Op1', 0, 'Op1')])

    def test_set_source_source(self):
        self.case('set_source', 'source', [('input', 0, 'input')])

    def test_set_source_dest(self):
        self.case('set_source', 'dest', [('Op1', 0, 'Op1')])

    def test_set_destination_merge(self):
        self.case('set_destination', 'merge', [('input', 0, 'input'), ('Op1', 0, 'Op1')])

    def test_set_destination_source(self):
        self.case('set_destination', 'source', [('input', 0, 'input')])

    def test_set_destination_dest(self):
        self.case('set_destination', 'dest', [('Op1', 0, 'Op1')])


class MiddleRecordsCheck(unittest.TestCase):
    def assert_middle_records(self, graph: Graph, graph_ref: Graph):
        """Every op's output-0 data node carries the reference's records, or none where the reference has none."""
        for node in graph_ref.get_op_nodes():
            if node.out_nodes():
                ref_data = node.out_node(0)
                data = Node(graph, node.id).out_node(0)
                if DEBUG in ref_data:
                    self.assertEqual(data[DEBUG], ref_data[DEBUG], data.id)
                else:
                    self.assertNotIn(DEBUG, data, data.id)

    def check(self, graph, graph_ref, last):
        flag, resp = compare_graphs(graph, graph_ref, last, check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assert_middle_records(graph, graph_ref)


class TestMiddleNewConsumer(MiddleRecordsCheck):
    """``NewOp`` reads ``input_data``: by set_source on its empty input connection, or by taking Op1's input."""

    def case(self, how, mode, keeps_records):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        ref_edges = [('input', 'input_data'), ('input_data', 'NewOp')]
        if how == 'set_source':
            ref_edges.append(('input_data', 'Op1'))
        graph_ref = build_graph(nodes, ref_edges)
        if not keeps_records:
            del Node(graph_ref, 'input_data')[DEBUG]
        new = Node(graph, 'NewOp')
        new.add_input_port(0)
        if how == 'set_source':
            new.in_port(0).get_connection().set_source(Node(graph, 'input').out_port(0), mode)
        else:
            Node(graph, 'Op1').in_port(0).get_connection().set_destination(new.in_port(0), mode)
        self.check(graph, graph_ref, 'NewOp')

    def test_set_source_merge(self):
        self.case('set_source', 'merge', True)

    def test_set_source_source(self):
        self.case('set_source', 'source', True)

    def test_set_source_dest(self):
        self.case('set_source', 'dest', False)

    def test_set_destination_merge(self):
        self.case('set_destination', 'merge', True)

    def test_set_destination_source(self):
        self.case('set_destination', 'source', True)

    def test_set_destination_dest(self):
        self.case('set_destination', 'dest', False)


class TestMiddleNewProducer(MiddleRecordsCheck):
    """``Op1`` reads ``NewOp``'s new data node instead of ``input_data``."""

    def case(self, how, mode, new_records, input_keeps):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        graph_ref = build_graph(nodes, [('input', 'input_data'), ('NewOp', 'NewOp_data'), ('NewOp_data', 'Op1')])
        if new_records:
            Node(graph_ref, 'NewOp_data')[DEBUG] = new_records
        if not input_keeps:
            del Node(graph_ref, 'input_data')[DEBUG]
        op1, new = Node(graph, 'Op1'), Node(graph, 'NewOp')
        new.add_output_port(0)
        if how == 'set_source':
            op1.in_port(0).get_connection().set_source(new.out_port(0), mode)
        else:
            new.out_port(0).get_connection().set_destination(op1.in_port(0), mode)
        self.check(graph, graph_ref, 'Op1')

    def test_set_source_merge(self):
        self.case('set_source', 'merge', [('input', 'input')], False)

    def test_set_source_source(self):
        self.case('set_source', 'source', None, True)

    def test_set_source_dest(self):
        self.case('set_source', 'dest', [('input', 'input')], False)

    def test_set_destination_merge(self):
        self.case('set_destination', 'merge', [('input', 'input')], True)

    def test_set_destination_source(self):
        self.case('set_destination', 'source', None, True)

    def test_set_destination_dest(self):
        self.case('set_destination', 'dest', [('input', 'input')], True)


class TestMiddleBypass(MiddleRecordsCheck):
    """``Op1`` is bypassed: ``Op2`` reads ``input_data``, whose records combine with Op1_data's by the mode."""

    def case(self, how, mode, expected, op1_keeps):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1'),
                                    ('Op1', 'Op1_data'), ('Op1_data', 'Op2')])
        ref_edges = [('input', 'input_data'), ('input_data', 'Op2'), ('Op1', 'Op1_data')]
        if how == 'set_source':
            ref_edges.append(('input_data', 'Op1'))
        graph_ref = build_graph(nodes, ref_edges)
        Node(graph_ref, 'input_data')[DEBUG] = expected
        if not op1_keeps:
            del Node(graph_ref, 'Op1_data')[DEBUG]
        op1 = Node(graph, 'Op1')
        if how == 'set_source':
            op1.out_port(0).get_connection().set_source(op1.in_port(0).get_source(), mode)
        else:
            op1.in_port(0).get_connection().set_destination(op1.out_port(0).get_destination(), mode)
        self.check(graph, graph_ref, 'Op2')

    def test_set_source_merge(self):
        self.case('set_source', 'merge', [('input', 'input'), ('Op1', 'Op1')], False)

    def test_set_source_source(self):
        self.case('set_source', 'source', [('input', 'input')], True)

    def test_set_source_dest(self):
        self.case('set_source', 'dest', [('Op1', 'Op1')], False)

    def test_set_destination_merge(self):
        self.case('set_destination', 'merge', [('input', 'input'), ('Op1', 'Op1')], True)

    def test_set_destination_source(self):
        self.case('set_destination', 'source', [('input', 'input')], True)

    def test_set_destination_dest(self):
        self.case('set_destination', 'dest', [('Op1', 'Op1')], True)


class TestTensorNames(unittest.TestCase):
    """``Port.get_tensor_names()``: the records' tensor names, sorted, commas escaped."""

    def test_front(self):
        graph = build_graph(named_nodes, [('input', 'Op1', front_edge([('input', 'input'), ('Op1', 'Op1,Op2')]))])
        graph.stage = 'front'
        port = Node(graph, 'input').out_port(0)
        self.assertEqual(port.get_tensor_names(), ['Op1\\,Op2', 'input'])
        op1 = Node(graph, 'Op1')
        op1.add_output_port(0)
        self.assertEqual(op1.out_port(0).get_tensor_names(), [])

        port.add_tensor_names(['A:0', 'B:0', 'B:1', 'C:0'])
        self.assertEqual(port.get_tensor_debug_info(), [('input', 'input'), ('Op1', 'Op1,Op2'), ('input', 'A:0'),
                                                        ('input', 'B:0'), ('input', 'B:1'), ('input', 'C:0')])
        self.assertEqual(port.get_tensor_names(), ['A:0', 'B:0', 'B:1', 'C:0', 'Op1\\,Op2', 'input'])
        # an input port reads its source's tensor
        self.assertEqual(op1.in_port(0).get_tensor_names(), port.get_tensor_names())

    def test_middle(self):
        graph = build_graph(named_nodes, [('input', 'input_data'), ('input_data', 'Op1'), ('input_data', 'Op2')])
        port = Node(graph, 'input').out_port(0)
        self.assertEqual(port.get_tensor_names(), ['Op1\\,Op2', 'input'])
        for name in ('Op1', 'Op2'):
            Node(graph, name).add_output_port(0)
            self.assertEqual(Node(graph, name).out_port(0).get_tensor_names(), [])
        port.add_tensor_names(['A:0', 'C:0'])
        self.assertEqual(port.get_tensor_debug_info(),
                         [('input', 'input'), ('Op1', 'Op1,Op2'), ('input', 'A:0'), ('input', 'C:0')])
        self.assertEqual(Node(graph, 'input_data')[DEBUG], port.get_tensor_debug_info())
        self.assertEqual(port.get_tensor_names(), ['A:0', 'C:0', 'Op1\\,Op2', 'input'])

    def test_op_names_form_of_add_tensor_names(self):
        graph = build_graph(named_nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        port = Node(graph, 'input').out_port(0)
        port.add_tensor_names(['opA', 'opB'], [['a:0'], ['b:0', 'b:1']])
        self.assertEqual(port.get_tensor_debug_info()[-3:], [('opA', 'a:0'), ('opB', 'b:0'), ('opB', 'b:1')])
        with self.assertRaises(Error):
            port.add_tensor_names(['opA'], [['a:0'], ['b:0']])

    def test_port_renumber(self):
        graph = build_graph(named_nodes, [('input', 'input_data'), ('input_data', 'Op1'),
                                          ('Op1', 'Op1_data', {'out': 1}), ('Op1_data', 'Op2')])
        self.assertEqual(Node(graph, 'input').out_port(0).get_tensor_names(port_renumber=True), ['Op1\\,Op2', 'input'])
        op1 = Node(graph, 'Op1')
        op1.add_output_port(0)
        # Op1 has one input: its output 0 was numbered 1 before the renumbering
        self.assertEqual(op1.out_port(0).get_tensor_names(port_renumber=True), ['Op1\\,Op2'])
        self.assertEqual(op1.out_port(0).get_tensor_debug_info(port_renumber=True), [('Op1', 'Op1,Op2')])

    def test_default_mode_moves_names_to_new_producer(self):
        graph = build_graph(named_nodes, [('input', 'input_data'), ('input_data', 'Op1'), ('Op3', 'Op3_data')])
        Node(graph, 'input')['type'] = 'NotParameter'
        port = Node(graph, 'input').out_port(0)
        port.get_connection().set_source(Node(graph, 'Op3').out_port(0))
        self.assertEqual(port.get_tensor_names(), [])
        self.assertEqual(Node(graph, 'Op3').out_port(0).get_tensor_names(), ['Op1\\,Op2', 'Op3', 'input'])

    def test_parameter_keeps_its_names(self):
        """Left out, the save mode is 'source' for a Parameter's connection: a model input keeps its names."""
        for front in (False, True):
            if front:
                graph = build_graph(named_nodes, [
                    ('input', 'Op1', front_edge([('input', 'input'), ('Op1', 'Op1,Op2')])),
                    ('Op3', 'Op2', front_edge([('Op3', 'Op3')]))])
                graph.stage = 'front'
            else:
                graph = build_graph(named_nodes, [('input', 'input_data'), ('input_data', 'Op1'), ('Op3', 'Op3_data')])
            port = Node(graph, 'input').out_port(0)
            port.get_connection().set_source(Node(graph, 'Op3').out_port(0))
            self.assertEqual(port.get_tensor_names(), [] if front else ['Op1\\,Op2', 'input'])
            self.assertEqual(Node(graph, 'Op3').out_port(0).get_tensor_names(), ['Op3'])

    def test_merge_with_two_data_edges_to_one_consumer(self):
        graph = build_graph(named_nodes, [('input', 'input_data'), ('input_data', 'Op1', {'in': 0}),
                                          ('input_data', 'Op1', {'in': 1}), ('Op3', 'Op3_data')])
        port = Node(graph, 'input').out_port(0)
        port.get_connection().set_source(Node(graph, 'Op3').out_port(0), 'merge')
        self.assertEqual(port.get_tensor_names(), [])
        self.assertEqual(Node(graph, 'Op3').out_port(0).get_tensor_names(), ['Op1\\,Op2', 'Op3', 'input'])
        self.assertEqual(sorted(p.idx for p in Node(graph, 'Op3').out_port(0).get_destinations()), [0, 1])


class TestOtherOperations(unittest.TestCase):
    def test_insert_node_front_moves_records_to_the_new_output(self):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 'input')]))])
        graph.stage = 'front'
        new = Node(graph, 'NewOp')
        Node(graph, 'input').out_port(0).get_connection().insert_node(new)
        self.assertEqual(Node(graph, 'Op1').in_port(0).get_source().node.id, 'NewOp')
        self.assertEqual(new.out_edge(0)[DEBUG], [('input', 'input')])
        self.assertNotIn(DEBUG, new.in_edge(0))

    def test_insert_node_middle(self):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        new = Node(graph, 'NewOp')
        Node(graph, 'Op1').in_port(0).get_connection().insert_node(new)
        self.assertEqual(new.out_node(0)[DEBUG], [('input', 'input')])
        self.assertNotIn(DEBUG, Node(graph, 'input_data'))
        self.assertEqual(new.in_node(0).id, 'input_data')

    def test_insert_node_source_mode_keeps_records_upstream(self):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        new = Node(graph, 'NewOp')
        Node(graph, 'Op1').in_port(0).get_connection().insert_node(new, 'source')
        self.assertEqual(Node(graph, 'input_data')[DEBUG], [('input', 'input')])
        self.assertNotIn(DEBUG, new.out_node(0))

    def test_in_port_connect_is_set_source(self):
        """``in_port.connect(out_port)`` re-wires as ``set_source`` with the default mode does."""
        graph = build_graph(nodes, [('Op2', 'Op1', front_edge([('Op2', 'Op2')])),
                                    ('Op3', 'NewOp', front_edge([('Op3', 'Op3')]))])
        graph.stage = 'front'
        Node(graph, 'Op1').in_port(0).connect(Node(graph, 'Op3').out_port(0))
        self.assertEqual(Node(graph, 'Op1').in_edge(0)[DEBUG], [('Op3', 'Op3'), ('Op2', 'Op2')])

    def test_disconnect_drops_front_records_keeps_middle_ones(self):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 'input')]))])
        graph.stage = 'front'
        Node(graph, 'Op1').in_port(0).disconnect()
        self.assertEqual(Node(graph, 'input').out_port(0).get_tensor_debug_info(), [])

        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        Node(graph, 'input').out_port(0).disconnect()
        self.assertEqual(Node(graph, 'input').out_port(0).get_destinations(), [])
        self.assertEqual(Node(graph, 'input').out_port(0).get_tensor_debug_info(), [('input', 'input')])

    def test_create_node_gives_new_edges_the_records(self):
        graph = build_graph(nodes, [('input', 'Op1', front_edge([('input', 'input')]))])
        graph.stage = 'front'
        new = Op(graph, {'op': 'Mine', 'type': 'Mine'}).create_node([Node(graph, 'input'), (Node(graph, 'Op2'), 0)])
        self.assertEqual(new.in_edge(0)[DEBUG], [('input', 'input')])
        self.assertNotIn(DEBUG, new.in_edge(1))

    def test_set_destination_with_several_destinations_is_an_error(self):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1'), ('input_data', 'Op2')])
        with self.assertRaisesRegex(Error, 'exactly one destination'):
            Node(graph, 'input').out_port(0).get_connection().set_destination(Node(graph, 'NewOp').in_port(0))

    def test_unknown_save_mode_is_an_error(self):
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        with self.assertRaisesRegex(Error, 'attributes_save_mode'):
            Node(graph, 'Op1').in_port(0).get_connection().set_source(Node(graph, 'Op2').out_port(0), 'both')


class TestGraphsWithoutRecords(unittest.TestCase):
    """Graphs whose edges and data nodes carry no records: every operation works and reads empty records."""

    def test_front(self):
        graph = build_graph(nodes, [('input', 'Op1'), ('Op1', 'Op2')])
        graph.stage = 'front'
        op1 = Node(graph, 'Op1')
        for mode in (None, 'merge', 'source', 'dest'):
            op1.out_port(0).get_connection().set_source(Node(graph, 'input').out_port(0), mode)
            self.assertEqual(Node(graph, 'Op2').in_port(0).get_tensor_names(), [])
            self.assertEqual(Node(graph, 'input').out_port(0).get_tensor_debug_info(), [])
        Node(graph, 'Op2').in_port(0).get_connection().insert_node(Node(graph, 'NewOp'))
        self.assertNotIn(DEBUG, Node(graph, 'NewOp').out_edge(0))

    def test_middle(self):
        bare = {k: {a: v for a, v in attrs.items() if a != DEBUG} for k, attrs in nodes.items()}
        graph = build_graph(bare, [('input', 'input_data'), ('input_data', 'Op1'), ('Op1', 'Op1_data'),
                                   ('Op1_data', 'Op2')])
        op1 = Node(graph, 'Op1')
        op1.in_port(0).get_connection().set_destination(Node(graph, 'NewOp').in_port(0), 'merge')
        self.assertNotIn(DEBUG, Node(graph, 'input_data'))
        self.assertEqual(Node(graph, 'input_data').soft_get(DEBUG, None), None)
        with self.assertRaises(KeyError):
            Node(graph, 'input_data')[DEBUG]

    def test_names_from_mo_loaders_read_as_records(self):
        """A data node that carries only mo's own names reads as the Model Optimizer's loaders wrote it."""
        graph = build_graph(nodes, [('input', 'input_data'), ('input_data', 'Op1')])
        data = Node(graph, 'NewOp_data')
        graph.add_edge('NewOp', 'NewOp_data', out=0)
        Node(graph, 'NewOp').out_port(0).add_tensor_names(['scope/x', 'scope/x:0'])
        self.assertEqual(data[DEBUG], [('scope/x', 'scope/x:0')])
        self.assertEqual(Node(graph, 'NewOp').out_port(0).get_tensor_names(), ['scope/x', 'scope/x:0'])
        self.assertTrue(np.all([data.has_valid(DEBUG), DEBUG in data]))


if __name__ == '__main__':
    unittest.main()
