"""MatrixInverse: the inverse of each innermost square matrix of ``[..., n, n]`` (``adjoint``: of its transpose).

An internal op: ``extensions/middle/matrix_inverse_lowering.py`` writes it, once ``n`` is known, as Gauss-Jordan
elimination with partial pivoting unrolled over the n columns, in opset1 ops: opset14's Inverse would be one op, but
the IRs must load in OpenVINO 2023.3 (README). Constant inputs fold with numpy.
"""
import numpy as np

from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.activation_ops import Activation


def _inverse(x, adjoint: bool):
    x = np.asarray(x)
    if adjoint:
        x = np.swapaxes(x, -1, -2)
    return np.linalg.inv(x).astype(x.dtype)


class MatrixInverse(Activation):
    """Input: [..., n, n]; output: each matrix's inverse (of its transpose with ``adjoint``), same shape and type."""
    op, type = 'MatrixInverse', None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, dict({'adjoint': False}, **(attrs or {})))

    @classmethod
    def infer(cls, node):
        copy_shape_infer(node, lambda x: _inverse(x, bool(node.soft_get('adjoint', False))))
