"""Paddle's element types as numpy dtypes: the classic ``VarType.Type`` numbers, PIR's type tags (``t_f32``) and
the dtype names in PIR attributes (``'float32'``).

bfloat16 and the float8 types come from ``ml_dtypes``, imported only when a model has one: the import
costs most of a second.
"""
import numpy as np

#: VarType.Type -> numpy type name; the names ml_dtypes provides are resolved by ``_dtype``
_VAR_TYPE = {
    0: 'bool', 1: 'int16', 2: 'int32', 3: 'int64', 4: 'float16', 5: 'float32', 6: 'float64',
    19: 'uint64',  # SIZE_T: Paddle's size_t is 64 bits on every platform it ships for
    20: 'uint8', 21: 'int8', 22: 'bfloat16', 23: 'complex64', 24: 'complex128',
    32: 'float8_e4m3fn', 33: 'float8_e5m2', 36: 'uint16', 37: 'uint32', 38: 'uint64',
}

#: PIR builtin type tags (without the dialect prefix) -> numpy type name
_PIR_TYPE = {
    't_bool': 'bool', 't_i8': 'int8', 't_ui8': 'uint8', 't_i16': 'int16', 't_i32': 'int32', 't_i64': 'int64',
    't_index': 'int64', 't_f16': 'float16', 't_bf16': 'bfloat16', 't_f32': 'float32', 't_f64': 'float64',
    't_c64': 'complex64', 't_c128': 'complex128', 't_f8e4m3fn': 'float8_e4m3fn', 't_f8e5m2': 'float8_e5m2',
}

#: phi's DataType names as PIR's dtype attributes spell them -> numpy type name
_DTYPE_NAME = {
    'bool': 'bool', 'int8': 'int8', 'uint8': 'uint8', 'int16': 'int16', 'uint16': 'uint16', 'int32': 'int32',
    'uint32': 'uint32', 'int64': 'int64', 'uint64': 'uint64', 'float16': 'float16', 'bfloat16': 'bfloat16',
    'float32': 'float32', 'float64': 'float64', 'complex64': 'complex64', 'complex128': 'complex128',
    'float8_e4m3fn': 'float8_e4m3fn', 'float8_e5m2': 'float8_e5m2',
}

_ML_DTYPES = frozenset({'bfloat16', 'float8_e4m3fn', 'float8_e5m2'})


def _dtype(name: str) -> np.dtype:
    if name in _ML_DTYPES:
        import ml_dtypes  # only now: see the module's docstring
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name).newbyteorder('<') if name != 'bool' else np.dtype(bool)


def from_var_type(number: int):
    """The numpy dtype of ``VarType.Type`` ``number``, or None when it is no element type (a var kind)."""
    name = _VAR_TYPE.get(number)
    return _dtype(name) if name is not None else None


def from_pir_type(tag: str):
    """The numpy dtype of a PIR element type tag (``'t_f32'``, without its dialect prefix), or None."""
    name = _PIR_TYPE.get(tag)
    return _dtype(name) if name is not None else None


def from_name(name: str):
    """The numpy dtype of a phi dtype name (``'float32'``), or None (``'Undefined(ALL_DTYPE)'`` and the like)."""
    known = _DTYPE_NAME.get(name)
    return _dtype(known) if known is not None else None
