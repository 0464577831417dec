"""Cases for control flow (``test_paddle_control_flow.py``): ``if``/``else`` on a tensor and ``while`` loops
through ``paddle.jit.to_static`` (PIR ``if``/``while`` regions; classic ``conditional_block`` +
``select_input`` and ``while`` from Paddle 2.6)."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global IfElse, IfOnInput, IfTwoOutputs, WhileCount, WhileInIf, IfInWhile
    import paddle

    class IfElse(paddle.nn.Layer):
        """A branch with its own weights, the other reading an outer value."""
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)
            self.fc2 = paddle.nn.Linear(4, 4)

        def forward(self, x):
            y = self.fc(x)
            if paddle.mean(y) > 0:
                out = self.fc2(y) * 2.0
            else:
                out = y - x
            return out

    class IfOnInput(paddle.nn.Layer):
        """The condition a fed tensor of one element; each branch reads other fed values."""
        def forward(self, x, s):
            if s > 0:
                out = x * s
            else:
                out = x + 3.0
            return out

    class IfTwoOutputs(paddle.nn.Layer):
        def forward(self, x, t):
            if paddle.sum(t) > 1.0:
                a, c = x + 1.0, x * x
            else:
                a, c = x - 1.0, x * 3.0
            return a, c

    class WhileCount(paddle.nn.Layer):
        """A loop of a data-dependent count, a loop-carried tensor and a read-only one."""
        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            acc = paddle.zeros_like(x)
            while i < n:
                acc = acc * 0.5 + x
                i = i + 1
            return acc, i

    class WhileInIf(paddle.nn.Layer):
        def forward(self, x, n):
            if paddle.mean(x) > 0.5:
                i = paddle.zeros([1], dtype='int64')
                y = x
                while i < n:
                    y = y + 1.0
                    i = i + 1
            else:
                y = x * 2.0
            return y

    class IfInWhile(paddle.nn.Layer):
        """An if on the loop variable inside a loop, its branches reading a value from outside the loop."""
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 3)

        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            y = x
            z = self.fc(x)
            while i < n:
                if paddle.mean(y) > 2.0:
                    y = y - z
                else:
                    y = y + 1.0
                i = i + 1
            return y


def _x(*shape):
    return np.random.rand(*shape).astype(np.float32)


CASES = {
    'if_true': lambda: (IfElse(), [('x', [2, 4], 'float32')], [_x(2, 4) + 1.0]),
    'if_false': lambda: (IfElse(), [('x', [2, 4], 'float32')], [_x(2, 4) - 5.0]),
    'if_input_true': lambda: (IfOnInput(), [('x', [2, 3], 'float32'), ('s', [1], 'float32')],
                              [_x(2, 3), np.array([0.7], np.float32)]),
    'if_input_false': lambda: (IfOnInput(), [('x', [2, 3], 'float32'), ('s', [1], 'float32')],
                               [_x(2, 3), np.array([-0.7], np.float32)]),
    'if_two_outputs': lambda: (IfTwoOutputs(), [('x', [3], 'float32'), ('t', [2], 'float32')],
                               [_x(3), np.array([0.2, 0.3], np.float32)]),
    'while_3': lambda: (WhileCount(), [('x', [2, 3], 'float32'), ('n', [1], 'int64')],
                        [_x(2, 3), np.array([3], np.int64)]),
    'while_0': lambda: (WhileCount(), [('x', [2, 3], 'float32'), ('n', [1], 'int64')],
                        [_x(2, 3), np.array([0], np.int64)]),
    'while_in_if': lambda: (WhileInIf(), [('x', [2, 2], 'float32'), ('n', [1], 'int64')],
                            [_x(2, 2) + 0.5, np.array([4], np.int64)]),
    'if_in_while': lambda: (IfInWhile(), [('x', [2, 3], 'float32'), ('n', [1], 'int64')],
                            [_x(2, 3), np.array([5], np.int64)]),
}
