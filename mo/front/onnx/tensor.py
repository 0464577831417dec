"""ONNX tensors as numpy arrays: element types, TensorProto values, external data.

A tensor's bytes are read where they are, never copied: ``raw_data`` found in the file
(``mo.front.onnx.wire``) and external data (``data_location: EXTERNAL``, the form of every model over
2 GB) become numpy views of the memory-mapped files. Typed fields (``float_data``, ``int64_data``...)
are small by nature (writers use ``raw_data`` for weights) and are converted.

bfloat16, float8e4m3fn, float8e5m2 and float8e8m0 are ``ml_dtypes``' numpy types (views of the bytes as well);
int4, uint4 and float4e2m1, which ONNX packs two per byte (low nibble first), are unpacked to one ``ml_dtypes``
element per byte: the one copy a tensor's reading makes.
"""
import mmap
import os

import numpy as np

from mo.back.ir.ir_types import unpacked
from mo.utils import narrow_types
from mo.utils.error import Error

#: ONNX TensorProto.DataType number -> numpy dtype (the types numpy and the IR both have)
NP_TYPES = {
    1: np.dtype(np.float32), 2: np.dtype(np.uint8), 3: np.dtype(np.int8), 4: np.dtype(np.uint16),
    5: np.dtype(np.int16), 6: np.dtype(np.int32), 7: np.dtype(np.int64), 9: np.dtype(np.bool_),
    10: np.dtype(np.float16), 11: np.dtype(np.float64), 12: np.dtype(np.uint32), 13: np.dtype(np.uint64),
}
#: ONNX TensorProto.DataType number -> the ``ml_dtypes`` type of the element types numpy lacks (imported when met)
NARROW_TYPES = {16: 'bfloat16', 17: 'float8_e4m3fn', 19: 'float8_e5m2', 21: 'uint4', 22: 'int4',
                23: 'float4_e2m1fn', 24: 'float8_e8m0fnu'}
STRING = 8
BFLOAT16 = 16
#: uint4, int4 and float4e2m1: two elements per byte, element 2k in the low nibble of byte k
NIBBLE_TYPES = (21, 22, 23)

#: ONNX type names for messages (TensorProto.DataType's)
TYPE_NAMES = {
    0: 'undefined', 1: 'float', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64',
    8: 'string', 9: 'bool', 10: 'float16', 11: 'double', 12: 'uint32', 13: 'uint64', 14: 'complex64',
    15: 'complex128', 16: 'bfloat16', 17: 'float8e4m3fn', 18: 'float8e4m3fnuz', 19: 'float8e5m2',
    20: 'float8e5m2fnuz', 21: 'uint4', 22: 'int4', 23: 'float4e2m1', 24: 'float8e8m0', 25: 'uint2', 26: 'int2',
}

#: the typed field each element type stores its values in when there is no raw_data
_TYPED_FIELD = {
    1: 'float_data', 2: 'int32_data', 3: 'int32_data', 4: 'int32_data', 5: 'int32_data', 6: 'int32_data',
    7: 'int64_data', 9: 'int32_data', 10: 'int32_data', 11: 'double_data', 12: 'uint64_data', 13: 'uint64_data',
    16: 'int32_data', 17: 'int32_data', 19: 'int32_data', 21: 'int32_data', 22: 'int32_data', 23: 'int32_data',
    24: 'int32_data',
}


def np_dtype(onnx_type: int, what: str = 'tensor') -> np.dtype:
    """The numpy dtype of ONNX element type ``onnx_type``; an Error naming ``what`` for the others."""
    dtype = NP_TYPES.get(int(onnx_type))
    if dtype is None and int(onnx_type) in NARROW_TYPES:
        dtype = narrow_types.dtype(NARROW_TYPES[int(onnx_type)])
    if dtype is None:
        raise Error('{} has element type {}, which mo does not convert', what,
                    TYPE_NAMES.get(int(onnx_type), int(onnx_type)))
    return dtype


def onnx_type_of(dtype) -> int:
    """The ONNX element type number of a numpy dtype."""
    dtype = np.dtype(dtype)
    for number, candidate in NP_TYPES.items():
        if candidate == dtype:
            return number
    narrow = narrow_types.name_of(dtype)
    for number, name in NARROW_TYPES.items():
        if name == narrow:
            return number
    raise Error('numpy type {} has no ONNX element type', dtype)


class ExternalData:
    """Memory maps of the files beside a model that its tensors' external data live in, opened once each."""

    def __init__(self, base_dir: str):
        self.base_dir = base_dir
        self._maps = {}

    def view(self, tensor, what: str) -> memoryview:
        info = {entry.key: entry.value for entry in tensor.external_data}
        location = info.get('location')
        if not location:
            raise Error('{} says its data is external but names no location', what)
        path = os.path.normpath(os.path.join(self.base_dir, location))
        if os.path.isabs(location) or os.path.relpath(path, self.base_dir).startswith('..'):
            raise Error('{}: external data location "{}" is outside the model\'s directory', what, location)
        data = self._map(path, what)
        try:
            offset = int(info.get('offset', 0))
            length = int(info['length']) if 'length' in info else len(data) - offset
        except ValueError:
            raise Error('{}: external data offset/length are not numbers ({})', what, info) from None
        if offset < 0 or length < 0 or offset + length > len(data):
            raise Error('{}: external data "{}" holds {} bytes, the tensor needs bytes {}..{}', what, location,
                        len(data), offset, offset + length)
        return memoryview(data)[offset:offset + length]

    def _map(self, path, what):
        if path not in self._maps:
            try:
                with open(path, 'rb') as f:
                    size = os.fstat(f.fileno()).st_size
                    self._maps[path] = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b''
            except OSError as exc:
                raise Error('{}: cannot read its external data file "{}": {}', what, path,
                            exc.strerror or exc) from None
        return self._maps[path]


def tensor_to_numpy(tensor, raw=None, external: ExternalData = None, what: str = None) -> np.ndarray:
    """The value of TensorProto ``tensor`` as a numpy array.

    ``raw`` (a buffer) gives the tensor's ``raw_data`` as found in the file, when the caller knows it: the
    array is then a view of it. Strings decode to a numpy object array of bytes.
    """
    what = what or 'Tensor "{}"'.format(tensor.name)
    shape = tuple(int(d) for d in tensor.dims)
    if any(d < 0 for d in shape):
        raise Error('{} has a negative dimension in its shape {}', what, list(shape))
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    onnx_type = int(tensor.data_type)
    if onnx_type == STRING:
        values = list(tensor.string_data)
        if len(values) != count:
            raise Error('{} has {} strings for shape {}', what, len(values), list(shape))
        return np.array(values, dtype=object).reshape(shape)
    dtype = np_dtype(onnx_type, what)
    if tensor.data_location == 1:  # EXTERNAL
        if external is None:
            raise Error('{} has external data, which needs the model\'s file path', what)
        raw = external.view(tensor, what)
    elif raw is None and tensor.HasField('raw_data'):
        raw = tensor.raw_data
    nibbles = onnx_type in NIBBLE_TYPES
    if raw is not None:
        size = (count + 1) // 2 if nibbles else count * dtype.itemsize
        if len(raw) != size:
            raise Error('{} holds {} bytes, its shape {} of {} needs {}', what, len(raw), list(shape),
                        TYPE_NAMES.get(onnx_type), size)
        if nibbles:
            return unpacked(raw, count, dtype).reshape(shape)
        array = np.frombuffer(raw, dtype=dtype.newbyteorder('<'), count=count).reshape(shape)
    else:
        field_name = _TYPED_FIELD.get(onnx_type)
        values = getattr(tensor, field_name) if field_name else ()
        needed = (count + 1) // 2 if nibbles else count
        if len(values) != needed:
            raise Error('{} holds {} values, its shape {} needs {}', what, len(values), list(shape), needed)
        if nibbles:  # each int32 holds one byte of two packed elements
            return unpacked(np.array(values, dtype=np.int64).astype(np.uint8), count, dtype).reshape(shape)
        if dtype.itemsize < 4 and dtype.kind not in 'iub':  # float16/bfloat16/float8 bit patterns in int32_data
            bits = np.dtype('u{}'.format(dtype.itemsize))
            array = np.array(values, dtype=np.int64).astype(bits).view(dtype).reshape(shape)
        else:
            array = np.array(values, dtype=np.float64 if field_name == 'double_data' else None).astype(
                dtype).reshape(shape)
    if array.dtype.byteorder == '>':
        array = array.astype(array.dtype.newbyteorder('='))
    return array
