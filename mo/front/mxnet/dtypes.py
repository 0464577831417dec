"""MXNet's element type flags (mshadow's ``TypeFlag``), shared by ``.params`` arrays and a variable's
``__dtype__`` attribute.

bfloat16 is ``ml_dtypes.bfloat16`` as in mo's ONNX reader (MXNet itself shows it as a structured uint16), imported
only when a file has one (``mo.utils.narrow_types``).
"""
import numpy as np

from mo.utils import narrow_types
from mo.utils.error import Error

#: type flag -> numpy dtype, little-endian as MXNet writes it on every machine it runs on
NP_TYPES = {
    0: np.dtype('<f4'), 1: np.dtype('<f8'), 2: np.dtype('<f2'), 3: np.dtype('u1'), 4: np.dtype('<i4'),
    5: np.dtype('i1'), 6: np.dtype('<i8'), 7: np.dtype(np.bool_), 8: np.dtype('<i2'), 9: np.dtype('<u2'),
    10: np.dtype('<u4'), 11: np.dtype('<u8'),
}
#: the type flag of bfloat16, ml_dtypes' (imported when met)
BFLOAT16 = 12

#: type flag -> MXNet's own name of the type, for messages
TYPE_NAMES = {
    0: 'float32', 1: 'float64', 2: 'float16', 3: 'uint8', 4: 'int32', 5: 'int8', 6: 'int64', 7: 'bool',
    8: 'int16', 9: 'uint16', 10: 'uint32', 11: 'uint64', 12: 'bfloat16',
}


def np_dtype(flag: int, what: str) -> np.dtype:
    """The numpy dtype of MXNet type flag ``flag``; an Error naming ``what`` for a flag MXNet does not define."""
    dtype = NP_TYPES.get(flag)
    if dtype is None and flag == BFLOAT16:
        dtype = narrow_types.dtype('bfloat16')
    if dtype is None:
        raise Error('{} has element type flag {}, which is no MXNet type', what, flag)
    return dtype


def np_dtype_of_name(name: str, what: str) -> np.dtype:
    """The numpy dtype of an MXNet type name as ops' ``dtype`` attributes give it (``'float32'``, ``'int64'``)."""
    for flag, type_name in TYPE_NAMES.items():
        if type_name == name:
            return np_dtype(flag, what)
    raise Error('{}: "{}" is no MXNet element type ({})', what, name, ', '.join(TYPE_NAMES.values()))
