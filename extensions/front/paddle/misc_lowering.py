"""Less common Paddle tensor ops (``Paddle_*`` of ``tensor_ext.py``) as opset ops: flip, index_select,
take_along_axis, nonzero, roll, tril/triu, p_norm, logsumexp, meshgrid."""
import numpy as np

from extensions.front.paddle.formulas import I64, attr, ints_arg, out_dtype, port, slot_ports
from extensions.front.paddle.shape_lowering import rank_of
from extensions.ops.opset_tensor import GatherElements
from mo.ops.convert import ConvertLike
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.activation_ops import Abs, Exp, Log
from mo.ops.elementwise import Add, GreaterEqual, LessEqual, Pow, Sub
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.reduce import ReduceMax, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.sequence_ops import Roll
from mo.ops.shapeof import ShapeOf
from mo.ops.tensor_ops import NonZero, Reverse
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze


def _axes(node: Node, names, rank: int, default=None):
    value = attr(node, names, default)
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    return [int(a) + rank if int(a) < 0 else int(a) for a in values]


class FlipLowering(OpRule):
    """flip (older Paddles' reverse)(X) = Reverse along ``axis`` (index mode)."""
    op = 'Paddle_flip'

    def rewrite(self, node: Node, b: Builder):
        axes = _axes(node, ('axis', 'dims'), rank_of(node), [0])
        return [b.op(Reverse, [node.in_port(0), b.const(np.array(axes, I64), 'axes')], 'flip', mode='index')]


class IndexSelectLowering(OpRule):
    """index_select(X, Index) = Gather along ``dim`` (Paddle 3: ``axis``)."""
    op = 'Paddle_index_select'

    def rewrite(self, node: Node, b: Builder):
        axis = int(attr(node, ('dim', 'axis'), 0))
        return [b.op(Gather, [port(node, 'X'), port(node, 'Index'), b.const(np.array(axis, I64), 'axis')],
                     'index_select')]


class TakeAlongAxisLowering(OpRule):
    """take_along_axis(Input, Index) = GatherElements along ``Axis`` (Paddle 3: ``axis``)."""
    op = 'Paddle_take_along_axis'

    def rewrite(self, node: Node, b: Builder):
        axis = int(attr(node, ('Axis', 'axis'), 0))
        return [b.op(GatherElements, [port(node, 'Input'), port(node, 'Index')], 'take', axis=axis)]


class NonZeroLowering(OpRule):
    """nonzero / where_index(Condition) = Transpose(NonZero): one row of int64 coordinates per element."""
    op = 'Paddle_nonzero'

    def rewrite(self, node: Node, b: Builder):
        found = b.op(NonZero, [node.in_port(0)], 'nonzero', output_type=np.int64)
        return [b.op(Transpose, [found, b.const(np.array([1, 0], I64), 'order')], 'rows')]


class RollLowering(OpRule):
    """roll(X) = Roll by ``shifts`` (the ShiftsTensor when given) along ``axis``; no axis rolls X flattened."""
    op = 'Paddle_roll'

    def rewrite(self, node: Node, b: Builder):
        shifts, tensor = ints_arg(b, node, ('ShiftsTensor',), 'shifts', 'shifts')
        shifts_input = tensor if tensor is not None else b.const(np.array(shifts, I64), 'shifts')
        axes = [int(a) for a in attr(node, 'axis', []) or []]
        x = node.in_port(0)
        if axes:
            return [b.op(Roll, [x, shifts_input, b.const(np.array(axes, I64), 'axes')], 'roll')]
        flat = b.op(Reshape, [x, b.const(np.array([-1], I64), 'flat_shape')], 'flat')
        rolled = b.op(Roll, [flat, shifts_input, b.const(np.array([0], I64), 'axes')], 'roll')
        return [b.op(Reshape, [rolled, b.op(ShapeOf, [x], 'shape')], 'shaped')]


class TrilTriuLowering(OpRule):
    """tril/triu(X) = X where column - row <= diagonal (tril) or >= diagonal (triu) over the last two axes,
    else 0."""
    op = 'Paddle_tril_triu'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        lower = node.formula == 'tril' or (node.formula == 'tril_triu' and attr(node, 'lower', True))
        diagonal = int(attr(node, 'diagonal', 0))
        shape = b.op(ShapeOf, [x], 'shape')

        def positions(axis, tag):
            size = b.op(Gather, [shape, b.const(np.array(axis, I64), tag + '/index'),
                                 b.const(np.array(0, I64), tag + '/axis')], tag + '/size')
            return b.op(Range, [b.const(np.array(0, I64), tag + '/start'), size, b.const(np.array(1, I64),
                                                                                          tag + '/step')],
                        tag, output_type=np.dtype(np.int64))
        rows = b.op(Unsqueeze, [positions(-2, 'rows'), b.const(np.array([1], I64), 'row_axis')], 'row_column')
        offset = b.op(Sub, [positions(-1, 'cols'), rows], 'offset')
        compare = LessEqual if lower else GreaterEqual
        keep = b.op(compare, [offset, b.const(np.array(diagonal, I64), 'diagonal')], 'keep')
        zero = b.op(ConvertLike, [b.const(np.array(0, np.int64), 'zero/value'), x], 'zero')
        return [b.op(Select, [keep, x, zero], 'masked')]


class PNormLowering(OpRule):
    """p_norm(X) = (sum |x|^p)^(1/p) along ``axis`` (all of X with ``asvector``); p = inf: max |x|."""
    op = 'Paddle_p_norm'

    def rewrite(self, node: Node, b: Builder):
        rank = rank_of(node)
        axes = list(range(rank)) if attr(node, 'asvector', False) else _axes(node, 'axis', rank, -1)
        keep = bool(attr(node, 'keepdim', False))
        p = float(attr(node, 'porder', 2.0))
        dtype = out_dtype(node)
        axes_input = b.const(np.array(axes, I64), 'axes')
        magnitude = b.op(Abs, [node.in_port(0)], 'abs')
        if np.isinf(p):
            return [b.op(ReduceMax, [magnitude, axes_input], 'max', keep_dims=keep)]
        powered = b.op(Pow, [magnitude, b.const(np.array(p, dtype), 'p')], 'powered')
        total = b.op(ReduceSum, [powered, axes_input], 'sum', keep_dims=keep)
        return [b.op(Pow, [total, b.const(np.array(1 / p, dtype), 'inverse_p')], 'norm')]


class LogSumExpLowering(OpRule):
    """logsumexp(X) = m + log(sum(exp(x - m))) along ``axis`` (all with ``reduce_all``), m the maximum there."""
    op = 'Paddle_logsumexp'

    def rewrite(self, node: Node, b: Builder):
        rank = rank_of(node)
        axes = _axes(node, 'axis', rank, [])
        if attr(node, 'reduce_all', False) or not axes:
            axes = list(range(rank))
        keep = bool(attr(node, 'keepdim', False))
        axes_input = b.const(np.array(axes, I64), 'axes')
        x = node.in_port(0)
        peak = b.op(ReduceMax, [x, axes_input], 'peak', keep_dims=True)
        total = b.op(ReduceSum, [b.op(Exp, [b.op(Sub, [x, peak], 'shifted')], 'exp'), axes_input], 'sum',
                     keep_dims=True)
        result = b.op(Add, [b.op(Log, [total], 'log'), peak], 'logsumexp')
        if keep:
            return [result]
        return [b.op(Reshape, [result, b.op(ShapeOf, [b.op(ReduceSum, [x, axes_input], 'shape_probe',
                                                                keep_dims=False)], 'out_shape')], 'squeezed')]


class MeshgridLowering(OpRule):
    """meshgrid(X_1..X_n) = for each 1-D X_i, X_i reshaped to size -1 on axis i and 1 elsewhere, broadcast to
    the sizes of all inputs in order ('ij' indexing, Paddle's only one)."""
    op = 'Paddle_meshgrid'

    def rewrite(self, node: Node, b: Builder):
        parts = slot_ports(node, 'X')
        count = len(parts)
        sizes = b.op(Concat, [b.op(ShapeOf, [p], 'size_{}'.format(i)) for i, p in enumerate(parts)], 'grid_shape',
                     axis=0, in_ports_count=count)
        grids = []
        for i, p in enumerate(parts):
            shape = [1] * count
            shape[i] = -1
            column = b.op(Reshape, [p, b.const(np.array(shape, I64), 'shape_{}'.format(i))], 'lifted_{}'.format(i))
            grids.append(b.op(Broadcast, [column, sizes], 'grid_{}'.format(i)))
        b.inherit_name(grids[0])
        return grids
