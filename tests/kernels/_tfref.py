"""Run one op with both TensorFlow (eager ``tf.raw_ops``) and ``mo.front.tf.kernels``, and compare.

The attributes given to ``mo`` are what a GraphDef node would carry: the ones the test sets plus the
type attributes TensorFlow infers from the inputs (``T``, ``N``, ``Tidx``...), as DataType numbers.
bfloat16 tensors are handed to ``mo`` as uint16 bit patterns (how mo stores them) and to
TensorFlow as real bfloat16 tensors.
"""
import inspect
import os

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402
import pytest  # noqa: E402

tf = pytest.importorskip('tensorflow')  # the reference: test-only dependency
from tensorflow.python.framework import op_def_registry  # noqa: E402

from mo.front.tf import dtypes, kernels  # noqa: E402

BF16 = 'bfloat16'
# python keyword names tf.raw_ops uses for attributes whose op-def name differs
_ATTR_RENAMES = {('Squeeze', 'squeeze_dims'): 'axis'}

TOLERANCE = {  # (rtol, atol) per dtype for float results
    np.dtype(np.float16): (2e-3, 1e-3),
    np.dtype(np.float32): (2e-6, 1e-6),
    np.dtype(np.float64): (1e-12, 1e-13),
    np.dtype(np.complex64): (2e-6, 1e-6),
    np.dtype(np.complex128): (1e-12, 1e-13),
}


#: (op, dtype) pairs the op-def allows but TensorFlow has no CPU kernel for: mo is only checked to
#: evaluate them (test_kernels_elementwise.test_combinations_tf_cannot_run)
TF_CPU_GAPS = {
    ('Mod', np.float16), ('Mod', np.int8), ('Mod', np.uint8), ('Mod', np.int16),
    ('TruncateMod', np.float16), ('TruncateMod', np.int8), ('TruncateMod', np.uint8), ('TruncateMod', np.int16),
    ('TruncateDiv', np.float16), ('TruncateDiv', np.float64), ('TruncateDiv', np.int8),
    ('FloorMod', np.int8), ('FloorMod', np.int16), ('Rint', np.float16),
    ('Asin', np.float16), ('Acos', np.float16), ('Atan', np.float16), ('Sinh', np.float16),
    ('Cosh', np.float16), ('Asinh', np.float16), ('Acosh', np.float16), ('Atanh', np.float16),
}


def combos(ops, dtypes_):
    """(op, dtype) parameters TensorFlow can run on CPU."""
    return [(op, dt) for op in ops for dt in dtypes_ if (op, dt) not in TF_CPU_GAPS]


class Bf16(np.ndarray):
    """Marks an array of float values that is a bfloat16 tensor (tests write them as floats)."""


def bf16(values):
    """A bfloat16 test input from float values (rounded to bfloat16)."""
    bits = kernels.float32_to_bf16(np.asarray(values, dtype=np.float32))
    return bits.view(Bf16)


def _to_tf(x):
    if isinstance(x, Bf16):
        return tf.bitcast(tf.constant(np.asarray(x).view(np.uint16)), tf.bfloat16)
    if isinstance(x, (list, tuple)):
        return [_to_tf(v) for v in x]
    x = np.asarray(x)
    if x.dtype == object:
        return tf.constant(x.astype(bytes) if x.size else np.zeros(x.shape, bytes), dtype=tf.string)
    return tf.constant(x)


def _from_tf(t):
    if t.dtype == tf.bfloat16:
        return tf.bitcast(t, tf.uint16).numpy()
    value = t.numpy()
    if t.dtype == tf.string:
        return np.asarray(value, dtype=object).reshape(t.shape)
    return np.asarray(value)


def _tf_dtype_number(x):
    if isinstance(x, Bf16):
        return dtypes.DT_BFLOAT16
    return dtypes.tf_dtype_from_numpy(np.asarray(x).dtype)


def _inferred_attrs(op_def, inputs):
    """The type/number attrs TensorFlow derives from the inputs, as a GraphDef would store them."""
    attrs = {}
    for arg, value in zip(op_def.input_arg, inputs):
        if arg.number_attr:
            attrs[arg.number_attr] = len(value)
            if arg.type_attr and value:
                attrs[arg.type_attr] = _tf_dtype_number(value[0])
        elif arg.type_list_attr:
            attrs[arg.type_list_attr] = [_tf_dtype_number(v) for v in value]
        elif arg.type_attr:
            attrs[arg.type_attr] = _tf_dtype_number(value)
    return attrs


def _group_inputs(op_def, flat):
    """Split the flat input list into one entry per op-def input arg (list args take the rest)."""
    args = list(op_def.input_arg)
    n_lists = sum(1 for a in args if a.number_attr or a.type_list_attr)
    n_list_items = len(flat) - (len(args) - n_lists)
    grouped, pos = [], 0
    for a in args:
        if a.number_attr or a.type_list_attr:
            grouped.append(list(flat[pos:pos + n_list_items]))
            pos += n_list_items
        else:
            grouped.append(flat[pos])
            pos += 1
    return grouped


def run_tf(op, inputs, attrs=None):
    """Evaluate ``op`` eagerly with TensorFlow; returns a list of numpy outputs."""
    op_def = op_def_registry.get(op)
    fn = getattr(tf.raw_ops, op)
    params = list(inspect.signature(fn).parameters)
    grouped = _group_inputs(op_def, inputs)
    kwargs = {name: _to_tf(value) for name, value in zip(params, grouped)}
    type_attrs = {a.name for a in op_def.attr if a.type in ('type', 'list(type)')}
    for name, value in (attrs or {}).items():
        key = _ATTR_RENAMES.get((op, name), name)
        if key not in params:
            continue  # inferred by TensorFlow from the inputs
        if name in type_attrs and isinstance(value, int):
            value = tf.dtypes.as_dtype(value)
        kwargs[key] = value
    result = fn(**kwargs)
    if isinstance(result, (list, tuple)):
        return [_from_tf(t) for t in result]
    return [_from_tf(result)]


def run_mo(op, inputs, attrs=None):
    """Evaluate ``op`` with mo, passing GraphDef-style attrs; checks the inputs are left untouched."""
    op_def = op_def_registry.get(op)
    full = dict(_inferred_attrs(op_def, _group_inputs(op_def, inputs)))
    full.update(attrs or {})
    arrays = [np.asarray(x).view(np.uint16) if isinstance(x, Bf16) else np.asarray(x) for x in inputs]
    before = [a.copy() for a in arrays]
    out = kernels.evaluate(op, full, arrays)
    for a, b in zip(arrays, before):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in 'fc'), \
            '{} modified its input'.format(op)
    return out


def assert_same(op, expected, actual, rtol=None, atol=None, bf16_out=False):
    assert len(expected) == len(actual), '{}: {} outputs from TF, {} from mo'.format(op, len(expected), len(actual))
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert isinstance(a, np.ndarray), '{} output {} is a {}'.format(op, i, type(a))
        assert a.dtype == e.dtype, '{} output {}: dtype {} != TF {}'.format(op, i, a.dtype, e.dtype)
        assert a.shape == e.shape, '{} output {}: shape {} != TF {}'.format(op, i, a.shape, e.shape)
        if bf16_out and e.dtype == np.uint16:
            # compare bfloat16 by value, within one bfloat16 ulp
            ev, av = kernels.bf16_to_float32(e), kernels.bf16_to_float32(a)
            np.testing.assert_allclose(av, ev, rtol=rtol or 8e-3, atol=atol or 1e-6, equal_nan=True,
                                       err_msg='{} output {}'.format(op, i))
        elif e.dtype.kind in 'fc':
            r, t = TOLERANCE[e.dtype]
            np.testing.assert_allclose(a, e, rtol=rtol if rtol is not None else r,
                                       atol=atol if atol is not None else t, equal_nan=True,
                                       err_msg='{} output {}'.format(op, i))
        else:
            assert np.array_equal(a, e), '{} output {}:\nmo {}\nTF {}'.format(op, i, a, e)


def check(op, inputs, attrs=None, rtol=None, atol=None, outputs=None):
    """Assert mo computes what TF computes for ``op`` (same dtype, shape and values).

    ``outputs`` restricts the comparison to those output indices (for outputs TF leaves undefined).
    """
    try:
        expected = run_tf(op, inputs, attrs)
    except (tf.errors.NotFoundError, tf.errors.UnimplementedError):
        run_mo(op, inputs, attrs)  # mo still has to cope
        pytest.skip('TensorFlow has no CPU kernel for {} with these dtypes'.format(op))
    actual = run_mo(op, inputs, attrs)
    bf16_out = any(isinstance(x, Bf16) for x in inputs) or any(
        v == dtypes.DT_BFLOAT16 for k, v in (attrs or {}).items() if k.startswith('T') or k == 'DstT')
    if outputs is not None:
        assert len(expected) == len(actual)
        expected = [expected[i] for i in outputs]
        actual = [actual[i] for i in outputs]
    assert_same(op, expected, actual, rtol, atol, bf16_out)
    return actual


def check_error(op, inputs, attrs=None):
    """Assert TF rejects the inputs and mo raises KernelError for them too."""
    with pytest.raises((tf.errors.OpError, ValueError, TypeError)):
        run_tf(op, inputs, attrs)
    with pytest.raises(kernels.KernelError) as info:
        run_mo(op, inputs, attrs)
    assert op in str(info.value)
    return info.value


def rand(shape, dtype, rng, low=-10, high=10):
    """Random test data of a dtype: ints in [low, high), floats uniform, bools fair coins."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in 'iu':
        lo = max(low, np.iinfo(dtype).min)
        return rng.integers(lo, high, size=shape).astype(dtype)
    if dtype.kind == 'c':
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)
