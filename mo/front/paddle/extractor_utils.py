"""Helpers for Paddle extractors and lowerings, on the nodes ``mo.front.paddle.graph`` builds: attributes by
name, ports by slot (``node['in_slots']``/``node['out_slots']``)."""
import numpy as np

from mo.front.paddle.graph import PROGRAM
from mo.utils.error import Error


def paddle_attr(node, name: str, default=None):
    """Attribute ``name`` of the node's Paddle op (a Python value as the reader gives it), ``default`` if absent."""
    pb = node.soft_get('pb', None)
    if pb is None:
        return default
    return pb.attrs.get(name, default)


def has_input(node, slot: str, i: int = 0) -> bool:
    """True when input slot ``slot`` has an ``i``-th var (a port)."""
    return len(node.soft_get('in_slots', {}).get(slot, ())) > i


def in_ports_of(node, slot: str) -> list:
    """The input port numbers of ``slot`` (empty when the op has none)."""
    return list(node.soft_get('in_slots', {}).get(slot, ()))


def in_port(node, slot: str, i: int = 0) -> int:
    """The input port number of the ``i``-th var of input ``slot``; an Error when the op has no such var."""
    ports = node.soft_get('in_slots', {}).get(slot, ())
    if i >= len(ports):
        raise Error('Paddle op "{}" ({}) has no input {}[{}]', node.soft_get('name', node.id),
                    node.soft_get('paddle_type', node.soft_get('op')), slot, i)
    return ports[i]


def has_output(node, slot: str, i: int = 0) -> bool:
    return len(node.soft_get('out_slots', {}).get(slot, ())) > i


def out_port(node, slot: str, i: int = 0) -> int:
    """The output port number of the ``i``-th var of output ``slot``; an Error when the op has no such var."""
    ports = node.soft_get('out_slots', {}).get(slot, ())
    if i >= len(ports):
        raise Error('Paddle op "{}" ({}) has no output {}[{}]', node.soft_get('name', node.id),
                    node.soft_get('paddle_type', node.soft_get('op')), slot, i)
    return ports[i]


def const_input(node, slot: str, i: int = 0):
    """The value of input ``slot`` when a Const feeds it (a weight, a folded ``full``), else None."""
    if not has_input(node, slot, i):
        return None
    port = in_port(node, slot, i)
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    if source.soft_get('op') == 'Const' and source.has_valid('value'):
        return np.asarray(source.value)
    return None


def input_var(node, slot: str, i: int = 0):
    """The ``model.Var`` of the ``i``-th var of input ``slot`` as the program declares it, or None."""
    return _var(node, node.pb.inputs.get(slot) or (), i)


def output_var(node, slot: str, i: int = 0):
    """The ``model.Var`` of the ``i``-th var of output ``slot`` as the program declares it, or None."""
    return _var(node, node.pb.outputs.get(slot) or (), i)


def _var(node, names, i):
    """The ``i``-th var of a slot's ``names``, a PIR vector standing for its members (as its ports do)."""
    program = node.graph.graph.get(PROGRAM)
    if program is None:
        return None
    found = []
    for name in names:
        if name is None:
            continue
        try:
            var = program.var(name)
        except Exception:  # a var of a nested block: not declared in the top block
            var = None
        found.extend(var.items if var is not None and var.kind == 'vector' else [var])
    return found[i] if i < len(found) else None


def input_rank(node, slot: str, i: int = 0):
    """The rank of input ``slot``'s ``i``-th var as the program declares it (None when unknown)."""
    var = input_var(node, slot, i)
    return None if var is None or var.shape is None else len(var.shape)


def output_dtype(node, slot: str = 'Out', i: int = 0, default=None):
    """The numpy element type the program declares for output ``slot``, else ``default``."""
    var = output_var(node, slot, i)
    return np.dtype(var.dtype) if var is not None and var.dtype is not None else default


def node_name(node) -> str:
    return node.soft_get('name', node.id)
