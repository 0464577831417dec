"""Data-free weight quantization (``--compress_weights``): float weights as integer codes with a scale per row or per
group of a row, and a zero point in the asymmetric modes, such that ``(code - zero point) * scale`` is the weight
rounded to the nearest of the ``2^bits`` levels.

The weights come as a matrix ``[rows, columns]``: a row is one output channel, its columns the input channels it
reduces over, quantized in groups of ``group`` consecutive columns (``group`` = the number of columns: one scale per
row). The modes:

- symmetric (``int8_sym``, ``int4_sym``): signed codes ``round(w / scale)`` in ``[-2^(bits-1), 2^(bits-1) - 1]``,
  ``scale = max|w| / (2^(bits-1) - 1)`` per group, no zero point;
- asymmetric (``int8_asym``, ``int4_asym``): unsigned codes in ``[0, 2^bits - 1]``, the group's range widened to
  hold 0 (so a zero weight stays exactly zero), ``scale = (max - min) / (2^bits - 1)``, the zero point
  ``round(-min / scale)``, itself an unsigned code.

Either way a weight is off by at most half its group's ``scale`` (a clipped extreme is off by the zero point's own
rounding, at most half a step too). A group of zeros gets scale 1.
"""
import numpy as np

from mo.utils import narrow_types

#: mode name -> (bits, symmetric)
MODES = {'int8_sym': (8, True), 'int8_asym': (8, False), 'int4_sym': (4, True), 'int4_asym': (4, False)}


def code_dtype(bits: int, symmetric: bool) -> np.dtype:
    """The IR type of the codes: i8/u8, or i4/u4 (ml_dtypes, imported here: only compression needs it)."""
    if bits == 8:
        return np.dtype(np.int8 if symmetric else np.uint8)
    return narrow_types.dtype('int4' if symmetric else 'uint4')


def quantize(weights: np.ndarray, bits: int, symmetric: bool, group: int):
    """``weights`` [rows, columns] (``columns`` a multiple of ``group``) quantized per row and group of columns:
    ``(codes [rows, columns], scale [rows, groups] f32, zero point [rows, groups] or None)``, the codes and zero
    points of ``code_dtype(bits, symmetric)``."""
    rows, columns = weights.shape
    grouped = weights.astype(np.float32).reshape(rows, columns // group, group)
    if symmetric:
        top = (1 << (bits - 1)) - 1
        scale = np.max(np.abs(grouped), axis=-1, keepdims=True) / np.float32(top)
        scale[scale == 0] = 1
        codes = np.clip(np.rint(grouped / scale), -top - 1, top)
        zero = None
    else:
        top = (1 << bits) - 1
        low = np.minimum(np.min(grouped, axis=-1, keepdims=True), 0)
        high = np.maximum(np.max(grouped, axis=-1, keepdims=True), 0)
        scale = (high - low) / np.float32(top)
        scale[scale == 0] = 1
        zero = np.clip(np.rint(-low / scale), 0, top)
        codes = np.clip(np.rint(grouped / scale) + zero, 0, top)
        zero = zero[..., 0].astype(code_dtype(bits, symmetric))
    dtype = code_dtype(bits, symmetric)
    # through int16: numpy casts float to ml_dtypes' int4 only via an integer type
    codes = codes.astype(np.int16).astype(dtype).reshape(rows, columns)
    return codes, scale[..., 0].astype(np.float32), zero


def dequantize(codes: np.ndarray, scale: np.ndarray, zero, group: int) -> np.ndarray:
    """The float weights ``quantize``'s result stands for (f32)."""
    rows, columns = codes.shape
    values = codes.astype(np.float32).reshape(rows, columns // group, group)
    if zero is not None:
        values = values - zero.astype(np.float32)[..., None]
    return (values * scale[..., None]).reshape(rows, columns)


def relative_error(weights: np.ndarray, bits: int, symmetric: bool, group: int) -> float:
    """||w - Q(w)|| / ||w|| (Frobenius): how much of a weight ``bits``-bit quantization loses, comparable across
    layers of different sizes and magnitudes (0 for a weight of zeros)."""
    weights = weights.astype(np.float32)
    norm = float(np.linalg.norm(weights))
    if norm == 0:
        return 0.0
    return float(np.linalg.norm(weights - dequantize(*quantize(weights, bits, symmetric, group), group))) / norm
