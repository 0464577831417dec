"""The base of every operation class, and the registry that finds them by name.

An ``Op`` subclass describes one operation: its default attributes (``op``, the internal name
replacers match; ``type``, the opset type written to the IR; ``version``, the opset), how many
ports it has, how it infers output shapes and values, and which attributes the IR carries.
Defining a subclass with an ``op`` registers it: ``Op.get_op_class_by_name('MVN')``.
"""
import importlib
import logging as log
from types import MethodType

from mo.graph.graph import Graph, Node
from mo.graph.port import DEBUG_INFO, plain_port_table
from mo.utils.class_registration import is_builtin
from mo.utils.error import Error


_CLASS_METHODS = {}


def _shared_class_method(method: MethodType) -> MethodType:
    """One bound-method object per class and classmethod (``cls.infer``), shared by every node that holds it:
    reading ``self.infer`` makes a new 48-byte object each time, and a model has a million ops of a kind."""
    if not isinstance(method.__self__, type):
        return method  # bound to an instance: the node keeps that instance's own method
    return _CLASS_METHODS.setdefault((method.__self__, method.__func__), method)


class OpRegistry(dict):
    """op name -> the Op subclass registered for it. A conversion may leave built-in op modules unimported
    (``mo.utils.lazy_steps``): their op names wait here (``wait``), and the first lookup of one (``[name]``, ``get``,
    ``in``) imports its module. Iterating sees only the classes imported so far; ``mo ops`` imports them all."""

    def __init__(self):
        super().__init__()
        #: op name -> the module that registers it, not yet imported
        self.waiting = {}

    def wait(self, names, module: str):
        """Op ``names`` are registered by ``module``, to be imported when one of them is looked up."""
        for name in names:
            if not dict.__contains__(self, name):
                self.waiting[name] = module

    def _import_waiting(self, name) -> bool:
        module = self.waiting.pop(name, None)
        if module is None:
            return False
        importlib.import_module(module)
        return dict.__contains__(self, name)

    def __missing__(self, name):
        if self._import_waiting(name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def __contains__(self, name):
        return dict.__contains__(self, name) or self._import_waiting(name)

    def get(self, name, default=None):
        return self[name] if name in self else default


class Op:
    """An operation kind; an instance is a recipe for creating or updating nodes of that kind.

    ``Op(graph, attrs).create_node(inputs)`` adds a node with the class's defaults overridden by
    ``attrs``. Subclasses call ``super().__init__(graph, mandatory_attrs, attrs)``; of the two
    dicts the second wins, as extension authors expect from the Model Optimizer.
    """
    op = None
    enabled = True
    #: op name -> the Op subclass registered for it
    registered_ops = OpRegistry()
    #: op name -> where the registered class came from ('builtin' or 'extension')
    _origins = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get('op')
        if name is None:
            return
        # what is registered already, without importing a module that waits to register the name
        previous = dict.get(Op.registered_ops, name)
        Op.registered_ops.waiting.pop(name, None)
        if previous is not None and (previous.__module__, previous.__qualname__) != (cls.__module__, cls.__qualname__):
            if is_builtin(previous) and is_builtin(cls):
                # the rule of every registry: a user's class may take over, two built-ins may not collide
                raise TypeError('built-in op classes {}.{} and {}.{} both register op "{}"'.format(
                    previous.__module__, previous.__qualname__, cls.__module__, cls.__qualname__, name))
            if not is_builtin(cls):
                log.info('[ mo ] op class {}.{} takes over op "{}" from {}.{}'.format(
                    cls.__module__, cls.__qualname__, name, previous.__module__, previous.__qualname__))
            elif not is_builtin(previous):
                return  # a built-in imported late never displaces a user's op class
        Op.registered_ops[name] = cls

    def __init__(self, graph: Graph, attrs1: dict = None, attrs2: dict = None):
        self.graph = graph
        self.attrs = {'kind': 'op'}
        if attrs1:
            self.attrs.update(attrs1)
        if attrs2:
            self.attrs.update(attrs2)
        infer = self.attrs.get('infer')
        if type(infer) is MethodType:
            self.attrs['infer'] = _shared_class_method(infer)

    # ----- registry ----------------------------------------------------------------------
    @staticmethod
    def get_op_class_by_name(name: str):
        """The Op subclass registered for op ``name``."""
        try:
            return Op.registered_ops[name]
        except KeyError:
            raise Error('No operation class is registered for op "{}"', name) from None

    # ----- attributes for the IR ---------------------------------------------------------
    def supported_attrs(self):
        """Attributes written to the IR's ``<data>`` element (names, or (name, getter) pairs)."""
        return self.backend_attrs()

    def backend_attrs(self):
        return []

    # ----- nodes -------------------------------------------------------------------------
    def _node_attrs(self, attrs: dict = None):
        new_attrs = dict(self.attrs)
        if attrs:
            new_attrs.update(attrs)
        return new_attrs

    def add_node(self, attrs: dict = None) -> Node:
        """Add a node with this op's attributes (and ``attrs``), with no connections."""
        new_attrs = self._node_attrs(attrs)
        graph = self.graph
        node_id = graph.unique_id(new_attrs.get('name') or new_attrs.get('op') or type(self).__name__)
        new_attrs.setdefault('name', node_id)
        in_count = new_attrs.get('in_ports_count')
        out_count = new_attrs.get('out_ports_count', 1 if new_attrs.get('op') != 'Result' else 0)
        new_attrs['_in_ports'] = plain_port_table(in_count or 0)  # shared until the op's ports change
        new_attrs['_out_ports'] = plain_port_table(out_count or 0)
        new_attrs.setdefault('_op_class', type(self))
        graph.add_node(node_id, **new_attrs)
        return Node(graph, node_id)

    def create_node(self, inputs: list = None, attrs: dict = None, edge_attrs: dict = None) -> Node:
        """Create the node and connect ``inputs`` to its input ports 0, 1, ...

        An input is a ``Node`` (its output 0; in the middle phase a data node itself) or a
        ``(node, out_port)`` pair. In the front phase each new edge gets the ``fw_tensor_debug_info`` records
        its source's output carries, as the Model Optimizer's edges did (after it they live on the data node).
        """
        node = self.add_node(attrs)
        for in_port, item in enumerate(inputs or []):
            src, out_port = item if isinstance(item, tuple) else (item, 0)
            self.graph.create_edge(src, node, out_port, in_port, edge_attrs)
            _copy_debug_records(src, out_port, node.in_port(in_port))
        return node

    def create_node_with_data(self, inputs: list = None, attrs: dict = None, data_nodes=None,
                              edge_attrs: dict = None):
        """Middle phase: create the node from input data nodes, infer it, return its output data node(s)."""
        node = self.create_node(inputs, attrs, edge_attrs)
        outputs = []
        if data_nodes is not None:
            data_nodes = data_nodes if isinstance(data_nodes, list) else [data_nodes]
            for idx, data_node in enumerate(data_nodes):
                for producer, _, key in list(self.graph.in_edges(data_node.id, keys=True)):
                    self.graph.remove_edge(producer, data_node.id, key)
                self.graph.add_edge(node.id, data_node.id, out=idx)
                outputs.append(data_node)
        else:
            for idx in sorted(node.out_ports()):
                outputs.append(node.out_port(idx)._data_node(create=True))
        if all(node.in_port(i).data.get_shape() is not None for i in node.in_ports()
               if node.is_in_port_connected(i)):
            node.infer()
        return outputs[0] if len(outputs) == 1 else outputs

    @classmethod
    def update_node_stat(cls, node: Node, attrs: dict = None):
        """Give an existing ``node`` this op's default attributes plus ``attrs`` (used by extractors)."""
        if attrs is None:
            attrs = {}
        op = cls(node.graph, attrs)
        node.attrs().update(op.attrs)
        node['_op_class'] = cls


def _copy_debug_records(src, out_port: int, in_port):
    """Front phase: give the edge into ``in_port`` the ``fw_tensor_debug_info`` records of ``src``'s output
    ``out_port`` (unless the caller's ``edge_attrs`` set some)."""
    src = src if isinstance(src, Node) else Node(in_port.node.graph, src)
    if src.graph.phase != 'front' or src.soft_get('kind') != 'op':
        return
    records = src.out_port(out_port)._debug_records()
    edge = in_port._in_edge()
    if records and edge is not None and DEBUG_INFO not in edge[3]:
        edge[3][DEBUG_INFO] = list(records)


def _const_node(graph: Graph, attrs: dict) -> Node:
    """A Const op node with ``attrs`` and no edges (its data node exists already): the graph's clean-up
    gives a constant data node without a producer one (``Graph.const_node_factory``). None while no Const
    class is registered (``mo.ops.const`` not imported)."""
    const_class = Op.registered_ops.get('Const')
    return None if const_class is None else Op.add_node(const_class(graph, attrs))


Graph.const_node_factory = staticmethod(_const_node)


def op_class_of(node: Node):
    """The Op subclass that describes ``node`` (by its ``_op_class``, ``op`` or ``type``), or None."""
    cls = node.soft_get('_op_class', None)
    if cls is not None:
        return cls
    for key in ('op', 'type'):
        name = node.soft_get(key, None)
        if name in Op.registered_ops:
            return Op.registered_ops[name]
    return None


def keep_outputs(node: Node, ports):
    """Keep the data nodes of ``node``'s output ``ports`` through clean-up even when nothing reads them: the IR
    lists a node's outputs without gaps, so an op whose later output is used keeps the earlier ones."""
    if node.graph.phase != 'front':
        for port in ports:
            node.out_port(port)._data_node(create=True)['keep_output_port'] = True
