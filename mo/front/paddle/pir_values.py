"""The types and attributes of a PIR JSON program, decoded into ``model.Var`` fields and Python values.

In the JSON, a type or an attribute is an object whose ``"#"`` is ``<dialect id>.<name>`` (``0.t_dtensor``,
``1.a_intarray``; dialect 0 is ``builtin``, 1 ``pd_op``, 2 ``cf``, 3 ``custom_op``, 4 ``dist_op``) and whose
``"D"`` is its data; a float that is NaN or infinite goes in ``"VD"`` as ``"NaN"``, ``"INF"`` or ``"-INF"``.
Older files spell the dialect by name (``builtin.t_dtensor``); both are accepted.
"""
import math

import numpy as np

from mo.front.paddle import dtypes
from mo.utils.error import Error

#: the dialects' numbers in compressed names (Paddle's serializer fixes them; they are part of the format)
DIALECTS = {'0': 'builtin', '1': 'pd_op', '2': 'cf', '3': 'custom_op', '4': 'dist_op'}
_DIALECT_NAMES = frozenset(DIALECTS.values())

_SPECIAL_FLOATS = {'NaN': math.nan, 'INF': math.inf, '-INF': -math.inf}


def split_tag(tag, what: str):
    """``('builtin', 't_dtensor')`` for ``'0.t_dtensor'`` (or ``'builtin.t_dtensor'``); ``what`` names the
    tag's owner in the ``Error`` for a malformed tag or an unknown dialect."""
    if not isinstance(tag, str) or '.' not in tag:
        raise Error('{} has the tag {!r}, which is no "<dialect>.<name>"', what, tag)
    dialect, name = tag.split('.', 1)
    if dialect in DIALECTS:
        return DIALECTS[dialect], name
    if dialect in _DIALECT_NAMES:
        return dialect, name
    raise Error('{} has the tag {!r}, whose dialect {!r} this reader does not know', what, tag, dialect)


def _data(obj, what):
    if 'D' not in obj:
        raise Error('{} ({}) has no data ("D")', what, obj.get('#'))
    return obj['D']


def _dims(value, what):
    if not isinstance(value, list) or not all(isinstance(d, int) for d in value):
        raise Error('{} has dims {!r}, which are no list of integers', what, value)
    return list(value)


def _element(obj, what):
    if not isinstance(obj, dict):
        raise Error('{} has the element type {!r}, which is no type object', what, obj)
    _, name = split_tag(obj.get('#'), what)
    dtype = dtypes.from_pir_type(name)
    if dtype is None:
        raise Error('{} has the element type {!r}, which this reader does not know', what, obj.get('#'))
    return dtype


def decode_type(obj, what: str):
    """``(dtype, shape, kind, items)`` of a PIR type object (the ``"TT"`` of a value); ``items`` holds the
    member types of a ``t_vec`` as such tuples."""
    if not isinstance(obj, dict) or '#' not in obj:
        raise Error('{} has the type {!r}, which is no type object', what, obj)
    if obj['#'] == 'NULL':
        return None, None, 'null', []
    dialect, name = split_tag(obj['#'], what)
    if name in ('t_dtensor', 't_selected_rows', 't_dense_tensor_array'):
        data = _data(obj, what)
        kind = {'t_dtensor': 'dense_tensor', 't_selected_rows': 'selected_rows'}.get(name, 'dense_tensor_array')
        return _element(data[0], what), _dims(data[1], what), kind, []
    if name in ('t_sparse_coo_tensor', 't_sparse_csr_tensor'):
        data = _data(obj, what)
        return _element(data[0], what), _dims(data[1], what), name[2:12], []
    if name == 't_dist_dtensor':  # a distributed tensor: its local dense type, the placement dropped
        return decode_type(_data(obj, what)[0], what)
    if name == 't_vec':
        return None, None, 'vector', [decode_type(item, what) for item in _data(obj, what)]
    if dialect == 'cf':  # the stacks of while-loop gradients: no tensors
        return None, None, name[2:], []
    dtype = dtypes.from_pir_type(name)
    if dtype is not None:  # a bare element type: a scalar value
        return dtype, [], 'scalar', []
    raise Error('{} has the type {!r}, which this reader does not know', what, obj['#'])


def _float(obj, what):
    if 'VD' in obj:
        if obj['VD'] not in _SPECIAL_FLOATS:
            raise Error('{} has the float {!r}', what, obj['VD'])
        return _SPECIAL_FLOATS[obj['VD']]
    value = _data(obj, what)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise Error('{} has the float {!r}', what, value)
    return float(value)


def _scalar(data, what):
    """A ``pd_op`` Scalar: ``[dtype name, value]`` (``[dtype, real, imag]`` for complex ones)."""
    if not isinstance(data, list) or len(data) < 2:
        raise Error('{} has the scalar {!r}', what, data)
    dtype = dtypes.from_name(data[0])
    if dtype is None:
        raise Error('{} has a scalar of dtype {!r}, which this reader does not know', what, data[0])
    if dtype.kind == 'c':
        return complex(data[1], data[2] if len(data) > 2 else 0.0)
    if dtype.name in ('float16', 'bfloat16'):  # written as the 16 bits of the value
        return float(np.array(data[1], np.uint16).view(dtype))
    if dtype.kind == 'b':
        return bool(data[1])
    return float(data[1]) if dtype.kind == 'f' else int(data[1])


def decode_attr(obj, what: str):
    """The Python value of a PIR attribute object (the ``"AT"`` of an attribute).

    Integers, floats, bools, strings and arrays of them become Python values; ``a_intarray`` a list;
    ``a_dtype`` a numpy dtype (None for undefined); ``a_place`` a tuple (type, device id, device type);
    ``a_type`` a ``(dtype, shape, kind, items)`` tuple; distributed attributes keep their raw data.
    """
    if not isinstance(obj, dict) or '#' not in obj:
        raise Error('{} has the attribute {!r}, which is no attribute object', what, obj)
    if obj['#'] == 'NULL':
        return None
    dialect, name = split_tag(obj['#'], what)
    if name == 'a_bool':
        return bool(_data(obj, what))
    if name in ('a_i32', 'a_i64', 'a_index'):
        value = _data(obj, what)
        if not isinstance(value, int) or isinstance(value, bool):
            raise Error('{} has the integer {!r}', what, value)
        return value
    if name in ('a_f32', 'a_f64'):
        return _float(obj, what)
    if name in ('a_str', 'a_tensorname', 'a_layout'):
        value = _data(obj, what)
        if not isinstance(value, str):
            raise Error('{} has the string {!r}', what, value)
        return value
    if name == 'a_array':
        return [decode_attr(item, what) for item in _data(obj, what)]
    if name == 'a_intarray':
        return _dims(_data(obj, what), what)
    if name in ('a_c64', 'a_c128'):
        real, imag = _data(obj, what)
        return complex(real, imag)
    if name == 'a_scalar':
        return _scalar(_data(obj, what), what)
    if name == 'a_dtype':
        return dtypes.from_name(_data(obj, what))
    if name == 'a_place':
        return tuple(_data(obj, what))
    if name == 'a_type':
        return decode_type(_data(obj, what), what)
    if dialect == 'dist_op':
        return obj.get('D')
    raise Error('{} has an attribute of type {!r}, which this reader does not know', what, obj['#'])
