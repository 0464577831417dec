"""``Node``: a view of one node of a ``Graph`` (attributes, ports, neighbours), and node helpers.

``Node`` objects are cheap views (a graph and an id); the attributes live in the graph.
"""
import numpy as np

from mo.graph.node_attrs import DERIVED_DATA_ATTRS
from mo.graph.port import DEBUG_INFO, Port, debug_info_of_names, own_port_table, port_record
from mo.utils.error import Error


_MISSING = object()

def middle_in_tensors(graph, node_id) -> dict:
    """``Node.in_tensors()`` of a middle- or back-phase op, read off the adjacency (whole-graph inference calls it
    for every op, without a Node): input index -> the data node's attribute dict, by index."""
    nodes = graph._node
    found = {}
    for src, keyed in graph._pred[node_id].items():
        for attrs in keyed.values():
            if 'in' in attrs and not attrs.get('control_flow_edge'):
                found[attrs['in']] = nodes[src]
    return dict(sorted(found.items())) if len(found) > 1 else found


class Node:
    """A view of one node of a Graph: attribute access and ports.

    ``node.x`` and ``node['x']`` read the node's attribute ``x``; ``node.x = v`` writes it.
    """
    __slots__ = ('graph', 'id')

    def __init__(self, graph, node_id):
        try:
            present = node_id in graph._node  # not graph.__contains__: this runs for every Node made
        except TypeError:
            present = False
        if not present:
            raise Error('There is no node "{}" in the graph', node_id)
        object.__setattr__(self, 'graph', graph)
        object.__setattr__(self, 'id', node_id)

    @classmethod
    def view(cls, graph, node_id) -> 'Node':
        """A Node for an id taken from the graph's own adjacency (no existence check: ports walk the
        graph with these)."""
        node = object.__new__(cls)
        object.__setattr__(node, 'graph', graph)
        object.__setattr__(node, 'id', node_id)
        return node

    # ----- attributes --------------------------------------------------------------------
    def __getattr__(self, key):
        try:
            return self.graph._node[self.id][key]
        except KeyError:
            raise AttributeError('Node "{}" has no attribute "{}"'.format(self.id, key)) from None

    def __setattr__(self, key, value):
        if key in Node.__slots__:
            object.__setattr__(self, key, value)
        else:
            self.graph._node[self.id][key] = value

    def __getitem__(self, key):
        try:
            return self.graph._node[self.id][key]
        except KeyError:
            derived = self._debug_info() if key == DEBUG_INFO else None
            if derived:
                return derived
            raise

    def __setitem__(self, key, value):
        self.graph._node[self.id][key] = value

    # A data node's ``fw_tensor_debug_info`` is an ordinary attribute, as in the Model Optimizer. A data node
    # that has none but carries names from mo's own steps (``tensor_names``: the data node's dict is its
    # tensor's record) reads as having the records the Model Optimizer's loaders would have written.
    def _debug_info(self) -> list:
        attrs = self.graph._node[self.id]
        if attrs.get('kind') != 'data':
            return []
        return debug_info_of_names(attrs.get('tensor_names') or ())

    def __delitem__(self, key):
        del self.graph._node[self.id][key]

    def __contains__(self, key):
        attrs = self.graph._node[self.id]
        return key in attrs or (key == DEBUG_INFO and bool(self._debug_info())) or \
            (key in DERIVED_DATA_ATTRS and attrs.get('kind') == 'data')

    def __eq__(self, other):
        return isinstance(other, Node) and other.graph is self.graph and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return 'Node({!r}, op={!r})'.format(self.id, self.soft_get('op'))

    def attrs(self) -> dict:
        """The node's attribute dict itself (writes go to the graph)."""
        return self.graph._node[self.id]

    def has(self, key) -> bool:
        return key in self

    def has_valid(self, key) -> bool:
        """The attribute exists and is not None."""
        value = self.graph._node[self.id].get(key)
        if value is None and key == DEBUG_INFO:
            return bool(self._debug_info())
        return value is not None

    def has_and_set(self, key) -> bool:
        """The attribute exists and is truthy."""
        value = self.graph._node[self.id].get(key)
        if isinstance(value, np.ndarray):
            return value.size > 0 and bool(np.all(value))
        return bool(value)

    def soft_get(self, key, default='<UNKNOWN>'):
        """The attribute's value, or ``default`` when the node has no such attribute."""
        attrs = self.graph._node[self.id]
        value = attrs.get(key, _MISSING)
        if value is _MISSING:
            if key in DERIVED_DATA_ATTRS and attrs.get('kind') == 'data':
                return attrs[key]  # a data node's name is its id, its value None (``IndexedAttrs.__missing__``)
            derived = self._debug_info() if key == DEBUG_INFO else None
            return derived if derived else default
        return value

    def get_attrs(self) -> dict:
        return self.attrs()

    # ----- ports -------------------------------------------------------------------------
    def _port_table(self, direction):
        """The node's port table of ``direction`` to read (maybe a shared one: see ``_own_port_table``)."""
        key = '_in_ports' if direction == 'in' else '_out_ports'
        table = self.graph._node[self.id].get(key)
        if table is None:
            table = {}
            self.graph._node[self.id][key] = table
        return table

    def _own_port_table(self, direction):
        """The node's port table of ``direction`` to write: a table of its own, never the shared one."""
        return own_port_table(self.graph._node[self.id], '_in_ports' if direction == 'in' else '_out_ports')

    def add_input_port(self, idx, skip_if_exist=False, **kwargs):
        table = self._port_table('in')
        if idx in table and not skip_if_exist:
            raise Error('Input port {} already exists for node "{}"', idx, self.soft_get('name', self.id))
        if idx not in table:
            self._own_port_table('in')[idx] = port_record(kwargs.get('control_flow', False))

    def add_output_port(self, idx, skip_if_exist=False, **kwargs):
        table = self._port_table('out')
        if idx in table and not skip_if_exist:
            raise Error('Output port {} already exists for node "{}"', idx, self.soft_get('name', self.id))
        if idx not in table:
            self._own_port_table('out')[idx] = port_record(kwargs.get('control_flow', False))

    def delete_input_port(self, idx):
        self.in_port(idx).disconnect()
        self._own_port_table('in').pop(idx, None)

    def delete_output_port(self, idx):
        self.out_port(idx).disconnect()
        self._own_port_table('out').pop(idx, None)

    def in_port(self, idx=0, control_flow=False):
        """The input port ``idx``; created on first use, so new ops can be wired freely."""
        if idx not in self._port_table('in'):
            self._own_port_table('in')[idx] = port_record(control_flow)
        return Port(self, 'in', idx)

    def out_port(self, idx=0, control_flow=False):
        """The output port ``idx``; created on first use."""
        if idx not in self._port_table('out'):
            self._own_port_table('out')[idx] = port_record(control_flow)
        return Port(self, 'out', idx)

    def _edge_ports(self, direction):
        graph = self.graph
        if graph._node[self.id].get('kind') == 'data':
            return set()
        key = 'in' if direction == 'in' else 'out'
        adjacency = graph._pred[self.id] if direction == 'in' else graph._succ[self.id]
        return {attrs[key] for keyed in adjacency.values() for attrs in keyed.values()
                if key in attrs and not attrs.get('control_flow_edge')}

    def in_tensors(self) -> dict:
        """Input index -> the attribute dict of the tensor on that connected input (its data node in
        the middle and back phases, the producer's port record in the front phase), by index."""
        graph = self.graph
        if graph.phase == 'front':
            return {i: p.data._store() for i, p in self.in_ports().items() if p.is_connected()}
        return middle_in_tensors(graph, self.id)

    def _declared_ports(self, direction, control_flow):
        return {i for i, attrs in self._port_table(direction).items()
                if control_flow or not (attrs or {}).get('control_flow')}

    def in_ports(self, control_flow=False) -> dict:
        """All input ports (declared or connected), by index, in index order; ports declared as
        control-flow ports only with ``control_flow=True``."""
        ids = self._declared_ports('in', control_flow) | self._edge_ports('in')
        return {i: Port(self, 'in', i) for i in sorted(ids)}

    def out_ports(self, control_flow=False) -> dict:
        """All output ports (declared or connected), by index, in index order (see ``in_ports``)."""
        ids = self._declared_ports('out', control_flow) | self._edge_ports('out')
        return {i: Port(self, 'out', i) for i in sorted(ids)}

    def is_in_port_connected(self, idx, control_flow=False) -> bool:
        return idx in self._edge_ports('in')

    def is_out_port_connected(self, idx, control_flow=False) -> bool:
        return idx in self._edge_ports('out')

    # ----- neighbours (legacy API: in the middle phase these are data nodes) -----------------
    def in_edges(self, control_flow=False) -> dict:
        """Input edge attribute dicts by input port."""
        return {d['in']: d for _, _, d in self.graph.in_edges(self.id, data=True)
                if 'in' in d and (control_flow or not d.get('control_flow_edge'))}

    def in_edge(self, idx=0, control_flow=False) -> dict:
        return self.in_edges(control_flow)[idx]

    def out_edges(self, control_flow=False) -> dict:
        """Output edge attribute dicts by output port (one of them where a port feeds several)."""
        return {d['out']: d for _, _, d in self.graph.out_edges(self.id, data=True)
                if 'out' in d and (control_flow or not d.get('control_flow_edge'))}

    def out_edge(self, idx=0, control_flow=False) -> dict:
        return self.out_edges(control_flow)[idx]

    def in_nodes(self, control_flow=False) -> dict:
        """The producers of this node's inputs, by input port.

        Front phase: op nodes; middle and back phases: data nodes (for an op). For a data node,
        a list of its producer ops (the Model Optimizer's form).
        """
        graph = self.graph
        if self.kind == 'data':
            return [Node(graph, u) for u, _ in graph.in_edges(self.id)]
        result = {}
        for u, _, d in graph.in_edges(self.id, data=True):
            if 'in' in d and (control_flow or not d.get('control_flow_edge')):
                result[d['in']] = Node(graph, u)
        return dict(sorted(result.items()))

    def in_node(self, idx=0, control_flow=False):
        nodes = self.in_nodes(control_flow)
        if isinstance(nodes, list):
            nodes = dict(enumerate(nodes))
        if idx not in nodes:
            raise Error('Node "{}" has no input {}', self.soft_get('name', self.id), idx)
        return nodes[idx]

    def out_nodes(self, control_flow=False) -> dict:
        """Front phase: consumers are listed per output port (one per port); middle: data nodes.
        For a data node, a list of its consumer ops (the Model Optimizer's form)."""
        graph = self.graph
        if self.kind == 'data':
            return [Node(graph, v) for _, v in graph.out_edges(self.id)]
        result = {}
        for _, v, d in graph.out_edges(self.id, data=True):
            if 'out' in d and (control_flow or not d.get('control_flow_edge')):
                result.setdefault(d['out'], Node(graph, v))
        return dict(sorted(result.items()))

    def out_node(self, idx=0, control_flow=False):
        nodes = self.out_nodes(control_flow)
        if isinstance(nodes, list):
            nodes = dict(enumerate(nodes))
        if idx not in nodes:
            raise Error('Node "{}" has no output {}', self.soft_get('name', self.id), idx)
        return nodes[idx]

    def get_inputs(self, edge_attr: dict = None, control_flow: bool = False) -> list:
        """``(producer id, edge attrs)`` of the input edges whose attributes include ``edge_attr``."""
        return [(u, d) for u, _, d in self.graph.in_edges(self.id, data=True)
                if (control_flow or not d.get('control_flow_edge')) and
                all(k in d and d[k] == v for k, v in (edge_attr or {}).items())]

    def get_outputs(self, edge_attr: dict = None, control_flow: bool = False) -> list:
        """``(consumer id, edge attrs)`` of the output edges whose attributes include ``edge_attr``."""
        return [(v, d) for _, v, d in self.graph.out_edges(self.id, data=True)
                if (control_flow or not d.get('control_flow_edge')) and
                all(k in d and d[k] == val for k, val in (edge_attr or {}).items())]

    def replace_node(self, new_node: 'Node', new_node_out_port: int = None):
        """Move this node's consumers to ``new_node`` and remove this node (see ``replace_node``)."""
        replace_node(self, new_node, new_node_out_port)

    def get_sorted_inputs(self):
        return sorted(((u, d) for u, _, d in self.graph.in_edges(self.id, data=True) if 'in' in d),
                      key=lambda item: item[1]['in'])

    def get_sorted_outputs(self):
        return sorted(((v, d) for _, v, d in self.graph.out_edges(self.id, data=True) if 'out' in d),
                      key=lambda item: item[1]['out'])

    def insert_node_after(self, new_node, node_out_port: int = 0):
        """Put ``new_node`` between this node's output ``node_out_port`` and its consumers."""
        self.out_port(node_out_port).get_connection().insert_node(new_node)

    def infer(self):
        """Run this op's shape (and value) inference."""
        infer = self.soft_get('infer', None)
        if infer is not None:
            infer(self)


fast_node = Node.view


def rename_node(node: Node, name: str):
    """Give ``node`` the user-visible ``name``; refuses a name another op node already has."""
    graph = node.graph
    for other_id in graph.nodes_by_attr('name', name):
        if other_id != node.id and graph.nodes[other_id].get('kind') == 'op':
            raise Error('Cannot rename node "{}" to "{}": another node has that name',
                        node.soft_get('name', node.id), name)
    node['name'] = name


def rename_nodes(nodes):
    """Rename several nodes at once, given ``(node, new_name)`` pairs applied in order.

    The usual use is ``rename_nodes([(old, name + '/TBR'), (new, name)])``: the replaced node
    frees its name for the replacement.
    """
    for node, name in nodes:
        rename_node(node, name)


def dict_includes(big: dict, sub: dict) -> bool:
    """True when every key of ``sub`` is in ``big`` with an equal value (or a callable accepting it)."""
    for key, expected in sub.items():
        if key not in big:
            return False
        if callable(expected):
            if not expected(big[key]):
                return False
        elif big[key] != expected:
            return False
    return True


def replace_node(old_node: Node, new_node: Node, new_node_out_port: int = None):
    """Move every consumer of ``old_node``'s outputs to ``new_node`` and remove ``old_node``.

    Output ``i`` of the old node maps to output ``i`` of the new one, or every output to
    ``new_node_out_port`` when it is given.
    """
    graph = old_node.graph
    front = graph.phase == 'front'
    for idx, port in sorted(old_node.out_ports().items()):
        target = idx if new_node_out_port is None else new_node_out_port
        # front phase: the consumers' edges keep their other attributes, as the Model Optimizer moved them
        kept = [(v, attrs.get('in'), {k: val for k, val in attrs.items() if k not in ('in', 'out', DEBUG_INFO)})
                for _, v, _, attrs in port._out_edges()] if front else []
        if port.is_connected() or port.get_tensor_names():
            port.get_connection().set_source(new_node.out_port(target))
        for consumer, in_idx, attrs in kept:
            edge = Port(Node.view(graph, consumer), 'in', in_idx)._in_edge() if attrs else None
            if edge is not None:
                edge[3].update((k, val) for k, val in attrs.items() if k not in edge[3])
    graph.remove_node(old_node.id)
