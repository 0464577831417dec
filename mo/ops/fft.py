"""Discrete Fourier transforms of the opset: DFT and IDFT (opset7), RDFT and IRDFT (opset9).

A complex tensor is a float tensor with a trailing dimension of 2 (real, imaginary). ``axes`` (input 1) count
the complex tensor's own dimensions (that trailing 2 excluded; -1 is the last complex axis); ``signal_size``
(input 2, optional) sets the transform length per axis. RDFT takes a real tensor and returns the non-negative
half of the spectrum along the last of its axes (``n // 2 + 1``); IRDFT is its inverse and returns a real
tensor. Unknown sizes stay -1; nothing folds.
"""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error


def _axes(node, rank: int):
    """The transform axes as non-negative indices of a complex tensor of ``rank`` dimensions (None until known)."""
    axes = node.in_port(1).data.get_value()
    if axes is None:
        raise Error('{} "{}": the axes must be constant', node.op, node.soft_get('name', node.id))
    axes = [int(a) + rank if int(a) < 0 else int(a) for a in np.ravel(axes)]
    if any(not 0 <= a < rank for a in axes):
        raise Error('{} "{}": axes {} do not fit a tensor of rank {}', node.op, node.soft_get('name', node.id),
                    np.ravel(node.in_port(1).data.get_value()).tolist(), rank)
    return axes


def _signal_sizes(node, count: int):
    """The signal_size values (-1 for "the input's"), or None when the input is absent or not constant."""
    if not node.is_in_port_connected(2):
        return [-1] * count
    sizes = node.in_port(2).data.get_value()
    return None if sizes is None else [int(v) for v in np.ravel(sizes)]


class _Transform(Op):
    op = None
    version = None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'type': self.op, 'op': self.op, 'version': self.version, 'infer': type(self).infer,
                                 'in_ports_count': 3, 'out_ports_count': 1}, attrs)

    @staticmethod
    def transformed_shape(node, shape):
        """The output shape for input ``shape``: each transform (DFT, RDFT, ...) defines its own."""
        raise NotImplementedError('{} must define transformed_shape(node, shape)'.format(node.soft_get('op')))

    @classmethod
    def infer(cls, node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        node.out_port(0).data.set_shape(cls.transformed_shape(node, [int(d) for d in shape]))


class DFT(_Transform):
    """opset7 DFT: complex [..., 2] -> complex [..., 2] of the same shape (without signal_size)."""
    op, version = 'DFT', 'opset7'

    @staticmethod
    def transformed_shape(node, shape):
        axes = _axes(node, len(shape) - 1)
        sizes = _signal_sizes(node, len(axes))
        out = list(shape)
        for axis, size in zip(axes, sizes or [-1] * len(axes)):
            out[axis] = size if size != -1 else (out[axis] if sizes is not None else -1)
        return out


class IDFT(DFT):
    """opset7 IDFT: the inverse of DFT (divided by the number of points)."""
    op, version = 'IDFT', 'opset7'


class RDFT(_Transform):
    """opset9 RDFT: real [...] -> complex [..., 2], the last transform axis halved to n // 2 + 1."""
    op, version = 'RDFT', 'opset9'

    @staticmethod
    def transformed_shape(node, shape):
        axes = _axes(node, len(shape))
        sizes = _signal_sizes(node, len(axes))
        out = list(shape)
        for axis, size in zip(axes, sizes or [-1] * len(axes)):
            out[axis] = size if size != -1 else (out[axis] if sizes is not None else -1)
        last = axes[-1]
        out[last] = out[last] // 2 + 1 if out[last] >= 0 else -1
        return out + [2]


class IRDFT(_Transform):
    """opset9 IRDFT: complex [..., 2] -> real [...]; the last transform axis becomes signal_size (default
    2 * (n - 1))."""
    op, version = 'IRDFT', 'opset9'

    @staticmethod
    def transformed_shape(node, shape):
        out = list(shape[:-1])
        axes = _axes(node, len(out))
        sizes = _signal_sizes(node, len(axes))
        for k, axis in enumerate(axes):
            size = -2 if sizes is None else sizes[k]
            if size >= 0:
                out[axis] = size
            elif size == -2:
                out[axis] = -1
            elif k == len(axes) - 1:
                out[axis] = 2 * (out[axis] - 1) if out[axis] >= 0 else -1
        return out
