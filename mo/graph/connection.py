"""A connection: one output port and the input ports it feeds.

``out_port.get_connection()`` covers every consumer of that output; ``in_port.get_connection()``
covers only that input (its source and itself). Re-wiring a connection moves exactly those
edges, which is what makes ``set_source`` / ``set_destination`` / ``insert_node`` safe to use
inside a replacement.

Re-wiring also decides which framework tensor names the resulting tensor keeps. mo's own names
(``tensor_names``) follow the tensor to its new producer. The Model Optimizer's ``fw_tensor_debug_info``
records (on edges in the front phase, on data nodes after it) follow its ``attributes_save_mode``:
``'source'`` keeps the records of the resulting connection's source, ``'dest'`` those of its destination
(the side that is replaced), ``'merge'`` both; left out, it is ``'merge'``, or ``'source'`` when the
connection's source is a Parameter (a model input keeps its names).
"""
from mo.utils.error import Error

DEBUG_INFO = 'fw_tensor_debug_info'
SAVE_MODES = ('merge', 'source', 'dest')


def _records(attrs) -> list:
    return list((attrs or {}).get(DEBUG_INFO) or ())


def _chosen_records(mode: str, source_records: list, dest_records: list) -> list:
    if mode == 'merge':
        return source_records + dest_records
    return source_records if mode == 'source' else dest_records


def _store_records(attrs: dict, records: list):
    if records:
        attrs[DEBUG_INFO] = records
    else:
        attrs.pop(DEBUG_INFO, None)


def _unique(records: list) -> list:
    result = []
    for record in records:
        if record not in result:
            result.append(record)
    return result


class Connection:
    """An output port (``source``, may be None) and the input ports it feeds (``destinations``)."""

    def __init__(self, graph, source, destinations):
        self.graph = graph
        self.source = source
        self.destinations = list(destinations)

    def __repr__(self):
        return 'Connection({} -> {})'.format(self.source, self.destinations)

    @property
    def data(self):
        """The tensor this connection carries (``get_shape()``, ``get_value()``, ``set_shape()``...):
        the source's output, or the only destination's input when there is no source yet."""
        if self.source is not None:
            return self.source.data
        if len(self.destinations) == 1:
            return self.destinations[0].data
        raise Error('Connection {} has no source and {} destinations: it carries no one tensor', self,
                    len(self.destinations))

    def get_source(self):
        return self.source

    def get_destination(self):
        if len(self.destinations) > 1:
            raise Error('Connection from {} has {} destinations where one was expected', self.source,
                        len(self.destinations))
        return self.destinations[0] if self.destinations else None

    def get_destinations(self):
        return list(self.destinations)

    # ----- the Model Optimizer's tensor debug records -------------------------------------------
    def _save_mode(self, attributes_save_mode):
        if attributes_save_mode is None:
            source = self.source
            return 'source' if source is not None and source.node.soft_get('type') == 'Parameter' else 'merge'
        if attributes_save_mode not in SAVE_MODES:
            raise Error('attributes_save_mode must be one of {}, not {!r}', ', '.join(SAVE_MODES), attributes_save_mode)
        return attributes_save_mode

    def _data_attrs(self, data_id):
        return None if data_id is None else self.graph._node[data_id]

    # ----- re-wiring -----------------------------------------------------------------------
    def set_source(self, port, attributes_save_mode: str = None):
        """Feed every destination of this connection from output ``port`` instead."""
        self._rewire_source(port, attributes_save_mode, carry_names=attributes_save_mode != 'dest')

    def _rewire_source(self, port, attributes_save_mode, carry_names: bool):
        if port.type != 'out':
            raise Error("Wrong port type in set_source method. Should be 'out' but given 'in' ({})", port)
        mode = self._save_mode(attributes_save_mode)
        old_names = self.source._own_tensor_names() if carry_names and self.source is not None else []
        if not port._through_data_nodes():
            # front phase: each destination's edge keeps its own records, as the save mode combines them with
            # the records on the new source's edges
            source_records = _unique([record for _, _, _, attrs in port._out_edges() for record in _records(attrs)])
            old_records = []
            for destination in self.destinations:
                edge = destination._in_edge()
                old_records.append(None if edge is None else _records(edge[3]))
            for destination, records in zip(self.destinations, old_records):
                port.connect(destination)
                new_edge = destination._in_edge()
                if records is None:
                    new = [] if mode == 'dest' else list(source_records)
                else:
                    new = _chosen_records(mode, list(source_records), records)
                _store_records(new_edge[3], new)
        else:
            # middle and back phases: the records live on data nodes; the old source's data node gives its
            # records up unless the save mode keeps them with the source
            old_data = self._data_attrs(self.source._data_id()) if self.source is not None else None
            old_records = _records(old_data)
            if old_data is not None and mode != 'source':
                old_data.pop(DEBUG_INFO, None)
            for destination in self.destinations:
                port.connect(destination)
            new_data = self._data_attrs(port._data_id(create=bool(old_records)))
            if new_data is not None:
                _store_records(new_data, _chosen_records(mode, _records(new_data), old_records))
        if old_names:
            # the users' names for the tensor now belong to the port that produces it
            port._add_own_tensor_names(old_names)
        self.source = port

    def set_destination(self, port, attributes_save_mode: str = None):
        """Make input ``port`` the only destination: the old destination (one at most) is disconnected."""
        if len(self.destinations) > 1:
            raise Error('set_destination applicable only for connections that has exactly one destination or '
                        'when there is no destinations (the connection from {} has {})', self.source,
                        len(self.destinations))
        if port.type != 'in':
            raise Error("Wrong port type in set_destination method. Should be 'in' but given 'out' ({})", port)
        mode = self._save_mode(attributes_save_mode)
        if self.source is None:
            for destination in self.destinations:
                destination.disconnect()
            self.destinations = [port]
            return
        if not self.source._through_data_nodes():
            old_edge = self.destinations[0]._in_edge() if self.destinations else None
            source_records = _records(old_edge[3]) if old_edge is not None else []
            dest_edge = port._in_edge()
            dest_records = _records(dest_edge[3]) if dest_edge is not None else []
            for destination in self.destinations:
                destination.disconnect()
            self.source.connect(port)
            _store_records(port._in_edge()[3], _chosen_records(mode, source_records, dest_records))
        else:
            dest_edge = port._in_edge()
            dest_data = self._data_attrs(dest_edge[0]) if dest_edge is not None else None
            dest_records = _records(dest_data)
            for destination in self.destinations:
                destination.disconnect()
            self.source.connect(port)
            data = self._data_attrs(self.source._data_id(create=True))
            _store_records(data, _chosen_records(mode, _records(data), dest_records))
        self.destinations = [port]

    def add_destination(self, port):
        """Also feed input ``port`` from this connection's source."""
        if self.source is None:
            raise Error('Can not add destination {} for connection without source port', port)
        self.source.connect(port)
        self.destinations.append(port)

    def insert_node(self, new_node, attributes_save_mode: str = 'merge', new_node_in_port: int = 0,
                    new_node_out_port: int = 0):
        """Put ``new_node`` on this connection: source -> new_node -> every destination.

        The tensor's ``fw_tensor_debug_info`` records go with ``attributes_save_mode`` (``'merge'``: the new
        node's output takes them over, as in the Model Optimizer); mo's own tensor names stay with the source.
        ``insert_node(node, 1)`` (mo's older form) means ``new_node_in_port=1``.
        """
        if isinstance(attributes_save_mode, int):
            new_node_in_port, attributes_save_mode = attributes_save_mode, 'merge'
        source = self.source
        self._rewire_source(new_node.out_port(new_node_out_port), attributes_save_mode, carry_names=False)
        self.source = source
        if source is not None:
            source.connect(new_node.in_port(new_node_in_port))
        self.destinations = [new_node.in_port(new_node_in_port)]

    def remove(self):
        """Disconnect every destination from the source."""
        for destination in self.destinations:
            destination.disconnect()
        self.destinations = []
