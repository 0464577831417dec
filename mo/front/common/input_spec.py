"""Parsing ``--input``, ``--input_shape`` and ``--output`` values.

``--input "x[1,224,224,3]{f32},mask{bool}->[1 0 1],y:1"`` gives one spec per input: a tensor name
(``node`` or ``node:port``), an optional shape in brackets (``?`` or ``-1`` for a dynamic
dimension), an optional element type in braces, and an optional ``->value`` that freezes the input
to a constant.
"""
import re

import numpy as np

from mo.utils.error import UsageError

_TYPES = {
    'f16': np.float16, 'f32': np.float32, 'f64': np.float64, 'i8': np.int8, 'i16': np.int16, 'i32': np.int32,
    'i64': np.int64, 'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64, 'bool': np.bool_,
    'boolean': np.bool_, 'float': np.float32, 'float32': np.float32, 'float16': np.float16, 'int32': np.int32,
    'int64': np.int64, 'uint8': np.uint8,
}


class InputSpec:
    """One ``--input`` item: tensor name, out port, shape, dtype and frozen value (each optional)."""

    def __init__(self, name, port=None, shape=None, dtype=None, value=None):
        self.name = name
        self.port = port
        self.shape = shape
        self.dtype = dtype
        self.value = value

    def __repr__(self):
        return 'InputSpec({!r}, port={}, shape={}, dtype={}, value={})'.format(
            self.name, self.port, self.shape, self.dtype, self.value)


def split_top_level(text: str, separator: str = ',') -> list:
    """Split on ``separator`` outside brackets and braces."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in '[{(':
            depth += 1
        elif ch in ']})':
            depth -= 1
        if ch == separator and depth == 0:
            parts.append(''.join(current))
            current = []
        else:
            current.append(ch)
    parts.append(''.join(current))
    return [p.strip() for p in parts if p.strip()]


def parse_shape(text: str, option: str = '--input'):
    """``[1,?,3]`` / ``(1,-1,3)`` / ``[1 -1 3]`` -> list with -1 for dynamic dims; ``[]`` is a scalar."""
    inner = text.strip()
    if not (inner[:1] in '[(' and inner[-1:] in '])'):
        raise UsageError('{}: shape "{}" must be in brackets, like [1,224,224,3]', option, text)
    items = [t for t in re.split(r'[,\s]+', inner[1:-1].strip()) if t]
    dims = []
    for item in items:
        if item in ('?', '-1'):
            dims.append(-1)
        elif item.isdigit():
            dims.append(int(item))
        else:
            raise UsageError('{}: bad dimension "{}" in shape "{}" (use a number, ? or -1)', option, item, text)
    return dims


def _parse_value(text, dtype, option):
    items = [t for t in re.split(r'[,\s]+', text.strip().strip('[]')) if t]
    if dtype is None and items and all(v.lower() in ('true', 'false') for v in items):
        dtype = np.dtype(np.bool_)  # True/False without a {type}: the input's own type is applied later
    try:
        values = [v.lower() in ('true', '1') if dtype == np.bool_ else float(v) for v in items]
    except ValueError:
        raise UsageError('{}: cannot read the value "{}"', option, text) from None
    array = np.array(values, dtype=dtype or np.float32)
    return array if len(items) != 1 or '[' in text else array.reshape(())


_ITEM = re.compile(r'^(?P<name>[^\[{]+?)\s*(?P<shape>[\[(][^\])]*[\])])?\s*(?:\{(?P<type>[^}]*)\})?\s*'
                   r'(?:->\s*(?P<value>.+))?$')


def parse_input(value: str, option: str = '--input') -> list:
    """The specs of an ``--input`` value (or of ``option``'s, in the same syntax), in order."""
    specs = []
    for item in split_top_level(value or ''):
        match = _ITEM.match(item)
        if not match:
            raise UsageError('{}: cannot read "{}"; expected name[shape]{{type}}->value', option, item)
        name, port = split_port(match.group('name').strip())
        shape = parse_shape(match.group('shape')) if match.group('shape') else None
        dtype = None
        if match.group('type'):
            key = match.group('type').strip().lower()
            if key not in _TYPES:
                raise UsageError('{}: unknown type "{}" for "{}" (known: {})', option, key, name,
                                 ', '.join(sorted(_TYPES)))
            dtype = np.dtype(_TYPES[key])
        frozen = _parse_value(match.group('value'), dtype, option) if match.group('value') else None
        if frozen is not None and shape is not None and frozen.size == int(np.prod(shape)):
            frozen = frozen.reshape(shape)
        specs.append(InputSpec(name, port, shape, dtype, frozen))
    return specs


def parse_input_shapes(value: str) -> list:
    """``--input_shape "[1,3],[2]"`` -> list of shapes."""
    return [parse_shape(s, '--input_shape') for s in split_top_level(value or '')]


def split_port(name: str):
    """``node:1`` -> ('node', 1); ``node`` -> ('node', None). Names may contain ':' elsewhere."""
    match = re.match(r'^(.*):(\d+)$', name)
    if match:
        return match.group(1), int(match.group(2))
    return name, None


def parse_output(value: str) -> list:
    """``--output "a,b:1"`` -> [('a', None), ('b', 1)]."""
    return [split_port(item) for item in split_top_level(value or '')]


def input_specs(params: dict, model_inputs: list) -> list:
    """What ``--input``, ``--input_shape`` and ``--freeze_placeholder_with_value`` ask of the model's inputs, as
    the specs to apply in order (``--input``'s, then the frozen ones).

    ``--input_shape`` shapes go to the ``--input`` names in order, or, without names, to ``model_inputs`` (the
    model's input nodes, in the model's order) as their ``user_shape``.
    """
    specs = parse_input(params.get('input') or '')
    shapes = parse_input_shapes(params.get('input_shape') or '')
    if specs and shapes:
        if len(shapes) != len(specs):
            raise UsageError('--input_shape gives {} shapes for {} --input names', len(shapes), len(specs))
        for spec, shape in zip(specs, shapes):
            if spec.shape is None:
                spec.shape = shape
    elif shapes:
        if len(shapes) != len(model_inputs):
            raise UsageError('--input_shape gives {} shapes but the model has {} inputs; name them with --input',
                             len(shapes), len(model_inputs))
        for node, shape in zip(model_inputs, shapes):
            node['user_shape'] = shape
    frozen = parse_input(params.get('freeze_placeholder_with_value') or '', '--freeze_placeholder_with_value')
    for spec in frozen:
        if spec.value is None:
            raise UsageError('--freeze_placeholder_with_value: "{}" gives no value (expected name->value)', spec.name)
    return specs + frozen
