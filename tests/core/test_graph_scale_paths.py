"""The graph's whole-model fast paths give exactly what the plain graph operations give.

``Graph.insert_data_nodes`` (what ``create_data_nodes`` turns every op with) writes the adjacency directly, and
``Graph.topological_ids`` reads the ready constants from a sorted list rather than a heap; both are checked here
against the definitions they stand for, on random multigraphs: the same adjacency (keys, attributes and order),
the same order of nodes.
"""
import heapq
import random

import pytest

from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import create_data_nodes
from mo.utils.error import Error


def _random_front_graph(seed: int) -> Graph:
    """Op nodes in a shuffled insertion order, parallel edges, several output ports, control edges."""
    rng = random.Random(seed)
    graph = Graph()
    count = rng.choice([1, 2, 6, 40, 300])
    ids = ['op%d' % i for i in range(count)]
    for i in rng.sample(range(count), count):
        graph.add_node(ids[i], kind='op', op='Op', name=ids[i])
    for dst in range(1, count):
        for in_port in range(rng.randint(0, 3)):
            src = rng.randrange(dst)
            graph.add_edge(ids[src], ids[dst], **{'out': rng.randint(0, 2), 'in': in_port, 'tag': (src, dst)})
        if rng.random() < 0.2:
            graph.add_edge(ids[rng.randrange(dst)], ids[dst], control_flow_edge=True)
    return graph


def _adjacency(graph: Graph):
    """Nodes, attributes and edges in order; of a port table only its ports (where a record lives is checked by
    ``_records_are_data_nodes``)."""
    def attrs(d):
        return {k: sorted(v) if k == '_out_ports' else v for k, v in d.items()}
    return ([(n, attrs(d)) for n, d in graph.node_items()],
            [(u, [(v, list(keyed.items())) for v, keyed in graph._succ[u].items()]) for u in graph],
            [(v, [(u, list(keyed.items())) for u, keyed in graph._pred[v].items()]) for v in graph])


def _data_nodes_by_plain_edits(graph: Graph):
    """What create_data_nodes did before it had a fast path: add_node, add_edge and remove_edge calls."""
    for node_id, data in list(graph.node_items()):
        if data.get('kind') != 'op':
            continue
        out_edges = graph.out_edge_list(node_id, data_only=True)
        data_nodes = {}
        for port in sorted({attrs.get('out', 0) for _, _, attrs in out_edges}):
            data_id = graph.unique_id('{}/out{}'.format(node_id, port) if port else '{}/out'.format(node_id))
            graph.add_node(data_id, kind='data', shape=None)  # its name (its id) and value (None) are derived
            data.setdefault('_out_ports', {})[port] = graph.node_attrs(data_id)
            graph.add_edge(node_id, data_id, out=port)
            data_nodes[port] = data_id
        for v, key, attrs in out_edges:
            graph.remove_edge(node_id, v, key)
            graph.add_edge(data_nodes[attrs.get('out', 0)], v, **{k: val for k, val in attrs.items() if k != 'out'})


@pytest.mark.parametrize('seed', range(12))
def test_data_nodes_are_wired_as_the_plain_edits_wire_them(seed):
    fast, plain = _random_front_graph(seed), _random_front_graph(seed)
    create_data_nodes(fast)
    _data_nodes_by_plain_edits(plain)
    assert _adjacency(fast) == _adjacency(plain)
    assert fast.topological_ids() == plain.topological_ids()
    _records_are_data_nodes(fast)


def _records_are_data_nodes(graph: Graph):
    """Each output's record, as the port API finds it, is its data node's own dict; and stays so (in the op's
    table) once the data node is removed."""
    for node_id, data in list(graph.node_items()):
        for port in list(data.get('_out_ports') or {}):
            data_attrs = graph.node_attrs('{}/out{}'.format(node_id, port) if port else '{}/out'.format(node_id))
            assert Node(graph, node_id).out_port(port).tensor() is data_attrs
            assert data_attrs['value'] is None and Node(graph, node_id).out_node(port).value is None
            data = Node(graph, node_id).out_node(port)
            assert data_attrs['name'] == data.name == data.id
    for data_id in [n for n, d in graph.node_items() if d.get('kind') == 'data']:
        data_attrs = graph.node_attrs(data_id)
        producer, edge = next((u, attrs) for u, _, attrs in graph.in_edges(data_id, data=True))
        graph.remove_node(data_id)
        assert graph.node_attrs(producer)['_out_ports'][edge['out']] is data_attrs
        assert Node(graph, producer).out_port(edge["out"]).tensor() is data_attrs


def _order_by_one_heap(graph: Graph) -> list:
    """Kahn's algorithm with every ready node in one heap keyed by insertion position: the order's definition."""
    position = {n: i for i, n in enumerate(graph.nodes)}
    indegree = {n: sum(len(keyed) for keyed in graph._pred[n].values()) for n in graph}
    heap = [(position[n], n) for n, d in indegree.items() if d == 0]
    heapq.heapify(heap)
    order = []
    while heap:
        _, node_id = heapq.heappop(heap)
        order.append(node_id)
        for dst, keyed in graph._succ[node_id].items():
            indegree[dst] -= len(keyed)
            if indegree[dst] == 0:
                heapq.heappush(heap, (position[dst], dst))
    return order


@pytest.mark.parametrize('seed', range(12))
def test_topological_order_takes_the_earliest_ready_node(seed):
    graph = _random_front_graph(seed)
    create_data_nodes(graph)
    order = graph.topological_ids()
    assert order == _order_by_one_heap(graph)
    assert [n.id for n in graph.pseudo_topological_sort()] == order
    assert [n.id for n in graph.pseudo_topological_sort(reverse=True)] == order[::-1]


def test_a_cycle_is_still_named():
    graph = Graph()
    for name in ('a', 'b', 'c'):
        graph.add_node(name, kind='op', name=name)
    graph.add_edge('a', 'b', out=0, **{'in': 0})
    graph.add_edge('b', 'c', out=0, **{'in': 0})
    graph.add_edge('c', 'b', out=0, **{'in': 1})
    with pytest.raises(Exception, match='cycle'):
        graph.topological_ids()


def _random_nodes_and_edges(seed: int):
    """Nodes (ids, attrs: indexed keys, shared and unique names, None values) and edges (parallel, both ways)."""
    rng = random.Random(seed)
    count = rng.choice([1, 3, 50, 200])
    nodes = []
    for i in rng.sample(range(count), count):
        attrs = {'kind': rng.choice(['op', 'data']), 'name': rng.choice(['n%d' % i, 'shared', None]),
                 'op': rng.choice(['Add', 'Const', 'Result', None]), 'extra': i}
        if rng.random() < 0.3:
            attrs['type'] = 'Add'
        nodes.append(('n%d' % i, attrs))
    edges = [('n%d' % rng.randrange(count), 'n%d' % rng.randrange(count), {'out': rng.randint(0, 2), 'in': k})
             for k in range(rng.randint(0, 3 * count))]
    return nodes, edges


def _index_view(graph: Graph):
    return {key: {value: graph.nodes_by_attr(key, value) for value in ('Add', 'Const', 'Result', 'op', 'data',
                                                                        'shared', 'n0', 'n1')}
            for key in ('op', 'type', 'kind', 'name')}


@pytest.mark.parametrize('seed', range(10))
def test_bulk_adds_build_the_graph_add_node_and_add_edge_build(seed):
    nodes, edges = _random_nodes_and_edges(seed)
    bulk, plain = Graph(), Graph()
    with bulk.track_edits() as bulk_edited, plain.track_edits() as plain_edited:
        bulk.add_new_nodes((n, dict(attrs)) for n, attrs in nodes)
        bulk.add_new_edges((u, v, dict(attrs)) for u, v, attrs in edges)
        for n, attrs in nodes:
            plain.add_node(n, **attrs)
        for u, v, attrs in edges:
            plain.add_edge(u, v, **attrs)
    assert _adjacency(bulk) == _adjacency(plain)
    assert _index_view(bulk) == _index_view(plain)
    assert bulk_edited == plain_edited
    if not bulk.find_cycle():
        assert bulk.topological_ids() == plain.topological_ids()
    bulk.nodes['n0']['op'] = 'Const'  # the bulk-added dicts keep the index right as add_node's do
    plain.nodes['n0']['op'] = 'Const'
    assert _index_view(bulk) == _index_view(plain)


def test_bulk_add_of_an_existing_node_is_an_error():
    graph = Graph()
    graph.add_node('a', kind='op')
    with pytest.raises(Error, match='"a" exists already'):
        graph.add_new_nodes([('b', {'kind': 'op'}), ('a', {'kind': 'op'})])
