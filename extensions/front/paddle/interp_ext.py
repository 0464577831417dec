"""Extractors for Paddle's interpolate ops: ``nearest_interp``, ``bilinear_interp``, ``bicubic_interp``,
``linear_interp``, ``trilinear_interp`` and their ``_v2`` forms, as the internal op ``PaddleInterpolate`` that
``interp_lowering.py`` makes an opset11 Interpolate.

What Paddle's kernels compute, and what it means for Interpolate:

* the output size: a ``SizeTensor`` list (one int tensor per spatial axis) wins, then an ``OutSize`` tensor,
  then a ``Scale`` tensor, then the ``scale`` attribute, then the ``out_d``/``out_h``/``out_w`` attributes;
  a scale gives ``int(in * scale)``;
* the source coordinate of output index ``k``: with ``align_corners`` ``k * (in - 1) / (out - 1)``; otherwise
  the ratio is ``1 / scale`` when a scale decided the size (the ``_v2`` ops) and ``in / out`` else, and the
  linear modes take ``(k + 0.5) * ratio - 0.5`` (clamped at 0) for ``align_mode`` 0 and ``k * ratio`` for
  ``align_mode`` 1; bicubic always the former (Keys' kernel with a = -0.75, border pixels repeated);
  nearest takes ``k * ratio`` rounded down, or rounded half up with ``align_corners``;
* the layout: ``data_layout`` (classic) or ``data_format`` (PIR) ``NCHW`` puts the spatial axes after the
  channels, ``NHWC`` before them, whatever the rank.

The classic ``_v1`` ops (``bilinear_interp`` without ``_v2`` in a ``ProgramDesc``) have one float ``scale``
and always the ratio ``in / out``; PIR's ``pd_op.bilinear_interp`` is the ``_v2`` op under a shorter name.
"""
from mo.front.extractor import FrontExtractorOp
from mo.utils.error import Error

#: Paddle op type (without ``_v2``) -> (Interpolate mode, number of spatial axes; None: from the attributes)
_KINDS = {
    'nearest_interp': ('nearest', None),
    'bilinear_interp': ('linear_onnx', 2),
    'bicubic_interp': ('cubic', 2),
    'linear_interp': ('linear_onnx', 1),
    'trilinear_interp': ('linear_onnx', 3),
}


def _attrs(node) -> dict:
    """The Paddle attributes of ``node`` (the reader's op)."""
    return node['pb'].attrs


def _is_v1(node) -> bool:
    """True for the classic ``_v1`` op: its type has no ``_v2`` and no PIR dialect, and its ``scale`` is one float."""
    pb_type = node['pb'].type
    return not pb_type.endswith('_v2') and '.' not in pb_type and not isinstance(_attrs(node).get('scale'), list)


def interp_attrs(node) -> dict:
    """The ``PaddleInterpolate`` attributes of an interpolate node (see the module docstring)."""
    name = node.soft_get('name', node.id)
    op_type = node['op'][:-3] if node['op'].endswith('_v2') else node['op']
    mode, spatial = _KINDS[op_type]
    attrs = _attrs(node)
    layout = attrs.get('data_layout', attrs.get('data_format', 'NCHW'))
    if isinstance(layout, bytes):
        layout = layout.decode()
    layout = str(layout).upper()
    if layout in ('NCW', 'NCDHW', 'ANYLAYOUT'):  # Paddle's AnyLayout default means channels first
        layout = 'NCHW'
    elif layout in ('NWC', 'NDHWC'):
        layout = 'NHWC'
    if layout not in ('NCHW', 'NHWC'):
        raise Error('{} "{}": data layout "{}" is not NCHW or NHWC', node['op'], name, layout)
    align_corners = bool(attrs.get('align_corners', True))
    align_mode = int(attrs.get('align_mode', 1))
    out_sizes = [int(attrs.get(key, -1)) for key in ('out_d', 'out_h', 'out_w')]
    v1 = _is_v1(node)
    scale = attrs.get('scale', [] if not v1 else 0.0)
    if v1:
        scales = [float(scale)] if float(scale) > 0 else []
    else:
        scales = [float(s) for s in scale]
    if spatial is None:  # nearest: 2-D unless a depth is given somewhere
        spatial = 3 if out_sizes[0] > 0 or len(scales) == 3 else 2
    if mode == 'nearest':
        coordinates = 'align_corners' if align_corners else 'asymmetric'
        nearest_mode = 'round_prefer_ceil' if align_corners else 'floor'
    elif mode == 'cubic':
        coordinates = 'align_corners' if align_corners else 'half_pixel'
        nearest_mode = 'floor'
    else:
        if align_corners:
            coordinates = 'align_corners'
        else:
            coordinates = 'half_pixel' if align_mode == 0 else 'asymmetric'
        nearest_mode = 'floor'
    return {'mode': mode, 'spatial': spatial, 'layout': layout, 'coordinate_transformation_mode': coordinates,
            'nearest_mode': nearest_mode, 'v1': v1, 'scales_attr': scales, 'sizes_attr': out_sizes[3 - spatial:]}


class PaddleInterpolateExtractor(FrontExtractorOp):
    """nearest/bilinear/bicubic/linear/trilinear_interp(_v2) -> PaddleInterpolate (then Interpolate-11)."""
    op = [name + suffix for name in _KINDS for suffix in ('', '_v2')]
    framework = 'paddle'

    @classmethod
    def describe(cls, op):
        return 'Interpolate (opset11)'

    @classmethod
    def extract(cls, node):
        node.attrs().update(interp_attrs(node))
        node['paddle_op'] = node['op']
        node['op'] = 'PaddleInterpolate'
        return True
