"""Paddle's indexing, selection and range ops (``Paddle_*`` of ``tensor_ext.py``) as opset ops."""
import numpy as np

from extensions.front.paddle.formulas import I64, attr, int_arg, ints_arg, out_dtype, port
from extensions.front.paddle.shape_lowering import rank_of
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import input_var, node_name
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Equal
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze
from mo.ops.tensor_ops import CumSum, GatherND, OneHot, ScatterNDUpdate
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

def _scalar(b: Builder, item, tag: str, dtype=None):
    """A 0-D form of a one-element tensor (Paddle passes scalars as [1] tensors), converted to ``dtype``."""
    flat = b.op(Reshape, [item, b.const(np.zeros([0], I64), tag + '/shape')], tag + '/scalar')
    return flat if dtype is None else b.op(Convert, [flat], tag, dst_type=np.dtype(dtype))


class SliceLowering(OpRule):
    """slice/strided_slice(Input) = Slice(Input, starts, ends, strides (1s), axes), then Squeeze of
    ``decrease_axis``; starts/ends/strides from their tensor, list of tensors or attribute."""
    op = 'Paddle_slice'

    def rewrite(self, node: Node, b: Builder):
        axes = [int(a) for a in attr(node, 'axes', [])]
        vectors = []
        for name, default in (('starts', None), ('ends', None), ('strides', [1] * len(axes))):
            slots = (name.capitalize() + 'TensorList', name.capitalize() + 'Tensor')
            values, tensor = ints_arg(b, node, slots, name, name, default)
            if tensor is None:
                # Paddle writes "to the end" as a large int that may pass int32's range: clamp into int64's
                tensor = b.const(np.array(values, I64), name)
            vectors.append(tensor)
        sliced = b.op(Slice, [node.in_port(0)] + vectors + [b.const(np.array(axes, I64), 'axes')], 'slice')
        decrease = [int(a) for a in attr(node, 'decrease_axis', []) or []]
        rank = rank_of(node, 'Input')
        if decrease and len(decrease) < rank:
            return [b.op(Squeeze, [sliced, b.const(np.array(decrease, I64), 'decrease')], 'squeeze')]
        if decrease:  # every axis decreased: Paddle 2 keeps one element as [1], Paddle 3 gives a 0-D tensor
            var_out = node.pb.outputs.get('Out', [None])[0]
            declared = node.graph.graph['paddle_program'].var(var_out).shape if var_out else None
            target = np.array(declared if declared is not None else [], I64)
            return [b.op(Reshape, [sliced, b.const(target, 'shape')], 'squeeze')]
        return [sliced]


class GatherLowering(OpRule):
    """gather(X, Index) = Gather along ``axis`` (the Axis tensor when given; 0 by default)."""
    op = 'Paddle_gather'

    def rewrite(self, node: Node, b: Builder):
        axis, tensor = int_arg(b, node, 'Axis', 'axis', 'axis', 0)
        axis_input = b.const(np.array(axis, I64), 'axis') if tensor is None else _scalar(b, tensor, 'axis')
        return [b.op(Gather, [port(node, 'X'), port(node, 'Index'), axis_input], 'gather')]


class GatherNDLowering(OpRule):
    """gather_nd(X, Index) = GatherND (the last axis of Index indexes X's leading axes)."""
    op = 'Paddle_gather_nd'

    def rewrite(self, node: Node, b: Builder):
        return [b.op(GatherND, [port(node, 'X'), port(node, 'Y') or node.in_port(1)], 'gather_nd')]


class ScatterLowering(OpRule):
    """scatter(X, Ids, Updates) with overwrite = ScatterNDUpdate of rows Ids (as [n, 1] indices); without
    overwrite the rows are zeroed, then the updates summed into them."""
    op = 'Paddle_scatter'

    def rewrite(self, node: Node, b: Builder):
        x, ids, updates = port(node, 'X'), port(node, 'Ids'), port(node, 'Updates')
        rows = b.op(Reshape, [ids, b.const(np.array([-1, 1], I64), 'rows_shape')], 'rows')
        if attr(node, 'overwrite', True):
            return [b.op(ScatterNDUpdate, [x, rows, updates], 'scatter')]
        zeros = b.op(Broadcast, [b.const(np.array(0, out_dtype(node)), 'zero'),
                                 b.op(ShapeOf, [updates], 'updates_shape')], 'zeros')
        cleared = b.op(ScatterNDUpdate, [x, rows, zeros], 'cleared')
        return [b.op(ScatterNDUpdate, [cleared, rows, updates], 'scatter', reduction='sum')]


class WhereLowering(OpRule):
    """where(Condition, X, Y) = Select."""
    op = 'Paddle_where'

    def rewrite(self, node: Node, b: Builder):
        return [b.op(Select, [port(node, 'Condition'), port(node, 'X'), port(node, 'Y')], 'select')]


class CumsumLowering(OpRule):
    """cumsum(X) = CumSum along ``axis`` (exclusive, reverse); ``flatten`` (or no axis) sums X flattened."""
    op = 'Paddle_cumsum'

    def rewrite(self, node: Node, b: Builder):
        axis, tensor = int_arg(b, node, 'AxisTensor', 'axis', 'axis', -1)
        x = node.in_port(0)
        if attr(node, 'flatten', False):
            x = b.op(Reshape, [x, b.const(np.array([-1], I64), 'flat')], 'flat')
            axis, tensor = 0, None
        axis_input = b.const(np.array(axis, I64), 'axis') if tensor is None else _scalar(b, tensor, 'axis')
        return [b.op(CumSum, [x, axis_input], 'cumsum', exclusive=bool(attr(node, 'exclusive', False)),
                     reverse=bool(attr(node, 'reverse', False)))]


class ArgLowering(OpRule):
    """arg_max/arg_min(X) = TopK(k=1) indices along ``axis`` (of X flattened when ``flatten``), squeezed there
    unless ``keepdims``, in ``dtype`` (int64 by default)."""
    op = 'Paddle_arg'

    def rewrite(self, node: Node, b: Builder):
        axis, tensor = int_arg(b, node, 'AxisTensor', 'axis', 'axis', -1)
        if tensor is not None:
            raise Error('{} "{}": its axis is computed at run time; mo converts a constant one only', node.formula,
                        node_name(node))
        x = node.in_port(0)
        rank = rank_of(node)
        if attr(node, 'flatten', False) or rank == 0:
            x = b.op(Reshape, [x, b.const(np.array([-1], I64), 'flat')], 'flat')
            axis, rank = 0, 1
        axis = axis + rank if axis < 0 else axis
        mode = 'max' if node.formula in ('arg_max', 'argmax') else 'min'
        dtype = out_dtype(node, default=np.int64)
        top = b.op(TopK, [x, b.const(np.array(1, I64), 'k')], 'top', axis=axis, mode=mode, sort='value',
                   index_element_type='i32' if dtype == np.int32 else 'i64')
        if attr(node, ('keepdims', 'keepdim'), False) and not attr(node, 'flatten', False):
            return [top.out_port(1)]
        return [b.op(Squeeze, [top.out_port(1), b.const(np.array([axis], I64), 'axis')], 'indices')]


class TopKLowering(OpRule):
    """top_k(X) = TopK along ``axis`` (last by default), largest or smallest first, sorted by value; k from the K
    tensor when given; indices int64."""
    op = 'Paddle_top_k'

    def rewrite(self, node: Node, b: Builder):
        k, tensor = int_arg(b, node, 'K', 'k', 'k', 1)
        k_input = b.const(np.array(k, I64), 'k') if tensor is None else _scalar(b, tensor, 'k', np.int64)
        top = b.op(TopK, [node.in_port(0), k_input], 'topk', axis=int(attr(node, 'axis', -1)),
                   mode='max' if attr(node, 'largest', True) else 'min', sort='value', index_element_type='i64')
        return [top.out_port(0), top.out_port(1)]


class OneHotLowering(OpRule):
    """one_hot(X) = OneHot(X, depth, 1, 0) along a new last axis, float32 (classic ``one_hot``: X's last axis,
    of size 1, replaced; Paddle 3's ``one_hot`` is the v2 op)."""
    op = 'Paddle_one_hot'

    def rewrite(self, node: Node, b: Builder):
        depth, tensor = int_arg(b, node, 'depth_tensor', ('depth', 'num_classes'), 'depth', -1)
        depth_input = b.const(np.array(depth, I64), 'depth') if tensor is None else _scalar(b, tensor, 'depth')
        dtype = out_dtype(node)
        indices = node.in_port(0)
        if node.formula == 'one_hot' and not node.pb.operands:  # the classic v1 op: X is [..., 1]
            indices = b.op(Squeeze, [indices, b.const(np.array([-1], I64), 'last')], 'indices')
        return [b.op(OneHot, [indices, depth_input, b.const(np.array(1, dtype), 'on'),
                              b.const(np.array(0, dtype), 'off')], 'one_hot', axis=-1)]


class EmbeddingLowering(OpRule):
    """embedding(Ids, W) = Gather(W, Ids, 0); ids equal to ``padding_idx`` give zeros (classic lookup_table:
    Ids [..., 1] loses its last axis)."""
    op = 'Paddle_embedding'

    def rewrite(self, node: Node, b: Builder):
        ids, weights = port(node, 'Ids'), port(node, 'W')
        if node.formula == 'lookup_table':
            ids = b.op(Squeeze, [ids, b.const(np.array([-1], I64), 'last')], 'ids')
        rows = b.op(Gather, [weights, ids, b.const(np.array(0, I64), 'axis')], 'gather')
        padding = attr(node, 'padding_idx', -1)
        if padding is None or padding == -1:
            return [rows]
        if padding < 0:
            var = input_var(node, 'W')
            padding += var.shape[0]
        ids_var = input_var(node, 'Ids')
        dtype = ids_var.dtype if ids_var is not None and ids_var.dtype is not None else np.int64
        is_padding = b.op(Equal, [ids, b.const(np.array(padding, dtype), 'padding_idx')], 'is_padding')
        mask = b.op(Unsqueeze, [is_padding, b.const(np.array([-1], I64), 'last')], 'mask')
        return [b.op(Select, [mask, b.const(np.array(0, out_dtype(node)), 'zero'), rows], 'embedding')]


class RangeLowering(OpRule):
    """range/arange(Start, End, Step) = Range of the scalars, in the declared type."""
    op = 'Paddle_range'

    def rewrite(self, node: Node, b: Builder):
        dtype = out_dtype(node, default=np.int64)
        parts = [_scalar(b, port(node, slot), slot.lower(), dtype) for slot in ('Start', 'End', 'Step')]
        return [b.op(Range, parts, 'range', output_type=dtype)]
