"""Shapes as extension authors' code sees them: the Model Optimizer's masked arrays at the accessors it reads.

mo's passes store a shape as a plain int64 array with ``-1`` for an unknown dimension (``mo.utils.shape``); code
written for the Model Optimizer expects a masked array whose masked entries are the dynamic dimensions
(``mo.front.common.partial_infer.utils``), tests ``shape[i] is dynamic_dimension`` and computes on shapes with
the mask propagating. This module gives each side its own form over one stored representation:

- **Reads.** ``node.shape``, ``node['shape']``, ``node.soft_get('shape')``, ``port.data.get_shape()`` and the
  networkx-1 view ``graph.node[id]['shape']`` return the masked form when the code calling them is an author's
  (its module is neither ``mo.*`` nor ``extensions.*``) and the graph is an author's: built by
  ``mo.utils.unittest.graph.build_graph`` (:func:`mark_graph`), or being worked on by an author's class (the
  pipeline wraps calls into authors' replacers and infer functions in :func:`author_call`). A built-in
  function reading the same attribute, even when an author's test calls it (``Concat.infer(node)``), gets
  mo's form. The masked array shares the stored array's memory, so writing a size into it writes the graph.
- **Writes.** A masked shape or value (or a list holding ``dynamic_dimension``) written as a node attribute, by
  ``node.shape = ...``, ``node['shape'] = ...``, ``graph.node[id][...] = ...``, ``graph.add_node`` (so
  ``build_graph`` and ``Op.create_node`` too) or ``port.data.set_shape/set_value``, is stored in mo's form: each
  masked dimension becomes ``-1``; a value with masked entries, which mo cannot store, becomes None.

Nothing of this runs until it is needed: :func:`install` swaps the viewing accessors in the first time a
legacy ``build_graph`` graph is made or an author's class is called, so conversions without extensions and
mo's own tests run the plain accessors.
"""
import sys
from collections.abc import MutableMapping

import numpy as np

from mo.graph.legacy_api import LegacyGraphAPI
from mo.graph.node import Node
from mo.graph.node_attrs import IndexedAttrs
from mo.graph.port import PortData
from mo.utils.shape import AUTHOR_DYNAMIC_VALUE, is_masked_array, is_masked_constant, shape_array

#: graph attribute marking a graph built by the Model Optimizer's test helpers: its shapes are authors' to read
GRAPH_MARK = 'author_shapes'
_BUILTIN_PACKAGES = ('mo', 'extensions')

_author_calls = [0]  # how many calls into authors' classes are under way (nested calls count each)
_installed = []  # the plain accessors, once the viewing ones have replaced them
_module_is_author = {}  # module name -> is it an author's (cached: checked on every viewed read)


def is_author_module(name) -> bool:
    """Is module ``name`` an author's, i.e. none of mo's own packages?"""
    known = _module_is_author.get(name)
    if known is None:
        known = _module_is_author[name] = bool(name) and name.partition('.')[0] not in _BUILTIN_PACKAGES
    return known


def is_author_code(obj) -> bool:
    """Is ``obj`` (a class or function) defined in an author's module?"""
    return is_author_module(getattr(obj, '__module__', None))


class author_call:
    """Context of a call into an author's replacer or infer function: reads by the author's code are viewed."""

    def __enter__(self):
        install()
        _author_calls[0] += 1

    def __exit__(self, *exc):
        _author_calls[0] -= 1
        return False


def mark_graph(graph):
    """Mark ``graph`` as an author's (the Model Optimizer's ``build_graph`` does): shapes read by authors' code
    are masked."""
    graph.graph[GRAPH_MARK] = True
    install()


# ----- the two forms -----------------------------------------------------------------------------------
def masked_shape(shape):
    """A stored shape in the authors' form: a masked array over the same memory, the negative sizes masked."""
    if type(shape) is np.ndarray and shape.dtype.kind in 'iu':
        return np.ma.masked_array(shape, mask=shape < 0, fill_value=AUTHOR_DYNAMIC_VALUE)
    return shape


def _holds_masked(items) -> bool:
    return any(is_masked_constant(item) for item in items)


def stored_shape(shape):
    """A shape written by any code, in mo's form: masked entries and the authors' marker value become ``-1``."""
    if is_masked_array(shape):
        return shape_array(shape)
    if type(shape) is np.ndarray and shape.dtype.kind == 'i' and shape.size and shape.min() == AUTHOR_DYNAMIC_VALUE:
        return shape_array(shape)
    if isinstance(shape, (list, tuple)) and _holds_masked(shape):
        return shape_array(shape)
    return shape


def stored_value(value):
    """A value written by any code, in mo's form: a masked array becomes a plain one, or None when it has masked
    entries (mo has no partially known values)."""
    if is_masked_array(value):
        return None if np.ma.is_masked(value) else np.ma.getdata(value)
    return value


_STORE = {'shape': stored_shape, 'value': stored_value}


def _viewed(graph) -> bool:
    """Should the read being made get the authors' form? Called straight from a viewing accessor, so frame 2 is the
    code that called the accessor."""
    if not (_author_calls[0] or graph.graph.get(GRAPH_MARK)):
        return False
    return is_author_module(sys._getframe(2).f_globals.get('__name__'))


# ----- the viewing accessors ---------------------------------------------------------------------------
class _AuthorAttrs(MutableMapping):
    """A node's attribute dict as ``graph.node[id]`` shows it to authors: ``shape`` masked."""
    __slots__ = ('_attrs',)

    def __init__(self, attrs):
        self._attrs = attrs

    def __getitem__(self, key):
        value = self._attrs[key]
        return masked_shape(value) if key == 'shape' else value

    def __setitem__(self, key, value):
        self._attrs[key] = value

    def __delitem__(self, key):
        del self._attrs[key]

    def __iter__(self):
        return iter(self._attrs)

    def __len__(self):
        return len(self._attrs)

    def __contains__(self, key):
        return key in self._attrs

    def copy(self) -> dict:
        return dict(self.items())

    def __repr__(self):
        return repr({key: self[key] for key in self._attrs})


class _AuthorNodeView:
    """networkx 1.x's ``graph.node`` for authors: ``graph.node[id]`` is the node's attributes with shapes masked."""
    __slots__ = ('_nodes',)

    def __init__(self, nodes):
        self._nodes = nodes

    def __getitem__(self, node_id):
        return _AuthorAttrs(self._nodes[node_id])

    def __getattr__(self, name):
        return getattr(self._nodes, name)

    def __iter__(self):
        return iter(self._nodes)

    def __len__(self):
        return len(self._nodes)

    def __contains__(self, node_id):
        return node_id in self._nodes

    def __call__(self, *args, **kwargs):
        return self._nodes(*args, **kwargs)


def install():
    """Swap the viewing accessors in (once; they cost a check per shape read, so only processes running authors'
    code get them)."""
    if _installed:
        return
    plain = {'getattr': Node.__getattr__, 'getitem': Node.__getitem__, 'soft_get': Node.soft_get,
             'get_shape': PortData.get_shape, 'node': LegacyGraphAPI.node.fget,
             'init': IndexedAttrs.__init__, 'setitem': IndexedAttrs.__setitem__, 'update': IndexedAttrs.update}
    _installed.append(plain)

    def node_getattr(self, key):
        value = plain['getattr'](self, key)
        return masked_shape(value) if key == 'shape' and _viewed(self.graph) else value

    def node_getitem(self, key):
        value = plain['getitem'](self, key)
        return masked_shape(value) if key == 'shape' and _viewed(self.graph) else value

    def soft_get(self, key, default='<UNKNOWN>'):
        value = plain['soft_get'](self, key, default)
        return masked_shape(value) if key == 'shape' and _viewed(self.graph) else value

    def get_shape(self):
        shape = plain['get_shape'](self)
        return masked_shape(shape) if shape is not None and _viewed(self.port.node.graph) else shape

    def node_view(self):
        nodes = plain['node'](self)
        return _AuthorNodeView(nodes) if _viewed(self) else nodes

    def attrs_init(self, *args, **kwargs):
        plain['init'](self, *args, **kwargs)
        for key, store in _STORE.items():
            if key in self:
                dict.__setitem__(self, key, store(dict.__getitem__(self, key)))

    def attrs_setitem(self, key, value):
        store = _STORE.get(key)
        plain['setitem'](self, key, value if store is None else store(value))

    def attrs_update(self, *args, **kwargs):
        items = args[0] if len(args) == 1 and not kwargs and isinstance(args[0], dict) else dict(*args, **kwargs)
        if 'shape' in items or 'value' in items:
            items = {key: _STORE[key](value) if key in _STORE else value for key, value in items.items()}
        plain['update'](self, items)

    Node.__getattr__, Node.__getitem__, Node.soft_get = node_getattr, node_getitem, soft_get
    PortData.get_shape = get_shape
    LegacyGraphAPI.node = property(node_view, doc=LegacyGraphAPI.node.__doc__)
    IndexedAttrs.__init__, IndexedAttrs.__setitem__, IndexedAttrs.update = attrs_init, attrs_setitem, attrs_update
