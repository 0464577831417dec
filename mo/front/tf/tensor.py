"""``TensorProto`` <-> numpy.

Reading follows TensorFlow's C++ ``Tensor::FromProto``: ``tensor_content`` holds the raw
little-endian bytes; otherwise the typed repeated field of the dtype holds the values, a list
shorter than the tensor is padded with its last value (so one value fills the whole tensor), an
empty list means zeros and extra values are ignored. Numpy has no quantized types: those arrays use the
storage dtypes of ``mo.front.tf.dtypes``; bfloat16 is ``ml_dtypes.bfloat16``.

Writing follows ``tf.make_tensor_proto`` by default, so a tensor we write is byte-identical to
the one TensorFlow's Python API would write for the same array.
"""
import math

import numpy as np

from mo.front.tf import dtypes as dt
from mo.front.tf.proto import TensorProto, TensorShapeProto
from mo.utils.error import Error

#: Most bytes ``tensor_to_numpy`` materializes from a splat (a short value list padded up to a
#: large shape); beyond it a bogus or hostile shape would exhaust memory.
MAX_MATERIALIZED_BYTES = 2 ** 31

# Typed repeated field holding the values of each dtype when tensor_content is empty.
_VALUE_FIELD = {
    dt.DT_FLOAT: 'float_val',
    dt.DT_DOUBLE: 'double_val',
    dt.DT_INT32: 'int_val',
    dt.DT_UINT8: 'int_val',
    dt.DT_INT16: 'int_val',
    dt.DT_INT8: 'int_val',
    dt.DT_UINT16: 'int_val',
    dt.DT_QINT8: 'int_val',
    dt.DT_QUINT8: 'int_val',
    dt.DT_QINT16: 'int_val',
    dt.DT_QUINT16: 'int_val',
    dt.DT_QINT32: 'int_val',
    dt.DT_INT64: 'int64_val',
    dt.DT_UINT32: 'uint32_val',
    dt.DT_UINT64: 'uint64_val',
    dt.DT_BOOL: 'bool_val',
    dt.DT_HALF: 'half_val',
    dt.DT_BFLOAT16: 'half_val',
    dt.DT_COMPLEX64: 'scomplex_val',
    dt.DT_COMPLEX128: 'dcomplex_val',
    dt.DT_STRING: 'string_val',
}

# Dtypes tf.make_tensor_proto writes as tensor_content when the array has more than one element;
# the others (bool, uint16, complex, string) always go to their typed field.
_MAKE_TENSOR_PROTO_CONTENT = frozenset([
    dt.DT_FLOAT, dt.DT_DOUBLE, dt.DT_HALF, dt.DT_BFLOAT16, dt.DT_INT8, dt.DT_INT16, dt.DT_INT32,
    dt.DT_INT64, dt.DT_UINT8, dt.DT_UINT32, dt.DT_UINT64, dt.DT_QINT8, dt.DT_QUINT8, dt.DT_QINT16,
    dt.DT_QUINT16, dt.DT_QINT32,
])


def _describe(t, what):
    return '{} tensor of shape {}'.format(dt.tf_dtype_name(t.dtype), what)


def tensor_shape(t) -> tuple:
    """The fully defined shape of tensor ``t`` as a tuple of ints; ``Error`` if it is not."""
    if not t.HasField('tensor_shape'):  # a scalar written without a shape message: reading one makes it (~2 us)
        return ()
    shape = t.tensor_shape
    if shape.unknown_rank:
        raise Error('{} tensor has an unknown rank', dt.tf_dtype_name(t.dtype))
    dims = tuple([d.size for d in shape.dim])
    if dims and min(dims) < 0:
        raise Error('{} tensor has a dimension of unknown size in shape {}', dt.tf_dtype_name(t.dtype), list(dims))
    return dims


#: TF dtype number -> its storage dtype (see ``_storage``): a model's thousands of Consts share a few dtypes
_STORAGE = {}


def _storage(tf_dtype):
    """The little-endian numpy dtype TensorFlow's bytes of ``tf_dtype`` are read as."""
    storage = _STORAGE.get(tf_dtype)
    if storage is None:
        storage = _STORAGE[tf_dtype] = dt.np_dtype(tf_dtype).newbyteorder('<')
    return storage


def _typed_values(t, tf_dtype):
    """The values of the dtype's typed repeated field, as a 1-D array of the storage dtype."""
    field = _VALUE_FIELD[tf_dtype]
    raw = getattr(t, field)
    storage = dt.np_dtype(tf_dtype)
    if tf_dtype == dt.DT_STRING:
        values = np.empty(len(raw), dtype=object)
        values[:] = list(raw)
        return values
    if tf_dtype in (dt.DT_COMPLEX64, dt.DT_COMPLEX128):
        parts = np.array(raw, dtype=np.float32 if tf_dtype == dt.DT_COMPLEX64 else np.float64)
        # Interleaved (real, imag) pairs; an unpaired trailing number is ignored, as TF does.
        parts = parts[:len(parts) // 2 * 2]
        return parts.view(storage) if len(parts) else np.empty(0, storage)
    if tf_dtype in (dt.DT_HALF, dt.DT_BFLOAT16):
        # half_val carries the 16-bit patterns in int32 slots.
        bits = np.array(raw, dtype=np.int64).astype(np.uint16)
        return bits.view(storage)
    # numpy reads a list of Python numbers faster than the protobuf container (3 us less for one value)
    if field == 'int_val':
        return np.array(list(raw), dtype=np.int64).astype(storage)
    return np.array(list(raw), dtype=storage)


def tensor_to_numpy(t, limit: int = None, content=None) -> np.ndarray:
    """The value of ``TensorProto`` ``t`` as a numpy array.

    ``tensor_content`` is wrapped without copying (the array is then read-only); ``content``, if
    given, is that field's bytes as found in the serialized model (see ``mo.front.tf.wire``). Typed value
    lists are padded to the shape with their last value; materializing more than ``limit`` bytes
    (default ``MAX_MATERIALIZED_BYTES``) that way is refused with an ``Error``, as is
    ``tensor_content`` whose size disagrees with the shape and a dtype numpy cannot hold.
    """
    limit = MAX_MATERIALIZED_BYTES if limit is None else limit
    tf_dtype = int(t.dtype)
    if not dt.is_known(tf_dtype):
        raise Error('tensors of dtype {} are not supported', dt.tf_dtype_name(tf_dtype))
    shape = tensor_shape(t)
    count = math.prod(shape)
    storage = _storage(tf_dtype)

    if content is None:
        content = t.tensor_content
    if len(content) and tf_dtype != dt.DT_STRING:
        expected = count * storage.itemsize
        if len(content) != expected:
            raise Error('{} holds {} bytes of data, but its shape needs {} bytes',
                        _describe(t, list(shape)), len(content), expected)
        return np.frombuffer(content, dtype=storage).reshape(shape)

    values = _typed_values(t, tf_dtype)
    if count == 0:
        return np.zeros(shape, dtype=storage)
    if len(values) >= count:
        return values[:count].reshape(shape)
    # Fewer values than elements: TF pads with the last one, or zeros when there are none.
    itemsize = storage.itemsize if tf_dtype != dt.DT_STRING else 8
    if count * itemsize > limit:
        raise Error('{} is given by {} value(s) that would expand to {} bytes, more than the limit of '
                    '{} bytes', _describe(t, list(shape)), len(values), count * itemsize, limit)
    if tf_dtype == dt.DT_STRING:
        result = np.full(count, values[-1] if len(values) else b'', dtype=object)
    elif len(values):
        result = np.full(count, values[-1], dtype=storage)
    else:
        result = np.zeros(count, dtype=storage)
    result[:len(values)] = values
    return result.reshape(shape)


def _to_bytes(item):
    """A string tensor element as bytes (``str`` is stored as UTF-8, like TensorFlow does)."""
    if isinstance(item, str):
        return item.encode('utf-8')
    if isinstance(item, (bytes, bytearray, memoryview)):
        return bytes(item)
    raise Error('cannot store {!r} in a string tensor', item)


def _float_to_bfloat16_bits(a):
    """Round float values to the nearest bfloat16 (ties to even) and return the uint16 patterns."""
    a32 = np.ascontiguousarray(a, dtype=np.float32)
    bits = a32.view(np.uint32)
    is_nan = np.isnan(a32)
    rounded = bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))
    result = (rounded >> np.uint32(16)).astype(np.uint16)
    # A NaN must stay a NaN (rounding could carry it to infinity): keep a quiet NaN pattern.
    return np.where(is_nan, ((bits >> np.uint32(16)) | np.uint32(0x40)).astype(np.uint16), result)


def _as_storage(a, tf_dtype):
    """``a`` converted to the storage dtype of ``tf_dtype``; ``Error`` if values do not fit."""
    storage = dt.np_dtype(tf_dtype)
    if a.dtype == storage:
        return a
    if tf_dtype == dt.DT_BFLOAT16 and a.dtype.kind == 'f':
        return _float_to_bfloat16_bits(a).view(storage)
    if tf_dtype == dt.DT_BFLOAT16 and a.dtype == np.uint16:  # bit patterns, as earlier mo versions stored them
        return a.view(storage)
    if storage.kind in 'iub' and a.dtype.kind in 'iub':
        converted = a.astype(storage)
        if not np.array_equal(converted, a):
            raise Error('values do not fit in a {} tensor', dt.tf_dtype_name(tf_dtype))
        return converted
    if storage.kind in 'iu' and a.dtype.kind == 'f':
        converted = a.astype(storage)
        if not np.array_equal(converted, a):
            raise Error('non-integer or out-of-range values do not fit in a {} tensor', dt.tf_dtype_name(tf_dtype))
        return converted
    if storage.kind in 'fc' and a.dtype.kind in 'iubfc':
        if storage.kind == 'f' and a.dtype.kind == 'c':
            raise Error('complex values do not fit in a {} tensor', dt.tf_dtype_name(tf_dtype))
        return a.astype(storage)
    raise Error('a numpy array of dtype {} cannot be stored as a {} tensor', a.dtype, dt.tf_dtype_name(tf_dtype))


def _set_shape(t, shape):
    t.tensor_shape.SetInParent()  # TF writes an empty shape message for scalars; so do we
    for d in shape:
        t.tensor_shape.dim.add().size = int(d)


def shape_proto(shape) -> TensorShapeProto:
    """A ``TensorShapeProto`` for ``shape`` (ints, -1 for an unknown dim; ``None`` = unknown rank)."""
    proto = TensorShapeProto()
    if shape is None:
        proto.unknown_rank = True
        return proto
    for d in shape:
        proto.dim.add().size = -1 if d is None else int(d)
    return proto


def numpy_to_tensor(a, tf_dtype: int = None, use_tensor_content: bool = None) -> TensorProto:
    """A ``TensorProto`` holding array ``a``.

    ``tf_dtype`` (a TF DataType number) defaults to the natural one for ``a.dtype``; give it for
    types numpy stores in another type (bfloat16 as uint16 patterns or floats, quantized types).
    By default the layout is the one ``tf.make_tensor_proto`` chooses (``tensor_content`` for
    multi-element numeric arrays, the typed field otherwise); ``use_tensor_content=True`` always
    uses ``tensor_content`` for non-string dtypes (as TensorFlow's C++ ``AsProtoTensorContent``),
    ``False`` always uses the typed field.
    """
    t, content = numpy_to_tensor_parts(a, tf_dtype, use_tensor_content)
    if content is not None:
        t.tensor_content = content.tobytes()
    return t


def numpy_to_tensor_parts(a, tf_dtype: int = None, use_tensor_content: bool = None):
    """``(TensorProto, content)``: as ``numpy_to_tensor``, but where the tensor takes the
    ``tensor_content`` layout that field is left empty and ``content`` is the C-contiguous array
    of its bytes (else None), so that a writer can send them on without copying them first."""
    a = np.asarray(a)
    if tf_dtype is None:
        if a.dtype.kind in 'SUO':
            tf_dtype = dt.DT_STRING
        else:
            try:
                tf_dtype = dt.tf_dtype_from_numpy(a.dtype)
            except ValueError as e:
                raise Error(str(e)) from None
    tf_dtype = int(tf_dtype)
    if not dt.is_known(tf_dtype):
        raise Error('cannot write tensors of dtype {}', dt.tf_dtype_name(tf_dtype))

    t = TensorProto()
    t.dtype = tf_dtype
    _set_shape(t, a.shape)
    if tf_dtype == dt.DT_STRING:
        t.string_val.extend(_to_bytes(item) for item in a.reshape(-1).tolist())
        return t, None

    data = _as_storage(a, tf_dtype)
    if use_tensor_content is None:
        use_tensor_content = tf_dtype in _MAKE_TENSOR_PROTO_CONTENT and data.size > 1
    if use_tensor_content:
        return t, np.ascontiguousarray(data, dtype=_storage(tf_dtype))
    flat = data.reshape(-1)
    field = _VALUE_FIELD[tf_dtype]
    if tf_dtype in (dt.DT_HALF, dt.DT_BFLOAT16):
        t.half_val.extend(flat.view(np.uint16).astype(np.int32).tolist())
    elif tf_dtype in (dt.DT_COMPLEX64, dt.DT_COMPLEX128):
        getattr(t, field).extend(flat.view(flat.real.dtype).tolist())
    else:
        getattr(t, field).extend(flat.tolist())
    return t, None
