"""Formulas the recurrent lowerings of several frameworks share (ONNX's and Paddle's LSTM/GRU/RNN), built with a
rule's builder ``b``: shape parts, splits and the gate blocks reordered into the opset's order."""
from mo.front.common.nn_formulas import I64
from mo.front.common.rule import Builder
from mo.ops.concat import Concat
from mo.ops.split import Split
from mo.ops.transpose import Transpose


def transpose(b: Builder, tensor, order, tag: str):
    return b.op(Transpose, [tensor, b.const(order, tag + '/order', I64)], tag)


def dims(b: Builder, tensor, indices, tag: str):
    """``shape(tensor)[indices]`` (int64 vector)."""
    return b.dims_of(tensor, indices, tag)


def split(b: Builder, tensor, parts: int, axis: int, tag: str):
    node = b.op(Split, [tensor, b.const(axis, tag + '/axis', I64)], tag, num_splits=parts)
    return [node.out_port(k) for k in range(parts)]


def reorder_gates(b: Builder, tensor, order, axis: int, tag: str):
    """The gate blocks of ``tensor`` along ``axis`` in the opset's order (``order[k]``: ONNX's block at k)."""
    if order is None:
        return tensor
    blocks = split(b, tensor, len(order), axis, tag + '/gates')
    return b.op(Concat, [blocks[k] for k in order], tag, axis=axis, in_ports_count=len(order))
