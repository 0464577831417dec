"""Element types of the OpenVINO IR and their numpy counterparts.

The IR names a tensor's type in two spellings: the element type used in ``<data>`` attributes
(``f32``, ``i64``, ``boolean``, ...) and the port ``precision`` (``FP32``, ``I64``, ``BOOL``,
...). This module is the one place that maps numpy dtypes to and from both.

numpy itself lacks the IR's narrow types; ``ml_dtypes`` (a dependency of mo) gives them as numpy dtypes:
bfloat16, float8_e4m3fn, float8_e5m2, float8_e8m0fnu (one element per item) and int4, uint4, float4_e2m1fn, uint2,
which numpy holds one per byte and the IR packs two (uint2: four) per byte (``packed_bytes``). Their rows join the tables
when ``ml_dtypes`` is loaded (``mo.utils.narrow_types``: its import is slow, and most models never need it).
"""
import numpy as np

from mo.utils import narrow_types
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
_NARROW_ELEMENT_TYPES = frozenset(element_type for _, element_type, _ in narrow_types.IR_NARROW_TYPES)
_NARROW_PRECISIONS = frozenset(precision for _, _, precision in narrow_types.IR_NARROW_TYPES)


def _with_narrow_types():
    """Add the narrow types' rows to the tables (importing ``ml_dtypes``), once."""
    if _BY_ELEMENT_TYPE.keys() >= _NARROW_ELEMENT_TYPES:
        return
    for name, element, precision_name in narrow_types.IR_NARROW_TYPES:
        dtype = narrow_types.dtype(name)
        _BY_DTYPE[dtype] = (element, precision_name)
        _BY_ELEMENT_TYPE[element] = dtype
        _BY_PRECISION[precision_name] = dtype


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
        dtype = _as_dtype(dtype)
        if narrow_types.is_narrow(dtype):
            _with_narrow_types()
        entry = _BY_DTYPE.get(dtype)
    if entry is None:
        raise Error('Data type "{}" has no OpenVINO IR element type (supported: {})', np.dtype(dtype).name,
                    ', '.join([d.name for d, _, _ in _TABLE] + [name for name, _, _ in narrow_types.IR_NARROW_TYPES]))
    return entry


def element_type(dtype) -> str:
    """The IR element type name of a numpy dtype: ``np.float32`` -> ``'f32'``, bool -> ``'boolean'``."""
    return _lookup(dtype)[0]


def precision(dtype) -> str:
    """The IR port precision of a numpy dtype: ``np.float32`` -> ``'FP32'``, bool -> ``'BOOL'``."""
    return _lookup(dtype)[1]


def dtype_from_element_type(name: str) -> np.dtype:
    """The numpy dtype of an IR element type name (``'f16'`` -> ``float16``)."""
    if name in _NARROW_ELEMENT_TYPES:
        _with_narrow_types()
    try:
        return _BY_ELEMENT_TYPE[name]
    except KeyError:
        raise Error('Unknown IR element type "{}"', name) from None


def dtype_from_precision(name: str) -> np.dtype:
    """The numpy dtype of an IR port precision (``'I64'`` -> ``int64``)."""
    if name.upper() in _NARROW_PRECISIONS:
        _with_narrow_types()
    try:
        return _BY_PRECISION[name.upper()]
    except KeyError:
        raise Error('Unknown IR precision "{}"', name) from None


def is_dtype_like(value) -> bool:
    """True for a numpy dtype or a numpy scalar type (``np.float32``): values written as element types."""
    return isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic))


def is_float_type(dtype) -> bool:
    """True for numpy's float types and the IR's narrow floats (bf16, f8, f4), whose numpy kind is 'V'."""
    dtype = _as_dtype(dtype)
    return dtype.kind == 'f' or (narrow_types.is_narrow(dtype) and _lookup(dtype)[0][:1] in ('f', 'b'))


def is_nibble_type(dtype) -> bool:
    """True for the types the IR stores several elements a byte: int4/uint4/float4_e2m1fn (two), uint2 (four)."""
    return narrow_types.name_of(dtype) in narrow_types.PACKED_BITS


def _packed_bits(dtype) -> int:
    return narrow_types.PACKED_BITS[np.dtype(dtype).name]


def stored_size(dtype, count: int) -> int:
    """The bytes ``count`` elements of ``dtype`` take in the IR's ``.bin``."""
    if is_nibble_type(dtype):
        per_byte = 8 // _packed_bits(dtype)
        return (count + per_byte - 1) // per_byte
    return count * np.dtype(dtype).itemsize


def _bits(value: np.ndarray) -> np.ndarray:
    """The bit patterns of packed-type ``value`` as flat uint8 (in the low bits): float4's bits are its byte (a view),
    int4's the two's complement of its value, uint2's its value."""
    flat = np.ascontiguousarray(value).reshape(-1)
    return flat.view(np.uint8) if flat.dtype.name == 'float4_e2m1fn' else flat.astype(np.int8).view(np.uint8)


def packed_bytes(value: np.ndarray) -> np.ndarray:
    """int4/uint4/float4/uint2 ``value`` as the IR stores it: flat uint8, ``8 // bits`` elements a byte, the first in
    the low bits (4-bit: element 2k in the low nibble of byte k, 2k+1 in its high nibble; uint2: element 4k + j in bits
    2j..2j+1 of byte k); a last byte's unused bits are 0 (OpenVINO's f4e2m1 has the order of i4/u4). A new array:
    numpy cannot view it."""
    bits = _packed_bits(value.dtype)
    per_byte = 8 // bits
    fields = _bits(value) & np.uint8((1 << bits) - 1)
    if fields.size % per_byte:
        fields = np.append(fields, np.zeros(per_byte - fields.size % per_byte, np.uint8))
    fields = fields.reshape(-1, per_byte)
    packed = np.zeros(fields.shape[0], np.uint8)
    for j in range(per_byte):
        packed |= fields[:, j] << np.uint8(j * bits)
    return packed


def unpacked(data, count: int, dtype) -> np.ndarray:
    """The ``count`` int4/uint4/float4/uint2 elements of packed bytes ``data`` (``packed_bytes``' layout) as a flat
    array."""
    raw = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data.astype(np.uint8)
    dtype = np.dtype(dtype)
    bits = _packed_bits(dtype)
    shifts = (np.arange(8 // bits) * bits).astype(np.uint8)
    fields = ((raw[:, None] >> shifts) & np.uint8((1 << bits) - 1)).reshape(-1)[:count]
    if dtype.name == 'float4_e2m1fn':
        return fields.view(dtype)
    if dtype.name == 'int4':
        return ((fields.astype(np.int8) ^ 8) - 8).astype(dtype)  # sign-extend bit 3
    return fields.astype(dtype)
