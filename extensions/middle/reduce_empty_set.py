"""ONNX's ReduceMax/ReduceMin of an empty set: -inf/+inf for floats, the type's lowest/highest value otherwise.

OpenVINO's CPU plugin (2026.4) gives other values for floats: ReduceMax gives the lowest finite value, ReduceMin
the highest finite one for some axes forms. ``math_lowering.ReduceLowering`` marks the ReduceMax/Min it makes from ONNX's with
``onnx_empty_set``; where the reduced set may be empty (a reduced dimension that is 0 or known at run time only),
the result is chosen at run time: when x has no element, every output element reduces an empty set (an output
element exists only if no kept dimension is 0, so the 0 is a reduced one) and takes ONNX's value. Integer types
keep OpenVINO's result, which is ONNX's (the type's lowest/highest value; the CPU plugin computes int64 in 32 bits,
so it gives int32's bounds there, as it saturates f64's infinities to f32's finite bounds: limits of the plugin,
not of the IR); bool ReduceMax/Min are logical or/and (or their u8 forms, whose empty sets give false/true, as
ONNX's).
"""
import numpy as np

from extensions.middle.empty_axes import ReduceEmptyAxes
from extensions.middle.runtime_axes import ReduceRuntimeAxesRank
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.elementwise import Equal
from mo.ops.reduce import ReduceMax, ReduceMin, ReduceProd
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf

_I64 = np.dtype(np.int64)
_CLASSES = {'ReduceMax': ReduceMax, 'ReduceMin': ReduceMin}


def _empty_set_value(op: str, dtype: np.dtype):
    """ONNX's result over an empty set where OpenVINO's differs, else None."""
    if dtype.kind == 'f':
        return -np.inf if op == 'ReduceMax' else np.inf
    return None


def _may_be_empty(node: Node) -> bool:
    """True unless every reduced dimension is known and non-zero."""
    shape = node.in_port(0).data.get_shape()
    axes = node.in_port(1).data.get_value() if node.is_in_port_connected(1) else None
    if shape is None:
        return True
    dims = [int(d) for d in shape]
    if axes is not None:
        dims = [dims[int(a)] for a in np.ravel(axes) if -len(dims) <= int(a) < len(dims)]
    return any(d <= 0 for d in dims)


class ReduceEmptySet(MiddleOpRule):
    """ReduceMax/Min(x, axes) marked ``onnx_empty_set`` over a set that may be empty ->
    Select(ReduceProd(ShapeOf(x), 0) == 0, ONNX's empty-set value, ReduceMax/Min(x, axes))."""
    id = 'ReduceEmptySet'
    op = ('ReduceMax', 'ReduceMin')

    def run_after(self):
        return [ReduceEmptyAxes]

    def run_before(self):
        return [ReduceRuntimeAxesRank]  # which rebuilds the reduction without the mark

    def matches(self, node: Node) -> bool:
        dtype = node.in_port(0).data.get_data_type()
        return bool(node.soft_get('onnx_empty_set', False)) and dtype is not None and \
            _empty_set_value(node.op, dtype) is not None and _may_be_empty(node)

    def rewrite(self, node: Node, b: Builder):
        dtype = node.in_port(0).data.get_data_type()
        reduced = b.op(_CLASSES[node.op], [node.in_port(0), node.in_port(1)], 'reduce',
                       keep_dims=bool(node.keep_dims))
        size = b.op(ReduceProd, [b.op(ShapeOf, [node.in_port(0)], 'dims', output_type=_I64),
                                 b.const(np.array([0], _I64), 'dims_axis', _I64)], 'size', keep_dims=False)
        empty = b.op(Equal, [size, b.const(np.array(0, _I64), 'zero', _I64)], 'empty')
        value = b.const(np.array(_empty_set_value(node.op, dtype), dtype), 'empty_set_value', dtype)
        return b.op(Select, [empty, value, reduced], 'select')
