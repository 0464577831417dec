"""Whether every reduced element is -inf, asked as ReduceMax(x) == -inf (ONNX's Attention function body asks so, to
give fully masked rows zero weights rather than NaN): asked of the elements instead.

OpenVINO's CPU plugin (2026.4) gives the lowest finite float, not -inf, as the ReduceMax of elements that are all
-inf, so the comparison is false where it is true (and the NaN of the row's Softmax comes through). Equal(ReduceMax(x,
axes), -inf) = ReduceLogicalAnd(Equal(x, -inf), axes) holds for every x, and the reduction stays one reduction.
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.elementwise import Equal
from mo.ops.reduce import ReduceAnd


def _reduce_max_and_negative_infinity(node: Node):
    """``(ReduceMax node, its port)`` when the Equal ``node`` compares a ReduceMax of floats with a one-element
    constant -inf (no wider than the ReduceMax's result), else None."""
    for reduced, other in ((0, 1), (1, 0)):
        source = node.in_port(reduced).get_source().node
        value = node.in_port(other).data.get_value()
        if source.soft_get('op') != 'ReduceMax' or value is None or np.size(value) != 1:
            continue
        shape = node.in_port(reduced).data.get_shape()
        dtype = source.in_port(0).data.get_data_type()
        if shape is None or np.ndim(value) > len(shape) or dtype is None or np.dtype(dtype).kind != 'f':
            continue
        if np.isneginf(np.ravel(value)[0]):
            return source
    return None


class ReduceMaxEqualsNegativeInfinity(MiddleOpRule):
    """Equal(ReduceMax(x, axes), -inf) -> ReduceLogicalAnd(Equal(x, -inf), axes) (same keep_dims)."""
    id = 'ReduceMaxEqualsNegativeInfinity'
    op = 'Equal'

    def matches(self, node: Node) -> bool:
        return _reduce_max_and_negative_infinity(node) is not None

    def rewrite(self, node: Node, b: Builder):
        reduce_max = _reduce_max_and_negative_infinity(node)
        x = reduce_max.in_port(0)
        dtype = np.dtype(x.data.get_data_type())
        is_negative_infinity = b.op(Equal, [x, b.const(np.array(-np.inf, dtype), 'negative_infinity', dtype)],
                                    'is_negative_infinity')
        return b.op(ReduceAnd, [is_negative_infinity, reduce_max.in_port(1)], 'all_negative_infinity',
                    keep_dims=bool(reduce_max.keep_dims))
