"""A small validator for the JSON-schema subset mo's config schemas use.

Supports ``type`` (one or a list), ``required``, ``properties``, ``additionalProperties``
(``false`` or a schema), ``items``, ``enum``,
``minLength``, ``minItems``, ``minimum`` and local ``$ref``. Every problem comes back with the
JSON path of the value at fault, e.g. ``[2].instances.start_points[1]``.
"""

_TYPES = {
    'object': dict, 'array': list, 'string': str, 'boolean': bool, 'null': type(None),
}


def _is_type(value, name) -> bool:
    if name == 'integer':
        return isinstance(value, int) and not isinstance(value, bool)
    if name == 'number':
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def _join(path, key) -> str:
    if isinstance(key, int):
        return '{}[{}]'.format(path, key)
    return '{}.{}'.format(path, key) if path else key


def validate(value, schema: dict, root: dict = None, path: str = '') -> list:
    """All problems of ``value`` against ``schema`` as ``(json_path, message)`` pairs."""
    root = root or schema
    if '$ref' in schema:
        target = root
        for part in schema['$ref'].lstrip('#/').split('/'):
            target = target[part]
        return validate(value, target, root, path)
    problems = []
    types = schema.get('type')
    if types is not None:
        names = types if isinstance(types, list) else [types]
        if not any(_is_type(value, t) for t in names):
            return [(path or '<top>', 'must be {} (found {})'.format(' or '.join(names), _json_type(value)))]
    if 'enum' in schema and value not in schema['enum']:
        problems.append((path or '<top>', 'must be one of {} (found {!r})'.format(
            ', '.join(repr(e) for e in schema['enum']), value)))
    if isinstance(value, str) and len(value) < schema.get('minLength', 0):
        problems.append((path or '<top>', 'must not be empty'))
    if isinstance(value, list):
        if len(value) < schema.get('minItems', 0):
            problems.append((path or '<top>', 'needs at least {} item(s)'.format(schema['minItems'])))
        if 'items' in schema:
            for i, item in enumerate(value):
                problems.extend(validate(item, schema['items'], root, _join(path, i)))
    if isinstance(value, dict):
        for key in schema.get('required', ()):
            if key not in value:
                problems.append((path or '<top>', 'is missing "{}"'.format(key)))
        properties = schema.get('properties', {})
        for key, sub in properties.items():
            if key in value:
                problems.extend(validate(value[key], sub, root, _join(path, key)))
        extra = schema.get('additionalProperties', True)
        for key in value:
            if key in properties or extra is True:
                continue
            if extra is False:
                known = ', '.join('"{}"'.format(k) for k in properties)
                problems.append((_join(path, key), 'is not a known key (known: {})'.format(known)))
            else:
                problems.extend(validate(value[key], extra, root, _join(path, key)))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 'minimum' in schema \
            and value < schema['minimum']:
        problems.append((path or '<top>', 'must be at least {}'.format(schema['minimum'])))
    return problems


def _json_type(value) -> str:
    for name in ('boolean', 'integer', 'number', 'string', 'array', 'object', 'null'):
        if _is_type(value, name):
            return name
    return type(value).__name__
