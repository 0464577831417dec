"""Cases for ops OpenVINO's Paddle front end maps that mo lacked (``test_paddle_more_ops.py``): eye (sizes as
attributes or PIR's tensors, float and int64), linspace (float and int32), atan2 over every quadrant and axis,
scatter_nd_add with a repeated index, unique (flattened and along an axis), grid_sample's modes, padding modes and corner alignments."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global Eye, Linspace, Atan2, ScatterNdAdd, GridSample, Flip, UniqueOf
    import paddle

    class Eye(paddle.nn.Layer):
        def forward(self, x):
            return x + paddle.eye(3, 4), paddle.eye(2, dtype='int64')

    class Linspace(paddle.nn.Layer):
        def forward(self, x):
            return x * paddle.linspace(-1.0, 2.0, 5), paddle.linspace(0, 10, 4, dtype='int32')

    class Atan2(paddle.nn.Layer):
        def forward(self, y, x):
            return paddle.atan2(y, x)

    class GridSample(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = kwargs

        def forward(self, x, grid):
            return paddle.nn.functional.grid_sample(x, grid, **self.kwargs)

    class Flip(paddle.nn.Layer):
        """flip, which test_paddle_more_ops renames reverse (the op older Paddles wrote for it)."""
        def forward(self, x):
            return paddle.flip(x, [0, 2])

    class UniqueOf(paddle.nn.Layer):
        """Distinct values (sorted) with first indices, inverse and counts; flattened, and along an axis."""
        def forward(self, x):
            flat = paddle.unique(x, return_index=True, return_inverse=True, return_counts=True)
            rows = paddle.unique(x, return_inverse=True, axis=0, dtype='int32')
            return flat + rows

    class ScatterNdAdd(paddle.nn.Layer):
        def forward(self, x, index, updates):
            return paddle.scatter_nd_add(x, index, updates)


def _x(*shape):
    return (np.random.rand(*shape).astype(np.float32) - 0.5) * 4


def _grid(**kwargs):
    # points inside and outside [-1, 1]: the padding mode decides the latter
    return lambda: (GridSample(**kwargs), [('x', [2, 3, 5, 6], 'float32'), ('grid', [2, 4, 7, 2], 'float32')],
                    [_x(2, 3, 5, 6), (np.random.rand(2, 4, 7, 2).astype(np.float32) - 0.5) * 2.6])


#: cases Paddle 3.3's classic exporter fails on ("must be Value, but got Variable"): their classic programs are
#: Paddle 2.6's, in fixtures/ops_p26 (tools/make_paddle_op_fixtures.py)
CLASSIC_FROM_P26 = ('grid_sample', 'grid_sample_unaligned_border', 'grid_sample_nearest_reflection',
                    'grid_sample_unaligned_reflection')

CASES = {
    'unique': lambda: (UniqueOf(), [('x', [4, 3], 'int64')],
                       [np.array([[3, 1, 3], [0, 2, 2], [3, 1, 3], [5, 0, 1]], np.int64)]),
    'flip_for_reverse': lambda: (Flip(), [('x', [2, 3, 4], 'float32')], [_x(2, 3, 4)]),
    'grid_sample': _grid(),
    'grid_sample_unaligned_border': _grid(align_corners=False, padding_mode='border'),
    'grid_sample_nearest_reflection': _grid(mode='nearest', padding_mode='reflection'),
    'grid_sample_unaligned_reflection': _grid(align_corners=False, padding_mode='reflection'),
    'eye': lambda: (Eye(), [('x', [3, 4], 'float32')], [_x(3, 4)]),
    'linspace': lambda: (Linspace(), [('x', [2, 5], 'float32')], [_x(2, 5)]),
    # every quadrant, the axes and the origin's neighbourhood
    'atan2': lambda: (Atan2(), [('y', [3, 4], 'float32'), ('x', [3, 4], 'float32')],
                      [np.array([[1, -1, 1, -1], [0, 0, 2, -2], [0.5, -0.5, 0, 0]], np.float32),
                       np.array([[1, 1, -1, -1], [1, -1, 0, 0], [-3, -3, 2, -2]], np.float32)]),
    # a repeated index: its updates add up
    'scatter_nd_add': lambda: (ScatterNdAdd(), [('x', [4, 3], 'float32'), ('index', [3, 1], 'int64'),
                                                ('updates', [3, 3], 'float32')],
                               [_x(4, 3), np.array([[1], [3], [1]], np.int64), _x(3, 3)]),
}
