"""The Graph Transform Tool's ``--transforms`` language.

``strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, op=CheckNumerics)
fold_constants(ignore_errors=true)`` is a list of transforms applied in order; each has named
arguments, repeated names collect several values, and double quotes hold values with commas or
spaces. A mistake is reported with its column and a caret under it.
"""
import re

from mo.utils.error import UsageError

_NAME = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


class TransformCall:
    """One transform of the string: its name and ``{arg: [values...]}``."""

    def __init__(self, name: str, params: dict, column: int):
        self.name = name
        self.params = params
        self.column = column

    def __repr__(self):
        return 'TransformCall({!r}, {!r})'.format(self.name, self.params)


def _error(text, pos, what):
    caret = '  ' + text + '\n  ' + ' ' * pos + '^'
    raise UsageError('--transforms: {} at column {}', what, pos + 1, hint='\n' + caret)


def parse_transforms(text: str) -> list:
    """The ``TransformCall`` list of a ``--transforms`` value."""
    calls, pos, n = [], 0, len(text)

    def skip_ws(p):
        while p < n and text[p].isspace():
            p += 1
        return p

    pos = skip_ws(pos)
    while pos < n:
        match = _NAME.match(text, pos)
        if not match:
            _error(text, pos, 'expected a transform name, found "{}"'.format(text[pos]))
        name, start = match.group(0), pos
        pos = match.end()
        params = {}
        if pos < n and text[pos] == '(':
            pos = skip_ws(pos + 1)
            while True:
                if pos < n and text[pos] == ')':
                    pos += 1
                    break
                arg = _NAME.match(text, pos)
                if not arg:
                    _error(text, pos, 'expected an argument name in {}()'.format(name) if pos < n
                           else 'unclosed "(" of {}'.format(name))
                pos = skip_ws(arg.end())
                if pos >= n or text[pos] != '=':
                    _error(text, pos, 'expected "=" after argument "{}"'.format(arg.group(0)))
                pos = skip_ws(pos + 1)
                if pos < n and text[pos] == '"':
                    end = text.find('"', pos + 1)
                    if end < 0:
                        _error(text, pos, 'unclosed quote')
                    value, pos = text[pos + 1:end], end + 1
                else:
                    value_start = pos
                    while pos < n and text[pos] not in ',)' and not text[pos].isspace():
                        if text[pos] in '("=':
                            _error(text, pos, 'unexpected "{}" in the value of "{}"'.format(text[pos], arg.group(0)))
                        pos += 1
                    value = text[value_start:pos]
                    if not value:
                        _error(text, pos, 'missing value for argument "{}"'.format(arg.group(0)))
                params.setdefault(arg.group(0), []).append(value)
                pos = skip_ws(pos)
                if pos < n and text[pos] == ',':
                    pos = skip_ws(pos + 1)
                elif pos < n and text[pos] == ')':
                    continue
                else:
                    _error(text, pos, 'expected "," or ")" in the arguments of {}'.format(name) if pos < n
                           else 'unclosed "(" of {}'.format(name))
        elif pos < n and not text[pos].isspace():
            _error(text, pos, 'unexpected "{}" after transform "{}"'.format(text[pos], name))
        calls.append(TransformCall(name, params, start + 1))
        pos = skip_ws(pos)
    return calls
