"""TensorFlow ``DataType`` enum values and their numpy counterparts.

TensorFlow's ``types.proto`` numbers its dtypes; a GraphDef stores those numbers in ``type``
attributes and in every ``TensorProto``. This table is the one place that maps them to numpy.
Types numpy has no native form for are carried as the storage type of the same width, and the
TF dtype number stays on the node, so nothing is lost on a round trip:

* ``bfloat16``: ``ml_dtypes.bfloat16`` (a real numpy dtype: the IR gets bf16, the kernels compute in it);
* ``quint16``/``qint16``: ``uint16``/``int16`` bit patterns;
* ``quint8``/``qint8``/``qint32``: ``uint8``/``int8``/``int32``;
* ``string``: an object array of ``bytes``.
"""
import numpy as np

from mo.utils import narrow_types

DT_INVALID = 0
DT_FLOAT = 1
DT_DOUBLE = 2
DT_INT32 = 3
DT_UINT8 = 4
DT_INT16 = 5
DT_INT8 = 6
DT_STRING = 7
DT_COMPLEX64 = 8
DT_INT64 = 9
DT_BOOL = 10
DT_QINT8 = 11
DT_QUINT8 = 12
DT_QINT32 = 13
DT_BFLOAT16 = 14
DT_QINT16 = 15
DT_QUINT16 = 16
DT_UINT16 = 17
DT_COMPLEX128 = 18
DT_HALF = 19
DT_RESOURCE = 20
DT_VARIANT = 21
DT_UINT32 = 22
DT_UINT64 = 23

#: TF dtype number -> (name TensorFlow prints, numpy storage dtype)
_TABLE = {
    DT_FLOAT: ('float32', np.float32),
    DT_DOUBLE: ('float64', np.float64),
    DT_INT32: ('int32', np.int32),
    DT_UINT8: ('uint8', np.uint8),
    DT_INT16: ('int16', np.int16),
    DT_INT8: ('int8', np.int8),
    DT_STRING: ('string', np.object_),
    DT_COMPLEX64: ('complex64', np.complex64),
    DT_INT64: ('int64', np.int64),
    DT_BOOL: ('bool', np.bool_),
    DT_QINT8: ('qint8', np.int8),
    DT_QUINT8: ('quint8', np.uint8),
    DT_QINT32: ('qint32', np.int32),
    DT_BFLOAT16: ('bfloat16', None),  # ml_dtypes.bfloat16, imported when a graph has one (np_dtype)
    DT_QINT16: ('qint16', np.int16),
    DT_QUINT16: ('quint16', np.uint16),
    DT_UINT16: ('uint16', np.uint16),
    DT_COMPLEX128: ('complex128', np.complex128),
    DT_HALF: ('float16', np.float16),
    DT_UINT32: ('uint32', np.uint32),
    DT_UINT64: ('uint64', np.uint64),
}

#: numpy dtype -> the TF dtype number a fresh tensor of that numpy type gets
_FROM_NUMPY = {
    np.dtype(np.float32): DT_FLOAT,
    np.dtype(np.float64): DT_DOUBLE,
    np.dtype(np.float16): DT_HALF,
    np.dtype(np.int8): DT_INT8,
    np.dtype(np.int16): DT_INT16,
    np.dtype(np.int32): DT_INT32,
    np.dtype(np.int64): DT_INT64,
    np.dtype(np.uint8): DT_UINT8,
    np.dtype(np.uint16): DT_UINT16,
    np.dtype(np.uint32): DT_UINT32,
    np.dtype(np.uint64): DT_UINT64,
    np.dtype(np.bool_): DT_BOOL,
    np.dtype(np.complex64): DT_COMPLEX64,
    np.dtype(np.complex128): DT_COMPLEX128,
    np.dtype(np.object_): DT_STRING,
}


#: TF dtype number -> TensorFlow's own DataTypeString (what its C++ tools print: "float", not "float32")
_TYPE_STRINGS = {DT_INVALID: 'INVALID', DT_FLOAT: 'float', DT_DOUBLE: 'double', DT_INT32: 'int32', DT_UINT8: 'uint8',
                 DT_INT16: 'int16', DT_INT8: 'int8', DT_STRING: 'string', DT_COMPLEX64: 'complex64',
                 DT_INT64: 'int64', DT_BOOL: 'bool', DT_QINT8: 'qint8', DT_QUINT8: 'quint8', DT_QINT32: 'qint32',
                 DT_BFLOAT16: 'bfloat16', DT_QINT16: 'qint16', DT_QUINT16: 'quint16', DT_UINT16: 'uint16',
                 DT_COMPLEX128: 'complex128', DT_HALF: 'half', DT_RESOURCE: 'resource', DT_VARIANT: 'variant',
                 DT_UINT32: 'uint32', DT_UINT64: 'uint64'}


def tf_type_string(tf_dtype: int) -> str:
    """TensorFlow's DataTypeString: ``float``, ``int32``, ``variant``, ``float_ref`` (reference types are
    the base type + 100), ``unknown dtype enum (N)`` otherwise."""
    if tf_dtype > 100 and tf_dtype - 100 in _TYPE_STRINGS:
        return _TYPE_STRINGS[tf_dtype - 100] + '_ref'
    return _TYPE_STRINGS.get(tf_dtype, 'unknown dtype enum ({})'.format(tf_dtype))


def is_known(tf_dtype: int) -> bool:
    """True when ``tf_dtype`` is a dtype that frozen graphs can hold as tensor data."""
    return tf_dtype in _TABLE


def np_dtype(tf_dtype: int) -> np.dtype:
    """The numpy dtype that stores tensors of TF dtype number ``tf_dtype``."""
    try:
        storage = _TABLE[tf_dtype][1]
    except KeyError:
        raise ValueError('unsupported TensorFlow dtype number {}'.format(tf_dtype)) from None
    return narrow_types.dtype('bfloat16') if storage is None else np.dtype(storage)


def tf_dtype_name(tf_dtype: int) -> str:
    """The name TensorFlow uses for ``tf_dtype`` (``float32``, ``bfloat16``, ...)."""
    entry = _TABLE.get(tf_dtype)
    return entry[0] if entry else 'DataType({})'.format(tf_dtype)


def tf_dtype_from_numpy(dtype) -> int:
    """The TF dtype number for a numpy dtype (the natural one: ``uint16`` is DT_UINT16)."""
    dtype = np.dtype(dtype)
    if narrow_types.name_of(dtype) == 'bfloat16':
        return DT_BFLOAT16
    try:
        return _FROM_NUMPY[dtype]
    except KeyError:
        raise ValueError('numpy dtype {} has no TensorFlow counterpart'.format(np.dtype(dtype))) from None
