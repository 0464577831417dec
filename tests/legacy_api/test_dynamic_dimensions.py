"""Dynamic dimensions as the Model Optimizer's authors see them (issue 29, point 2).

A dynamic dimension is the masked entry of a masked shape array (``dynamic_dimension``); ``shape_array`` masks
``dynamic_dimension_value`` and keeps -1 as a number. Written in the Model Optimizer's unit-test idiom: the helper
behaviours of its ``partial_infer/utils_test.py``, graphs from ``build_graph`` dicts read through ``node.shape``,
``graph.node[id]['shape']`` and ``port.data.get_shape()``, the infer function of an author's op and of built-in
ops, ``set_value(force_shape=...)``, and an extension converted by the CLI whose op's infer and back replacer
rely on the idiom, its IR run by OpenVINO against onnxruntime.
"""
import subprocess
import sys
import textwrap
import unittest
from pathlib import Path

import numpy as np
import pytest

from mo.front.common.partial_infer.utils import (clarify_partial_shape, compatible_shapes, dynamic_dimension,
                                                 dynamic_dimension_value, int64_array, is_fully_defined, mo_array,
                                                 shape_array, shape_delete, shape_insert, strict_compare_tensors,
                                                 undefined_shape_of_rank, unmask_shape)
from mo.graph.graph import Node
from mo.ops.concat import Concat
from mo.ops.op import Op
from mo.utils.error import Error
from mo.utils.unittest.graph import (build_graph, connect, regular_op_with_empty_data, regular_op_with_shaped_data,
                                     result, shaped_parameter, valued_const_with_data)

ROOT = Path(__file__).resolve().parents[2]


def masked(values, masked_indices):
    """A masked array of ``values`` with the entries at ``masked_indices`` masked (dynamic)."""
    array = np.ma.masked_array(values)
    for index in masked_indices:
        array[index] = np.ma.masked
    return array


class HelpersTest(unittest.TestCase):
    def test_is_fully_defined(self):
        for value, expected in [(None, False), (int64_array([2, 3]), True), (np.array([2, dynamic_dimension_value]), True),
                                (shape_array([2, dynamic_dimension_value, 5]), False), (shape_array([2, 4]), True),
                                (dynamic_dimension, False), (dynamic_dimension_value, True),
                                ((dynamic_dimension_value, dynamic_dimension_value), True),
                                ((dynamic_dimension, 1), False), ([dynamic_dimension, 1], False)]:
            with self.subTest(case=repr(value)):
                self.assertEqual(is_fully_defined(value), expected)

    def test_shape_array_masks_the_marker_and_keeps_minus_one(self):
        self.assertTrue(strict_compare_tensors(shape_array([dynamic_dimension_value, 5]), masked([1, 5], [0])))
        self.assertTrue(strict_compare_tensors(shape_array([7, dynamic_dimension]), masked([7, 1], [1])))
        self.assertFalse(strict_compare_tensors(shape_array([2]), masked([1], [])))
        shape = shape_array([1, -1])
        self.assertIsInstance(shape, np.ma.MaskedArray)
        self.assertTrue(is_fully_defined(shape))
        self.assertEqual(shape[1], -1)
        self.assertIs(shape_array([1, dynamic_dimension])[1], dynamic_dimension)
        self.assertTrue(strict_compare_tensors(undefined_shape_of_rank(3), masked([0, 0, 0], [0, 1, 2])))
        self.assertEqual(unmask_shape(shape_array([4, dynamic_dimension])), [4, -1])
        self.assertEqual(unmask_shape(int64_array([4, 5])).tolist(), [4, 5])

    def test_arithmetic_propagates_the_mask(self):
        shape = shape_array([dynamic_dimension, 3, 4])
        self.assertIs(shape[0] * shape[1], dynamic_dimension)
        self.assertEqual(shape[1] * shape[2], 12)
        doubled = shape * 2
        self.assertIs(doubled[0], dynamic_dimension)
        self.assertEqual(doubled[2], 8)

    def test_compatible_shapes(self):
        for shape1, shape2, expected in [
                (masked([1, 2, 3], []), masked([1, 2, 3], []), True), (masked([4, 2, 3], []), masked([1, 2, 3], []), False),
                (masked([1, 2], []), masked([1, 2, 3], []), False), (masked([1, 2, 3], [1]), masked([1, 5, 3], [1]), True),
                (masked([1, 2, 3], [2]), masked([1, 5, 3], [1]), True), (masked([1, 2, 3], []), masked([1, 5, 3], [1]), True),
                (masked([1, 2, 3], [0]), masked([1, 5, 3], []), False), (np.array([1, 2, 3]), masked([1, 5, 3], [1]), True),
                (np.array([1, 2]), masked([1, 5, 3], [1]), False), (np.array([1, 2]), np.array([3, 2]), False),
                (np.array([-1, 2]), np.array([3, 2]), False)]:  # -1 is not dynamic
            with self.subTest(case=repr((shape1, shape2))):
                self.assertEqual(compatible_shapes(shape1, shape2), expected)

    def test_shape_delete(self):
        for shape, indices, expected in [
                (masked([1, 2, 3], []), [], masked([1, 2, 3], [])), (masked([1, 2, 3], [1]), [0], masked([2, 3], [0])),
                (masked([1, 2, 3], [1]), np.array([0]), masked([2, 3], [0])),
                (masked([1, 2, 3], [1]), np.array(0), masked([2, 3], [0])), (masked([1, 2, 3], [1]), 0, masked([2, 3], [0])),
                (masked([1, 2, 3, 4], [1]), [0, 2], masked([2, 4], [0])), (masked([1, 2, 3], [1]), [0, 2, 1], masked([], [])),
                (masked([1, 2, 3, 4], [1, 2]), [3, 0], masked([2, 3], [0, 1])),
                ([1, 2, 3, 4], [1], [1, 3, 4]), (np.array([1, 2, 3, 4]), [-1, -3], [1, 3]), (np.array([1, 2, 3, 4]), -2, [1, 2, 4])]:
            with self.subTest(case=repr((shape, indices))):
                self.assertTrue(strict_compare_tensors(shape_delete(shape, indices), expected))
        with self.assertRaisesRegex(Error, 'Incorrect parameter type'):
            shape_delete(masked([1, 2, 3], []), {})

    def test_shape_insert(self):
        for shape, pos, values, expected in [
                (masked([1, 2, 3], []), 1, [5], masked([1, 5, 2, 3], [])),
                (masked([1, 2, 3], [1]), 1, [5], masked([1, 5, 2, 3], [2])),
                (masked([1, 2, 3], [1]), 1, [dynamic_dimension], masked([1, 5, 2, 3], [1, 2])),
                (masked([1, 2, 3], [1]), np.int64(0), [dynamic_dimension], masked([5, 1, 2, 3], [0, 2])),
                (masked([1, 2, 3], [1]), 3, [dynamic_dimension, dynamic_dimension], masked([1, 2, 3, 5, 6], [1, 3, 4])),
                (masked([1], [0]), 0, [7, dynamic_dimension], masked([7, 5, 2], [1, 2])),
                (masked([1, 2], []), 1, 4, masked([1, 4, 2], []))]:
            with self.subTest(case=repr((shape, pos, values))):
                self.assertTrue(strict_compare_tensors(shape_insert(shape, pos, values), expected))
        with self.assertRaisesRegex(Error, 'Incorrect parameter type'):
            shape_insert(masked([1, 2, 3], []), 2, {})

    def test_strict_compare_and_clarify(self):
        self.assertTrue(strict_compare_tensors(None, None))
        self.assertFalse(strict_compare_tensors(None, shape_array([1])))
        self.assertFalse(strict_compare_tensors(masked([1, 2], [1]), masked([1, 2], [])))
        self.assertTrue(strict_compare_tensors(masked([1, 2], [1]), masked([1, 9], [1])))
        self.assertTrue(strict_compare_tensors(np.array(3), np.array(3)))
        clarified = clarify_partial_shape([shape_array([dynamic_dimension, 10, dynamic_dimension]),
                                           shape_array([4, dynamic_dimension, dynamic_dimension])])
        self.assertTrue(strict_compare_tensors(clarified, shape_array([4, 10, dynamic_dimension])))
        with self.assertRaises(Error):
            clarify_partial_shape([shape_array([1, 2]), shape_array([1, 3])])

    def test_mo_array(self):
        self.assertEqual(mo_array([2, 3]).dtype, np.array([2, 3]).dtype)
        self.assertEqual(mo_array([2., 3.]).dtype, np.float32)
        self.assertEqual(mo_array([2., 3.], dtype=np.float64).dtype, np.float64)
        self.assertEqual(mo_array(np.array([2., 3.])).dtype, np.float64)  # an array keeps its type


class AuthorReshapeOp(Op):
    """An author's op in the Model Optimizer's idiom: merges the first two dimensions."""
    op = 'AuthorMergeFirstTwo'

    def __init__(self, graph, attrs):
        super().__init__(graph, {'op': self.op, 'type': None, 'infer': self.infer,
                                 'in_ports_count': 1, 'out_ports_count': 1}, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        node['first_is_dynamic'] = shape[0] is dynamic_dimension
        out = shape_delete(shape, 0)
        out[0] = shape[0] * shape[1]  # masked when either is
        node.out_port(0).data.set_shape(out)


def author_graph(input_shape):
    nodes = {**shaped_parameter('input', input_shape),
             **regular_op_with_empty_data('merge', {'op': 'AuthorMergeFirstTwo', 'infer': AuthorReshapeOp.infer}),
             **result('output')}
    return build_graph(nodes, [*connect('input', 'merge'), *connect('merge', 'output')])


class GraphShapesTest(unittest.TestCase):
    def test_build_graph_shapes_read_back_masked_everywhere(self):
        graph = author_graph(shape_array([1, dynamic_dimension, 3]))
        expected = shape_array([1, dynamic_dimension, 3])
        node = Node(graph, 'input_d')
        for shape in (node.shape, node['shape'], node.soft_get('shape'), graph.node['input_d']['shape'],
                      Node(graph, 'merge').in_port(0).data.get_shape(), Node(graph, 'input').shape):
            self.assertTrue(strict_compare_tensors(shape, expected), shape)
            self.assertIs(shape[1], dynamic_dimension)
        self.assertFalse(is_fully_defined(node.shape))

    def test_an_authors_op_infer(self):
        graph = author_graph(shape_array([dynamic_dimension, 4, 3]))
        merge = Node(graph, 'merge')
        AuthorReshapeOp.infer(merge)
        self.assertTrue(merge.first_is_dynamic)
        self.assertTrue(strict_compare_tensors(graph.node['merge_d']['shape'], shape_array([dynamic_dimension, 3])))
        graph = author_graph(int64_array([2, 4, 3]))
        AuthorReshapeOp.infer(Node(graph, 'merge'))
        self.assertFalse(Node(graph, 'merge').first_is_dynamic)
        self.assertTrue(strict_compare_tensors(graph.node['merge_d']['shape'], int64_array([8, 3])))

    def test_builtin_infer_reads_masked_inputs_and_gives_masked_outputs(self):
        nodes = {**regular_op_with_shaped_data('a', shape_array([dynamic_dimension, 2, 5]), {'op': 'Parameter'}),
                 **regular_op_with_shaped_data('b', shape_array([dynamic_dimension, 3, 5]), {'op': 'Parameter'}),
                 **regular_op_with_empty_data('concat', {'op': 'Concat', 'axis': 1}), **result('out')}
        graph = build_graph(nodes, [*connect('a', '0:concat'), *connect('b', '1:concat'), *connect('concat', 'out')])
        Concat.infer(Node(graph, 'concat'))
        shape = graph.node['concat_d']['shape']
        self.assertTrue(strict_compare_tensors(shape, shape_array([dynamic_dimension, 5, 5])))
        self.assertIs(shape[0], dynamic_dimension)

    def test_writes_of_masked_shapes(self):
        graph = author_graph(int64_array([2, 4, 3]))
        data = Node(graph, 'input_d')
        data['shape'] = shape_array([dynamic_dimension, 4, 3])
        self.assertIs(data.shape[0], dynamic_dimension)
        data.shape = [2, dynamic_dimension, 3]
        self.assertIs(graph.node['input_d']['shape'][1], dynamic_dimension)
        graph.node['input_d']['shape'] = int64_array([2, 4, 3])
        self.assertTrue(is_fully_defined(data.shape))
        port = Node(graph, 'merge').out_port(0)
        port.data.set_shape(shape_array([dynamic_dimension_value, 12]))
        self.assertTrue(strict_compare_tensors(port.data.get_shape(), shape_array([dynamic_dimension, 12])))

    def test_writing_into_a_read_shape_writes_the_graph(self):
        graph = author_graph(shape_array([dynamic_dimension, 4, 3]))
        shape = Node(graph, 'input_d').shape
        shape[0] = 6
        self.assertTrue(is_fully_defined(Node(graph, 'input_d').shape))
        self.assertEqual(Node(graph, 'input_d').shape.tolist(), [6, 4, 3])


class ForceShapeTest(unittest.TestCase):
    def graph(self, **const_attrs):
        nodes = {**valued_const_with_data('const', np.zeros([2, 3], dtype=np.float32)), **result('out')}
        graph = build_graph(nodes, [*connect('const', 'out')])
        graph.nodes['const'].update(const_attrs)
        return graph

    def test_set_value_force_shape_argument(self):
        graph = self.graph()
        port = Node(graph, 'const').out_port(0)
        port.data.set_value(np.ones([1, 3], dtype=np.float32), force_shape=shape_array([dynamic_dimension, 3]))
        self.assertIs(port.data.get_shape()[0], dynamic_dimension)
        self.assertEqual(port.data.get_value().shape, (1, 3))

    def test_force_shape_attribute_of_the_data_or_the_op_node(self):
        graph = self.graph()
        Node(graph, 'const_d')['force_shape'] = int64_array([1, 6])
        port = Node(graph, 'const').out_port(0)
        port.data.set_value(np.ones([2, 3], dtype=np.float32))
        self.assertEqual(port.data.get_shape().tolist(), [1, 6])
        graph = self.graph(force_shape=shape_array([dynamic_dimension, 3]))
        port = Node(graph, 'const').out_port(0)
        port.data.set_value(np.ones([2, 3], dtype=np.float32))
        self.assertIs(Node(graph, 'out').in_port(0).data.get_shape()[0], dynamic_dimension)
        graph = self.graph()
        port = Node(graph, 'const').out_port(0)
        port.data.set_value(np.ones([2, 3], dtype=np.float32))
        self.assertEqual(port.data.get_shape().tolist(), [2, 3])

    def test_a_masked_value(self):
        graph = self.graph()
        port = Node(graph, 'const').out_port(0)
        port.data.set_value(np.ma.masked_array([4, 5], mask=[False, False]))
        self.assertEqual(type(port.data.get_value()), np.ndarray)
        port.data.set_value(shape_array([4, dynamic_dimension]))
        self.assertIsNone(port.data.get_value())  # mo keeps no partially known values: the shape stays
        self.assertEqual(port.data.get_shape().tolist(), [2])


# ----- an extension converted through the CLI --------------------------------------------------------------------
EXTENSION = {
    'ops/author_flatten.py': '''
        from mo.front.common.partial_infer.utils import shape_array
        from mo.ops.op import Op


        def product(dims):
            """Arithmetic on dimensions keeps the mask: a product with a dynamic factor is dynamic (np.prod of a
            masked array would skip the masked factors)."""
            result = 1
            for dim in dims:
                result = result * dim
            return result


        class AuthorFlatten(Op):
            """ONNX's Flatten, inferred in the Model Optimizer's idiom."""
            op = 'AuthorFlatten'
            enabled = False

            def __init__(self, graph, attrs):
                super().__init__(graph, {'op': self.op, 'type': None, 'infer': self.infer,
                                         'in_ports_count': 1, 'out_ports_count': 1}, attrs)

            @staticmethod
            def infer(node):
                shape = node.in_port(0).data.get_shape()
                axis = node.axis
                node.out_port(0).data.set_shape(shape_array([product(shape[:axis]), product(shape[axis:])]))
        ''',
    'front/onnx/flatten_ext.py': '''
        from mo.front.extractor import FrontExtractorOp
        from mo.front.onnx.extractors.utils import onnx_attr

        from ...ops.author_flatten import AuthorFlatten


        class FlattenExtractor(FrontExtractorOp):
            op = 'Flatten'
            enabled = True

            @classmethod
            def extract(cls, node):
                AuthorFlatten.update_node_stat(node, {'axis': onnx_attr(node, 'axis', 'i', 1)})
                return cls.enabled
        ''',
    'back/author_flatten_to_reshape.py': '''
        from mo.back.replacement import BackReplacementPattern
        from mo.front.common.partial_infer.utils import dynamic_dimension, int64_array
        from mo.front.tf.graph_utils import create_op_with_const_inputs
        from mo.graph.graph import rename_nodes
        from mo.ops.reshape import Reshape


        class AuthorFlattenToReshape(BackReplacementPattern):
            enabled = True
            force_shape_inference = True

            def find_and_replace_pattern(self, graph):
                for node in graph.get_op_nodes(op='AuthorFlatten'):
                    shape = node.out_port(0).data.get_shape()
                    dynamic = [i for i, d in enumerate(shape) if d is dynamic_dimension]
                    assert len(dynamic) <= 1, 'one dynamic dimension at most: {}'.format(shape)
                    target = int64_array([-1 if d is dynamic_dimension else d for d in shape])
                    name = node.soft_get('name', node.id)
                    reshape = create_op_with_const_inputs(graph, Reshape, {1: target}, {'special_zero': False})
                    node.in_port(0).get_connection().set_destination(reshape.in_port(0))
                    node.out_port(0).get_connection().set_source(reshape.out_port(0))
                    rename_nodes([(node, name + '/TBR'), (reshape, name)])
                    reshape['need_shape_inference'] = True
        ''',
}


def write_extension(root: Path) -> Path:
    ext = root / 'ext'
    for relative, source in EXTENSION.items():
        path = ext / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    return ext


def flatten_model(axis):
    from onnx import TensorProto, helper
    from tests.onnx.onnx_oracle import make_model
    node = helper.make_node('Flatten', ['x'], ['y'], name='flatten', axis=axis)
    return make_model([node], [('x', TensorProto.FLOAT, ['N', 'T', 3, 4])], [('y', TensorProto.FLOAT, None)])


@pytest.mark.parametrize('axis', [2, 3])
def test_an_extension_op_using_the_idiom_converts_and_runs(tmp_path, axis):
    pytest.importorskip('onnx')
    pytest.importorskip('onnxruntime')
    from tests.onnx.onnx_oracle import assert_close, run_onnxruntime
    from tests.support.oracles import compile_openvino
    model = flatten_model(axis)
    model_path = tmp_path / 'flatten.onnx'
    model_path.write_bytes(model.SerializeToString())
    proc = subprocess.run([sys.executable, '-m', 'mo.main', 'convert', '--input_model', str(model_path),
                           '--output_dir', str(tmp_path / 'ir'), '--model_name', 'model',
                           '--extensions', str(write_extension(tmp_path))],
                          capture_output=True, text=True, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    xml = (tmp_path / 'ir' / 'model.xml').read_text()
    assert 'type="Reshape"' in xml and 'AuthorFlatten' not in xml
    compiled = compile_openvino(str(tmp_path / 'ir' / 'model.xml'))
    for batch, steps in [(2, 5), (1, 3)]:
        x = np.random.default_rng(batch).standard_normal([batch, steps, 3, 4]).astype(np.float32)
        [expected] = run_onnxruntime(model, {'x': x})
        actual = compiled({compiled.inputs[0]: x})[compiled.outputs[0]]
        assert_close(np.asarray(actual), expected)
