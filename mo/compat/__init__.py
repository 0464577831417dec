"""The compatibility wing: the Model Optimizer's module paths that mo keeps for extension authors' code, in one place
apart from the live code.

Authors' extensions and unit tests import the Model Optimizer's modules by path: ``extensions.front.sub``
(releases 2020-2021), ``openvino.tools.mo.front.sub`` (2022-2024; ``mo.front.sub`` after the import rename),
``openvino.tools.mo.ops.roialign``... Those that mo keeps are served from here, never from the live folders, so the
live ``extensions/`` and ``mo/`` trees hold only what a conversion runs:

* ``mo/compat/extensions/...`` and ``mo/compat/mo/...`` mirror the legacy paths file for file:
  ``mo/compat/extensions/front/sub.py`` is the module ``extensions.front.sub``, ``mo/compat/mo/front/Pack.py`` is
  ``mo.front.Pack``. A directory there with an ``__init__.py`` is a legacy package (``mo.utils.ir_engine``).
* ``mo.compat.op_modules.OP_MODULES`` declares the Model Optimizer's ``ops/`` modules: those mo has no file for
  (``mo.ops.roialign``, ``mo.ops.LSTM``...) are built on import from that table; a live one (``mo.ops.pad``) gets
  the names it lacks through its module ``__getattr__`` (``mo.compat.ops_hook``), and two loader modules get the
  Model Optimizer's helpers the same way (``mo.compat.helpers_hook``, ``mo.compat.loader_helpers``).

One finder (``LegacyPathFinder``), installed by ``mo/__init__.py`` and ``extensions/__init__.py`` so that either
import path works first, serves both. It stands after Python's own finders in ``sys.meta_path``: a live module
always wins over a legacy one of the same name, and built-in loading, which lists the live folders
(``pkgutil.iter_modules``), never sees the wing. ``importlib.util.find_spec`` finds a legacy path like any module.
The list of what is served is read from the tree and the table (``served_modules``), never written by hand.
"""
import importlib.util
import os
import sys

#: where the mirrored legacy paths live: ``<WING>/extensions/front/sub.py`` is ``extensions.front.sub``
WING = os.path.dirname(os.path.abspath(__file__))
#: the top-level packages whose legacy paths the wing serves
ROOTS = ('mo', 'extensions')


def _file_of(fullname: str):
    """``(path, is_package)`` of the wing's file for module ``fullname``, or None."""
    parts = fullname.split('.')
    if len(parts) < 2 or parts[0] not in ROOTS or parts[:2] == ['mo', 'compat']:
        return None
    base = os.path.join(WING, *parts)
    if os.path.isfile(base + '.py'):
        return base + '.py', False
    init = os.path.join(base, '__init__.py')
    if os.path.isfile(init):
        return init, True
    return None


class LegacyPathFinder:  # a meta path finder (no importlib.abc base: its import pulls tempfile, shutil, typing...)
    """Finds the Model Optimizer's module paths that mo keeps: a file of the wing's tree, else a declared op
    module (``mo.compat.op_modules``)."""

    def find_spec(self, fullname, path=None, target=None):
        found = _file_of(fullname)
        if found is not None:
            file_path, is_package = found
            locations = [os.path.dirname(file_path)] if is_package else None
            return importlib.util.spec_from_file_location(fullname, file_path,
                                                          submodule_search_locations=locations)
        if fullname.startswith('mo.ops.'):
            # the table is read only when a name is asked that no file answers (op_modules imports mo.ops.op)
            from mo.compat import op_modules
            return op_modules.find_spec(fullname)
        return None

    def invalidate_caches(self):
        pass


def install():
    """Put one ``LegacyPathFinder`` at the end of ``sys.meta_path`` (again a no-op)."""
    if not any(isinstance(finder, LegacyPathFinder) for finder in sys.meta_path):
        sys.meta_path.append(LegacyPathFinder())


def served_files() -> list:
    """The module names the wing's tree serves, sorted: ``extensions.front.sub``, ``mo.front.Pack``, legacy
    packages (``mo.utils.ir_engine``) included."""
    names = []
    for root in ROOTS:
        top = os.path.join(WING, root)
        for directory, subdirs, files in os.walk(top):
            subdirs[:] = sorted(d for d in subdirs if d != '__pycache__')
            package = os.path.relpath(directory, WING).replace(os.sep, '.')
            for file_name in files:
                if not file_name.endswith('.py'):
                    continue
                names.append(package if file_name == '__init__.py' else package + '.' + file_name[:-3])
    return sorted(names)


def served_modules() -> list:
    """Every module path the wing serves: the tree's files and the declared op modules, sorted."""
    from mo.compat import op_modules
    return sorted(set(served_files()) | set(op_modules.declared_modules()))

