"""Inference and constant folding at scale (issue 28): the shortcuts they take give what the plain definitions give.

``fold_inferred_constants`` finds the ops to fold from the values in the graph rather than from every op's outputs,
and ``create_data_nodes`` reports to the step's clean-up only the data nodes it can leave unread. Checked here on
random graphs against the definitions themselves: an op folds when all its data outputs (one at least) have a
value; clean-up after inference removes what a full clean-up removes.
"""
import random

import numpy as np
import pytest

from mo.graph.graph import Graph
from mo.middle.partial_infer import PartialInfer
from mo.middle.passes.constant_folding import fold_inferred_constants
from mo.ops.activation_ops import Tanh
from mo.ops.const import Const
from mo.ops.elementwise import Add, Mul
from mo.ops.parameter import Parameter
from mo.ops.result import Result
from mo.pipeline.runner import run_replacer


def _inferred_graph(seed: int) -> Graph:
    """A middle graph after inference: inputs and Consts combined at random (so some sub-graphs are constant),
    some outputs read by Results, and control edges between random ops."""
    rng = random.Random(seed)
    graph = Graph()
    graph.stage = 'front'
    tensors = [Parameter(graph, {'name': 'x', 'shape': np.array([2, 3], dtype=np.int64)}).create_node()]
    for i in range(rng.randint(10, 40)):
        kind = rng.random()
        if kind < 0.3:
            tensors.append(Const(graph, {'name': 'c%d' % i, 'value': np.full([3], i, np.float32)}).create_node())
        elif kind < 0.5:
            tensors.append(Tanh(graph, {'name': 't%d' % i}).create_node([rng.choice(tensors)]))
        else:
            op = rng.choice([Add, Mul])
            tensors.append(op(graph, {'name': 'e%d' % i}).create_node([rng.choice(tensors), rng.choice(tensors)]))
    for i, node in enumerate(rng.sample(tensors, min(4, len(tensors)))):
        Result(graph, {'name': 'r%d' % i}).create_node([node])
    PartialInfer().find_and_replace_pattern(graph)
    ops = [n for n, d in graph.node_items() if d.get('kind') == 'op']
    for _ in range(rng.randint(0, 6)):  # control edges: never outputs, whatever their end holds
        source, target = rng.choice(ops), rng.choice(ops)
        if source != target:
            graph.add_edge(source, target, control_flow_edge=True)
    return graph


def _foldable_by_definition(graph: Graph) -> list:
    found = []
    for node_id, data in graph.node_items():
        if data.get('kind') != 'op' or {data.get('op'), data.get('type')} & {'Const', 'Parameter', 'Result'}:
            continue
        outputs = [v for _, v, _, attrs in graph.out_edges(node_id, keys=True, data=True)
                   if not attrs.get('control_flow_edge')]
        if outputs and all(graph.nodes[v].get('value') is not None for v in outputs):
            found.append((node_id, data.get('name')))
    return found


@pytest.mark.parametrize('seed', range(20))
def test_folding_folds_what_the_definition_says(seed):
    graph = _inferred_graph(seed)
    expected = _foldable_by_definition(graph)
    assert fold_inferred_constants(graph) == len(expected)
    for node_id, name in expected:
        assert node_id not in graph  # one output each: the op is replaced by a Const of its name
        const, = [d for n, d in graph.node_items() if d.get('name') == name and d.get('kind') == 'op']
        assert const['op'] == 'Const'
    assert not _foldable_by_definition(graph)


def test_an_op_whose_only_edge_out_is_a_control_edge_to_a_const_is_not_folded():
    graph = _inferred_graph(0)
    const = next(n for n, d in graph.node_items() if d.get('op') == 'Const')
    graph.add_node('orphan', kind='op', op='Tanh', type='Tanh', name='orphan')
    graph.add_edge('orphan', const, control_flow_edge=True)
    assert 'orphan' not in [n for n, _ in _foldable_by_definition(graph)]
    fold_inferred_constants(graph)
    assert graph.node_attrs('orphan')['op'] == 'Tanh'


def _graph_with_unread_outputs(seed: int) -> Graph:
    """A clean front graph whose ops declare outputs nothing reads, some of them kept by ``keep_output_port``."""
    rng = random.Random(seed)
    graph = Graph()
    graph.stage = 'front'
    x = Parameter(graph, {'name': 'x', 'shape': np.array([4], dtype=np.int64)}).create_node()
    for i in range(rng.randint(2, 12)):
        x = Tanh(graph, {'name': 't%d' % i}).create_node([x])
        if rng.random() < 0.5:
            x.add_output_port(1)
            if rng.random() < 0.5:
                x.out_port(1).tensor(create=True)['keep_output_port'] = True
    Result(graph, {'name': 'out'}).create_node([x])
    graph.clean_up()
    return graph


@pytest.mark.parametrize('seed', range(8))
def test_clean_up_after_inference_removes_what_a_full_clean_up_removes(seed):
    stepped, reference = _graph_with_unread_outputs(seed), _graph_with_unread_outputs(seed)
    run_replacer(stepped, PartialInfer)  # the step's own clean-up looks around the edits reported to it
    PartialInfer().find_and_replace_pattern(reference)
    reference.clean_up()
    assert list(stepped.nodes) == list(reference.nodes)
    assert sorted(stepped.edges(keys=True)) == sorted(reference.edges(keys=True))
