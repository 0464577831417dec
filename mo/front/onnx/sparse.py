"""Sparse ONNX tensors (sparse initializers, SparseTensor attributes) as dense numpy arrays."""
import numpy as np

from mo.front.onnx.tensor import tensor_to_numpy
from mo.utils.error import Error


def sparse_to_dense(sparse, external=None) -> np.ndarray:
    """The dense value of SparseTensorProto ``sparse``: zeros but at ``indices`` (linear ``[NNZ]`` or
    coordinates ``[NNZ, rank]``), which hold ``values``."""
    name = sparse.values.name or '<sparse>'
    what = 'Sparse tensor "{}"'.format(name)
    shape = tuple(int(d) for d in sparse.dims)
    values = tensor_to_numpy(sparse.values, external=external, what=what).reshape(-1)
    indices = tensor_to_numpy(sparse.indices, external=external, what=what + ' (indices)').astype(np.int64)
    dense = np.zeros(shape, dtype=values.dtype)
    size = dense.size
    if indices.ndim == 1:
        flat = indices
    elif indices.ndim == 2 and indices.shape[1] == len(shape):
        if np.any(indices < 0) or np.any(indices >= np.array(shape, dtype=np.int64)):
            raise Error('{} has an index outside its shape {}', what, list(shape))
        flat = np.ravel_multi_index(tuple(indices.T), shape) if len(shape) else np.zeros(len(indices), np.int64)
    else:
        raise Error('{} has indices of shape {} for a tensor of rank {}', what, list(indices.shape), len(shape))
    if len(flat) != len(values):
        raise Error('{} has {} indices for {} values', what, len(flat), len(values))
    if np.any(flat < 0) or np.any(flat >= max(size, 1)):
        raise Error('{} has an index outside its shape {}', what, list(shape))
    dense.reshape(-1)[flat] = values
    return dense
