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


#: default cap on the bytes of a value that inference may fold into a constant
DEFAULT_MAX_CONSTANT_BYTES = 1 << 30


def max_constant_bytes(graph) -> int:
    params = graph.graph.get('cmd_params') or {}
    limit = params.get('max_constant_size')
    return DEFAULT_MAX_CONSTANT_BYTES if limit is None else int(limit)


def fold_allowed(node, shape, dtype) -> bool:
    """May ``node`` materialize a constant of ``shape``/``dtype``? Logs once per node when it may not.

    Expanding ops (Broadcast, Tile, Range, Pad, broadcasting element-wise ops) ask before they
    compute, so a constant sub-graph that would fold into gigabytes stays a computation instead
    of exhausting memory.
    """
    import logging as log
    if shape is None or any(int(d) < 0 for d in np.ravel(shape)):
        return False
    size = int(np.prod([int(d) for d in np.ravel(shape)], dtype=object)) * np.dtype(dtype).itemsize
    limit = max_constant_bytes(node.graph)
    if size <= limit:
        return True
    if not node.soft_get('_fold_refused', False):
        node['_fold_refused'] = True
        log.warning('[ WARNING ] "{}" ({}) would fold into a {:.0f} MB constant, over --max_constant_size '
                    '({:.0f} MB); it is left as a computation'.format(node.soft_get('name', node.id),
                                                                      node.soft_get('op'), size / 2 ** 20,
                                                                      limit / 2 ** 20))
    return False
