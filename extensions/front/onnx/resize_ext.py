"""Extractors for ONNX's Resize (opsets 10, 11, 13, 18, 19) and Upsample (7, 9): the internal op ``ONNXResize``
with the attributes in the opset Interpolate's words, for ``resize_lowering.py``.

Per version: Resize-10 and Upsample read (X, scales) and resize as ``asymmetric`` coordinates with ``floor``
nearest pixels (Upsample-7 has its scales in an attribute); Resize-11 on read (X, roi, scales, sizes) and the
coordinate/nearest/cubic attributes; 18 adds ``antialias``, ``axes`` and ``keep_aspect_ratio_policy``; 19 adds
the ``half_pixel_symmetric`` coordinates.
"""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.utils.error import Error

_MODES = ('nearest', 'linear', 'cubic')
_COORDINATES = ('half_pixel', 'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric',
                'tf_half_pixel_for_nn', 'tf_crop_and_resize')
_NEAREST = ('round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil')
_POLICIES = ('stretch', 'not_larger', 'not_smaller')


def _text(node, name, default):
    value = onnx_attr(node, name, 's', None)
    return default if value is None else (value.decode() if isinstance(value, bytes) else str(value))


def _choice(node, name, default, allowed):
    value = _text(node, name, default)
    if value not in allowed:
        raise Error('{} "{}": {} "{}" is not one of {}', node.op, node.soft_get('name', node.id), name, value,
                    ', '.join(allowed))
    return value


class ResizeExtractor(FrontExtractorOp):
    """Resize -> Interpolate-11 (nearest; linear as linear_onnx, or linear with antialias; cubic with
    cube_coeff = cubic_coeff_a), by scales or by sizes (keep_aspect_ratio_policy: the sizes it implies), over
    ``axes``; tf_crop_and_resize (linear, nearest) axis by axis from Gathers (``crop_resize.py``). exclude_outside,
    antialias when downscaling and half_pixel_symmetric with non-integer scales are not supported (an Error)."""
    op = 'Resize'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Interpolate (opset11)'

    @classmethod
    def extract(cls, node):
        opset = get_onnx_opset_version(node)
        name = node.soft_get('name', node.id)
        attrs = {'mode': _choice(node, 'mode', 'nearest', _MODES), 'onnx_version': 10 if opset < 11 else opset}
        if opset < 11:
            attrs.update(coordinate_transformation_mode='asymmetric', nearest_mode='floor')
        else:
            attrs.update(coordinate_transformation_mode=_choice(node, 'coordinate_transformation_mode', 'half_pixel',
                                                                _COORDINATES),
                         nearest_mode=_choice(node, 'nearest_mode', 'round_prefer_floor', _NEAREST),
                         cube_coeff=float(onnx_attr(node, 'cubic_coeff_a', 'f', -0.75)),
                         exclude_outside=bool(onnx_attr(node, 'exclude_outside', 'i', 0)),
                         antialias=bool(onnx_attr(node, 'antialias', 'i', 0)),
                         keep_aspect_ratio_policy=_choice(node, 'keep_aspect_ratio_policy', 'stretch', _POLICIES))
            axes = onnx_attr(node, 'axes', 'ints', None)
            if axes:
                attrs['axes'] = [int(a) for a in axes]
        if attrs.get('exclude_outside') and attrs['mode'] == 'cubic':
            raise Error('Resize "{}": exclude_outside=1 is not supported (OpenVINO\'s cubic Interpolate always weighs '
                        'the pixels outside the image)', name)
        attrs['extrapolation_value'] = float(onnx_attr(node, 'extrapolation_value', 'f', 0.0))
        node.attrs().update(attrs)
        node['op'] = 'ONNXResize'
        return True


class UpsampleExtractor(FrontExtractorOp):
    """Upsample -> Interpolate-11 by scales with asymmetric coordinates (nearest: floor), as Resize-10."""
    op = 'Upsample'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Interpolate (opset11)'

    @classmethod
    def extract(cls, node):
        mode = _choice(node, 'mode', 'nearest', ('nearest', 'linear', 'bilinear'))
        attrs = {'mode': 'linear' if mode == 'bilinear' else mode, 'onnx_version': 10,
                 'coordinate_transformation_mode': 'asymmetric', 'nearest_mode': 'floor'}
        scales = onnx_attr(node, 'scales', 'floats', None)
        if get_onnx_opset_version(node) < 9:
            if not scales:
                raise Error('Upsample "{}" has no scales attribute', node.soft_get('name', node.id))
            attrs['scales_attr'] = [float(s) for s in scales]
        node.attrs().update(attrs)
        node['op'] = 'ONNXResize'
        return True
