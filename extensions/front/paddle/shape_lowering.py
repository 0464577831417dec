"""Paddle's shape and layout ops (``Paddle_*`` of ``tensor_ext.py``) as opset ops. Ranks come from the shapes
the program declares; axes given as constants (attributes, PIR's ``full_int_array``) are read now."""
import numpy as np

from extensions.front.paddle.formulas import I64, attr, int_arg, ints_arg, out_dtype, port, slot_ports
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.dtypes import from_name, from_var_type
from mo.front.paddle.extractor_utils import input_rank, input_var, node_name
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.split import Split, VariadicSplit
from mo.ops.squeeze import Squeeze
from mo.ops.tile import Tile
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


def rank_of(node: Node, slot: str = 'X') -> int:
    rank = input_rank(node, slot)
    if rank is None:
        raise Error('Paddle {} "{}": the program does not declare the rank of its input', node.formula,
                    node_name(node))
    return rank


def _axis(axis: int, rank: int) -> int:
    return axis + rank if axis < 0 else axis


class ReshapeLowering(OpRule):
    """reshape(X) = Reshape(X, shape) with 0 copying X's dimension and -1 inferred (special_zero): the shape from
    ShapeTensor (a list of tensors), else Shape, else the attribute."""
    op = 'Paddle_reshape'

    def rewrite(self, node: Node, b: Builder):
        shape, tensor = ints_arg(b, node, ('ShapeTensor', 'Shape'), 'shape', 'shape')
        if tensor is None:
            tensor = b.const(np.array(shape, I64), 'shape')
        return [b.op(Reshape, [node.in_port(0), tensor], 'reshape', special_zero=True)]


class TransposeLowering(OpRule):
    """transpose(X) = Transpose(X, axis) (Paddle 3: perm)."""
    op = 'Paddle_transpose'

    def rewrite(self, node: Node, b: Builder):
        order = [int(v) for v in attr(node, ('axis', 'perm'), [])]
        return [b.op(Transpose, [node.in_port(0), b.const(np.array(order, I64), 'order')], 'transpose')]


class SqueezeLowering(OpRule):
    """squeeze(X) = Squeeze of those of the axes whose size is 1 (Paddle leaves the others; no axes: every size-1
    axis), known from the program's declared shape."""
    op = 'Paddle_squeeze'

    def rewrite(self, node: Node, b: Builder):
        axes, tensor = ints_arg(b, node, ('AxesTensorList', 'AxesTensor'), 'axes', 'axes', default=[])
        var = input_var(node, 'X')
        shape = var.shape if var is not None else None
        if tensor is not None:
            return [b.op(Squeeze, [node.in_port(0), tensor], 'squeeze')]
        if shape is None:
            raise Error('squeeze "{}": the program does not declare its input\'s shape', node_name(node))
        rank = len(shape)
        axes = [_axis(a, rank) for a in axes] if axes else list(range(rank))
        # a dynamic (-1) axis named explicitly is taken as 1, as Paddle would require it to be
        chosen = [a for a in axes if shape[a] == 1 or (shape[a] < 0 and len(axes) < rank)]
        if not chosen:
            return [node.in_port(0)]
        return [b.op(Squeeze, [node.in_port(0), b.const(np.array(sorted(set(chosen)), I64), 'axes')], 'squeeze')]


class UnsqueezeLowering(OpRule):
    """unsqueeze(X) = Unsqueeze at the axes, each counted in the rank reached after the ones before it (as
    Paddle inserts them one at a time)."""
    op = 'Paddle_unsqueeze'

    def rewrite(self, node: Node, b: Builder):
        axes, tensor = ints_arg(b, node, ('AxesTensorList', 'AxesTensor'), 'axes', 'axes', default=[])
        if tensor is not None:
            return [b.op(Unsqueeze, [node.in_port(0), tensor], 'unsqueeze')]
        rank = rank_of(node)
        positions = []
        for axis in axes:
            current = rank + len(positions)
            axis = axis + current + 1 if axis < 0 else axis
            positions = [p + 1 if p >= axis else p for p in positions] + [axis]
        return [b.op(Unsqueeze, [node.in_port(0), b.const(np.array(sorted(positions), I64), 'axes')],
                     'unsqueeze')]


class FlattenLowering(OpRule):
    """flatten(X) = Reshape(X, [0, ..., -1, sizes after stop_axis]): the axes start_axis..stop_axis as one, the
    others kept."""
    op = 'Paddle_flatten'

    def rewrite(self, node: Node, b: Builder):
        rank = rank_of(node)
        if rank == 0:
            return [b.op(Reshape, [node.in_port(0), b.const(np.array([1], I64), 'shape')], 'flatten')]
        start = _axis(int(attr(node, 'start_axis', 1)), rank)
        stop = _axis(int(attr(node, 'stop_axis', -1)), rank)
        if stop == rank - 1:
            pattern = b.const(np.array([0] * start + [-1], I64), 'shape')
        else:  # a 0 copies the input's size at the same index: the axes after stop need theirs read
            shape = b.op(ShapeOf, [node.in_port(0)], 'in_shape')
            parts = [b.const(np.array([0] * start + [-1], I64), 'head')]
            parts.append(b.op(Slice, [shape, b.const([stop + 1], 'tail_begin', I64), b.const([rank], 'tail_end', I64),
                                      b.const([1], 'tail_step', I64)], 'tail'))
            pattern = b.op(Concat, parts, 'shape', axis=0, in_ports_count=2)
        return [b.op(Reshape, [node.in_port(0), pattern], 'flatten', special_zero=True)]


class Flatten2Lowering(OpRule):
    """flatten2(X) (classic) = X as 2-D: [prod(shape[:axis]), prod(shape[axis:])]."""
    op = 'Paddle_flatten2'

    def rewrite(self, node: Node, b: Builder):
        axis = int(attr(node, 'axis', 1))
        if axis <= 1:
            pattern = [1, -1] if axis == 0 else [0, -1]
        else:
            tail = input_var(node, 'X').shape[axis:]
            if any(d < 0 for d in tail):
                raise Error('flatten2 "{}": the axes after {} must have known sizes', node_name(node), axis)
            pattern = [-1, int(np.prod(tail))]
        return [b.op(Reshape, [node.in_port(0), b.const(np.array(pattern, I64), 'shape')], 'flatten',
                     special_zero=True)]


class ConcatLowering(OpRule):
    """concat(X...) = Concat along ``axis`` (the AxisTensor when given; negative counts from the rank)."""
    op = 'Paddle_concat'

    def rewrite(self, node: Node, b: Builder):
        axis, tensor = int_arg(b, node, 'AxisTensor', 'axis', 'axis', 0)
        if tensor is not None:
            raise Error('concat "{}": its axis is computed at run time; mo converts a constant one only',
                        node_name(node))
        parts = slot_ports(node, 'X')
        axis = _axis(axis, rank_of(node))
        return [b.op(Concat, parts, 'concat', axis=axis, in_ports_count=len(parts))]


class SplitLowering(OpRule):
    """split(X) = Split into ``num`` equal parts, else VariadicSplit by ``sections`` (-1: the rest), along
    ``axis``; one output per part."""
    op = 'Paddle_split'

    def rewrite(self, node: Node, b: Builder):
        axis, axis_tensor = int_arg(b, node, 'AxisTensor', 'axis', 'axis', 0)
        if axis_tensor is None:
            axis_tensor = b.const(np.array(axis, I64), 'axis')
        outputs = len(node.soft_get('out_slots', {}).get('Out', ()))
        num = int(attr(node, 'num', 0) or 0)
        if num > 0 or node.formula == 'split_with_num':
            split = b.op(Split, [node.in_port(0), axis_tensor], 'split', num_splits=num or outputs)
        else:
            sections, tensor = ints_arg(b, node, ('SectionsTensorList', 'Sections'), 'sections', 'sections')
            if tensor is None:
                tensor = b.const(np.array(sections, I64), 'sections')
            split = b.op(VariadicSplit, [node.in_port(0), axis_tensor, tensor], 'split', out_ports_count=outputs)
        return [split.out_port(i) for i in range(outputs)]


class StackLowering(OpRule):
    """stack(X...) = Concat of the inputs each unsqueezed at ``axis``."""
    op = 'Paddle_stack'

    def rewrite(self, node: Node, b: Builder):
        parts = slot_ports(node, 'X')
        axis = _axis(int(attr(node, 'axis', 0)), rank_of(node) + 1)
        axes = b.const(np.array([axis], I64), 'axes')
        lifted = [b.op(Unsqueeze, [p, axes], 'unsqueeze_{}'.format(i)) for i, p in enumerate(parts)]
        return [b.op(Concat, lifted, 'stack', axis=axis, in_ports_count=len(lifted))]


class UnstackLowering(OpRule):
    """unstack(X) = Split along ``axis`` into its size, each part squeezed there."""
    op = 'Paddle_unstack'

    def rewrite(self, node: Node, b: Builder):
        rank = rank_of(node)
        axis = _axis(int(attr(node, 'axis', 0)), rank)
        outputs = len(node.soft_get('out_slots', {}).get('Y', ()))
        split = b.op(Split, [node.in_port(0), b.const(np.array(axis, I64), 'axis')], 'split', num_splits=outputs)
        axes = b.const(np.array([axis], I64), 'axes')
        parts = [b.op(Squeeze, [split.out_port(i), axes], 'part_{}'.format(i)) for i in range(outputs)]
        b.inherit_name(parts[0])
        return parts


class ExpandLowering(OpRule):
    """expand(X, shape) = Broadcast(X, |shape|) bidirectionally: a -1 (keep X's size) becomes 1, which the
    bidirectional rule resolves to X's size; a longer shape adds leading axes."""
    op = 'Paddle_expand'

    def rewrite(self, node: Node, b: Builder):
        shape, tensor = ints_arg(b, node, ('expand_shapes_tensor', 'Shape'), 'shape', 'shape')
        if tensor is None:
            tensor = b.const(np.array([abs(d) for d in shape], I64), 'shape')
        else:
            tensor = b.op(Abs, [tensor], 'kept_as_1')
        return [b.op(Broadcast, [node.in_port(0), tensor], 'expand', mode='bidirectional')]


class ExpandAsLowering(OpRule):
    """expand_as(X, Y) = Broadcast(X, ShapeOf(Y)) (no Y: the target_shape attribute)."""
    op = 'Paddle_expand_as'

    def rewrite(self, node: Node, b: Builder):
        target = port(node, 'Y')
        if target is not None:
            shape = b.op(ShapeOf, [target], 'target_shape')
        else:
            shape = b.const(np.array(attr(node, 'target_shape', []), I64), 'target_shape')
        return [b.op(Broadcast, [node.in_port(0), shape], 'expand_as')]


class TileLowering(OpRule):
    """tile(X) = Tile(X, repeat_times) (the tensor or list of tensors when given)."""
    op = 'Paddle_tile'

    def rewrite(self, node: Node, b: Builder):
        repeats, tensor = ints_arg(b, node, ('repeat_times_tensor', 'RepeatTimes'), 'repeat_times', 'repeats')
        if tensor is None:
            tensor = b.const(np.array(repeats, I64), 'repeats')
        return [b.op(Tile, [node.in_port(0), tensor], 'tile')]


class ShapeLowering(OpRule):
    """shape(X) = ShapeOf(X) in the type the program declares (int32 classic and shape, int64 for shape64)."""
    op = 'Paddle_shape'

    def rewrite(self, node: Node, b: Builder):
        dtype = out_dtype(node, default=np.int64 if node.formula == 'shape64' else np.int32)
        return [b.op(ShapeOf, [node.in_port(0)], 'shape', output_type=dtype)]


class CastLowering(OpRule):
    """cast(X) = Convert to ``out_dtype`` (classic: a VarType number; Paddle 3: ``dtype``)."""
    op = 'Paddle_cast'

    def rewrite(self, node: Node, b: Builder):
        value = attr(node, ('out_dtype', 'dtype'))
        dtype = value if isinstance(value, np.dtype) else from_var_type(int(value)) if isinstance(
            value, (int, np.integer)) else from_name(str(value))
        if dtype is None:
            dtype = out_dtype(node)
        return [b.op(Convert, [node.in_port(0)], 'cast', dst_type=np.dtype(dtype))]
