"""Formulas the recurrent lowerings of several frameworks share (ONNX's and Paddle's LSTM/GRU/RNN), built with a
rule's builder ``b``: splits and the gate blocks reordered into the opset's order (shape parts and transposes are
the builder's ``dims_of`` and ``transpose``)."""
from mo.front.common.nn_formulas import I64
from mo.front.common.rule import Builder
from mo.ops.concat import Concat
from mo.ops.split import Split


def split(b: Builder, tensor, parts: int, axis: int, tag: str):
    node = b.op(Split, [tensor, b.const(axis, tag + '/axis', I64)], tag, num_splits=parts)
    return [node.out_port(k) for k in range(parts)]


def reorder_gates(b: Builder, tensor, order, axis: int, tag: str):
    """The gate blocks of ``tensor`` along ``axis`` in the opset's order (``order[k]``: ONNX's block at k)."""
    if order is None:
        return tensor
    blocks = split(b, tensor, len(order), axis, tag + '/gates')
    return b.op(Concat, [blocks[k] for k in order], tag, axis=axis, in_ports_count=len(order))
