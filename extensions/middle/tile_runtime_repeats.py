"""A Tile whose repeats are known at run time only, as a Broadcast between two Reshapes.

OpenVINO's CPU plugin (2026.4) computes such a Tile wrongly on a rank-4 input repeated along three or more
dimensions (repeats [2, 2, 2, 2] on a [2, 3, 4, 5] input gives values of no input element), while the IR is
valid; which shapes it gets right is not documented, so every run-time Tile is rewritten. The same result is a broadcast: each dimension ``d_i`` gets a new axis of size 1 in front of it, the input is
broadcast to ``[r_0, d_0, r_1, d_1, ...]`` and the pairs are merged, ``[r_0 * d_0, r_1 * d_1, ...]``, which is
numpy.tile's definition. Constant repeats keep the Tile (the plugin gets those right).
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Mul
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf

_I64 = np.dtype(np.int64)


class TileRuntimeRepeats(MiddleOpRule):
    """Tile(x, repeats) with run-time repeats -> Reshape(Broadcast(Reshape(x, [1, d_i]...), [r_i, d_i]...),
    [r_i * d_i])."""
    id = 'TileRuntimeRepeats'
    op = 'Tile'

    def matches(self, node: Node) -> bool:
        return node.in_port(1).data.get_value() is None

    def rewrite(self, node: Node, b: Builder):
        shape = node.in_port(0).data.get_shape()
        repeats_shape = node.in_port(1).data.get_shape()
        if shape is None or repeats_shape is None or len(repeats_shape) != 1 or repeats_shape[0] < 0:
            b.reject('the rank of the input or the length of the repeats is not known')
        rank = max(len(shape), int(repeats_shape[0]))
        dims = self._padded(b, b.op(ShapeOf, [node.in_port(0)], 'dims', output_type=_I64), rank - len(shape),
                            'dims')
        repeats = self._padded(b, b.op(Convert, [node.in_port(1)], 'repeats_i64', dst_type=_I64),
                               rank - int(repeats_shape[0]), 'repeats')
        ones = b.const(np.ones(rank, _I64), 'ones', _I64)
        spread = b.op(Reshape, [node.in_port(0), self._interleaved(b, ones, dims, 'spread_shape')], 'spread')
        broadcast = b.op(Broadcast, [spread, self._interleaved(b, repeats, dims, 'broadcast_shape')], 'broadcast',
                         mode='numpy')
        return b.op(Reshape, [broadcast, b.op(Mul, [repeats, dims], 'tiled_shape')], 'tiled')

    @staticmethod
    def _padded(b: Builder, vector, missing: int, suffix: str):
        """``vector`` with ``missing`` leading 1s (the shorter of shape and repeats is padded so)."""
        if not missing:
            return vector
        return b.op(Concat, [b.const(np.ones(missing, _I64), suffix + '/leading_ones', _I64), vector],
                    suffix + '/padded', axis=0, in_ports_count=2)

    @staticmethod
    def _interleaved(b: Builder, first, second, suffix: str):
        """``[first_0, second_0, first_1, second_1, ...]`` of two vectors of one length."""
        column = b.const(np.array([-1, 1], _I64), suffix + '/column', _I64)
        pairs = b.op(Concat, [b.op(Reshape, [first, column], suffix + '/first'),
                              b.op(Reshape, [second, column], suffix + '/second')], suffix + '/pairs', axis=1,
                     in_ports_count=2)
        return b.op(Reshape, [pairs, b.const(np.array([-1], _I64), suffix + '/flat', _I64)], suffix)
