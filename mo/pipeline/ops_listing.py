"""``mo ops``: the op classes an extension can create nodes of (built-in and the user's), with what each writes
to the IR, so that a replacer's author finds e.g. ``Swish`` without reading the source."""
import inspect

from mo.graph.graph import Graph
from mo.ops.op import Op
from mo.utils.import_extensions import load_builtin, load_extensions, split_dirs

HELP = 'list the op classes replacers can create (op name, IR type and opset, module)'


def add_arguments(parser):
    parser.add_argument('--extensions', action='append', default=[], metavar='DIR[,DIR]',
                        help='also list the op classes of these extension directories')
    parser.add_argument('--filter', metavar='TEXT', help='only ops whose name, IR type or module contains TEXT '
                                                         '(case-insensitive)')


def ops_table() -> list:
    """One dict per registered op class, sorted by op name: ``op``, ``type`` and ``version`` of the IR layer its
    nodes become (``-`` for an internal op that a later step rewrites), ``module``, ``class`` and ``summary``."""
    rows = []
    graph = Graph()
    for name, cls in sorted(Op.registered_ops.items()):
        try:
            attrs = cls(graph, {}).attrs  # the class's defaults: type and version
        except Exception:  # noqa: B902 - an op class whose constructor needs attributes: its defaults are unknown
            attrs = {}
        summary = (inspect.getdoc(cls) or '').split('\n\n')[0].replace('\n', ' ')
        rows.append({'op': name, 'type': attrs.get('type') or '-', 'version': attrs.get('version') or '-',
                     'module': cls.__module__, 'class': cls.__qualname__, 'summary': summary})
    return rows


def run(args) -> int:
    load_builtin(with_transforms=False)
    load_extensions(split_dirs(args.extensions), with_transforms=False)
    rows = ops_table()
    if args.filter:
        text = args.filter.lower()
        rows = [r for r in rows if any(text in r[k].lower() for k in ('op', 'type', 'module'))]
    width = max([len(r['op']) for r in rows] + [2])
    print('{}  {:<24} {:<10} {}'.format('op'.ljust(width), 'IR type', 'opset', 'class'))
    for r in rows:
        print('{}  {:<24} {:<10} {}.{}'.format(r['op'].ljust(width), r['type'], r['version'], r['module'], r['class']))
    return 0
