"""Extractors for TensorFlow's neural-network ops.

Spatial ops (convolutions, pooling) are extracted in TensorFlow's own form: ``layout`` is the
node's ``data_format`` ('NHWC' also stands for NDHWC), ``strides``/``dilations``/``kernel`` hold
the spatial entries only, and ``tf_weights`` names the weights' TensorFlow layout. The layout
replacer (``nhwc_to_nchw.py``) then reorders weights and data for the opset's channels-first ops.
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.front.extractor import FrontExtractorOp, opset_type
from mo.front.tf.extractor_utils import data_format, tf_attr, tf_dtype_attr
from mo.ops.activation_ops import Clamp, Elu, ReLU, SoftPlus
from mo.ops.convolution import Convolution, ConvolutionBackpropData, GroupConvolution
from mo.ops.elementwise import Add
from mo.ops.matmul import Einsum, MatMul
from mo.ops.nn_ops import (ArgMax, BiasAdd, FusedBatchNorm, Interpolate, LeakyReLU, LogSoftmax, Selu, Softmax,
                          TopK)
from mo.ops.pooling import AvgPool, MaxPool
from mo.utils.error import Error

_PADDING = {b'SAME': 'same_upper', b'VALID': 'valid', b'EXPLICIT': 'explicit'}


def _spatial(values, layout):
    """The spatial entries of a TF per-dimension list (N, C dropped as ``layout`` orders them)."""
    values = list(values)
    return int64_array(values[2:] if layout.startswith('NC') else values[1:-1])


def spatial_attrs(node, with_dilations=True) -> dict:
    """Layout, strides, dilations and padding of a TF convolution/pooling node, spatial entries only."""
    layout = data_format(node)
    name = node.soft_get('name', node.id)
    padding = tf_attr(node, 'padding')
    if padding not in _PADDING:
        raise Error('Node "{}" ({}): padding {!r} is not supported', name, node.op, padding)
    strides = tf_attr(node, 'strides')
    if not strides:
        raise Error('Node "{}" ({}) has no strides', name, node.op)
    attrs = {'layout': layout, 'strides': _spatial(strides, layout), 'auto_pad': _PADDING[padding]}
    rank = len(strides) - 2
    if with_dilations:
        attrs['dilations'] = _spatial(tf_attr(node, 'dilations') or [1] * (rank + 2), layout)
    if padding == b'EXPLICIT':
        pads = np.reshape(np.array(tf_attr(node, 'explicit_paddings') or [], dtype=np.int64), (-1, 2))
        if len(pads) != rank + 2:
            raise Error('Node "{}" ({}): explicit_paddings {} do not fit rank {}', name, node.op,
                        pads.ravel().tolist(), rank + 2)
        pads = pads[2:] if layout.startswith('NC') else pads[1:-1]
        attrs['pads_begin'], attrs['pads_end'] = int64_array(pads[:, 0]), int64_array(pads[:, 1])
    return attrs


class Conv2DExtractor(FrontExtractorOp):
    """Conv2D, Conv3D -> Convolution (GroupConvolution when the input has k times the filter's channels); SAME,
    VALID, EXPLICIT padding, NHWC and NCHW."""
    op = ['Conv2D', 'Conv3D']

    @classmethod
    def extract(cls, node):
        Convolution.update_node_stat(node, dict(spatial_attrs(node), tf_weights='HWIO'))
        return True


class DepthwiseConv2dNativeExtractor(FrontExtractorOp):
    """DepthwiseConv2dNative -> GroupConvolution with one group per input channel."""
    op = 'DepthwiseConv2dNative'

    @classmethod
    def extract(cls, node):
        GroupConvolution.update_node_stat(node, dict(spatial_attrs(node), tf_weights='HWCM'))
        return True


class Conv2DBackpropInputExtractor(FrontExtractorOp):
    """Conv2DBackpropInput, Conv3DBackpropInputV2 -> ConvolutionBackpropData (TF's SAME is the opset's
    same_lower); input_sizes must be constant.

    TF inputs are (input_sizes, filter, out_backprop); the layout replacer puts them in opset order.
    TF's SAME pads the forward convolution with the smaller half first; for the transposed
    convolution the opset calls that split ``same_lower`` (``same_upper`` crops the other side).
    """
    op = ['Conv2DBackpropInput', 'Conv3DBackpropInputV2']

    @classmethod
    def extract(cls, node):
        attrs = spatial_attrs(node)
        if attrs['auto_pad'] == 'same_upper':
            attrs['auto_pad'] = 'same_lower'
        ConvolutionBackpropData.update_node_stat(node, dict(attrs, tf_weights='HWOI', tf_backprop_ports=True))
        return True


class MaxPoolExtractor(FrontExtractorOp):
    """MaxPool, MaxPool3D -> MaxPool (opset1)."""
    op = ['MaxPool', 'MaxPool3D']

    @classmethod
    def extract(cls, node):
        attrs = spatial_attrs(node, with_dilations=False)
        MaxPool.update_node_stat(node, dict(attrs, kernel=_spatial(tf_attr(node, 'ksize'), attrs['layout'])))
        return True


class AvgPoolExtractor(FrontExtractorOp):
    """AvgPool, AvgPool3D -> AvgPool with exclude-pad (TF averages over real pixels only)."""
    op = ['AvgPool', 'AvgPool3D']

    @classmethod
    def extract(cls, node):
        attrs = spatial_attrs(node, with_dilations=False)
        # TensorFlow divides by the number of real (unpadded) pixels in each window
        AvgPool.update_node_stat(node, dict(attrs, kernel=_spatial(tf_attr(node, 'ksize'), attrs['layout']),
                                            **{'exclude-pad': True}))
        return True


class MatMulExtractor(FrontExtractorOp):
    """MatMul -> MatMul (transpose_a/transpose_b)."""
    op = 'MatMul'

    @classmethod
    def extract(cls, node):
        MatMul.update_node_stat(node, {'transpose_a': bool(tf_attr(node, 'transpose_a', False)),
                                       'transpose_b': bool(tf_attr(node, 'transpose_b', False))})
        return True


class BatchMatMulExtractor(FrontExtractorOp):
    """BatchMatMul, BatchMatMulV2, BatchMatMulV3 -> MatMul (adj_x/adj_y as transposes; of complex operands, conjugate
    transposes: complex_linear). A BatchMatMulV3 whose Tout is not its operands' type multiplies the operands
    Converted to Tout."""
    op = ['BatchMatMul', 'BatchMatMulV2', 'BatchMatMulV3']

    @classmethod
    def extract(cls, node):
        dtype = tf_dtype_attr(node, 'T', None) or tf_dtype_attr(node, 'Ta', None)
        adjoint = {'transpose_a': bool(tf_attr(node, 'adj_x', False)),
                   'transpose_b': bool(tf_attr(node, 'adj_y', False))}
        if dtype is not None and np.issubdtype(dtype, np.complexfloating):
            # the adjoint of a complex matrix is its conjugate transpose: ComplexTensors conjugates these operands
            adjoint.update(conjugate_a=adjoint['transpose_a'], conjugate_b=adjoint['transpose_b'])
        MatMul.update_node_stat(node, adjoint)
        result_type = tf_dtype_attr(node, 'Tout', None)
        if result_type is not None and {dtype, tf_dtype_attr(node, 'Tb', dtype)} != {result_type}:
            # BatchMatMulV3's Tout (int8/uint8 operands, int32 result): nn_lowering.MatMulResultType
            node['tf_result_type'] = result_type
        return True


class EinsumExtractor(FrontExtractorOp):
    """Einsum -> Einsum (opset7): every equation TF's Einsum accepts (one or two operands; ellipses broadcast;
    repeated labels take diagonals; labels missing from the output are summed)."""
    op = 'Einsum'

    @classmethod
    def extract(cls, node):
        equation = tf_attr(node, 'equation', b'')
        equation = equation.decode() if isinstance(equation, bytes) else str(equation)
        Einsum.update_node_stat(node, {'equation': equation.replace(' ', ''),
                                       'in_ports_count': int(tf_attr(node, 'N', 2))})
        return True


class BiasAddExtractor(FrontExtractorOp):
    """Channels-last BiasAdd is numpy broadcasting already, so it is a plain Add."""
    op = ['BiasAdd', 'BiasAddV1']

    @classmethod
    def extract(cls, node):
        layout = data_format(node) if node.op == 'BiasAdd' else 'NHWC'
        if layout.startswith('NC'):
            BiasAdd.update_node_stat(node, {'data_format': layout})
        else:
            Add.update_node_stat(node, {})
        return True


class FusedBatchNormExtractor(FrontExtractorOp):
    """FusedBatchNorm, V2, V3 -> Multiply + Add folded into the convolution before it where possible (inference);
    with is_training, normalization by the batch's statistics (ReduceMean, Sqrt, ...)."""
    op = ['FusedBatchNorm', 'FusedBatchNormV2', 'FusedBatchNormV3']

    @classmethod
    def extract(cls, node):
        FusedBatchNorm.update_node_stat(node, {
            'eps': float(tf_attr(node, 'epsilon', 1e-4)), 'data_format': data_format(node),
            'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32)),
            'is_training': bool(tf_attr(node, 'is_training', True)),
            'exponential_avg_factor': float(tf_attr(node, 'exponential_avg_factor', 1.0))})
        return True


#: TF ops that map onto one mo op with fixed attributes (Selu's constants are TensorFlow's;
#: ``extensions/front/tf/nn_lowering.py`` turns them into inputs)
_FIXED = {
    'Relu': (ReLU, {}),
    'Relu6': (Clamp, {'min': 0.0, 'max': 6.0}),
    'Elu': (Elu, {'alpha': 1.0}),
    'Selu': (Selu, {'alpha': 1.6732632423543772848170429916717, 'lambda': 1.0507009873554804934193349852946}),
    'Softplus': (SoftPlus, {}),
    'Softmax': (Softmax, {'axis': -1}),
    'LogSoftmax': (LogSoftmax, {'axis': -1}),
}


class FixedAttributesExtractor(FrontExtractorOp):
    """The ops of ``_FIXED``: no TF attribute to read."""
    op = sorted(_FIXED)

    @classmethod
    def describe(cls, op):
        op_class, attrs = _FIXED[op]
        return opset_type(op_class) + (' ({})'.format(', '.join('{}={:.4g}'.format(k, v) for k, v in attrs.items()))
                                       if attrs else '')

    @classmethod
    def extract(cls, node):
        op_class, attrs = _FIXED[node.op]
        attrs = dict(attrs)
        if node.op == 'Selu':  # the type of its alpha and lambda inputs (nn_lowering.SeluConstInputs)
            attrs['selu_type'] = tf_dtype_attr(node, 'T', np.dtype(np.float32))
        op_class.update_node_stat(node, attrs)
        return True


class LeakyReluExtractor(FrontExtractorOp):
    """LeakyRelu -> PRelu with a one-element slope."""
    op = 'LeakyRelu'

    @classmethod
    def extract(cls, node):
        LeakyReLU.update_node_stat(node, {'alpha': float(tf_attr(node, 'alpha', 0.2))})
        return True


class TopKV2Extractor(FrontExtractorOp):
    """TopKV2 -> TopK (opset11, stable, sorted by value); an int16 index_type takes TopK's i32 indices
    Converted (nn_lowering.TopKIndexType)."""
    op = 'TopKV2'

    @classmethod
    def extract(cls, node):
        index_type = tf_dtype_attr(node, 'index_type', np.dtype(np.int32))
        TopK.update_node_stat(node, {
            'axis': -1, 'mode': 'max', 'stable': True,
            # TF's sorted=False leaves the order unspecified; sorting by value is one valid order
            'sort': 'value', 'index_element_type': 'i64' if index_type == np.int64 else 'i32'})
        if index_type not in (np.int32, np.int64):
            node['tf_index_type'] = index_type
        return True


class ArgMaxExtractor(FrontExtractorOp):
    """ArgMax, ArgMin -> TopK(k=1) + Squeeze; the axis must be constant."""
    op = ['ArgMax', 'ArgMin']

    @classmethod
    def extract(cls, node):
        ArgMax.update_node_stat(node, {'mode': 'max' if node.op == 'ArgMax' else 'min',
                                       'output_type': tf_dtype_attr(node, 'output_type', np.dtype(np.int64)),
                                       'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32))})
        return True


class ResizeBilinearExtractor(FrontExtractorOp):
    """TF's flags pick the opset's coordinate transformation; the image axes are 1 and 2 (NHWC); the output is
    float32 whatever the image's type (``nn_lowering.ResizeAxesInput``)."""
    op = 'ResizeBilinear'

    @classmethod
    def extract(cls, node):
        align, half = bool(tf_attr(node, 'align_corners', False)), bool(tf_attr(node, 'half_pixel_centers', False))
        mode = 'align_corners' if align else ('half_pixel' if half else 'asymmetric')
        Interpolate.update_node_stat(node, {'mode': 'linear_onnx', 'coordinate_transformation_mode': mode,
                                            'shape_calculation_mode': 'sizes', 'tf_resize_axes': [1, 2],
                                            'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32))})
        return True


class ResizeNearestNeighborExtractor(FrontExtractorOp):
    """ResizeNearestNeighbor -> Interpolate (nearest; align_corners and half_pixel_centers mapped)."""
    op = 'ResizeNearestNeighbor'

    @classmethod
    def extract(cls, node):
        align, half = bool(tf_attr(node, 'align_corners', False)), bool(tf_attr(node, 'half_pixel_centers', False))
        if align:
            # TF rounds half away from zero; coordinates are never negative here
            coordinate, nearest = 'align_corners', 'round_prefer_ceil'
        elif half:
            coordinate, nearest = 'tf_half_pixel_for_nn', 'floor'
        else:
            coordinate, nearest = 'asymmetric', 'floor'
        Interpolate.update_node_stat(node, {'mode': 'nearest', 'coordinate_transformation_mode': coordinate,
                                            'nearest_mode': nearest, 'shape_calculation_mode': 'sizes',
                                            'tf_resize_axes': [1, 2],
                                            'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32))})
        return True
