"""A node's attribute dict that keeps its graph's index in step with writes to the indexed keys.

The graph indexes nodes by ``op``, ``type``, ``kind``, ``name`` and ``sub_graphs`` (see ``mo.graph.graph``). An
attribute may be written through ``node.x = v``, ``node['x'] = v`` or networkx's
``graph.nodes[n]['x'] = v``; all end in this dict, which reports the indexed keys to its graph.
"""

#: node attributes the graph keeps an index for (``sub_graphs`` by presence: which nodes own body graphs)
INDEXED_ATTRS = ('op', 'type', 'kind', 'name', 'sub_graphs')
INDEXED = frozenset(INDEXED_ATTRS)
#: what a data node's dict may leave out, and reads all the same (``IndexedAttrs.__missing__``)
DERIVED_DATA_ATTRS = ('name', 'value')


class IndexedAttrs(dict):
    """A node's attribute dict that keeps its graph's index in step with writes to indexed keys."""
    # ``_rank``: when the node was added to its graph (the graph's insertion order, for sorts that must not depend
    # on the hash seed); a slot, as cheap as the id itself, where a graph-wide dict of ranks took ~40 B a node
    __slots__ = ('_graph', '_node_id', '_rank')

    def __missing__(self, key):
        # a data node's name is its id and its value None until one is set, as the Model Optimizer made them
        # (``name=id, value=None``): ``data_node_attrs`` leaves both keys out. The usual data node then has four
        # keys and a dict 80 bytes smaller, and the name index holds no data nodes (a million: about 100 MB)
        if key in DERIVED_DATA_ATTRS and dict.get(self, 'kind') == 'data':
            return getattr(self, '_node_id', None) if key == 'name' else None
        raise KeyError(key)

    def _bind(self, graph, node_id):
        self._graph = graph
        self._node_id = node_id

    def _owner(self):
        return getattr(self, '_graph', None)

    def __reduce_ex__(self, protocol):
        # copied or pickled as its items, then bound: ``copy.deepcopy(graph)`` rebuilds these dicts while the
        # graph copy is itself half rebuilt, so the items must not be reported to it (its index is copied whole)
        binding = {'_graph': self._owner(), '_node_id': getattr(self, '_node_id', None),
                   '_rank': getattr(self, '_rank', None)}
        return _restored, (dict(self),), (None, binding)

    def __setitem__(self, key, value):
        if key in INDEXED:  # the common case, any other key, is a plain dict write
            graph = self._owner()
            if graph is not None:
                graph._reindex(self._node_id, key, self.get(key), value)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key):
        if key in INDEXED and key in self:
            graph = self._owner()
            if graph is not None:
                graph._reindex(self._node_id, key, self[key], None)
        dict.__delitem__(self, key)

    def update(self, *args, **kwargs):
        items = args[0] if len(args) == 1 and not kwargs and isinstance(args[0], dict) else dict(*args, **kwargs)
        graph = getattr(self, '_graph', None)  # _owner(), inlined: extraction updates every node of a model
        if graph is not None:
            # only the indexed keys whose value changes need the index; the rest is one dict update
            get = self.get
            for key in INDEXED_ATTRS:
                if key in items:
                    old, new = get(key), items[key]
                    if old is not new and old != new:
                        graph._reindex(self._node_id, key, old, new)
        dict.update(self, items)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key, *default):
        if key in self:
            value = self[key]
            del self[key]
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def clear(self):
        for key in list(self):
            del self[key]


def _restored(items: dict) -> IndexedAttrs:
    """An ``IndexedAttrs`` holding ``items``, not bound yet (copy and pickle bind it next)."""
    attrs = IndexedAttrs()
    dict.update(attrs, items)
    return attrs
