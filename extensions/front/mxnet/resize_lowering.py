"""MXNet's resizing ops: UpSampling and BilinearResize2D as the opset's Interpolate or a transposed convolution."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.formulas import dims, ints
from extensions.front.mxnet.nn_lowering import grouped
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Floor
from mo.ops.convert import Convert
from mo.ops.convolution import GroupConvolutionBackpropData
from mo.ops.elementwise import Mul
from mo.ops.nn_ops import Interpolate
from mo.utils.error import Error


class UpSamplingLowering(OpRule):
    """UpSampling(x, scale): nearest = Interpolate of H, W by scale (each pixel repeated); bilinear =
    MXNet's fixed transposed convolution with the weight input: kernel 2 * scale - scale % 2, stride scale, pad
    ceil((scale - 1) / 2), one group per channel, no bias."""
    op = 'MXUpSampling'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        scale, kind = attr.int('scale'), attr.str('sample_type')
        if kind == 'nearest':
            if attr.int('num_args', 1) != 1:
                raise Error('UpSampling "{}": nearest of {} inputs is not converted (one)', b.name,
                            attr.int('num_args'))
            return b.op(Interpolate, [x, b.const(np.array([scale, scale], np.float32), 'scales', np.float32),
                                      ints(b, [2, 3], 'axes')], 'interpolate', mode='nearest',
                        shape_calculation_mode='scales', coordinate_transformation_mode='asymmetric',
                        nearest_mode='floor')
        if kind != 'bilinear':
            raise Error('UpSampling "{}": sample_type "{}" is not one of nearest, bilinear', b.name, kind)
        pad = int(np.ceil((scale - 1) / 2.0))  # the kernel, 2 * scale - scale % 2, is the weight's
        weights = grouped(b, node.in_port(1), attr.int('num_filter'), 'weights')
        return b.op(GroupConvolutionBackpropData, [x, weights], 'deconv', strides=np.array([scale, scale], np.int64),
                    dilations=np.array([1, 1], np.int64), pads_begin=np.array([pad, pad], np.int64),
                    pads_end=np.array([pad, pad], np.int64), output_padding=np.array([0, 0], np.int64))


class BilinearResize2DLowering(OpRule):
    """_contrib_BilinearResize2D(x) = Interpolate(x) linear to (height, width), or to floor(H * scale_height,
    W * scale_width); align_corners (MXNet's default) maps the corners onto each other, else half pixels."""
    op = 'MXcontrib_BilinearResize2D'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        if attr.str('mode', 'size') != 'size' or node.is_in_port_connected(1):
            raise Error('_contrib_BilinearResize2D "{}": mode "{}" is not converted (size)', b.name, attr.str('mode'))
        height, width = attr.int('height', None) or 0, attr.int('width', None) or 0
        if height and width:
            sizes = ints(b, [height, width], 'sizes')
        else:
            scales = [attr.float('scale_height', None), attr.float('scale_width', None)]
            if None in scales:
                raise Error('_contrib_BilinearResize2D "{}" gives neither height and width nor both scales', b.name)
            spatial = b.op(Convert, [dims(b, x, [2, 3], 'spatial')], 'spatial_f', dst_type=np.dtype(np.float32))
            scaled = b.op(Mul, [spatial, b.const(np.array(scales, np.float32), 'scales', np.float32)], 'scaled')
            sizes = b.op(Convert, [b.op(Floor, [scaled], 'floor')], 'sizes', dst_type=np.dtype(np.int64))
        align = attr.bool('align_corners', True)
        return b.op(Interpolate, [x, sizes, ints(b, [2, 3], 'axes')], 'interpolate', mode='linear',
                    shape_calculation_mode='sizes',
                    coordinate_transformation_mode='align_corners' if align else 'half_pixel')
