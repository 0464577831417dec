"""Harness cases for control flow and the containers loops use: While/StatelessWhile -> Loop,
If/StatelessIf and Case/StatelessCase -> If, tensor lists and TF1 TensorArrays as dense tensors,
ReverseSequence, Assert. Frozen with ``lower_control_flow=False`` (While/If nodes with bodies in the
function library); the lowered forms are covered by tests/control_flow."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

#: a captured variable makes TF write the stateful While/If/Case (frozen to a constant afterwards)
_SCALE = tf.Variable(np.float32(0.5), name='scale')


def _n(values):
    """An int32 scalar input fed with each of ``values`` in turn (one run per value)."""
    return In((), np.int32, run=[()] * len(values),
              values=lambda rng, shape, it=iter(values * 1000): np.array(next(it), np.int32))


def _while(stateful, trip):
    def fn(x, n):
        def body(i, acc):
            step = acc * (_SCALE if stateful else 0.5) + tf.sin(acc)
            return i + 1, step
        cap = 2 if trip == 'capped' else None  # maximum_iterations: a loop variable cond also checks
        return tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), x], maximum_iterations=cap)[1]
    return OpCase('', fn, [In((None, 3), run=[(2, 3), (4, 3)]), _n([0, 5])], lower_control_flow=False)


def _list_length():
    def fn(x):
        handle = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=[4])
        return tf.raw_ops.TensorListLength(input_handle=handle) * 2
    return OpCase('', fn, [In((None, 4), run=[(3, 4), (5, 4)])])


def _cond(stateful):
    def fn(x, p):
        scale = _SCALE if stateful else 2.0
        return tf.cond(p > 0, lambda: x * scale, lambda: tf.concat([x, -x], axis=0)[:2] - 1.0)
    return OpCase('', fn, [In((2, 3), run=[(2, 3)] * 2), _n([1, -1])], lower_control_flow=False)


def _case(op):
    """tf.switch_case is always lowered by freezing: the raw op keeps Case (an index out of range runs
    the last branch)."""
    spec = tf.TensorSpec([2, 3], tf.float32)
    branches = [tf.function(f, autograph=False).get_concrete_function(spec)
                for f in (lambda x: [x + 1.0], lambda x: [x * 3.0], lambda x: [-x])]

    def fn(x, k):
        return getattr(tf.raw_ops, op)(branch_index=k, input=[x], Tout=[tf.float32], branches=branches)[0]
    return OpCase('', fn, [In((2, 3), run=[(2, 3)] * 5), _n([0, 1, 2, 5, -1])], lower_control_flow=False)


def _tensor_list(read):
    def fn(x):
        steps = tf.shape(x)[0]
        inputs = tf.TensorArray(tf.float32, size=steps).unstack(x)
        outputs = tf.TensorArray(tf.float32, size=steps, element_shape=[None] if read else None)

        def body(t, state, out):
            item = inputs.read(t)
            state = tf.tanh(item + state)
            return t + 1, state, out.write(t, state * 2.0)
        _, last, out = tf.while_loop(lambda t, *_: t < inputs.size(), body, [0, tf.zeros_like(x[0]), outputs])
        return out.stack(), last
    return OpCase('', fn, [In((None, 4), run=[(3, 4), (6, 4)])], lower_control_flow=False)


def _tensor_array_v3():
    def fn(x):
        handle, flow = tf.raw_ops.TensorArrayV3(size=3, dtype=tf.float32, element_shape=[2], clear_after_read=False)
        flow = tf.raw_ops.TensorArrayScatterV3(handle=handle, indices=[2, 0], value=x, flow_in=flow)
        flow = tf.raw_ops.TensorArrayWriteV3(handle=handle, index=1, value=x[0] * 10.0, flow_in=flow)
        read = tf.raw_ops.TensorArrayReadV3(handle=handle, index=2, flow_in=flow, dtype=tf.float32)
        gathered = tf.raw_ops.TensorArrayGatherV3(handle=handle, indices=[1, 2], flow_in=flow, dtype=tf.float32)
        size = tf.raw_ops.TensorArraySizeV3(handle=handle, flow_in=flow)
        return read, gathered, size
    return OpCase('', fn, [In((2, 2))])


def _tensor_array_close():
    """A TensorArray closed once read: the close orders the output after it, and computes nothing."""
    def fn(x):
        handle, flow = tf.raw_ops.TensorArrayV3(size=2, dtype=tf.float32, element_shape=[3])
        flow = tf.raw_ops.TensorArrayWriteV3(handle=handle, index=1, value=x, flow_in=flow)
        read = tf.raw_ops.TensorArrayReadV3(handle=handle, index=1, flow_in=flow, dtype=tf.float32)
        with tf.control_dependencies([tf.raw_ops.TensorArrayCloseV3(handle=handle)]):
            return tf.identity(read * 3.0)
    return OpCase('', fn, [In((3,))])


def _reverse_sequence(axes):
    seq_axis, batch_axis = axes
    def fn(x, lengths):
        return tf.reverse_sequence(x, lengths, seq_axis=seq_axis, batch_axis=batch_axis)
    return OpCase('', fn, [In((3, 4, 2)), In((3 if batch_axis == 0 else 2,), np.int32, low=0, high=4)])


def _assert():
    def fn(x):
        with tf.control_dependencies([tf.debugging.assert_all_finite(x, 'finite')]):
            checked = tf.identity(x)
        tf.debugging.Assert(tf.reduce_all(x > -100.0), [x])
        return checked * 2.0
    return OpCase('', fn, [In((2, 3))])


def _body_constants(form, after):
    """Bodies whose constants nothing outside them reads (issue 26): the predicate and loop condition are
    computed from inputs alone, so the body's constants are the first the IR's ``.bin`` stores; ``after``
    adds a main-graph constant read only after the If or Loop (laid out after the bodies' weights)."""
    def fn(x, p):
        if form == 'If':
            y = tf.cond(p, lambda: x * 3.0, lambda: x - 7.0)
        else:  # the counter starts at the input p: no constant of the main graph feeds the loop
            y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0 + 1.0), [p, x])[1]
        return y * np.float32(5.0) if after else y
    predicate = In((), np.bool_, run=[()] * 2, values=lambda rng, shape, it=iter([True, False] * 1000): np.array(next(it)))
    counter = In((), np.int32, run=[()] * 2, values=lambda rng, shape, it=iter([0, 2] * 1000): np.array(next(it), np.int32))
    return OpCase('', fn, [In((2, 3), run=[(2, 3)] * 2), predicate if form == 'If' else counter],
                  lower_control_flow=False)


def _guarded_cond(guard, lowered):
    """A tf.cond whose branch checks its input with a ``tf.debugging.assert_*`` or rotates it with rot90 (whose
    Assert guard is a tf.cond of its own), beside outputs outside it: four outputs, and the IR's must be exactly
    those (issue 26: the guard's constant was a fifth)."""
    def fn(x, p):
        def then():
            if guard == 'assert':
                tf.debugging.assert_non_negative(tf.abs(x))
                tf.debugging.assert_less(x, x + 1.0)
                return x * 2.0, x + 1.0
            return tf.image.rot90(x, 1), x + 1.0
        a, b = tf.cond(p, then, lambda: (x - 1.0, x * 3.0))
        return a, b, x * 5.0, tf.image.rot90(x, 3)
    predicate = In((), np.bool_, run=[()] * 2, values=lambda rng, shape, it=iter([True, False] * 1000): np.array(next(it)))
    return OpCase('', fn, [In((2, 4, 4, 3), run=[(2, 4, 4, 3)] * 2), predicate], lower_control_flow=lowered)


register(
    grid('base/guarded_cond', _guarded_cond, guard=['assert', 'rot90'], lowered=[True, False])
    + grid('base/BodyConstants', _body_constants, form=['If', 'Loop'], after=[False, True])
    + grid('base/While', _while, stateful=[False, True], trip=['input', 'capped'])
    + grid('base/If', _cond, stateful=[False, True])
    + grid('base/Case', _case, op=['Case', 'StatelessCase'])
    + [OpCase('base/TensorListLength', _list_length().fn, _list_length().inputs)]
    + grid('base/TensorList', _tensor_list, read=[False, True])
    + [OpCase('base/TensorArrayV3', _tensor_array_v3().fn, _tensor_array_v3().inputs)]
    + [OpCase('base/TensorArrayCloseV3', _tensor_array_close().fn, _tensor_array_close().inputs)]
    + grid('base/ReverseSequence', _reverse_sequence, axes=[(1, 0), (0, 2), (1, 2)])
    + [OpCase('base/Assert', _assert().fn, _assert().inputs)]
)
