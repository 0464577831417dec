"""Paddle's fills whose shape or value is a tensor or another tensor's shape (``Paddle_*`` ops of
``constant_ext.py``)."""
import numpy as np

from extensions.front.paddle.formulas import I64, as_i64_vector, out_dtype, port
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.gather import Gather
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


class FillBatchSizeLikeLowering(OpRule):
    """fill_constant_batch_size_like(Input) = Broadcast(value, shape) with shape[output_dim_idx] replaced by
    ShapeOf(Input)[input_dim_idx]."""
    op = 'Paddle_fill_batch_size_like'

    def rewrite(self, node: Node, b: Builder):
        shape, at = list(node.fill_shape), node.output_dim_idx
        batch = b.op(Gather, [b.op(ShapeOf, [node.in_port(0)], 'input_shape', output_type=np.int64),
                              b.const(np.array([node.input_dim_idx], I64), 'input_dim'),
                              b.const(np.array(0, I64), 'gather_axis')], 'batch')
        parts = [batch]
        if shape[:at]:
            parts.insert(0, b.const(np.array(shape[:at], I64), 'head'))
        if shape[at + 1:]:
            parts.append(b.const(np.array(shape[at + 1:], I64), 'tail'))
        target = parts[0] if len(parts) == 1 else b.op(Concat, parts, 'shape', axis=0, in_ports_count=len(parts))
        value = b.const(np.array(node.fill_value, np.dtype(node.fill_dtype)), 'value')
        return b.op(Broadcast, [value, target], 'fill')
