"""``--tensorflow_custom_operations_config_update``: fill in scope descriptions' inputs and outputs.

For each ``scope`` description the sub-graph of the first instance gives the input tensors (one
list per unique tensor, each consumer with its port) and the output tensors; every node is named
by a regex of its name below the instance's scope that finds exactly that node in *every*
instance. All other keys (and the other descriptions) are kept as they are. The file is
rewritten in one rename, and only when every description could be updated.
"""
import json
import os
import re

from mo.utils.custom_replacement_config import load_config, points_match, scope_boundary, scope_nodes
from mo.utils.error import Error
from mo.utils.file_utils import atomic_output


def _relative(graph, node_id, prefix) -> str:
    name = str(graph.nodes[node_id].get('name', node_id))
    return name[len(prefix) + 1:] if name.startswith(prefix + '/') else name


def _matches(regex: str, names) -> list:
    compiled = re.compile(regex)
    return [n for n in names if compiled.search(n)]


def _node_regex(relative: str, instance_names: list) -> str:
    """The shortest of ``NAME$`` / ``^NAME$`` that finds one node in each instance's names."""
    for regex in (re.escape(relative) + '$', '^' + re.escape(relative) + '$'):
        if all(len(_matches(regex, names)) == 1 for names in instance_names):
            return regex
    return '^' + re.escape(relative) + '$'


def _update_scope(graph, desc) -> list:
    """Set ``inputs``/``outputs`` of one scope description; returns problems (empty when done)."""
    instances = desc.instances or []
    scopes = []
    problems = []
    for i, pattern in enumerate(instances):
        prefix, nodes = scope_nodes(graph, pattern, desc)
        if not nodes:
            problems.append('instances[{}] "{}" matches no node'.format(i, pattern))
            continue
        scopes.append((i, pattern, prefix, nodes))
    if problems:
        return problems
    _, _, prefix, nodes = scopes[0]
    inputs, outputs = scope_boundary(graph, prefix, nodes)
    names = [[_relative(graph, n, p) for n in ns] for _, _, p, ns in scopes]
    regex_of = {}
    for node_id in {n for group in inputs for n, _ in group} | {n for n, _ in outputs}:
        relative = _relative(graph, node_id, prefix)
        regex = _node_regex(relative, names)
        for (i, pattern, _, _), instance_names in zip(scopes, names):
            found = len(_matches(regex, instance_names))
            if found != 1:
                problems.append('instances[{}] "{}" has {} nodes matching "{}" (the boundary node "{}" of '
                                'instance 0)'.format(i, pattern, found, regex, relative))
        regex_of[node_id] = regex
    if problems:
        return problems
    desc.raw['inputs'] = [[{'node': regex_of[n], 'port': p} for n, p in group] for group in inputs]
    desc.raw['outputs'] = [{'node': regex_of[n], 'port': p} for n, p in outputs]
    return []


def update_config(graph, path: str) -> list:
    """Rewrite ``path`` (atomically) with ``inputs``/``outputs`` for each scope description.

    Every other key is kept. A description that matches nothing is an Error naming its id, and
    the file is then left as it was. Points descriptions are checked (their points must exist
    and enclose a sub-graph) but have nothing to fill in. Returns the ids updated.
    """
    descriptions = load_config(path)
    # a rename would replace even a read-only file; a file marked read-only is not ours to change
    if not os.access(path, os.W_OK) or not os.stat(path).st_mode & 0o222:
        raise Error('Cannot update "{}": the file is not writable; it was not changed', path)
    problems, updated = [], []
    for desc in descriptions:
        if desc.match_kind == 'scope':
            found = _update_scope(graph, desc)
            if found:
                problems.append('"{}": {}'.format(desc.id, '; '.join(found)))
            else:
                updated.append(desc.id)
        elif desc.match_kind == 'points':
            try:
                points_match(graph, desc)
            except Error as exc:
                problems.append('"{}": {}'.format(desc.id, exc))
    if problems:
        raise Error('{}: these descriptions match nothing usable in the model: {}; the file was not changed',
                    path, ' | '.join(problems))
    text = json.dumps([d.raw for d in descriptions], indent=4, ensure_ascii=False) + '\n'
    mode = os.stat(path).st_mode & 0o7777
    try:
        with atomic_output(path, 'wb') as handle:
            os.chmod(handle.fileno(), mode)  # the rewritten file keeps the original's permissions
            handle.write(text.encode('utf-8'))
    except OSError as exc:
        raise Error('Cannot update "{}": {}; the file was not changed', path, exc.strerror or exc) from exc
    return updated
