"""MXNet's shape, slicing and layout ops from opset ops (the ``MX*`` ops ``tensor_ext`` leaves)."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.formulas import BIG, axes_range, concat, dims, ints, rank, shape_of, shape_slice
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.elementwise import Add, Div, Equal, Mul, Sub
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


def reshape_pieces(b: Builder, x, spec, reverse: bool, name: str):
    """The pieces (1-D int64 tensors) of the shape MXNet's Reshape codes ``spec`` give ``x``: 0 copies a dim, -1
    is inferred, -2 copies the rest, -3 multiplies two dims, -4 a b splits one (a or b -1); each code but -2
    and -4's pair takes one input dim. ``reverse`` matches the codes to the dims from the right."""
    pieces, src, j = [], 0, 0
    codes = list(spec)
    if reverse:
        if -4 in codes:
            raise Error('Reshape "{}": reverse with -4 is not converted', name)
        codes.reverse()

    def dim(k, tag):
        if k is None:  # after -2 no input dim is left (MXNet allows only literal sizes and -1 there)
            raise Error('Reshape "{}": code {} after -2 in {} has no input dim to read', name, code, tuple(spec))
        return dims(b, x, [-(k + 1) if reverse else k], tag)

    while j < len(codes):
        code, tag = codes[j], 'piece_{}'.format(j)
        if code > 0 or code == -1:
            pieces.append(ints(b, [code], tag))
            src = None if src is None else src + 1
        elif code == 0:
            pieces.append(dim(src, tag))
            src += 1
        elif code == -2:
            if src is None:
                raise Error('Reshape "{}": -2 twice in {}', name, tuple(spec))
            pieces.append(shape_slice(b, x, 0, -src if src else None, tag) if reverse else
                          shape_slice(b, x, src, None, tag))
            src = None  # every dim is taken
        elif code == -3:
            first_dim = dim(src, tag + '/a')  # an Error when -2 came before
            pieces.append(b.op(Mul, [first_dim, dim(src + 1, tag + '/b')], tag))
            src += 2
        elif code == -4:
            if j + 2 >= len(codes):
                raise Error('Reshape "{}": -4 in {} is not followed by two dims', name, tuple(spec))
            first, second = codes[j + 1], codes[j + 2]
            whole = dim(src, tag + '/whole')
            if first == -1:
                pieces += [b.op(Div, [whole, ints(b, [second], tag + '/second')], tag), ints(b, [second], tag + '/b')]
            elif second == -1:
                pieces += [ints(b, [first], tag + '/a'), b.op(Div, [whole, ints(b, [first], tag + '/first')], tag)]
            else:
                pieces += [ints(b, [first], tag + '/a'), ints(b, [second], tag + '/b')]
            src += 1
            j += 2
        else:
            raise Error('Reshape "{}": code {} in {} is not one of MXNet\'s', name, code, tuple(spec))
        j += 1
    if reverse:
        pieces.reverse()
    return pieces


class ReshapeLowering(OpRule):
    """Reshape(x, shape, reverse) = Reshape(x, the shape MXNet's codes 0/-1/-2/-3/-4 give x's shape)."""
    op = 'MXReshape'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        spec = attr.tuple('shape', None) or attr.tuple('target_shape', None)
        if not spec:
            raise Error('Reshape "{}" gives no shape', b.name)
        if all(code > 0 or code == -1 for code in spec):
            return b.op(Reshape, [x, ints(b, list(spec), 'shape')], 'reshape')
        pieces = reshape_pieces(b, x, spec, attr.bool('reverse', False), b.name)
        return b.op(Reshape, [x, concat(b, pieces, 'shape')], 'reshape')


class ReshapeLikeLowering(OpRule):
    """reshape_like(x, like) = Reshape(x, ShapeOf(like))."""
    op = 'MXreshape_like'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        if any(attr.raw.get(k, 'None') != 'None' for k in ('lhs_begin', 'lhs_end', 'rhs_begin', 'rhs_end')):
            raise Error('reshape_like "{}": lhs/rhs ranges are not converted', b.name)
        return b.op(Reshape, [node.in_port(0), shape_of(b, node.in_port(1), 'like_shape')], 'reshape')


class TransposeLowering(OpRule):
    """transpose(x, axes) = Transpose(x, axes); no axes reverses them."""
    op = 'MXtranspose'

    def rewrite(self, node: Node, b: Builder):
        axes = mxnet_attr(node).tuple('axes', ())
        x = node.in_port(0)
        if not axes:
            last = b.op(Sub, [rank(b, x, 'rank'), ints(b, 1, 'one')], 'last')
            order = b.op(Range, [last, ints(b, -1, 'stop'), ints(b, -1, 'step')], 'order', output_type=np.int64)
            return b.op(Transpose, [x, order], 'transpose')
        return b.op(Transpose, [x, ints(b, list(axes), 'order')], 'transpose')


class SwapAxisLowering(OpRule):
    """SwapAxis(x, dim1, dim2) = Transpose(x, the axes with dim1 and dim2 exchanged)."""
    op = 'MXSwapAxis'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        first, second = attr.int('dim1', 0), attr.int('dim2', 0)
        order = axes_range(b, 0, rank(b, x, 'rank'), 'axes')
        # every axis equal to dim1 becomes dim2 and the other way round
        swap = b.op(Select, [b.op(Equal, [order, ints(b, first, 'dim1')], 'is1'), ints(b, second, 'to2'), order],
                    'swap1')
        swap = b.op(Select, [b.op(Equal, [order, ints(b, second, 'dim2')], 'is2'), ints(b, first, 'to1'), swap],
                    'order')
        return b.op(Transpose, [x, swap], 'transpose')


def _bounds(begin, end, step):
    """Slice start and stop of one axis with MXNet's None bounds: the whole axis in the step's direction."""
    if begin is None:
        begin = 0 if step > 0 else BIG
    if end is None:
        end = BIG if step > 0 else -BIG - 1
    return begin, end


def slice_axes(b: Builder, x, axes, begins, ends, steps, suffix='slice'):
    starts, stops = zip(*[_bounds(s, e, t) for s, e, t in zip(begins, ends, steps)])
    return b.op(Slice, [x, ints(b, list(starts), suffix + '/start'), ints(b, list(stops), suffix + '/stop'),
                        ints(b, list(steps), suffix + '/step'), ints(b, list(axes), suffix + '/axes')], suffix)


class SliceLowering(OpRule):
    """slice(x, begin, end, step) = Slice over the first len(begin) axes; a None bound is the axis' end in the
    step's direction (None step: 1)."""
    op = 'MXslice'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        begin, end = attr.tuple('begin'), attr.tuple('end')
        step = attr.tuple('step', ()) or ()
        steps = [(step[i] if i < len(step) and step[i] is not None else 1) for i in range(len(begin))]
        if 0 in steps:
            raise Error('slice "{}": a step of 0', b.name)
        return slice_axes(b, node.in_port(0), range(len(begin)), begin, end, steps)


class SliceAxisLowering(OpRule):
    """slice_axis(x, axis, begin, end) = Slice of axis from begin to end (None: the end)."""
    op = 'MXslice_axis'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        return slice_axes(b, node.in_port(0), [attr.int('axis')], [attr.int('begin')], [attr.int('end', None)], [1])


class SliceLikeLowering(OpRule):
    """slice_like(x, like, axes) = Slice(x, 0, ShapeOf(like)[axes]) over axes (none given: every axis of like)."""
    op = 'MXslice_like'

    def rewrite(self, node: Node, b: Builder):
        axes = mxnet_attr(node).tuple('axes', ()) or ()
        x, like = node.in_port(0), node.in_port(1)
        if axes:
            stops = dims(b, like, list(axes), 'stop')
            axes_node = ints(b, list(axes), 'axes')
            zeros, ones = ints(b, [0] * len(axes), 'start'), ints(b, [1] * len(axes), 'step')
        else:
            stops = shape_of(b, like, 'stop')
            count = shape_of(b, stops, 'count')
            axes_node = axes_range(b, 0, rank(b, like, 'rank'), 'axes')
            zeros = b.op(Broadcast, [ints(b, 0, 'zero'), count], 'start')
            ones = b.op(Broadcast, [ints(b, 1, 'one'), count], 'step')
        return b.op(Slice, [x, zeros, stops, ones, axes_node], 'slice')


class CropLowering(OpRule):
    """Crop(x[, like], offset, h_w, center_crop) = Slice of axes 2, 3 to h_w (or like's size) from offset (or the
    centre)."""
    op = 'MXCrop'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        if attr.bool('center_crop', False):
            raise Error('Crop "{}": center_crop is not converted', b.name)
        offset = attr.tuple('offset', (0, 0)) or (0, 0)
        start = ints(b, list(offset), 'start')
        if node.is_in_port_connected(1):
            stop = b.op(Add, [dims(b, node.in_port(1), [2, 3], 'size'), start], 'stop')
        else:
            h_w = attr.tuple('h_w')
            stop = ints(b, [offset[0] + h_w[0], offset[1] + h_w[1]], 'stop')
        return b.op(Slice, [x, start, stop, ints(b, [1, 1], 'step'), ints(b, [2, 3], 'axes')], 'slice')


class ExpandDimsLowering(OpRule):
    """expand_dims(x, axis) = Unsqueeze(x, axis)."""
    op = 'MXexpand_dims'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Unsqueeze, [node.in_port(0), ints(b, [mxnet_attr(node).int('axis')], 'axis')], 'unsqueeze')


class SqueezeLowering(OpRule):
    """squeeze(x, axis) = Squeeze(x, axis) (no axis: every axis of size 1)."""
    op = 'MXsqueeze'

    def rewrite(self, node: Node, b: Builder):
        axes = mxnet_attr(node).tuple('axis', None)
        if not axes:
            return b.op(Squeeze, [node.in_port(0)], 'squeeze')
        return b.op(Squeeze, [node.in_port(0), ints(b, list(axes), 'axes')], 'squeeze')


class ReverseLowering(OpRule):
    """reverse(x, axis) = Slice(x) with step -1 along each axis."""
    op = 'MXreverse'

    def rewrite(self, node: Node, b: Builder):
        axes = list(mxnet_attr(node).tuple('axis'))
        count = len(axes)
        return slice_axes(b, node.in_port(0), axes, [None] * count, [None] * count, [-1] * count, 'reverse')
