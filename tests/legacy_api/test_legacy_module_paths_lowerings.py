"""The Model Optimizer's decompositions, normalizers and one fusion under its module paths (the second batch's
ClipByValueTF, Where, Fill, AttributedRoll, OneHot's depth, Size, AttributedPower, Transpose's order, LayerNorm).

Written in the Model Optimizer's test idiom (``build_graph`` dicts, the replacer called directly, ``compare_graphs``);
the reference graphs set no attribute to None (the Model Optimizer's ``compare_graphs`` skipped those, mo's compares
them). ``test_legacy_module_paths_more.py`` converts a model after importing all of them.
"""
import unittest

import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.graph.graph import Node
from mo.utils.error import Error
from mo.utils.unittest.graph import build_graph, compare_graphs, connect_front, const, regular_op, result
from tests.legacy_api.legacy_paths_kit import classes_at, front_graph

#: class name -> the module paths it is importable from (2020-2021 ``extensions.``; 2022-2024 ``mo.`` after the rename)
LEGACY_PATHS = {
    'ClipByValueTFTransformation': ('extensions.front.tf.ClipByValueTFTransformation',
                                    'mo.front.tf.ClipByValueTFTransformation'),
    'WhereDecomposition': ('extensions.front.tf.WhereDecomposition', 'mo.front.tf.WhereDecomposition'),
    'FillToBroadcast': ('extensions.front.FillToBroadcast', 'mo.front.FillToBroadcast'),
    'AttributedRollToRoll': ('extensions.front.AttributedRollToRoll', 'mo.front.AttributedRollToRoll'),
    'OneHotDepthNormalizer': ('extensions.front.OneHotDepthNormalizer', 'mo.front.OneHotDepthNormalizer'),
    'SizeFrontReplacer': ('extensions.front.SizeReplacer', 'mo.front.SizeReplacer'),
    'PowerToEltwises': ('extensions.front.PowerToEltwises', 'mo.front.PowerToEltwises'),
    'TransposeOrderNormalizer': ('extensions.front.TransposeOrderNormalizer', 'mo.front.TransposeOrderNormalizer'),
    'LayerNorm': ('extensions.front.LayerNorm', 'mo.front.LayerNorm'),
}


def _classes(name):
    return classes_at(LEGACY_PATHS, name)


class TestPaths(unittest.TestCase):
    def test_every_path_gives_the_same_class_and_none_is_a_step(self):
        from mo.utils.class_registration import registered_classes
        registered = set(registered_classes())
        for name in LEGACY_PATHS:
            with self.subTest(name=name):
                classes = _classes(name)
                self.assertTrue(all(cls is classes[0] for cls in classes), classes)
                self.assertNotIn(classes[0], registered)


class TestClipByValueTF(unittest.TestCase):
    nodes = {
        **regular_op('x', {'type': 'Parameter', 'op': 'Parameter'}),
        **const('low', np.array([-1.0, 0.0], dtype=np.float32)),
        **const('high', np.array(2.0, dtype=np.float32)),
        **regular_op('clip', {'op': 'ClipByValueTF', 'name': 'my_clip'}),
        **regular_op('minimum', {'op': 'Minimum', 'type': 'Minimum'}),
        **regular_op('maximum', {'op': 'Maximum', 'type': 'Maximum'}),
        **result('result'),
    }

    def test_clip_by_value(self):
        for cls in _classes('ClipByValueTFTransformation'):
            graph = front_graph(self.nodes, [*connect_front('x', '0:clip'), *connect_front('low', '1:clip'),
                                              *connect_front('high', '2:clip'), *connect_front('clip', 'result')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [*connect_front('x', '0:minimum'), *connect_front('high', '1:minimum'),
                                                 *connect_front('minimum', '0:maximum'),
                                                 *connect_front('low', '1:maximum'),
                                                 *connect_front('maximum', 'result')], nodes_with_edges_only=True)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Maximum')], ['my_clip'])
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Minimum')], ['my_clip/CLipMinimum'])
            self.assertEqual(graph.get_op_nodes(op='ClipByValueTF'), [])


class TestWhereDecomposition(unittest.TestCase):
    """A middle-phase graph, as the Model Optimizer's test had it."""
    nodes = {
        'placeholder': {'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'placeholder_data': {'value': None, 'shape': None, 'kind': 'data'},
        'tf_where': {'op': 'Where', 'kind': 'op', 'name': 'my_where'},
        'tf_where_data': {'kind': 'data'},
        'output': {'kind': 'op', 'op': 'Result'},
    }
    ref_nodes = {
        'placeholder': {'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'placeholder_data': {'value': None, 'shape': None, 'kind': 'data'},
        'non_zero': {'kind': 'op', 'op': 'NonZero', 'output_type': np.int64},
        'non_zero_data': {'kind': 'data'},
        'transpose': {'kind': 'op', 'op': 'Transpose'},
        'transpose_data': {'kind': 'data'},
        'perm_const': {'kind': 'op', 'op': 'Const', 'shape': [2], 'value': int64_array([1, 0])},
        'perm_const_data': {'kind': 'data', 'shape': [2], 'value': int64_array([1, 0])},
        'output': {'kind': 'op', 'op': 'Result'},
    }

    def test_where(self):
        for cls in _classes('WhereDecomposition'):
            for shape in ([1, 100, 120, 150], [16, 125, 14]):
                graph = build_graph(self.nodes, [('placeholder', 'placeholder_data'), ('placeholder_data', 'tf_where'),
                                                 ('tf_where', 'tf_where_data'), ('tf_where_data', 'output')],
                                    update_attributes={'placeholder_data': {'shape': int64_array(shape)}})
                cls().find_and_replace_pattern(graph)
                graph_ref = build_graph(self.ref_nodes, [
                    ('placeholder', 'placeholder_data'), ('placeholder_data', 'non_zero'),
                    ('non_zero', 'non_zero_data'), ('non_zero_data', 'transpose', {'in': 0}),
                    ('perm_const', 'perm_const_data'), ('perm_const_data', 'transpose', {'in': 1}),
                    ('transpose', 'transpose_data'), ('transpose_data', 'output')],
                    update_attributes={'placeholder_data': {'shape': int64_array(shape)}})
                flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
                self.assertTrue(flag, resp)
                self.assertEqual([n.name for n in graph.get_op_nodes(op='Transpose')], ['my_where'])
                self.assertEqual([n.name for n in graph.get_op_nodes(op='NonZero')], ['my_where/NonZero_'])


class TestFillToBroadcast(unittest.TestCase):
    nodes = {
        **regular_op('dims', {'type': 'Parameter', 'op': 'Parameter'}),
        **const('value', np.array(1.5, dtype=np.float32)),
        **regular_op('fill', {'op': 'Fill', 'name': 'my_fill'}),
        **regular_op('constant_fill', {'op': 'ConstantFill', 'fill_value': 7.0, 'input_as_shape': True,
                                       'name': 'my_constant_fill'}),
        **regular_op('broadcast', {'op': 'Broadcast', 'type': 'Broadcast'}),
        **const('fill_value', np.array(7.0)),
        **result('result'),
    }

    def test_fill(self):
        for cls in _classes('FillToBroadcast'):
            graph = front_graph(self.nodes, [*connect_front('dims', '0:fill'), *connect_front('value', '1:fill'),
                                              *connect_front('fill', 'result')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [*connect_front('value', '0:broadcast'),
                                                 *connect_front('dims', '1:broadcast'),
                                                 *connect_front('broadcast', 'result')], nodes_with_edges_only=True)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Broadcast')], ['my_fill/Broadcast'])

    def test_constant_fill(self):
        graph = front_graph(self.nodes, [*connect_front('dims', '0:constant_fill'),
                                          *connect_front('constant_fill', 'result')])
        _classes('FillToBroadcast')[0]().find_and_replace_pattern(graph)
        graph_ref = build_graph(self.nodes, [*connect_front('fill_value', '0:broadcast'),
                                             *connect_front('dims', '1:broadcast'),
                                             *connect_front('broadcast', 'result')], nodes_with_edges_only=True)
        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
        self.assertTrue(flag, resp)

    def test_constant_fill_without_input_as_shape_is_an_error(self):
        graph = front_graph(self.nodes, [*connect_front('dims', '0:constant_fill'),
                                          *connect_front('constant_fill', 'result')],
                             update_attributes={'constant_fill': {'input_as_shape': False}})
        with self.assertRaisesRegex(Error, 'ConstantFill "my_constant_fill"'):
            _classes('FillToBroadcast')[0]().find_and_replace_pattern(graph)


class TestAttributedRollToRoll(unittest.TestCase):
    nodes = {
        **regular_op('placeholder', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('attr_roll', {'op': 'AttributedRoll', 'shift': int64_array([-1, 1, 2]),
                                   'axes': int64_array([0, 3, 1]), 'name': 'attr_roll'}),
        **regular_op('roll', {'type': 'Roll', 'op': 'Roll'}),
        **const('roll_shift', int64_array([-1, 1, 2])),
        **const('roll_axes', int64_array([0, 3, 1])),
        **result('result'),
    }

    def test_shift_and_axes(self):
        for cls in _classes('AttributedRollToRoll'):
            for with_axes in (True, False):
                graph = front_graph(self.nodes, [*connect_front('placeholder', 'attr_roll'),
                                                  *connect_front('attr_roll', 'result')])
                if not with_axes:
                    del graph.node['attr_roll']['axes']
                cls().find_and_replace_pattern(graph)
                ref_edges = [*connect_front('placeholder', '0:roll'), *connect_front('roll_shift', '1:roll'),
                             *connect_front('roll', 'result')]
                if with_axes:
                    ref_edges += connect_front('roll_axes', '2:roll')
                graph_ref = build_graph(self.nodes, ref_edges, nodes_with_edges_only=True)
                flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
                self.assertTrue(flag, resp)
                self.assertEqual([n.name for n in graph.get_op_nodes(op='Roll')], ['attr_roll'])


class TestOneHotDepthNormalizer(unittest.TestCase):
    nodes = {
        **regular_op('input', {'type': 'Parameter'}),
        **const('depth', int64_array([2])),
        **regular_op('onehot', {'type': 'OneHot', 'kind': 'op', 'op': 'OneHot', 'name': 'my_onehot'}),
        **regular_op('reshape', {'type': 'Reshape', 'kind': 'op', 'op': 'Reshape'}),
        **const('reshape_dims', int64_array([])),
        **result('result'),
    }

    def test_depth_is_reshaped_to_a_scalar(self):
        for cls in _classes('OneHotDepthNormalizer'):
            graph = front_graph(self.nodes, [('input', 'onehot'), ('depth', 'onehot'), ('onehot', 'result')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [('input', 'onehot'), ('depth', 'reshape'), ('reshape_dims', 'reshape'),
                                                 ('reshape', 'onehot'), ('onehot', 'result')])
            flag, resp = compare_graphs(graph, graph_ref, 'result')
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Reshape')], ['my_onehot/Reshape'])


class TestSizeFrontReplacer(unittest.TestCase):
    nodes = {
        **regular_op('input', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('size', {'op': 'Size', 'output_type': np.int32, 'name': 'my_size'}),
        **regular_op('shape', {'op': 'ShapeOf', 'type': 'ShapeOf', 'output_type': np.int32}),
        **regular_op('reduce_prod', {'op': 'ReduceProd', 'type': 'ReduceProd', 'keep_dims': False}),
        **const('axis', int64_array([0])),
        **result('result'),
    }

    def test_size(self):
        for cls in _classes('SizeFrontReplacer'):
            graph = front_graph(self.nodes, [*connect_front('input', 'size'), *connect_front('size', 'result')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [*connect_front('input', 'shape'),
                                                 *connect_front('shape', '0:reduce_prod'),
                                                 *connect_front('axis', '1:reduce_prod'),
                                                 *connect_front('reduce_prod', 'result')], nodes_with_edges_only=True)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='ReduceProd')], ['my_size'])
            self.assertEqual([n.name for n in graph.get_op_nodes(op='ShapeOf')], ['my_size/Shape/'])
            self.assertEqual(Node(graph, 'input').out_port(0).get_destination().node.op, 'ShapeOf')

    def test_no_output_type_is_an_error(self):
        graph = front_graph(self.nodes, [*connect_front('input', 'size'), *connect_front('size', 'result')])
        del graph.node['size']['output_type']
        with self.assertRaisesRegex(Error, 'Size "my_size"'):
            _classes('SizeFrontReplacer')[0]().find_and_replace_pattern(graph)


class TestPowerToEltwises(unittest.TestCase):
    nodes = {
        **regular_op('input', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('power', {'op': 'AttributedPower', 'scale': 2.0, 'shift': 0.5, 'power': 3.0, 'name': 'my_power'}),
        **regular_op('mul', {'op': 'Mul', 'type': 'Multiply'}),
        **regular_op('add', {'op': 'Add', 'type': 'Add'}),
        **regular_op('pow', {'op': 'Pow', 'type': 'Power'}),
        **const('scale', np.array(2.0)), **const('shift', np.array(0.5)), **const('exponent', np.array(3.0)),
        **result('result'),
    }

    def _convert(self, cls, **attrs):
        graph = front_graph(self.nodes, [*connect_front('input', 'power'), *connect_front('power', 'result')],
                             update_attributes={'power': attrs})
        cls().find_and_replace_pattern(graph)
        self.assertEqual(graph.get_op_nodes(op='AttributedPower'), [])
        return graph

    def test_every_step(self):
        for cls in _classes('PowerToEltwises'):
            graph = self._convert(cls)
            graph_ref = build_graph(self.nodes, [*connect_front('input', '0:mul'), *connect_front('scale', '1:mul'),
                                                 *connect_front('mul', '0:add'), *connect_front('shift', '1:add'),
                                                 *connect_front('add', '0:pow'), *connect_front('exponent', '1:pow'),
                                                 *connect_front('pow', 'result')], nodes_with_edges_only=True)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual(sorted(n.name for n in graph.get_op_nodes() if n.op in ('Mul', 'Add', 'Pow')),
                             ['my_power/add_', 'my_power/mul_', 'my_power/pow_'])

    def test_neutral_steps_are_left_out(self):
        cls = _classes('PowerToEltwises')[0]
        graph = self._convert(cls, scale=1, power=1)
        graph_ref = build_graph(self.nodes, [*connect_front('input', '0:add'), *connect_front('shift', '1:add'),
                                             *connect_front('add', 'result')], nodes_with_edges_only=True)
        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
        self.assertTrue(flag, resp)
        graph = self._convert(cls, scale=1, shift=0, power=1)
        graph_ref = build_graph(self.nodes, [*connect_front('input', 'result')], nodes_with_edges_only=True)
        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
        self.assertTrue(flag, resp)


class TestTransposeOrderNormalizer(unittest.TestCase):
    nodes = {
        **regular_op('input', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('transpose', {'type': 'Transpose', 'op': 'Transpose', 'order': int64_array([0, 2, 1]),
                                   'name': 'my_transpose'}),
        **const('order', int64_array([0, 2, 1])),
        **result('result'),
    }

    def test_order_becomes_an_input(self):
        for cls in _classes('TransposeOrderNormalizer'):
            graph = front_graph(self.nodes, [*connect_front('input', 'transpose'),
                                              *connect_front('transpose', 'result')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [*connect_front('input', '0:transpose'),
                                                 *connect_front('order', '1:transpose'),
                                                 *connect_front('transpose', 'result')], nodes_with_edges_only=True)
            del graph_ref.node['transpose']['order']
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertFalse(Node(graph, 'transpose').has('order'))

    def test_reverse_order_stays_and_no_order_is_an_error(self):
        cls = _classes('TransposeOrderNormalizer')[0]
        graph = front_graph(self.nodes, [*connect_front('input', 'transpose'), *connect_front('transpose', 'result')],
                             update_attributes={'transpose': {'order': None, 'reverse_order': True}})
        cls().find_and_replace_pattern(graph)
        self.assertFalse(Node(graph, 'transpose').is_in_port_connected(1))
        del graph.node['transpose']['order']
        with self.assertRaisesRegex(Error, 'my_transpose'):
            cls().find_and_replace_pattern(graph)


class TestLayerNorm(unittest.TestCase):
    """``(x - mean(x)) / (mean((x - mean(x))^2) + eps)^0.5``, with or without a Cast after the Sub."""
    nodes = {
        **regular_op('input', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('pool0', {'op': 'ReduceMean', 'type': 'ReduceMean'}),
        **regular_op('pool1', {'op': 'ReduceMean', 'type': 'ReduceMean'}),
        **regular_op('sub', {'op': 'Sub', 'type': 'Subtract'}),
        **regular_op('cast', {'op': 'Cast', 'type': 'Convert'}),
        **regular_op('pow', {'op': 'Pow', 'type': 'Power'}),
        **regular_op('add', {'op': 'Add', 'type': 'Add'}),
        **regular_op('sqrt', {'op': 'Pow', 'type': 'Power'}),
        **regular_op('div', {'op': 'Div', 'type': 'Divide', 'name': 'my_norm'}),
        **const('pool0_param', int64_array([-1])), **const('pool1_param', int64_array([-1])),
        **const('pow_param', np.array(2.0)), **const('add_param', np.array(1e-6)),
        **const('sqrt_param', np.array(0.5)),
        **regular_op('mvn', {'op': 'MVN', 'type': 'MVN', 'eps': 1e-6, 'normalize_variance': 1,
                             'eps_mode': 'inside_sqrt'}),
        **const('mvn_axes', int64_array([-1])),
        **result('result'),
    }

    def _graph(self, with_cast, **update):
        to_pow = [*connect_front('sub', 'cast'), *connect_front('cast', '0:pow')] if with_cast else \
            connect_front('sub', '0:pow')
        edges = [*connect_front('input', '0:pool0'), *connect_front('pool0_param', '1:pool0'),
                 *connect_front('input', '0:sub'), *connect_front('pool0', '1:sub'), *to_pow,
                 *connect_front('pow_param', '1:pow'), *connect_front('pow', '0:pool1'),
                 *connect_front('pool1_param', '1:pool1'), *connect_front('pool1', '0:add'),
                 *connect_front('add_param', '1:add'), *connect_front('add', '0:sqrt'),
                 *connect_front('sqrt_param', '1:sqrt'), *connect_front('sub', '0:div'),
                 *connect_front('sqrt', '1:div'), *connect_front('div', 'result')]
        return front_graph(self.nodes, edges, update_attributes=update)

    def test_layer_norm(self):
        for cls in _classes('LayerNorm'):
            for with_cast in (False, True):
                graph = self._graph(with_cast)
                cls().find_and_replace_pattern(graph)
                graph_ref = build_graph(self.nodes, [*connect_front('input', '0:mvn'),
                                                     *connect_front('mvn_axes', '1:mvn'),
                                                     *connect_front('mvn', 'result')], nodes_with_edges_only=True)
                flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
                self.assertTrue(flag, resp)
                self.assertEqual([n.name for n in graph.get_op_nodes(op='MVN')], ['my_norm'])

    def test_other_constants_stay(self):
        for update in ({'add_param': {'value': np.array(1e-3)}}, {'sqrt_param': {'value': np.array(0.4)}},
                       {'pool1_param': {'value': int64_array([1])}}):
            graph = self._graph(False, **update)
            _classes('LayerNorm')[0]().find_and_replace_pattern(graph)
            self.assertEqual(graph.get_op_nodes(op='MVN'), [], update)
            self.assertEqual(Node(graph, 'result').in_port(0).get_source().node.id, 'div')
