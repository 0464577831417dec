"""Small helpers for shapes and values used by inference functions and replacers.

Shapes are int64 numpy arrays; an unknown dimension is ``-1`` (``dynamic_dimension``), and an
unknown rank is ``None``.
"""
import numpy as np

#: the value of a dimension whose size is not known before the model runs
dynamic_dimension = -1


def int64_array(value) -> np.ndarray:
    """``value`` as an int64 numpy array (lists, tuples, scalars and arrays alike)."""
    return np.array(value, dtype=np.int64)


def float32_array(value) -> np.ndarray:
    return np.array(value, dtype=np.float32)


def shape_array(value):
    """A shape as a 1-D int64 array with ``-1`` for unknown (None) dimensions; None stays None."""
    if value is None:
        return None
    dims = np.ravel(np.asarray(value, dtype=object))
    return np.array([dynamic_dimension if d is None else int(d) for d in dims], dtype=np.int64)


def is_fully_defined(shape) -> bool:
    """True when the rank and every dimension are known."""
    return shape is not None and all(int(d) >= 0 for d in np.ravel(shape))


def shape_to_str(shape) -> str:
    if shape is None:
        return '[...]'
    return '[{}]'.format(','.join('?' if d < 0 else str(int(d)) for d in np.ravel(shape)))


def mo_array(value, dtype=None) -> np.ndarray:
    return np.array(value, dtype=dtype)
