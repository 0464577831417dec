"""Ops whose axes are known at run time only, rewritten into forms OpenVINO's CPU plugin runs.

The opset accepts Unsqueeze and ReduceX (keep_dims=false) with a run-time axes input, but OpenVINO's shape
inference then gives their outputs a dynamic rank, which the CPU plugin (2026.4) refuses; and it has no kernel for
ReduceLogicalAnd/Or with run-time axes. Where the number of axes is known (the axes input is a vector of known
length, as a graph input of static shape is), the output rank is static too, so:

* Unsqueeze(x, axes) = Reshape(x, shape), ``shape`` built at run time with static length rank(x) + |axes|: 1 at
  the axes, the dims of x in order elsewhere;
* ReduceX(x, axes, keep_dims=false) = Reshape(ReduceX(x, axes, keep_dims=true), shape), ``shape`` the dims of x
  without the axes (static length rank(x) - |axes|);
* ReduceLogicalOr/And(x, axes) = Convert(ReduceMax/Min(Convert(x, u8), axes), boolean): false < true as 0 < 1,
  and an empty set gives u8's lowest (false) for Max and highest (true) for Min, as ONNX's bool ReduceMax/Min.

Constant axes keep the op as it is (the plugin runs those).
"""
import numpy as np

from extensions.middle.empty_axes import REDUCTIONS, ReduceEmptyAxes
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Less, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.op import Op
from mo.ops.reduce import ReduceMax, ReduceMin
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.tensor_ops import CumSum, ScatterNDUpdate

_I64 = np.dtype(np.int64)


def _runtime_axes_count(node: Node):
    """The number of axes on input 1 when they are known at run time only but their count is known, else None."""
    if not node.is_in_port_connected(1) or node.in_port(1).data.get_value() is not None:
        return None
    shape = node.in_port(1).data.get_shape()
    if shape is None or len(shape) > 1:
        return None
    count = int(shape[0]) if len(shape) else 1
    return count if count >= 0 else None


def _axes_mask(b: Builder, axes, rank: int, count: int):
    """``[rank]`` int64 vector: 1 at the (normalized) ``axes``, 0 elsewhere."""
    axes = b.op(Convert, [axes], 'axes_i64', dst_type=_I64)
    rank_const = b.const(np.array(rank, _I64), 'rank', _I64)
    axes = b.op(Select, [b.op(Less, [axes, b.const(np.array(0, _I64), 'zero', _I64)], 'negative'),
                         b.op(Add, [axes, rank_const], 'axes_from_end'), axes], 'normalized_axes')
    column = b.op(Reshape, [axes, b.const(np.array([-1, 1], _I64), 'column', _I64)], 'axes_column')
    return b.op(ScatterNDUpdate, [b.const(np.zeros(rank, _I64), 'zeros', _I64), column,
                                  b.const(np.ones(count, _I64), 'ones', _I64)], 'axes_mask')


class UnsqueezeRuntimeAxes(MiddleOpRule):
    """Unsqueeze(x, axes) with run-time axes of known count k -> Reshape(x, Gather(Concat([1], ShapeOf(x)),
    CumSum(kept) * kept)), kept = 1 - mask of the axes among the rank(x) + k output positions: an axis picks the
    leading 1, the i-th other position picks dim i - 1 of x."""
    id = 'UnsqueezeRuntimeAxes'
    op = 'Unsqueeze'

    def matches(self, node: Node) -> bool:
        return _runtime_axes_count(node) is not None and node.in_port(0).data.get_shape() is not None

    def rewrite(self, node: Node, b: Builder):
        count = _runtime_axes_count(node)
        rank = len(node.in_port(0).data.get_shape()) + count
        if rank == count:  # a scalar: every output dimension is a new 1
            return b.op(Reshape, [node.in_port(0), b.const(np.ones(count, _I64), 'shape', _I64)], 'reshape')
        kept = b.op(Sub, [b.const(np.ones(rank, _I64), 'all', _I64),
                          _axes_mask(b, node.in_port(1), rank, count)], 'kept')
        position = b.op(CumSum, [kept, b.const(np.array(0, _I64), 'cumsum_axis', _I64)], 'position')
        dims = b.op(Concat, [b.const(np.ones(1, _I64), 'one', _I64),
                             b.op(ShapeOf, [node.in_port(0)], 'dims', output_type=_I64)], 'one_and_dims', axis=0,
                    in_ports_count=2)
        shape = b.op(Gather, [dims, b.op(Mul, [position, kept], 'picks'),
                              b.const(np.array(0, _I64), 'gather_axis', _I64)], 'shape')
        return b.op(Reshape, [node.in_port(0), shape], 'reshape', special_zero=False)


class ReduceLogicalRuntimeAxes(MiddleOpRule):
    """ReduceLogicalOr/And(x, axes) with run-time axes -> Convert(ReduceMax/Min(Convert(x, u8), axes), boolean)."""
    id = 'ReduceLogicalRuntimeAxes'
    op = ('ReduceOr', 'ReduceAnd')

    def run_after(self):
        return [ReduceEmptyAxes]

    def matches(self, node: Node) -> bool:
        return node.is_in_port_connected(1) and node.in_port(1).data.get_value() is None

    def rewrite(self, node: Node, b: Builder):
        op_class = ReduceMax if node.op == 'ReduceOr' else ReduceMin
        numbers = b.op(Convert, [node.in_port(0)], 'u8', dst_type=np.dtype(np.uint8))
        reduced = b.op(op_class, [numbers, node.in_port(1)], 'reduce', keep_dims=bool(node.keep_dims))
        return b.op(Convert, [reduced], 'boolean', dst_type=np.dtype(np.bool_))


class ReduceRuntimeAxesRank(MiddleOpRule):
    """ReduceX(x, axes, keep_dims=false) with run-time axes of known count k -> Reshape(ReduceX(x, axes,
    keep_dims=true), the dims of x without the axes): each kept dim is scattered to its output position
    (CumSum of kept, exclusive), each reduced one to a last slot that is then dropped."""
    id = 'ReduceRuntimeAxesRank'
    op = REDUCTIONS + ('ReduceL2',)

    def run_after(self):
        return [ReduceEmptyAxes, ReduceLogicalRuntimeAxes]

    def matches(self, node: Node) -> bool:
        return not node.keep_dims and _runtime_axes_count(node) is not None and \
            node.in_port(0).data.get_shape() is not None

    def rewrite(self, node: Node, b: Builder):
        count = _runtime_axes_count(node)
        rank = len(node.in_port(0).data.get_shape())
        if count > rank:
            b.reject('more axes than dimensions')
        reduced = b.op(Op.get_op_class_by_name(node.op), [node.in_port(0), node.in_port(1)], 'reduce',
                       keep_dims=True)
        out_rank = rank - count
        if out_rank == 0:
            return b.op(Reshape, [reduced, b.const(np.zeros(0, _I64), 'shape', _I64)], 'reshape')
        mask = _axes_mask(b, node.in_port(1), rank, count)
        kept = b.op(Sub, [b.const(np.ones(rank, _I64), 'all', _I64), mask], 'kept')
        position = b.op(CumSum, [kept, b.const(np.array(0, _I64), 'cumsum_axis', _I64)], 'position',
                        exclusive=True)
        slot = b.op(Add, [b.op(Mul, [position, kept], 'kept_slot'),
                          b.op(Mul, [mask, b.const(np.array(out_rank, _I64), 'last', _I64)], 'dropped_slot')],
                    'slot')
        slots = b.op(ScatterNDUpdate, [b.const(np.zeros(out_rank + 1, _I64), 'slots', _I64),
                                       b.op(Reshape, [slot, b.const(np.array([-1, 1], _I64), 'slot_column', _I64)],
                                            'slot_column'),
                                       b.op(ShapeOf, [node.in_port(0)], 'dims', output_type=_I64)], 'scattered')
        shape = b.op(Gather, [slots, b.const(np.arange(out_rank, dtype=_I64), 'kept_slots', _I64),
                              b.const(np.array(0, _I64), 'gather_axis', _I64)], 'shape')
        return b.op(Reshape, [reduced, shape], 'reshape', special_zero=False)
