"""Small formulas the Paddle lowerings share, built with a rule's builder ``b``. Paddle programs declare every
var's type, so constants are made in the type the program gives (``out_dtype``), not guessed."""
import numpy as np

from mo.front.paddle.extractor_utils import has_input, in_port, output_dtype
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.reshape import Reshape

I64 = np.int64


def out_dtype(node, slot: str = 'Out', default=np.float32) -> np.dtype:
    """The element type the program declares for ``slot`` of the node (f32 when it does not say)."""
    return output_dtype(node, slot, default=np.dtype(default))


def port(node, slot: str, i: int = 0):
    """The node's input port of ``slot``'s ``i``-th var, or None when the op has none."""
    return node.in_port(in_port(node, slot, i)) if has_input(node, slot, i) else None


def slot_ports(node, slot: str) -> list:
    return [node.in_port(p) for p in node.soft_get('in_slots', {}).get(slot, ())]


def as_i64_vector(b, node, slot: str, tag: str):
    """The int64 1-D tensor a shape-like slot holds: one tensor (converted, flattened), or a list of scalar or
    1-element tensors (PIR's combined vector, classic ``*TensorList``) concatenated; None when the slot is empty."""
    ports = slot_ports(node, slot)
    if not ports:
        return None
    parts = []
    for index, item in enumerate(ports):
        as_i64 = b.op(Convert, [item], '{}/{}/i64'.format(tag, index), dst_type=np.int64)
        parts.append(b.op(Reshape, [as_i64, b.const([-1], '{}/{}/flat'.format(tag, index), I64)],
                          '{}/{}'.format(tag, index)))
    if len(parts) == 1:
        return parts[0]
    return b.op(Concat, parts, tag, axis=0, in_ports_count=len(parts))


def attr(node, names, default=None):
    """The first of the attributes ``names`` the node's Paddle op has (classic and PIR spell some differently:
    ``('axis', 'perm')``), else ``default``."""
    attrs = node.pb.attrs
    for name in (names,) if isinstance(names, str) else names:
        if name in attrs and attrs[name] is not None:
            return attrs[name]
    return default


def const_values(node, slot: str):
    """The values a slot holds when every one of its vars is a Const (flattened into one list), else None (also
    when the slot is empty)."""
    ports = slot_ports(node, slot)
    if not ports:
        return None
    values = []
    for item in ports:
        source = item.get_source().node
        if source.soft_get('op') != 'Const' or not source.has_valid('value'):
            return None
        values.extend(np.ravel(source.value).tolist())
    return values


def ints_arg(b, node, slots, names, tag: str, default=None):
    """An int list argument Paddle gives as a tensor slot, a list of tensors or an attribute (in that order of
    precedence): ``(python list, None)`` when known now, ``(None, int64 tensor)`` when computed at run time."""
    for slot in slots:
        if slot_ports(node, slot):
            known = const_values(node, slot)
            if known is not None:
                return [int(v) for v in known], None
            return None, as_i64_vector(b, node, slot, tag)
    value = attr(node, names, default)
    if value is None:
        return None, None
    return [int(v) for v in (value if isinstance(value, (list, tuple)) else [value])], None


def int_arg(b, node, slot: str, names, tag: str, default=None):
    """One int Paddle gives as a tensor (``slot``) or an attribute: ``(int, None)`` or ``(None, tensor)``."""
    values, tensor = ints_arg(b, node, (slot,), names, tag, default)
    return (values[0] if values else default), tensor
