"""Cases for channels-last convolutions and pools (``test_paddle_layout.py``): ``data_format='NHWC'`` Conv2D
(plain, grouped, depthwise, SAME padding, dilated), Conv2DTranspose (with output_size), and max, average,
global and adaptive pools, each beside an NCHW op so both layouts meet in one program."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global ConvNHWC, DepthwiseNHWC, DeconvNHWC, PoolNHWC
    import paddle
    nn = paddle.nn

    class ConvNHWC(nn.Layer):
        def __init__(self, **conv):
            super().__init__()
            self.conv = nn.Conv2D(4, 8, data_format='NHWC', **conv)
            self.nchw = nn.Conv2D(8, 3, 1)

        def forward(self, x):
            y = paddle.nn.functional.relu(self.conv(x))
            return y, self.nchw(paddle.transpose(y, [0, 3, 1, 2]))

    class DepthwiseNHWC(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(4, 4, 3, padding=1, groups=4, data_format='NHWC')

        def forward(self, x):
            return self.conv(x)

    class DeconvNHWC(nn.Layer):
        def __init__(self, output_size=None, **conv):
            super().__init__()
            self.deconv = nn.Conv2DTranspose(4, 6, data_format='NHWC', **conv)
            self.output_size = output_size

        def forward(self, x):
            return self.deconv(x, output_size=self.output_size)

    class PoolNHWC(nn.Layer):
        def forward(self, x):
            f = paddle.nn.functional
            return (f.max_pool2d(x, 3, 2, padding=1, data_format='NHWC'),
                    f.avg_pool2d(x, 2, 2, ceil_mode=True, exclusive=False, data_format='NHWC'),
                    f.adaptive_avg_pool2d(x, 1, data_format='NHWC'),
                    f.adaptive_avg_pool2d(x, [2, 3], data_format='NHWC'))


def _x(*shape):
    return np.random.randn(*shape).astype(np.float32)


def _conv(**conv):
    return lambda: (ConvNHWC(**conv), [('x', [2, 9, 11, 4], 'float32')], [_x(2, 9, 11, 4)])


CASES = {
    'conv_nhwc': _conv(kernel_size=3, padding=1, stride=2),
    'conv_nhwc_grouped_same': _conv(kernel_size=3, padding='SAME', groups=2),
    'conv_nhwc_dilated_pads': _conv(kernel_size=[3, 2], padding=[1, 2, 0, 1], dilation=2),
    'conv_nhwc_dynamic': lambda: (ConvNHWC(kernel_size=3, padding=1), [('x', [-1, -1, -1, 4], 'float32')],
                                  [_x(3, 7, 6, 4)]),
    'depthwise_nhwc': lambda: (DepthwiseNHWC(), [('x', [2, 8, 8, 4], 'float32')], [_x(2, 8, 8, 4)]),
    'deconv_nhwc': lambda: (DeconvNHWC(kernel_size=3, stride=2, padding=1), [('x', [2, 5, 6, 4], 'float32')],
                            [_x(2, 5, 6, 4)]),
    'deconv_nhwc_output_size': lambda: (DeconvNHWC(output_size=[10, 12], kernel_size=3, stride=2, padding=1),
                                        [('x', [2, 5, 6, 4], 'float32')], [_x(2, 5, 6, 4)]),
    'pool_nhwc': lambda: (PoolNHWC(), [('x', [2, 9, 8, 3], 'float32')], [_x(2, 9, 8, 3)]),
}
