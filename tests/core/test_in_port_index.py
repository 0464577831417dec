"""Input ports of a node with many inputs find their edge through an index (``mo.graph.in_port_index``): after any
sequence of edits, by ``add_edge``/``remove_edge``/``remove_node``, ports, or in place on an edge's attributes, each
port fed once answers what a scan of the adjacency answers, and a port fed twice (a rule mid-rewrite) one of its
feeds."""
import random

import pytest

from mo.graph.graph import Graph, Node
from mo.graph.in_port_index import WIDE

WIDTH = 3 * WIDE


def _feeds(graph, node_id, port):
    """The reference: the data edges into ``port`` of ``node_id``, in adjacency order, as (source, out)."""
    return [(source, attrs.get('out', 0)) for source, keyed in graph._pred[node_id].items()
            for attrs in keyed.values() if attrs.get('in') == port and not attrs.get('control_flow_edge')]


def _scan(graph, node_id, port):
    feeds = _feeds(graph, node_id, port)
    return feeds[0] if feeds else None


def _agrees(graph, node_id, port):
    answer, feeds = _ports_answer(graph, node_id, port), _feeds(graph, node_id, port)
    return answer == (feeds[0] if len(feeds) == 1 else answer if answer in feeds else None)


def _ports_answer(graph, node_id, port):
    source = Node(graph, node_id).in_port(port).get_source() if port in Node(graph, node_id).in_ports() else None
    return None if source is None else (source.node.id, source.idx)


def _wide_graph():
    graph = Graph()
    graph.add_node('wide', kind='op', op='Concat')
    for k in range(WIDTH):
        graph.add_node('s{}'.format(k), kind='op', op='Source')
        graph.add_edge('s{}'.format(k), 'wide', out=0, **{'in': k})
    return graph


def _edit(graph, rng, counter):
    choice = rng.randrange(7)
    preds = [(u, key) for u, keyed in graph._pred['wide'].items() for key in keyed]
    if choice == 0 and preds:  # remove an edge
        source, key = preds[rng.randrange(len(preds))]
        graph.remove_edge(source, 'wide', key)
    elif choice == 1:  # feed a port from a new node
        new = 'n{}'.format(next(counter))
        graph.add_node(new, kind='op', op='Source')
        graph.add_edge(new, 'wide', out=rng.randrange(2), **{'in': rng.randrange(WIDTH + 4)})
    elif choice == 2 and preds:  # renumber an edge's port in place, as the Model Optimizer's rules do
        source, key = preds[rng.randrange(len(preds))]
        graph._pred['wide'][source][key]['in'] = rng.randrange(WIDTH + 4)
    elif choice == 3 and preds:  # remove a source node with its edges
        source = preds[rng.randrange(len(preds))][0]
        graph.remove_node(source)
    elif choice == 4 and preds:  # a control edge onto a data port's number
        graph.add_edge(preds[rng.randrange(len(preds))][0], 'wide', control_flow_edge=True,
                       **{'in': rng.randrange(WIDTH)})
    elif choice == 5:  # a Port.connect, which replaces the port's feed
        port = rng.randrange(WIDTH)
        new = 'c{}'.format(next(counter))
        graph.add_node(new, kind='op', op='Source')
        Node(graph, new).add_output_port(0, skip_if_exist=True)
        Node(graph, new).out_port(0).connect(Node(graph, 'wide').in_port(port))
    elif choice == 6 and preds:  # a Port.disconnect
        Node(graph, 'wide').in_port(rng.randrange(WIDTH)).disconnect()


@pytest.mark.parametrize('seed', range(8))
def test_every_port_answers_as_a_scan_after_random_edits(seed):
    rng = random.Random(seed)
    graph = _wide_graph()
    counter = iter(range(10 ** 6))
    for _ in range(300):
        _edit(graph, rng, counter)
        for port in rng.sample(range(WIDTH + 4), 12):
            assert _agrees(graph, 'wide', port), (port, _feeds(graph, 'wide', port))
    for port in range(WIDTH + 4):
        assert _agrees(graph, 'wide', port), (port, _feeds(graph, 'wide', port))


def test_a_port_fed_twice_answers_its_first_edge_as_the_scan_does():
    graph = _wide_graph()
    assert _ports_answer(graph, 'wide', 5) == ('s5', 0)
    graph.add_node('late', kind='op', op='Source')
    graph.add_edge('late', 'wide', out=0, **{'in': 5})  # a second feed (a rule mid-rewrite)
    assert _ports_answer(graph, 'wide', 5) == _scan(graph, 'wide', 5) == ('s5', 0)
    graph.remove_node('s5')
    assert _ports_answer(graph, 'wide', 5) == ('late', 0)
