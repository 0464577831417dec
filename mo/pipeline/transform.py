"""``mo transform``: the Graph Transform Tool. GraphDef in, transforms in the order given, GraphDef out."""
import argparse
import difflib
import logging as log
import os
import time

from mo.front.common.input_spec import split_port
from mo.graph.graph import Graph
from mo.transforms.base import TransformContext, find_transform, transforms_by_name
from mo.transforms.transform_string import parse_transforms
from mo.pipeline.runner import run_replacer
from mo.utils.error import Error, UsageError
from mo.utils.import_extensions import load_builtin, load_extensions, split_dirs
from mo.front.tf.model_source import add_source_arguments
from mo.back.tf.graphdef_writer import graph_to_graph_def, write_graph
from mo.front.tf.graphdef_io import parse_graph_def_bytes
from mo.front.tf.loader import graph_def_to_graph
from mo.pipeline.report import write_report
from mo.pipeline.tool_model import ToolModel

HELP = "apply Graph Transform Tool transforms to a GraphDef (TensorFlow's transform_graph)"


def transforms_help(width: int = 79) -> str:
    """``mo transform --help``'s list of the transforms: each with its arguments, what it does, and
    where it deliberately differs from TensorFlow's tool (``GraphTransform.differences``)."""
    import textwrap
    load_builtin(with_converter=False)
    lines = ['transforms (TensorFlow\'s names; every one also takes ignore_errors=true|false):', '']
    for name, cls in sorted(transforms_by_name().items()):
        lines.append('  {}{}'.format(name, '({})'.format(', '.join(cls.arguments)) if cls.arguments else ''))
        summary = ' '.join((cls.__doc__ or '').strip().split('\n\n')[0].split()).replace('``', '')
        lines.extend(textwrap.wrap(summary, width, initial_indent=' ' * 6, subsequent_indent=' ' * 6,
                                   break_on_hyphens=False))
        if cls.differences:
            lines.extend(textwrap.wrap('Differs from TensorFlow\'s tool: ' + cls.differences, width,
                                       initial_indent=' ' * 6, subsequent_indent=' ' * 8, break_on_hyphens=False))
    return '\n'.join(lines)


def add_arguments(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog_factory = transforms_help
    parser.add_argument('--in_graph', required=True, help='input GraphDef (.pb binary or .pbtxt text), or a SavedModel '
                                                          'directory, a .meta file, ... (frozen first)')
    parser.add_argument('--out_graph', required=True, help='where to write the transformed GraphDef')
    parser.add_argument('--inputs', default='', help='input node names, comma-separated')
    parser.add_argument('--outputs', default='', help='output node names, comma-separated')
    parser.add_argument('--transforms', required=True, help='the transforms to apply, in order')
    parser.add_argument('--output_as_text', action='store_true', help='write a text (.pbtxt) GraphDef')
    parser.add_argument('--extensions', action='append', default=[], metavar='DIR[,DIR]',
                        help='directories with extra transforms')
    parser.add_argument('--report', metavar='FILE', help='write a JSON report of every transform run')
    parser.add_argument('--silent', action='store_true', help='print nothing but errors')
    add_source_arguments(parser)  # a SavedModel or checkpoint is transformed frozen


def _names(value: str) -> list:
    return [item.strip() for item in (value or '').split(',') if item.strip()]


def check_node_names(graph: Graph, names, option: str):
    """An error, with close matches, for any ``--inputs``/``--outputs`` name not in the graph."""
    for name in names:
        node_name = split_port(name.lstrip('^'))[0]
        if node_name not in graph:
            close = difflib.get_close_matches(node_name, [str(n) for n in graph.nodes], n=3)
            raise UsageError('{}: the graph has no node "{}"', option, node_name,
                             hint='did you mean {}?'.format(', '.join('"{}"'.format(c) for c in close))
                             if close else None)


def transform_graph(graph: Graph, inputs, outputs, transforms: str, report: list = None, reload=None) -> Graph:
    """Apply ``transforms`` (a --transforms string) to a loaded GraphDef graph, in order.

    A transform given ``ignore_errors=true`` that fails is skipped: the graph goes back to what it
    was before it. ``reload``, a function that loads the input graph afresh, makes that free until
    it happens (the graph is then reloaded and the transforms that had succeeded run again);
    without it, the graph is serialized before each such transform.
    """
    calls = parse_transforms(transforms)
    if not calls:
        raise UsageError('--transforms names no transform')
    classes = [(call, find_transform(call.name)) for call in calls]  # every name checked before any runs
    _set_io(graph, inputs, outputs)
    done = []
    for call, cls in classes:
        context = TransformContext(inputs, outputs, call.params, call.name)
        ignore_errors = context.get_bool('ignore_errors', False)
        context.check_known(cls.arguments)
        backup = _serialize(graph) if ignore_errors and reload is None else None
        try:
            _run_transform(graph, cls, context, report)
        except Error as exc:
            if not ignore_errors:
                raise Error('{}: {}', call.name, exc, hint=exc.hint) from exc
            log.warning('{} failed and was skipped (ignore_errors=true): {}'.format(call.name, exc))
            graph = _restore(graph, backup) if reload is None else _replay(reload, done, inputs, outputs)
            continue
        done.append((cls, context))
    return graph


def _set_io(graph, inputs, outputs):
    graph.graph.setdefault('cmd_params', {}).update(inputs=list(inputs), outputs=list(outputs))


def _run_transform(graph, cls, context, report):
    # the common runner gives timing, the report and error context, as in convert
    run_replacer(graph, cls, report, instance=cls(context))
    if not cls.keeps_versions:
        drop_graph_records(graph)


def _replay(reload, done, inputs, outputs) -> Graph:
    """The input graph loaded afresh with the transforms in ``done`` applied again (quietly: their
    warnings were given the first time)."""
    graph = reload()
    _set_io(graph, inputs, outputs)
    quiet = log.root.manager.disable
    log.disable(log.WARNING)
    try:
        for cls, context in done:
            _run_transform(graph, cls, context, None)
    finally:
        log.disable(quiet)
    return graph


def drop_graph_records(graph) -> None:
    """Forget the GraphDef's ``versions``, deprecated ``version`` and debug info, as a TensorFlow
    transform does (its output is a new GraphDef with the nodes and the function library only)."""
    graph.graph['tf_versions'] = graph.graph['tf_debug_info'] = None
    graph.graph['tf_graph_version'] = 0


def _serialize(graph):
    return graph_to_graph_def(graph).SerializeToString(deterministic=True)


def _restore(graph, data):
    restored = Graph()
    restored.graph.update({k: v for k, v in graph.graph.items() if k == 'cmd_params'})
    return graph_def_to_graph(parse_graph_def_bytes(data), restored)


def run(args) -> int:
    start = time.perf_counter()
    load_extensions(split_dirs(args.extensions), with_converter=False)
    parse_transforms(args.transforms)  # a malformed string fails before the model is read
    inputs, outputs = _names(args.inputs), _names(args.outputs)
    model = ToolModel(args.in_graph, args, outputs)
    if model.frozen:
        # a SavedModel's or checkpoint's signature gives the inputs and outputs the user did not
        inputs, outputs = inputs or model.inputs, outputs or model.outputs
        log.info('[ mo ] {} frozen, its function calls inlined; inputs {}, outputs {}'.format(
            args.in_graph, ','.join(inputs), ','.join(outputs)))
    load = model.load
    graph = load()
    check_node_names(graph, inputs, '--inputs')
    check_node_names(graph, outputs, '--outputs')
    report = []
    graph = transform_graph(graph, inputs, outputs, args.transforms, report, reload=load)
    write_graph(graph, args.out_graph, as_text=args.output_as_text)
    if args.report:
        write_report(args.report, report, {'seconds': round(time.perf_counter() - start, 6),
                                           'nodes': graph.number_of_nodes(), 'out_graph': args.out_graph})
    if not args.silent:
        print('[ SUCCESS ] {} transform(s) applied in {:.2f} s: {} nodes written to {}'.format(
            len(report), time.perf_counter() - start, graph.number_of_nodes(), os.path.abspath(args.out_graph)))
    return 0
