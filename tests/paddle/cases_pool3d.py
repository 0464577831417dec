"""Cases for Paddle's 3-D pools and the partial ops (``test_paddle_pool3d.py``): pool3d and max_pool3d_with_index
in NCDHW and NDHWC, max and average, explicit (symmetric and per-side) paddings, the SAME and VALID algorithms,
ceil_mode, exclusive on and off, adaptive and global pooling, and the Mask of max_pool3d_with_index (Paddle's index
of each maximum within its channel's D*H*W); max_pool2d_with_index's Mask the same way in 2-D. (partial_concat and
partial_sum, which Paddle 3 cannot export, are a Paddle 2.6 fixture: ``tools/make_paddle_op_fixtures.py``.)"""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global Pool
    import paddle
    functional = paddle.nn.functional

    class Pool(paddle.nn.Layer):
        """``functional.<name>(x, **kwargs)``; with ``return_mask`` the values and the mask."""
        def __init__(self, name, **kwargs):
            super().__init__()
            self.pool, self.kwargs = getattr(functional, name), kwargs

        def forward(self, x):
            result = self.pool(x, **self.kwargs)
            return tuple(result) if isinstance(result, (tuple, list)) else result


def _x(*shape):
    return (np.random.rand(*shape).astype(np.float32) - 0.5) * 4


def _pool(name, shape=(2, 3, 5, 6, 7), **kwargs):
    return lambda: (Pool(name, **kwargs), [('x', list(shape), 'float32')], [_x(*shape)])


CASES = {
    'max_pool3d': _pool('max_pool3d', kernel_size=3, stride=2, padding=1),
    'max_pool3d_ceil_pads': _pool('max_pool3d', kernel_size=(2, 3, 2), stride=(2, 2, 3),
                                  padding=[1, 0, 0, 1, 1, 1], ceil_mode=True),
    'max_pool3d_same_ndhwc': _pool('max_pool3d', shape=(2, 5, 6, 7, 3), kernel_size=3, stride=2, padding='SAME',
                                   data_format='NDHWC'),
    'max_pool3d_valid': _pool('max_pool3d', kernel_size=2, stride=(1, 2, 2), padding='VALID'),
    'max_pool3d_mask': _pool('max_pool3d', kernel_size=3, stride=2, padding=1, return_mask=True),
    'max_pool3d_mask_ceil': _pool('max_pool3d', kernel_size=(2, 2, 3), stride=2, padding=[0, 1, 1],
                                  ceil_mode=True, return_mask=True),
    'avg_pool3d': _pool('avg_pool3d', kernel_size=3, stride=2, padding=1),
    'avg_pool3d_inclusive_ceil': _pool('avg_pool3d', kernel_size=(3, 2, 2), stride=2, padding=[1, 1, 0],
                                       exclusive=False, ceil_mode=True),
    'avg_pool3d_inclusive_ceil_ndhwc': _pool('avg_pool3d', shape=(2, 5, 6, 7, 3), kernel_size=2, stride=2, padding=0,
                                             exclusive=False, ceil_mode=True, data_format='NDHWC'),
    'avg_pool2d_inclusive_ceil': _pool('avg_pool2d', shape=(2, 3, 7, 8), kernel_size=3, stride=2, padding=[1, 0],
                                       exclusive=False, ceil_mode=True),
    'avg_pool3d_same_ndhwc': _pool('avg_pool3d', shape=(2, 5, 6, 7, 3), kernel_size=(2, 3, 3), stride=2,
                                   padding='SAME', data_format='NDHWC'),
    'avg_pool3d_pads_ndhwc': _pool('avg_pool3d', shape=(2, 5, 6, 7, 3), kernel_size=2, stride=2,
                                   padding=[[0, 0], [1, 0], [0, 1], [1, 1], [0, 0]], data_format='NDHWC'),
    'adaptive_avg_pool3d': _pool('adaptive_avg_pool3d', output_size=(2, 3, 4)),
    'adaptive_avg_pool3d_ndhwc': _pool('adaptive_avg_pool3d', shape=(2, 5, 6, 7, 3), output_size=(3, 2, 2),
                                       data_format='NDHWC'),
    'global_avg_pool3d': _pool('adaptive_avg_pool3d', output_size=1),
    'adaptive_max_pool3d': _pool('adaptive_max_pool3d', output_size=(2, 3, 4)),
    'adaptive_max_pool3d_mask': _pool('adaptive_max_pool3d', output_size=(3, 2, 3), return_mask=True),
    'global_max_pool3d_mask': _pool('adaptive_max_pool3d', output_size=1, return_mask=True),
    'max_pool2d_mask': _pool('max_pool2d', shape=(2, 3, 7, 8), kernel_size=3, stride=2, padding=1,
                             return_mask=True),
    'adaptive_max_pool2d_mask': _pool('adaptive_max_pool2d', shape=(2, 3, 7, 8), output_size=(3, 4),
                                      return_mask=True),
}

