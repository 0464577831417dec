"""Import networkx with its algorithm catalogue deferred until something asks for it.

``import networkx`` runs every algorithm, generator, reader/writer and drawing module (about 280
modules, a third of a small conversion's wall time), while converting a model needs only the graph
classes. :func:`import_networkx` executes networkx's own ``__init__`` without the lines that
star-import those deferred subpackages, and gives the module a ``__getattr__`` that imports them,
in networkx's order, the first time a name the partial module lacks is asked for. So
``nx.topological_sort``, ``from networkx import find_cycle``, ``dir(networkx)`` and
``import networkx.algorithms.isomorphism`` see exactly what a plain import gives.

networkx's backend dispatcher looks up entry points while it imports, through
``importlib.metadata`` (about 20 ms: that module pulls in email, zipfile, csv...). When no installed
distribution declares a networkx backend, which a cheap scan of the ``*.dist-info`` directories
tells, the import sees an empty entry-point list instead, and the dispatcher keeps a function
that imports ``importlib.metadata`` on first use. With a backend installed, nothing changes.

When networkx is already imported, or its ``__init__`` does not have the expected lines (another
networkx release), this is a plain ``import networkx``.
"""
import importlib
import importlib.util
import os
import sys
import types

#: networkx subpackages whose star-imports are deferred, in the order networkx's __init__ runs them
DEFERRED = ('convert_matrix', 'generators', 'readwrite', 'algorithms', 'linalg', 'drawing')


def _partial_source(source: str):
    """networkx's ``__init__`` source without the deferred imports, or None if they are not all there."""
    lines = source.splitlines(keepends=True)
    wanted = {}
    for package in DEFERRED:
        wanted['from networkx import {}'.format(package)] = package
        wanted['from networkx.{} import *'.format(package)] = package
    found = 0
    for i, line in enumerate(lines):
        if line.strip() in wanted:
            lines[i] = '\n'  # keeps line numbers of tracebacks right
            found += 1
    return ''.join(lines) if found == len(wanted) else None


def _complete(module, original_getattr):
    """Run the deferred imports: afterwards the module holds what ``import networkx`` gives."""
    namespace = module.__dict__
    # restored first: a name asked for while the deferred modules import is missing, as it
    # would be during networkx's own __init__
    namespace.pop('__dir__', None)
    if original_getattr is None:
        namespace.pop('__getattr__', None)
    else:
        namespace['__getattr__'] = original_getattr
    for package in DEFERRED:
        submodule = importlib.import_module('networkx.' + package)
        names = getattr(submodule, '__all__', None)
        if names is None:
            names = [name for name in vars(submodule) if not name.startswith('_')]
        for name in names:
            namespace[name] = getattr(submodule, name)


def _install_completion(module):
    namespace = module.__dict__
    original_getattr = namespace.get('__getattr__')

    def __getattr__(name):
        if name.startswith('__') and name.endswith('__') and name != '__all__':
            # interpreter probes (__wrapped__, __file__ of a frozen check...) need not load
            # everything; ``from networkx import *`` asks for __all__ and must see every name
            raise AttributeError("module 'networkx' has no attribute {!r}".format(name))
        _complete(module, original_getattr)
        if name in namespace:
            return namespace[name]
        if original_getattr is not None:
            return original_getattr(name)
        raise AttributeError("module 'networkx' has no attribute {!r}".format(name))

    def __dir__():
        _complete(module, original_getattr)
        return sorted(namespace)

    namespace['__getattr__'] = __getattr__
    namespace['__dir__'] = __dir__


#: the entry-point groups networkx's dispatcher reads at import
BACKEND_GROUPS = ('networkx.backends', 'networkx.backend_info')
#: networkx's own test backend, which its dispatcher drops
_LOOPBACK = 'nx_loopback'


def _declared_backends(text: str):
    """(group, name) of the networkx backend entry points in one ``entry_points.txt``."""
    found, group = [], None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('['):
            group = line.strip('[]').strip()
        elif group in BACKEND_GROUPS and '=' in line:
            found.append((group, line.split('=', 1)[0].strip()))
    return found


def installed_backends_possible() -> bool:
    """Whether some distribution on ``sys.path`` may declare a networkx backend.

    False only when every ``*.dist-info``/``*.egg-info`` was read and none declares one (networkx's
    own test loopback aside); anything unreadable or unusual answers True.
    """
    for entry in sys.path:
        try:
            names = os.listdir(entry or '.')
        except OSError:
            if os.path.exists(entry) and not os.path.isdir(entry):
                return True  # a zip or egg file: importlib.metadata would look inside
            continue
        for name in names:
            if not name.endswith(('.dist-info', '.egg-info')):
                continue
            path = os.path.join(entry or '.', name, 'entry_points.txt')
            try:
                with open(path, 'rb') as f:
                    data = f.read()
            except FileNotFoundError:
                continue
            except OSError:
                return True
            if b'networkx.backend' not in data:
                continue
            for group, backend in _declared_backends(data.decode('utf-8', 'replace')):
                if group != 'networkx.backends' or backend != _LOOPBACK:
                    return True
    return False


def _entry_points_on_demand(**params):
    """``importlib.metadata.entry_points``, imported when first called."""
    from importlib.metadata import entry_points
    return entry_points(**params)


def _exec_without_metadata(code, namespace):
    """Run networkx's ``__init__`` with an empty entry-point list for its dispatcher."""
    stub = types.ModuleType('importlib.metadata')
    stub.entry_points = lambda **params: ()
    sys.modules['importlib.metadata'] = stub
    try:
        exec(code, namespace)
    finally:
        if sys.modules.get('importlib.metadata') is stub:
            del sys.modules['importlib.metadata']
    backends = sys.modules.get('networkx.utils.backends')
    if backends is not None and getattr(backends, 'entry_points', None) is stub.entry_points:
        backends.entry_points = _entry_points_on_demand


def import_networkx():
    """The networkx module, imported without running its algorithm catalogue yet."""
    if 'networkx' in sys.modules:
        return sys.modules['networkx']
    spec = importlib.util.find_spec('networkx')
    source = None
    if spec is not None and spec.origin and spec.origin.endswith('__init__.py'):
        try:
            with open(spec.origin, encoding='utf-8') as f:
                source = _partial_source(f.read())
        except OSError:
            source = None
    if source is None:
        return importlib.import_module('networkx')
    module = importlib.util.module_from_spec(spec)
    sys.modules['networkx'] = module
    code = compile(source, spec.origin, 'exec')
    try:
        if 'importlib.metadata' in sys.modules or installed_backends_possible():
            exec(code, module.__dict__)
        else:
            _exec_without_metadata(code, module.__dict__)
    except BaseException:
        for name in [n for n in sys.modules if n == 'networkx' or n.startswith('networkx.')]:
            del sys.modules[name]
        raise
    _install_completion(module)
    return module
