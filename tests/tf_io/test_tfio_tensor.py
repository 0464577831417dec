"""TensorProto <-> numpy against TensorFlow: tf.make_tensor_proto for writing, C++ parse_tensor for reading."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mo.front.tf import dtypes as dt
from mo.front.tf.proto import TensorProto
from mo.front.tf.tensor import numpy_to_tensor, tensor_to_numpy
from mo.utils.error import Error

ALL_DTYPES = ['float16', 'float32', 'float64', 'bfloat16', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16',
              'uint32', 'uint64', 'bool', 'string', 'quint8', 'qint8', 'qint32', 'qint16', 'quint16',
              'complex64', 'complex128']
SHAPES = [(), (1,), (5,), (2, 3), (0, 3)]


def _sample(name, shape, rng):
    """Values of TF dtype ``name``, as numpy values tf.make_tensor_proto accepts for it."""
    if name == 'string':
        pool = [b'', b'a', b'\xff\x00z', 'ü'.encode('utf-8')]
        flat = [pool[i] for i in rng.integers(0, len(pool), size=int(np.prod(shape)))]
        return np.array(flat, dtype=object).reshape(shape)
    if name == 'bool':
        return rng.integers(0, 2, size=shape).astype(bool)
    if name in ('float16', 'float32', 'float64', 'bfloat16'):
        return rng.standard_normal(shape).astype(np.float32 if name == 'bfloat16' else name)
    if name.startswith('complex'):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(name)
    storage = dt.np_dtype(getattr(dt, 'DT_' + name.upper()))
    info = np.iinfo(storage)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=storage)


def _storage_view(array, tf_enum):
    """A TF result array in our storage dtype (bfloat16 bits as uint16, quantized as plain ints)."""
    storage = dt.np_dtype(tf_enum)
    array = np.asarray(array)
    if tf_enum == dt.DT_STRING:
        return array.astype(object)
    if array.dtype.names:  # quantized dtypes come back as one-field records
        return array.view(storage).reshape(array.shape)
    return array.view(storage) if array.dtype != storage else array


def _equal(a, b):
    if a.dtype.kind == 'f' or a.dtype.kind == 'c':
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.parametrize('name', ALL_DTYPES)
def test_dtype_round_trips_like_tensorflow(tf, name):
    rng = np.random.default_rng(abs(hash(name)) % 1000)
    tf_dtype = tf.as_dtype(name)
    enum = tf_dtype.as_datatype_enum
    for shape in SHAPES:
        values = _sample(name, shape, rng)
        theirs = tf.make_tensor_proto(values, dtype=tf_dtype)
        data = theirs.SerializeToString(deterministic=True)

        ours = tensor_to_numpy(TensorProto.FromString(data))
        reference = _storage_view(tf.io.parse_tensor(data, tf_dtype).numpy(), enum)
        assert ours.dtype == dt.np_dtype(enum)
        assert _equal(ours, reference), (name, shape)
        assert _equal(ours, _storage_view(tf.make_ndarray(theirs), enum)), (name, shape)

        # Writing our array gives the very bytes tf.make_tensor_proto gives.
        written = numpy_to_tensor(ours, enum)
        assert written.SerializeToString(deterministic=True) == data, (name, shape)
        if name == 'bfloat16':  # from float32 values, rounded like TF does
            assert numpy_to_tensor(values, enum).SerializeToString(deterministic=True) == data

        # The other layouts read the same in TensorFlow.
        for content in (True, False):
            other = numpy_to_tensor(ours, enum, use_tensor_content=content).SerializeToString()
            back = _storage_view(tf.io.parse_tensor(other, tf_dtype).numpy(), enum)
            assert _equal(back, ours), (name, shape, content)
            assert _equal(tensor_to_numpy(TensorProto.FromString(other)), ours)


def test_tensor_content_is_read_without_copy():
    t = numpy_to_tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert t.tensor_content
    value = tensor_to_numpy(t)
    assert not value.flags.writeable
    assert isinstance(value.base, (bytes, memoryview)) or value.base is not None
    assert value.shape == (3, 4)


@pytest.mark.parametrize('field,tf_name,values,shape', [
    ('float_val', 'float32', [1.0, 2.0], (2, 3)),
    ('float_val', 'float32', [7.5], (4,)),
    ('float_val', 'float32', [], (3,)),
    ('float_val', 'float32', [1.0, 2.0, 3.0, 4.0], (2,)),
    ('int_val', 'uint16', [65535, 3], (3,)),
    ('int_val', 'qint8', [-5], (2, 2)),
    ('int64_val', 'int64', [-(2 ** 62)], (3,)),
    ('uint64_val', 'uint64', [2 ** 64 - 1, 1], (3,)),
    ('bool_val', 'bool', [True], (3,)),
    ('half_val', 'float16', [0x3C00, 0xC000], (3,)),
    ('half_val', 'bfloat16', [0x3F80], (2,)),
    ('scomplex_val', 'complex64', [1.0, 2.0, 3.0, 4.0], (3,)),
    ('scomplex_val', 'complex64', [1.0, 2.0, 3.0], (2,)),  # an unpaired number is ignored
    ('dcomplex_val', 'complex128', [5.0, -1.0], (2,)),
    ('string_val', 'string', [b'a', b'b'], (3,)),
    ('string_val', 'string', [], (2,)),
    ('float_val', 'float32', [0.5], ()),  # a scalar with an empty shape message
    ('float_val', 'float32', [0.5], None),  # a scalar without a shape message (frozen graphs have many)
    ('int_val', 'int32', [-3], None),
    ('float_val', 'float32', [], None),
])
def test_typed_values_are_padded_like_tensorflow(tf, field, tf_name, values, shape):
    tf_dtype = tf.as_dtype(tf_name)
    t = TensorProto()
    t.dtype = tf_dtype.as_datatype_enum
    if shape is not None:
        t.tensor_shape.SetInParent()
        for d in shape:
            t.tensor_shape.dim.add().size = d
    getattr(t, field).extend(values)
    data = t.SerializeToString()
    reference = _storage_view(tf.io.parse_tensor(data, tf_dtype).numpy(), t.dtype)
    assert _equal(tensor_to_numpy(TensorProto.FromString(data)), reference)


def test_huge_splat_is_refused_with_the_limit():
    t = TensorProto()
    t.dtype = dt.DT_FLOAT
    t.tensor_shape.dim.add().size = 10 ** 12
    t.float_val.append(1.0)
    with pytest.raises(Error, match='2147483648 bytes'):
        tensor_to_numpy(t)
    small = TensorProto()
    small.CopyFrom(t)
    small.tensor_shape.dim[0].size = 1000
    assert tensor_to_numpy(small).sum() == 1000
    with pytest.raises(Error, match='limit of 100 bytes'):
        tensor_to_numpy(small, limit=100)


def test_content_size_must_match_shape():
    t = TensorProto()
    t.dtype = dt.DT_FLOAT
    t.tensor_shape.dim.add().size = 10 ** 12
    t.tensor_content = b'\0' * 8
    with pytest.raises(Error, match='8 bytes of data.*needs 4000000000000 bytes'):
        tensor_to_numpy(t)
    t.tensor_shape.dim[0].size = 3
    with pytest.raises(Error, match='needs 12 bytes'):
        tensor_to_numpy(t)


def test_undefined_shapes_and_dtypes_are_errors():
    t = TensorProto()
    t.dtype = dt.DT_FLOAT
    t.tensor_shape.unknown_rank = True
    with pytest.raises(Error, match='unknown rank'):
        tensor_to_numpy(t)
    t.tensor_shape.unknown_rank = False
    t.tensor_shape.dim.add().size = -1
    with pytest.raises(Error, match='unknown size'):
        tensor_to_numpy(t)
    t = TensorProto()
    t.dtype = dt.DT_RESOURCE
    with pytest.raises(Error, match='not supported'):
        tensor_to_numpy(t)


def test_writing_checks_values_fit():
    with pytest.raises(Error, match='do not fit'):
        numpy_to_tensor(np.array([300], np.int64), dt.DT_UINT8)
    with pytest.raises(Error):
        numpy_to_tensor(np.array([1.5]), dt.DT_INT32)
    assert list(numpy_to_tensor(np.array([1, 2], np.int64), dt.DT_INT32).tensor_content) == [1, 0, 0, 0, 2, 0, 0, 0]
    # Python str items are stored as UTF-8.
    assert list(numpy_to_tensor(np.array(['ü', 'x'])).string_val) == ['ü'.encode('utf-8'), b'x']


_NUMERIC = st.sampled_from(['float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16',
                            'uint32', 'uint64', 'bool', 'complex64', 'complex128'])


@settings(max_examples=60, deadline=None)
@given(data=st.data(), name=_NUMERIC, use_content=st.sampled_from([None, True, False]))
def test_numpy_round_trip_property(data, name, use_content):
    array = data.draw(hnp.arrays(np.dtype(name), hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))
    tensor = numpy_to_tensor(array, use_tensor_content=use_content)
    back = tensor_to_numpy(TensorProto.FromString(tensor.SerializeToString()))
    assert back.dtype == array.dtype and back.shape == array.shape
    if array.dtype.kind in 'fc':
        # NaN payloads may change on the way through Python floats; values and signs of zeros may not.
        assert np.array_equal(back, array, equal_nan=True)
        assert np.array_equal(np.signbit(back.real), np.signbit(array.real))
    else:
        assert back.tobytes() == array.tobytes()
