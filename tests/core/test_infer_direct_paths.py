"""Whole-graph inference writes the usual ops' outputs directly (issue 28: cost per node), with what their infers give.

``partial_infer`` gives a plain Const its value and an element-wise op of non-constant inputs its (broadcast) shape
without calling the op's ``infer``. Checked here on random graphs of Parameters (partly dynamic shapes, scalars),
Consts, binary element-wise ops and activations: every data node ends as it does when each op's own infer runs,
and every element-wise shape is numpy's broadcast of its inputs' shapes. The front steps that look at every Const
(StandaloneConstEraser, the complex-tensor check) are checked on converted models against TensorFlow.
"""
import random

import numpy as np
import pytest

import mo.middle.partial_infer as inference
from mo.graph.graph import Graph
from mo.middle.partial_infer import PartialInfer
from mo.ops.activation_ops import Sigmoid, Tanh
from mo.ops.const import Const
from mo.ops.elementwise import Add, Equal, Mul, Sub
from mo.ops.parameter import Parameter
from mo.utils.shape import shape_array


def _random_graph(seed: int) -> Graph:
    """A front graph: inputs and Consts of shapes that broadcast with a base shape, combined at random."""
    rng = random.Random(seed)
    graph = Graph()
    graph.stage = 'front'
    base = [rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 3))]
    dtype = rng.choice([np.float32, np.float16, np.float64])  # one per graph: the element-wise ops take one type
    tensors = []  # (node, its shape as numpy would broadcast it: -1 where dynamic)

    def sub_shape():
        rank = rng.randint(0, len(base))
        return [rng.choice([d, 1]) for d in base[len(base) - rank:]]

    for i in range(rng.randint(1, 3)):
        shape = sub_shape()
        if shape and rng.random() < 0.3:
            shape[rng.randrange(len(shape))] = -1  # a dynamic dimension
        node = Parameter(graph, {'name': 'in%d' % i, 'shape': np.array(shape, dtype=np.int64),
                                 'data_type': dtype}).create_node()
        tensors.append(node)
    for i in range(rng.randint(20, 60)):
        kind = rng.random()
        if kind < 0.25:
            value = np.array(rng.random(), dtype=dtype) if rng.random() < 0.5 else \
                np.full(sub_shape(), rng.random(), dtype=dtype)
            tensors.append(Const(graph, {'name': 'c%d' % i, 'value': value}).create_node())
        elif kind < 0.45:
            op = rng.choice([Tanh, Sigmoid])
            tensors.append(op(graph, {'name': 'a%d' % i}).create_node([rng.choice(tensors)]))
        else:
            op = rng.choice([Add, Mul, Sub, Equal])
            node = op(graph, {'name': 'e%d' % i}).create_node([rng.choice(tensors), rng.choice(tensors)])
            if op is not Equal:  # bool outputs are results only: the float ops do not take them
                tensors.append(node)
    return graph


def _tensors(graph: Graph) -> dict:
    return {n: (None if d.get('shape') is None else d['shape'].tolist(),
                None if d.get('value') is None else (d['value'].dtype, d['value'].tolist()),
                d.get('data_type'))
            for n, d in graph.node_items() if d.get('kind') == 'data'}


@pytest.mark.parametrize('seed', range(40))
def test_direct_writes_match_the_ops_infers(seed, monkeypatch):
    direct = _random_graph(seed)
    PartialInfer().find_and_replace_pattern(direct)
    monkeypatch.setattr(inference, '_infer_directly', lambda *args: False)
    monkeypatch.setattr(inference, '_infer_plain_const', lambda *args: False)
    through_infers = _random_graph(seed)
    PartialInfer().find_and_replace_pattern(through_infers)
    assert _tensors(direct) == _tensors(through_infers)


@pytest.mark.parametrize('seed', range(16))
def test_element_wise_shapes_are_numpy_broadcasts(seed):
    graph = _random_graph(seed)
    PartialInfer().find_and_replace_pattern(graph)
    checked = 0
    for node_id, attrs in graph.node_items():
        if attrs.get('op') not in ('Add', 'Mul', 'Sub', 'Equal', 'Tanh', 'Sigmoid'):
            continue
        ins = [graph.node_attrs(s)['shape'].tolist() for s in graph.producer_ids(node_id)]
        out, = [graph.node_attrs(d)['shape'].tolist() for d in graph.consumer_ids(node_id)]
        if any(-1 in shape for shape in ins):
            assert -1 in out or any(1 < d for d in out)  # dynamic unless a known size takes over
            continue
        assert out == list(np.broadcast_shapes(*[tuple(s) for s in ins]))
        checked += 1
    assert checked


@pytest.mark.parametrize('dtype', [np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64])
def test_shape_array_of_an_integer_array_is_its_sizes_with_minus_one_for_unknown(dtype):
    """Every negative size (and a uint64 too big for int64) becomes -1, in a new int64 array of the same form."""
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    for ndim in (0, 1, 1, 1, 2):
        value = rng.integers(max(info.min, -5), min(info.max, 9), size=[3] * ndim, endpoint=True).astype(dtype)
        if dtype is np.uint64 and ndim:
            value.flat[0] = 2 ** 63 + 5
        result = shape_array(value)
        expected = [-1 if int(d) < 0 or int(d) >= 2 ** 63 else int(d) for d in value.ravel()]
        assert result.dtype == np.int64 and result.shape == value.shape
        assert result.ravel().tolist() == expected
        assert not np.shares_memory(result, value)


def test_a_const_with_a_declared_shape_keeps_it():
    """``force_shape`` (the Model Optimizer's declared shape over a sample value) is for the op's own infer."""
    graph = Graph()
    graph.stage = 'front'
    const = Const(graph, {'name': 'c', 'value': np.zeros([2], np.float32), 'force_shape': np.array([-1])}).create_node()
    Tanh(graph, {'name': 't'}).create_node([const])
    PartialInfer().find_and_replace_pattern(graph)
    assert const.out_port(0).data.get_shape().tolist() == [-1]
    assert const.out_port(0).data.get_value().tolist() == [0, 0]


def _convert(tmp_path, graph_def, name):
    import subprocess
    import sys
    from pathlib import Path
    model = tmp_path / (name + '.pb')
    model.write_bytes(graph_def.SerializeToString())
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(model), '--output_dir',
                           str(tmp_path)], capture_output=True, text=True, cwd=str(Path(__file__).resolve().parents[2]))
    assert proc.returncode == 0, proc.stderr
    return tmp_path / (name + '.xml')


def _graph_with_unread_consts(seed: int) -> Graph:
    rng = random.Random(seed)
    graph = Graph()
    graph.stage = 'front'
    x = Parameter(graph, {'name': 'x', 'shape': np.array([2])}).create_node()
    for i in range(rng.randint(1, 30)):
        const = Const(graph, {'name': 'c%d' % i, 'value': np.float32(i)}).create_node()
        if rng.random() < 0.5:
            x = Add(graph, {'name': 'add%d' % i}).create_node([x, const])
        elif rng.random() < 0.3:
            const['is_output'] = True
    return graph


@pytest.mark.parametrize('seed', range(6))
def test_standalone_const_eraser_removes_what_its_rule_matches(seed):
    from extensions.front.standalone_const_eraser import StandaloneConstEraser
    from mo.front.common.rule import OpRule
    by_adjacency, by_pattern = _graph_with_unread_consts(seed), _graph_with_unread_consts(seed)
    eraser = StandaloneConstEraser()
    eraser.match_count = 0
    eraser.find_and_replace_pattern(by_adjacency)
    matcher = StandaloneConstEraser()
    matcher.match_count = 0
    OpRule.find_and_replace_pattern(matcher, by_pattern)  # the rule's own pattern matching
    assert list(by_adjacency.nodes) == list(by_pattern.nodes)
    assert eraser.match_count == matcher.match_count
    assert not [n for n, d in by_adjacency.node_items()
                if d.get('op') == 'Const' and not by_adjacency.consumer_ids(n) and not d.get('is_output')]


def test_a_model_with_unread_and_read_consts_computes_as_tensorflow(tmp_path):
    tf = pytest.importorskip('tensorflow')
    from tests.support.oracles import run_openvino, run_tf
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name='x')
        tf.constant(np.ones([4], np.float32), name='orphan_weights')
        y = tf.tanh(x + tf.constant(0.5)) * tf.constant(np.arange(3, dtype=np.float32))
        tf.identity(tf.sigmoid(y) - x, name='y')
    xml = _convert(tmp_path, graph.as_graph_def(), 'unread_const')
    assert 'orphan_weights' not in xml.read_text()
    feed = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    expected = run_tf(graph.as_graph_def(), {'x:0': feed}, ['y:0'])[0]
    np.testing.assert_allclose(run_openvino(xml, {'x': feed})[0], expected, rtol=1e-6, atol=1e-6)


def test_a_complex_const_among_many_is_found(tmp_path):
    tf = pytest.importorskip('tensorflow')
    from tests.support.oracles import run_openvino, run_tf
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3], name='x')
        for i in range(5):
            x = x + tf.constant(np.float32(i))
        z = tf.complex(x, x) * tf.constant(np.array([1 + 2j, 3 - 1j, -1j], np.complex64))
        tf.identity(tf.math.real(z), name='y')
    xml = _convert(tmp_path, graph.as_graph_def(), 'complex_const')
    feed = np.array([0.5, -1, 2], np.float32)
    expected = run_tf(graph.as_graph_def(), {'x:0': feed}, ['y:0'])[0]
    np.testing.assert_allclose(run_openvino(xml, {'x': feed})[0], expected, rtol=1e-6, atol=1e-6)
