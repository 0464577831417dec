"""Finding every instance of a small pattern graph inside a model graph.

A pattern is ``nodes`` — ``(alias, {attr: value or predicate})`` — and ``edges`` —
``(src_alias, dst_alias[, {attr: value or predicate}])``. A match maps each alias to a distinct
graph node whose attributes satisfy the node's constraints, such that every pattern edge has its
own graph edge (parallel pattern edges need parallel graph edges) with matching attributes.
Graph edges the pattern does not mention are allowed.

Matching starts from the indexed candidates of the most selective pattern node (the one whose
``op``/``type`` value is rarest in the graph) and grows along pattern edges through graph
adjacency, so a pattern for a rare op costs time in the number of such ops, not in the size of
the graph.
"""
import itertools
import re

import numpy as np

from mo.graph.graph import Graph, Node

_INDEXED_MATCH_KEYS = ('op', 'type', 'name')


def _attr_ok(data: dict, key, expected) -> bool:
    if key not in data:
        return False
    value = data[key]
    if callable(expected) and not isinstance(expected, type):
        return bool(expected(value))
    try:
        return bool(value == expected)
    except ValueError:  # numpy arrays compared element-wise
        return False


def _attrs_ok(data: dict, constraints: dict) -> bool:
    return all(_attr_ok(data, key, expected) for key, expected in constraints.items())


class CompiledPattern:
    """A pattern prepared for matching: node constraints, adjacency and a search order."""

    def __init__(self, nodes, edges, node_attrs=None, edge_attrs=None):
        self.aliases = [alias for alias, _ in nodes]
        if len(set(self.aliases)) != len(self.aliases):
            raise ValueError('pattern node aliases must be unique: {}'.format(self.aliases))
        keep = set(node_attrs) if node_attrs else None
        self.node_constraints = {alias: {k: v for k, v in (attrs or {}).items() if keep is None or k in keep}
                                 for alias, attrs in nodes}
        keep_edge = set(edge_attrs) if edge_attrs else None
        self.edges = []
        for edge in edges:
            src, dst = edge[0], edge[1]
            attrs = edge[2] if len(edge) > 2 and edge[2] else {}
            if keep_edge is not None:
                attrs = {k: v for k, v in attrs.items() if k in keep_edge}
            if src not in self.node_constraints or dst not in self.node_constraints:
                raise ValueError('pattern edge ({}, {}) names an unknown node'.format(src, dst))
            self.edges.append((src, dst, attrs))
        # edges grouped by the unordered pair they join, checked once both ends are assigned
        self.pair_edges = {}
        for src, dst, attrs in self.edges:
            self.pair_edges.setdefault(frozenset((src, dst)), []).append((src, dst, attrs))
        self.neighbours = {alias: [] for alias in self.aliases}
        for src, dst, attrs in self.edges:
            self.neighbours[src].append((dst, 'out', attrs))
            self.neighbours[dst].append((src, 'in', attrs))

    # ----- planning ----------------------------------------------------------------------
    def _indexed_key(self, graph: Graph, alias):
        """(count, key, value) of the indexed constraint of ``alias`` that the fewest graph nodes meet, or None
        when no constraint of ``alias`` is indexed."""
        constraints = self.node_constraints[alias]
        best = None
        for key in _INDEXED_MATCH_KEYS:
            value = constraints.get(key)
            if value is not None and not callable(value):
                try:
                    count = graph.count_by_attr(key, value)
                except TypeError:  # an unhashable value cannot be looked up in the index
                    continue
                if best is None or count < best[0]:
                    best = (count, key, value)
        return best

    def _selectivity(self, graph: Graph, alias):
        best = self._indexed_key(graph, alias)
        return best[0] if best is not None else None

    def plan(self, graph: Graph):
        """Search order: each component starts at its most selective node, then grows by BFS."""
        order, starts = [], {}
        remaining = list(self.aliases)
        while remaining:
            scored = [(self._selectivity(graph, a), i, a) for i, a in enumerate(remaining)]
            indexed = [s for s in scored if s[0] is not None]
            start = min(indexed)[2] if indexed else remaining[0]
            starts[start] = True
            component = [start]
            seen = {start}
            for alias in component:
                for other, _, _ in self.neighbours[alias]:
                    if other not in seen:
                        seen.add(other)
                        component.append(other)
            order.extend(component)
            remaining = [a for a in remaining if a not in seen]
        return order, starts

    def start_candidates(self, graph: Graph, alias):
        best = self._indexed_key(graph, alias)
        return graph.nodes_by_attr(best[1], best[2]) if best is not None else list(graph.nodes)

    # ----- checking ----------------------------------------------------------------------
    def _pair_ok(self, graph: Graph, assignment, pair_edges) -> bool:
        """Every pattern edge between two assigned nodes has its own matching graph edge."""
        used = set()

        def place(i):
            if i == len(pair_edges):
                return True
            src, dst, attrs = pair_edges[i]
            u, v = assignment[src], assignment[dst]
            adjacency = graph.edges_between(u, v)
            if not adjacency:
                return False
            for key, data in adjacency.items():
                if (u, v, key) in used or not _attrs_ok(data, attrs):
                    continue
                used.add((u, v, key))
                if place(i + 1):
                    return True
                used.discard((u, v, key))
            return False
        return place(0)

    def consistent(self, graph: Graph, assignment: dict, alias) -> bool:
        """Node ``alias`` (just assigned) satisfies its constraints and its edges to assigned nodes."""
        node_id = assignment[alias]
        if not _attrs_ok(graph.node_attrs(node_id), self.node_constraints[alias]):
            return False
        for other, _, _ in self.neighbours[alias]:
            if other in assignment and other != alias:
                if not self._pair_ok(graph, assignment, self.pair_edges[frozenset((alias, other))]):
                    return False
        self_loops = self.pair_edges.get(frozenset((alias,)))
        if self_loops and not self._pair_ok(graph, assignment, self_loops):
            return False
        return True

    def still_matches(self, graph: Graph, assignment: dict) -> bool:
        """Re-check a whole match (an earlier replacement may have changed the graph)."""
        if any(node_id not in graph for node_id in assignment.values()):
            return False
        if not all(_attrs_ok(graph.node_attrs(n), self.node_constraints[a]) for a, n in assignment.items()):
            return False
        return all(self._pair_ok(graph, assignment, edges) for edges in self.pair_edges.values())

    # ----- search ------------------------------------------------------------------------
    def matches(self, graph: Graph):
        """Yield every match as ``{alias: node_id}``, in a deterministic order."""
        if not self.aliases:
            return
        order, starts = self.plan(graph)
        assignment, used = {}, set()

        def candidates(alias):
            if alias in starts:
                return self.start_candidates(graph, alias)
            for other, direction, _ in self.neighbours[alias]:
                if other in assignment:
                    anchor = assignment[other]
                    # direction is seen from ``alias``: 'out' means alias -> other
                    near = graph.producer_ids(anchor) if direction == 'out' else graph.consumer_ids(anchor)
                    return list(near)
            return list(graph.nodes)

        def extend(depth):
            if depth == len(order):
                yield dict(assignment)
                return
            alias = order[depth]
            for node_id in candidates(alias):
                if node_id in used:
                    continue
                assignment[alias] = node_id
                used.add(node_id)
                if self.consistent(graph, assignment, alias):
                    yield from extend(depth + 1)
                used.discard(node_id)
                del assignment[alias]

        yield from extend(0)


def find_pattern_matches(graph: Graph, nodes, edges, node_attrs=None, edge_attrs=None):
    """Yield every match of the pattern as ``{alias: node_id}``."""
    return CompiledPattern(nodes, edges, node_attrs, edge_attrs).matches(graph)


def apply_pattern(graph: Graph, nodes, edges, action, node_attrs=None, edge_attrs=None, **kwargs) -> int:
    """Call ``action(graph, {alias: Node})`` for every match; returns how many were applied (an action
    that returns False declined its match, which is not counted).

    All matches are found first. Before each call the match is checked again, so a match whose
    nodes or edges an earlier call removed or changed is skipped.
    """
    pattern = CompiledPattern(nodes, edges, node_attrs, edge_attrs)
    applied = 0
    for assignment in list(pattern.matches(graph)):
        if not pattern.still_matches(graph, assignment):
            continue
        if action(graph, {alias: Node(graph, node_id) for alias, node_id in assignment.items()}) is not False:
            applied += 1
    return applied


# ----- the Graph Transform Tool's OpTypePattern, as a compact tree ---------------------------
_SPEC = re.compile(r'^\s*(?:(?P<alias>[A-Za-z_][\w.]*)\s*=\s*)?(?P<ops>\*|[\w.|]+)\s*$')


def compile_tree_pattern(tree, attr: str = 'op', data_nodes: bool = False) -> dict:
    """Turn a tree like ``("Mul", [("conv=Conv2D|MatMul", ["*", "Const"]), "Const"])`` into a pattern.

    Each node is ``"[alias=]Op1|Op2"`` or ``"*"`` (any node), alone (a leaf: its inputs are not
    looked at) or as ``(spec, [inputs...])`` where the i-th input feeds port i. Unnamed nodes get
    aliases ``n0, n1, ...`` in pre-order. An alias used more than once is one node: ``"x=*"`` at one
    place and ``"x"`` (or ``"x=*"`` again) at another match the same graph node, as in hard-swish
    ``("Mul", ["x=*", ("Clamp", [("Add", ["x", "Const"])])])``; so is a lower-case bare name written
    twice (``"x"`` and ``"x"``: any node, the same both times). A node given inputs at two places must
    be given the same ones. With ``data_nodes`` (middle/back phases) a data node ``<alias>_d`` is put
    on every edge. Returns ``dict(nodes=..., edges=...)`` for ``apply_pattern`` or a replacer's
    ``pattern()``.
    """
    nodes, edges = [], []
    counter = itertools.count()
    specs = {}  # alias -> the op spec it was given, or None for a bare reference such as "x"
    expanded = {}  # alias -> the inputs it was given (a node's inputs are added to the pattern once)
    # aliases first, so that a bare "x" may come before or after the "x=*" that defines it; a bare name
    # written twice (["x", ("Add", ["x", "Const"])]) is one node too: no op would be named twice in a tree
    declared, bare = set(), []

    def declare(item):
        spec = item if isinstance(item, str) else item[0]
        match = _SPEC.match(spec) if isinstance(spec, str) else None
        if match and match.group('alias'):
            declared.add(match.group('alias'))
        elif match and '|' not in match.group('ops') and match.group('ops') != '*':
            bare.append(match.group('ops'))
        for child in ([] if isinstance(item, str) else item[1] or []):
            declare(child)

    declare(tree)
    declared.update(name for name in bare if bare.count(name) > 1 and name[:1].islower())

    def visit(item):
        spec, inputs = (item, None) if isinstance(item, str) else (item[0], item[1])
        match = _SPEC.match(spec)
        if not match:
            raise ValueError('bad pattern node "{}": expected "[alias=]Op[|Op...]" or "*"'.format(spec))
        index = next(counter)
        ops = match.group('ops')
        alias = match.group('alias')
        if alias is None and ops in declared:
            alias, ops = ops, None  # a reference to a node named elsewhere in the tree
        alias = alias or 'n{}'.format(index)
        if alias in specs:
            if ops is not None and specs[alias] is not None and ops != specs[alias]:
                raise ValueError('pattern alias "{}" is "{}" at one place and "{}" at another'.format(
                    alias, specs[alias], ops))
            if ops is not None and specs[alias] is None:
                _replace_constraints(nodes, alias, _constraints(ops, attr, data_nodes))
                specs[alias] = ops
        else:
            specs[alias] = ops
            nodes.append((alias, _constraints(ops or '*', attr, data_nodes)))
        if inputs is not None:
            if alias in expanded:
                if expanded[alias] != inputs:
                    raise ValueError('pattern alias "{}" is given different inputs at two places'.format(alias))
                return alias
            expanded[alias] = inputs
        for port, child in enumerate(inputs or []):
            child_alias = visit(child)
            if data_nodes:
                data_alias = '{}_d'.format(child_alias)
                if data_alias not in {a for a, _ in nodes}:
                    nodes.append((data_alias, {'kind': 'data'}))
                    edges.append((child_alias, data_alias))
                edges.append((data_alias, alias, {'in': port}))
            else:
                edges.append((child_alias, alias, {'in': port}))
        return alias

    visit(tree)
    return dict(nodes=nodes, edges=edges)


def _constraints(ops: str, attr: str, data_nodes: bool) -> dict:
    """The node constraints of an op spec (``"*"``, ``"Op"`` or ``"Op1|Op2"``) in a tree pattern."""
    if ops == '*':
        constraints = {}
    else:
        choices = ops.split('|')
        constraints = {attr: choices[0]} if len(choices) == 1 else \
            {attr: (lambda allowed: lambda value: value in allowed)(frozenset(choices))}
    if data_nodes:
        constraints = dict(constraints, kind='op')
    return constraints


def _replace_constraints(nodes: list, alias: str, constraints: dict):
    """Give ``alias`` the constraints of its op spec, met after a bare reference to it."""
    nodes[[a for a, _ in nodes].index(alias)] = (alias, constraints)


def check_value(value, check) -> bool:
    """The Model Optimizer's predicate helper for a node's ``value`` constraint: the value is known, real, and
    ``check(value)`` holds (``('c', dict(value=lambda v: check_value(v, lambda x: np.allclose(x, 3.0))))``)."""
    return value is not None and bool(np.all(np.isreal(value))) and bool(check(value))


def all_edges_in_nodes(nodes: list, edges: list) -> bool:
    """Does every edge ``(u, v, ...)`` join two of ``nodes``?"""
    members = set(nodes)
    return all(edge[0] in members and edge[1] in members for edge in edges)
