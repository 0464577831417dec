"""Loading replacers and ops: the built-in ``extensions`` package and users' extension dirs.

Both are loaded the same way: every ``.py`` file under ``ops/``, ``load/``, ``front/``, ``middle/``,
``back/`` and each framework's ``load/<name>/`` and ``front/<name>/`` (``mo.front.frameworks``) is imported in
sorted order, which registers the classes it defines. A user's directory is imported as a package of its own, so two directories may use
the same file names; a file that fails to import is an Error naming the file.
"""
import importlib
import importlib.util
import logging as log
import os
import sys

from mo.front.frameworks import FRAMEWORK_PHASES, framework_names
from mo.utils import lazy_steps
from mo.utils.error import Error
from mo.utils.extension_check import check_module

#: the sub-directories of an extension directory that are imported, in this order: each phase's shared folder, then
#: its framework folders (``front/onnx``)
EXTENSION_SUBDIRS = ('ops',) + tuple(sub for phase in FRAMEWORK_PHASES for sub in (phase,) + tuple(
    '{}/{}'.format(phase, name) for name in framework_names())) + ('transforms',)

_loaded_user_dirs = {}

#: framework -> the sub-directories that hold its own load steps, extractors and replacers; a conversion of one
#: framework's model imports none of the others' (their steps would all be skipped by ``graph_condition``). A step
#: that serves several frameworks lives in a shared folder (``front/``, ``middle/``...), never in one of these.
FRAMEWORK_SUBDIRS = {name: tuple('{}/{}'.format(phase, name) for phase in FRAMEWORK_PHASES)
                     for name in framework_names()}


def _module_names(directory: str) -> list:
    """The names of the modules (``*.py`` files, not packages) in ``directory``, sorted: what ``pkgutil.iter_modules``
    gives for a folder of plain source files, from one directory listing."""
    with os.scandir(directory) as entries:
        return sorted(entry.name[:-3] for entry in entries if entry.name.endswith('.py') and
                      entry.name != '__init__.py' and entry.name[:-3].isidentifier() and entry.is_file())


def _framework_modules() -> dict:
    """Import what registers the framework's own steps; the op modules of ``mo.ops`` as ``{module name: file}``, to
    import (or leave waiting for their ops) with the extensions' modules."""
    import mo.utils.anchors  # noqa: F401
    import mo.middle.partial_infer  # noqa: F401
    import mo.ops
    directory = os.path.dirname(mo.ops.__file__)
    return {'mo.ops.' + name: os.path.join(directory, name + '.py') for name in _module_names(directory)}


def load_builtin(with_transforms: bool = True, with_converter: bool = True, framework: str = None,
                 lazy: bool = False):
    """Import the framework's steps and every module of the ``extensions`` package.

    ``with_transforms=False`` leaves out ``extensions/transforms`` (the ``mo transform`` catalogue),
    which ``mo convert`` never runs; ``with_converter=False`` leaves out everything else (the ops and
    the load/front/middle/back steps), which ``mo transform`` never runs; ``framework`` (a name of
    ``mo.front.frameworks``) leaves out the other frameworks' folders (``FRAMEWORK_SUBDIRS``): importing
    what a command does not run only lengthens its start-up. The steps left out are the ones whose
    ``graph_condition`` would skip them, so the steps that run, and their order, are those of a full load.

    ``lazy`` (with ``framework``): the modules of rules for given ops wait until a graph has one of them
    (``mo.utils.lazy_steps``); the steps that run, and their order, are again those of a full load.
    """
    # module name -> file, in import order: mo's op modules, then the extensions' folders
    module_files = _framework_modules() if with_converter else {}
    import extensions
    root = os.path.dirname(extensions.__file__)
    foreign = set() if framework is None else {
        sub for other, subs in FRAMEWORK_SUBDIRS.items() if other != framework for sub in subs}
    for sub in EXTENSION_SUBDIRS:
        if (sub == 'transforms' and not with_transforms) or (sub != 'transforms' and not with_converter) or \
                sub in foreign:
            continue
        directory = os.path.join(root, *sub.split('/'))
        if not os.path.isdir(directory):
            continue
        package = 'extensions.' + sub.replace('/', '.')
        # the Model Optimizer's module paths live in mo/compat (mo.compat), outside these folders: every module
        # listed here is a live one
        names = _module_names(directory)
        module_files.update(('{}.{}'.format(package, name), os.path.join(directory, name + '.py')) for name in names)
    lazy = lazy and framework is not None and with_converter and lazy_steps.enabled()
    index = lazy_steps.read_index(framework, module_files) if lazy else None
    waiting = index['lazy'] if index else {}
    waiting_ops = index['ops'] if index else {}
    for name in module_files:
        if name in sys.modules:
            continue
        if name in waiting:
            lazy_steps.stand_in_for(framework, name, waiting[name])
        elif name in waiting_ops:
            lazy_steps.wait_for_ops(name, waiting_ops[name])
        else:
            importlib.import_module(name)
    if with_converter:
        importlib.import_module('extensions.pipeline_order')
    if lazy and index is None:  # everything is imported now: describe what may wait next time
        lazy_steps.build_index(framework, module_files)


def _package_name(directory: str) -> str:
    import hashlib  # only for user extension directories
    digest = hashlib.sha1(os.path.abspath(directory).encode()).hexdigest()[:8]
    base = ''.join(c if c.isalnum() else '_' for c in os.path.basename(os.path.abspath(directory))) or 'ext'
    return 'mo_user_ext_{}_{}'.format(base, digest)


def _ensure_package(name: str, path: str):
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_loader(name, loader=None, is_package=True)
    module = importlib.util.module_from_spec(spec)
    module.__path__ = [path]
    sys.modules[name] = module


def _import_file(module_name: str, path: str):
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Error:
        sys.modules.pop(module_name, None)
        raise
    except SyntaxError as exc:
        sys.modules.pop(module_name, None)
        raise Error('Extension file {} has a syntax error at line {}: {}', path, exc.lineno, exc.msg) from exc
    except BaseException as exc:
        sys.modules.pop(module_name, None)
        raise Error('Extension file {} failed to import: {}: {}', path, type(exc).__name__, exc) from exc
    return module


def load_dir(directory: str):
    """Import every extension module of a user's ``directory``."""
    directory = os.path.abspath(directory)
    if not os.path.isdir(directory):
        raise Error('Extensions directory "{}" does not exist', directory)
    root = _package_name(directory)
    _ensure_package(root, directory)
    found = 0
    for sub in EXTENSION_SUBDIRS:
        sub_dir = os.path.join(directory, *sub.split('/'))
        if not os.path.isdir(sub_dir):
            continue
        package, path = root, directory
        for part in sub.split('/'):
            package, path = '{}.{}'.format(package, part), os.path.join(path, part)
            _ensure_package(package, path)
        for file_name in sorted(os.listdir(sub_dir)):
            if not file_name.endswith('.py') or file_name.startswith('_'):
                continue
            module = _import_file('{}.{}'.format(package, file_name[:-3]), os.path.join(sub_dir, file_name))
            check_module(module, os.path.join(sub_dir, file_name))
            found += 1
    if not found:
        log.warning('Extensions directory "{}" has no modules in {}'.format(
            directory, ', '.join(EXTENSION_SUBDIRS)))
    _loaded_user_dirs[directory] = root
    return found


def load_extensions(dirs=None, with_transforms: bool = True, with_converter: bool = True, framework: str = None,
                    lazy: bool = False):
    """Load the built-ins, then each user directory in order (users' classes take over).

    ``with_transforms``, ``with_converter``, ``framework`` and ``lazy`` as for ``load_builtin``, but with users'
    directories the built-ins are loaded whole (a user's step ordered against a built-in step of another
    framework keeps its place, one taking over a built-in finds it); users' directories are always loaded whole.
    """
    load_builtin(with_transforms, with_converter, None if dirs else framework, lazy=lazy and not dirs)
    for directory in dirs or []:
        load_dir(directory)


def split_dirs(value) -> list:
    """The directories of an ``--extensions`` value: comma-separated, empty items dropped."""
    if not value:
        return []
    if isinstance(value, (list, tuple)):
        items = []
        for v in value:
            items.extend(split_dirs(v))
        return items
    return [item for item in (part.strip() for part in value.split(',')) if item]
