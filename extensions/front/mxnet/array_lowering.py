"""MXNet's broadcasting, tiling, stacking, splitting and gathering ops from opset ops."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.formulas import axes_range, concat, dims, ints, rank, shape_of, shape_slice
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Equal, FloorMod, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.split import Split
from mo.ops.squeeze import Squeeze
from mo.ops.tile import Tile
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


class BroadcastToLowering(OpRule):
    """broadcast_to(x, shape) = Broadcast(x, shape) bidirectionally, a 0 in shape (keep x's dim) as 1."""
    op = 'MXbroadcast_to'

    def rewrite(self, node: Node, b: Builder):
        shape = [d if d else 1 for d in mxnet_attr(node).tuple('shape')]
        return b.op(Broadcast, [node.in_port(0), ints(b, shape, 'shape')], 'broadcast', mode='bidirectional')


class BroadcastAxisLowering(OpRule):
    """broadcast_axis(x, axis, size) = Broadcast(x, 1s with size at each axis) bidirectionally (x's dims there
    are 1)."""
    op = 'MXbroadcast_axis'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        axes, sizes = attr.tuple('axis'), attr.tuple('size')
        every = axes_range(b, 0, rank(b, x, 'rank'), 'every')
        target = b.op(Broadcast, [ints(b, 1, 'one'), shape_of(b, every, 'count')], 'ones')
        for i, (axis, size) in enumerate(zip(axes, sizes)):
            # axis counted from the end when negative: compare with every - rank as well
            here = b.op(Equal, [every, ints(b, axis, 'axis_{}'.format(i))], 'at_{}'.format(i))
            if axis < 0:
                back = b.op(Sub, [every, rank(b, x, 'rank_{}'.format(i))], 'from_end_{}'.format(i))
                here = b.op(Equal, [back, ints(b, axis, 'neg_axis_{}'.format(i))], 'at_{}'.format(i) + '_neg')
            target = b.op(Select, [here, ints(b, size, 'size_{}'.format(i)), target], 'target_{}'.format(i))
        return b.op(Broadcast, [x, target], 'broadcast', mode='bidirectional')


class BroadcastLikeLowering(OpRule):
    """broadcast_like(x, like) = Broadcast(x, ShapeOf(like)) bidirectionally."""
    op = 'MXbroadcast_like'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        if attr.tuple('lhs_axes', None) or attr.tuple('rhs_axes', None):
            raise Error('broadcast_like "{}": lhs_axes/rhs_axes are not converted', b.name)
        return b.op(Broadcast, [node.in_port(0), shape_of(b, node.in_port(1), 'shape')], 'broadcast',
                    mode='bidirectional')


class TileLowering(OpRule):
    """tile(x, reps) = Tile(x, reps)."""
    op = 'MXtile'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Tile, [node.in_port(0), ints(b, list(mxnet_attr(node).tuple('reps')), 'reps')], 'tile')


class RepeatLowering(OpRule):
    """repeat(x, repeats, axis) = each element repeated along axis: Unsqueeze after axis, Broadcast the new axis to
    repeats, merge the two axes by Reshape; no axis: of x flattened."""
    op = 'MXrepeat'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        repeats, axis = attr.int('repeats'), attr.int('axis', None)
        if axis is None:
            x, axis = b.op(Reshape, [x, ints(b, [-1], 'flat_shape')], 'flat'), 0
        after = axis + 1 if axis >= 0 else axis
        stop = axis + 1 if axis != -1 else None
        head = shape_slice(b, x, 0, stop, 'head')  # dims up to and with axis
        tail = shape_slice(b, x, axis + 1, None, 'tail') if axis != -1 else None
        expanded = b.op(Unsqueeze, [x, ints(b, [after], 'new_axis')], 'expanded')
        parts = [head, ints(b, [repeats], 'repeats')] + ([tail] if tail is not None else [])
        repeated = b.op(Broadcast, [expanded, concat(b, parts, 'target')], 'repeated')
        before = shape_slice(b, x, 0, axis if axis != 0 else 0, 'before') if axis != 0 else None
        merged = b.op(Mul, [dims(b, x, [axis], 'size'), ints(b, [repeats], 'times')], 'merged')
        shape = ([before] if before is not None else []) + [merged] + ([tail] if tail is not None else [])
        return b.op(Reshape, [repeated, concat(b, shape, 'shape')], 'reshape')


class StackLowering(OpRule):
    """stack(a, b, ..., axis) = Concat of each input unsqueezed at axis."""
    op = 'MXstack'

    def rewrite(self, node: Node, b: Builder):
        axis = mxnet_attr(node).int('axis', 0)
        ports = [node.in_port(i) for i in sorted(node.in_ports()) if node.is_in_port_connected(i)]
        parts = [b.op(Unsqueeze, [p, ints(b, [axis], 'axis_{}'.format(i))], 'expanded_{}'.format(i))
                 for i, p in enumerate(ports)]
        return b.op(Concat, parts, 'concat', axis=axis, in_ports_count=len(parts))


class SliceChannelLowering(OpRule):
    """SliceChannel/split(x, num_outputs, axis, squeeze_axis) = Split into num_outputs along axis, each output
    squeezed there with squeeze_axis."""
    op = 'MXSliceChannel'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        count, axis = attr.int('num_outputs'), attr.int('axis', 1)
        split = b.op(Split, [node.in_port(0), ints(b, axis, 'axis')], 'split', num_splits=count)
        if not attr.bool('squeeze_axis', False):
            return [split.out_port(i) for i in range(count)]
        b.inherit_name(split)
        return [b.op(Squeeze, [split.out_port(i), ints(b, [axis], 'axis_{}'.format(i))], 'squeeze_{}'.format(i))
                for i in range(count)]


class TakeLowering(OpRule):
    """take(a, indices, axis, mode) = Gather(a, indices, axis), indices clipped into range (mode clip, the default)
    or wrapped (wrap)."""
    op = 'MXtake'

    def rewrite(self, node: Node, b: Builder):
        attr, data = mxnet_attr(node), node.in_port(0)
        axis, mode = attr.int('axis', 0), attr.str('mode', 'clip')
        indices = b.op(Convert, [node.in_port(1)], 'indices', dst_type=np.dtype(np.int64))
        size = dims(b, data, [axis], 'size')
        if mode == 'wrap':
            indices = b.op(FloorMod, [indices, size], 'wrapped')
        elif mode == 'clip':
            last = b.op(Sub, [size, ints(b, 1, 'one')], 'last')
            indices = b.op(Minimum, [b.op(Maximum, [indices, ints(b, 0, 'zero')], 'low'), last], 'clipped')
        else:
            raise Error('take "{}": mode "{}" is not converted (clip, wrap)', b.name, mode)
        return b.op(Gather, [data, indices, ints(b, axis, 'axis')], 'gather')


class EmbeddingLowering(OpRule):
    """Embedding(data, weight) = Gather(weight, data as integers, 0)."""
    op = 'MXEmbedding'

    def rewrite(self, node: Node, b: Builder):
        indices = b.op(Convert, [node.in_port(0)], 'indices', dst_type=np.dtype(np.int64))
        return b.op(Gather, [node.in_port(1), indices, ints(b, 0, 'axis')], 'gather')
