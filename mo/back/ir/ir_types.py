"""Element types of the OpenVINO IR and their numpy counterparts.

The IR names a tensor's type in two spellings: the element type used in ``<data>`` attributes
(``f32``, ``i64``, ``boolean``, ...) and the port ``precision`` (``FP32``, ``I64``, ``BOOL``,
...). This module is the one place that maps numpy dtypes to and from both.
"""
import numpy as np

from mo.utils.error import Error

#: numpy dtype -> (IR element type, IR port precision)
_TABLE = (
    (np.dtype(np.float32), 'f32', 'FP32'),
    (np.dtype(np.float16), 'f16', 'FP16'),
    (np.dtype(np.float64), 'f64', 'FP64'),
    (np.dtype(np.int64), 'i64', 'I64'),
    (np.dtype(np.int32), 'i32', 'I32'),
    (np.dtype(np.int16), 'i16', 'I16'),
    (np.dtype(np.int8), 'i8', 'I8'),
    (np.dtype(np.uint64), 'u64', 'U64'),
    (np.dtype(np.uint32), 'u32', 'U32'),
    (np.dtype(np.uint16), 'u16', 'U16'),
    (np.dtype(np.uint8), 'u8', 'U8'),
    (np.dtype(np.bool_), 'boolean', 'BOOL'),
)

_BY_DTYPE = {dtype: (element_type, precision) for dtype, element_type, precision in _TABLE}
_BY_ELEMENT_TYPE = {element_type: dtype for dtype, element_type, _ in _TABLE}
_BY_PRECISION = {precision: dtype for dtype, _, precision in _TABLE}


def _as_dtype(dtype) -> np.dtype:
    try:
        # native byte order: the IR stores little-endian data whatever the array's order
        return np.dtype(dtype).newbyteorder('=')
    except TypeError:
        raise Error('"{}" is not a numpy data type', dtype) from None


def _lookup(dtype):
    # a native numpy dtype is the common case and a dict key as it is; anything else is normalized
    entry = _BY_DTYPE.get(dtype) if isinstance(dtype, np.dtype) else None
    if entry is None:
        entry = _BY_DTYPE.get(_as_dtype(dtype))
    if entry is None:
        raise Error('Data type "{}" has no OpenVINO IR element type (supported: {})', np.dtype(dtype).name,
                    ', '.join(d.name for d, _, _ in _TABLE))
    return entry


def element_type(dtype) -> str:
    """The IR element type name of a numpy dtype: ``np.float32`` -> ``'f32'``, bool -> ``'boolean'``."""
    return _lookup(dtype)[0]


def precision(dtype) -> str:
    """The IR port precision of a numpy dtype: ``np.float32`` -> ``'FP32'``, bool -> ``'BOOL'``."""
    return _lookup(dtype)[1]


def dtype_from_element_type(name: str) -> np.dtype:
    """The numpy dtype of an IR element type name (``'f16'`` -> ``float16``)."""
    try:
        return _BY_ELEMENT_TYPE[name]
    except KeyError:
        raise Error('Unknown IR element type "{}"', name) from None


def dtype_from_precision(name: str) -> np.dtype:
    """The numpy dtype of an IR port precision (``'I64'`` -> ``int64``)."""
    try:
        return _BY_PRECISION[name.upper()]
    except KeyError:
        raise Error('Unknown IR precision "{}"', name) from None


def is_dtype_like(value) -> bool:
    """True for a numpy dtype or a numpy scalar type (``np.float32``): values written as element types."""
    return isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic))
