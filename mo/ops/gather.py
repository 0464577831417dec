"""Gather (opset8): picks slices of input 0 along ``axis`` (input 2) at ``indices`` (input 1).

With ``batch_dims = b`` the first ``b`` dimensions of data and indices are batch dimensions walked
in lockstep (TensorFlow's GatherV2 ``batch_dims``). Negative indices count from the end.
"""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error
from mo.compat.ops_hook import legacy_op_names


def gather_value(data, indices, axis: int, batch_dims: int):
    """Numpy evaluation of Gather-8 (``axis`` and ``batch_dims`` already non-negative)."""
    indices = np.where(indices < 0, indices + data.shape[axis], indices)
    if batch_dims == 0:
        return np.take(data, indices, axis=axis)
    batch_shape = data.shape[:batch_dims]
    count = int(np.prod(batch_shape))
    flat_data = data.reshape((count,) + data.shape[batch_dims:])
    flat_indices = indices.reshape((count,) + indices.shape[batch_dims:])
    parts = [np.take(flat_data[i], flat_indices[i], axis=axis - batch_dims) for i in range(count)]
    out_tail = data.shape[batch_dims:axis] + indices.shape[batch_dims:] + data.shape[axis + 1:]
    if parts:
        return np.stack(parts).reshape(batch_shape + out_tail)
    return np.empty(batch_shape + out_tail, dtype=data.dtype)


class Gather(Op):
    """Output shape: ``data[:axis] + indices[batch_dims:] + data[axis + 1:]``."""
    op = 'Gather'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Gather', 'op': 'Gather', 'version': 'opset8', 'batch_dims': 0,
            'infer': Gather.infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['batch_dims']

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        data_shape = node.in_port(0).data.get_shape()
        indices_shape = node.in_port(1).data.get_shape()
        axis = node.in_port(2).data.get_value()
        if data_shape is None or indices_shape is None:
            return
        if axis is None:
            raise Error('Gather "{}": the axis must be a constant', name)
        rank = len(data_shape)
        axis = int(np.ravel(axis)[0])
        axis = axis + rank if axis < 0 else axis
        batch_dims = int(node.batch_dims)
        batch_dims = batch_dims + len(indices_shape) if batch_dims < 0 else batch_dims
        if not 0 <= axis < rank or not 0 <= batch_dims <= min(axis, len(indices_shape)):
            raise Error('Gather "{}": axis {} / batch_dims {} do not fit data rank {} and indices rank {}', name,
                        axis, node.batch_dims, rank, len(indices_shape))
        data = node.in_port(0).data.get_value()
        indices = node.in_port(1).data.get_value()
        if data is not None and indices is not None:
            node.out_port(0).data.set_value(gather_value(data, np.asarray(indices), axis, batch_dims))
            return
        out = list(data_shape[:axis]) + list(indices_shape[batch_dims:]) + list(data_shape[axis + 1:])
        node.out_port(0).data.set_shape(out)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
