"""Running the ordered replacers on a graph: each step on the model's graph and every body graph in it,
clean-up after steps that changed something, and the record of what each step did (``--report``)."""
import logging as log
import sys
import time
from contextlib import nullcontext

from mo.graph.author_view import author_call, is_author_code
from mo.middle.partial_infer import reinfer_marked_nodes
from mo.utils.class_registration import class_id, full_name
from mo.utils.error import Error, FrameworkError
from mo.utils.extension_check import warn_if_unmatched


def _graphs_recursively(graph):
    yield graph
    # from the graph's index: this runs for every replacer, and most graphs own no bodies
    for data in [graph.node_attrs(n) for n in graph.nodes_with_sub_graphs()]:
        for attr in data['sub_graphs']:
            sub = data.get(attr)
            if sub is not None:
                yield from _graphs_recursively(sub)


def _authors_call(cls):
    """An author's replacer reads shapes in the Model Optimizer's masked form (``mo.graph.author_view``)."""
    return author_call() if is_author_code(cls) else nullcontext()


class StepRecord(dict):
    """One line of the run report: id, class, phase, seconds, matches, nodes before/after."""


def run_replacer(graph, cls, report: list = None, history: list = None, instance=None):
    """Run one replacer class (or a prepared ``instance`` of it) on ``graph`` and its sub-graphs."""
    instance = instance if instance is not None else cls()
    conditions = list(getattr(instance, 'graph_condition', None) or [])
    record = StepRecord(id=getattr(instance, 'report_id', None) or class_id(cls) or cls.__name__,
                        cls=full_name(cls), phase=cls.phase)
    if not all(condition(graph) for condition in conditions):
        record.update(skipped='graph_condition', seconds=0.0, matches=0,
                      nodes_before=graph.number_of_nodes(), nodes_after=graph.number_of_nodes())
        if report is not None:
            report.append(record)
        return
    instance.match_count = 0
    instance.rejections = []
    nodes_before = graph.number_of_nodes()
    version_before = graph.version
    was_clean = graph.clean_version == version_before
    start = time.perf_counter()
    # the edits are collected for clean_up_after only (and for a caller's own tracking): a loader that adds a whole
    # model and cleans nothing up would fill a set of a million ids for nothing
    track = graph.edited is not None or (getattr(instance, 'auto_clean_up', True) and not instance.force_clean_up)
    try:
        with graph.track_edits() if track else nullcontext() as edited, _authors_call(cls):
            if instance.run_not_recursively:
                instance.find_and_replace_pattern(graph)
            else:
                for sub in _graphs_recursively(graph):
                    sub_version = sub.version
                    instance.find_and_replace_pattern(sub)
                    # a body is cleaned as the main graph is below, before its own bodies are visited
                    if sub is not graph and (instance.force_clean_up or (
                            getattr(instance, 'auto_clean_up', True) and sub.version != sub_version)):
                        sub.clean_up()
            if instance.force_shape_inference:
                reinfer_marked_nodes(graph)
        # a replacement leaves what it replaced for clean-up to remove, so clean when anything changed
        if instance.force_clean_up:
            graph.clean_up()
        elif getattr(instance, 'auto_clean_up', True) and graph.version != version_before:
            # clean before: only the surroundings of this replacer's edits can hold dead code
            graph.clean_up_after(edited) if was_clean else graph.clean_up()
    except Error as exc:
        if not getattr(exc, 'replacer', None):
            exc.replacer = full_name(cls)
        raise
    except Exception as exc:
        ran = history or []
        recent = ', '.join(ran[-5:]) if ran else 'none'
        module = sys.modules.get(cls.__module__)
        where = ' in {}'.format(module.__file__) if getattr(module, '__file__', None) else ''
        raise FrameworkError(
            'Replacer {} ({}{}) raised {}: {}. {} replacers ran before it (last: {}).',
            record['id'], full_name(cls), where, type(exc).__name__, exc, len(ran), recent,
            hint='Run with --log_level=DEBUG for the traceback; if the replacer is an extension of yours, '
                 'the bug is in it.') from exc
    warn_if_unmatched(graph, cls, instance)
    record.update(seconds=time.perf_counter() - start, matches=getattr(instance, 'match_count', 0),
                  nodes_before=nodes_before, nodes_after=graph.number_of_nodes())
    if instance.rejections:
        record['rejected'] = [{'node': name, 'reason': reason} for name, reason in instance.rejections]
    if report is not None:
        report.append(record)
    log.debug('[ mo ] ran {} in {:.4f}s: {} matches, {} -> {} nodes'.format(
        record['id'], record['seconds'], record['matches'], nodes_before, record['nodes_after']))


def apply_replacements(graph, infos, report: list = None, after_step=None):
    """Run every enabled replacer of ``infos`` (a ``pipeline()`` result) on ``graph`` in order;
    ``after_step(info, graph)``, when given, is called after each one."""
    history = []
    for info in infos:
        if not info.enabled:
            continue
        run_replacer(graph, info.cls, report, history)
        history.append(info.id)
        if after_step is not None:
            after_step(info, graph)
    return graph
