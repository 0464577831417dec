"""Built-in rule modules imported once a graph has their ops: a conversion's start-up does not grow with the rules.

A conversion imports its framework's folders and the shared ones: some 140 modules, most of them rules for ops a
given model does not have (FFT, sparse and complex tensors, RNN cells, detection heads...). Importing them is about a
sixth of a small model's conversion. Most of those modules are *op-triggered*: every step they define rewrites nodes
of given op types and touches nothing else (an ``OpRule``/``PatternRule``/``FrontReplacementOp``, a
``MiddleOpRule``/``BackOpRule``, a ``BackPatternRule``), every extractor they define extracts given op types, and
their top level only defines things. Such a module is imported when a graph first has one of those ops:

* each of its steps is stood in for by a ``StandIn`` class of the same full name, id and attributes, which takes the
  step's place in the pipeline; when its turn comes it looks for the step's ops in the graph it is given, and only if
  one is there imports the module and runs the real step (with the real step's ``graph_condition``);
* an extractor's module is imported when a node of its op is extracted (``mo.front.extractor.waiting_extractors``);
* a module of op classes only (``mo/ops``, ``extensions/ops``) is imported when one of its op names is looked up in
  ``Op.registered_ops`` (``mo.ops.op.OpRegistry``).

The pipeline's order does not change: every built-in step is listed in ``extensions/pipeline_order.py`` in an order
that all ``run_before``/``run_after`` edges agree with (tests/core/test_pipeline_layout.py), and the sort takes the
first listed step that is ready, so it runs the listed order whether a step is itself or its stand-in.

What is known of a module without importing it comes from an index that one full import builds (``build_index``),
kept beside the bytecode cache (``__pycache__/step-index-<framework>.<tag>.json``, written only where Python writes
bytecode) and valid while every module file of the folders it covers and the framework files that define what a
rule matches keep their size and modification time; otherwise the conversion imports everything, as before, and
writes a new index. ``MO_EAGER_STEPS=1`` imports everything always.
"""
import importlib
import importlib.util
import json
import os
import sys

from mo.front.common.replacement import FrontReplacementOp, FrontReplacementPattern
from mo.front.common.rule import PatternRule
from mo.front.common.tree_pattern import root_ops
from mo.front.extractor import FrontExtractorOp, waiting_extractors
from mo.front.loader_replacement import LoadReplacementPattern
from mo.middle.replacement import MiddleReplacementPattern
from mo.back.replacement import BackReplacementPattern
from mo.middle.rule import BackPatternRule, _InferredOpRule
from mo.ops.op import Op
from mo.utils import class_registration
from mo.utils.class_registration import LEGACY_ONLY, full_name
from mo.utils.file_utils import write_text_atomically
from mo.utils.replacement import ReplacementPattern

#: set to 1 to import every built-in module (no stand-ins, no index written)
EAGER_ENV = 'MO_EAGER_STEPS'
#: bump when the index's content changes meaning
INDEX_VERSION = 2
#: the attributes of a step that its stand-in copies (what the runner reads before the step runs)
STEP_ATTRIBUTES = ('enabled', 'run_not_recursively', 'force_clean_up', 'auto_clean_up', 'force_shape_inference')
#: the framework files whose code decides what a rule matches and how steps are ordered: the index is built from them
CORE_FILES = ('mo/front/common/replacement.py', 'mo/front/common/rule.py', 'mo/front/common/tree_pattern.py',
              'mo/middle/rule.py', 'mo/front/extractor.py', 'mo/utils/class_registration.py',
              'mo/utils/replacement.py', 'mo/utils/lazy_steps.py', 'extensions/pipeline_order.py')

_PHASE_BASES = {'load': LoadReplacementPattern, 'front': FrontReplacementPattern,
                'middle': MiddleReplacementPattern, 'back': BackReplacementPattern}


def _as_tuple(op):
    return tuple(op) if isinstance(op, (list, tuple)) else (op,)


def trigger_ops(cls):
    """The op types whose nodes are the only ones step ``cls`` rewrites (it does nothing to a graph without them), or
    None when its code may do more than that (its own ``find_and_replace_pattern``)."""
    method = cls.find_and_replace_pattern
    if issubclass(cls, PatternRule) and method is PatternRule.find_and_replace_pattern:
        return tuple(root_ops(cls.pattern))
    if issubclass(cls, FrontReplacementOp) and method is ReplacementPattern.find_and_replace_pattern and \
            cls.pattern is FrontReplacementOp.pattern and isinstance(cls.op, str):
        return (cls.op,)
    if issubclass(cls, _InferredOpRule) and method is _InferredOpRule.find_and_replace_pattern:
        return _as_tuple(cls.op)
    if issubclass(cls, BackPatternRule) and method is BackPatternRule.find_and_replace_pattern:
        return tuple(op for pattern in cls.patterns for op in root_ops(pattern))
    return None


def _only_defines(path: str) -> bool:
    """Whether the module's top level only imports and defines (functions, classes, constants): importing it has no
    effect but its classes' registration."""
    import ast  # only when the index is built: a conversion that reads it parses nothing
    try:
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return False
    for statement in tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Pass)):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and all(
                isinstance(target, ast.Name) for target in
                (statement.targets if isinstance(statement, ast.Assign) else [statement.target])):
            continue  # a module constant (its value may call anything, but only to make the constant)
        return False
    return True


def _step_record(cls):
    """What a stand-in needs of step ``cls``, or None when ``cls`` cannot be stood in for."""
    if cls.__dict__.get(LEGACY_ONLY, False) or cls.is_abstract() or getattr(cls, 'anchor', False) or \
            getattr(cls, 'config_driven', False) or cls.phase not in _PHASE_BASES or '.' in cls.__qualname__:
        return None
    ops = trigger_ops(cls)
    if not ops:
        return None
    record = {'qualname': cls.__qualname__, 'phase': cls.phase, 'id': cls.__dict__.get('id'), 'ops': list(ops),
              'doc': cls.__doc__, 'frameworks': cls.__dict__.get('frameworks')}
    record.update((name, getattr(cls, name)) for name in STEP_ATTRIBUTES)
    return record


def _module_record(module, framework: str):
    """``{'steps': [...], 'extracts': [...]}`` for a module that can wait for its ops, else None."""
    if not getattr(module, '__file__', None) or not _only_defines(module.__file__):
        return None
    registry = class_registration.snapshot_registry()
    extractors = FrontExtractorOp.registry.get(framework, {})
    steps, extracts = [], []
    for value in vars(module).values():
        if not isinstance(value, type) or value.__module__ != module.__name__:
            continue
        if issubclass(value, Op):
            return None  # an op class registers by name: other code may look it up
        if issubclass(value, ReplacementPattern):
            record = _step_record(value)
            if record is None or registry.get(full_name(value)) is not value:
                return None
            steps.append(record)
        elif issubclass(value, FrontExtractorOp):
            ops = _as_tuple(value.__dict__.get('op'))
            if value.__dict__.get('op') is None or value.framework != framework or \
                    any(extractors.get(op) is not value for op in ops):
                return None
            extracts.extend(ops)
    if not steps and not extracts:
        return None
    return {'steps': sorted(steps, key=lambda s: s['qualname']), 'extracts': sorted(extracts)}


def _root() -> str:
    """The directory that holds the ``mo`` and ``extensions`` packages."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _file_key(paths) -> dict:
    """``{path relative to the root: [mtime_ns, size]}`` of ``paths`` and of ``CORE_FILES``."""
    root = _root()
    key = {}
    for path in list(paths) + [os.path.join(root, *name.split('/')) for name in CORE_FILES]:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        key[os.path.relpath(path, root).replace(os.sep, '/')] = [stat.st_mtime_ns, stat.st_size]
    return key


def index_path(framework: str):
    """Where the index of ``framework``'s conversion lives (beside the ``extensions`` bytecode), or None."""
    try:
        cached = importlib.util.cache_from_source(os.path.join(_root(), 'extensions', 'step-index-{}.py'.format(
            framework)))
    except NotImplementedError:  # no bytecode cache in this Python
        return None
    return cached[:-len('.pyc')] + '.json'


def enabled() -> bool:
    """Whether built-in modules may wait for their ops (not under ``MO_EAGER_STEPS``, nor when the variables that
    enable, disable or reorder steps by name are set: those name steps the index does not describe)."""
    return not any(os.environ.get(name) for name in (EAGER_ENV, 'MO_ENABLED_TRANSFORMS', 'MO_DISABLED_TRANSFORMS',
                                                      class_registration.SHUFFLE_TIE_BREAK_ENV))


def read_index(framework: str, module_files: dict):
    """The index of ``framework`` if one was built from exactly these ``module_files`` (``{module name: path}``, the
    modules a full import loads) and framework files; else None."""
    path = index_path(framework)
    if path is None:
        return None
    try:
        with open(path, encoding='utf-8') as f:
            index = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(index, dict) or index.get('version') != INDEX_VERSION or \
            index.get('key') != _file_key(module_files.values()):
        return None
    return index


def _op_module_record(module):
    """The op names that ``module``, a module of op classes only, registers: it can wait until one of them is looked
    up (``mo.ops.op.OpRegistry``). None for a module that does more on import, defines steps or extractors, or
    registers no op."""
    if not getattr(module, '__file__', None) or not _only_defines(module.__file__):
        return None
    names = []
    for value in vars(module).values():
        if not isinstance(value, type) or value.__module__ != module.__name__:
            continue
        if issubclass(value, (ReplacementPattern, FrontExtractorOp)):
            return None
        name = value.__dict__.get('op') if issubclass(value, Op) else None
        if name is not None:
            if dict.get(Op.registered_ops, name) is not value:
                return None  # taken over by another class: the name must not lead here
            names.append(name)
    return sorted(names) or None


def wait_for_ops(module: str, names) -> None:
    """Leave op module ``module`` unimported until one of its op ``names`` is looked up."""
    Op.registered_ops.wait(names, module)


def build_index(framework: str, module_files: dict) -> None:
    """Describe the op-triggered modules among ``module_files`` (all imported just now) and keep the description for
    the next conversion of ``framework`` (nothing is written where Python writes no bytecode)."""
    path = index_path(framework)
    if path is None or sys.dont_write_bytecode:
        return
    lazy, ops = {}, {}
    for name in sorted(module_files):
        module = sys.modules.get(name)
        record = _module_record(module, framework) if module is not None else None
        if record is not None:
            lazy[name] = record
            continue
        names = _op_module_record(module) if module is not None else None
        if names is not None:
            ops[name] = names
    index = {'version': INDEX_VERSION, 'key': _file_key(module_files.values()), 'lazy': lazy, 'ops': ops}
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_text_atomically(path, json.dumps(index, sort_keys=True))
    except (OSError, ValueError):
        pass  # a read-only install: every conversion imports everything


class StandIn:
    """Takes the place of a built-in step whose module is not imported (see the module docstring)."""
    #: the op types the real step rewrites
    trigger_ops = ()

    def find_and_replace_pattern(self, graph):
        main = self.__dict__.setdefault('_main_graph', graph)  # the runner gives the model's graph first
        if not any(graph.count_by_attr('op', op) for op in self.trigger_ops):
            return
        real = self.__dict__.get('_real')
        if real is None:
            cls = getattr(importlib.import_module(type(self).__module__), type(self).__qualname__)
            real = self._real = cls()
            real.match_count, real.rejections = 0, []
            self._real_applies = all(condition(main) for condition in (getattr(real, 'graph_condition', None) or []))
        if not self._real_applies:
            return
        real.find_and_replace_pattern(graph)
        self.match_count, self.rejections = real.match_count, real.rejections


def stand_in(module: str, record: dict):
    """A class registered in place of the step ``record`` describes (of module ``module``)."""
    attrs = {name: record[name] for name in STEP_ATTRIBUTES}
    attrs.update(__module__=module, __qualname__=record['qualname'], __doc__=record.get('doc'),
                 trigger_ops=tuple(record['ops']))
    for name in ('id', 'frameworks'):  # their own, as the real class has them (an inherited one is None)
        if record.get(name) is not None:
            attrs[name] = tuple(record[name]) if name == 'frameworks' else record[name]
    return type(record['qualname'], (StandIn, _PHASE_BASES[record['phase']]), attrs)


def stand_in_for(framework: str, module: str, record: dict) -> None:
    """Register stand-ins for the steps of ``module`` and leave its extractors waiting for their ops."""
    registered = class_registration.snapshot_registry()
    for step in record['steps']:
        if '{}.{}'.format(module, step['qualname']) not in registered:
            stand_in(module, step)
    table = waiting_extractors.setdefault(framework, {})
    for op in record['extracts']:
        table.setdefault(op, module)
