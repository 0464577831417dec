"""Registration and ordering of replacers.

Every subclass of ``ReplacementPattern`` is registered when its module is imported. The
pipeline is one topological sort of the registered classes over their ``run_before()`` and
``run_after()`` edges, ties broken by the declared built-in order and then by class name, so the
same set of classes always gives the same order. ``mo.pipeline.runner`` runs that order on a graph.
"""
import heapq
import logging as log
import importlib
import os

from mo.utils.error import Error

#: full class name -> class, in registration order
_registry = {}
#: what was computed from the registry as it is (cleared whenever a class registers or the registry is restored)
_derived = {}


def full_name(cls) -> str:
    return '{}.{}'.format(cls.__module__, cls.__qualname__)


#: set to True in a class's own body to keep it out of the registry: the Model Optimizer's built-in replacers
#: that mo keeps under their old module paths (``extensions.front.sub.Sub``, ...) only for authors' unit tests,
#: which call them directly; importing one never adds a step to a conversion. A subclass an author defines is
#: registered as usual (the marker is read from the class's own ``__dict__``, not inherited).
LEGACY_ONLY = 'legacy_only'


def register_class(cls):
    """Record ``cls`` (called for every ReplacementPattern subclass at class creation), unless it is
    ``legacy_only`` (see ``LEGACY_ONLY``)."""
    if cls.__dict__.get(LEGACY_ONLY, False):
        return
    _registry[full_name(cls)] = cls
    _derived.clear()


def anchor(name: str):
    """The anchor class ``name`` (``'FrontStart'``, ...) of ``mo.utils.anchors``, which the phase base classes
    order their replacers against. Anchors are replacers of those very bases, so the bases name them instead
    of importing them; the anchors module is loaded on first use."""
    cls = _registry.get('mo.utils.anchors.' + name)
    if cls is None:
        importlib.import_module('mo.utils.anchors')
        cls = _registry['mo.utils.anchors.' + name]
    return cls


def registered_steps(*names: str) -> list:
    """The registered classes among the full ``names`` (``'extensions.load.tf.loader.TFExtractor'``), in that
    order: a step that runs after another framework's step names it, since a conversion loads only its own
    framework's modules (``mo.utils.import_extensions``) and an import would load the other's reader."""
    return [_registry[name] for name in names if name in _registry]


def registered_classes() -> list:
    """Every registered replacer class, abstract bases excluded, in registration order."""
    return [cls for cls in _registry.values() if not cls.is_abstract()]


def config_driven_classes() -> list:
    """The registered config-driven sub-graph replacers (``--transformations_config``) that keep their default
    place, first in the front phase (right after ``FrontStart``); one that names what it runs after is not here."""
    if 'config_driven' not in _derived:  # every front step's run_after asks: computed once per registry
        first = [anchor('FrontStart')]
        _derived['config_driven'] = [cls for cls in registered_classes()
                                     if getattr(cls, 'config_driven', False) and cls().run_after() == first]
    return list(_derived['config_driven'])


def steps_before(finish, phase: str, exclude=()) -> list:
    """The registered steps of ``phase`` that run before its anchor ``finish`` (its whole window, users' steps
    included), other than ``exclude`` and the anchors: what a step that must run last in its phase runs after.
    A step that itself runs after one of ``exclude`` is left out (it runs later on purpose)."""
    exclude = set(exclude)
    steps = []
    for cls in registered_classes():
        if cls in exclude or getattr(cls, 'anchor', False) or getattr(cls, 'phase', None) != phase:
            continue
        instance = cls()
        if finish in (instance.run_before() or []) and not exclude & set(instance.run_after() or []):
            steps.append(cls)
    return steps


def snapshot_registry() -> dict:
    """A copy of the registry, for ``restore_registry`` (tests use this to stay independent)."""
    return dict(_registry)


def restore_registry(snapshot: dict):
    _registry.clear()
    _registry.update(snapshot)
    _derived.clear()


def is_builtin(cls) -> bool:
    """True for classes shipped with mo (the framework and the ``extensions`` package)."""
    return cls.__module__.split('.')[0] in ('mo', 'extensions')


def class_id(cls):
    """The replacer's own ``id`` (an inherited one does not count), or None."""
    return cls.__dict__.get('id')


# ----- enabling ----------------------------------------------------------------------------
def _env_list(name) -> set:
    return {item.strip() for item in os.environ.get(name, '').split(',') if item.strip()}


class ReplacerInfo:
    """A registered class with its resolved ``enabled`` state and the reason for it."""

    def __init__(self, cls, enabled: bool, reason: str = ''):
        self.cls = cls
        self.enabled = enabled
        self.reason = reason

    @property
    def name(self):
        return full_name(self.cls)

    @property
    def id(self):
        return class_id(self.cls) or self.cls.__name__


def resolve_enabled(classes) -> dict:
    """Decide which classes run: the class's ``enabled``, then take-overs, then the env variables.

    ``MO_DISABLED_TRANSFORMS`` wins over ``MO_ENABLED_TRANSFORMS`` when both name a class.
    """
    enabled_env = _env_list('MO_ENABLED_TRANSFORMS')
    disabled_env = _env_list('MO_DISABLED_TRANSFORMS')
    taken_over = {}
    by_key = {}
    for cls in classes:
        key = cls.replaced_key()
        if key is not None:
            by_key.setdefault(key, []).append(cls)
    for key, group in by_key.items():
        users = [c for c in group if not is_builtin(c)]
        if users:
            for cls in group:
                if is_builtin(cls):
                    taken_over[cls] = users[-1]
                    log.info('[ mo ] {} takes over from the built-in {} ({})'.format(
                        full_name(users[-1]), full_name(cls), key))
    infos = {}
    for cls in classes:
        names = {full_name(cls), cls.__name__}
        if class_id(cls):
            names.add(class_id(cls))
        if names & disabled_env:
            infos[cls] = ReplacerInfo(cls, False, 'MO_DISABLED_TRANSFORMS')
        elif names & enabled_env:
            infos[cls] = ReplacerInfo(cls, True, 'MO_ENABLED_TRANSFORMS')
        elif cls in taken_over:
            infos[cls] = ReplacerInfo(cls, False, 'replaced by {}'.format(full_name(taken_over[cls])))
        elif not cls.enabled:
            infos[cls] = ReplacerInfo(cls, False, 'enabled = False')
        else:
            infos[cls] = ReplacerInfo(cls, True, '')
    return infos


# ----- ordering ----------------------------------------------------------------------------
def check_unique_ids(classes):
    seen = {}
    for cls in classes:
        own = class_id(cls)
        if own is None:
            continue
        if own in seen and seen[own] is not cls:
            raise Error('Two replacers have the id "{}": {} and {}', own, full_name(seen[own]), full_name(cls))
        seen[own] = cls


#: full class name -> its position in the built-in pipeline order (see ``declare_order``)
_DECLARED_RANK = {}


def declare_order(full_names) -> None:
    """Declare the order in which the classes named (``package.module.Class``) are preferred.

    The built-in pipeline declares its order this way (``extensions/pipeline_order.py``), top to
    bottom. It is a preference, not a constraint: the sort takes, of the classes whose
    ``run_after``/``run_before`` are satisfied, the one declared first, so a user's extension can
    still be placed anywhere its own edges allow. Classes not declared (a user's) are preferred
    before declared ones: a user's front replacer sees the ops as TensorFlow wrote them unless it
    asks to run after a built-in step.
    """
    for name in full_names:
        _DECLARED_RANK.setdefault(name, len(_DECLARED_RANK))


def dependency_edges(classes) -> list:
    """``(before, after)`` pairs from every class's run_before()/run_after()."""
    known = set(classes)
    edges = []
    for cls in classes:
        try:
            instance = cls()
            after, before = list(instance.run_after() or []), list(instance.run_before() or [])
        except Error:
            raise
        except Exception as exc:
            raise Error('Replacer {} fails in run_before()/run_after(): {}: {}', full_name(cls),
                        type(exc).__name__, exc) from exc
        for other in after:
            if other in known and other is not cls:
                edges.append((other, cls))
        for other in before:
            if other in known and other is not cls:
                edges.append((cls, other))
    return edges


#: set to any text to break ties among built-in replacers by a hash of it instead of by class name:
#: the test that every ordering which matters is declared converts models under several values
SHUFFLE_TIE_BREAK_ENV = 'MO_SHUFFLE_TIE_BREAK'


def _sort_key(cls):
    """Which of the classes ready to run goes first: undeclared (users') classes, then the declared
    order, then the class name (or, for the test that the name does not matter, a hash of it)."""
    name = full_name(cls)
    seed = os.environ.get(SHUFFLE_TIE_BREAK_ENV)
    if seed and is_builtin(cls):
        import hashlib  # only under the variable (a test's): a conversion need not import it
        tie_break = hashlib.sha256((seed + name).encode()).hexdigest()
    else:
        tie_break = cls.__name__
    return (_DECLARED_RANK.get(name, -1), tie_break, name)


def order_classes(classes) -> list:
    """One deterministic topological order of ``classes``; a cycle is an Error naming its classes."""
    classes = sorted(set(classes), key=_sort_key)
    check_unique_ids(classes)
    edges = dependency_edges(classes)
    successors = {cls: [] for cls in classes}
    indegree = {cls: 0 for cls in classes}
    for before, after in set(edges):
        successors[before].append(after)
        indegree[after] += 1
    heap = [(_sort_key(cls), cls) for cls in classes if indegree[cls] == 0]
    heapq.heapify(heap)
    order = []
    while heap:
        _, cls = heapq.heappop(heap)
        order.append(cls)
        for nxt in successors[cls]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                heapq.heappush(heap, (_sort_key(nxt), nxt))
    if len(order) != len(classes):
        raise Error('The replacers\' run_before()/run_after() form a cycle: {}',
                    ' -> '.join(full_name(c) for c in _find_cycle(classes, successors, set(order))))
    return order


def _find_cycle(classes, successors, done):
    """One cycle among the classes the sort could not place."""
    remaining = [c for c in classes if c not in done]
    for start in remaining:
        path, on_path = [start], {start: 0}
        stack = [iter(sorted((s for s in successors[start] if s not in done), key=_sort_key))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                on_path.pop(path.pop(), None)
                continue
            if nxt in on_path:
                return path[on_path[nxt]:] + [nxt]
            on_path[nxt] = len(path)
            path.append(nxt)
            stack.append(iter(sorted((s for s in successors[nxt] if s not in done), key=_sort_key)))
    return remaining


def pipeline(phases=None) -> list:
    """The ordered ``ReplacerInfo`` list of every registered class (optionally some phases only)."""
    classes = [c for c in registered_classes() if c.phase != 'transform']
    order = order_classes(classes)
    infos = resolve_enabled(order)
    result = [infos[cls] for cls in order]
    if phases:
        result = [info for info in result if info.cls.phase in phases]
    return result
