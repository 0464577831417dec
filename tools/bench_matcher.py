"""Benchmark: pattern matching on a synthetic 100k-node graph, ours against networkx's matcher.

The legacy Model Optimizer found pattern instances with networkx's GraphMatcher; this script
times both on the same graph in one run and prints the ratio. Not a test: numbers vary by
machine, so read them side by side.

    python tools/bench_matcher.py [--nodes 100000]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import networkx as nx  # noqa: E402
from networkx.algorithms import isomorphism  # noqa: E402

from mo.graph.graph import Graph  # noqa: E402
from mo.middle.pattern_match import apply_pattern, compile_tree_pattern, find_pattern_matches  # noqa: E402


def synthetic_graph(target_nodes: int, rare_every: int = 10000) -> Graph:
    """Blocks of x -> Conv2D(w) -> BiasAdd(b) -> Relu, chained; a rare Softplus now and then."""
    graph = Graph()
    prev = 'input'
    graph.add_node(prev, kind='op', op='Placeholder', name=prev)
    i = 0
    while graph.number_of_nodes() < target_nodes:
        conv, w, bias, b, relu = ('conv{}'.format(i), 'w{}'.format(i), 'bias{}'.format(i), 'b{}'.format(i),
                                  'relu{}'.format(i))
        for node, op in ((w, 'Const'), (conv, 'Conv2D'), (b, 'Const'), (bias, 'BiasAdd'), (relu, 'Relu')):
            graph.add_node(node, kind='op', op=op, name=node)
        graph.add_edge(prev, conv, out=0, **{'in': 0})
        graph.add_edge(w, conv, out=0, **{'in': 1})
        graph.add_edge(conv, bias, out=0, **{'in': 0})
        graph.add_edge(b, bias, out=0, **{'in': 1})
        graph.add_edge(bias, relu, out=0, **{'in': 0})
        prev = relu
        if i % (rare_every // 5) == 0:
            rare = 'softplus{}'.format(i)
            graph.add_node(rare, kind='op', op='Softplus', name=rare)
            graph.add_edge(relu, rare, out=0, **{'in': 0})
        i += 1
    return graph


def timed(fn, repeat=3):
    best, result = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def networkx_matches(graph, pattern):
    """What the legacy tool did: GraphMatcher over the whole graph with node/edge predicates."""
    pattern_graph = nx.MultiDiGraph()
    for alias, attrs in pattern['nodes']:
        pattern_graph.add_node(alias, **attrs)
    for src, dst, *attrs in pattern['edges']:
        pattern_graph.add_edge(src, dst, **(attrs[0] if attrs else {}))

    def node_match(data, pattern_data):
        return all(k in data and (v(data[k]) if callable(v) else data[k] == v) for k, v in pattern_data.items())
    matcher = isomorphism.MultiDiGraphMatcher(nx.MultiDiGraph(graph), pattern_graph, node_match=node_match)
    return sum(1 for _ in matcher.subgraph_monomorphisms_iter())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--nodes', type=int, default=100000)
    parser.add_argument('--skip-networkx', action='store_true', help='do not run the (slow) networkx reference')
    args = parser.parse_args()

    start = time.perf_counter()
    graph = synthetic_graph(args.nodes)
    build = time.perf_counter() - start
    print('graph: {} nodes, {} edges, built in {:.2f}s'.format(graph.number_of_nodes(), graph.number_of_edges(), build))

    single = dict(nodes=[('op', dict(op='Softplus'))], edges=[])
    three = compile_tree_pattern(('relu=Relu', [('bias=BiasAdd', ['conv=Conv2D', 'Const'])]))

    t_single, n_single = timed(lambda: sum(1 for _ in find_pattern_matches(graph, **single)))
    t_three, n_three = timed(lambda: sum(1 for _ in find_pattern_matches(graph, **three)))
    t_apply, n_apply = timed(lambda: apply_pattern(graph, action=lambda g, m: None, **three))
    rows = [('single-op replacer (rare op)', n_single, t_single),
            ('3-node pattern, find all', n_three, t_three),
            ('3-node pattern, apply (find + re-check)', n_apply, t_apply)]
    if not args.skip_networkx:
        t_nx_single, nx_single = timed(lambda: networkx_matches(graph, single), repeat=1)
        t_nx_three, nx_three = timed(lambda: networkx_matches(graph, three), repeat=1)
        assert (nx_single, nx_three) == (n_single, n_three), 'matchers disagree'
        rows[0] += (t_nx_single,)
        rows[1] += (t_nx_three,)
    print('{:<42} {:>8} {:>10} {:>12} {:>8}'.format('case', 'matches', 'mo (s)', 'networkx (s)', 'ratio'))
    for row in rows:
        case, count, ours = row[:3]
        ref = row[3] if len(row) > 3 else None
        print('{:<42} {:>8} {:>10.4f} {:>12} {:>8}'.format(
            case, count, ours, '{:.3f}'.format(ref) if ref else '-', '{:.0f}x'.format(ref / ours) if ref else '-'))


if __name__ == '__main__':
    main()
