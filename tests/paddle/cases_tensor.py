"""Cases for set_value and nonzero (``test_paddle_tensor_ops.py``): slice assignment as ``paddle.jit.to_static``
writes it, of a scalar and of a tensor, with steps, negative bounds and a dropped axis; ``paddle.nonzero``."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global SetScalar, SetTensor, SetStep, SetDropped, SetDynamic, NonZeroOf
    import paddle

    class SetScalar(paddle.nn.Layer):
        def forward(self, x):
            y = x * 1.0
            y[:, 1:3] = 5.0
            return y

    class SetTensor(paddle.nn.Layer):
        def forward(self, x, v):
            y = x + 0.0
            y[0, :, 2:] = v
            return y

    class SetStep(paddle.nn.Layer):
        def forward(self, x):
            y = x - 1.0
            y[::2, -3:-1] = -7.0
            return y

    class SetDropped(paddle.nn.Layer):
        def forward(self, x, v):
            y = x * 2.0
            y[:, 1] = v
            return y

    class SetDynamic(paddle.nn.Layer):
        """Bounds computed from the input's shape: the starts/ends as tensors."""
        def forward(self, x):
            y = x * 1.0
            n = paddle.shape(x)[1]
            y[:, n - 2:n] = 3.0
            return y


    class NonZeroOf(paddle.nn.Layer):
        """Coordinates of a float tensor's non-zero elements and of a comparison's true ones."""
        def forward(self, x):
            return paddle.nonzero(x), paddle.nonzero(x > 0.5)


def _x(*shape):
    return np.random.rand(*shape).astype(np.float32)


CASES = {
    'set_value_scalar': lambda: (SetScalar(), [('x', [2, 5], 'float32')], [_x(2, 5)]),
    'set_value_tensor': lambda: (SetTensor(), [('x', [2, 3, 4], 'float32'), ('v', [3, 2], 'float32')],
                                 [_x(2, 3, 4), _x(3, 2)]),
    'set_value_step_negative': lambda: (SetStep(), [('x', [5, 6], 'float32')], [_x(5, 6)]),
    'set_value_dropped_axis': lambda: (SetDropped(), [('x', [3, 4], 'float32'), ('v', [3], 'float32')],
                                       [_x(3, 4), _x(3)]),
    'nonzero': lambda: (NonZeroOf(), [('x', [3, 4, 2], 'float32')],
                        [np.where(np.random.rand(3, 4, 2) > 0.4, np.random.rand(3, 4, 2), 0).astype(np.float32)]),
    'set_value_dynamic': lambda: (SetDynamic(), [('x', [2, -1], 'float32')], [_x(2, 6)]),
}
