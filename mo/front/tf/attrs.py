"""TensorFlow ``AttrValue`` <-> plain Python values.

Decoded forms: ``s`` -> bytes, ``i`` -> int, ``f`` -> float, ``b`` -> bool, ``type`` -> int
(a TF DataType number), ``shape`` -> tuple of ints with -1 for an unknown dim, or ``None`` for an
unknown rank, ``tensor`` -> numpy array, ``func`` -> the function name, ``placeholder`` -> str,
``list`` -> a list of decoded items (``[]`` when empty). An unset AttrValue decodes to ``None``.
"""
import numpy as np

from mo.front.tf import dtypes as dt
from mo.front.tf.proto import AttrValue, NameAttrList, TensorProto, TensorShapeProto, coerce
from mo.front.tf.tensor import numpy_to_tensor, shape_proto, tensor_to_numpy
from mo.utils.error import Error

_LIST_FIELDS = ('s', 'i', 'f', 'b', 'type', 'shape', 'tensor', 'func')

# Kind names accepted by encode_attr: AttrValue field names and the attr types of TF's OpDefs.
_KIND_ALIASES = {
    's': 's', 'string': 's',
    'i': 'i', 'int': 'i',
    'f': 'f', 'float': 'f',
    'b': 'b', 'bool': 'b',
    'type': 'type',
    'shape': 'shape',
    'tensor': 'tensor',
    'func': 'func',
    'placeholder': 'placeholder',
}


def decode_shape(shape) -> tuple:
    """A ``TensorShapeProto`` as a tuple of ints (-1 = unknown dim), or ``None`` if the rank is unknown."""
    if shape.unknown_rank:
        return None
    return tuple(int(d.size) for d in shape.dim)


def _decode_item(field, value):
    if field == 'shape':
        return decode_shape(value)
    if field == 'tensor':
        return tensor_to_numpy(value)
    if field == 'func':
        return value.name
    if field == 'type':
        return int(value)
    if field == 'f':
        return float(value)
    if field == 'i':
        return int(value)
    if field == 'b':
        return bool(value)
    return value


def decode_attr(attr):
    """The Python value of ``AttrValue`` ``attr`` (see the module docstring for the forms)."""
    which = attr.WhichOneof('value')
    if which is None:
        return None
    if which == 'list':
        lst = attr.list
        for field in _LIST_FIELDS:
            items = getattr(lst, field)
            if len(items):
                return [_decode_item(field, item) for item in items]
        return []
    return _decode_item(which, getattr(attr, which))


def node_attrs(node_def) -> dict:
    """All attributes of ``node_def`` decoded, in sorted name order (map order is arbitrary)."""
    result = {}
    for name in sorted(node_def.attr.keys()):
        try:
            result[name] = decode_attr(node_def.attr[name])
        except Error as e:
            raise Error('Attribute "{}" of node "{}": {}', name, node_def.name, e) from None
    return result


def _normalize_kind(kind):
    """(is_list, item_kind) for a kind such as ``'i'``, ``'type'`` or ``'list(shape)'``."""
    if kind is None:
        return None, None
    text = kind.strip()
    if text.startswith('list(') and text.endswith(')'):
        inner = _KIND_ALIASES.get(text[5:-1].strip())
        if inner is None or inner == 'placeholder':
            raise ValueError('unknown attr kind {!r}'.format(kind))
        return True, inner
    if text == 'list':
        return True, None
    if text not in _KIND_ALIASES:
        raise ValueError('unknown attr kind {!r}'.format(kind))
    return False, _KIND_ALIASES[text]


def _infer_kind(value):
    """The AttrValue field a Python value naturally maps to."""
    if isinstance(value, (bool, np.bool_)):
        return 'b'
    if isinstance(value, (int, np.integer)):
        return 'i'
    if isinstance(value, (float, np.floating)):
        return 'f'
    if isinstance(value, (bytes, str)):
        return 's'
    if isinstance(value, np.ndarray) or _is_message(value, TensorProto):
        return 'tensor'
    if _is_message(value, TensorShapeProto):
        return 'shape'
    if _is_message(value, NameAttrList):
        return 'func'
    if isinstance(value, (np.dtype, type)):
        return 'type'
    return None


def _is_message(value, cls):
    return getattr(getattr(value, 'DESCRIPTOR', None), 'full_name', None) == cls.DESCRIPTOR.full_name


def _type_number(value):
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    try:
        return dt.tf_dtype_from_numpy(value)
    except (TypeError, ValueError):
        raise ValueError('{!r} is not a TensorFlow dtype'.format(value)) from None


def _shape_msg(value):
    if _is_message(value, TensorShapeProto):
        return coerce(value, TensorShapeProto)
    if value is not None and not isinstance(value, (tuple, list, np.ndarray)):
        raise ValueError('{!r} is not a shape'.format(value))
    return shape_proto(None if value is None else [int(d) if d is not None else -1 for d in value])


def _tensor_msg(value):
    if _is_message(value, TensorProto):
        return coerce(value, TensorProto)
    return numpy_to_tensor(np.asarray(value))


def _func_msg(value):
    if _is_message(value, NameAttrList):
        return coerce(value, NameAttrList)
    return NameAttrList(name=str(value))


def _scalar(kind, value):
    """Python value for a scalar field ``kind``; message kinds return the message to copy."""
    if kind == 's':
        if isinstance(value, str):
            return value.encode('utf-8')
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value)
        raise ValueError('{!r} is not a string'.format(value))
    if kind == 'i':
        if isinstance(value, (float, np.floating)) and not float(value).is_integer():
            raise ValueError('{!r} is not an integer'.format(value))
        return int(value)
    if kind == 'f':
        return float(value)
    if kind == 'b':
        return bool(value)
    if kind == 'type':
        return _type_number(value)
    if kind == 'shape':
        return _shape_msg(value)
    if kind == 'tensor':
        return _tensor_msg(value)
    if kind == 'func':
        return _func_msg(value)
    if kind == 'placeholder':
        return str(value)
    raise ValueError('unknown attr kind {!r}'.format(kind))


def encode_attr(value, kind: str = None) -> AttrValue:
    """An ``AttrValue`` holding Python ``value``.

    ``kind`` names the AttrValue field (``'s'``, ``'i'``, ``'f'``, ``'b'``, ``'type'``, ``'shape'``,
    ``'tensor'``, ``'func'``, ``'placeholder'``), an OpDef attr type (``'int'``, ``'string'``, ...)
    or a list of either (``'list(type)'``; ``'list'`` infers the items). Without it the kind is
    inferred: bool -> b, int -> i, float -> f, bytes/str -> s, ndarray/TensorProto -> tensor,
    numpy dtype -> type, TensorShapeProto -> shape, NameAttrList -> func, list/tuple -> list.
    Ints that are DataTypes and tuples that are shapes need ``kind``. An ``AttrValue`` is copied.
    Raises ``ValueError`` when ``value`` does not fit ``kind``.
    """
    if _is_message(value, AttrValue):
        result = AttrValue()
        result.CopyFrom(coerce(value, AttrValue))
        return result
    is_list, item_kind = _normalize_kind(kind)
    if is_list is None:
        item_kind = _infer_kind(value)
        if item_kind is None:
            if not isinstance(value, (list, tuple)):
                raise ValueError('cannot tell which AttrValue kind {!r} is; pass kind='.format(value))
            is_list = True
        else:
            is_list = False

    result = AttrValue()
    if not is_list:
        _set_scalar(result, item_kind, value)
        return result

    items = list(value)
    lst = result.list
    lst.SetInParent()  # an empty list is still a set list
    if not items:
        return result
    if item_kind is None:
        first = items[0]
        item_kind = 'shape' if first is None or isinstance(first, (list, tuple)) else _infer_kind(first)
        if item_kind is None:
            raise ValueError('cannot tell which AttrValue kind the items of {!r} are; pass kind='.format(value))
    target = getattr(lst, item_kind)
    if item_kind in ('shape', 'tensor', 'func'):
        for item in items:
            target.add().CopyFrom(_scalar(item_kind, item))
    else:
        target.extend(_scalar(item_kind, item) for item in items)
    return result


def _set_scalar(result, kind, value):
    converted = _scalar(kind, value)
    if kind in ('shape', 'tensor', 'func'):
        getattr(result, kind).CopyFrom(converted)
    else:
        setattr(result, kind, converted)


def encode_attr_checked(value, kind=None, where=''):
    """``encode_attr`` that reports a misfit value as an ``Error`` mentioning ``where``."""
    try:
        return encode_attr(value, kind)
    except (ValueError, TypeError) as e:
        message = '{}: {}'.format(where, e) if where else str(e)
        raise Error(message) from None
