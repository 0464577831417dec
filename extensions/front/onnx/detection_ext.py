"""Extractors for ONNX's detection ops and their kin: NonMaxSuppression, RoiAlign, MaxUnpool and DeformConv.

RoiAlign maps onto ROIAlign-9 as it is; the others keep an internal ``ONNX<op>`` name with the attributes read
here, for ``detection_lowering``.
"""
from extensions.front.onnx.nn_ext import window_attrs
from extensions.ops.detection import ROIAlign
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.utils.error import Error


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _text(node, attr: str, default: str) -> str:
    value = onnx_attr(node, attr, 's', default)
    return value.decode('utf-8') if isinstance(value, bytes) else value


class NonMaxSuppressionExtractor(FrontExtractorOp):
    """NonMaxSuppression -> ONNXNonMaxSuppression (center_point_box): NonMaxSuppression-9 sorted per batch and
    class, its selections cut to those made (``detection_lowering``)."""
    op = 'NonMaxSuppression'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        center = onnx_attr(node, 'center_point_box', 'i', 0)
        if center not in (0, 1):
            raise Error('NonMaxSuppression "{}": center_point_box must be 0 or 1, not {}', _name(node), center)
        node['center_point_box'] = bool(center)
        node['op'] = 'ONNXNonMaxSuppression'
        return True


class RoiAlignExtractor(FrontExtractorOp):
    """RoiAlign (avg) -> ROIAlign-9: coordinate_transformation_mode half_pixel (the default from opset 16) is
    aligned_mode half_pixel_for_nn (corners shifted by -0.5, no minimum ROI size: ONNX's half_pixel; OpenVINO's
    aligned_mode half_pixel gives asymmetric's numbers on the backend cases), output_half_pixel (opset 10's only
    behaviour) is asymmetric. RoiAlign (max) -> ONNXRoiAlignMax (``detection_lowering``): ONNX's max is not the opset's."""
    op = 'RoiAlign'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        name = _name(node)
        mode = _text(node, 'mode', 'avg')
        if mode not in ('avg', 'max'):
            raise Error('RoiAlign "{}": mode must be avg or max, not "{}"', name, mode)
        transform = 'output_half_pixel'
        if get_onnx_opset_version(node) >= 16:
            transform = _text(node, 'coordinate_transformation_mode', 'half_pixel')
        aligned = {'half_pixel': 'half_pixel_for_nn', 'output_half_pixel': 'asymmetric'}.get(transform)
        if aligned is None:
            raise Error('RoiAlign "{}": coordinate_transformation_mode must be half_pixel or output_half_pixel, '
                        'not "{}"', name, transform)
        height, width = onnx_attr(node, 'output_height', 'i', 1), onnx_attr(node, 'output_width', 'i', 1)
        sampling = onnx_attr(node, 'sampling_ratio', 'i', 0)
        if height < 1 or width < 1 or sampling < 0:
            raise Error('RoiAlign "{}": output_height {} and output_width {} must be positive, sampling_ratio {} not '
                        'negative', name, height, width, sampling)
        attrs = {'pooled_h': int(height), 'pooled_w': int(width), 'sampling_ratio': int(sampling),
                 'spatial_scale': float(onnx_attr(node, 'spatial_scale', 'f', 1.0))}
        if mode == 'avg':
            ROIAlign.update_node_stat(node, dict(attrs, mode=mode, aligned_mode=aligned))
            return True
        if sampling == 0:
            # ONNX's max is over the sample points, whose number then depends on each ROI's size: no fixed shape
            raise Error('RoiAlign "{}": mode max needs a positive sampling_ratio (an adaptive grid is not supported)',
                        name)
        node.attrs().update(attrs, half_pixel=transform == 'half_pixel')
        node['op'] = 'ONNXRoiAlignMax'
        return True


class MaxUnpoolExtractor(FrontExtractorOp):
    """MaxUnpool -> ONNXMaxUnpool (kernel_shape, strides, pads): X scattered at the flat indices I into zeros of
    the output shape (input 2, or computed from X's shape)."""
    op = 'MaxUnpool'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = window_attrs(node, with_dilations=False)
        kernel = attrs.get('kernel_shape')
        if kernel is None or any(k < 1 for k in kernel):
            raise Error('MaxUnpool "{}": kernel_shape must be given, of positive sizes', _name(node))
        for attr in ('strides', 'pads_begin', 'pads_end'):
            if attr in attrs and len(attrs[attr]) != len(kernel):
                raise Error('MaxUnpool "{}": {} {} do not fit kernel_shape {}', _name(node), attr,
                            attrs[attr].tolist(), kernel.tolist())
        node.attrs().update(attrs)
        node['op'] = 'ONNXMaxUnpool'
        return True


class DeformConvExtractor(FrontExtractorOp):
    """DeformConv -> ONNXDeformConv (strides, dilations, pads, kernel_shape, group, offset_group):
    DeformableConvolution-8 with bilinear_interpolation_pad and the optional mask, plus the bias B."""
    op = 'DeformConv'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = window_attrs(node)
        for attr in ('group', 'offset_group'):
            attrs[attr] = int(onnx_attr(node, attr, 'i', 1))
            if attrs[attr] < 1:
                raise Error('DeformConv "{}": {} {} must be positive', _name(node), attr, attrs[attr])
        node.attrs().update(attrs)
        node['op'] = 'ONNXDeformConv'
        return True
