"""Shape helpers of mo's own passes and op infer functions (the internal form).

Shapes are int64 numpy arrays; an unknown dimension is stored as ``-1`` (``dynamic_dimension_value``),
and an unknown rank is ``None``. Masked input (the Model Optimizer's ``dynamic_dimension``, masked
entries of a masked array) and None entries are accepted and become ``-1``; what these helpers return is
always the ``-1`` form.

Extension authors see the Model Optimizer's masked form instead: ``mo.front.common.partial_infer.utils``
is that API, and ``mo.graph.author_view`` converts at the accessors their code reads shapes through.
"""
import sys

import numpy as np
from mo.utils.error import Error

#: how mo stores a dimension whose size is not known before the model runs
dynamic_dimension_value = -1
#: the Model Optimizer's integer stand-in for a masked dimension (``mo.front.common.partial_infer.utils``);
#: accepted on input as any other negative size
AUTHOR_DYNAMIC_VALUE = -1000000007


def __getattr__(name):
    # ``dynamic_dimension``, the Model Optimizer's marker of an unknown dimension (numpy's masked constant),
    # accepted on input. Resolved on first use: importing numpy.ma costs ~12 ms, a few percent of a typical
    # conversion, and only authors' code (mo.front.common.partial_infer.utils) brings masked values.
    if name == 'dynamic_dimension':
        return np.ma.masked
    raise AttributeError('module {!r} has no attribute {!r}'.format(__name__, name))


def is_masked_array(value) -> bool:
    """``value`` is a numpy masked array. Without importing numpy.ma: until something has, nothing is masked."""
    ma = sys.modules.get('numpy.ma')
    return ma is not None and isinstance(value, ma.MaskedArray)


def is_masked_constant(value) -> bool:
    """``value`` is numpy's masked constant (``dynamic_dimension``), without importing numpy.ma."""
    ma = sys.modules.get('numpy.ma')
    return ma is not None and value is ma.masked


def is_masked(value) -> bool:
    """``value`` is numpy's masked constant or an array with masked entries (``np.ma.is_masked``, or the
    constant itself), without importing numpy.ma."""
    ma = sys.modules.get('numpy.ma')
    return ma is not None and (value is ma.masked or ma.is_masked(value))


def _is_dynamic(dim) -> bool:
    return dim is None or is_masked(dim) or (np.ndim(dim) == 0 and int(dim) < 0)


def int64_array(value) -> np.ndarray:
    """``value`` as an int64 numpy array (lists, tuples, scalars and arrays alike)."""
    return np.array(value, dtype=np.int64)


def float_array(value) -> np.ndarray:
    """``value`` as a float64 numpy array (as the Model Optimizer's ``float_array``)."""
    return np.array(value, dtype=np.float64)


def float32_array(value) -> np.ndarray:
    return np.array(value, dtype=np.float32)


_INT64 = np.dtype(np.int64)


def shape_array(value, dtype=np.int64):
    """A shape as a 1-D array with ``-1`` for unknown dimensions (None, ``dynamic_dimension``, masked
    entries of a masked array, or negative values); None stays None."""
    if value is None:
        return None
    if type(value) is np.ndarray and value.dtype.kind in 'iu' and dtype is np.int64:
        # the common case, a shape inference computed: only negative sizes need rewriting
        if value.dtype is _INT64 and value.ndim == 1:  # already int64: a copy, unless a size is below -1
            for dim in value.tolist():  # a loop over the few sizes of a shape costs less than any numpy call
                if dim < dynamic_dimension_value:
                    return np.maximum(value, dynamic_dimension_value)
            return value.copy()
        shape = value.astype(dtype)
        shape[shape < 0] = dynamic_dimension_value
        return shape
    if is_masked_array(value):
        return np.where(np.ma.getmaskarray(value), dynamic_dimension_value,
                        np.ma.getdata(value)).astype(dtype).reshape(np.shape(value))
    dims = np.asarray(value, dtype=object)
    flat = [dynamic_dimension_value if _is_dynamic(d) else int(d) for d in np.ravel(dims)]
    return np.array(flat, dtype=dtype).reshape(dims.shape)


def undefined_shape_of_rank(rank: int) -> np.ndarray:
    """A shape of ``rank`` unknown dimensions."""
    return np.full(rank, dynamic_dimension_value, dtype=np.int64)


def unmask_shape(value):
    """``value`` with every unknown dimension as ``-1`` (a list for masked arrays, as the MO did)."""
    if is_masked_array(value):
        return value.tolist(dynamic_dimension_value)
    return value


def is_fully_defined(value) -> bool:
    """True when ``value`` (a shape, a value, a dimension) has no unknown entry; None is not defined."""
    if value is None or is_masked_constant(value):
        return False
    if is_masked_array(value):
        return not np.ma.is_masked(value) and not bool(np.any(np.ma.getdata(value) < 0))
    if isinstance(value, (list, tuple)):
        return all(is_fully_defined(v) for v in value)
    array = np.asarray(value)
    if array.dtype.kind not in 'iu':
        return True  # float or bool values have no unknown entries
    return bool(np.all(array >= 0))


def compatible_dims(dim1, dim2) -> bool:
    """Equal, or at least one of them unknown."""
    return _is_dynamic(dim1) or _is_dynamic(dim2) or int(dim1) == int(dim2)


def compatible_shapes(shape1, shape2) -> bool:
    """Same rank, and every pair of dimensions compatible (equal or one unknown)."""
    if shape1 is None or shape2 is None:
        return shape1 is None and shape2 is None
    a, b = shape_array(shape1), shape_array(shape2)
    return a.shape == b.shape and all(compatible_dims(x, y) for x, y in zip(a.ravel(), b.ravel()))


def strict_compare_tensors(tensor1, tensor2) -> bool:
    """Element-wise equal, unknown entries only where the other is unknown too; None equals None."""
    if tensor1 is None or tensor2 is None:
        return tensor1 is None and tensor2 is None
    a, b = shape_array(tensor1), shape_array(tensor2)
    return a.shape == b.shape and bool(np.array_equal(a, b))


def shape_delete(shape, obj):
    """``shape`` without the entries at index/indices ``obj`` (negative indices count from the end)."""
    indices = [int(i) for i in np.ravel(obj)]
    shape = shape_array(shape)
    rank = len(shape)
    indices = {i + rank if i < 0 else i for i in indices}
    for i in indices:
        if not 0 <= i < rank:
            raise Error('Incorrect element index {} to remove from {}', i, shape)
    return np.array([d for i, d in enumerate(shape) if i not in indices], dtype=np.int64)


def shape_insert(shape, pos: int, obj):
    """``shape`` with ``obj`` (a dimension, a list of them, or ``dynamic_dimension``) inserted at ``pos``."""
    items = [obj] if np.ndim(obj) == 0 else list(np.ravel(obj))
    shape = list(shape_array(shape))
    return shape_array(shape[:pos] + items + shape[pos:])


def clarify_partial_shape(shapes: list):
    """One shape that agrees with all ``shapes`` (same rank): each dimension the known size, if any."""
    shapes = [shape_array(s) for s in shapes]
    if not shapes:
        return None
    rank = len(shapes[0])
    if any(len(s) != rank for s in shapes):
        raise Error('Shapes of different ranks cannot be clarified: {}', [s.tolist() for s in shapes])
    result = np.full(rank, dynamic_dimension_value, dtype=np.int64)
    for s in shapes:
        for i, d in enumerate(s):
            if d >= 0:
                if result[i] >= 0 and result[i] != d:
                    raise Error('Shapes {} disagree in dimension {}', [x.tolist() for x in shapes], i)
                result[i] = d
    return result


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
        log.warning('"{}" ({}) would fold into a {:.0f} MB constant, over --max_constant_size '
                    '({:.0f} MB); it is left as a computation'.format(node.soft_get('name', node.id),
                                                                      node.soft_get('op'), size / 2 ** 20,
                                                                      limit / 2 ** 20))
    return False
