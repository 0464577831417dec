"""Paddle's convolutions and pooling (``Paddle_*`` ops of ``nn_ext.py``) as opset ops. A channels-last
(``NHWC``, ``NDHWC``) one runs as the channels-first op between two Transposes, which the runtime folds into its
layout choice."""
import numpy as np

from extensions.front.paddle.formulas import I64, port
from extensions.ops.adaptive_pool import AdaptiveAvgPool, AdaptiveMaxPool
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import input_var, node_name
from mo.graph.graph import Node
from mo.ops.concat import Concat
from mo.ops.convolution import (Convolution, ConvolutionBackpropData, GroupConvolution,
                                GroupConvolutionBackpropData)
from mo.ops.elementwise import Add, Mul
from mo.ops.image_ops import MaxPoolWithIndices
from mo.ops.pad import Pad
from mo.ops.pooling import AvgPool, MaxPool
from mo.ops.reduce import ReduceMax, ReduceMean
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.transpose import Transpose
from mo.utils.error import Error

_WINDOW = ('strides', 'dilations', 'pads_begin', 'pads_end', 'auto_pad', 'layout')


def window(node: Node) -> dict:
    return {attr: np.array(node[attr], I64) if isinstance(node[attr], list) else node[attr]
            for attr in _WINDOW if node.has_valid(attr)}


def grouped(b: Builder, weights, group: int, tag: str):
    """Weights ``[A, B, k...]`` as ``[G, A/G, B, k...]`` (GroupConvolution's and its transpose's layout)."""
    shape = b.op(ShapeOf, [weights], tag + '/shape')
    tail = b.op(Slice, [shape, b.const([1], tag + '/begin', I64), b.const([np.iinfo(np.int64).max], tag + '/end',
                                                                          I64), b.const([1], tag + '/step', I64)],
                tag + '/tail')
    target = b.op(Concat, [b.const([group, -1], tag + '/groups', I64), tail], tag + '/target', axis=0,
                  in_ports_count=2)
    return b.op(Reshape, [weights, target], tag)


def as_nchw(b: Builder, node: Node, x):
    """The op's input ``x`` channels-first: transposed from channels-last when the op is channels-last (``spatial``
    axes, 2 unless the op says otherwise)."""
    if not node.soft_get('channels_last', False):
        return x
    rank = node.soft_get('spatial', 2) + 2
    order = [0, rank - 1] + list(range(1, rank - 1))
    return b.op(Transpose, [x, b.const(order, 'to_nchw/order', I64)], 'to_nchw')


def from_nchw(b: Builder, node: Node, result):
    """The channels-first ``result`` back in the op's layout."""
    if not node.soft_get('channels_last', False):
        return result
    rank = node.soft_get('spatial', 2) + 2
    order = [0] + list(range(2, rank)) + [1]
    return b.op(Transpose, [result, b.const(order, 'to_nhwc/order', I64)], 'to_nhwc')


def add_bias(b: Builder, node: Node, result):
    """``result + Bias`` along the channels when the op has a Bias input (classic fused convolutions)."""
    bias = port(node, 'Bias')
    if bias is None:
        return result
    per_channel = b.op(Reshape, [bias, b.const([1, -1, 1, 1], 'bias_shape', I64)], 'bias_per_channel')
    return b.op(Add, [result, per_channel], 'bias_add')


class ConvLowering(OpRule):
    """conv2d(Input, Filter) = Convolution, or GroupConvolution with Filter as [G, O/G, C/G, kh, kw] (depthwise
    too)."""
    op = 'Paddle_conv'

    def rewrite(self, node: Node, b: Builder):
        x, weights = as_nchw(b, node, port(node, 'Input')), port(node, 'Filter')
        if node.group == 1:
            conv = b.op(Convolution, [x, weights], 'conv', **window(node))
        else:
            conv = b.op(GroupConvolution, [x, grouped(b, weights, node.group, 'weights')], 'conv', **window(node))
        return from_nchw(b, node, add_bias(b, node, conv))


def _transposed_size(node: Node, spatial_in):
    """The output size Paddle's transposed convolution gives without output_size (None when unknown)."""
    if any(d is None or d < 0 for d in spatial_in):
        return None
    weights = input_var(node, 'Filter')
    if weights is None or weights.shape is None or any(d < 0 for d in weights.shape[2:]):
        return None
    kernel = weights.shape[2:]
    dilations = node.dilations if node.has_valid('dilations') else [1] * len(kernel)
    return [(size - 1) * s - pb - pe + d * (k - 1) + 1 for size, s, pb, pe, d, k in zip(
        spatial_in, node.strides, node.pads_begin, node.pads_end, dilations, kernel)]


class ConvTransposeLowering(OpRule):
    """conv2d_transpose(Input, Filter) = ConvolutionBackpropData (GroupConvolutionBackpropData with Filter as
    [G, C/G, O/G, kh, kw]); output_size, which Paddle fills by extra cells at the end, becomes output_padding
    (the input's spatial size must be known then)."""
    op = 'Paddle_conv_transpose'

    def rewrite(self, node: Node, b: Builder):
        x, weights = as_nchw(b, node, port(node, 'Input')), port(node, 'Filter')
        attrs = window(node)
        padding = list(node.output_padding)
        size = list(node.output_size)
        size_port = port(node, 'OutputSize')
        if size_port is not None and not size:
            source = size_port.get_source().node
            if source.soft_get('op') != 'Const':
                raise Error('conv2d_transpose "{}": output_size is computed at run time; mo converts a constant '
                            'one only', node_name(node))
            size = [int(v) for v in np.ravel(source.value)]
        if size and attrs.get('auto_pad') == 'explicit':
            var = input_var(node, 'Input')
            spatial = slice(1, 3) if node.soft_get('channels_last', False) else slice(2, None)
            default = _transposed_size(node, var.shape[spatial] if var is not None and var.shape else [None])
            if default is None:
                raise Error('conv2d_transpose "{}": output_size {} needs the input\'s spatial size, which the '
                            'program leaves dynamic', node_name(node), size)
            padding = [int(want - have) for want, have in zip(size, default)]
        if padding and any(padding):
            attrs['output_padding'] = np.array(padding, I64)
        op_class = ConvolutionBackpropData
        if node.group != 1:
            op_class, weights = GroupConvolutionBackpropData, grouped(b, weights, node.group, 'weights')
        return from_nchw(b, node, add_bias(b, node, b.op(op_class, [x, weights], 'deconv', **attrs)))


class PoolLowering(OpRule):
    """pool2d/pool3d = MaxPool/AvgPool (ceil_mode: ceil rounding; exclusive: padding left out of averages); global
    pooling = ReduceMax/ReduceMean over the spatial axes (kept); adaptive pooling = AdaptiveMaxPool/AdaptiveAvgPool
    to ksize. A max pool whose Mask is read is MaxPool-8 (indices counted from axis 2: within each channel's
    spatial positions, as Paddle counts them), or AdaptiveMaxPool when adaptive or global."""
    op = 'Paddle_pool'

    def rewrite(self, node: Node, b: Builder):
        values, mask = self._pool(node, b, as_nchw(b, node, node.in_port(0)))
        if mask is None:
            return from_nchw(b, node, values)
        return [from_nchw(b, node, values), from_nchw(b, node, mask)]

    @staticmethod
    def _pool(node: Node, b: Builder, x):
        """(values, mask or None) channels-first."""
        spatial = node.soft_get('spatial', 2)
        kernel = list(node.ksize)
        kernel_port = port(node, 'KernelSize')
        if kernel_port is not None:
            source = kernel_port.get_source().node
            if source.soft_get('op') != 'Const':
                raise Error('{} "{}": its kernel size is computed at run time; mo converts a constant one only',
                            node.soft_get('paddle_type', 'pool2d'), node_name(node))
            kernel = [int(v) for v in np.ravel(source.value)]
        if len(kernel) == 1:
            kernel = kernel * spatial
        is_max = node.pooling == 'max'
        with_mask = node.soft_get('with_mask', False)
        if node.global_pooling:
            kernel, adaptive = [1] * spatial, True
        else:
            adaptive = node.adaptive
        if adaptive and kernel == [1] * spatial and not with_mask:
            axes = b.const(np.arange(2, spatial + 2, dtype=I64), 'axes')
            return b.op(ReduceMax if is_max else ReduceMean, [x, axes], 'global', keep_dims=True), None
        if adaptive:
            size = b.const(np.array(kernel, I64), 'output_size')
            if not is_max:
                return b.op(AdaptiveAvgPool, [x, size], 'adaptive'), None
            pool = b.op(AdaptiveMaxPool, [x, size], 'adaptive', index_element_type='i32')
            return pool.out_port(0), pool.out_port(1) if with_mask else None
        attrs = {key: value for key, value in window(node).items() if key != 'dilations'}
        attrs.update(kernel=np.array(kernel, I64), rounding_type='ceil' if node.ceil_mode else 'floor')
        if with_mask:
            pool = b.op(MaxPoolWithIndices, [x], 'max_pool', axis=2, index_element_type='i32', **attrs)
            return pool.out_port(0), pool.out_port(1)
        if is_max:
            return b.op(MaxPool, [x], 'max_pool', **attrs), None
        if not node.exclusive and node.ceil_mode and attrs.get('auto_pad') in ('explicit', 'valid'):
            return PoolLowering._inclusive_ceil_avg(node, b, x, attrs), None
        return b.op(AvgPool, [x], 'avg_pool', **dict(attrs, **{'exclude-pad': node.exclusive})), None

    @staticmethod
    def _inclusive_ceil_avg(node: Node, b: Builder, x, attrs: dict):
        """Paddle's average with the padding counted and ceil rounding divides by the part of each window inside
        the padded input; AvgPool (the CPU plugin's and OpenVINO's constant folding differ here) would count the
        positions past its end that ceil rounding adds. So the windows get that much more padding at the end,
        with floor rounding (the same windows, all inside), and the averages are scaled by kernel size / Paddle's
        divisor, a constant of the spatial sizes: those the program states."""
        spatial = len(attrs['kernel'])
        kernel, strides = [int(v) for v in attrs['kernel']], [int(v) for v in attrs['strides']]
        begin = [0] * spatial if attrs['auto_pad'] == 'valid' else [int(v) for v in attrs['pads_begin']]
        end = [0] * spatial if attrs['auto_pad'] == 'valid' else [int(v) for v in attrs['pads_end']]
        var = input_var(node, 'X')
        dims = list(var.shape) if var is not None and var.shape is not None else []
        sizes = (dims[1:-1] if node.soft_get('channels_last', False) else dims[2:]) if len(dims) == spatial + 2 else []
        if len(sizes) != spatial or any(int(d) < 0 for d in sizes):
            raise Error('{} "{}": an average counting padding with ceil_mode needs the spatial sizes in the program, '
                        'which has {}', node.soft_get('paddle_type', 'pool'), node_name(node), dims or 'none')
        extra, factors = [], []
        for size, k, stride, pad_begin, pad_end in zip(sizes, kernel, strides, begin, end):
            padded = int(size) + pad_begin + pad_end
            count = -(-(padded - k) // stride) + 1
            starts = np.arange(count) * stride
            extra.append(max(0, int(starts[-1]) + k - padded))
            factors.append(k / (np.minimum(starts + k, padded) - starts))
        scale = factors[0]
        for factor in factors[1:]:
            scale = np.multiply.outer(scale, factor)
        pooled = b.op(AvgPool, [x], 'avg_pool', **dict(
            attrs, auto_pad='explicit', pads_begin=np.array(begin, I64), rounding_type='floor',
            pads_end=np.array([e + more for e, more in zip(end, extra)], I64), **{'exclude-pad': False}))
        return b.op(Mul, [pooled, b.const_like(scale.reshape((1, 1) + scale.shape), x, 'divisor_scale')],
                    'avg_pool')
