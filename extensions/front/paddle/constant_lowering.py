"""Paddle's fills whose shape or value is a tensor or another tensor's shape (``Paddle_*`` ops of
``constant_ext.py``)."""
import numpy as np

from extensions.front.paddle.formulas import I64, as_i64_vector, out_dtype, port
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf


class FillConstantLowering(OpRule):
    """fill_constant with tensors: Broadcast(value, shape), the value from ValueTensor (converted to ``dtype``) or the
    attribute, the shape from ShapeTensor or the ShapeTensorList concatenated."""
    op = 'Paddle_fill_constant'

    def rewrite(self, node: Node, b: Builder):
        dtype = np.dtype(node.fill_dtype)
        value = port(node, 'ValueTensor')
        if value is None:
            value = b.const(np.array(node.fill_value, dtype), 'value')
        else:
            value = b.op(Reshape, [b.op(Convert, [value], 'value_typed', dst_type=dtype),
                                   b.const(np.zeros([0], I64), 'scalar')], 'value')
        shape = as_i64_vector(b, node, 'ShapeTensor', 'shape')
        if shape is None:
            shape = as_i64_vector(b, node, 'ShapeTensorList', 'shape')
        if shape is None:
            shape = b.const(np.array(node.fill_shape, I64), 'shape')
        return b.op(Broadcast, [value, shape], 'fill')


class FullLikeLowering(OpRule):
    """full_like(x) = Broadcast(value, ShapeOf(x)): value in the declared type (x's when none), from PIR's value
    operand or the attribute."""
    op = 'Paddle_full_like'

    def rewrite(self, node: Node, b: Builder):
        dtype = out_dtype(node)
        value = port(node, 'ValueTensor')
        if value is None:
            value = b.const(np.array(node.fill_value, dtype), 'value')
        else:
            value = b.op(Reshape, [b.op(Convert, [value], 'value_typed', dst_type=dtype),
                                   b.const(np.zeros([0], I64), 'scalar')], 'value')
        return b.op(Broadcast, [value, b.op(ShapeOf, [node.in_port(0)], 'shape')], 'fill')
