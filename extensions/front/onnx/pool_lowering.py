"""ONNX's MaxPool, dilated AveragePool, LpPool and the global pools as opset ops (the internal ops ``pool_ext.py``
extracts)."""
import numpy as np

from mo.front.common.nn_formulas import I64, like, shape_tail, spatial_axes
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.broadcast import Broadcast
from mo.ops.convolution import Convolution, GroupConvolution
from mo.ops.elementwise import Add, Div, FloorMod, GreaterEqual, Mul, Pow, Sub
from mo.ops.convert import Convert
from mo.ops.gather import Gather
from mo.ops.image_ops import MaxPoolWithIndices
from mo.ops.pad import Pad
from mo.ops.pooling import AvgPool
from mo.ops.reduce import ReduceMax, ReduceMean, ReduceSum
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.utils.error import Error

_WINDOW = ('strides', 'dilations', 'pads_begin', 'pads_end', 'auto_pad', 'layout')


def _window(node: Node) -> dict:
    return {attr: node[attr] for attr in _WINDOW if node.has_valid(attr)}


class ONNXMaxPoolLowering(OpRule):
    """MaxPool = MaxPool-8 (MaxPool-14 for ceil_mode) with axis 0: the indices count over the whole tensor, as
    ONNX's; storage_order 1 (2-D only) turns each image's row-major index (h * W + w) into column-major
    (w * H + h)."""
    op = 'ONNXMaxPool'

    def rewrite(self, node: Node, b: Builder):
        version = 'opset14' if node.rounding_type == 'ceil_torch' else 'opset8'
        attrs = dict({'strides': np.ones(len(node.kernel), I64)}, **_window(node))  # MaxPool-8 states them
        pool = b.op(MaxPoolWithIndices, [node.in_port(0)], 'pool', kernel=node.kernel, axis=0,
                    rounding_type=node.rounding_type, index_element_type='i64', version=version, **attrs)
        indices = pool.out_port(1)
        if node.storage_order and node.is_out_port_connected(1):
            if len(node.kernel) != 2:
                raise Error('MaxPool "{}": storage_order 1 is supported for 2-D images only', b.name)
            shape = b.op(ShapeOf, [node.in_port(0)], 'shape')
            height, width = b.element(shape, 2, 'height'), b.element(shape, 3, 'width')
            in_image = b.op(FloorMod, [indices, b.op(Mul, [height, width], 'image_size')], 'in_image')
            row = b.op(Div, [in_image, width], 'row')
            column = b.op(Sub, [in_image, b.op(Mul, [row, width], 'row_start')], 'column')
            image_start = b.op(Sub, [indices, in_image], 'image_start')
            column_major = b.op(Add, [b.op(Mul, [column, height], 'column_start'), row], 'column_major')
            indices = b.op(Add, [image_start, column_major], 'indices')
        return [pool.out_port(0), indices]


def _window_sum(b: Builder, node: Node, x, tag: str, window=None):
    """The sum of ``x`` over each window (dilations and pads as the node's, or ``window``): a GroupConvolution with
    a kernel of ones per channel."""
    kernel = [int(k) for k in node.kernel]
    channels = shape_tail(b, x, 1, tag + '/channels_on')
    channels = b.op(Gather, [channels, b.const([0], tag + '/channel_index', I64), b.const(0, tag + '/axis', I64)],
                    tag + '/channels')
    w_shape = b.concat([channels, b.const([1, 1] + kernel, tag + '/kernel', I64)], tag + '/weights_shape')
    ones = b.op(Broadcast, [like(b, 1.0, x, tag + '/one'), w_shape], tag + '/weights')
    return b.op(GroupConvolution, [x, ones], tag, **(window or _window(node)))


class ONNXDilatedAvgPoolLowering(OpRule):
    """AveragePool with dilations (opset 19) = window sums of x (a GroupConvolution of ones) divided by the kernel's
    size (count_include_pad) or by the number of real pixels in each window (a Convolution of ones over an image
    of ones)."""
    op = 'ONNXDilatedAvgPool'

    def rewrite(self, node: Node, b: Builder):
        if node.rounding_type != 'floor' and node.auto_pad == 'explicit':
            return self._ceil(node, b)
        total = _window_sum(b, node, node.in_port(0), 'sum')
        if node.count_include_pad:
            return b.op(Div, [total, like(b, float(np.prod(node.kernel)), total, 'kernel_size')], 'average')
        image_shape = b.concat([b.const([1, 1], 'image_batch_channel', I64),
                                 shape_tail(b, node.in_port(0), 2, 'image_spatial')], 'image_shape')
        image = b.op(Broadcast, [like(b, 1.0, total, 'image_one'), image_shape], 'ones_image')
        ones = like(b, np.ones([1, 1] + [int(k) for k in node.kernel]), total, 'count_kernel')
        count = b.op(Convolution, [image, ones], 'count', **_window(node))
        return b.op(Div, [total, count], 'average')


    @staticmethod
    def _ceil(node: Node, b: Builder):
        """ceil_mode with explicit pads: sums and counts over the input padded explicitly (with ones for the
        count when count_include_pad), with room for the last, partial window, cut to ONNX's output size."""
        x = node.in_port(0)
        kernel, dilations = [int(k) for k in node.kernel], [int(d) for d in node.dilations]
        strides = [int(v) for v in node.strides] if node.has_valid('strides') else [1] * len(kernel)
        begin = [int(v) for v in node.pads_begin] if node.has_valid('pads_begin') else [0] * len(kernel)
        end = [int(v) for v in node.pads_end] if node.has_valid('pads_end') else [0] * len(kernel)
        extra = [(k - 1) * d for k, d in zip(kernel, dilations)]  # a window starting at the last padded pixel

        def pad(tensor, after, value, tag, before=begin):
            return b.op(Pad, [tensor, b.const(np.array([0, 0] + before, I64), tag + '/begin'),
                              b.const(np.array([0, 0] + after, I64), tag + '/end'), like(b, value, x, tag + '/value')],
                        tag, pad_mode='constant')
        no_pads = dict(_window(node), auto_pad='explicit', pads_begin=np.zeros(len(kernel), I64),
                       pads_end=np.zeros(len(kernel), I64))
        total = _window_sum(b, node, pad(x, [e + x_ for e, x_ in zip(end, extra)], 0.0, 'padded'), 'sum',
                            window=no_pads)
        image_shape = b.concat([b.const([1, 1], 'image_batch_channel', I64), shape_tail(b, x, 2, 'image_spatial')],
                             'image_shape')
        image = b.op(Broadcast, [like(b, 1.0, x, 'image_one'), image_shape], 'ones_image')
        if node.count_include_pad:  # the pads count, the room past them does not
            image = pad(pad(image, end, 1.0, 'ones_padded'), extra, 0.0, 'ones_room', before=[0] * len(kernel))
        else:
            image = pad(image, [e + x_ for e, x_ in zip(end, extra)], 0.0, 'ones_room')
        ones = like(b, np.ones([1, 1] + kernel), x, 'count_kernel')
        count = b.op(Convolution, [image, ones], 'count', **no_pads)
        average = b.op(Div, [total, count], 'average_room')
        # ONNX's output size: ceil((in + pads - eff) / stride) + 1, less one where that window starts in the end pads
        spatial = shape_tail(b, x, 2, 'in_spatial')
        eff = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
        span = b.op(Add, [spatial, b.const(np.array([p + q - e + s - 1 for p, q, e, s in
                                                     zip(begin, end, eff, strides)], I64), 'span_offset')], 'span')
        stride = b.const(np.array(strides, I64), 'stride')
        out = b.op(Add, [b.op(Div, [span, stride], 'windows'), b.const(np.ones(len(kernel), I64), 'one')], 'out')
        last_start = b.op(Mul, [b.op(Sub, [out, b.const(np.ones(len(kernel), I64), 'one_')], 'last'), stride],
                          'last_start')
        starts_in_pad = b.op(GreaterEqual, [last_start, b.op(Add, [spatial, b.const(np.array(begin, I64), 'pb')],
                                                             'pad_start')], 'starts_in_pad')
        out = b.op(Sub, [out, b.op(Convert, [starts_in_pad], 'drop', dst_type=np.dtype(I64))], 'out_spatial')
        rank = len(kernel) + 2
        stop = b.concat([b.const([np.iinfo(np.int64).max] * 2, 'all_nc', I64), out], 'stop')
        return b.op(Slice, [average, b.const(np.zeros(rank, I64), 'start'), stop, b.const(np.ones(rank, I64), 'step')],
                    'average')


class ONNXAvgPoolCeilIncludePadLowering(OpRule):
    """AveragePool with count_include_pad, ceil_mode and pads: ONNX divides a last window that runs past the padded
    input by its part inside the padded input, OpenVINO by the whole kernel. So the input is padded with zeros
    explicitly and averaged with exclude-pad (every padded cell is then a real one), and the result cut to the
    output ONNX's rounding gives (the shape of the pool with the pads, which folds when the shapes are known)."""
    op = 'ONNXAvgPoolCeilIncludePad'

    def rewrite(self, node: Node, b: Builder):
        rank = len(node.kernel) + 2
        zeros = [0, 0]
        padded = b.op(Pad, [node.in_port(0), b.const(np.array(zeros + list(node.pads_begin), I64), 'pads_begin'),
                            b.const(np.array(zeros + list(node.pads_end), I64), 'pads_end'),
                            like(b, 0.0, node.in_port(0), 'zero')], 'padded', pad_mode='constant')
        attrs = dict(kernel=node.kernel, strides=node.strides if node.has_valid('strides') else
                     np.ones(len(node.kernel), I64), rounding_type='ceil_torch', version='opset14', layout='NCHW')
        averaged = b.op(AvgPool, [padded], 'pool', auto_pad='explicit', pads_begin=np.zeros(rank - 2, I64),
                        pads_end=np.zeros(rank - 2, I64), **dict(attrs, **{'exclude-pad': True}))
        reference = b.op(AvgPool, [node.in_port(0)], 'output_shape_pool', auto_pad='explicit',
                         pads_begin=node.pads_begin, pads_end=node.pads_end, **dict(attrs, **{'exclude-pad': False}))
        return b.op(Slice, [averaged, b.const(np.zeros(rank, I64), 'begin'), b.op(ShapeOf, [reference], 'out_shape'),
                            b.const(np.ones(rank, I64), 'step')], 'output')


class ONNXLpPoolLowering(OpRule):
    """LpPool = (window sums of |x|^p)^(1/p), the sums a GroupConvolution of ones (padding adds 0)."""
    op = 'ONNXLpPool'

    def rewrite(self, node: Node, b: Builder):
        powered = b.op(Pow, [b.op(Abs, [node.in_port(0)], 'abs'), like(b, node.p, node.in_port(0), 'p')], 'abs_pow')
        total = _window_sum(b, node, powered, 'sum')
        return b.op(Pow, [total, like(b, 1.0 / node.p, total, 'inverse_p')], 'norm')


class ONNXGlobalPoolLowering(OpRule):
    """GlobalAveragePool/GlobalMaxPool = ReduceMean/ReduceMax over the spatial axes (kept); GlobalLpPool =
    ReduceSum(|x|^p)^(1/p)."""
    op = 'ONNXGlobalPool'

    def rewrite(self, node: Node, b: Builder):
        axes = spatial_axes(b, node.in_port(0), 'axes')
        if node.pool == 'GlobalAveragePool':
            return b.op(ReduceMean, [node.in_port(0), axes], 'mean', keep_dims=True)
        if node.pool == 'GlobalMaxPool':
            return b.op(ReduceMax, [node.in_port(0), axes], 'max', keep_dims=True)
        powered = b.op(Pow, [b.op(Abs, [node.in_port(0)], 'abs'), like(b, node.p, node.in_port(0), 'p')], 'abs_pow')
        total = b.op(ReduceSum, [powered, axes], 'sum', keep_dims=True)
        return b.op(Pow, [total, like(b, 1.0 / node.p, total, 'inverse_p')], 'norm')
