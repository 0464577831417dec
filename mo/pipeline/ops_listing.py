"""``mo ops``: the op classes an extension can create nodes of (built-in and the user's), with what each writes
to the IR, so that a replacer's author finds e.g. ``Swish`` without reading the source."""
import inspect

from mo.graph.graph import Graph
from mo.ops.op import Op
from mo.utils.import_extensions import load_builtin, load_extensions, split_dirs

HELP = 'list the op classes replacers can create (op name, IR type and opset, inputs, IR attributes, module)'


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
                     'inputs': _inputs(attrs), 'attributes': _ir_attributes(cls, graph, attrs),
                     'module': cls.__module__, 'class': cls.__qualname__, 'summary': summary})
    return rows


def _inputs(attrs: dict) -> str:
    """How many inputs the op takes, as its class declares (``-`` when it does not say)."""
    count = attrs.get('in_ports_count')
    return str(count) if count is not None else '-'


def _ir_attributes(cls, graph, attrs: dict) -> list:
    """The names of the attributes the op writes to the IR's ``<data>`` element."""
    try:
        declared = cls(graph, dict(attrs)).supported_attrs()
    except Exception:  # noqa: B902 - a class whose attribute list needs a node: none shown
        return []
    return [item[0] if isinstance(item, (tuple, list)) else str(item) for item in declared or ()]


def run(args) -> int:
    load_builtin(with_transforms=False)
    load_extensions(split_dirs(args.extensions), with_transforms=False)
    rows = ops_table()
    if args.filter:
        text = args.filter.lower()
        rows = [r for r in rows if any(text in r[k].lower() for k in ('op', 'type', 'module'))]
    width = max([len(r['op']) for r in rows] + [2])
    print('{}  {:<24} {:<10} {:<6} {}'.format('op'.ljust(width), 'IR type', 'opset', 'inputs', 'class'))
    for r in rows:
        print('{}  {:<24} {:<10} {:<6} {}.{}'.format(r['op'].ljust(width), r['type'], r['version'], r['inputs'],
                                                    r['module'], r['class']))
        if r['attributes']:
            print('{}  attributes: {}'.format(' ' * width, ', '.join(r['attributes'])))
    return 0
