"""Ports: the ends of connections, the same in every phase.

A port is ``(node, 'in'|'out', index)``. In the front phase an input port is fed by one edge from
an op; in the middle and back phases the edge comes from the data node an op's output port
writes. Port methods hide that difference, so a replacer written against ports works in any
phase. Every edit removes exactly the edges it means to, never a parallel twin.

Each tensor has one record, a dict of ``TENSOR_KEYS`` (shape, value, element type, names) that every
phase reads through ``Port.tensor()``, ``port.data`` and the name methods: the output port's entry in
its node's port table, which is the data node's attribute dict itself once the port has a data node
(``add_data_node``).
"""
import numpy as np

from mo.utils.shape import is_masked_array, shape_array
from mo.graph.connection import Connection
from mo.graph.in_port_index import WIDE, find_in_edge
from mo.utils.error import Error


def _is_data_edge(attrs):
    return not attrs.get('control_flow_edge')


def add_data_node(graph, node_id, port: int, data_id) -> None:
    """Give output ``port`` of op ``node_id`` the data node ``data_id`` (no edge yet). The tensor's record moves
    onto it: the data node's attribute dict becomes the port-table entry too, so the record has one home,
    which outlives the data node (an unused model input's names survive its data node's clean-up)."""
    attrs = graph._node[node_id]
    table = attrs.get('_out_ports')
    record = table.get(port) if table else None
    graph.add_node(data_id, **data_node_attrs(data_id, record))
    if port == 0 and type(table) is _SharedPortTable and len(table) == 1:
        attrs['_out_ports'] = data_node_port_table(1)  # the usual op: its one output's record is the data node
    else:
        own_port_table(attrs, '_out_ports')[port] = graph._node[data_id]


def data_node_attrs(data_id, record=None) -> dict:
    """The attributes of a new data node ``data_id`` for a tensor whose record (a port-table entry) is ``record``."""
    # no 'name' or 'value' keys: a data node's name reads as its id, its value as None until one is set
    # (``IndexedAttrs.__missing__``)
    attrs = {'kind': 'data', 'shape': None}
    if record and type(record) is not _SharedPortRecord:  # most ports: the shared plain record, no tensor keys
        for key in TENSOR_KEYS:
            if key in record:
                attrs[key] = record[key]
    return attrs


class _ReadOnlyShared(dict):
    """A dict one instance of which many nodes share: reading it is reading a dict, a write raises (it would change
    every holder at once; ``_MESSAGE`` says what to do instead), and copies and pickles stay the shared instance."""
    __slots__ = ()
    _MESSAGE = ''

    def _read_only(self, *args, **kwargs):
        raise TypeError(self._MESSAGE)

    __setitem__ = __delitem__ = update = popitem = clear = __ior__ = _read_only

    def setdefault(self, key, default=None):
        if key in self:
            return self[key]
        self._read_only()

    def pop(self, key, *default):
        if key in self:
            self._read_only()
        if default:
            return default[0]
        raise KeyError(key)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class _SharedPortRecord(_ReadOnlyShared):
    """The port-table entry of a port that is declared and nothing more, ``{'control_flow': False}``: one
    read-only instance shared by every such port (a model has one per op input and output; a dict each cost
    184 bytes). Code that records something on a port (``Port.tensor(create=True)``) first puts a copy of its
    own in the table (``writable_port_record``)."""
    __slots__ = ()
    _MESSAGE = ('the shared record of a plain port is read-only: put a dict of its own in the port table '
                '(mo.graph.port.writable_port_record)')

    def __reduce__(self):
        # pickled by reference: unpickled, it is the shared instance again
        return 'ON_DATA_NODE' if self is ON_DATA_NODE else 'PLAIN_PORT_RECORD'


#: the record of a declared port with nothing on it (see ``_SharedPortRecord``)
PLAIN_PORT_RECORD = _SharedPortRecord(control_flow=False)
#: the entry of an output port whose record is the attribute dict of its data node (middle and back phases):
#: readers find that dict through the port's edge, and when the data node loses its producer edge the graph
#: puts the dict itself in the op's table (``keep_out_records``), so the record outlives the data node as before.
#: Until then ops share one table of these per port count instead of a table each (224 bytes an op).
ON_DATA_NODE = _SharedPortRecord(control_flow=False)


class _SharedPortTable(_ReadOnlyShared):
    """The input-port table of an op created with its ports declared and nothing more, ``{0: plain record, 1: ...}``:
    one read-only instance per port count, shared by every such op (rules and lowerings make ops by the hundred
    thousand; a table each cost 228 bytes). Code that changes an op's ports takes a table of its own first
    (``own_port_table``)."""
    __slots__ = ()
    _MESSAGE = ('a shared port table is read-only: put a table of its own in the node '
                '(mo.graph.port.own_port_table)')

    def __reduce__(self):
        on_data_nodes = any(record is ON_DATA_NODE for record in self.values())
        return (data_node_port_table if on_data_nodes else plain_port_table), (len(self),)


_SHARED_TABLES = {}


def plain_port_table(count: int) -> dict:
    """The shared read-only port table of ``count`` declared plain ports (see ``_SharedPortTable``)."""
    return _shared_table(count, PLAIN_PORT_RECORD)


def data_node_port_table(count: int) -> dict:
    """The shared read-only output-port table of ``count`` ports whose records are their data nodes."""
    return _shared_table(count, ON_DATA_NODE)


def _shared_table(count: int, record) -> dict:
    table = _SHARED_TABLES.get((count, record is ON_DATA_NODE))
    if table is None:
        table = _SHARED_TABLES[count, record is ON_DATA_NODE] = _SharedPortTable(dict.fromkeys(range(count), record))
    return table


def keep_out_records(graph, data_id, dying=()) -> None:
    """Before data node ``data_id`` goes: each producer not in ``dying`` whose record of it is ``ON_DATA_NODE``
    gets the data node's attribute dict in its port table."""
    for op_id, keyed in graph._pred.get(data_id, {}).items():
        if op_id not in dying:
            for key in keyed:
                keep_out_record(graph, op_id, data_id, key)


def keep_out_record(graph, op_id, data_id, key) -> None:
    """Before edge ``(op_id, data_id, key)`` goes: if it is the edge from an op to the data node that holds the
    op's record of that output (``ON_DATA_NODE``), the data node's attribute dict goes in the op's port table."""
    table = graph._node[op_id].get('_out_ports')
    if table:
        port = graph._succ[op_id][data_id][key].get('out')
        if table.get(port) is ON_DATA_NODE and graph._node[data_id].get('kind') == 'data':
            own_port_table(graph._node[op_id], '_out_ports')[port] = graph._node[data_id]


def own_port_table(attrs: dict, key: str) -> dict:
    """The port table ``attrs[key]`` (``'_in_ports'`` or ``'_out_ports'``) that may be written: made if missing, a
    copy of its own in place of a shared one."""
    table = attrs.get(key)
    if table is None or type(table) is _SharedPortTable:
        table = attrs[key] = {} if table is None else dict(table)
    return table


def port_record(control_flow: bool = False) -> dict:
    """A new port-table entry: the shared plain record, or a dict of its own for a control-flow port."""
    return {'control_flow': control_flow} if control_flow else PLAIN_PORT_RECORD


def writable_port_record(table: dict, idx) -> dict:
    """The entry of port ``idx`` in port ``table`` that may be written: made if missing, a copy of its own in
    place of the shared plain record."""
    record = table.get(idx)
    if record is None or type(record) is _SharedPortRecord:
        record = table[idx] = {} if record is None else dict(record)
    return record


#: the Model Optimizer's attribute for a tensor's framework names (see ``Port.get_tensor_debug_info``)
DEBUG_INFO = 'fw_tensor_debug_info'

#: what a tensor's record holds: its shape, value, element type and the framework names users know it by
TENSOR_KEYS = ('shape', 'value', 'tensor_names', 'data_type', 'dynamic_rank')


class PortData:
    """Shape, value and element type of the tensor that flows through a port (its record, see ``Port.tensor``)."""

    def __init__(self, port):
        self.port = port

    def _store(self, create=False):
        return self.port.tensor(create)

    def get_shape(self):
        store = self._store()
        return None if store is None else store.get('shape')

    def set_dynamic_rank(self):
        """The tensor's rank is known at run time only (no shape; OpenVINO infers it when it reads the IR)."""
        store = self._store(create=True)
        if store is None:
            raise Error('Cannot set a shape on unconnected input {} of "{}"', self.port.idx,
                        self.port.node.soft_get('name'))
        store['shape'] = None
        store['dynamic_rank'] = True

    def is_dynamic_rank(self) -> bool:
        store = self._store()
        return bool(store is not None and store.get('dynamic_rank'))

    def get_value(self):
        store = self._store()
        return None if store is None else store.get('value')

    def set_shape(self, shape):
        store = self._store(create=True)
        if store is None:
            raise Error('Cannot set a shape on unconnected input {} of "{}"', self.port.idx, self.port.node.soft_get('name'))
        store['shape'] = shape_array(shape)

    def set_value(self, value, force_shape=None):
        """Store ``value`` and its shape and element type. The shape recorded is ``force_shape`` when given, else
        the ``force_shape`` attribute of the data node or of the op producing the tensor, else the value's own
        (the Model Optimizer's way to keep a declared shape, e.g. dynamic dimensions, over a sample value)."""
        store = self._store(create=True)
        if store is None:
            raise Error('Cannot set a value on unconnected input {} of "{}"', self.port.idx, self.port.node.soft_get('name'))
        if is_masked_array(value):
            # an author's value with dynamic entries: mo keeps only what it knows of it, its shape
            if np.ma.is_masked(value):
                store['value'] = None
                store['shape'] = shape_array(value.shape if force_shape is None else force_shape)
                store['data_type'] = value.dtype
                return
            value = np.ma.getdata(value)
        value = np.asarray(value)
        if force_shape is None:
            force_shape = store.get('force_shape')
        if force_shape is None:
            source = self.port if self.port.type == 'out' else self.port.get_source()
            force_shape = None if source is None else source.node.graph._node[source.node.id].get('force_shape')
        store['value'] = value
        store['shape'] = np.array(value.shape, dtype=np.int64) if force_shape is None else shape_array(force_shape)
        store['data_type'] = value.dtype

    def get_data_type(self):
        """The numpy dtype of the tensor, or None when not known yet."""
        store = self._store()
        return None if store is None else store.get('data_type')

    def set_data_type(self, dtype):
        store = self._store(create=True)
        if store is None:
            raise Error('Cannot set a type on unconnected input {} of "{}"', self.port.idx, self.port.node.soft_get('name'))
        store['data_type'] = np.dtype(dtype)

    def get_attr(self, name, default=None):
        store = self._store()
        return default if store is None else store.get(name, default)


class Port:
    """One input or output of a node."""
    __slots__ = ('node', 'type', 'idx')

    def __init__(self, node, port_type: str, idx: int):
        assert port_type in ('in', 'out'), port_type
        self.node = node
        self.type = port_type
        self.idx = idx

    def __eq__(self, other):
        return isinstance(other, Port) and self.node == other.node and self.type == other.type \
            and self.idx == other.idx

    def __hash__(self):
        return hash((self.node.id, self.type, self.idx))

    def __repr__(self):
        return '{}:{}:{}'.format(self.node.soft_get('name', self.node.id), self.type, self.idx)

    @property
    def graph(self):
        return self.node.graph

    @property
    def data(self) -> PortData:
        return PortData(self)

    # ----- edges behind the port ---------------------------------------------------------
    def _in_edge(self):
        """(src, dst, key, attrs) of the edge into this input port, or None."""
        node_id, idx = self.node.id, self.idx
        graph = self.node.graph
        preds = graph._pred[node_id]
        if len(preds) > WIDE:
            return find_in_edge(graph, node_id, idx, preds)
        # raw adjacency: networkx's edge views cost more than the whole lookup
        for u, keyed in preds.items():
            for key, attrs in keyed.items():
                if attrs.get('in') == idx and not attrs.get('control_flow_edge'):
                    return u, node_id, key, attrs
        return None

    def _out_edges(self):
        node_id, idx = self.node.id, self.idx
        return [(node_id, v, key, attrs) for v, keyed in self.node.graph._succ[node_id].items()
                for key, attrs in keyed.items()
                if attrs.get('out') == idx and not attrs.get('control_flow_edge')]

    def _data_id(self, create=False):
        """Middle phase: the id of the data node behind this port (an out-port's may be created)."""
        graph = self.node.graph
        if self.type == 'in':
            edge = self._in_edge()
            return edge[0] if edge else None
        idx = self.idx
        # the first data edge of this output port: every inference reads and writes through it
        for v, keyed in graph._succ[self.node.id].items():
            for attrs in keyed.values():
                if attrs.get('out') == idx and not attrs.get('control_flow_edge'):
                    return v
        if not create:
            return None
        data_id = graph.unique_id('{}/out{}'.format(self.node.soft_get('name', self.node.id), idx))
        add_data_node(graph, self.node.id, idx, data_id)
        graph.add_edge(self.node.id, data_id, out=idx)
        return data_id

    def _data_node(self, create=False):
        """Middle phase: the data node behind this port (an out-port's may be created)."""
        data_id = self._data_id(create)
        return None if data_id is None else self.node.view(self.node.graph, data_id)

    def _through_data_nodes(self) -> bool:
        """Whether the graph connects ops through data nodes (the middle and back phases)."""
        return self.node.graph.phase != 'front'

    def tensor(self, create: bool = False):
        """The record of the tensor this port carries (an input: its source's), or None when there is none
        yet; ``create`` makes one for an output (a port-table entry, or a data node in the middle phase)."""
        if self.type == 'in':
            if self._through_data_nodes():
                # the data node read, even one without a producer (a graph an author's test builds)
                edge = self._in_edge()
                if edge is not None and self.node.graph._node[edge[0]].get('kind') == 'data':
                    return self.node.graph._node[edge[0]]
            source = self.get_source()
            return None if source is None else source.tensor(create)
        graph = self.node.graph
        data_id = self._data_id(create=create and self._through_data_nodes())
        if data_id is not None and graph._node[data_id].get('kind') == 'data':
            return graph._node[data_id]
        record = self.node._port_table('out').get(self.idx)
        if create or type(record) is _SharedPortRecord:
            # the shared plain record is never handed out: callers write into the record they get
            return writable_port_record(self.node._own_port_table('out'), self.idx)
        return record

    # ----- navigation --------------------------------------------------------------------
    def get_source(self):
        """The output port feeding this input port, or None when unconnected."""
        if self.type == 'out':
            raise Error('get_source() is for input ports; {} is an output port', self)
        edge = self._in_edge()
        if edge is None:
            return None
        graph = self.node.graph
        src, attrs = edge[0], edge[3]
        if graph._node[src].get('kind') != 'data':
            return Port(self.node.view(graph, src), 'out', attrs.get('out', 0))
        for producer, keyed in graph._pred[src].items():
            for pattrs in keyed.values():
                return Port(self.node.view(graph, producer), 'out', pattrs.get('out', 0))
        return None

    def get_destinations(self) -> list:
        """The input ports this output port feeds, in a stable order."""
        if self.type == 'in':
            raise Error('get_destinations() is for output ports; {} is an input port', self)
        graph = self.node.graph
        result = []
        for _, v, _, attrs in self._out_edges():
            if graph._node[v].get('kind') == 'data':
                for consumer, keyed in graph._succ[v].items():
                    for cattrs in keyed.values():
                        if 'in' in cattrs and _is_data_edge(cattrs):
                            result.append(Port(self.node.view(graph, consumer), 'in', cattrs['in']))
            else:
                result.append(Port(self.node.view(graph, v), 'in', attrs['in']))
        return result

    def get_destination(self):
        """The only input port this output port feeds (None if it feeds none)."""
        destinations = self.get_destinations()
        if len(destinations) > 1:
            raise Error('Output {} of "{}" feeds {} consumers where one was expected', self.idx,
                        self.node.soft_get('name', self.node.id), len(destinations))
        return destinations[0] if destinations else None

    def get_connection(self):
        """The connection through this port: for an input port, its source and this port only."""
        if self.type == 'in':
            return Connection(self.node.graph, self.get_source(), [self])
        return Connection(self.node.graph, self, self.get_destinations())

    def is_connected(self) -> bool:
        if self.type == 'in':
            return self._in_edge() is not None
        return bool(self.get_destinations()) or (self._through_data_nodes() and bool(self._out_edges()))

    def disconnected(self) -> bool:
        return not self.is_connected()

    # ----- editing -----------------------------------------------------------------------
    def connect(self, port):
        """Connect this port to ``port`` (one output, one input); the input's old feed is dropped."""
        if self.type == port.type:
            raise Error('Cannot connect {} to {}: both are {} ports', self, port, self.type)
        if self.type == 'in' and self._records_follow(port):
            # the Model Optimizer's ``in_port.connect(out_port)`` is ``set_source``: the debug records follow
            Connection(self.node.graph, self.get_source(), [self])._rewire_source(port, None, carry_names=False)
            return
        src, dst = (self, port) if self.type == 'out' else (port, self)
        dst.disconnect()
        graph = dst.node.graph
        src.node.add_output_port(src.idx, skip_if_exist=True)
        dst.node.add_input_port(dst.idx, skip_if_exist=True)
        if not src._through_data_nodes():
            graph.add_edge(src.node.id, dst.node.id, out=src.idx, **{'in': dst.idx})
        else:
            data_node = src._data_node(create=True)
            graph.add_edge(data_node.id, dst.node.id, **{'in': dst.idx})

    def _records_follow(self, source) -> bool:
        """Whether connecting this input to output ``source`` moves ``fw_tensor_debug_info`` records: the
        input's old feed has some, or (front phase) the new source's edges have some."""
        edge = self._in_edge()
        if not self._through_data_nodes():
            if edge is not None and edge[3].get(DEBUG_INFO):
                return True
            return any(attrs.get(DEBUG_INFO) for _, _, _, attrs in source._out_edges())
        return edge is not None and bool(self.node.graph._node[edge[0]].get(DEBUG_INFO))

    def disconnect(self):
        """Remove the edges behind this port: its feed (input) or all its consumers (output)."""
        graph = self.node.graph
        if self.type == 'in':
            edge = self._in_edge()
            if edge is not None:
                graph.remove_edge(edge[0], edge[1], edge[2])
            return
        for u, v, key, _ in self._out_edges():
            if graph._node[v].get('kind') == 'data':
                readers = [(consumer, ckey) for consumer, keyed in graph._succ[v].items()
                           for ckey, cattrs in keyed.items() if _is_data_edge(cattrs)]
                for consumer, ckey in readers:
                    graph.remove_edge(v, consumer, ckey)
            else:
                graph.remove_edge(u, v, key)

    # ----- tensor names ------------------------------------------------------------------
    # Two forms of the same knowledge live side by side. mo's own steps keep a tensor's framework names in its
    # record (``tensor_names``, in the order the framework gave them: the IR lists them so). Extension authors'
    # code and tests speak the Model Optimizer's ``fw_tensor_debug_info``: a list of ``(op name, tensor name)``
    # records on the tensor's edges (front phase) or on its data node (middle and back), which the Port and
    # Connection operations carry as the Model Optimizer's did. The readers below show both.
    def _debug_holders(self, port_renumber: bool = False) -> list:
        """The attribute dicts that hold this output's ``fw_tensor_debug_info``, where the Model Optimizer kept
        it: every edge of the port (front phase), or its data node (middle and back phases; with
        ``port_renumber``, the data node of output ``idx + number of inputs``, as numbered before the back phase
        renumbered an op's outputs after its inputs; a Const keeps its numbering)."""
        if self.type == 'in':
            raise Error("Can't get tensor debug info for input port at {} node", self.node.soft_get('name', self.node.id))
        if not self._through_data_nodes():
            return [attrs for _, _, _, attrs in self._out_edges()]
        graph = self.node.graph
        idx = self.idx
        if port_renumber and self.node.soft_get('type') != 'Const':
            idx += len(self.node.in_tensors())
        for v, keyed in graph._succ[self.node.id].items():
            for attrs in keyed.values():
                if attrs.get('out') == idx and not attrs.get('control_flow_edge') \
                        and graph._node[v].get('kind') == 'data':
                    return [graph._node[v]]
        return []

    def _debug_records(self, port_renumber: bool = False) -> list:
        """The ``fw_tensor_debug_info`` records stored for this output (each once, in the order found)."""
        records = []
        for holder in self._debug_holders(port_renumber):
            for record in holder.get(DEBUG_INFO) or ():
                if record not in records:
                    records.append(record)
        return records

    def get_tensor_debug_info(self, port_renumber: bool = False) -> list:
        """The Model Optimizer's ``fw_tensor_debug_info`` of this output: its stored records, then
        ``(framework node name, tensor name)`` for each name mo's own steps gave it that no record holds (an
        input port: its source's)."""
        if self.type == 'in':
            source = self.get_source()
            return [] if source is None else source.get_tensor_debug_info(port_renumber)
        records = self._debug_records(port_renumber)
        covered = {record_tensor_name(item) for item in records}
        uncovered = [name for name in (self._names_record(port_renumber) or {}).get('tensor_names') or ()
                     if name not in covered]
        records.extend(entry for entry in debug_info_of_names(uncovered) if entry not in records)
        return records

    def _names_record(self, port_renumber: bool = False):
        """The record that holds mo's own names of this output (with ``port_renumber``, the renumbered data
        node's), or None."""
        if port_renumber and self._through_data_nodes():
            holders = self._debug_holders(port_renumber)
            return holders[0] if holders else None
        return self.tensor()

    def set_tensor_debug_info(self, tensor_info: list, port_renumber: bool = False):
        """Replace this output's ``fw_tensor_debug_info`` records (on its edges in the front phase, on its
        data node after it; nothing when there is neither yet, as in the Model Optimizer)."""
        for holder in self._debug_holders(port_renumber):
            holder[DEBUG_INFO] = list(tensor_info)

    def get_tensor_names(self, port_renumber: bool = False) -> list:
        """Framework tensor names that users know this output by (an input: its source's).

        As the Model Optimizer gave them when the tensor carries ``fw_tensor_debug_info`` records: the tensor
        names of ``get_tensor_debug_info()``, sorted, commas escaped (``a\\,b``). Otherwise mo's names in the
        order the framework gave them (e.g. TF's ``['x', 'x:0']``), which is the order the IR lists them in.
        """
        if self.type == 'in':
            source = self.get_source()
            return [] if source is None else source.get_tensor_names(port_renumber)
        if not self._debug_records(port_renumber):
            return list((self._names_record(port_renumber) or {}).get('tensor_names') or [])
        names = [record_tensor_name(item) for item in self.get_tensor_debug_info(port_renumber)]
        return sorted(name.replace(',', '\\,') for name in names if name)

    def remove_tensor_names(self) -> list:
        """Forget the tensor names of this output port (its ``fw_tensor_debug_info`` records too); returns them.

        The graph remembers them (``graph.graph['retired_tensor_names']``): a name that no longer
        means this tensor must not come back as a name the IR writer derives from a node name.
        """
        record = self.tensor()
        names = list((record or {}).pop('tensor_names', None) or [])
        for holder in self._debug_holders():
            for item in holder.pop(DEBUG_INFO, None) or ():
                name = record_tensor_name(item)
                if name and name not in names:
                    names.append(name)
        if names:
            self.node.graph.graph.setdefault('retired_tensor_names', set()).update(names)
        return names

    def add_tensor_names(self, names, tensor_names=None, port_renumber: bool = False, first: bool = False):
        """Let users know this output by ``names`` too (after the names it has, or before them if ``first``).

        The Model Optimizer's forms work too: ``add_tensor_names(['a:0'])`` on a tensor that carries
        ``fw_tensor_debug_info`` records adds the record ``(this node's name, 'a:0')``, and
        ``add_tensor_names(op_names, tensor_names)`` (a list of name lists, one per op name) adds the records
        ``(op name, tensor name)``.
        """
        if isinstance(tensor_names, bool):  # mo's ``add_tensor_names(names, True)``
            tensor_names, first = None, tensor_names
        if tensor_names is None and not port_renumber and self.type == 'out':
            names = list(names)
            record = self._front_record_without_debug_info() if names else None
            if record is not None:  # the loaders name every output of a model so: one pass over its edges
                add_names_to_record(record, names, first)
                return
        if tensor_names is None:
            new_records = [(self.node.soft_get('name', self.node.id), name) for name in names] \
                if self._debug_records(port_renumber) else []
            plain = list(names)
        else:
            if len(tensor_names) != len(names):
                raise Error('Number of tensor name lists should be the same as number of operation name: {} and {}',
                            len(tensor_names), len(names))
            for group in tensor_names:
                if not isinstance(group, list):
                    raise Error('Tensor names elements should be lists with strings, got {!r}', group)
            new_records = [(op_name, name) for op_name, group in zip(names, tensor_names) for name in group]
            plain = [name for _, name in new_records]
        if new_records:
            self.set_tensor_debug_info(self.get_tensor_debug_info(port_renumber) + new_records, port_renumber)
        if plain:
            self._add_own_tensor_names(plain, first)

    def _front_record_without_debug_info(self):
        """Front phase: this output's record (its port-table entry, made if missing: what ``tensor(create=True)``
        gives) when none of its edges holds ``fw_tensor_debug_info`` records; None otherwise, and in the other
        phases (the general path then decides)."""
        graph = self.node.graph
        if graph.phase != 'front':
            return None
        node_id, idx = self.node.id, self.idx
        first_reader = None
        for reader, keyed in graph._succ[node_id].items():
            for attrs in keyed.values():
                if attrs.get('out') == idx and not attrs.get('control_flow_edge'):
                    if attrs.get(DEBUG_INFO):
                        return None
                    if first_reader is None:
                        first_reader = reader
        if first_reader is not None and graph._node[first_reader].get('kind') == 'data':
            return None  # a data node in a front-phase graph (an author's): its dict is the record
        return writable_port_record(self.node._own_port_table('out'), idx)

    def _own_tensor_names(self) -> list:
        """The names mo's own steps gave this output (``tensor_names``, without the debug records)."""
        return list((self.tensor() or {}).get('tensor_names') or ())

    def _add_own_tensor_names(self, names, first: bool = False):
        add_names_to_record(self.tensor(create=True), names, first)


def add_names_to_record(record: dict, names, first: bool = False):
    """Add ``names`` to the ``tensor_names`` of a tensor's record (before the names it has if ``first``), each once."""
    existing = record.get('tensor_names')
    if existing is None:
        # a tensor's first names (the loaders name every tensor of a model once): a list of exactly their
        # number, where extending an empty list would allocate room for eight
        record['tensor_names'] = list(dict.fromkeys(names))
        return
    new = [name for name in dict.fromkeys(names) if name not in existing]
    if first:
        existing[0:0] = new
    else:
        existing.extend(new)


def record_tensor_name(record):
    """The tensor name of one ``fw_tensor_debug_info`` record: ``(op, tensor name)``, ``(op, port, tensor
    name)``, or the 2021 releases' ``(op, port)``, which names ``op:port``."""
    if not record or len(record) < 2:
        return None
    last = record[-1]
    if isinstance(last, str):
        return last
    return '{}:{}'.format(record[0], last)


def debug_info_of_names(names) -> list:
    """``(framework node name, tensor name)`` records for mo's tensor names, as the Model Optimizer's loaders
    wrote them: TF's ``x`` and ``x:0`` are the one record ``('x', 'x:0')``."""
    info = []
    for name in names:
        node_name, _, port = name.rpartition(':')
        entry = (node_name, name) if node_name and port.isdigit() else (name, name + ':0')
        if entry not in info:
            info.append(entry)
    return info
