"""Cases for tensor arrays (``test_paddle_arrays.py``): a ``while`` loop of ``paddle.jit.to_static`` appending to a
Python list (a tensor array: classic ``write_to_array``/``lod_array_length`` in the loop's sub-block, PIR
``create_array``/``array_write_``/``array_length``), then stacking or concatenating it (``tensor_array_to_tensor``
/ ``array_to_tensor``), taking its length or reading an element of it."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global StackConcat, Decoder, LengthAndLast, TwoLists, SliceAfter, StaticWrites, ReadInLoop, FilledBeforeLoop, ComputedIndex
    import paddle

    class StackConcat(paddle.nn.Layer):
        """One list stacked on a new axis and concatenated on another, the loop count fed."""
        def __init__(self, stack_axis=0, concat_axis=0):
            super().__init__()
            self.stack_axis, self.concat_axis = stack_axis, concat_axis

        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            outs = []
            y = x
            while i < n:
                y = y * 0.5 + 1.0
                outs.append(y)
                i = i + 1
            return paddle.stack(outs, axis=self.stack_axis), paddle.concat(outs, axis=self.concat_axis)

    class Decoder(paddle.nn.Layer):
        """A recurrent decoder of a data-dependent length: each step's logits appended, then stacked."""
        def __init__(self):
            super().__init__()
            self.cell = paddle.nn.GRUCell(4, 6)
            self.head = paddle.nn.Linear(6, 4)

        def forward(self, x, steps):
            h = paddle.zeros([x.shape[0], 6], dtype='float32')
            inp = x
            logits = []
            i = paddle.zeros([1], dtype='int64')
            while i < steps:  # no name first assigned in the loop: to_static would make it a loop variable
                h = self.cell(inp, h)[1]
                logits.append(self.head(h))
                inp = paddle.nn.functional.softmax(self.head(h), axis=-1)
                i = i + 1
            return paddle.stack(logits, axis=1)

    class LengthAndLast(paddle.nn.Layer):
        """The list's length and one of its elements, read after the loop."""
        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            outs = []
            while i < n:
                outs.append(x * paddle.cast(i + 1, 'float32'))
                i = i + 1
            return paddle.concat(outs, axis=1), paddle.to_tensor(len(outs)), outs[1], outs[-1]

    class TwoLists(paddle.nn.Layer):
        """Two lists filled by one loop, of different element shapes."""
        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            a, b = [], []
            y = x
            while i < n:
                y = paddle.tanh(y) + 0.1
                a.append(y)
                b.append(paddle.sum(y, axis=1))
                i = i + 1
            return paddle.stack(a, axis=0), paddle.stack(b, axis=1)


    class SliceAfter(paddle.nn.Layer):
        """A slice of the list after the loop (classic slice of the array, PIR slice_array), stacked."""
        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            outs = []
            while i < n:
                outs.append(x + paddle.cast(i, 'float32'))
                i = i + 1
            return paddle.stack(outs[1:3], axis=0)

    class StaticWrites(paddle.nn.Layer):
        """An array written at constant indexes outside loops (an append, another, an overwrite), then read,
        measured and concatenated."""
        def __init__(self, out_index=False):
            super().__init__()
            self.out_index = out_index

        def forward(self, x):
            arr = paddle.tensor.create_array('float32')
            first, second = paddle.zeros([1], 'int64'), paddle.ones([1], 'int64')
            arr = paddle.tensor.array_write(x, first, array=arr)
            arr = paddle.tensor.array_write(x * 2.0, second, array=arr)
            arr = paddle.tensor.array_write(x + 1.0, first, array=arr)
            joined, index = paddle.tensor.manipulation.tensor_array_to_tensor(arr, axis=1, use_stack=False)
            outputs = [paddle.tensor.array_read(arr, second), paddle.tensor.array_length(arr), joined]
            return outputs + [index] if self.out_index else outputs

    class ReadInLoop(paddle.nn.Layer):
        """Reads the list inside the loop that appends to it: no scan output; mo refuses it."""
        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            outs = []
            y = x
            while i < n:
                outs.append(y)
                y = outs[-1] * 0.5
                i = i + 1
            return paddle.stack(outs, axis=0)

    class FilledBeforeLoop(paddle.nn.Layer):
        """A list with an element before the loop appends to it: mo refuses it (the scan starts empty)."""
        def forward(self, x, n):
            i = paddle.zeros([1], dtype='int64')
            outs = [x]
            y = x
            while i < n:
                y = y * 0.5
                outs.append(y)
                i = i + 1
            return paddle.stack(outs, axis=0)


    class ComputedIndex(paddle.nn.Layer):
        """A write outside loops at an index computed at run time: mo refuses it."""
        def forward(self, x):
            arr = paddle.tensor.create_array('float32')
            arr = paddle.tensor.array_write(x, paddle.zeros([1], 'int64'), array=arr)
            at = paddle.reshape(paddle.shape(x)[0], [1]) - 1
            arr = paddle.tensor.array_write(x * 2.0, paddle.cast(at, 'int64'), array=arr)
            return paddle.tensor.array_read(arr, paddle.zeros([1], 'int64'))


def _x(*shape):
    return np.random.rand(*shape).astype(np.float32)


def _count(n):
    return np.array([n], np.int64)


_XN = [('x', [2, 3], 'float32'), ('n', [1], 'int64')]

CASES = {
    'array_stack_concat': lambda: (StackConcat(), _XN, [_x(2, 3), _count(4)]),
    'array_stack_concat_once': lambda: (StackConcat(), _XN, [_x(2, 3), _count(1)]),
    'array_stack1_concat1': lambda: (StackConcat(1, 1), _XN, [_x(2, 3), _count(3)]),
    'array_decoder': lambda: (Decoder(), [('x', [-1, 4], 'float32'), ('steps', [1], 'int64')],
                              [_x(3, 4), _count(5)]),
    'array_length_read': lambda: (LengthAndLast(), _XN, [_x(2, 3), _count(3)]),
    'array_two_lists': lambda: (TwoLists(), [('x', [2, -1], 'float32'), ('n', [1], 'int64')],
                                [_x(2, 5), _count(3)]),
    'array_slice_after_loop': lambda: (SliceAfter(), _XN, [_x(2, 3), _count(4)]),
    'array_static_writes': lambda: (StaticWrites(), [('x', [2, 3], 'float32')], [_x(2, 3)]),
    'array_static_out_index': lambda: (StaticWrites(out_index=True), [('x', [2, 3], 'float32')], [_x(2, 3)]),
}

#: PIR only: Paddle 2.6 Inference cannot fetch tensor_array_to_tensor's OutIndex ("holder_ should not be null")
PIR_ONLY = {'array_static_out_index'}

#: cases mo refuses with one error (``test_paddle_arrays.py``), exported only by name
CASES_REFUSED = {
    'array_read_in_loop': lambda: (ReadInLoop(), _XN, [_x(2, 3), _count(3)]),
    'array_filled_before_loop': lambda: (FilledBeforeLoop(), _XN, [_x(2, 3), _count(3)]),
    'array_computed_index': lambda: (ComputedIndex(), [('x', [-1, 3], 'float32')], [_x(2, 3)]),
}
