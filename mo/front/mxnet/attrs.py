"""MXNet's attribute strings as typed Python values.

MXNet keeps every attribute of a graph node as the string its Python front end made of the value:
``'(3, 3)'``, ``'(None, 2)'``, ``'True'``, ``'0.001'``, ``'1e-05'``, ``'None'``, ``'relu'``. Files written from
Python 2 add ``L`` to integers (``'(1L, 3L)'``). A tuple field also takes a lone value (``'3'`` is ``(3,)``),
as MXNet's own tuple parser does, and a bool field takes ``'1'``/``'0'`` and ``'true'``/``'false'``.

``Attrs`` wraps a node's dict and converts on request, with the node named in its Errors; ``parse_value``
guesses the type of a string whose field is not known.
"""
# the getters are named after the types they return, so annotations must not be evaluated in the class body
from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Tuple

from mo.utils.error import Error

_REQUIRED = object()
_TRUE = {'true': True, '1': True, 'false': False, '0': False}


def _int(text: str) -> int:
    text = text.strip()
    if text[-1:] in ('L', 'l'):
        text = text[:-1]
    return int(text)


def _float(text: str) -> float:
    # float() takes 'inf', '-inf' and 'nan' as MXNet writes them; Python 2's repr of a long int ends in L
    text = text.strip()
    if text[-1:] in ('L', 'l') and text[:-1].lstrip('+-').isdigit():
        text = text[:-1]
    return float(text)


def _bool(text: str) -> bool:
    return _TRUE[text.strip().lower()]


def _optional(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    return lambda text: None if text.strip() == 'None' else convert(text)


def _tuple(text: str, item: Callable[[str], Any]) -> tuple:
    text = text.strip()
    if text[:1] in '([' and text[-1:] in ')]' and len(text) >= 2:
        body = text[1:-1].strip()
        if not body:
            return ()
        parts = body.split(',')
        if parts[-1].strip() == '':  # the trailing comma of a 1-tuple, '(3,)'
            parts = parts[:-1]
    else:
        parts = [text]
    return tuple(None if part.strip() == 'None' else item(part) for part in parts)


def parse_value(text: str) -> Any:
    """The value an attribute string most likely stands for: None, a bool, an int, a float, a tuple (of
    ints, floats or None) or, failing those, the string itself."""
    if not isinstance(text, str):
        return text
    stripped = text.strip()
    if stripped == 'None':
        return None
    if stripped in ('True', 'False'):
        return stripped == 'True'
    for convert in (_int, _float):
        try:
            return convert(stripped)
        except (ValueError, IndexError):
            pass
    if stripped[:1] in '([' and stripped[-1:] in ')]':
        for convert in (_int, _float):
            try:
                return _tuple(stripped, convert)
            except (ValueError, IndexError):
                pass
    return text


class Attrs(Mapping):
    """A node's attribute strings, read as typed values; ``what`` names the node in Errors.

    Each getter takes the key and a default returned when the key is absent (no default: the key is
    required). A present value of ``'None'`` is ``None`` for every kind but ``str``.
    """

    def __init__(self, raw: Mapping[str, str], what: str = 'node'):
        self.raw = dict(raw)
        self.what = what

    def __getitem__(self, key):
        return self.raw[key]

    def __iter__(self):
        return iter(self.raw)

    def __len__(self):
        return len(self.raw)

    def _get(self, key: str, default, kind: str, convert: Callable[[str], Any]):
        if key not in self.raw:
            if default is _REQUIRED:
                raise Error('{} has no attribute "{}"', self.what, key)
            return default
        text = self.raw[key]
        try:
            return convert(text)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError):
            raise Error('{}: attribute "{}" is "{}", which is not {}', self.what, key, text, kind) from None

    def str(self, key: str, default=_REQUIRED) -> Optional[str]:
        """The attribute as it is written."""
        return self._get(key, default, 'a string', str)

    def int(self, key: str, default=_REQUIRED) -> Optional[int]:
        """The attribute as an int (``'None'`` is None)."""
        return self._get(key, default, 'an integer', _optional(_int))

    def float(self, key: str, default=_REQUIRED) -> Optional[float]:
        """The attribute as a float (``'None'`` is None; ``'inf'``, ``'-inf'`` and ``'nan'`` are floats)."""
        return self._get(key, default, 'a number', _optional(_float))

    def bool(self, key: str, default=_REQUIRED) -> Optional[bool]:
        """The attribute as a bool: ``True``/``False``, ``true``/``false`` or ``1``/``0`` (``'None'`` is None)."""
        return self._get(key, default, 'a boolean', _optional(_bool))

    def tuple(self, key: str, default=_REQUIRED, item: str = 'int') -> Optional[Tuple]:
        """The attribute as a tuple of ``item`` (``'int'`` or ``'float'``) whose elements may be None
        (``'(None, 2)'``); a lone value is a 1-tuple and ``'None'`` is None."""
        convert = _int if item == 'int' else _float
        kind = 'a tuple of {}s'.format(item)
        return self._get(key, default, kind, _optional(lambda text: _tuple(text, convert)))
