"""The front-graph convention of ``mo.front.paddle.graph`` that Paddle extractors rely on: one node per op named
by its first output var, the op type without dialect or inplace suffix, ports numbered by ``op_slots.SLOTS``
(a slot of N vars taking N ports, PIR vectors standing for their members), params as Consts viewing the mapped
file, feeds as Parameters."""
import os

import pytest

from mo.front.paddle.extractor_utils import has_input, in_port, out_port, paddle_attr
from mo.front.paddle.graph import TENSORS, paddle_op_type, program_to_graph
from mo.front.paddle.load import read_model
from mo.graph.graph import Graph, Node
from tests.paddle.convert_support import FIXTURES


def _graph(path):
    program, weights = read_model(os.path.join(FIXTURES, path))
    return program_to_graph(Graph(), program, weights)


def _nodes(graph, op):
    return [Node(graph, n) for n, d in graph.nodes(data=True) if d.get('op') == op]


@pytest.mark.parametrize('given, expected', [('pd_op.conv2d', 'conv2d'), ('pd_op.relu_', 'relu'),
                                             ('pd_op.batch_norm_', 'batch_norm'), ('elementwise_add',
                                                                                   'elementwise_add')])
def test_op_types_lose_dialect_and_inplace_suffix(given, expected):
    assert paddle_op_type(given) == expected


@pytest.mark.parametrize('path', ['p26/seq.pdmodel', 'p3_pir/seq.json'])
def test_a_slot_of_several_vars_takes_consecutive_ports(path):
    graph = _graph(path)
    concat, = _nodes(graph, 'concat')
    assert concat.in_slots['X'] == [0, 1]
    stack = [n for n in _nodes(graph, 'stack') if len(n.in_slots['X']) == 2][0]
    assert in_port(stack, 'X', 1) == 1 and out_port(stack, 'Y') == 0
    split, = _nodes(graph, 'split') or _nodes(graph, 'split_with_num')
    assert split.out_slots['Out'] == [0, 1]
    # each port is wired to the op that writes the var (a PIR vector's members included)
    for node in (concat, stack):
        assert all(node.is_in_port_connected(p) for p in node.in_slots['X'])


def test_ports_follow_the_table_whatever_the_format():
    pir, classic = _graph('p3_pir/net.json'), _graph('p26/net.pdmodel')
    for graph in (pir, classic):
        bn, = _nodes(graph, 'batch_norm')
        assert [in_port(bn, s) for s in ('X', 'Mean', 'Variance', 'Scale', 'Bias')] == [0, 1, 2, 3, 4]
        assert out_port(bn, 'Y') == 0 and not has_input(bn, 'MomentumTensor')
        assert bn.in_port(1).get_source().node.op == 'Const'
        conv, = _nodes(graph, 'conv2d')
        assert in_port(conv, 'Input') == 0 and in_port(conv, 'Filter') == 1
        assert paddle_attr(conv, 'groups') == 1 and paddle_attr(conv, 'no_such_attr', 7) == 7
    classic_bn, = _nodes(classic, 'batch_norm')
    assert classic_bn.name == 'batch_norm_0.tmp_2'  # its first output var in the table's order (Y)


def test_params_are_views_and_feeds_are_parameters():
    graph = _graph('p26/net.pdmodel')
    tensors = graph.graph[TENSORS]
    weight = Node(graph, tensors['conv2d_0.w_0'][0])
    assert weight.op == 'Const' and not weight.value.flags.owndata and not weight.value.flags.writeable
    feed = Node(graph, tensors['x'][0])
    assert feed.op == 'Parameter' and feed.name == 'x' and list(feed.pb.shape) == [-1, 3, 8, 8]
    assert feed.out_port(0).get_tensor_names() == ['x']


def test_both_formats_number_a_tables_slots_alike():
    """rnn is in the slot table: a classic program's named slots and a PIR program's positional operands get the
    same slot names and ports (PreState's two states on ports 1 and 2)."""
    classic_rnn, = _nodes(_graph('p26/seq.pdmodel'), 'rnn')
    pir_rnn, = _nodes(_graph('p3_pir/seq.json'), 'rnn')
    for rnn in (classic_rnn, pir_rnn):
        assert list(rnn.in_slots)[:3] == ['Input', 'PreState', 'WeightList']
        assert list(rnn.in_slots['PreState']) == [1, 2]
