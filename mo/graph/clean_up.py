"""Dead-code removal of a ``Graph`` (``Graph.clean_up`` and ``Graph.clean_up_after`` call these).

Whatever no output needs is removed: nodes are walked backwards from the Results and the nodes marked as outputs
or ``undead``. A constant data node read by something but written by nothing gets a Const op, as the Model
Optimizer's clean-up gave it. ``clean_up_after`` does the same for a graph that was clean before some edits,
looking only around the edited nodes.
"""
import logging as log
import re
from collections import deque


def clean_up(graph, undead_node_types: list = ('Parameter',)):
    """Remove every node that no output (Result, or a node marked ``undead``) needs, and give a constant
    data node that has consumers but no producer a Const op (the Model Optimizer's clean-up did both).

    Walks backwards from the outputs, over data and control edges; what is not reached is
    dead code. Model inputs (Parameter) stay even when unused, so the model keeps its
    signature. A graph with no outputs at all is left alone. Returns the number removed.
    """
    # outputs and undead types come from the op/type index; only the flags need a scan
    index = graph._index
    roots = set(index['op'].get('Result', ())) | set(index['type'].get('Result', ()))
    for op in set(undead_node_types or ()):
        roots.update(index['op'].get(op, ()))
    orphans = []
    for n, d in graph._node.items():
        if d.get('is_output') or d.get('keep_output_port') or d.get('undead'):
            roots.add(n)
        if d.get('kind') == 'data' and not graph._pred[n] and graph._succ[n] and d.get('value') is not None:
            orphans.append(n)
    if orphans:
        add_const_producers(graph, orphans)
    if not roots:
        log.debug('clean_up: the graph has no outputs; nothing removed')
        return 0
    alive = set(roots)
    queue = deque(roots)
    pred = graph._pred
    while queue:
        node_id = queue.popleft()
        for src in pred[node_id]:
            if src not in alive:
                alive.add(src)
                queue.append(src)
    dead = [n for n in graph._node if n not in alive]
    if dead:
        log.debug('clean_up removes {} nodes'.format(len(dead)))
        graph.remove_nodes_from(dead)
    graph.clean_version = graph.version
    return len(dead)


def add_const_producers(graph, data_ids):
    """Give each constant data node that has consumers but no producer a Const op writing it, as the
    Model Optimizer's clean-up did (``add_constant_operations``): the IR has no data without a layer."""
    factory = type(graph).const_node_factory
    if factory is None:
        return
    for data_id in data_ids:
        data = graph._node[data_id]
        name = re.sub(r'/Output_\d+/Data_(.?)+', '', str(data.get('name', data_id)))
        attrs = {'value': data['value'], 'name': name}
        for key in ('force_shape', 'force_type', 'correct_data_type', 'rt_info'):
            if data.get(key) is not None:
                attrs[key] = data[key]
        if data.get('force_shape') is not None:
            attrs['override_output_shape'] = True
        const = factory(graph, attrs)
        if const is not None:
            graph.add_edge(const.id, data_id, out=0)


def clean_up_after(graph, edited, undead_node_types: list = ('Parameter',)):
    """``clean_up`` for a graph that was clean before the edits to the nodes in ``edited``
    (a ``track_edits`` set): removes what became dead code, looking only around those nodes.

    In an acyclic graph whose nodes all reached an output, every node the edits cut off
    leads to a node that lost its last consumer (or is new) and is now read by nothing; so
    removing such unread non-output nodes, and then their producers as they become unread,
    removes exactly what ``clean_up`` would. Falls back to ``clean_up`` when the graph was
    not clean before or has no Result.
    """
    index = graph._index
    if graph.clean_version is None or not (index['op'].get('Result') or index['type'].get('Result')):
        return clean_up(graph, undead_node_types)
    undead = set(undead_node_types or ())
    nodes, succ, pred = graph._node, graph._succ, graph._pred

    def needed(node_id):
        data = nodes[node_id]
        return (succ[node_id] or data.get('op') == 'Result' or data.get('type') == 'Result' or
                data.get('op') in undead or data.get('is_output') or data.get('keep_output_port') or
                data.get('undead'))

    # only the edited nodes read by nothing can start a removal (a node still read becomes a candidate when
    # its last reader goes: it is then pushed as a producer); in the graph's insertion order, so the removals
    # are the same whatever the hash seed. A whole-graph step edits most nodes: the sort is of the few.
    # (a node something reads, nearly every edited one, is told apart before the call to ``needed``)
    work = sorted((n for n in edited if not succ.get(n, True) and not needed(n)), key=graph._rank)
    removed = 0
    while work:
        node_id = work.pop()
        if node_id not in nodes or needed(node_id):
            continue
        producers = list(pred[node_id])
        graph.remove_node(node_id)
        removed += 1
        work.extend(producers)
    if removed:
        log.debug('clean_up removes {} nodes'.format(removed))
    graph.clean_version = graph.version
    return removed
