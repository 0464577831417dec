"""Bitwise ops of opset13 on integer tensors: BitwiseAnd, BitwiseOr, BitwiseXor (binary, numpy broadcasting) and
BitwiseNot (TF's Invert); and the internal ``IntegerShift`` (TF's LeftShift/RightShift, ONNX's BitShift), which
``extensions/middle/bitshift_lowering.py`` writes with opset13 ops: opset15's BitwiseLeftShift/RightShift are not used,
the IRs must load in OpenVINO 2023.3.
"""
import numpy as np

from mo.front.common.partial_infer.elemental import eltwise_infer
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


def shift_values(x, y, direction: str, out_of_range: str) -> np.ndarray:
    """The reference semantics of ``IntegerShift`` on numpy integers (``x`` and ``y`` of one type, broadcast).

    A shift amount outside ``[0, bits)`` is clamped into it for ``out_of_range='clamp'`` (TensorFlow's CPU kernel)
    and gives what the sign extension alone gives for ``'fill'`` (ONNX: 0, or -1 for a right shift of a negative
    ``x``). A right shift of a signed type is arithmetic; a left shift wraps (bits past the top are lost)."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    dtype = x.dtype
    bits = dtype.itemsize * 8
    unsigned = np.dtype('u{}'.format(dtype.itemsize))
    wide = y.astype(np.int64) if dtype.kind == 'i' else np.minimum(y.astype(np.uint64), bits).astype(np.int64)
    outside = (wide < 0) | (wide >= bits)
    amount = np.clip(wide, 0, bits - 1).astype(unsigned)
    if direction == 'left':
        result = np.asarray(np.left_shift(x.astype(unsigned), amount), dtype=unsigned).view(dtype)
        fill = np.zeros_like(x)
    else:
        result = np.right_shift(x, amount.astype(dtype))
        fill = np.where(x < 0, -1, 0).astype(dtype) if dtype.kind == 'i' else np.zeros_like(x)
    if out_of_range == 'fill':
        result = np.where(outside, fill, result)
    return np.asarray(result).astype(dtype)


class IntegerShift(Elementwise):
    """``x << y`` or ``x >> y`` (``direction`` 'left' or 'right') on integers of one type, numpy broadcasting; the
    ``out_of_range`` rule is ``shift_values``'s. An internal op: ``extensions/middle/bitshift_lowering.py`` writes it
    with opset13 ops once the element type is known (TF's LeftShift/RightShift and ONNX's BitShift become it)."""
    op, type = 'IntegerShift', None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, dict({'direction': 'left', 'out_of_range': 'clamp'}, **(attrs or {})))

    @classmethod
    def infer(cls, node):
        eltwise_infer(node, lambda x, y: shift_values(x, y, node.direction, node.out_of_range))
