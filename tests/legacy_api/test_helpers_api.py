"""The Model Optimizer's helper modules under their ``mo.X`` names: shape helpers (with its masked
dynamic dimensions), graph searches, middle passes, utils, config reading, op modules."""
import json

import numpy as np
import pytest

from mo.front.common.partial_infer.utils import (clarify_partial_shape, compatible_shapes, dynamic_dimension,
                                                 dynamic_dimension_value, float_array, is_fully_defined, mo_array,
                                                 shape_array, shape_delete, shape_insert, strict_compare_tensors)
from mo.graph.graph import Node
from mo.utils.error import Error
from mo.utils.unittest.graph import (build_graph, connect, connect_front, regular_op, regular_op_with_shaped_data,
                                     result, valued_const_with_data)

PARAM = {'type': 'Parameter', 'op': 'Parameter'}


def test_masked_dynamic_dimensions_are_accepted_everywhere():
    masked = np.ma.masked_array([1, 7, 3], mask=[False, True, False])
    for shape in (shape_array([1, dynamic_dimension, 3]), shape_array(masked), shape_array([1, None, 3]),
                  shape_array([1, dynamic_dimension_value, 3])):
        assert shape.tolist() == [1, None, 3] and shape[1] is dynamic_dimension
        assert not is_fully_defined(shape)
    assert not is_fully_defined(masked) and not is_fully_defined(dynamic_dimension)
    assert is_fully_defined(shape_array([1, 2])) and not is_fully_defined(None)
    assert is_fully_defined(shape_array([1, -1])) and shape_array([1, -1])[1] == -1  # -1 is a number
    assert compatible_shapes(masked, [1, 5, 3]) and not compatible_shapes(masked, [1, 5, 4])
    assert not compatible_shapes([1, 2], [1, 2, 3])
    assert strict_compare_tensors(masked, shape_array([1, dynamic_dimension, 3]))
    assert not strict_compare_tensors(masked, [1, 7, 3])
    assert float_array([1, 2]).dtype == np.float64 and mo_array([1], np.int32).dtype == np.int32


def test_shape_delete_insert_and_clarify():
    assert shape_delete([1, 2, 3, 4], [0, -1]).tolist() == [2, 3]
    assert shape_delete(np.ma.masked_array([1, 2, 3], [0, 1, 0]), 0).tolist() == [None, 3]
    assert shape_insert([1, 2], 1, dynamic_dimension).tolist() == [1, None, 2]
    assert shape_insert([1, 2], 2, [5, 6]).tolist() == [1, 2, 5, 6]
    assert clarify_partial_shape([shape_array([1, dynamic_dimension, 3]),
                                  shape_array([dynamic_dimension, 4, 3])]).tolist() == [1, 4, 3]
    with pytest.raises(Error):
        clarify_partial_shape([[1, 2], [1, 3]])
    with pytest.raises(Error):
        shape_delete([1, 2], 5)


def _chain():
    """a -> b -> c -> d, with e -> c (e is a side input)."""
    nodes = {**regular_op('a', PARAM), **regular_op('b', {'op': 'ReLU'}), **regular_op('e', {'op': 'Const'}),
             **regular_op('c', {'op': 'Add'}), **regular_op('d', {'op': 'Result'})}
    return build_graph(nodes, [*connect_front('a', '0:b'), *connect_front('b', '0:c'), *connect_front('e', '1:c'),
                               *connect_front('c', 'd')])


def test_graph_searches():
    from mo.utils.graph import (backward_bfs_for_operation, bfs_search, invert_sub_graph_between_nodes,
                                is_connected_component, node_incoming_neighbourhood, node_outcoming_neighbourhood,
                                sub_graph_between_nodes)
    graph = _chain()
    assert bfs_search(graph) == ['a', 'e', 'b', 'c', 'd']
    assert bfs_search(graph, ['b']) == ['b', 'c', 'd']
    assert is_connected_component(graph, ['a', 'b', 'c']) and not is_connected_component(graph, ['a', 'c'])
    assert sorted(sub_graph_between_nodes(graph, ['b'], ['c'])) == ['b', 'c', 'e']
    with pytest.raises(Error, match='not reachable'):
        sub_graph_between_nodes(graph, ['c'], ['b'])
    with pytest.raises(Error, match='network input node "a"'):
        sub_graph_between_nodes(graph, ['e'], ['c'])  # c needs b, which needs the model input a
    assert sorted(invert_sub_graph_between_nodes(graph, ['c'], ['b'])) == ['c', 'e']
    assert node_incoming_neighbourhood(graph, 'c', 1) == ['c', 'b', 'e']
    assert node_outcoming_neighbourhood(graph, 'a', 2) == ['a', 'b', 'c']
    assert [n.id for n in backward_bfs_for_operation(Node(graph, 'd'), ['Parameter'])] == ['a']
    assert backward_bfs_for_operation(Node(graph, 'd'), ['Parameter'], ['ReLU']) == []


def _middle(value=2.0):
    nodes = {**regular_op_with_shaped_data('input', [1, 3], dict(PARAM, shape=np.array([1, 3]))),
             **valued_const_with_data('k', np.array([value], dtype=np.float32)),
             **regular_op_with_shaped_data('mul', [1, 3], {'type': 'Multiply', 'op': 'Mul'}),
             **regular_op_with_shaped_data('relu', [1, 3], {'type': 'ReLU', 'op': 'ReLU'}),
             **result('out')}
    return build_graph(nodes, [*connect('input', '0:mul'), *connect('k', '1:mul'), *connect('mul', 'relu'),
                               *connect('relu', 'out')])


def test_eliminate_passes():
    from mo.middle.passes.eliminate import (mark_const_producer_nodes, mark_output_reachable_nodes,
                                            merge_data_nodes, remove_op_node_with_data_node)
    graph = _middle()
    mark_output_reachable_nodes(graph)
    assert all(graph.nodes[n]['is_output_reachable'] for n in graph.nodes)
    mark_const_producer_nodes(graph)
    # the Model Optimizer's rule: a node feeding one whose value is not known produces no constant (k_d feeds Mul)
    assert graph.nodes['k']['is_const_producer'] and not graph.nodes['k_d']['is_const_producer']
    assert not graph.nodes['mul']['is_const_producer'] and not graph.nodes['input']['is_const_producer']
    remove_op_node_with_data_node(graph, Node(graph, 'relu'))
    assert 'relu' not in graph and 'relu_d' not in graph
    assert Node(graph, 'out').in_port(0).get_source().node.id == 'mul'
    graph = _middle()
    merge_data_nodes(graph, Node(graph, 'mul_d'), Node(graph, 'relu_d'))
    assert Node(graph, 'out').in_port(0).get_source().node.id == 'mul'


def test_shape_inference_and_batch_override():
    from mo.middle.passes.eliminate import shape_inference
    from mo.middle.passes.infer import override_batch, override_placeholder_shapes
    from mo.ops.elementwise import Mul
    graph = _middle()
    mul = Node(graph, 'mul')
    mul['infer'] = Mul(graph).attrs['infer']
    mul['need_shape_inference'] = True
    shape_inference(graph)  # same shape as before: fine
    Node(graph, 'input_d')['shape'] = np.array([2, 3])
    mul['need_shape_inference'] = True
    with pytest.raises(Error, match='shape collision'):
        shape_inference(graph)
    override_placeholder_shapes(graph, {'input': np.array([4, 3])}, batch=7)
    assert Node(graph, 'input').shape.tolist() == [7, 3]
    override_batch(graph, 2)
    assert Node(graph, 'input').shape.tolist() == [2, 3]


def test_utils_error_classification_and_config_reader(tmp_path):
    from mo.middle.pattern_match import all_edges_in_nodes
    from mo.utils.custom_replacement_config import load_and_validate_json_config
    from mo.utils.error import classify_error_type
    from mo.utils.utils import match_shapes, refer_to_faq_msg, symm_match_shapes
    assert classify_error_type(ImportError("No module named 'openvino.foo'")) == "No module named 'openvino.foo'"
    assert classify_error_type(ValueError('boom')) == 'undefined'
    assert match_shapes(np.array([1, -1, 3]), np.array([1, 5, 3])) and not match_shapes(np.array([1, 2]), np.array([1, 3]))
    assert symm_match_shapes(np.array([1, 5]), np.array([1, -1]))
    assert '#42' in refer_to_faq_msg(42)
    assert all_edges_in_nodes(['a', 'b'], [('a', 'b')]) and not all_edges_in_nodes(['a'], [('a', 'b')])
    config = tmp_path / 'cfg.json'
    config.write_text(json.dumps([{'id': 'X', 'match_kind': 'general', 'custom_attributes': {'k': 1}}]))
    assert load_and_validate_json_config(str(config)) == [{'id': 'X', 'match_kind': 'general',
                                                           'custom_attributes': {'k': 1}}]
    config.write_text('[{"id": 1}]')
    with pytest.raises(Error, match='cfg.json'):
        load_and_validate_json_config(str(config))


def test_op_modules_under_model_optimizer_names():
    from mo.front.common.partial_infer.concat import concat_infer
    from mo.graph.graph import Graph
    from mo.ops.Cast import Cast
    from mo.ops.clamp import AttributedClamp, Clamp
    from mo.ops.concat import Concat
    from mo.ops.const import Const
    from mo.ops.lstm_cell import LSTMCell
    from mo.ops.ReduceOps import ReduceMean, ReduceOr
    from mo.ops.shape import Shape
    assert AttributedClamp is Clamp and Cast(Graph()).attrs['type'] == 'Convert'
    assert ReduceMean.op == 'ReduceMean' and (ReduceOr.op, ReduceOr.type) == ('ReduceOr', 'ReduceLogicalOr')
    assert Shape(Graph()).attrs['type'] == 'ShapeOf'
    graph = build_graph({**valued_const_with_data('a', np.ones((1, 2))), **valued_const_with_data('b', np.ones((1, 3))),
                         **regular_op_with_shaped_data('c', None, {'op': 'Concat', 'axis': 1}), **result('o')},
                        [*connect('a', '0:c'), *connect('b', '1:c'), *connect('c', 'o')])
    concat_infer(Node(graph, 'c'))
    assert Node(graph, 'c_d').value.shape == (1, 5) and Concat.infer is concat_infer
    const = Node(graph, 'a')
    Const.type_infer(const)
    assert const.out_port(0).data.get_data_type() == np.float64
    cell = build_graph({**regular_op_with_shaped_data('x', [2, 4], PARAM), **regular_op_with_shaped_data('h', [2, 8], PARAM),
                        **regular_op_with_shaped_data('cell', None, LSTMCell(Graph()).attrs), **result('o')},
                       [*connect('x', '0:cell'), *connect('h', '1:cell'), *connect('cell', 'o')])
    LSTMCell.infer(Node(cell, 'cell'))
    assert Node(cell, 'cell_d').shape.tolist() == [2, 8] and Node(cell, 'cell').hidden_size == 8
