"""Bitwise ops of opset13 on integer tensors: BitwiseAnd, BitwiseOr, BitwiseXor (binary, numpy broadcasting) and
BitwiseNot (TF's Invert). opset15's BitwiseLeftShift/RightShift are not used: the IRs must load in OpenVINO 2023.3.
"""
import numpy as np

from mo.ops.activation_ops import Activation
from mo.ops.elementwise import Elementwise


def _same_type(fn):
    """``fn`` on numpy values, in the inputs' own element type (``&`` of two int8 arrays stays int8)."""
    def apply(a, b):
        return np.asarray(fn(a, b)).astype(np.result_type(a, b))
    return staticmethod(apply)


class BitwiseAnd(Elementwise):
    op, type, version = 'BitwiseAnd', 'BitwiseAnd', 'opset13'
    operation = _same_type(np.bitwise_and)


class BitwiseOr(Elementwise):
    op, type, version = 'BitwiseOr', 'BitwiseOr', 'opset13'
    operation = _same_type(np.bitwise_or)


class BitwiseXor(Elementwise):
    op, type, version = 'BitwiseXor', 'BitwiseXor', 'opset13'
    operation = _same_type(np.bitwise_xor)


class BitwiseNot(Activation):
    """``~x``, bit by bit (TF's Invert)."""
    op, type, version = 'BitwiseNot', 'BitwiseNot', 'opset13'
    operation = staticmethod(np.invert)
