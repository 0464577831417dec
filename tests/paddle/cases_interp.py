"""Cases for the interpolate family (``test_paddle_interp.py``): ``paddle.nn.functional.interpolate`` in each
mode, with align_corners/align_mode, scale vs size vs size tensors vs a scale tensor, and both layouts."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global Interp, SizeFromShape, SizeTensor, ScaleTensor
    import paddle
    import paddle.nn.functional as F

    class Interp(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = kwargs

        def forward(self, x):
            return F.interpolate(x, **self.kwargs)

    class SizeFromShape(paddle.nn.Layer):
        """The size from the input's own (dynamic) height: a SizeTensor of a computed and a constant dimension."""
        def __init__(self, mode, **kwargs):
            super().__init__()
            self.mode, self.kwargs = mode, kwargs

        def forward(self, x):
            return F.interpolate(x, size=[paddle.shape(x)[2] * 2 - 1, 9], mode=self.mode, **self.kwargs)

    class SizeTensor(paddle.nn.Layer):
        """The size as one int32 tensor input (OutSize)."""
        def __init__(self, mode, **kwargs):
            super().__init__()
            self.mode, self.kwargs = mode, kwargs

        def forward(self, x, size):
            return F.interpolate(x, size=size, mode=self.mode, **self.kwargs)

    class ScaleTensor(paddle.nn.Layer):
        """The scale as a float tensor input (Scale)."""
        def __init__(self, mode, **kwargs):
            super().__init__()
            self.mode, self.kwargs = mode, kwargs

        def forward(self, x, scale):
            return F.interpolate(x, scale_factor=scale, mode=self.mode, **self.kwargs)


def _x(*shape):
    return np.random.rand(*shape).astype(np.float32)


def _image(layer, shape=(2, 3, 5, 7), dynamic=False):
    spec = [-1, shape[1], -1, -1] if dynamic else list(shape)
    return lambda: (layer(), [('x', spec, 'float32')], [_x(*shape)])


CASES = {}
for mode in ('nearest', 'bilinear', 'bicubic'):
    corners = (False, True) if mode != 'nearest' else (False,)
    for align_corners in corners:
        tag = '{}_ac{}'.format(mode, int(align_corners))
        CASES[tag + '_scale2'] = _image(lambda m=mode, a=align_corners: Interp(scale_factor=2, mode=m,
                                                                                align_corners=a))
        CASES[tag + '_scale_frac'] = _image(lambda m=mode, a=align_corners: Interp(scale_factor=[1.7, 0.6], mode=m,
                                                                                    align_corners=a))
        CASES[tag + '_size'] = _image(lambda m=mode, a=align_corners: Interp(size=[9, 4], mode=m, align_corners=a))
        CASES[tag + '_size_dynamic'] = _image(lambda m=mode, a=align_corners: SizeFromShape(m, align_corners=a),
                                              dynamic=True)
# an output size of 1: Paddle's ratio is 0 there (the first row), not half_pixel's centre
CASES['bilinear_size_one'] = _image(lambda: Interp(size=[1, 4], mode='bilinear'))
CASES['bicubic_size_one'] = _image(lambda: Interp(size=[6, 1], mode='bicubic'))
CASES['bilinear_am1_scale2'] = _image(lambda: Interp(scale_factor=2, mode='bilinear', align_mode=1))
CASES['bilinear_am1_size'] = _image(lambda: Interp(size=[11, 3], mode='bilinear', align_mode=1))
CASES['bilinear_nhwc'] = lambda: (Interp(size=[8, 10], mode='bilinear', data_format='NHWC'),
                                  [('x', [1, 5, 7, 3], 'float32')], [_x(1, 5, 7, 3)])
CASES['nearest_nhwc_scale'] = lambda: (Interp(scale_factor=3, mode='nearest', data_format='NHWC'),
                                       [('x', [1, 5, 7, 3], 'float32')], [_x(1, 5, 7, 3)])
CASES['bilinear_out_size'] = lambda: (SizeTensor('bilinear'), [('x', [1, 2, 6, 4], 'float32'),
                                                              ('size', [2], 'int32')],
                                      [_x(1, 2, 6, 4), np.array([9, 13], np.int32)])
CASES['nearest_scale_tensor'] = lambda: (ScaleTensor('nearest'), [('x', [1, 2, 6, 4], 'float32'),
                                                                 ('scale', [2], 'float32')],
                                         [_x(1, 2, 6, 4), np.array([2.0, 3.0], np.float32)])
CASES['linear_ac0'] = lambda: (Interp(scale_factor=2.5, mode='linear'), [('x', [2, 3, 6], 'float32')], [_x(2, 3, 6)])
CASES['linear_ac1'] = lambda: (Interp(size=[11], mode='linear', align_corners=True),
                               [('x', [2, 3, 6], 'float32')], [_x(2, 3, 6)])
CASES['linear_am1'] = lambda: (Interp(size=[4], mode='linear', align_mode=1),
                               [('x', [2, 3, 6], 'float32')], [_x(2, 3, 6)])
CASES['trilinear_ac0'] = lambda: (Interp(scale_factor=2, mode='trilinear'), [('x', [1, 2, 3, 4, 5], 'float32')],
                                  [_x(1, 2, 3, 4, 5)])
CASES['trilinear_ac1'] = lambda: (Interp(size=[5, 3, 8], mode='trilinear', align_corners=True),
                                  [('x', [1, 2, 3, 4, 5], 'float32')], [_x(1, 2, 3, 4, 5)])
CASES['nearest_3d'] = lambda: (Interp(size=[5, 7, 3], mode='nearest'), [('x', [1, 2, 3, 4, 5], 'float32')],
                               [_x(1, 2, 3, 4, 5)])
