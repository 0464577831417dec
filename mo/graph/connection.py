"""A connection: one output port and the input ports it feeds.

``out_port.get_connection()`` covers every consumer of that output; ``in_port.get_connection()``
covers only that input (its source and itself). Re-wiring a connection moves exactly those
edges, which is what makes ``set_source`` / ``set_destination`` / ``insert_node`` safe to use
inside a replacement.
"""
from mo.utils.error import Error


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

    def set_source(self, port, attributes_save_mode: str = None):
        """Feed every destination of this connection from output ``port`` instead."""
        if port.type != 'out':
            raise Error('The new source {} of a connection must be an output port', port)
        old_names = self.source.get_tensor_names() if self.source is not None else []
        for destination in self.destinations:
            port.connect(destination)
        if old_names and attributes_save_mode != 'dest':
            # the users' names for the tensor now belong to the port that produces it
            port.add_tensor_names(old_names)
        self.source = port

    def set_destination(self, port, attributes_save_mode: str = None):
        """Make input ``port`` the only destination: the old destinations are disconnected."""
        if port.type != 'in':
            raise Error('The new destination {} of a connection must be an input port', port)
        for destination in self.destinations:
            destination.disconnect()
        if self.source is not None:
            self.source.connect(port)
        self.destinations = [port]

    def add_destination(self, port):
        """Also feed input ``port`` from this connection's source."""
        if self.source is None:
            raise Error('Cannot add destination {}: the connection has no source', port)
        self.source.connect(port)
        self.destinations.append(port)

    def insert_node(self, new_node, new_node_in_port: int = 0, new_node_out_port: int = 0):
        """Put ``new_node`` on this connection: source -> new_node -> every destination."""
        destinations = list(self.destinations)
        for destination in destinations:
            new_node.out_port(new_node_out_port).connect(destination)
        if self.source is not None:
            self.source.connect(new_node.in_port(new_node_in_port))
        self.destinations = [new_node.in_port(new_node_in_port)]

    def remove(self):
        """Disconnect every destination from the source."""
        for destination in self.destinations:
            destination.disconnect()
        self.destinations = []
