"""The IR's narrow element types (bf16, f8, f4, i4, u4, u2) as numpy dtypes, from ``ml_dtypes``, imported on first use.

Importing ``ml_dtypes`` 0.7 costs 0.7-0.8 s of CPU (0.6: under 0.01 s): it registers a ufunc loop for each of
its ~25 types and each ufunc, and numpy 2 compares every loop added with the ufunc's whole loop list. Most models
hold no narrow tensor, so no module of mo imports it when it is imported. Code that meets a narrow type by name
(a reader's type table, an IR element type) asks ``dtype(name)``, which imports it then; code that is handed a
dtype asks ``loaded()`` first: a dtype of ml_dtypes can only exist once something imported the package, so
"not loaded" means "not narrow" without the import.
"""
import sys

import numpy as np

#: ml_dtypes' name of each narrow type the IR has, with the IR's element type and port precision
IR_NARROW_TYPES = (
    ('bfloat16', 'bf16', 'BF16'),
    ('float8_e4m3fn', 'f8e4m3', 'F8E4M3'),
    ('float8_e5m2', 'f8e5m2', 'F8E5M2'),
    ('float8_e8m0fnu', 'f8e8m0', 'F8E8M0'),
    ('float4_e2m1fn', 'f4e2m1', 'F4E2M1'),
    ('int4', 'i4', 'I4'),
    ('uint4', 'u4', 'U4'),
    ('uint2', 'u2', 'U2'),
)

#: the 4-bit types, which the IR (and ONNX) store two elements per byte
NIBBLE_NAMES = frozenset(('int4', 'uint4', 'float4_e2m1fn'))
#: the bits of each type the IR stores several elements a byte: the 4-bit ones two, uint2 four
PACKED_BITS = dict({name: 4 for name in NIBBLE_NAMES}, uint2=2)


def loaded() -> bool:
    """True once ``ml_dtypes`` has been imported (by mo or by anyone in this process)."""
    return 'ml_dtypes' in sys.modules


def module():
    """The ``ml_dtypes`` module, imported now if it was not."""
    import ml_dtypes
    return ml_dtypes


def dtype(name: str) -> np.dtype:
    """``np.dtype(ml_dtypes.<name>)``: ``dtype('bfloat16')``."""
    return np.dtype(getattr(module(), name))


def is_narrow(value) -> bool:
    """True for a dtype of ``ml_dtypes`` (whose numpy kind is 'V'); never imports it."""
    value = np.dtype(value)
    return value.kind == 'V' and loaded() and value.type.__module__.startswith('ml_dtypes')


def name_of(value) -> str:
    """ml_dtypes' name of a narrow dtype (``'bfloat16'``), or '' for any other dtype; never imports it."""
    return np.dtype(value).name if is_narrow(value) else ''
