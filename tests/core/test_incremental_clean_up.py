"""clean_up_after (only around the edits) removes exactly what a full clean_up removes."""
import random

from mo.graph.graph import Graph


def _random_clean_graph(rng: random.Random, size: int) -> Graph:
    graph = Graph()
    for i in range(size):
        graph.add_node(i, kind='op', op=rng.choice(['Add', 'Relu', 'Const', 'Parameter']), name=str(i))
    for v in range(1, size):
        for u in rng.sample(range(v), min(v, rng.randint(0, 3))):
            graph.add_edge(u, v, out=0, **{'in': rng.randint(0, 1)})
    for i in rng.sample(range(size // 2, size), 3):
        result = 'r{}'.format(i)
        graph.add_node(result, kind='op', op='Result', name=result)
        graph.add_edge(i, result, out=0, **{'in': 0})
    graph.clean_up()
    return graph


def _random_edits(rng: random.Random, graph: Graph):
    nodes = sorted((n for n in graph.nodes if isinstance(n, int)))
    for _ in range(rng.randint(1, 6)):
        edges = list(graph.edges(keys=True))
        kind = rng.random()
        if kind < 0.4 and edges:
            graph.remove_edge(*rng.choice(edges))
        elif kind < 0.6 and nodes:
            victim = rng.choice(nodes)
            if victim in graph:
                graph.remove_node(victim)
        elif kind < 0.8:
            new = 'n{}'.format(rng.random())
            graph.add_node(new, kind='op', op='Relu', name=new)
            alive = [n for n in nodes if n in graph]
            if alive and rng.random() < 0.5:
                graph.add_edge(rng.choice(alive), new, out=0, **{'in': 0})
        else:
            alive = sorted(n for n in nodes if n in graph)
            if len(alive) >= 2:
                u, v = sorted(rng.sample(alive, 2))  # lower id to higher: stays acyclic
                graph.add_edge(u, v, out=0, **{'in': 2})


def test_matches_full_clean_up_on_random_edits():
    rng = random.Random(11)
    for _ in range(300):
        graph = _random_clean_graph(rng, rng.randint(5, 40))
        with graph.track_edits() as edited:
            _random_edits(rng, graph)
        reference = graph.copy()
        graph.clean_up_after(edited)
        reference.clean_up()
        assert set(graph.nodes) == set(reference.nodes)
        assert sorted(graph.edges(keys=True), key=str) == sorted(reference.edges(keys=True), key=str)


def test_a_result_turned_into_another_op_is_an_edit():
    graph = Graph()
    graph.add_node('x', kind='op', op='Relu', name='x')
    graph.add_node('out', kind='op', op='Result', name='out')
    graph.add_node('out2', kind='op', op='Result', name='out2')
    graph.add_edge('x', 'out', out=0, **{'in': 0})
    graph.clean_up()
    with graph.track_edits() as edited:
        graph.nodes['out']['op'] = 'Relu'
    graph.clean_up_after(edited)
    assert set(graph.nodes) == {'out2'}


def test_falls_back_to_a_full_clean_up_when_the_graph_was_not_clean():
    graph = Graph()
    graph.add_node('dead', kind='op', op='Relu', name='dead')
    graph.add_node('out', kind='op', op='Result', name='out')
    assert graph.clean_version is None
    graph.clean_up_after(set())
    assert set(graph.nodes) == {'out'}
