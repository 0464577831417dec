"""Cases for ops OpenVINO's Paddle front end maps that mo lacked (``test_paddle_more_ops.py``): eye (sizes as
attributes or PIR's tensors, float and int64), linspace (float and int32), atan2 over every quadrant and axis,
scatter_nd_add with a repeated index."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global Eye, Linspace, Atan2, ScatterNdAdd
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

    class ScatterNdAdd(paddle.nn.Layer):
        def forward(self, x, index, updates):
            return paddle.scatter_nd_add(x, index, updates)


def _x(*shape):
    return (np.random.rand(*shape).astype(np.float32) - 0.5) * 4


CASES = {
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
