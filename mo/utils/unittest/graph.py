"""The Model Optimizer's graph-building helpers for extension tests (``mo.utils.unittest.graph``).

Tests written for ``openvino.tools.mo`` describe graphs as a dict of node attributes and a list of
edges, usually in the middle phase (op and data nodes alternate)::

    nodes = {**regular_op_with_shaped_data('input', [1, 3], {'type': 'Parameter', 'op': 'Parameter'}),
             **valued_const_with_data('k', np.array([2.0])),
             **regular_op_with_empty_data('mul', {'type': 'Multiply', 'op': 'Mul'}),
             **result('out')}
    edges = [*connect('input', '0:mul'), *connect('k', '1:mul'), *connect('mul', 'out')]
    graph = build_graph(nodes, edges)
    ...
    flag, message = compare_graphs(graph, graph_ref, 'out', check_op_attrs=True)
    assert flag, message

(``mo.utils.graph_builder.build_graph`` is mo's own shorter form for front-phase graphs.)
"""
from collections import deque
from copy import deepcopy

import numpy as np

from mo.graph.author_view import mark_graph
from mo.graph.graph import Graph, Node
from mo.ops.const import Const
from mo.utils.error import Error
from mo.utils.shape import int64_array, shape_array

#: attributes compare_graphs never compares (bookkeeping, not meaning)
_IGNORED_ATTRS = {'name', 'id', 'infer', 'type_infer', 'IE', '_in_ports', '_out_ports', '_op_class', 'kind',
                  'in_ports_count', 'out_ports_count', 'tensor_names', 'fw_tensor_debug_info', 'dim_attrs',
                  'shape_attrs', 'version'}


def build_graph(nodes_attrs: dict, edges: list, update_attributes: dict = None, nodes_with_edges_only: bool = False,
                cli=None) -> Graph:
    """A Graph of ``nodes_attrs`` (id -> attribute dict, deep-copied) and ``edges`` ((u, v) or (u, v, attrs)).

    As in the Model Optimizer's helper: a node without a ``name`` is named by its id; an edge into an op
    without ``in`` gets the op's next free input index; an edge out of an op without ``out`` gets the number
    of edges that op already has (so an op feeding two consumers without ports uses outputs 0 and 1); every
    edge records its source's ``name``. A control-flow edge (``control_flow_edge=True``) declares a
    control-flow port.
    ``update_attributes`` (id -> attrs) is applied last; ``nodes_with_edges_only`` drops nodes that no
    edge mentions; ``cli`` becomes ``graph.graph['cmd_params']``.
    """
    edge_nodes = {n for edge in edges for n in edge[:2]}
    graph = Graph()
    mark_graph(graph)  # authors' tests read shapes in the masked form; masked attributes below are stored as -1
    for node_id, attrs in nodes_attrs.items():
        if nodes_with_edges_only and node_id not in edge_nodes:
            continue
        attrs = deepcopy(attrs)
        attrs.setdefault('name', node_id)
        for key in ('shape', 'value'):
            if isinstance(attrs.get(key), (list, tuple)):
                attrs[key] = shape_array(attrs[key]) if key == 'shape' else np.array(attrs[key])
        graph.add_node(node_id, **attrs)
    next_in, out_count = {}, {}
    for edge in edges:
        src, dst = edge[0], edge[1]
        attrs = dict(edge[2]) if len(edge) > 2 and edge[2] else {}
        for end in (src, dst):
            if end not in graph:
                raise KeyError('edge {} -> {}: node "{}" is not in nodes_attrs'.format(src, dst, end))
        src_is_op, dst_is_op = graph.nodes[src].get('kind') != 'data', graph.nodes[dst].get('kind') != 'data'
        control_flow = bool(attrs.get('control_flow_edge'))
        if dst_is_op and 'in' not in attrs:
            attrs['in'] = next_in.get(dst, 0)
        if src_is_op and 'out' not in attrs:
            attrs['out'] = out_count.get(src, 0)
        out_count[src] = out_count.get(src, 0) + 1
        attrs.setdefault('name', graph.nodes[src]['name'])
        if 'in' in attrs:
            next_in[dst] = max(next_in.get(dst, 0), attrs['in'] + 1)
        graph.add_edge(src, dst, **attrs)
        if dst_is_op and 'in' in attrs:
            Node(graph, dst).add_input_port(attrs['in'], skip_if_exist=True, control_flow=control_flow)
        if src_is_op and 'out' in attrs:
            Node(graph, src).add_output_port(attrs['out'], skip_if_exist=True, control_flow=control_flow)
    for node_id, attrs in (update_attributes or {}).items():
        if node_id in graph:
            graph.nodes[node_id].update(deepcopy(attrs))
    if cli is not None:
        graph.graph['cmd_params'] = cli
    graph.graph.setdefault('layout', 'NCHW')
    return graph


def build_graph_with_edge_attrs(nodes_attrs: dict, edges: list, update_attributes: dict = None, cli=None) -> Graph:
    """The Model Optimizer's variant of :func:`build_graph` for edges that all carry their attributes
    (``(u, v, attrs)``): only the nodes the edges mention are made."""
    return build_graph(nodes_attrs, edges, update_attributes, nodes_with_edges_only=True, cli=cli)


def build_graph_with_attrs(nodes_with_attrs: list, edges_with_attrs: list, new_nodes_with_attrs: list = (),
                           new_edges_with_attrs: list = (), update_edge_attrs: dict = None,
                           update_nodes_attributes: list = None, nodes_with_edges_only: bool = False,
                           add_nodes_from_edges: bool = False) -> Graph:
    """The Model Optimizer's list form of :func:`build_graph`: nodes as ``(id, attrs)`` pairs, edges as
    ``(u, v[, attrs])``, plus ``new_*`` ones that must not repeat the others; ``update_edge_attrs`` maps
    ``(u, v, key)`` to attributes of that edge, ``update_nodes_attributes`` is a list of ``(id, attrs)``; with
    ``add_nodes_from_edges`` an edge may name a node that is not listed (it is made without attributes)."""
    known = {node_id for node_id, _ in nodes_with_attrs}
    if any(node_id in known for node_id, _ in new_nodes_with_attrs):
        raise Error('Some nodes from new_nodes_with_attrs are already in nodes. Please, add to '
                    'new_nodes_with_attrs only NEW nodes.')
    if {tuple(e[:2]) for e in edges_with_attrs} & {tuple(e[:2]) for e in new_edges_with_attrs}:
        raise Error('Some edges from new_edges_with_attrs are already in edges. Please, add to '
                    'new_edges_with_attrs only NEW edges.')
    nodes = dict(list(nodes_with_attrs) + list(new_nodes_with_attrs))
    edges = list(edges_with_attrs) + list(new_edges_with_attrs)
    missing = {n for edge in edges for n in edge[:2]} - set(nodes)
    if missing and not add_nodes_from_edges:
        raise Error('Some nodes from list of edges is not in nodes. Please, add all necessary nodes.')
    nodes.update({node_id: {} for node_id in missing})
    graph = build_graph(nodes, edges, dict(update_nodes_attributes or ()), nodes_with_edges_only)
    for (u, v, key), attrs in (update_edge_attrs or {}).items():
        graph[u][v][key].update(attrs)
    return graph


# ----- node attribute dicts ------------------------------------------------------------------
def regular_op(name: str, kwargs: dict) -> dict:
    return {name: {'kind': 'op', 'type': None, **kwargs}}


def empty_data(name: str) -> dict:
    return {name: {'kind': 'data', 'value': None, 'shape': None}}


def shaped_data(name: str, shape) -> dict:
    return {name: {'kind': 'data', 'value': None, 'shape': shape_array(shape) if shape is not None else None}}


def valued_data(name: str, value) -> dict:
    value = None if value is None else np.asarray(value)
    return {name: {'kind': 'data', 'value': value, 'shape': int64_array(value.shape) if value is not None else None}}


def const(name: str, value) -> dict:
    value = np.asarray(value)
    return {name: {'kind': 'op', 'type': 'Const', 'op': 'Const', 'value': value, 'shape': int64_array(value.shape),
                   'infer': _const_infer}}


def _const_infer(node):
    Const.infer(node)


def shaped_const_with_data(name: str, shape) -> dict:
    return {**{name: {'kind': 'op', 'type': 'Const', 'op': 'Const', 'shape': shape_array(shape)}},
            **shaped_data(name + '_d', shape)}


def valued_const_with_data(name: str, value) -> dict:
    return {**const(name, value), **valued_data(name + '_d', value)}


def regular_op_with_shaped_data(name: str, shape, kwargs: dict) -> dict:
    return {**regular_op(name, kwargs), **shaped_data(name + '_d', shape)}


def regular_op_with_empty_data(name: str, kwargs: dict) -> dict:
    return {**regular_op(name, kwargs), **empty_data(name + '_d')}


def shaped_parameter(name: str, shape, kwargs: dict = None) -> dict:
    return regular_op_with_shaped_data(name, shape, {'type': 'Parameter', 'op': 'Parameter', 'shape': shape_array(shape),
                                                     **(kwargs or {})})


def result(name: str = 'output') -> dict:
    return {name: {'kind': 'op', 'type': 'Result', 'op': 'Result'}}


# ----- edges ---------------------------------------------------------------------------------
def _split(tensor: str, port_first: bool):
    parts = tensor.split(':')
    if len(parts) == 1:
        return tensor, 0
    if port_first:
        return ':'.join(parts[1:]), int(parts[0])
    return ':'.join(parts[:-1]), int(parts[-1])


def connect(first_tensor_name: str, second_tensor_name: str, skip_data: bool = False, front_phase: bool = False):
    """Edges from ``'op'``/``'op:out_port'`` to ``'consumer'``/``'in_port:consumer'``, as the Model Optimizer's
    helper made them.

    In the middle phase (default) they pass through ``op + '_d'``, the producer's data node (as made by
    ``regular_op_with_*_data``; the same name whatever the output port); ``skip_data`` makes only the edge from
    that data node to the consumer; ``front_phase`` connects the ops directly.
    """
    src, out_port = _split(first_tensor_name, port_first=False)
    dst, in_port = _split(second_tensor_name, port_first=True)
    if skip_data:
        return [(src + '_d', dst, {'out': out_port, 'in': in_port})]
    if front_phase:
        return [(src, dst, {'out': out_port, 'in': in_port})]
    return [(src, src + '_d', {'out': out_port}), (src + '_d', dst, {'in': in_port})]


def connect_data(first_tensor_name: str, second_tensor_name: str):
    """The edge from ``first_tensor_name``'s data node (``'op:out_port'`` -> ``op_d``) to
    ``'in_port:consumer'``."""
    return connect(first_tensor_name, second_tensor_name, skip_data=True)


def connect_front(first_tensor_name: str, second_tensor_name: str):
    return connect(first_tensor_name, second_tensor_name, front_phase=True)


# ----- comparing -----------------------------------------------------------------------------
def _values_equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            a, b = np.asarray(a), np.asarray(b)
        except (TypeError, ValueError):
            return False
        if a.shape != b.shape:
            return False
        if a.dtype.kind in 'fc' or b.dtype.kind in 'fc':
            return bool(np.allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=True))
        return bool(np.array_equal(a, b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _inputs(graph, node_id):
    """Input edges of a node as ``[(in_port or None, source id)]`` sorted by port."""
    return sorted(((d.get('in'), u) for u, _, d in graph.in_edges(node_id, data=True)
                   if not d.get('control_flow_edge')), key=lambda item: (item[0] is None, item[0] or 0))


def compare_graphs(graph: Graph, graph_ref: Graph, last_node: str, last_node_ref: str = None,
                   check_op_attrs: bool = False, consider_names: bool = False):
    """``(True, '')`` when the graphs agree from ``last_node``/``last_node_ref`` backwards, else
    ``(False, message)`` naming every difference.

    Nodes are paired by walking inputs port by port; paired nodes must have the same kind, op and
    type; data nodes the same shape and value; with ``check_op_attrs`` op nodes also every attribute
    the reference node sets (except bookkeeping such as names and ports), and with
    ``consider_names`` the same ``name``. A reference attribute set to None is not compared, as in the Model
    Optimizer's helper.
    """
    last_node_ref = last_node if last_node_ref is None else last_node_ref
    problems = []
    queue = deque([(last_node, last_node_ref)])
    paired = {}
    while queue:
        node_id, ref_id = queue.popleft()
        if node_id in paired:
            if paired[node_id] != ref_id:
                problems.append('node "{}" pairs with both "{}" and "{}" of the reference'.format(
                    node_id, paired[node_id], ref_id))
            continue
        paired[node_id] = ref_id
        attrs, ref = graph.nodes[node_id], graph_ref.nodes[ref_id]
        where = '"{}" (reference "{}")'.format(node_id, ref_id)
        for key in ('kind', 'op', 'type'):
            if key in ref and ref.get(key) is not None and attrs.get(key) != ref.get(key):
                problems.append('{}: {} is {!r}, reference {!r}'.format(where, key, attrs.get(key), ref.get(key)))
        if consider_names and attrs.get('name') != ref.get('name'):
            problems.append('{}: name is {!r}, reference {!r}'.format(where, attrs.get('name'), ref.get('name')))
        if ref.get('kind') == 'data':
            for key in ('shape', 'value'):
                if ref.get(key) is not None and not _values_equal(attrs.get(key), ref.get(key)):
                    problems.append('{}: {} is {}, reference {}'.format(where, key, attrs.get(key), ref.get(key)))
        elif check_op_attrs:
            for key, value in ref.items():
                if key in _IGNORED_ATTRS or callable(value) or value is None:  # None: not compared (as the MO)
                    continue
                if key not in attrs:
                    problems.append('{}: has no attribute {!r} (reference {!r})'.format(where, key, value))
                elif not _values_equal(attrs[key], value):
                    problems.append('{}: {} is {!r}, reference {!r}'.format(where, key, attrs[key], value))
        inputs, ref_inputs = _inputs(graph, node_id), _inputs(graph_ref, ref_id)
        if [p for p, _ in inputs] != [p for p, _ in ref_inputs]:
            problems.append('{}: input ports {} , reference {}'.format(where, [p for p, _ in inputs],
                                                                       [p for p, _ in ref_inputs]))
            continue
        queue.extend((src, ref_src) for (_, src), (_, ref_src) in zip(inputs, ref_inputs))
    return (not problems), '\n'.join(problems)
