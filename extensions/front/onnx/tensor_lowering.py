"""ONNX tensor ops built from several opset ops (the ``ONNX<op>`` nodes ``tensor_ext`` leaves).

Each rule (``mo.front.common.rule.OpRule``) builds the formula its docstring gives from the node's inputs and
ONNX attributes; shapes are read at run time (ShapeOf), so dynamic dimensions stay dynamic. ``Pad`` is in
``pad_lowering``.
"""
import numpy as np

from extensions.front.onnx.tensor_ext import node_name
from extensions.ops.opset_tensor import Eye
from mo.front.common.rule import Builder, OpRule
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Add, Div, Equal, FloorMod, Greater, GreaterEqual, Less, LessEqual, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.range import Range
from mo.ops.reduce import ReduceProd
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze
from mo.ops.tensor_ops import CumSum, NonZero, OneHot
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

INT64_MAX = np.iinfo(np.int64).max


def i64(b: Builder, value, suffix: str):
    return b.const(np.array(value, dtype=np.int64), suffix, np.int64)


def scalar(b: Builder, port, suffix: str):
    """``port``'s single element as a scalar (ONNX gives k, depth, axis as a scalar or a 1-element tensor)."""
    return b.op(Reshape, [port, i64(b, [], suffix + '/shape')], suffix)


def constant_input(node: Node, port: int):
    """The value of input ``port`` when a Const feeds it, else None."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    return source.soft_get('value', None) if source.soft_get('op') == 'Const' else None


class ShapeLowering(OpRule):
    """Shape(x; start, end) = Slice(ShapeOf(x), start, end): Slice clamps both as ONNX does."""
    op = 'ONNXShape'

    def rewrite(self, node: Node, b: Builder):
        shape = b.op(ShapeOf, [node.in_port(0)], 'shape', output_type=np.int64)
        end = node.end if node.end is not None else INT64_MAX
        return b.op(Slice, [shape, i64(b, [node.start], 'start'), i64(b, [end], 'stop'), i64(b, [1], 'step'),
                            i64(b, [0], 'axes')], 'slice')


class TransposeLowering(OpRule):
    """Transpose(x) without perm = Transpose(x, Range(rank - 1, -1, -1)): the axes reversed."""
    op = 'ONNXTranspose'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        rank = b.op(ShapeOf, [b.op(ShapeOf, [x], 'shape', output_type=np.int64)], 'rank', output_type=np.int64)
        last = b.op(Sub, [scalar(b, rank, 'rank_scalar'), i64(b, 1, 'one')], 'last')
        order = b.op(Range, [last, i64(b, -1, 'stop'), i64(b, -1, 'step')], 'order', output_type=np.int64)
        return b.op(Transpose, [x, order], 'transpose')


class FlattenLowering(OpRule):
    """Flatten(x; axis) = Reshape(x, [prod(shape[:axis]), prod(shape[axis:])]) ([1, -1] for axis 0; a negative axis
    counts from the end, which the Slices' bounds do too). The second size is computed, not -1: a -1 beside a 0 (an
    empty x, e.g. no detection boxes) is ambiguous, and OpenVINO makes it 0 where ONNX keeps prod(shape[axis:])."""
    op = 'ONNXFlatten'

    def rewrite(self, node: Node, b: Builder):
        axis = onnx_attr(node, 'axis', 'i', 1)
        if axis == 0:
            return b.op(Reshape, [node.in_port(0), i64(b, [1, -1], 'shape')], 'reshape', special_zero=False)
        shape = b.op(ShapeOf, [node.in_port(0).get_source()], 'shape', output_type=np.int64)
        head = b.op(Slice, [shape, i64(b, [0], 'start'), i64(b, [axis], 'stop'), i64(b, [1], 'step')], 'head')
        tail = b.op(Slice, [shape, i64(b, [axis], 'tail_start'), i64(b, [np.iinfo(np.int64).max], 'tail_stop'),
                            i64(b, [1], 'tail_step')], 'tail')
        rows = b.op(ReduceProd, [head, i64(b, [0], 'axes')], 'rows', keep_dims=True)
        columns = b.op(ReduceProd, [tail, i64(b, [0], 'tail_axes')], 'columns', keep_dims=True)
        target = b.op(Concat, [rows, columns], 'target_shape', axis=0)
        return b.op(Reshape, [node.in_port(0), target], 'reshape', special_zero=False)


class ConstantOfShapeLowering(OpRule):
    """ConstantOfShape(shape; value) = Broadcast(value, shape) (value: a 1-element tensor, float 0 by default)."""
    op = 'ONNXConstantOfShape'

    def rewrite(self, node: Node, b: Builder):
        value = onnx_attr(node, 'value', 't', None)
        value = np.zeros((), np.float32) if value is None else np.asarray(value).reshape(())
        return b.op(Broadcast, [b.const(value, 'value'), node.in_port(0)], 'broadcast', mode='numpy')


class SliceLowering(OpRule):
    """Slice(x, starts, ends, axes, steps) = Slice-8(x, starts, ends, steps, axes), steps 1 by default; before
    opset 10 starts, ends and axes are attributes. Starts and ends are clamped as ONNX clamps them."""
    op = 'ONNXSlice'

    def rewrite(self, node: Node, b: Builder):
        if get_onnx_opset_version(node) < 10:
            starts = onnx_attr(node, 'starts', 'ints', None)
            ends = onnx_attr(node, 'ends', 'ints', None)
            if starts is None or ends is None:
                raise Error('Slice "{}" has no starts or ends attribute', node_name(node))
            axes = onnx_attr(node, 'axes', 'ints', None)
            inputs = [node.in_port(0), i64(b, starts, 'start'), i64(b, ends, 'stop'), i64(b, [1] * len(starts), 'step')]
            if axes is not None:
                inputs.append(i64(b, axes, 'axes'))
            return b.op(Slice, inputs, 'slice')
        starts = node.in_port(1).get_source()
        if node.is_in_port_connected(4):
            steps = node.in_port(4)
        else:
            ones = b.op(Broadcast, [i64(b, 1, 'one'), b.op(ShapeOf, [starts], 'count', output_type=np.int64)],
                        'ones', mode='numpy')
            steps = b.op(ConvertLike, [ones, starts], 'step')
        axes = node.in_port(3) if node.is_in_port_connected(3) else None
        return b.op(Slice, [node.in_port(0), starts, node.in_port(2), steps, axes], 'slice')


class SplitLowering(OpRule):
    """Split(x; axis, num_outputs) (opset 18) = Slice(x, i * c, (i + 1) * c) along axis for each output i, with
    c = ceil(dim / num_outputs): the last part is the smaller one when the dimension is not divisible."""
    op = 'ONNXSplit'

    def rewrite(self, node: Node, b: Builder):
        axis = onnx_attr(node, 'axis', 'i', 0)
        count = onnx_attr(node, 'num_outputs', 'i')
        if count < 1:
            raise Error('Split "{}": num_outputs is {}', node_name(node), count)
        x = node.in_port(0).get_source()
        dim = b.element(b.shape_of(x, 'shape'), axis, 'dim')
        chunk = b.op(Div, [b.op(Add, [dim, i64(b, count - 1, 'round_up')], 'padded'), i64(b, count, 'count')], 'chunk')
        chunk = b.op(Reshape, [chunk, i64(b, [1], 'one_element')], 'chunk_1d', special_zero=False)
        parts = []
        for index in range(count):
            start = b.op(Mul, [chunk, i64(b, [index], 'index_{}'.format(index))], 'start_{}'.format(index))
            stop = b.op(Mul, [chunk, i64(b, [index + 1], 'next_{}'.format(index))], 'stop_{}'.format(index))
            parts.append(b.op(Slice, [x, start, stop, i64(b, [1], 'step_{}'.format(index)),
                                      i64(b, [axis], 'axes_{}'.format(index))], 'part_{}'.format(index)))
        return parts


class TopKLowering(OpRule):
    """TopK(x, k) (opset 10 on: k a 1-element tensor) = TopK-11(x, k as a scalar)."""
    op = 'ONNXTopK'

    def rewrite(self, node: Node, b: Builder):
        top = b.op(TopK, [node.in_port(0), scalar(b, node.in_port(1), 'k')], 'topk', axis=node.axis, mode=node.mode,
                   sort=node.sort, index_element_type='i64', stable=True)
        b.inherit_name(top)
        return [top.out_port(0), top.out_port(1)]


class OneHotLowering(OpRule):
    """OneHot(indices, depth, [off, on]; axis) = OneHot-1(i, d, on, off) with d = int64(depth) and
    i = int64(indices), plus d where negative (ONNX counts negative indices from the end)."""
    op = 'ONNXOneHot'

    def rewrite(self, node: Node, b: Builder):
        depth = b.op(Convert, [scalar(b, node.in_port(1), 'depth_scalar')], 'depth', dst_type=np.int64)
        indices = b.op(Convert, [node.in_port(0)], 'indices', dst_type=np.int64)
        negative = b.op(Less, [indices, i64(b, 0, 'zero')], 'negative')
        indices = b.op(Select, [negative, b.op(Add, [indices, depth], 'from_end'), indices], 'wrapped')
        values = node.in_port(2).get_source()
        off = b.op(Gather, [values, i64(b, 0, 'off_index'), i64(b, 0, 'off_axis')], 'off')
        on = b.op(Gather, [values, i64(b, 1, 'on_index'), i64(b, 0, 'on_axis')], 'on')
        return b.op(OneHot, [indices, depth, on, off], 'one_hot', axis=onnx_attr(node, 'axis', 'i', -1))


class TriluLowering(OpRule):
    """Trilu(x, k; upper) = Select(c - r >= k (upper) or c - r <= k (lower), x, 0) over the last two axes, with
    r, c the row and column numbers."""
    op = 'ONNXTrilu'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        shape = b.op(ShapeOf, [x], 'shape', output_type=np.int64)
        zero, one = i64(b, 0, 'zero'), i64(b, 1, 'one')
        rows = b.op(Range, [zero, b.element(shape, -2, 'rows'), one], 'row_numbers', output_type=np.int64)
        columns = b.op(Range, [zero, b.element(shape, -1, 'columns'), one], 'column_numbers', output_type=np.int64)
        rows = b.op(Unsqueeze, [rows, i64(b, [1], 'column_axis')], 'row_column')
        offset = b.op(Sub, [columns, rows], 'offset')
        k = scalar(b, node.in_port(1), 'k') if node.is_in_port_connected(1) else i64(b, 0, 'k')
        compare = GreaterEqual if onnx_attr(node, 'upper', 'i', 1) else LessEqual
        keep = b.op(compare, [offset, k], 'keep')
        return b.op(Select, [keep, x, b.op(ConvertLike, [zero, x], 'zero_like')], 'select')


class CompressLowering(OpRule):
    """Compress(x, condition; axis) = Gather(x, Squeeze(NonZero(condition), 0), axis); without an axis x is
    flattened first."""
    op = 'ONNXCompress'

    def rewrite(self, node: Node, b: Builder):
        axis = onnx_attr(node, 'axis', 'i', None)
        x = node.in_port(0).get_source()
        if axis is None:
            x = b.op(Reshape, [x, i64(b, [-1], 'flat_shape')], 'flat', special_zero=False)
            axis = 0
        chosen = b.op(NonZero, [node.in_port(1)], 'non_zero', output_type=np.int64)
        chosen = b.op(Squeeze, [chosen, i64(b, [0], 'squeeze_axis')], 'indices')
        return b.op(Gather, [x, chosen, i64(b, axis, 'axis')], 'gather', batch_dims=0)


class EyeLikeLowering(OpRule):
    """EyeLike(x; dtype, k) = Eye(rows(x), columns(x), k) of ``dtype`` (x's type when absent)."""
    op = 'ONNXEyeLike'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        shape = b.op(ShapeOf, [x], 'shape', output_type=np.int64)
        dtype = onnx_attr(node, 'dtype', 'i', None)
        eye = b.op(Eye, [b.element(shape, 0, 'rows'), b.element(shape, 1, 'columns'),
                         i64(b, onnx_attr(node, 'k', 'i', 0), 'k')], 'eye',
                   output_type=np.float32 if dtype is None else np_dtype(dtype, 'EyeLike "{}"'.format(node_name(node))))
        return eye if dtype is not None else b.op(ConvertLike, [eye, x], 'like')


class CumSumLowering(OpRule):
    """CumSum(x, axis; exclusive, reverse) = CumSum-3(x, axis as a scalar)."""
    op = 'ONNXCumSum'

    def rewrite(self, node: Node, b: Builder):
        return b.op(CumSum, [node.in_port(0), scalar(b, node.in_port(1), 'axis')], 'cumsum',
                    exclusive=bool(onnx_attr(node, 'exclusive', 'i', 0)),
                    reverse=bool(onnx_attr(node, 'reverse', 'i', 0)))


def move_axis(b: Builder, x, axis_port, from_end: int, suffix: str):
    """``x`` transposed so that its axis ``axis_port`` (a run-time scalar, either sign) sits ``from_end`` places
    before the last one, the other axes keeping their order; returns it with the order that moves it back. With
    rank r, a = axis mod r and t = r - 1 - from_end, output position p takes axis a at t, else
    q + (q >= a) with q = p - (p > t); the inverse sends a to t and any other j to q + (q >= t), q = j - (j > a)."""
    shape = b.op(ShapeOf, [x], suffix + '/shape', output_type=np.int64)
    rank = b.op(Reshape, [b.op(ShapeOf, [shape], suffix + '/rank_1d', output_type=np.int64),
                          i64(b, [], suffix + '/scalar')], suffix + '/rank')
    axis = b.op(Convert, [scalar(b, axis_port, suffix + '/axis_scalar')], suffix + '/axis_i64', dst_type=np.int64)
    axis = b.op(FloorMod, [b.op(Add, [axis, rank], suffix + '/axis_plus_rank'), rank], suffix + '/axis')
    target = b.op(Sub, [rank, i64(b, 1 + from_end, suffix + '/from_end')], suffix + '/target')
    positions = b.op(Range, [i64(b, 0, suffix + '/zero'), rank, i64(b, 1, suffix + '/one')], suffix + '/positions',
                     output_type=np.int64)

    def beyond(values, pivot, tag):  # (values > pivot) as int64
        return b.op(Convert, [b.op(Greater, [values, pivot], tag + '/test')], tag, dst_type=np.int64)

    def step_over(values, pivot, tag):  # values + (values >= pivot)
        over = b.op(Convert, [b.op(GreaterEqual, [values, pivot], tag + '/test')], tag + '/over', dst_type=np.int64)
        return b.op(Add, [values, over], tag)
    rest = b.op(Sub, [positions, beyond(positions, target, suffix + '/after_target')], suffix + '/rest')
    order = b.op(Select, [b.op(Equal, [positions, target], suffix + '/at_target'), axis,
                          step_over(rest, axis, suffix + '/others')], suffix + '/order')
    kept = b.op(Sub, [positions, beyond(positions, axis, suffix + '/after_axis')], suffix + '/kept')
    back = b.op(Select, [b.op(Equal, [positions, axis], suffix + '/at_axis'), target,
                         step_over(kept, target, suffix + '/returning')], suffix + '/back_order')
    return b.op(Transpose, [x, order], suffix), back


class CumProdLowering(OpRule):
    """CumProd(x, axis; exclusive, reverse) = ReduceProd over j of Select(m[i, j], x[.., j, ..], 1) with an
    [n, n] mask m: j <= i (j < i exclusive; j >= i, j > i reversed). No opset op multiplies cumulatively; this
    is exact for every value (zeros and negatives included) at n^2 the memory. An axis known at run time only:
    the same along the last axis of x transposed to put that axis last (``move_axis``), transposed back."""
    op = 'ONNXCumProd'

    def rewrite(self, node: Node, b: Builder):
        exclusive, reverse = onnx_attr(node, 'exclusive', 'i', 0), onnx_attr(node, 'reverse', 'i', 0)
        x = node.in_port(0).get_source()
        axis = constant_input(node, 1)
        if axis is None:
            moved, back = move_axis(b, x, node.in_port(1), 0, 'moved')
            product = self._cumprod(b, moved.out_port(0), -1, exclusive, reverse)
            return b.op(Transpose, [product, back], 'cumprod_moved_back')
        if np.size(axis) != 1:
            raise Error('CumProd "{}": the axis must be a scalar', node_name(node))
        return self._cumprod(b, x, int(np.ravel(axis)[0]), exclusive, reverse)

    @staticmethod
    def _cumprod(b: Builder, x, axis: int, exclusive, reverse):
        shape = b.op(ShapeOf, [x], 'shape', output_type=np.int64)
        zero, one = i64(b, 0, 'zero'), i64(b, 1, 'one')
        numbers = b.op(Range, [zero, b.element(shape, axis, 'n'), one], 'numbers', output_type=np.int64)
        i = b.op(Unsqueeze, [numbers, i64(b, [1], 'i_axis')], 'i')
        compare = {(0, 0): LessEqual, (1, 0): Less, (0, 1): GreaterEqual}.get((exclusive, reverse))
        # reverse and exclusive: j > i, i.e. i < j
        mask = b.op(compare, [numbers, i], 'mask') if compare else b.op(Less, [i, numbers], 'mask')
        # the mask's two axes sit at the new axis and x's axis, so it needs as many trailing 1s as x has axes after
        if axis < 0:
            trailing = i64(b, [1] * (-axis - 1), 'trailing')
            new_axis, reduced = axis - 1, axis
        else:
            rank = b.op(ShapeOf, [shape], 'rank', output_type=np.int64)
            after = b.op(Sub, [rank, i64(b, [axis + 1], 'axis_plus_one')], 'after')
            trailing = b.op(Broadcast, [i64(b, [1], 'one_1d'), after], 'trailing', mode='numpy')
            new_axis, reduced = axis, axis + 1
        mask_shape = b.op(Concat, [b.op(ShapeOf, [mask], 'mask_dims', output_type=np.int64), trailing],
                          'mask_shape', axis=0)
        mask = b.op(Reshape, [mask, mask_shape], 'aligned_mask', special_zero=False)
        spread = b.op(Unsqueeze, [x, i64(b, [new_axis], 'new_axis')], 'spread')
        masked = b.op(Select, [mask, spread, b.op(ConvertLike, [one, x], 'one_like')], 'masked')
        return b.op(ReduceProd, [masked, i64(b, [reduced], 'reduced_axis')], 'cumprod', keep_dims=False)
