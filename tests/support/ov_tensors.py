"""numpy arrays of ``ml_dtypes``' types (bfloat16, float8_e4m3fn, float8_e5m2, float8_e8m0fnu, int4, uint4,
float4_e2m1fn) in and out of OpenVINO.

OpenVINO's Python API does not know ``ml_dtypes``: it takes and gives these element types as their bit patterns
(bf16 as float16-typed bits, f8 as uint8, i4/u4/f4e2m1 packed two per byte, element 2k in the low nibble of byte k).
``to_ov`` and ``from_ov`` translate; other arrays pass through. Shares no code with ``mo``.
"""
import ml_dtypes
import numpy as np

#: ml_dtypes dtype -> OpenVINO element type name
_OV_TYPES = {np.dtype(ml_dtypes.bfloat16): 'bf16', np.dtype(ml_dtypes.float8_e4m3fn): 'f8e4m3',
             np.dtype(ml_dtypes.float8_e5m2): 'f8e5m2', np.dtype(ml_dtypes.int4): 'i4', np.dtype(ml_dtypes.uint4): 'u4',
             np.dtype(ml_dtypes.float8_e8m0fnu): 'f8e8m0', np.dtype(ml_dtypes.float4_e2m1fn): 'f4e2m1'}
#: the types packed two per byte
_NIBBLE_TYPES = ('i4', 'u4', 'f4e2m1')
_BY_OV_TYPE = {name: dtype for dtype, name in _OV_TYPES.items()}


def to_ov(value):
    """``value`` as an ``openvino.Tensor`` when its dtype is one numpy lacks, else ``value`` unchanged."""
    value = np.asarray(value)
    name = _OV_TYPES.get(value.dtype)
    if name is None:
        return value
    import openvino as ov
    tensor = ov.Tensor(getattr(ov.Type, name), list(value.shape))
    target = tensor.data.reshape(-1).view(np.uint8)
    if name in _NIBBLE_TYPES:
        flat = np.ascontiguousarray(value).reshape(-1)
        # float4's byte is its bit pattern; int4's value converts to its two's complement
        bits = flat.view(np.uint8) if name == 'f4e2m1' else flat.astype(np.int8).view(np.uint8)
        nibbles = np.append(bits & 0x0F, np.uint8(0))
        target[...] = (nibbles[0:-1:2] | (nibbles[1::2] << 4))[:target.size]
    else:
        target[...] = np.ascontiguousarray(value).reshape(-1).view(np.uint8)
    return tensor


def from_ov(tensor) -> np.ndarray:
    """An ``openvino.Tensor``'s value as numpy, with the ``ml_dtypes`` type of a narrow element type."""
    name = tensor.element_type.get_type_name()
    dtype = _BY_OV_TYPE.get(name)
    if dtype is None:
        return np.array(tensor.data)
    shape = tuple(tensor.shape)
    raw = np.array(tensor.data).reshape(-1).view(np.uint8)
    count = int(np.prod(shape, dtype=np.int64))
    if name in _NIBBLE_TYPES:
        nibbles = np.stack([raw & 0x0F, raw >> 4], axis=-1).reshape(-1)[:count]
        if name == 'f4e2m1':
            return nibbles.view(dtype).reshape(shape)
        values = nibbles.astype(np.int8)
        if name == 'i4':
            values = np.where(values > 7, values - 16, values)
        return values.astype(dtype).reshape(shape)
    return raw.view(dtype).reshape(shape)


def infer(compiled, feeds: dict) -> dict:
    """Run ``compiled`` on ``feeds`` ({port or name: array}); ``{output port: array}`` with ml_dtypes types."""
    request = compiled.create_infer_request()
    request.infer({key: to_ov(value) for key, value in feeds.items()})
    return {port: from_ov(request.get_tensor(port)) for port in compiled.outputs}
