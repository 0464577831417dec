"""Front extractors: one class per framework op type, turning a loaded node into an mo op.

``class Conv2DExtractor(FrontExtractorOp): op = 'Conv2D'`` with ``extract(cls, node)`` reads the
framework attributes of ``node`` (for TensorFlow, ``tf_attrs(node)``) and gives the node an mo
op through ``SomeOp.update_node_stat(node, attrs)``. A user's extractor for an op type takes
over from the built-in one. The extraction step reports every op type that no extractor knows
in one error.
"""
import importlib
import logging as log

from mo.front.frameworks import folder_framework
from mo.utils.class_registration import is_builtin
from mo.graph.graph import Graph
from mo.utils.error import Error
from mo.compat.helpers_hook import legacy_helper_names


#: where docs/extensions.md shows an extractor and an op class; tests/extensions_tutorial checks the anchor exists
EXTENSIONS_TUTORIAL = 'docs/extensions.md#unsupported-ops-an-extractor-and-an-op-class'


def unsupported_op_hint(op_type: str, folder: str) -> str:
    """The hint of the error about ops no extractor knows: what to write, where, and the tutorial that shows it."""
    return ('write an extractor (a class with op = {!r} and extract(node), in the {} folder of an --extensions '
            'directory) and an op class for the IR layer (in its ops/ folder): {}; or cut the ops off with '
            '--input/--output').format(op_type, folder, EXTENSIONS_TUTORIAL)


def unknown_ops_error(unknown: dict, framework: str):
    """One error naming every op type no extractor of ``framework`` knows (``unknown``: op type -> node names), each
    with its count and first nodes, and the hint that says how to write an extractor for the first."""
    parts = ['{} ({} node{}: {}{})'.format(op, len(names), 's' if len(names) > 1 else '', ', '.join(names[:3]),
                                           ', ...' if len(names) > 3 else '') for op, names in sorted(unknown.items())]
    return Error('The model has operations mo cannot convert: {}', '; '.join(parts),
                 hint=unsupported_op_hint(sorted(unknown)[0], 'front/{}/'.format(framework)))


class FrontExtractorOp:
    """Base of extractors; subclasses set ``op`` (the framework op type) and define ``extract``.

    ``framework`` (a name of ``mo.front.frameworks``) says whose op type ``op`` is; a class in a framework's
    ``front/<name>/`` folder need not say it (the folder does, as in the Model Optimizer); one elsewhere is
    TensorFlow's, as the Model Optimizer's first extractors were."""
    op = None
    enabled = True
    #: framework name -> {op type -> extractor class}
    registry = {}
    framework = 'tf'

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get('op') is None:
            return
        if 'framework' not in cls.__dict__:
            cls.framework = folder_framework(cls.__module__) or cls.framework
        ops = cls.op if isinstance(cls.op, (list, tuple)) else [cls.op]
        table = FrontExtractorOp.registry.setdefault(cls.framework, {})
        for op in ops:
            previous = table.get(op)
            if previous is not None and is_builtin(previous) and is_builtin(cls) and \
                    (previous.__module__, previous.__qualname__) != (cls.__module__, cls.__qualname__):
                # one rule for every registry: a user's class may take over, two built-ins may not collide
                raise TypeError('built-in extractors {}.{} and {}.{} both claim {} op "{}"'.format(
                    previous.__module__, previous.__qualname__, cls.__module__, cls.__qualname__, cls.framework, op))
            if previous is not None and is_builtin(previous) and not is_builtin(cls):
                log.info('[ mo ] extractor {}.{} takes over "{}" from the built-in {}'.format(
                    cls.__module__, cls.__qualname__, op, previous.__qualname__))
            elif previous is not None and not is_builtin(previous) and is_builtin(cls):
                continue  # a built-in imported late never displaces a user's extractor
            table[op] = cls

    @classmethod
    def extract(cls, node) -> bool:
        """Give ``node`` its mo op and attributes; return False to say it cannot be extracted."""
        raise NotImplementedError('{} must define extract(node)'.format(cls.__name__))


class OpTableExtractor(FrontExtractorOp):
    """Framework ops that each become one mo Op with its default attributes: subclasses set ``table`` (framework op
    type -> Op class) and ``op = sorted(table)``."""
    table = {}

    @classmethod
    def describe(cls, op):
        return opset_type(cls.table[op])

    @classmethod
    def extract(cls, node):
        cls.table[node.op].update_node_stat(node, {})
        return True


def opset_type(op_class) -> str:
    """The IR type an Op class writes (its ``type``; for internal ops lowered later, its ``op``)."""
    attrs = op_class(Graph()).attrs
    return attrs.get('type') or attrs.get('op') or op_class.__name__


#: framework -> {op type: the built-in module, not imported yet, whose extractor extracts it}: a conversion imports
#: a module of rules for ops its model may not have when it meets one (``mo.utils.lazy_steps``)
waiting_extractors = {}


def extractor_for(op_type: str, framework: str = 'tf'):
    """The extractor class registered for ``op_type``, or None."""
    cls = FrontExtractorOp.registry.get(framework, {}).get(op_type)
    if cls is None and op_type in waiting_extractors.get(framework, {}):
        cls = _import_waiting_extractor(waiting_extractors[framework][op_type], op_type, framework)
    return cls if cls is not None and cls.enabled else None


def _import_waiting_extractor(module_name: str, op_type: str, framework: str):
    """The extractor of ``op_type`` that module ``module_name`` defines, imported now (and registered again if the
    module was imported before and the registry restored since, as tests restore it)."""
    module = importlib.import_module(module_name)
    cls = FrontExtractorOp.registry.get(framework, {}).get(op_type)
    if cls is None:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, FrontExtractorOp) and value.__module__ == module_name \
                    and value.framework == framework and op_type in _ops_of(value):
                cls = FrontExtractorOp.registry.setdefault(framework, {})[op_type] = value
    return cls


def _ops_of(cls) -> tuple:
    op = cls.__dict__.get('op')
    return tuple(op) if isinstance(op, (list, tuple)) else (op,)


def extractors_of_nodes(graph, framework: str, unknown_key=lambda data: data['op']):
    """``(node id, extractor)`` for every framework node still to extract (it has ``pb`` and is not ``extracted``),
    and ``{unknown_key(node attrs): [node names]}`` of the nodes no extractor knows, in the graph's order."""
    todo, unknown = [], {}
    extractors = {}  # op type -> extractor or None: one registry look-up per op type, not per node
    for node_id, data in graph.nodes(data=True):
        if 'pb' not in data or data.get('kind') != 'op' or data.get('extracted'):
            continue
        op = data['op']
        extractor = extractors.get(op, extractors)
        if extractor is extractors:
            extractor = extractors[op] = extractor_for(op, framework)
        if extractor is None:
            unknown.setdefault(unknown_key(data), []).append(data.get('name', node_id))
        else:
            todo.append((node_id, extractor))
    return todo, unknown


def snapshot_extractors() -> dict:
    return {fw: dict(table) for fw, table in FrontExtractorOp.registry.items()}


def restore_extractors(snapshot: dict):
    FrontExtractorOp.registry.clear()
    FrontExtractorOp.registry.update({fw: dict(table) for fw, table in snapshot.items()})


# the Model Optimizer's helpers of this module path (its extractors import them from here) come from mo.compat
__getattr__ = legacy_helper_names(__name__)
