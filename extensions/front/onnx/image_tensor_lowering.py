"""Col2Im, CenterCropPad and STFT built from opset ops (the internal ``ONNX*`` ops ``image_tensor_ext``
leaves). Their sizes (image and block shapes, crop shape, frame step and length) may be run-time tensors, so
every size here is computed in the graph; with constant inputs it all folds after inference.
"""
from extensions.front.onnx.math_lowering import DIM_NAMES, static_shape
from mo.front.common.formula_kit import I64
from extensions.ops.col2im import Col2Im
from extensions.ops.opset_tensor import ScatterElementsUpdate
from mo.front.common.rule import Builder, OpRule
from mo.ops.convert import ConvertLike
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, FloorMod, Maximum, Minimum, Mul, Sub
from mo.ops.fft import DFT
from mo.ops.gather import Gather
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.transpose import Transpose
from mo.utils.error import Error


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _element(b: Builder, vector, index: int, tag: str):
    """``vector[index:index + 1]`` (a 1-element vector)."""
    return b.op(Gather, [vector, b.const([index], tag + '/index', I64), b.const(0, tag + '/axis', I64)], tag)


def _concat(b: Builder, parts, tag: str):
    return b.op(Concat, parts, tag, axis=0, in_ports_count=len(parts))


def _slice(b: Builder, x, begin, end, axes, tag: str):
    """``x[begin:end]`` along ``axes`` (begin/end tensors or lists, one per axis; axes a tensor or list)."""
    def tensor(value, suffix):
        return b.const(value, tag + '/' + suffix, I64) if isinstance(value, list) else value
    count = len(axes) if isinstance(axes, list) else None
    step = b.const([1] * count, tag + '/step', I64) if count is not None else \
        b.op(Broadcast, [b.const(1, tag + '/one', I64), b.op(ShapeOf, [tensor(begin, 'begin')], tag + '/count',
                                                             output_type=I64)], tag + '/step')
    return b.op(Slice, [x, tensor(begin, 'begin'), tensor(end, 'end'), step, tensor(axes, 'axes')], tag)


class ONNXCol2ImLowering(OpRule):
    """Col2Im(input [N, C * prod(block), L], image_shape, block_shape): the blocks summed back into an image
    [N, C, *image_shape]. Two spatial dimensions are the opset's Col2Im; more are separable (a cell's sum over
    the blocks and block offsets that reach it factors per dimension), so they are one Col2Im per dimension,
    each on a [batch, block_d, blocks_d] view with the other dimensions in the batch and a second spatial
    dimension of size 1."""
    op = 'ONNXCol2Im'

    def _spatial_rank(self, node: Node) -> int:
        for attr, per_axis in (('strides', 1), ('dilations', 1), ('pads', 2)):
            if node[attr] is not None:
                return len(node[attr]) // per_axis
        for port in (1, 2):
            shape = static_shape(node.in_port(port))
            if shape is not None and len(shape) == 1 and shape[0] >= 0:
                return shape[0]
        raise Error('Col2Im "{}": the number of spatial dimensions is unknown (no strides, dilations or pads, and '
                    'image_shape has no static length)', _name(node))

    def rewrite(self, node: Node, b: Builder):
        n = self._spatial_rank(node)
        strides = node.strides or [1] * n
        dilations = node.dilations or [1] * n
        pads = node.pads or [0] * (2 * n)
        if n < 2 or len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
            raise Error('Col2Im "{}": strides {}, dilations {} and pads {} do not fit {} spatial dimensions '
                        '(at least 2)', _name(node), strides, dilations, pads, n)
        if min(strides + dilations) < 1 or min(pads) < 0:
            raise Error('Col2Im "{}": strides {} and dilations {} must be positive, pads {} not negative',
                        _name(node), strides, dilations, pads)
        image = b.cast(node.in_port(1), I64, 'image_shape')
        block = b.cast(node.in_port(2), I64, 'block_shape')
        x = node.in_port(0)
        if n == 2:
            return b.op(Col2Im, [x, image, block], 'col2im', strides=strides, dilations=dilations,
                        pads_begin=pads[:2], pads_end=pads[2:])
        # blocks per dimension: (image + pads - dilation * (block - 1) - 1) // stride + 1
        span = b.op(Mul, [b.op(Sub, [block, b.const(1, 'one', I64)], 'block_minus_1'),
                          b.const(dilations, 'dilations', I64)], 'span')
        room = b.op(Sub, [b.op(Add, [image, b.const([p + q for p, q in zip(pads[:n], pads[n:])], 'pads', I64)],
                               'padded'), span], 'room')
        blocks = b.op(Add, [b.op(Div, [b.op(Sub, [room, b.const(1, 'one_cell', I64)], 'last_start'),
                                       b.const(strides, 'strides', I64)], 'steps'), b.const(1, 'first', I64)], 'blocks')
        shape = b.op(ShapeOf, [x], 'shape', output_type=I64)
        batch = _element(b, shape, 0, 'batch')
        # the channels are what remains (-1): not rows / ReduceProd(block), which OpenVINO's CPU plugin (2026.4)
        # computes as 0 for rows 10, block [1, 1, 5] when the ReduceProd feeds nothing else
        channels = b.const([-1], 'channels', I64)
        tensor = b.op(Reshape, [x, _concat(b, [batch, channels, block, blocks], 'split_shape')], 'split')
        labels = ['N', 'C'] + ['K%d' % d for d in range(n)] + ['L%d' % d for d in range(n)]
        for d in range(n):
            tag = 'dim%d' % d
            rest = [label for label in labels if label not in ('K%d' % d, 'L%d' % d)]
            order = [labels.index(label) for label in rest + ['K%d' % d, 'L%d' % d]]
            moved = b.op(Transpose, [tensor, b.const(order, tag + '/order', I64)], tag + '/moved')
            rest_shape = _slice(b, b.op(ShapeOf, [moved], tag + '/shape', output_type=I64), [0], [-2], [0],
                                tag + '/rest_shape')
            size, kernel = _element(b, image, d, tag + '/size'), _element(b, block, d, tag + '/kernel')
            flat = b.op(Reshape, [moved, _concat(b, [b.const([-1], tag + '/all', I64), kernel,
                                                     _element(b, blocks, d, tag + '/blocks')], tag + '/flat_shape')],
                        tag + '/flat')
            one = b.const([1], tag + '/unit', I64)
            summed = b.op(Col2Im, [flat, _concat(b, [size, one], tag + '/out_size'),
                                   _concat(b, [kernel, one], tag + '/kernel_size')], tag + '/col2im',
                          strides=[strides[d], 1], dilations=[dilations[d], 1], pads_begin=[pads[d], 0],
                          pads_end=[pads[n + d], 0])
            tensor = b.op(Reshape, [summed, _concat(b, [rest_shape, size], tag + '/image_shape')], tag + '/image')
            labels = rest + ['P%d' % d]
        return tensor  # labels are now N, C, P0, ..., P(n-1)


class ONNXCenterCropPadLowering(OpRule):
    """CenterCropPad(x, shape) along axes: Slice(x, begin, begin + min(dim, shape)) with begin =
    max(dim - shape, 0) // 2, then Pad with max(shape - dim, 0) split as (half rounded down, the rest)."""
    op = 'ONNXCenterCropPad'

    @staticmethod
    def _check_axes(node: Node, shape):
        """An Error for axes out of the input's rank (when the model states it) or naming an axis twice."""
        if shape is not None and any(not -len(shape) <= a < len(shape) for a in node.axes):
            raise Error('CenterCropPad "{}": axes {} do not fit a rank-{} input', _name(node), node.axes, len(shape))
        if len({a % len(shape) if shape else a for a in node.axes}) != len(node.axes):
            raise Error('CenterCropPad "{}": axes {} repeat an axis', _name(node), node.axes)

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        target = b.cast(node.in_port(1), I64, 'target')
        shape = b.op(ShapeOf, [x], 'shape', output_type=I64)
        if node.axes is None:
            axes = None
            dims = shape
        else:
            self._check_axes(node, static_shape(x))
            axes_const = b.const(node.axes, 'axes', I64)
            rank = b.op(ShapeOf, [shape], 'rank', output_type=I64)
            axes = b.op(FloorMod, [axes_const, rank], 'axes_positive')  # negative axes count from the back
            dims = b.op(Gather, [shape, axes, b.const(0, 'dims_axis', I64)], 'dims')
        zero = b.const(0, 'zero', I64)
        two = b.const(2, 'two', I64)
        excess = b.op(Maximum, [b.op(Sub, [dims, target], 'dims_minus_target'), zero], 'excess')
        begin = b.op(Div, [excess, two], 'crop_begin')
        end = b.op(Add, [begin, b.op(Minimum, [dims, target], 'kept')], 'crop_end')
        if axes is None:  # every axis, as many as the shape input has values
            count = b.op(Gather, [b.op(ShapeOf, [target], 'count_vec', output_type=I64), zero, zero], 'count')
            slice_axes = b.op(Range, [zero, count, b.const(1, 'step', I64)], 'all_axes', output_type=I64)
        else:
            slice_axes = axes
        cropped = _slice(b, x, begin, end, slice_axes, 'crop')
        missing = b.op(Maximum, [b.op(Sub, [target, dims], 'target_minus_dims'), zero], 'missing')
        before = b.op(Div, [missing, two], 'pad_begin')
        after = b.op(Sub, [missing, before], 'pad_end')
        if axes is not None:  # pads for every axis: zeros but at the axes cropped
            zeros = b.op(Broadcast, [zero, rank], 'no_pads')
            before, after = (b.op(ScatterElementsUpdate, [zeros, axes, pads, b.const(0, tag + '_axis', I64)],
                                  tag + '_all') for pads, tag in ((before, 'pad_begin'), (after, 'pad_end')))
        return b.op(Pad, [cropped, before, after], 'pad', pad_mode='constant')


class ONNXSTFTLowering(OpRule):
    """STFT(signal [batch, length, 1 or 2], frame_step, window, frame_length): frames f * step + [0, frame_length)
    gathered along the signal ([batch, frames, frame_length, 1 or 2]), times the window, made complex and
    transformed by DFT along the frame axis; onesided keeps the first frame_length // 2 + 1 bins. Frame length:
    frame_length, else the window's length, else the signal's; frames = (length - frame_length) // step + 1."""
    op = 'ONNXSTFT'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        step = b.cast(node.in_port(1), I64, 'step')
        length = b.dim_of(x, 1, 'signal_length', const_names=DIM_NAMES)
        if node.is_in_port_connected(3):
            frame = b.op(Reshape, [b.cast(node.in_port(3), I64, 'frame_length_i64'), b.const([], 'scalar', I64)],
                         'frame_length')
        elif node.is_in_port_connected(2):
            frame = b.dim_of(node.in_port(2), 0, 'frame_length', const_names=DIM_NAMES)
        else:
            frame = length
        frames = b.op(Add, [b.op(Div, [b.op(Sub, [length, frame], 'room'), step], 'steps'),
                            b.const(1, 'one', I64)], 'frames')
        zero, one = b.const(0, 'zero', I64), b.const(1, 'unit', I64)
        starts = b.op(Mul, [b.unsqueeze(b.op(Range, [zero, frames, one], 'frame_index', output_type=I64), [1],
                                      'frame_column'), step], 'starts')
        offsets = b.unsqueeze(b.op(Range, [zero, frame, one], 'offset', output_type=I64), [0], 'offset_row')
        indices = b.op(Add, [starts, offsets], 'indices')
        framed = b.op(Gather, [x, indices, b.const(1, 'time_axis', I64)], 'framed')
        if node.is_in_port_connected(2):
            framed = b.op(Mul, [framed, b.unsqueeze(node.in_port(2), [1], 'window_column')], 'windowed')
        # complex = framed[..., [0, last]] * [1, last], last = parts - 1: [re, im] for complex, [re, 0] for real
        last = b.op(Sub, [b.dim_of(x, -1, 'parts', const_names=DIM_NAMES), one], 'last')
        pick = b.op(Mul, [b.const([0, 1], 'which', I64), last], 'pick')
        pair = b.op(Gather, [framed, pick, b.const(-1, 'part_axis', I64)], 'pair')
        factor = b.op(Add, [b.const([1, 0], 'real_factor', I64), pick], 'factor')
        signal = b.op(Mul, [pair, b.op(ConvertLike, [factor, x], 'factor_typed')], 'complex')
        spectrum = b.op(DFT, [signal, b.const([2], 'dft_axes', I64)], 'dft')
        if not node.onesided:
            return spectrum
        bins = b.op(Add, [b.op(Div, [frame, b.const(2, 'two', I64)], 'half'), one], 'bins')
        return _slice(b, spectrum, [0], b.unsqueeze(bins, [0], 'bins_vec'), [2], 'onesided')
