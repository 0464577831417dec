"""JSON-configured sub-graph replacements: reading, validating and matching the descriptions.

A ``--transformations_config`` file is a list of descriptions (``id``, ``match_kind`` of
``scope``/``points``/``general``, ``instances``, optional ``inputs``/``outputs``,
``custom_attributes``, ``op``). They are validated against ``configs/transformations_config
.schema.json`` and every problem is reported with its JSON path.
"""
import json
import os
import re
from collections import deque

from mo.front.subgraph_matcher import SubgraphMatch
from mo.utils.error import Error
from mo.utils.json_schema import validate

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           'configs', 'transformations_config.schema.json')


def _schema() -> dict:
    # configs/ sits beside the packages: an editable install (the documented one) finds it
    try:
        with open(SCHEMA_PATH, encoding='utf-8') as handle:
            return json.load(handle)
    except OSError as exc:
        raise Error('The config schema {} is missing ({}); install mo from its source tree with '
                    '"pip install -e ."', SCHEMA_PATH, exc.strerror or exc) from None


class ReplacementDescription:
    """One description of a config file; ``raw`` keeps every key for a faithful update."""

    def __init__(self, raw: dict, source: str, index: int):
        self.raw = raw
        self.source = source
        self.index = index

    id = property(lambda self: self.raw['id'])
    match_kind = property(lambda self: self.raw['match_kind'])
    instances = property(lambda self: self.raw.get('instances'))
    custom_attributes = property(lambda self: self.raw.get('custom_attributes', {}))
    op = property(lambda self: self.raw.get('op'))

    def where(self) -> str:
        return '{} [{}] (id "{}")'.format(self.source, self.index, self.id)

    # ----- matching ----------------------------------------------------------------------
    def matches(self, graph) -> list:
        """The ``SubgraphMatch`` of every instance (scope and points descriptions)."""
        if self.match_kind == 'scope':
            return [self._scope_match(graph, pattern) for pattern in self.instances or []]
        if self.match_kind == 'points':
            return [points_match(graph, self)]
        return []

    def _scope_match(self, graph, pattern: str):
        prefix, nodes = scope_nodes(graph, pattern, self)
        if not nodes:
            raise Error('{}: the scope "{}" matches no node', self.where(), pattern)
        inputs = self.raw.get('inputs')
        outputs = self.raw.get('outputs')
        if inputs is None or outputs is None:
            inputs, outputs = scope_boundary(graph, prefix, nodes)
            inputs_order = [[(n, p) for n, p in group] for group in inputs]
            outputs_order = list(outputs)
        else:
            by_relative = {_relative(graph, n, prefix): n for n in nodes}
            inputs_order = [[(_find_in_scope(by_relative, item['node'], prefix, self), item['port']) for item in group]
                            for group in inputs]
            outputs_order = [(_find_in_scope(by_relative, item['node'], prefix, self), item['port'])
                             for item in outputs]
        return SubgraphMatch(graph, self, nodes, inputs_order, outputs_order, prefix)


def _relative(graph, node_id, prefix):
    name = str(graph.nodes[node_id].get('name', node_id))
    return name[len(prefix) + 1:] if name.startswith(prefix + '/') else name


def _find_in_scope(by_relative: dict, regex: str, prefix: str, desc):
    compiled = re.compile(regex)
    found = sorted(n for rel, n in by_relative.items() if compiled.search(rel))
    if len(found) != 1:
        raise Error('{}: "{}" matches {} nodes in scope "{}" where one was expected{}', desc.where(), regex,
                    len(found), prefix, ': ' + ', '.join(found[:4]) if found else '')
    return found[0]


def scope_nodes(graph, pattern: str, desc=None):
    """``(prefix, [node ids])`` of the op nodes under the one scope that regex ``pattern`` names."""
    try:
        regex = re.compile('(?:{})/'.format(pattern))
    except re.error as exc:
        raise Error('{}: bad scope regex "{}": {}', desc.where() if desc else '--transformations_config', pattern,
                    exc) from None
    prefixes, nodes = {}, []
    for node_id, data in graph.nodes(data=True):
        if data.get('kind') != 'op' or data.get('op') == 'Result':
            continue  # a Result is mo's, named after the tensor it reads, not part of any scope
        name = str(data.get('name', node_id))
        match = regex.match(name)
        if match:
            prefixes.setdefault(match.group(0)[:-1], 0)
            prefixes[match.group(0)[:-1]] += 1
            nodes.append(node_id)
    if len(prefixes) > 1:
        raise Error('{}: the scope regex "{}" is ambiguous: it matches the scopes {}',
                    desc.where() if desc else '--transformations_config', pattern,
                    ', '.join('"{}"'.format(p) for p in sorted(prefixes)),
                    hint='anchor it, e.g. "{}$"-style, so that it names one scope per instance'.format(pattern))
    return (next(iter(prefixes)) if prefixes else pattern), nodes + _scopeless_constants(graph, nodes)


def _is_scopeless_constant(data: dict) -> bool:
    """A constant that the reader made from a tensor that is no node of the framework's graph (an ONNX
    initializer: ``pb`` None). Its name is the exporter's parameter name (PyTorch: ``head.cls.weight``), not a
    node name under a scope; TensorFlow's constants are nodes with names of their own."""
    return data.get('op') == 'Const' and 'pb' in data and data['pb'] is None


def _scopeless_constants(graph, nodes: list) -> list:
    """The scopeless constants that only nodes of the scope read: they belong to it, as a module's weights do."""
    if not nodes:
        return []
    inside = set(nodes)
    adopted = []
    for node_id, data in graph.nodes(data=True):
        if node_id in inside or data.get('kind') != 'op' or not _is_scopeless_constant(data):
            continue
        consumers = set(graph.successors(node_id))
        if consumers and consumers <= inside:
            adopted.append(node_id)
    return adopted


def scope_boundary(graph, prefix, nodes):
    """The sub-graph's input tensors (grouped consumers) and output tensors, deterministically ordered."""
    inside = set(nodes)
    order = {n: i for i, n in enumerate(graph.nodes)}
    groups = {}
    outputs = []
    for node_id in sorted(nodes, key=order.get):
        for src, _, data in graph.in_edges(node_id, data=True):
            if src in inside or data.get('control_flow_edge'):
                continue
            groups.setdefault((src, data.get('out', 0)), []).append((node_id, data.get('in', 0)))
        ports = {}
        for _, dst, data in graph.out_edges(node_id, data=True):
            if data.get('control_flow_edge'):
                continue
            ports.setdefault(data.get('out', 0), []).append(dst)
        for port, consumers in sorted(ports.items()):
            if any(dst not in inside for dst in consumers):
                outputs.append((node_id, port))
        if not ports and graph.nodes[node_id].get('op') not in ('Const', 'NoOp'):
            outputs.append((node_id, 0))
    inputs = [sorted(consumers, key=lambda c: (_relative(graph, c[0], prefix), c[1]))
              for _, consumers in sorted(groups.items(), key=lambda item: (order[item[0][0]], item[0][1]))]
    return inputs, outputs


def points_match(graph, desc) -> SubgraphMatch:
    """The sub-graph between ``start_points`` and ``end_points`` (the seeds' four-step algorithm)."""
    instances = desc.instances or {}
    starts = [_node_named(graph, name, desc, 'start_points', i)[0]
              for i, name in enumerate(instances['start_points'])]
    end_ports = [_node_named(graph, name, desc, 'end_points', i) for i, name in enumerate(instances['end_points'])]
    ends = [node_id for node_id, _ in end_ports]
    end_set, start_set = set(ends), set(starts)
    # 1. forward from the start points, stopping at end points
    visited = set(starts)
    queue = deque(starts)
    while queue:
        node_id = queue.popleft()
        if node_id in end_set:
            continue
        for succ in graph.successors(node_id):
            if succ not in visited and graph.nodes[succ].get('op') != 'Result':
                visited.add(succ)
                queue.append(succ)
    # 3. every end point must have been reached
    for i, end in enumerate(ends):
        if end not in visited:
            raise Error('{}: end point instances.end_points[{}] "{}" is not reachable from the start points {}',
                        desc.where(), i, end, ', '.join('"{}"'.format(s) for s in starts))
    # 2. backward from every non-start node for the (constant) values they need; remember the path
    came_from = {}
    queue = deque(n for n in sorted(visited) if n not in start_set)
    while queue:
        node_id = queue.popleft()
        if node_id in start_set:
            continue
        for pred in graph.predecessors(node_id):
            if pred not in visited:
                visited.add(pred)
                came_from[pred] = node_id
                queue.append(pred)
    # 4. nothing may depend on a model input
    for node_id in sorted(visited):
        if graph.nodes[node_id].get('op') in ('Parameter', 'Placeholder') and node_id not in start_set:
            path = [node_id]
            while path[-1] in came_from:
                path.append(came_from[path[-1]])
            raise Error('{}: the sub-graph reaches the model input "{}" by {}; a start point is missing there',
                        desc.where(), node_id, ' -> '.join(path))
    order = {n: i for i, n in enumerate(graph.nodes)}
    nodes = sorted(visited, key=order.get)
    inputs_order = [[(start, 0)] for start in starts]
    outputs_order = list(end_ports)
    return SubgraphMatch(graph, desc, nodes, inputs_order, outputs_order, '')


def _node_named(graph, name, desc, key, index):
    """``(node id, output port)`` of what a point names: a node (port 0), else a tensor (ONNX ``Conv_output_0``,
    TF ``name:1``) by the tensor names on the output ports, else ``node:port``. A tensor stands for the node that
    produces it, as an unnamed ONNX node is named after its first output."""
    node = graph.get_node_by_name(name)
    if node is not None:
        return node.id, 0
    for node_id, data in graph.nodes(data=True):
        for port, record in (data.get('_out_ports') or {}).items():
            if data.get('kind') == 'op' and name in ((record or {}).get('tensor_names') or ()):
                return node_id, port
    node_name, _, port = name.rpartition(':')
    node = graph.get_node_by_name(node_name) if node_name and port.isdigit() else None
    if node is not None:
        return node.id, int(port)
    raise Error('{}: instances.{}[{}] names node "{}", which is not in the model (no node or tensor has that name)',
                desc.where(), key, index, name)


# ----- reading ---------------------------------------------------------------------------------
def load_config(path: str) -> list:
    """The descriptions of one config file; an Error with the file, JSON path and problem otherwise."""
    try:
        with open(path, encoding='utf-8') as handle:
            text = handle.read()
    except OSError as exc:
        raise Error('Cannot read the transformations config "{}": {}', path, exc.strerror or exc) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Error('{} is not valid JSON: {} at line {}, column {}', path, exc.msg, exc.lineno, exc.colno) from None
    problems = validate(data, _schema())
    if isinstance(data, list):
        for i, item in enumerate(data):
            if not isinstance(item, dict):
                continue
            kind = item.get('match_kind')
            if kind in ('scope', 'points') and 'instances' not in item:
                problems.append(('[{}]'.format(i), 'is missing "instances" (needed for match_kind "{}")'.format(kind)))
            elif kind in ('scope', 'points'):
                sub = '#/definitions/{}_instances'.format(kind)
                problems.extend(validate(item['instances'], {'$ref': sub}, _schema(), '[{}].instances'.format(i)))
            problems.extend(_regex_problems(item, i))
    if problems:
        raise Error('{}: {}', path, '; '.join('{} {}'.format(where, what) for where, what in problems))
    ids = {}
    for i, item in enumerate(data):
        if item['id'] in ids:
            raise Error('{}: [{}].id "{}" repeats [{}].id', path, i, item['id'], ids[item['id']])
        ids[item['id']] = i
    return [ReplacementDescription(item, path, i) for i, item in enumerate(data)]


def load_and_validate_json_config(config_file_name: str) -> list:
    """The Model Optimizer's reader: the file's descriptions as plain dicts (the JSON items), after
    the same checks as ``--transformations_config`` makes; an Error names the file and problem."""
    return [dict(desc.raw) for desc in load_config(config_file_name)]


def _regex_problems(item: dict, index: int) -> list:
    """``(json_path, message)`` for every scope or node regex of a description that does not compile."""
    candidates = []
    if item.get('match_kind') == 'scope' and isinstance(item.get('instances'), list):
        candidates += [('[{}].instances[{}]'.format(index, j), p) for j, p in enumerate(item['instances'])]
    for j, group in enumerate(item.get('inputs') or []):
        for k, port in enumerate(group if isinstance(group, list) else []):
            if isinstance(port, dict):
                candidates.append(('[{}].inputs[{}][{}].node'.format(index, j, k), port.get('node')))
    for j, port in enumerate(item.get('outputs') or []):
        if isinstance(port, dict):
            candidates.append(('[{}].outputs[{}].node'.format(index, j), port.get('node')))
    problems = []
    for where, pattern in candidates:
        if not isinstance(pattern, str):
            continue
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append((where, 'is not a valid regular expression ({})'.format(exc)))
    return problems


def load_configs(paths) -> list:
    """The descriptions of several config files; an id may appear in only one of them."""
    descriptions, seen = [], {}
    for path in paths:
        for desc in load_config(path):
            if desc.id in seen:
                raise Error('{}: [{}].id "{}" is also the id of {}', path, desc.index, desc.id, seen[desc.id].where())
            seen[desc.id] = desc
            descriptions.append(desc)
    return descriptions


def descriptions_of(graph, replacement_id: str) -> list:
    """The loaded descriptions whose id is ``replacement_id``."""
    return [d for d in graph.graph.get('custom_replacement_descriptions', []) if d.id == replacement_id]
