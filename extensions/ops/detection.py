"""Opset ops ONNX's detection ops need that TensorFlow's front end does not: ROIAlign (opset9) and
DeformableConvolution (opset8).

Both give output shapes only: their values depend on run-time data (boxes, offsets) in any real model.
"""
from mo.utils.shape import int64_array
from mo.ops.convolution import _csv, _ints, forward_pads
from mo.ops.op import Op
from mo.utils.error import Error


class ROIAlign(Op):
    """Inputs: data ``[N, C, H, W]``, rois ``[R, 4]`` (x1, y1, x2, y2), batch_indices ``[R]``; output
    ``[R, C, pooled_h, pooled_w]``. ``aligned_mode`` is ``asymmetric`` (no pixel shift) or ``half_pixel`` (the
    rois' corners shifted by -0.5 after scaling); ``mode`` avg or max."""
    op = type = 'ROIAlign'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'ROIAlign', 'op': 'ROIAlign', 'version': 'opset9', 'pooled_h': 1, 'pooled_w': 1,
            'sampling_ratio': 0, 'spatial_scale': 1.0, 'mode': 'avg', 'aligned_mode': 'asymmetric',
            'infer': ROIAlign.infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['pooled_h', 'pooled_w', 'sampling_ratio', 'spatial_scale', 'mode', 'aligned_mode']

    @staticmethod
    def infer(node):
        data, rois = node.in_port(0).data.get_shape(), node.in_port(1).data.get_shape()
        if data is None or rois is None:
            return
        if len(data) != 4 or len(rois) != 2:
            raise Error('ROIAlign "{}": data must be 4-D and rois 2-D, not of shapes {} and {}',
                        node.soft_get('name', node.id), list(data), list(rois))
        node.out_port(0).data.set_shape([int(rois[0]), int(data[1]), int(node.pooled_h), int(node.pooled_w)])


class DeformableConvolution(Op):
    """Inputs: data ``[N, C, H, W]``, offsets ``[N, deformable_group * kH * kW * 2, oH, oW]`` ((y, x) pairs of
    each kernel point), filters ``[O, C / group, kH, kW]``, mask (optional) ``[N, deformable_group * kH * kW, oH,
    oW]``. ``bilinear_interpolation_pad`` true samples points up to a pixel outside the data, the missing
    neighbours read as zeros (ONNX's DeformConv); false gives such points zero."""
    op = type = 'DeformableConvolution'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'DeformableConvolution', 'op': 'DeformableConvolution', 'version': 'opset8',
            'auto_pad': 'explicit', 'group': 1, 'deformable_group': 1, 'bilinear_interpolation_pad': False,
            'infer': DeformableConvolution.infer, 'in_ports_count': 4, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('strides', lambda n: _csv(n.strides)), ('dilations', lambda n: _csv(n.dilations)),
                ('pads_begin', lambda n: _csv(n.pads_begin)), ('pads_end', lambda n: _csv(n.pads_end)),
                'auto_pad', 'group', 'deformable_group',
                ('bilinear_interpolation_pad', lambda n: str(bool(n.bilinear_interpolation_pad)).lower())]

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        shape, w_shape = node.in_port(0).data.get_shape(), node.in_port(2).data.get_shape()
        if shape is None or w_shape is None:
            return
        if len(shape) != 4 or len(w_shape) != 4:
            raise Error('DeformableConvolution "{}": only 2-D deformable convolutions exist in the opset; data of '
                        'shape {} and filters of shape {} are not', name, list(shape), list(w_shape))
        kernel = [int(k) for k in w_shape[2:]]
        if node.has_valid('kernel_shape') and [int(k) for k in node.kernel_shape] != kernel:
            raise Error('DeformableConvolution "{}": kernel_shape {} does not fit filters of shape {}', name,
                        [int(k) for k in node.kernel_shape], list(w_shape))
        try:
            strides = _ints(node.soft_get('strides', None), 2, 1)
            dilations = _ints(node.soft_get('dilations', None), 2, 1)
            begin, end, out = forward_pads(shape[2:], kernel, strides, dilations, node.auto_pad,
                                           node.soft_get('pads_begin', None), node.soft_get('pads_end', None))
        except Error as exc:
            raise Error('DeformableConvolution "{}": {}', name, exc) from None
        node.strides, node.dilations = int64_array(strides), int64_array(dilations)
        node.pads_begin, node.pads_end = int64_array(begin), int64_array(end)
        node.out_port(0).data.set_shape([int(shape[0]), int(w_shape[0])] + [int(d) for d in out])
