"""``input=`` and ``input_shape=`` of the Python API as the command line's texts.

Besides the command line's own text, ``input`` takes what ovc's ``convert_model`` takes:

- a shape: ``[1, 3, 224, 224]``, ``(1, -1)``, ``openvino.PartialShape([1, 3, -1, -1])``, dimensions as
  ints, ``None``, ``-1``, ``'?'`` or ``openvino.Dimension`` (an unbounded dynamic one: -1);
- a name, ``('images', [1, 3, 224, 224])``, ``('images', [1, 3, 224, 224], np.float32)`` (a tuple's items
  are told apart by kind: a ``str`` names, a shape shapes, a numpy dtype or ``openvino.Type`` types);
- a dict name -> shape, type or such a tuple;
- a list (or tuple) of these, one per input.

Shapes without names go to ``--input_shape`` (the model's inputs in order); a type needs a name, as mo's
``--input`` sets a type by name. What cannot be written as mo's options raises ``mo.Error``.
"""
import numbers

import numpy as np

from mo.back.ir.ir_types import element_type
from mo.utils.error import Error, UsageError

_NOT_A_SPEC = object()


def _is_openvino(value, *class_names) -> bool:
    cls = type(value)
    return cls.__module__.startswith('openvino') and cls.__name__ in class_names


def _dimension(dim, option) -> int:
    """One dimension as an int, -1 for a dynamic one."""
    if dim is None or (isinstance(dim, str) and dim.strip() in ('?', '-1')):
        return -1
    if _is_openvino(dim, 'Dimension'):
        if dim.is_static:
            return int(dim.get_length())
        if dim.get_min_length() > 0 or dim.get_max_length() >= 0:
            raise UsageError('{}: the bounded dimension {} cannot be given to mo, which keeps a dimension static or '
                             'fully dynamic', option, dim, hint='use -1 (or openvino.Dimension(-1)) for it')
        return -1
    if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, numbers.Integral):
        raise UsageError('{}: "{}" ({}) is not a dimension', option, dim, type(dim).__name__,
                         hint='a dimension is an int, -1, None, "?" or openvino.Dimension')
    return -1 if int(dim) < 0 else int(dim)


def _is_shape(value) -> bool:
    if _is_openvino(value, 'PartialShape', 'Shape'):
        return True
    if isinstance(value, np.ndarray):
        return value.ndim == 1 and value.dtype.kind in 'iu'
    if isinstance(value, (list, tuple)):
        return all(d is None or _is_openvino(d, 'Dimension') or (isinstance(d, str) and d.strip() in ('?', '-1'))
                   or (isinstance(d, numbers.Integral) and not isinstance(d, (bool, np.bool_))) for d in value)
    return False


def shape_text(value, option='input') -> str:
    """A shape as ``[1,?,3]``."""
    if _is_openvino(value, 'PartialShape') and value.rank.is_dynamic:
        raise UsageError('{}: a shape of dynamic rank ({}) cannot be given to mo', option, value,
                         hint='give each dimension, -1 for a dynamic one')
    dims = [_dimension(d, option) for d in value]
    return '[{}]'.format(','.join('?' if d < 0 else str(d) for d in dims))


def _type_of(value):
    """The numpy dtype ``value`` stands for (``np.float32``, ``np.dtype('int32')``, ``openvino.Type.f32``), or
    None when it is not a type."""
    if _is_openvino(value, 'Type'):
        try:
            return np.dtype(value.to_dtype())
        except Exception as exc:  # e.g. a type without numpy counterpart (nf4, f8e4m3)
            raise UsageError('input: openvino type {} has no numpy counterpart mo can give to an input',
                             value) from exc
    if isinstance(value, np.dtype):
        return value
    if isinstance(value, type) and (issubclass(value, np.generic) or value in (bool, int, float)):
        return np.dtype(value)
    return None


def _type_text(dtype) -> str:
    try:
        return element_type(dtype)
    except Error:
        raise UsageError('input: type {} is not one an IR input can have', dtype) from None


def _spec(value):
    """(name, shape, dtype) of one input's item (each may be None), or _NOT_A_SPEC."""
    if isinstance(value, str):
        return value, None, None
    if _is_shape(value):
        return None, value, None
    dtype = _type_of(value)
    if dtype is not None:
        return None, None, dtype
    if isinstance(value, (tuple, list)) and value:
        parts = {}
        for item in value:
            kind, part = ('name', item) if isinstance(item, str) else ('shape', item) if _is_shape(item) else \
                ('type', _type_of(item))
            if part is None or kind in parts:
                return _NOT_A_SPEC
            parts[kind] = part
        return parts.get('name'), parts.get('shape'), parts.get('type')
    return _NOT_A_SPEC


def _bad_item(item):
    return UsageError('input: cannot read {!r} ({})', item, type(item).__name__,
                      hint='an input is a name, a shape ([1,3,224,224], openvino.PartialShape), a type (np.float32, '
                           'openvino.Type.f32) or a tuple of these: ("images", [1,3,224,224], np.float32)')


def _specs(value) -> list:
    if isinstance(value, dict):
        specs = []
        for name, item in value.items():
            if not isinstance(name, str):
                raise UsageError('input: the keys of an input dict are input names, not {!r}', name)
            spec = _spec(item) if item is not None else (None, None, None)
            if spec is _NOT_A_SPEC or spec[0] is not None:
                raise _bad_item(item)
            specs.append((name, spec[1], spec[2]))
        return specs
    # a list is one input only when it is a shape (['a', [1, 3]] is two inputs, as in ovc); a tuple is one
    # input when its items are a name, a shape and a type, each at most once
    single = _NOT_A_SPEC if isinstance(value, list) and not _is_shape(value) else _spec(value)
    if single is not _NOT_A_SPEC:
        return [single]
    if not isinstance(value, (list, tuple)):
        raise _bad_item(value)
    specs = []
    for item in value:
        spec = _spec(item)
        if spec is _NOT_A_SPEC:
            raise _bad_item(item)
        specs.append(spec)
    return specs


def input_options(value, input_shape=None) -> dict:
    """``input`` (and the caller's ``input_shape``) as the options ``input``/``input_shape`` in the command line's
    text."""
    if isinstance(value, str):
        return {'input': value}
    if isinstance(value, (list, tuple, dict)) and not value:
        return {}  # no inputs given, as in ovc (a scalar shape is written ov.PartialShape([]))
    specs = _specs(value)
    named = [s for s in specs if s[0] is not None]
    if named and len(named) != len(specs):
        raise UsageError('input: name every input or none ({} of {} are named)', len(named), len(specs))
    if not named:
        if any(dtype is not None for _, _, dtype in specs):
            raise UsageError('input: a type needs the input\'s name, as in ("x", [1,3], np.float32)',
                             hint='mo sets an input\'s type by name; the shape alone may go without one')
        if input_shape is not None:
            raise UsageError('input: unnamed shapes and input_shape= both give shapes; use one of them')
        return {'input_shape': ','.join(shape_text(shape) for _, shape, _ in specs)}
    texts = []
    for name, shape, dtype in specs:
        text = name
        if shape is not None:
            text += shape_text(shape)
        if dtype is not None:
            text += '{' + _type_text(dtype) + '}'
        texts.append(text)
    return {'input': ','.join(texts)}


def input_shape_text(value) -> str:
    """``input_shape``: a text, one shape, or a list of shapes."""
    if isinstance(value, str):
        return value
    if _is_shape(value):
        return shape_text(value, 'input_shape')
    if isinstance(value, (list, tuple)) and all(_is_shape(v) for v in value):
        return ','.join(shape_text(v, 'input_shape') for v in value)
    raise UsageError('input_shape: cannot read {!r}', value, hint='give a shape, [1,224,224,3], or a list of shapes')
