"""The loader's canonical node order (``graph_def_to_graph(..., canonical=True)``) and the load phase's Results.

The order is checked against networkx's lexicographical topological sort, the adjacency against the plain
file-order load, and the outputs and dead code through ``mo convert`` (the IR's layers)."""
import random
import re

import networkx as nx
import pytest

from mo.front.tf.loader import graph_def_to_graph
from mo.front.tf.proto import GraphDef
from mo.utils.error import Error


def _graph_def(*nodes):
    gd = GraphDef()
    for name, op, inputs in nodes:
        gd.node.add(name=name, op=op, input=inputs)
    return gd


def _shuffled(gd, seed):
    nodes = list(gd.node)
    random.Random(seed).shuffle(nodes)
    out = GraphDef()
    out.node.extend(nodes)
    return out


def _random_dag(count, seed):
    """A DAG of NoOps and Identities with data, port and control inputs, some repeated, some on one node."""
    rng = random.Random(seed)
    nodes = []
    for i in range(count):
        inputs = []
        for _ in range(rng.randrange(0, 4) if i else 0):
            source = 'n{}'.format(rng.randrange(i))
            inputs.append(rng.choice([source, source + ':1', '^' + source]))
        inputs.sort(key=lambda text: text.startswith('^'))  # data inputs first, as TF writes them
        nodes.append(('n{}'.format(i), 'Identity', inputs))
    return _graph_def(*nodes)


def _structure(graph):
    return list(graph.nodes), list(graph.edges(keys=True, data=True)), \
        [list(graph.succ[n]) for n in graph.nodes], [list(graph.pred[n]) for n in graph.nodes]


@pytest.mark.parametrize('seed', range(4))
def test_the_order_is_the_topological_one_with_ties_by_name_whatever_the_file_order(seed):
    gd = _random_dag(60, seed)
    reference = graph_def_to_graph(gd)  # file order
    expected = list(nx.lexicographical_topological_sort(nx.MultiDiGraph(reference)))
    canonical = graph_def_to_graph(gd, canonical=True)
    assert list(canonical.nodes) == expected
    for shuffle_seed in range(3):
        assert _structure(graph_def_to_graph(_shuffled(gd, shuffle_seed), canonical=True)) == _structure(canonical)


@pytest.mark.parametrize('seed', range(4))
def test_the_edges_are_those_of_the_file_order_load(seed):
    gd = _random_dag(60, seed)
    by_file = graph_def_to_graph(gd)
    canonical = graph_def_to_graph(gd, canonical=True)
    assert sorted(map(repr, by_file.edges(keys=True, data=True))) == \
        sorted(map(repr, canonical.edges(keys=True, data=True)))
    for node in canonical.nodes:  # each node's inputs in NodeDef order
        assert [(u, k, d) for u, _, k, d in canonical.in_edges(node, keys=True, data=True)] == \
            [(u, k, d) for u, _, k, d in by_file.in_edges(node, keys=True, data=True)]


def test_an_input_naming_no_node_is_reported_for_the_first_node_in_order_whatever_the_file_order():
    gd = _graph_def(('a', 'NoOp', []), ('z', 'Identity', ['ghost_z']), ('m', 'Identity', ['a', 'ghost_m:1']),
                    ('b', 'Identity', ['a', '^gone']))
    for seed in range(4):
        with pytest.raises(Error, match='Node "b" has input "\\^gone", but there is no node named "gone"'):
            graph_def_to_graph(_shuffled(gd, seed), canonical=True)


def test_duplicate_and_empty_names_and_malformed_inputs_are_errors():
    with pytest.raises(Error, match='more than one node named "a"'):
        graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('a', 'NoOp', [])), canonical=True)
    with pytest.raises(Error, match='without a name'):
        graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('', 'NoOp', [])), canonical=True)
    with pytest.raises(Error, match='"b".*malformed input "a:x"'):
        graph_def_to_graph(_graph_def(('a', 'NoOp', []), ('b', 'Identity', ['a:x'])), canonical=True)


def test_a_cycle_is_an_error_naming_it():
    gd = _graph_def(('x', 'NoOp', []), ('p', 'Identity', ['x', 'q']), ('q', 'Identity', ['p']))
    with pytest.raises(Error, match='cycle: p -> q -> p'):
        graph_def_to_graph(gd, canonical=True)


def _layers(xml_text):
    return set(re.findall(r'<layer [^>]*name="([^"]+)"', xml_text))


def _float_graph_def(*nodes):
    """A GraphDef of float32 ops: (name, op, inputs); a Const holds [5, 6], the Placeholder is [2, 3]."""
    gd = GraphDef()
    for name, op, inputs in nodes:
        node = gd.node.add(name=name, op=op, input=inputs)
        if op == 'Placeholder':
            node.attr['dtype'].type = 1
            node.attr['shape'].shape.dim.add(size=2)
            node.attr['shape'].shape.dim.add(size=3)
        elif op == 'Const':
            node.attr['dtype'].type = 1
            node.attr['value'].tensor.dtype = 1
            node.attr['value'].tensor.tensor_shape.dim.add(size=2)
            node.attr['value'].tensor.float_val.extend([5.0, 6.0])
        elif op != 'NoOp':
            node.attr['T'].type = 1
    return gd.SerializeToString()


@pytest.mark.parametrize('dead', [False, True])
def test_every_unread_output_is_a_result_and_what_none_needs_is_left_out(tmp_path, dead):
    """``first`` and ``second`` are read by nothing: the model's outputs. ``relu`` is read by ``second`` and waited
    for by a NoOp; an unread Const and that NoOp are dead code."""
    np = pytest.importorskip('numpy')
    pytest.importorskip('tensorflow')
    pytest.importorskip('openvino')
    from tests.convert.conftest import convert_bytes
    from tests.support import oracles
    nodes = [('x', 'Placeholder', []), ('relu', 'Relu', ['x']), ('first', 'Tanh', ['x']),
             ('second', 'Identity', ['relu'])]
    if dead:
        nodes += [('unused_const', 'Const', []), ('waits', 'NoOp', ['^relu'])]
    model = _float_graph_def(*nodes)
    converted = convert_bytes(model, tmp_path)
    layers = _layers(converted.text)
    assert {'x', 'relu', 'first', 'second/sink_port_0', 'first/sink_port_0'} <= layers, sorted(layers)
    assert not {'unused_const', 'waits'} & layers
    feeds = {'x': np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)}
    expected = oracles.run_tf(model, feeds, ['first', 'second'])
    actual = oracles.run_openvino_by_name(converted.xml, feeds, ['first', 'second'])
    assert oracles.compare(actual[0], expected[0]) < 1e-5 and oracles.compare(actual[1], expected[1]) < 1e-5
