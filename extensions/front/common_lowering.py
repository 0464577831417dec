"""Lowerings of ops that mean the same in every framework: each framework's extractor gives the node the op name
and attributes below, and one rule builds it from opset ops."""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.elementwise import Div
from mo.ops.reduce import ReduceProd
from mo.ops.sequence_ops import Unique
from mo.ops.shapeof import ShapeOf


class ReciprocalLowering(OpRule):
    """Reciprocal(x) = Divide(1, x)."""
    op = 'Reciprocal'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        return b.op(Div, [b.const_like(1, x, 'one'), x], 'reciprocal')


class InvLowering(ReciprocalLowering):
    """Inv(x) = Reciprocal(x) (TensorFlow's older name)."""
    op = 'Inv'


class SizeLowering(OpRule):
    """Size(x; out_type) = ReduceProd(ShapeOf(x), 0): the element count, a scalar of ``out_type`` (default int32,
    TensorFlow's; ONNX's extractor says int64)."""
    op = 'Size'

    def rewrite(self, node: Node, b: Builder):
        out_type = np.dtype(node.soft_get('out_type', None) or np.int32)
        shape = b.op(ShapeOf, [node.in_port(0)], 'shape', output_type=out_type)
        return b.op(ReduceProd, [shape, b.const([0], 'axes', np.int64)], 'size', keep_dims=False)


class UniqueLowering(OpRule):
    """FrameworkUnique(x; axis, sorted, out_type, unique_outputs) = the opset's Unique, of which the framework's op
    has the outputs ``unique_outputs`` (of values, first indices, each element's index, counts), in that order.

    TensorFlow's Unique has [0, 2] and UniqueWithCounts [0, 2, 3], unsorted, flattened, indices of ``out_idx``;
    ONNX's has all four, ``sorted`` and ``axis`` as given, int64. ``axis`` None flattens the input; ``out_type``
    is the indices' and counts' type (default int32, TensorFlow's)."""
    op = 'FrameworkUnique'

    def rewrite(self, node: Node, b: Builder):
        axis = node.soft_get('axis', None)
        out_type = np.dtype(node.soft_get('out_type', None) or np.int32)
        inputs = [node.in_port(0)] if axis is None else [node.in_port(0), b.const(axis, 'axis', np.int64)]
        unique = b.op(Unique, inputs, 'unique', sorted=bool(node.soft_get('sorted', False)),
                      index_element_type=out_type, count_element_type=out_type)
        return [unique.out_port(port) for port in node.unique_outputs]
