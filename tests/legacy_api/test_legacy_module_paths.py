"""The Model Optimizer's built-in replacers under its module paths, as authors' unit tests import them.

Each test is written the way the Model Optimizer's own unit tests were: a ``build_graph`` dict, the replacer
called directly, ``compare_graphs`` against the graph the Model Optimizer's replacer gave. The classes are
``legacy_only``: importing them adds no step, so a conversion after importing them all writes the same IR.
"""
import subprocess
import sys
import unittest
from pathlib import Path

import numpy as np
import pytest

from mo.front.common.partial_infer.utils import float_array, int64_array
from mo.utils.unittest.graph import (build_graph, compare_graphs, connect, connect_front, const,
                                     regular_op_with_empty_data, regular_op_with_shaped_data, result,
                                     valued_const_with_data)
from tests.legacy_api.legacy_paths_kit import classes_at

ROOT = Path(__file__).resolve().parents[2]

#: class name -> the module paths it is importable from (2020-2021 ``extensions.``; 2022-2024 ``mo.`` after the rename)
LEGACY_PATHS = {
    'SquaredDifference': ('extensions.front.squared_difference', 'mo.front.squared_difference'),
    'Sub': ('extensions.front.sub', 'mo.front.sub'),
    'Div': ('extensions.front.div', 'mo.front.div'),
    'Log1p': ('extensions.front.Log1p', 'mo.front.Log1p'),
    'ReciprocalReplacer': ('extensions.front.reciprocal', 'mo.front.reciprocal'),
    'ThresholdedReluDecomposition': ('extensions.front.ThresholdedReluDecomposition',
                                     'mo.front.ThresholdedReluDecomposition'),
    'FloorDivDecomposition': ('extensions.front.tf.floor_div_decomposition', 'mo.front.tf.floor_div_decomposition'),
    'TFSliceToSliceReplacer': ('extensions.front.tf.TFSliceToSlice', 'mo.front.tf.TFSliceToSlice'),
    # mo's own built-in steps, also under the 2022-2024 paths
    'Pack': ('extensions.front.Pack', 'mo.front.Pack'),
    'SqueezeNormalize': ('extensions.front.SqueezeNormalize', 'mo.front.SqueezeNormalize'),
    'SoftplusFusion': ('extensions.front.Softplus_fusion', 'mo.front.Softplus_fusion'),
    'MishFusion': ('extensions.front.Mish_fusion', 'mo.front.Mish_fusion'),
    'NoOpEraser': ('extensions.front.no_op_eraser', 'mo.front.no_op_eraser'),
    'StandaloneConstEraser': ('extensions.front.standalone_const_eraser', 'mo.front.standalone_const_eraser'),
}


def _classes(name):
    return classes_at(LEGACY_PATHS, name)


class TestPaths(unittest.TestCase):
    def test_every_path_gives_the_same_class(self):
        for name in LEGACY_PATHS:
            with self.subTest(name=name):
                classes = _classes(name)
                self.assertTrue(all(cls is classes[0] for cls in classes), classes)

    def test_legacy_classes_are_not_steps_but_an_authors_subclass_is(self):
        from mo.utils.class_registration import registered_classes, restore_registry, snapshot_registry
        snapshot = snapshot_registry()
        try:
            registered = set(registered_classes())
            for name in ('SquaredDifference', 'Sub', 'Div', 'Log1p', 'ReciprocalReplacer',
                         'ThresholdedReluDecomposition', 'FloorDivDecomposition', 'TFSliceToSliceReplacer'):
                self.assertNotIn(_classes(name)[0], registered, name)
            for name in ('Pack', 'SqueezeNormalize', 'NoOpEraser'):  # aliases of steps that do run
                self.assertIn(_classes(name)[0], registered, name)
            mine = type('MyLog1p', (_classes('Log1p')[0],), {'__module__': 'my_extensions.front.log1p'})
            self.assertIn(mine, registered_classes())
        finally:
            restore_registry(snapshot)


class TestSquaredDifference(unittest.TestCase):
    nodes = {
        'placeholder_1': {'type': 'Parameter', 'kind': 'op', 'op': 'Parameter', 'shape': np.array([1, 227, 227, 3])},
        'placeholder_2': {'type': 'Parameter', 'kind': 'op', 'op': 'Parameter', 'shape': np.array([1, 227, 227, 3])},
        'squared_difference': {'type': 'SquaredDifference', 'kind': 'op', 'op': 'SquaredDifference',
                               'name': 'sq'},
        'last': {'type': None, 'kind': 'op', 'op': None},
        'n_const': {'kind': 'op', 'op': 'Const', 'value': np.array(-1)},
        'negate_1': {'type': 'Multiply', 'kind': 'op', 'op': 'Mul'},
        's_const': {'kind': 'op', 'op': 'Const', 'value': np.array(2)},
        'square_1': {'type': 'Power', 'kind': 'op', 'op': 'Pow'},
        'add_1': {'type': 'Add', 'kind': 'op', 'op': 'Add'},
    }

    def test_squared_difference(self):
        for cls in _classes('SquaredDifference'):
            graph = build_graph(self.nodes, [('placeholder_1', 'squared_difference'),
                                             ('placeholder_2', 'squared_difference'),
                                             ('squared_difference', 'last')], nodes_with_edges_only=True)
            graph_ref = build_graph(self.nodes, [('placeholder_1', 'add_1'), ('placeholder_2', 'negate_1'),
                                                 ('n_const', 'negate_1'), ('negate_1', 'add_1'),
                                                 ('add_1', 'square_1', {'in': 0}), ('s_const', 'square_1', {'in': 1}),
                                                 ('square_1', 'last')], nodes_with_edges_only=True)
            graph.stage = 'front'
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'last', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual(graph.get_op_nodes(op='SquaredDifference'), [])
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Pow')], ['sq/squared_'])


class TestSub(unittest.TestCase):
    nodes = {
        **regular_op_with_shaped_data('placeholder_1', [1, 227, 227, 3], {'type': 'Parameter'}),
        **regular_op_with_shaped_data('placeholder_2', [1, 227, 227, 3], {'type': 'Parameter'}),
        **regular_op_with_shaped_data('sub', None, {'op': 'Sub', 'type': 'Subtract', 'name': 'my_sub'}),
        # the inserted Mul's output tensor: mo's Connection.insert_node gives it a new data node without a shape
        # until inference (the Model Optimizer's moved the old data node there), so the shape is not compared
        **regular_op_with_empty_data('negate', {'type': 'Multiply'}),
        **valued_const_with_data('minus_one', np.array(-1.)),
        **regular_op_with_shaped_data('add', None, {'type': 'Add'}),
        **result(),
    }

    def _check(self, graph, graph_ref, cls):
        cls().find_and_replace_pattern(graph)
        flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assertEqual(graph.node[graph.get_nodes_with_attributes(type='Add')[0]]['name'], 'my_sub')

    def test_two_inputs(self):
        for cls in _classes('Sub'):
            graph = build_graph(self.nodes, [*connect('placeholder_1', '0:sub'), *connect('placeholder_2', '1:sub'),
                                             *connect('sub', 'output')], nodes_with_edges_only=True)
            graph_ref = build_graph(self.nodes, [*connect('placeholder_1', '0:add'),
                                                 *connect('placeholder_2', '0:negate'),
                                                 *connect('minus_one', '1:negate'), *connect('negate', '1:add'),
                                                 *connect('add', 'output')], nodes_with_edges_only=True)
            self._check(graph, graph_ref, cls)

    def test_one_input_on_both_ports(self):
        for cls in _classes('Sub'):
            graph = build_graph(self.nodes, [*connect('placeholder_1:0', '0:sub'),
                                             ('placeholder_1_d', 'sub', {'in': 1}),
                                             *connect('sub', 'output')], nodes_with_edges_only=True)
            graph_ref = build_graph(self.nodes, [*connect('placeholder_1:0', '0:add'),
                                                 ('placeholder_1_d', 'negate', {'in': 0}),
                                                 *connect('minus_one', '1:negate'), *connect('negate', '1:add'),
                                                 *connect('add', 'output')], nodes_with_edges_only=True)
            self._check(graph, graph_ref, cls)

    def test_zero_point_sub_and_known_values_stay(self):
        for attrs in ({'zero_point_sub': True}, {}):
            graph = build_graph({**self.nodes, **valued_const_with_data('c1', np.array([3.])),
                                 **valued_const_with_data('c2', np.array([1.]))},
                                [*connect('placeholder_1' if attrs else 'c1', '0:sub'),
                                 *connect('placeholder_2' if attrs else 'c2', '1:sub'),
                                 *connect('sub', 'output')], update_attributes={'sub': attrs},
                                nodes_with_edges_only=True)
            graph_ref = graph.copy()
            _classes('Sub')[0]().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual(len(graph.get_op_nodes(op='Sub')), 1)


class TestDiv(unittest.TestCase):
    nodes = {
        **regular_op_with_shaped_data('placeholder_1', [1, 227, 227, 3], {'type': 'Parameter'}),
        **regular_op_with_shaped_data('placeholder_2', [1, 227, 227, 3], {'type': 'Parameter'}),
        **regular_op_with_shaped_data('div', None, {'op': 'Div', 'type': 'Divide', 'name': 'my_div'}),
        **regular_op_with_empty_data('reciprocal', {'type': 'Power'}),  # no shape: see TestSub
        **valued_const_with_data('minus_one', np.array(-1.)),
        **regular_op_with_shaped_data('mul', None, {'type': 'Multiply'}),
        **result(),
    }

    def test_two_inputs_and_one_input_on_both_ports(self):
        for cls in _classes('Div'):
            for second in (connect('placeholder_2', '1:div'), [('placeholder_1_d', 'div', {'in': 1})]):
                graph = build_graph(self.nodes, [*connect('placeholder_1:0', '0:div'), *second,
                                                 *connect('div', 'output')], nodes_with_edges_only=True)
                divisor = 'placeholder_2' if second[0][0] == 'placeholder_2' else 'placeholder_1:0'
                divisor_edge = connect(divisor, '0:reciprocal') if divisor == 'placeholder_2' else \
                    [('placeholder_1_d', 'reciprocal', {'in': 0})]
                graph_ref = build_graph(self.nodes, [*connect('placeholder_1:0', '0:mul'), *divisor_edge,
                                                     *connect('minus_one', '1:reciprocal'),
                                                     *connect('reciprocal', '1:mul'), *connect('mul', 'output')],
                                        nodes_with_edges_only=True)
                cls().find_and_replace_pattern(graph)
                flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
                self.assertTrue(flag, resp)
                self.assertEqual(graph.node[graph.get_nodes_with_attributes(type='Multiply')[0]]['name'], 'my_div')

    def test_integer_divisor_stays(self):
        graph = build_graph({
            **regular_op_with_shaped_data('parameter', [1, 227, 227, 3], {'type': 'Parameter', 'data_type': np.int32}),
            **valued_const_with_data('const', np.array([-1], dtype=np.int32)),
            **regular_op_with_shaped_data('div', None, {'op': 'Div', 'type': 'Divide', 'name': 'my_div'}),
            **result()}, [*connect('parameter:0', '0:div'), *connect('const:0', '1:div'),
                          *connect('div', 'output')])
        graph_ref = graph.copy()
        _classes('Div')[0]().find_and_replace_pattern(graph)
        flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
        self.assertTrue(flag, resp)
        self.assertEqual(len(graph.get_op_nodes(op='Div')), 1)


class TestLog1p(unittest.TestCase):
    nodes = {
        'placeholder': {'shape': np.array([4, 5, 6]), 'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'Log1p': {'kind': 'op', 'op': 'Log1p', 'name': 'lp'},
        'last': {'type': None, 'kind': 'op', 'op': None},
        'const': {'kind': 'op', 'op': 'Const', 'value': np.ones([1], dtype=np.float32)},
        'add': {'type': 'Add', 'kind': 'op', 'op': 'Add'},
        'log': {'type': 'Log', 'kind': 'op', 'op': 'Log'},
    }

    def test_log1p(self):
        for cls in _classes('Log1p'):
            graph = build_graph(self.nodes, [('placeholder', 'Log1p'), ('Log1p', 'last')], nodes_with_edges_only=True)
            graph_ref = build_graph(self.nodes, [('const', 'add'), ('placeholder', 'add'), ('add', 'log'),
                                                 ('log', 'last')], nodes_with_edges_only=True)
            graph.stage = 'front'
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'last', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Log')], ['lp'])
            self.assertEqual(graph.get_op_nodes(op='Log1p'), [])


class TestReciprocal(unittest.TestCase):
    nodes = {
        'placeholder': {'shape': np.array([1, 3]), 'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'reciprocal': {'kind': 'op', 'op': 'Reciprocal', 'name': 'rec'},
        'last': {'type': None, 'kind': 'op', 'op': None},
        'const': {'kind': 'op', 'op': 'Const', 'value': np.array(-1.0)},
        'pow': {'type': 'Power', 'kind': 'op', 'op': 'Pow'},
    }

    def test_reciprocal(self):
        for cls in _classes('ReciprocalReplacer'):
            graph = build_graph(self.nodes, [('placeholder', 'reciprocal'), ('reciprocal', 'last')],
                                nodes_with_edges_only=True)
            graph_ref = build_graph(self.nodes, [('placeholder', 'pow', {'in': 0}), ('const', 'pow', {'in': 1}),
                                                 ('pow', 'last')], nodes_with_edges_only=True)
            graph.stage = 'front'
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'last', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual(graph.get_op_nodes(op='Reciprocal'), [])


class TestThresholdedReluDecomposition(unittest.TestCase):
    nodes = {
        'parameter': {'shape': None, 'type': 'Parameter', 'kind': 'op', 'op': 'Parameter'},
        'trelu': {'type': None, 'kind': 'op', 'op': 'ThresholdedRelu', 'alpha': 0.75, 'name': 'my_trelu'},
        'result': {'type': 'Result', 'kind': 'op', 'op': 'Result'},
        'cast': {'type': 'Convert', 'kind': 'op', 'op': 'Cast'},
        'greater': {'type': 'Greater', 'kind': 'op', 'op': 'Greater'},
        'mul': {'type': 'Multiply', 'kind': 'op', 'op': 'Mul', 'name': 'my_trelu'},
        **const('alpha', float_array([0.75])),
    }

    def test_trelu(self):
        for cls in _classes('ThresholdedReluDecomposition'):
            graph = build_graph(self.nodes, [('parameter', 'trelu', {'in': 0, 'out': 0}),
                                             ('trelu', 'result', {'in': 0, 'out': 0})], nodes_with_edges_only=True)
            graph_ref = build_graph(self.nodes, [('parameter', 'greater', {'in': 0, 'out': 0}),
                                                 ('alpha', 'greater', {'in': 1, 'out': 0}),
                                                 ('greater', 'cast', {'in': 0, 'out': 0}),
                                                 ('parameter', 'mul', {'in': 0, 'out': 0}),
                                                 ('cast', 'mul', {'in': 1, 'out': 0}),
                                                 ('mul', 'result', {'in': 0, 'out': 0})], nodes_with_edges_only=True)
            graph.graph['layout'] = 'NCHW'
            graph.stage = 'front'
            cls().find_and_replace_pattern(graph)
            flag, resp = compare_graphs(graph, graph_ref, 'result', check_op_attrs=True)
            self.assertTrue(flag, resp)
            renamed = graph.get_op_nodes(name='my_trelu')
            self.assertTrue(len(renamed) == 1 and renamed[0].op == 'Mul')
            self.assertEqual(graph.get_op_nodes(op='Cast')[0].dst_type, np.float32)


class TestFloorDiv(unittest.TestCase):
    nodes = {
        **regular_op_with_empty_data('placeholder_1', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op_with_empty_data('placeholder_2', {'type': 'Parameter', 'op': 'Parameter'}),
        **regular_op_with_empty_data('floor_div', {'op': 'FloorDiv', 'type': None, 'name': 'my_floor_div'}),
        **regular_op_with_empty_data('div', {'type': 'Divide', 'op': 'Div'}),
        **regular_op_with_empty_data('floor', {'type': 'Floor', 'op': 'Floor'}),
        **result(),
    }

    def test_two_inputs_and_one_input_on_both_ports(self):
        for cls in _classes('FloorDivDecomposition'):
            for second, second_ref in ((connect('placeholder_2:0', '1:floor_div'), connect('placeholder_2:0', '1:div')),
                                       ([('placeholder_1_d', 'floor_div', {'in': 1})],
                                        [('placeholder_1_d', 'div', {'in': 1})])):
                graph = build_graph(self.nodes, [*connect('placeholder_1:0', '0:floor_div'), *second,
                                                 *connect('floor_div:0', '0:output')], nodes_with_edges_only=True)
                graph_ref = build_graph(self.nodes, [*connect('placeholder_1:0', '0:div'), *second_ref,
                                                     *connect('div:0', '0:floor'), *connect('floor:0', '0:output')],
                                        nodes_with_edges_only=True)
                cls().find_and_replace_pattern(graph)
                flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
                self.assertTrue(flag, resp)
                self.assertEqual(graph.node[graph.get_nodes_with_attributes(type='Floor')[0]]['name'], 'my_floor_div')


class TestTFSliceToSlice(unittest.TestCase):
    nodes = {
        **regular_op_with_empty_data('input', {'type': 'Parameter'}),
        **regular_op_with_empty_data('tfslice', {'op': 'TFSlice', 'type': None, 'name': 'my_slice'}),
        **const('begin', np.array(0)),
        **const('size', np.array([-1])),
        **result(),
        **const('minus_one', np.array(-1)),
        **regular_op_with_empty_data('shapeof', {'op': 'ShapeOf', 'type': 'ShapeOf'}),
        **regular_op_with_empty_data('end_const', {'op': 'Add', 'type': 'Add'}),
        **regular_op_with_empty_data('equal', {'op': 'Equal', 'type': 'Equal'}),
        **regular_op_with_empty_data('select', {'op': 'Select', 'type': 'Select'}),
        # the Model Optimizer's Slice had no IR type yet, mo's is opset8 Slice: the reference names no type
        'slice': {'kind': 'op', 'op': 'Slice'}, 'slice_d': {'kind': 'data', 'value': None, 'shape': None},
        **regular_op_with_empty_data('cast', {'op': 'Cast', 'type': 'Convert'}),
    }

    def test_slice_replacer(self):
        for cls in _classes('TFSliceToSliceReplacer'):
            graph = build_graph(self.nodes, [*connect_front('input:0', '0:tfslice'),
                                             *connect_front('begin:0', '1:tfslice'),
                                             *connect_front('size:0', '2:tfslice'),
                                             *connect_front('tfslice:0', 'output')], nodes_with_edges_only=True)
            graph.stage = 'front'
            cls().find_and_replace_pattern(graph)
            graph_ref = build_graph(self.nodes, [
                *connect_front('input:0', 'slice'), *connect_front('input:0', 'shapeof'),
                *connect_front('begin:0', '1:slice'), *connect_front('begin:0', '0:end_const'),
                *connect_front('size:0', '1:end_const'), *connect_front('size:0', '0:equal'),
                *connect_front('shapeof:0', '1:select'), *connect_front('minus_one:0', '1:equal'),
                *connect_front('equal:0', '0:select'), *connect_front('end_const:0', '0:cast'),
                *connect_front('cast:0', '2:select'), *connect_front('select:0', '2:slice'),
                *connect_front('slice:0', 'output')], nodes_with_edges_only=True)
            flag, resp = compare_graphs(graph, graph_ref, 'output', check_op_attrs=True)
            self.assertTrue(flag, resp)
            self.assertEqual([n.name for n in graph.get_op_nodes(op='Slice')], ['my_slice'])
            self.assertEqual(graph.get_op_nodes(op='Cast')[0].dst_type, np.int64)


class TestPack(unittest.TestCase):
    nodes = {
        **{'placeholder_{}'.format(i): {'shape': np.array([1, 227, 227, 3]), 'type': 'Parameter', 'kind': 'op',
                                        'op': 'Parameter'} for i in range(4)},
        'pack': {'type': None, 'kind': 'op', 'op': 'Pack'},
        'last': {'type': None, 'kind': 'op', 'op': None},
        **{'Unsqueeze_{}'.format(i): {'type': 'Unsqueeze', 'kind': 'op', 'op': 'Unsqueeze'} for i in range(4)},
        **{'Unsqueeze_{}_axis'.format(i): {'type': 'Const', 'kind': 'op', 'op': 'Const'} for i in range(4)},
        'concat_1': {'type': 'Concat', 'kind': 'op', 'op': 'Concat'},
    }

    def test_pack(self):
        for cls in _classes('Pack'):
            for num_inputs, num_placeholders, axis in ((2, 2, 0), (3, 3, 0), (4, 4, 1), (4, 1, 0), (4, 1, 1)):
                with self.subTest(cls=cls.__module__, inputs=num_inputs, placeholders=num_placeholders, axis=axis):
                    repeats = range(num_inputs - num_placeholders + 1)
                    edges = [('placeholder_{}'.format(j), 'pack') for _ in repeats for j in range(num_placeholders)]
                    graph = build_graph(self.nodes, edges + [('pack', 'last')], {'pack': {'axis': axis}},
                                        nodes_with_edges_only=True)
                    ref_edges = []
                    for i in repeats:
                        for j in range(num_placeholders):
                            ref_edges += [('placeholder_{}'.format(j), 'Unsqueeze_{}'.format(i + j)),
                                          ('Unsqueeze_{}'.format(i + j), 'concat_1')]
                    ref_attrs = {'concat_1': {'axis': axis}}
                    for i in range(num_inputs):
                        ref_edges.append(('Unsqueeze_{}_axis'.format(i), 'Unsqueeze_{}'.format(i)))
                        ref_attrs['Unsqueeze_{}_axis'.format(i)] = {'shape': int64_array([1]),
                                                                    'value': int64_array([axis])}
                    graph_ref = build_graph(self.nodes, ref_edges + [('concat_1', 'last')], ref_attrs,
                                            nodes_with_edges_only=True)
                    graph.stage = 'front'
                    cls().find_and_replace_pattern(graph)
                    flag, resp = compare_graphs(graph, graph_ref, 'last', check_op_attrs=True)
                    self.assertTrue(flag, resp)


# ----- a conversion after importing every legacy path ------------------------------------------------
_IMPORT_ALL_THEN_CONVERT = '''
import importlib, sys
for module in {modules!r}:
    importlib.import_module(module)
from mo.main import main
sys.exit(main(sys.argv[1:]))
'''


def _tf_model(path: Path):
    """A frozen TF graph with the ops the legacy replacers match: SquaredDifference, Sub, Div, FloorDiv,
    Log1p, Reciprocal and Slice (TFSlice)."""
    tf = pytest.importorskip('tensorflow')
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    def body(x, y):
        z = tf.math.squared_difference(x, y) - tf.math.floordiv(x, y + 3.0)
        z = tf.math.log1p(tf.abs(z)) / (tf.math.reciprocal(y + 2.0))
        return tf.slice(z, [0, 1], [-1, 2])

    spec = tf.TensorSpec((2, 4), tf.float32)
    concrete = tf.function(body).get_concrete_function(spec, spec)
    path.write_bytes(convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString())


def converted_plain_and_after_importing(tmp_path, modules) -> dict:
    """A small TF model's IR bytes (xml, bin), converted by ``mo`` as is ('plain') and in a process that first
    imported ``modules`` ('imported')."""
    model = tmp_path / 'legacy_ops.pb'
    _tf_model(model)
    outputs = {}
    for label, command in (('plain', ['-m', 'mo']),
                           ('imported', ['-c', _IMPORT_ALL_THEN_CONVERT.format(modules=sorted(modules))])):
        out = tmp_path / label
        run = subprocess.run([sys.executable] + command + ['convert', '--input_model', str(model),
                                                           '--output_dir', str(out)],
                             cwd=str(ROOT), capture_output=True, text=True)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        outputs[label] = ((out / 'legacy_ops.xml').read_bytes(), (out / 'legacy_ops.bin').read_bytes())
    return outputs


def test_importing_every_legacy_path_leaves_the_ir_unchanged(tmp_path):
    outputs = converted_plain_and_after_importing(
        tmp_path, {module for paths in LEGACY_PATHS.values() for module in paths})
    assert outputs['plain'] == outputs['imported']
    # the pipeline lowered those ops its own way: none of the legacy classes' nodes are in the IR
    xml = outputs['plain'][0].decode()
    assert '/negate_' not in xml and '/reciprocal_pow_' not in xml and 'where_max_ends_is_needed' not in xml
