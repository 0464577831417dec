"""More of the Model Optimizer's built-in replacers under its module paths (the second batch; the first is in
``test_legacy_module_paths.py``).

Each test is written the way the Model Optimizer's own unit tests were: a ``build_graph`` dict, the replacer called
directly, ``compare_graphs`` against the graph the Model Optimizer's replacer gave. The reference graphs set no
attribute to None (the Model Optimizer's ``compare_graphs`` skipped those; mo's compares them), so they pass with
either helper.
"""
import importlib
import unittest

import numpy as np

from mo.front.common.partial_infer.utils import float_array, int64_array
from mo.graph.graph import Node
from mo.utils.error import Error
from mo.utils.unittest.graph import (build_graph, compare_graphs, connect, connect_front, const, empty_data,
                                     regular_op, regular_op_with_empty_data, regular_op_with_shaped_data, result)

from tests.legacy_api.test_legacy_module_paths import converted_plain_and_after_importing
from tests.legacy_api.test_legacy_module_paths_lowerings import LEGACY_PATHS as LOWERING_PATHS
from tests.legacy_api.legacy_paths_kit import classes_at, front_graph

#: class name -> the module paths it is importable from (2020-2021 ``extensions.``; 2022-2024 ``mo.`` after the rename)
LEGACY_PATHS = {
    'HSwishWithClamp': ('extensions.front.HSwish_fusion', 'mo.front.HSwish_fusion'),
    'HSwishWithMinMax': ('extensions.front.HSwish_fusion', 'mo.front.HSwish_fusion'),
    'BinaryFakeQuantizeNormalization': ('extensions.front.binary_quantize_normalization',
                                        'mo.front.binary_quantize_normalization'),
    'AttributedClampNormalizer': ('extensions.front.AttributedClampNormalizer', 'mo.front.AttributedClampNormalizer'),
    'AttributedGatherNormalizer': ('extensions.front.AttributedGatherNormalizer',
                                   'mo.front.AttributedGatherNormalizer'),
    'TopKNormalize': ('extensions.front.TopKNormalize', 'mo.front.TopKNormalize'),
    'ExpandDimsToUnsqueeze': ('extensions.front.ExpandDimsToUnsqueeze', 'mo.front.ExpandDimsToUnsqueeze'),
    'ArgOpsSqueeze': ('extensions.front.ArgOpsSqueeze', 'mo.front.ArgOpsSqueeze'),
    'SqueezeAxis': ('extensions.front.split_normalizer', 'mo.front.split_normalizer'),
    'SplitInputsReconnect': ('extensions.front.split_normalizer', 'mo.front.split_normalizer'),
    'AttributedSplitToSplit': ('extensions.front.split_normalizer', 'mo.front.split_normalizer'),
    'AttributedVariadicSplitToVariadicSplit': ('extensions.front.split_normalizer', 'mo.front.split_normalizer'),
    'VariadicSplitInputsSwap': ('extensions.front.split_normalizer', 'mo.front.split_normalizer'),
    'EltwiseNReplacement': ('extensions.front.eltwise_n', 'mo.front.eltwise_n'),
    'IdentityN_to_Identity': ('extensions.front.tf.identityN_to_identity', 'mo.front.tf.identityN_to_identity'),
    'MvnOnnxToMvn': ('extensions.front.onnx.MvnOnnxToMvn', 'mo.front.onnx.MvnOnnxToMvn'),
}

#: the phase anchors under the Model Optimizer's ``pass_separator`` modules: mo's anchors themselves
ANCHOR_PATHS = {
    'front': ('FrontStart', 'FrontFinish'),
    'middle': ('PreMiddleStart', 'MiddleStart', 'MiddleFinish', 'PostMiddleStart'),
    'back': ('BackStart', 'BackFinish'),
}


def _classes(name):
    return classes_at(LEGACY_PATHS, name)


class TestPaths(unittest.TestCase):
    def test_every_path_gives_the_same_class(self):
        for name in LEGACY_PATHS:
            with self.subTest(name=name):
                classes = _classes(name)
                self.assertTrue(all(cls is classes[0] for cls in classes), classes)

    def test_the_pass_separators_are_mos_anchors(self):
        anchors = importlib.import_module('mo.utils.anchors')
        for phase, names in ANCHOR_PATHS.items():
            for root in ('extensions', 'mo'):
                module = importlib.import_module('{}.{}.pass_separator'.format(root, phase))
                for name in names:
                    with self.subTest(module=module.__name__, name=name):
                        self.assertIs(getattr(module, name), getattr(anchors, name))

    def test_importing_them_adds_no_step(self):
        from mo.utils.class_registration import registered_classes, restore_registry, snapshot_registry
        snapshot = snapshot_registry()
        try:
            before = set(registered_classes())
            for name in LEGACY_PATHS:
                self.assertNotIn(_classes(name)[0], before, name)
            for phase in ANCHOR_PATHS:
                for root in ('extensions', 'mo'):
                    importlib.import_module('{}.{}.pass_separator'.format(root, phase))
            self.assertEqual(set(registered_classes()), before)
            # an author's subclass is a step of its own
            mine = type('MyTopKNormalize', (_classes('TopKNormalize')[0],), {'__module__': 'my_ext.front.topk'})
            self.assertIn(mine, registered_classes())
        finally:
            restore_registry(snapshot)


# ----- front/HSwish_fusion ------------------------------------------------------------------------
HSWISH_REF = build_graph({**regular_op('input', {'type': 'Parameter'}),
                          **regular_op('hswish', {'type': 'HSwish', 'op': 'HSwish', 'name': 'final_mul'}),
                          **result('result')}, [('input', 'hswish'), ('hswish', 'result')])


class TestHSwishWithClamp(unittest.TestCase):
    nodes = {
        **regular_op('input', {'type': 'Parameter'}),
        **regular_op('input_2', {'type': 'Parameter'}),
        **regular_op('add', {'op': 'Add'}),
        **regular_op('relu6', {'op': 'Clamp'}),
        **regular_op('mul', {'op': 'Mul'}),
        **regular_op('mul_2', {'op': 'Mul', 'name': 'final_mul'}),
        **const('const_0', float_array([0.0])),
        **const('const_3', float_array([3.0])),
        **const('const_6', float_array([6.0])),
        **const('const_1_6', float_array([1.0 / 6.0])),
        **result('result'),
    }
    edges = [('input', 'mul', {'in': 0, 'out': 0}), ('input', 'add', {'in': 0, 'out': 0}),
             ('const_3', 'add', {'in': 1, 'out': 0}), ('add', 'relu6', {'in': 0, 'out': 0}),
             ('const_0', 'relu6', {'in': 1, 'out': 0}), ('const_6', 'relu6', {'in': 2, 'out': 0}),
             ('relu6', 'mul', {'in': 1, 'out': 0}), ('mul', 'mul_2', {'in': 0, 'out': 0}),
             ('const_1_6', 'mul_2', {'in': 1, 'out': 0}), ('mul_2', 'result', {'in': 0, 'out': 0})]

    def test_hswish_with_clamp(self):
        for cls in _classes('HSwishWithClamp'):
            graph = front_graph(self.nodes, self.edges)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, HSWISH_REF, 'result')
            self.assertTrue(flag, resp)
            self.assertEqual([n.op for n in graph.get_op_nodes(name='final_mul')], ['HSwish'])

    def test_wrong_constant_or_different_tensors_stay(self):
        for update, edges in (({'const_0': {'value': float_array([0.00001])}}, self.edges),
                              ({}, [('input_2', 'add', {'in': 0, 'out': 0}) if edge[:2] == ('input', 'add') else edge
                                    for edge in self.edges])):
            graph = front_graph(self.nodes, edges, update_attributes=update)
            graph_ref = graph.copy()
            HSwishWithClamp = _classes('HSwishWithClamp')[0]
            HSwishWithClamp().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result')
            self.assertTrue(flag, resp)
            self.assertEqual(graph.get_op_nodes(op='HSwish'), [])


class TestHSwishWithMinMax(unittest.TestCase):
    nodes = {
        **regular_op('input', {'type': 'Parameter'}),
        **regular_op('add', {'op': 'Add'}),
        **regular_op('max', {'op': 'Maximum'}),
        **regular_op('min', {'op': 'Minimum'}),
        **regular_op('mul', {'op': 'Mul'}),
        **regular_op('mul_2', {'op': 'Mul', 'name': 'final_mul'}),
        **const('const_0', float_array([0.0])),
        **const('const_3', float_array([3.0])),
        **const('const_6', float_array([6.0])),
        **const('const_1_6', float_array([1.0 / 6.0])),
        **result('result'),
    }
    # the input feeds the first Mul's port 1 here: the fusion finds it on either port
    edges = [('input', 'mul', {'in': 1, 'out': 0}), ('input', 'add', {'in': 0, 'out': 0}),
             ('const_3', 'add', {'in': 1, 'out': 0}), ('add', 'max', {'in': 0, 'out': 0}),
             ('const_0', 'max', {'in': 1, 'out': 0}), ('max', 'min', {'in': 0, 'out': 0}),
             ('const_6', 'min', {'in': 1, 'out': 0}), ('min', 'mul', {'in': 0, 'out': 0}),
             ('mul', 'mul_2', {'in': 0, 'out': 0}), ('const_1_6', 'mul_2', {'in': 1, 'out': 0}),
             ('mul_2', 'result', {'in': 0, 'out': 0})]

    def test_hswish_with_min_max(self):
        for cls in _classes('HSwishWithMinMax'):
            graph = front_graph(self.nodes, self.edges)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, HSWISH_REF, 'result')
            self.assertTrue(flag, resp)
            self.assertEqual([n.op for n in graph.get_op_nodes(name='final_mul')], ['HSwish'])

    def test_wrong_constant_stays(self):
        graph = front_graph(self.nodes, self.edges, update_attributes={'const_6': {'value': float_array([6.1])}})
        graph_ref = graph.copy()
        _classes('HSwishWithMinMax')[0]().find_and_replace_pattern(graph)
        flag, resp = compare_graphs(graph, graph_ref, 'result')
        self.assertTrue(flag, resp)
        self.assertEqual(graph.get_op_nodes(op='HSwish'), [])


# ----- front/binary_quantize_normalization ------------------------------------------------------------
class TestBinaryQuantizeNormalization(unittest.TestCase):
    nodes = {
        '0': {'name': 'input', 'kind': 'op', 'op': 'Parameter'},
        '1': {'name': 'mi_i', 'kind': 'op', 'op': 'Const', 'value': np.array(-1.0)},
        '2': {'name': 'ma_i', 'kind': 'op', 'op': 'Const', 'value': np.array(3.0)},
        '3': {'name': 'mi_o', 'kind': 'op', 'op': 'Const', 'value': np.array(0.0)},
        '4': {'name': 'ma_o', 'kind': 'op', 'op': 'Const', 'value': np.array(1.0)},
        'add': {'kind': 'op', 'op': 'Add'},
        'const': {'kind': 'op', 'op': 'Const', 'value': np.array(0.5)},
        'mul': {'kind': 'op', 'op': 'Mul'},
        'quantize': {'name': 'quantize', 'levels': 2, 'kind': 'op', 'op': 'FakeQuantize'},
        'output': {'name': 'output1', 'kind': 'op', 'op': 'Result', 'type': 'Result'},
    }
    edges = [('0', 'quantize', {'in': 0}), ('1', 'quantize', {'in': 1}), ('2', 'quantize', {'in': 2}),
             ('3', 'quantize', {'in': 3}), ('4', 'quantize', {'in': 4}), ('quantize', 'output')]

    def test_binary_quantize_normalizer(self):
        for cls in _classes('BinaryFakeQuantizeNormalization'):
            graph = front_graph(self.nodes, self.edges)
            cls().find_and_replace_pattern(graph)
            graph.clean_up()
            graph_ref = build_graph(self.nodes, [
                ('0', 'quantize', {'in': 0}), ('1', 'add'), ('2', 'add'), ('add', 'mul'), ('const', 'mul'),
                ('mul', 'quantize', {'in': 1, 'out': 0}), ('mul', 'quantize', {'in': 2, 'out': 0}),
                ('3', 'quantize', {'in': 3}), ('4', 'quantize', {'in': 4}), ('quantize', 'output')])
            flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
            self.assertTrue(flag, resp)
            quantize = Node(graph, 'quantize')
            self.assertEqual(quantize.in_port(1).get_source().node.id, quantize.in_port(2).get_source().node.id)

    def test_more_levels_stay(self):
        graph = front_graph(self.nodes, self.edges, update_attributes={'quantize': {'levels': 256}})
        graph_ref = graph.copy()
        _classes('BinaryFakeQuantizeNormalization')[0]().find_and_replace_pattern(graph)
        flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assertEqual(graph.get_op_nodes(op='Add'), [])


# ----- front/AttributedClampNormalizer, AttributedGatherNormalizer -----------------------------------------
class TestAttributedClampNormalizer(unittest.TestCase):
    nodes = {
        'placeholder': {'shape': None, 'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'attr_clamp': {'type': 'Clamp', 'kind': 'op', 'op': 'AttributedClamp', 'name': 'attr_clamp',
                       'min': np.array(-3.5, dtype=np.float32), 'max': np.array(3.5, dtype=np.float32)},
        'result': {'type': 'Result', 'kind': 'op', 'op': 'Result'},
        # the Model Optimizer's reference said 'type': None: its compare_graphs skipped that
        'clamp': {'type': 'Clamp', 'kind': 'op', 'op': 'Clamp'},
        **const('min', np.array(-3.5, dtype=np.float32)),
        **const('max', np.array(3.5, dtype=np.float32)),
        **const('lowest', np.array(np.finfo(np.float32).min, dtype=np.float32)),
    }

    def test_bounds_become_inputs(self):
        for cls in _classes('AttributedClampNormalizer'):
            graph = front_graph(self.nodes, [('placeholder', 'attr_clamp', {'in': 0, 'out': 0}),
                                              ('attr_clamp', 'result', {'in': 0, 'out': 0})])
            graph_ref = build_graph(self.nodes, [('placeholder', 'clamp', {'in': 0, 'out': 0}),
                                                 ('min', 'clamp', {'in': 1, 'out': 0}),
                                                 ('max', 'clamp', {'in': 2, 'out': 0}), ('clamp', 'result')],
                                    nodes_with_edges_only=True)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual(graph.node[graph.get_nodes_with_attributes(op='Clamp')[0]]['name'], 'attr_clamp')
            self.assertEqual(graph.get_op_nodes(op='AttributedClamp'), [])

    def test_a_missing_bound_is_float32s_limit(self):
        graph = front_graph(self.nodes, [('placeholder', 'attr_clamp'), ('attr_clamp', 'result')])
        del graph.node['attr_clamp']['min']
        graph_ref = build_graph(self.nodes, [('placeholder', 'clamp', {'in': 0}), ('lowest', 'clamp', {'in': 1}),
                                             ('max', 'clamp', {'in': 2}), ('clamp', 'result')],
                                nodes_with_edges_only=True)
        _classes('AttributedClampNormalizer')[0]().find_and_replace_pattern(graph)
        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
        self.assertTrue(flag, resp)


class TestAttributedGatherNormalizer(unittest.TestCase):
    nodes = {
        **regular_op('data', {'type': 'Parameter', 'op': 'Parameter'}),
        **const('indices', int64_array([1, 0])),
        **regular_op('attr_gather', {'op': 'AttributedGather', 'axis': 1, 'name': 'my_gather'}),
        **regular_op('gather', {'op': 'Gather', 'type': 'Gather'}),
        **const('axis', int64_array(1)),
        **result('result'),
    }

    def test_axis_becomes_an_input(self):
        for cls in _classes('AttributedGatherNormalizer'):
            graph = front_graph(self.nodes, [*connect_front('data', '0:attr_gather'),
                                              *connect_front('indices', '1:attr_gather'),
                                              *connect_front('attr_gather', 'result')])
            graph_ref = build_graph(self.nodes, [*connect_front('data', '0:gather'),
                                                 *connect_front('indices', '1:gather'),
                                                 *connect_front('axis', '2:gather'),
                                                 *connect_front('gather', 'result')], nodes_with_edges_only=True)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Gather')], ['my_gather'])
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Const') if n.name.endswith('/axis')],
                             ['my_gather/axis'])

    def test_no_axis_is_an_error(self):
        graph = front_graph(self.nodes, [*connect_front('data', '0:attr_gather'),
                                          *connect_front('indices', '1:attr_gather'),
                                          *connect_front('attr_gather', 'result')])
        del graph.node['attr_gather']['axis']
        with self.assertRaisesRegex(Error, 'my_gather'):
            _classes('AttributedGatherNormalizer')[0]().find_and_replace_pattern(graph)


# ----- front/TopKNormalize, ExpandDimsToUnsqueeze, ArgOpsSqueeze ----------------------------------------
class TestTopKNormalize(unittest.TestCase):
    nodes = {
        **regular_op('data', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('topk', {'op': 'TopK', 'type': 'TopK', 'k': 3, 'axis': 1}),
        **const('k', int64_array(3)),
        **result('values'), **result('indices'),
    }

    def test_k_becomes_an_input(self):
        for cls in _classes('TopKNormalize'):
            graph = front_graph(self.nodes, [*connect_front('data', '0:topk'), *connect_front('topk:0', 'values'),
                                              *connect_front('topk:1', 'indices')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [*connect_front('data', '0:topk'), *connect_front('k', '1:topk'),
                                                 *connect_front('topk:0', 'values'),
                                                 *connect_front('topk:1', 'indices')],
                                    update_attributes={'topk': {'axis': 1}}, nodes_with_edges_only=True)
            del graph_ref.node['topk']['k']
            flag, resp = compare_graphs(graph, graph_ref, 'indices', check_op_attrs=True)
            self.assertTrue(flag, resp)
            topk = Node(graph, 'topk')
            self.assertFalse(topk.has('k'))
            self.assertEqual(topk.in_port(1).get_source().node.name, 'topk/Dims')

    def test_a_k_input_stays_and_no_k_is_an_error(self):
        graph = front_graph(self.nodes, [*connect_front('data', '0:topk'), *connect_front('k', '1:topk'),
                                          *connect_front('topk:0', 'values')],
                             update_attributes={'topk': {'k': 5}})
        _classes('TopKNormalize')[0]().find_and_replace_pattern(graph)
        self.assertEqual(Node(graph, 'topk').in_port(1).get_source().node.id, 'k')
        self.assertEqual(Node(graph, 'topk').k, 5)

        graph = front_graph(self.nodes, [*connect_front('data', '0:topk'), *connect_front('topk:0', 'values')])
        del graph.node['topk']['k']
        with self.assertRaisesRegex(Error, 'TopK "topk"'):
            _classes('TopKNormalize')[0]().find_and_replace_pattern(graph)


class TestExpandDimsToUnsqueeze(unittest.TestCase):
    nodes = {
        **regular_op('data', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('expand_dims', {'op': 'ExpandDims', 'name': 'my_expand'}),
        **const('axes', int64_array([0])),
        **regular_op('unsqueeze', {'op': 'Unsqueeze', 'type': 'Unsqueeze'}),
        **const('dims', int64_array([2])),
        **result('result'),
    }

    def test_attribute_axis(self):
        for cls in _classes('ExpandDimsToUnsqueeze'):
            for expand_axis, ref_value in ((2, int64_array([2])), (int64_array([0, 2]), int64_array([0, 2]))):
                graph = front_graph(self.nodes, [*connect_front('data', 'expand_dims'),
                                                  *connect_front('expand_dims', 'result')],
                                     update_attributes={'expand_dims': {'expand_axis': expand_axis}})
                cls().find_and_replace_pattern(graph)
                graph_ref = build_graph(self.nodes, [*connect_front('data', '0:unsqueeze'),
                                                     *connect_front('dims', '1:unsqueeze'),
                                                     *connect_front('unsqueeze', 'result')],
                                        update_attributes={'dims': {'value': ref_value,
                                                                    'shape': int64_array(ref_value.shape)}},
                                        nodes_with_edges_only=True)
                flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
                self.assertTrue(flag, resp)
                self.assertEqual([n.name for n in graph.get_op_nodes(op='Unsqueeze')], ['expand_dims/Unsqueeze'])

    def test_axes_input(self):
        graph = front_graph(self.nodes, [*connect_front('data', '0:expand_dims'),
                                          *connect_front('axes', '1:expand_dims'),
                                          *connect_front('expand_dims', 'result')])
        _classes('ExpandDimsToUnsqueeze')[0]().find_and_replace_pattern(graph)
        graph_ref = build_graph(self.nodes, [*connect_front('data', '0:unsqueeze'),
                                             *connect_front('axes', '1:unsqueeze'),
                                             *connect_front('unsqueeze', 'result')], nodes_with_edges_only=True)
        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assertEqual([n.name for n in graph.get_op_nodes(op='Unsqueeze')], ['my_expand'])


class TestArgOpsSqueeze(unittest.TestCase):
    nodes = {
        **regular_op('data', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('argmax', {'op': 'ArgMax', 'keepdims': 0, 'axis': 1, 'name': 'my_argmax'}),
        **const('axis', int64_array(1)),
        **regular_op('squeeze', {'op': 'Squeeze', 'type': 'Squeeze'}),
        **result('result'),
    }

    def test_axis_attribute_and_axis_input(self):
        for cls in _classes('ArgOpsSqueeze'):
            for op in ('ArgMax', 'ArgMin'):
                for axis_input in (False, True):
                    with self.subTest(op=op, axis_input=axis_input):
                        edges = [*connect_front('data', '0:argmax'), *connect_front('argmax', 'result')]
                        if axis_input:
                            edges.append(*connect_front('axis', '1:argmax'))
                        graph = front_graph(self.nodes, edges, update_attributes={'argmax': {'op': op}})
                        cls().find_and_replace_pattern(graph)
                        ref_edges = [*connect_front('data', '0:argmax'), *connect_front('argmax', '0:squeeze'),
                                     *connect_front('axis', '1:squeeze'), *connect_front('squeeze', 'result')]
                        if axis_input:
                            ref_edges.append(*connect_front('axis', '1:argmax'))
                        graph_ref = build_graph(self.nodes, ref_edges, update_attributes={'argmax': {'op': op}},
                                                nodes_with_edges_only=True)
                        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
                        self.assertTrue(flag, resp)
                        self.assertEqual([n.name for n in graph.get_op_nodes(op='Squeeze')], ['my_argmax/Squeeze'])

    def test_keepdims_stays(self):
        graph = front_graph(self.nodes, [*connect_front('data', '0:argmax'), *connect_front('argmax', 'result')],
                             update_attributes={'argmax': {'keepdims': 1}})
        _classes('ArgOpsSqueeze')[0]().find_and_replace_pattern(graph)
        self.assertEqual(graph.get_op_nodes(op='Squeeze'), [])


# ----- front/split_normalizer -----------------------------------------------------------------------
class TestSplitNormalizer(unittest.TestCase):
    nodes = {
        'placeholder': {'shape': None, 'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'attr_split': {'kind': 'op', 'op': 'AttributedSplit', 'axis': 0, 'num_splits': 2, 'squeeze_axis': True,
                       'name': 'my_split'},
        'attr_vsplit': {'kind': 'op', 'op': 'AttributedVariadicSplit', 'axis': 1, 'size_splits': int64_array([2, 5]),
                        'name': 'my_vsplit'},
        'split': {'type': 'Split', 'kind': 'op', 'op': 'Split', 'num_splits': 2, 'squeeze_axis': True},
        'vsplit': {'type': 'VariadicSplit', 'kind': 'op', 'op': 'VariadicSplit'},
        **const('split_axis', int64_array(0)),
        **const('vsplit_axis', int64_array(1)),
        **const('vsplit_sizes', int64_array([2, 5])),
        'concat': {'type': 'Concat', 'kind': 'op', 'op': 'Concat', 'axis': 0},
        'result': {'type': 'Result', 'kind': 'op', 'op': 'Result'},
        'squeeze1': {'type': 'Squeeze', 'kind': 'op', 'op': 'Squeeze'},
        'squeeze2': {'type': 'Squeeze', 'kind': 'op', 'op': 'Squeeze'},
        **const('squeeze1_axis', int64_array(0)),
        **const('squeeze2_axis', int64_array(0)),
    }
    to_concat = [('concat', 'result', {'in': 0, 'out': 0})]

    def test_squeeze_axis_attributed(self):
        for cls in _classes('SqueezeAxis'):
            graph = front_graph(self.nodes, [('placeholder', 'attr_split', {'in': 0, 'out': 0}),
                                              ('attr_split', 'concat', {'in': 0, 'out': 0}),
                                              ('attr_split', 'concat', {'in': 1, 'out': 1})] + self.to_concat)
            graph_ref = build_graph(self.nodes, [('placeholder', 'attr_split', {'in': 0, 'out': 0}),
                                                 ('attr_split', 'squeeze1', {'in': 0, 'out': 0}),
                                                 ('squeeze1_axis', 'squeeze1', {'in': 1, 'out': 0}),
                                                 ('attr_split', 'squeeze2', {'in': 0, 'out': 1}),
                                                 ('squeeze2_axis', 'squeeze2', {'in': 1, 'out': 0}),
                                                 ('squeeze1', 'concat', {'in': 0, 'out': 0}),
                                                 ('squeeze2', 'concat', {'in': 1, 'out': 0})] + self.to_concat,
                                    nodes_with_edges_only=True)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual({n.name for n in graph.get_op_nodes(op='Squeeze')}, {'my_split/Squeeze_'})

    def test_squeeze_axis_from_the_split_input(self):
        graph = front_graph(self.nodes, [('placeholder', 'split', {'in': 0, 'out': 0}),
                                          ('split_axis', 'split', {'in': 1, 'out': 0}),
                                          ('split', 'concat', {'in': 0, 'out': 0}),
                                          ('split', 'concat', {'in': 1, 'out': 1})] + self.to_concat)
        graph_ref = build_graph(self.nodes, [('placeholder', 'split', {'in': 0, 'out': 0}),
                                             ('split_axis', 'split', {'in': 1, 'out': 0}),
                                             ('split', 'squeeze1', {'in': 0, 'out': 0}),
                                             ('split_axis', 'squeeze1', {'in': 1, 'out': 0}),
                                             ('split', 'squeeze2', {'in': 0, 'out': 1}),
                                             ('split_axis', 'squeeze2', {'in': 1, 'out': 0}),
                                             ('squeeze1', 'concat', {'in': 0, 'out': 0}),
                                             ('squeeze2', 'concat', {'in': 1, 'out': 0})] + self.to_concat,
                                nodes_with_edges_only=True)
        _classes('SqueezeAxis')[0]().find_and_replace_pattern(graph)
        flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
        self.assertTrue(flag, resp)

    def test_attributed_split_to_split(self):
        for cls in _classes('AttributedSplitToSplit'):
            graph = front_graph(self.nodes, [('placeholder', 'attr_split', {'in': 0, 'out': 0}),
                                              ('attr_split', 'concat', {'in': 0, 'out': 0}),
                                              ('attr_split', 'concat', {'in': 1, 'out': 1})] + self.to_concat)
            graph_ref = build_graph(self.nodes, [('placeholder', 'split', {'in': 0, 'out': 0}),
                                                 ('split_axis', 'split', {'in': 1, 'out': 0}),
                                                 ('split', 'concat', {'in': 0, 'out': 0}),
                                                 ('split', 'concat', {'in': 1, 'out': 1})] + self.to_concat,
                                    update_attributes={'split': {'squeeze_axis': False}}, nodes_with_edges_only=True)
            del graph_ref.node['split']['squeeze_axis']
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Split')], ['my_split/Split'])
            self.assertEqual(graph.get_op_nodes(op='AttributedSplit'), [])

    def test_attributed_variadic_split_to_variadic_split(self):
        for cls in _classes('AttributedVariadicSplitToVariadicSplit'):
            graph = front_graph(self.nodes, [('placeholder', 'attr_vsplit', {'in': 0, 'out': 0}),
                                              ('attr_vsplit', 'concat', {'in': 0, 'out': 0}),
                                              ('attr_vsplit', 'concat', {'in': 1, 'out': 1})] + self.to_concat)
            graph_ref = build_graph(self.nodes, [('placeholder', 'vsplit', {'in': 0, 'out': 0}),
                                                 ('vsplit_axis', 'vsplit', {'in': 1, 'out': 0}),
                                                 ('vsplit_sizes', 'vsplit', {'in': 2, 'out': 0}),
                                                 ('vsplit', 'concat', {'in': 0, 'out': 0}),
                                                 ('vsplit', 'concat', {'in': 1, 'out': 1})] + self.to_concat,
                                    update_attributes={'vsplit': {'out_ports_count': 2}}, nodes_with_edges_only=True)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='VariadicSplit')], ['my_vsplit/VariadicSplit'])

    def test_attributed_split_without_num_splits_is_an_error(self):
        graph = front_graph(self.nodes, [('placeholder', 'attr_split'), ('attr_split', 'concat')] + self.to_concat)
        del graph.node['attr_split']['num_splits']
        with self.assertRaisesRegex(Error, 'AttributedSplit "my_split" has no num_splits'):
            _classes('AttributedSplitToSplit')[0]().find_and_replace_pattern(graph)

    def test_input_swaps(self):
        # TensorFlow's Split(axis, data) and a VariadicSplit(data, sizes, axis) get the IR's input order
        for name, node, before, after, attrs in (
                ('SplitInputsReconnect', 'split',
                 [('split_axis', 'split', {'in': 0}), ('placeholder', 'split', {'in': 1})],
                 [('placeholder', 'split', {'in': 0}), ('split_axis', 'split', {'in': 1})], {'input_port': 1}),
                ('VariadicSplitInputsSwap', 'vsplit',
                 [('placeholder', 'vsplit', {'in': 0}), ('vsplit_sizes', 'vsplit', {'in': 1}),
                  ('vsplit_axis', 'vsplit', {'in': 2})],
                 [('placeholder', 'vsplit', {'in': 0}), ('vsplit_axis', 'vsplit', {'in': 1}),
                  ('vsplit_sizes', 'vsplit', {'in': 2})], {'swap_axis_and_split_size_inputs': True})):
            for cls in _classes(name):
                with self.subTest(cls=cls.__module__, name=name):
                    outputs = [(node, 'concat', {'in': 0, 'out': 0}), (node, 'concat', {'in': 1, 'out': 1})]
                    graph = front_graph(self.nodes, before + outputs + self.to_concat,
                                         update_attributes={node: attrs})
                    graph_ref = build_graph(self.nodes, after + outputs + self.to_concat, nodes_with_edges_only=True)
                    cls().find_and_replace_pattern(graph)
                    flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
                    self.assertTrue(flag, resp)
                    self.assertNotIn('input_port', graph.node[node])


# ----- front/eltwise_n ------------------------------------------------------------------------------
class TestEltwiseN(unittest.TestCase):
    nodes = {
        **{'placeholder_{}'.format(i): {'shape': np.array([1, 227, 227, 3]), 'type': 'Parameter', 'kind': 'op',
                                        'op': 'Parameter'} for i in range(1, 5)},
        'EltwiseN_1': {'kind': 'op', 'op': 'EltwiseN', 'name': 'sum_n'},
        'last': {'type': 'Result', 'kind': 'op', 'op': 'Result'},
        'max_1': {'type': 'Maximum', 'kind': 'op', 'op': 'Maximum'},
        **{'mul_{}'.format(i): {'type': 'Multiply', 'kind': 'op', 'op': 'Mul'} for i in range(1, 3)},
        **{'add_{}'.format(i): {'type': 'Add', 'kind': 'op', 'op': 'Add'} for i in range(1, 4)},
    }

    def _check(self, inputs, operation, ref_edges):
        for cls in _classes('EltwiseNReplacement'):
            graph = front_graph(self.nodes, [(i, 'EltwiseN_1') for i in inputs] + [('EltwiseN_1', 'last')],
                                 update_attributes={'EltwiseN_1': {'operation': operation}})
            graph_ref = build_graph(self.nodes, ref_edges, nodes_with_edges_only=True)
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'last', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual(graph.get_op_nodes(op='EltwiseN'), [])
            return graph

    def test_two_inputs_max(self):
        self._check(['placeholder_1', 'placeholder_2'], 'max',
                    [('placeholder_1', 'max_1'), ('placeholder_2', 'max_1'), ('max_1', 'last')])

    def test_three_inputs_mul(self):
        graph = self._check(['placeholder_1', 'placeholder_2', 'placeholder_3'], 'mul',
                            [('placeholder_1', 'mul_1'), ('placeholder_2', 'mul_1'), ('mul_1', 'mul_2'),
                             ('placeholder_3', 'mul_2'), ('mul_2', 'last')])
        self.assertEqual(sorted(n.name for n in graph.get_op_nodes(op='Mul')), ['sum_n/mul_1', 'sum_n/mul_2'])

    def test_one_input_four_times_sum(self):
        self._check(['placeholder_1'] * 4, 'sum',
                    [('placeholder_1', 'add_1'), ('placeholder_1', 'add_1'), ('add_1', 'add_2'),
                     ('placeholder_1', 'add_2'), ('add_2', 'add_3'), ('placeholder_1', 'add_3'), ('add_3', 'last')])

    def test_unknown_operation_is_an_error(self):
        graph = front_graph(self.nodes, [('placeholder_1', 'EltwiseN_1'), ('placeholder_2', 'EltwiseN_1'),
                                          ('EltwiseN_1', 'last')],
                             update_attributes={'EltwiseN_1': {'operation': 'pow'}})
        with self.assertRaisesRegex(Error, 'EltwiseN "sum_n"'):
            _classes('EltwiseNReplacement')[0]().find_and_replace_pattern(graph)


# ----- front/tf/identityN_to_identity (a middle-phase graph, as the Model Optimizer's test had it) ------------
class TestIdentityN(unittest.TestCase):
    # the Model Optimizer's test said 'type': None for the Identities and np.float (gone from numpy) for a type
    nodes = {
        **regular_op_with_shaped_data('placeholder_0', [1, 227, 227, 3], {'type': 'Parameter'}),
        **regular_op_with_shaped_data('placeholder_1', [1, 227, 227, 3], {'type': 'Parameter'}),
        **regular_op_with_empty_data('identityN', {'op': 'IdentityN', 'data_types': [np.int32, np.float64],
                                                   'name': 'my_identity'}),
        **empty_data('identityN_1_d'),
        **regular_op_with_empty_data('identity0', {'op': 'Identity', 'data_type': np.int32,
                                                   'name': 'my_identity/0_port'}),
        **regular_op_with_empty_data('identity1', {'op': 'Identity', 'data_type': np.float64,
                                                   'name': 'my_identity/1_port'}),
        **result('output0'),
        **result('output1'),
    }

    @staticmethod
    def _reference(edges):
        graph_ref = build_graph(TestIdentityN.nodes, edges, nodes_with_edges_only=True)
        for identity in ('identity0', 'identity1'):  # regular_op's 'type': None: mo's Identity has no IR type
            graph_ref.node.get(identity, {}).pop('type', None)
        return graph_ref

    def test_identityN(self):
        for cls in _classes('IdentityN_to_Identity'):
            graph = build_graph(self.nodes, [*connect('placeholder_0', '0:identityN'),
                                             *connect('placeholder_1', '1:identityN'),
                                             *connect('identityN:0', 'output0'),
                                             ('identityN', 'identityN_1_d', {'out': 1}),
                                             ('identityN_1_d', 'output1', {'in': 0})], nodes_with_edges_only=True)
            cls().find_and_replace_pattern(graph)
            graph_ref = self._reference([*connect('placeholder_0', 'identity0'), *connect('placeholder_1', 'identity1'),
                                         *connect('identity0', 'output0'), *connect('identity1', 'output1')])
            for last in ('output0', 'output1'):
                flag, resp = compare_graphs(graph, graph_ref, last, check_op_attrs=True)
                self.assertTrue(flag, resp)
            self.assertEqual(sorted(n.name for n in graph.get_op_nodes(op='Identity')),
                             ['my_identity/0_port', 'my_identity/1_port'])

    def test_identityN_unused_ports(self):
        graph = build_graph(self.nodes, [*connect('placeholder_0', '0:identityN'),
                                         *connect('placeholder_1', '1:identityN'),
                                         *connect('identityN:0', 'output0')], nodes_with_edges_only=True)
        _classes('IdentityN_to_Identity')[0]().find_and_replace_pattern(graph)
        graph_ref = self._reference([*connect('placeholder_0', 'identity0'), *connect('identity0', 'output0')])
        flag, resp = compare_graphs(graph, graph_ref, 'output0', check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assertEqual([n.name for n in graph.get_op_nodes(op='Identity')], ['my_identity/0_port'])
        identity_n = Node(graph, 'identityN')
        self.assertTrue(all(port.disconnected() for port in identity_n.in_ports().values()))
        # no consumers left (mo's Port.disconnected() still counts the output's data node as a connection)
        self.assertTrue(all(port.get_destinations() == [] for port in identity_n.out_ports().values()))


# ----- front/onnx/MvnOnnxToMvn -----------------------------------------------------------------------
class TestMvnOnnxToMvn(unittest.TestCase):
    nodes = {
        **regular_op('data', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op('mvn_onnx', {'op': 'MVNOnnx', 'axes': int64_array([2, 3]), 'eps': 1e-9,
                                  'eps_mode': 'outside_sqrt', 'normalize_variance': 1, 'name': 'my_mvn'}),
        **regular_op('mvn', {'op': 'MVN', 'type': 'MVN', 'eps': 1e-9, 'eps_mode': 'outside_sqrt',
                             'normalize_variance': 1}),
        **const('axes', int64_array([2, 3])),
        **result('result'),
    }

    def test_mvn_onnx_to_mvn(self):
        for cls in _classes('MvnOnnxToMvn'):
            graph = front_graph(self.nodes, [*connect_front('data', 'mvn_onnx'), *connect_front('mvn_onnx', 'result')])
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [*connect_front('data', '0:mvn'), *connect_front('axes', '1:mvn'),
                                                 *connect_front('mvn', 'result')], nodes_with_edges_only=True)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='MVN')], ['my_mvn'])
            self.assertEqual(graph.get_op_nodes(op='MVNOnnx'), [])


# ----- a conversion after importing every path of this batch (this file's and the lowerings') -------------
def test_importing_every_path_of_this_batch_leaves_the_ir_unchanged(tmp_path):
    modules = ({module for table in (LEGACY_PATHS, LOWERING_PATHS) for paths in table.values() for module in paths} |
               {'{}.{}.pass_separator'.format(root, phase) for root in ('extensions', 'mo') for phase in ANCHOR_PATHS})
    outputs = converted_plain_and_after_importing(tmp_path, modules)
    assert outputs['plain'] == outputs['imported']
