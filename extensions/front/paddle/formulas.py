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
