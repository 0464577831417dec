"""The base of every replacer: the attributes and hooks the pipeline reads.

Defining a subclass registers it (see ``mo.utils.class_registration``); the pipeline orders all
registered replacers by their ``run_before()``/``run_after()`` and calls
``find_and_replace_pattern(graph)`` on each enabled one.
"""
import logging as log

from mo.front.frameworks import folder_framework
from mo.utils.class_registration import register_class
from mo.middle.pattern_match import apply_pattern


def for_framework(name: str):
    """A ``graph_condition`` that holds for graphs read from framework ``name`` (``mo.front.frameworks``): how a
    framework-specific replacer says which framework it is for (``mo transforms --framework`` reads it)."""
    def condition(graph) -> bool:
        return graph.graph.get('source_format') == name
    condition.framework = name
    condition.__name__ = condition.__qualname__ = 'is_' + name
    return condition


def for_frameworks(names):
    """A ``graph_condition`` that holds for graphs read from any of the frameworks ``names``, and for a graph that
    names no framework (built by hand, as extension authors' unit tests build them: every replacer may run on it)."""
    names = tuple(names)

    def condition(graph) -> bool:
        return graph.graph.get('source_format') in names + (None,)
    condition.framework = names
    condition.__name__ = condition.__qualname__ = 'is_' + '_or_'.join(names)
    return condition


def frameworks_of(cls) -> set:
    """The frameworks a replacer class is for (empty: every framework)."""
    found = set()
    for condition in getattr(cls, 'graph_condition', None) or ():
        framework = getattr(condition, 'framework', None)
        if framework:
            found.update((framework,) if isinstance(framework, str) else framework)
    return found


class ReplacementPattern:
    """Base of all replacers.

    Class attributes the pipeline reads:

    * ``enabled``: run it (``MO_ENABLED_TRANSFORMS`` / ``MO_DISABLED_TRANSFORMS`` override);
    * ``id``: a unique name for those variables (the full class name works too);
    * ``run_not_recursively``: True runs it on the model's graph only; False (the default, as in
      the Model Optimizer) also on every loop and conditional body (see ``mo.front.tf.function_graph``)
      and on every sub-graph listed in a node's ``sub_graphs``;
    * ``force_clean_up``: remove dead nodes after it ran (even when it changed nothing);
    * ``auto_clean_up``: remove dead nodes after it ran if it changed the graph (default True);
    * ``force_shape_inference``: re-infer the nodes it marked ``need_shape_inference``;
    * ``graph_condition``: functions of the graph that must all return True for it to run.
    """
    enabled = True
    id = None
    run_not_recursively = False
    force_clean_up = False
    auto_clean_up = True
    force_shape_inference = False
    graph_condition = []
    #: 'load', 'front', 'middle', 'back' or 'transform'; set by the phase base classes
    phase = None
    #: anchors are no-op replacers that others are ordered against
    anchor = False
    #: how many matches the last run replaced (a class attribute first, so calling
    #: ``find_and_replace_pattern`` directly, as extension authors' unit tests do, works)
    match_count = 0
    #: ``(node name, reason)`` of each candidate the last run declined (see ``reject``)
    rejections = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # a replacer in a framework's folder runs on that framework's graphs, as the Model Optimizer loaded only the
        # current framework's folders; ``frameworks = ('a', 'b')`` says a rule there serves several
        declared = cls.__dict__.get('frameworks')
        framework = folder_framework(cls.__module__)
        if (declared or framework) and not any(getattr(c, 'framework', None) for c in cls.__dict__.get(
                'graph_condition', ()) or ()):
            cls.graph_condition = [c for c in getattr(cls, 'graph_condition', None) or ()
                                   if not getattr(c, 'framework', None)] + [for_frameworks(declared or (framework,))]
        register_class(cls)

    @classmethod
    def is_abstract(cls) -> bool:
        """True for base classes that are not meant to run themselves."""
        return bool(cls.__dict__.get('_abstract', False))

    @classmethod
    def replaced_key(cls):
        """What this replacer is *for* (e.g. one op); a user's class with the same key takes over."""
        return None

    def run_before(self) -> list:
        return []

    def run_after(self) -> list:
        return []

    def reject(self, node, reason: str):
        """Record that this replacer declined ``node`` (a candidate it does not apply to) and why: the
        step's ``rejected`` list in ``--report``, and a DEBUG log line."""
        name = node.soft_get('name', node.id)
        if not isinstance(self.rejections, list):
            self.rejections = []
        self.rejections.append((name, reason))
        log.debug('[ mo ] {} declined "{}": {}'.format(type(self).__name__, name, reason))

    def find_and_replace_pattern(self, graph):
        """Do the work on ``graph``; the default applies ``pattern()`` if the class defines one."""
        pattern = getattr(self, 'pattern', None)
        if pattern is None:
            return
        self.match_count = getattr(self, 'match_count', 0) + apply_pattern(graph, action=self._apply_match,
                                                                            **pattern())

    def _apply_match(self, graph, match):
        return self.replace_pattern(graph, match)

    def replace_pattern(self, graph, match: dict):
        raise NotImplementedError('{} defines pattern() but not replace_pattern()'.format(type(self).__name__))
