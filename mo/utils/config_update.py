"""``--tensorflow_custom_operations_config_update``: fill in scope descriptions' inputs and outputs."""
import json
import re

from mo.utils.custom_replacement_config import load_config, scope_boundary, scope_nodes
from mo.utils.error import Error
from mo.utils.file_utils import write_text_atomically


def _node_regex(graph, node_id, prefix) -> str:
    name = str(graph.nodes[node_id].get('name', node_id))
    relative = name[len(prefix) + 1:] if name.startswith(prefix + '/') else name
    return re.escape(relative).replace('\\/', '/') + '$'


def update_config(graph, path: str) -> list:
    """Rewrite ``path`` (atomically) with ``inputs``/``outputs`` for each scope description.

    Every other key is kept. A description that matches nothing is an Error naming its id, and
    the file is then left as it was. Returns the ids updated.
    """
    descriptions = load_config(path)
    unmatched, updated = [], []
    for desc in descriptions:
        if desc.match_kind != 'scope':
            continue
        instances = desc.instances or []
        prefix, nodes = scope_nodes(graph, instances[0], desc)
        if not nodes:
            unmatched.append(desc.id)
            continue
        inputs, outputs = scope_boundary(graph, prefix, nodes)
        desc.raw['inputs'] = [[{'node': _node_regex(graph, n, prefix), 'port': p} for n, p in group]
                              for group in inputs]
        desc.raw['outputs'] = [{'node': _node_regex(graph, n, prefix), 'port': p} for n, p in outputs]
        for pattern in instances[1:]:  # the regexes must find exactly one node in every instance
            _, other_nodes = scope_nodes(graph, pattern, desc)
            if not other_nodes:
                unmatched.append('{} (instance "{}")'.format(desc.id, pattern))
        updated.append(desc.id)
    if unmatched:
        raise Error('{}: these descriptions match nothing in the model: {}; the file was not changed', path,
                    ', '.join(unmatched))
    try:
        write_text_atomically(path, json.dumps([d.raw for d in descriptions], indent=4) + '\n')
    except OSError as exc:
        raise Error('Cannot update "{}": {}; the file was not changed', path, exc.strerror or exc) from exc
    return updated
