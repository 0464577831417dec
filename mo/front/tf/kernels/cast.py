"""Cast: TensorFlow's dtype conversion, including its out-of-range float -> integer results.

C++ leaves float -> integer conversion of nan and of out-of-range values undefined; TensorFlow
simply does ``static_cast``, so what it produces is what the x86-64 conversion instructions
produce (CVTTSS2SI and friends return the "integer indefinite" value, the most negative integer).
:func:`float_to_int` reproduces that deterministically so folded constants do not depend on the
machine mo runs on:

* int32 / int64: truncate toward zero; nan or out of range -> INT_MIN of that width;
* int8 / int16 / uint8 / uint16: as int32, then keep the low bits (wrap);
* uint32: as int64, then keep the low 32 bits;
* uint64: values in [2**63, 2**64) convert exactly, nan and values >= 2**64 give 2**63, the rest
  go through int64 and wrap.
"""
import numpy as np

from mo.front.tf import dtypes
from .registry import kernel, bf16_to_float32, float32_to_bf16

_INT_VIA = {
    np.dtype(np.int8): np.int32, np.dtype(np.int16): np.int32, np.dtype(np.uint8): np.int32,
    np.dtype(np.uint16): np.int32, np.dtype(np.int32): np.int32, np.dtype(np.uint32): np.int64,
    np.dtype(np.int64): np.int64,
}


def _to_signed(x, dtype):
    """x86 truncating conversion of float ``x`` to int32/int64 (nan/out of range -> INT_MIN)."""
    info = np.iinfo(dtype)
    x = x.astype(np.float64) if x.dtype.itemsize < 8 else x
    t = np.trunc(x)
    # the range test is done on float64; +2**31/2**63 are exact in float64
    bad = ~((t >= float(info.min)) & (t < -float(info.min)))
    return np.where(bad, info.min, np.where(bad, 0, t).astype(dtype))


def float_to_int(x, dtype) -> np.ndarray:
    """Convert a float array to integer ``dtype`` exactly as TensorFlow on x86-64 does."""
    dtype = np.dtype(dtype)
    if dtype == np.uint64:
        x64 = x.astype(np.float64)
        big = x64 >= 2.0 ** 63  # false for nan
        huge = ~(x64 < 2.0 ** 64)  # true for nan
        low = _to_signed(np.where(big, 0, x64), np.int64).view(np.uint64)
        exact = np.where(big & ~huge, x64, 0).astype(np.uint64)
        out = np.where(big & ~huge, exact, low)
        return np.where(huge & (big | np.isnan(x64)), np.uint64(2 ** 63), out).astype(np.uint64)
    via = _INT_VIA.get(dtype)
    if via is None:
        raise TypeError('cannot cast float to {}'.format(dtype))
    return _to_signed(x, via).astype(dtype)


def float_narrow(x, dtype, truncate: bool) -> np.ndarray:
    """float -> narrower float; ``truncate`` drops mantissa bits (rounds toward zero) as TF's Truncate attr."""
    dtype = np.dtype(dtype)
    rounded = x.astype(dtype)
    if not truncate or dtype.itemsize >= x.dtype.itemsize:
        return rounded
    # where rounding went away from zero, step one ulp back toward zero; values at or beyond
    # 2**maxexp have no finite truncation and stay inf, as TF's bit-chopping gives
    too_far = np.abs(rounded.astype(x.dtype)) > np.abs(x)
    overflow = np.abs(x) >= np.ldexp(x.dtype.type(1), np.finfo(dtype).maxexp)
    stepped = np.nextafter(rounded, np.zeros((), dtype))
    return np.where(too_far & ~overflow, stepped, rounded)


def cast_array(x, src_is_bf16: bool, dst, dst_is_bf16: bool, truncate: bool = False) -> np.ndarray:
    """Convert ``x`` to numpy dtype ``dst`` with TensorFlow's rules (bfloat16 flags mark uint16 bits)."""
    if src_is_bf16:
        x = bf16_to_float32(x)
    src = x.dtype
    if src.kind == 'O' or np.dtype(dst).kind == 'O':
        raise TypeError('Cast to or from string is not supported')
    if src.kind == 'c' and not (dst_is_bf16 or np.dtype(dst).kind == 'c'):
        x = x.real  # complex -> real keeps the real part
        src = x.dtype
    if dst_is_bf16:
        if src.kind == 'c':
            x = x.real
        # Eigen converts to bfloat16 through float32 (float64 sources are rounded twice)
        return float32_to_bf16(x.astype(np.float32) if x.dtype != np.float32 else x, truncate)
    dst = np.dtype(dst)
    if src == dst:
        return x
    if dst == np.bool_:
        return x != 0  # nan is true
    if src.kind == 'f' and dst.kind in 'iu':
        return float_to_int(x, dst)
    if src.kind == 'f' and dst.kind == 'f':
        return float_narrow(x, dst, truncate)
    # bool -> number, int -> int (wraps), int -> float (round to nearest), real/complex -> complex
    return x.astype(dst)


@kernel('Cast', inputs=1, bf16=())
def cast(ctx, x):
    """Convert to DstT: float->int truncates (x86 results for nan/overflow), ints wrap, nonzero->True."""
    src_type = ctx.attrs.get('SrcT')
    dst_type = ctx.attr('DstT')
    dst = ctx.dtype_attr('DstT')
    src_is_bf16 = src_type == dtypes.DT_BFLOAT16
    if src_is_bf16 and x.dtype != np.uint16:
        raise ctx.error('SrcT is bfloat16 but the input holds {}', x.dtype)
    if src_type is not None and not src_is_bf16 and dtypes.np_dtype(int(src_type)) != x.dtype:
        raise ctx.error('SrcT is {} but the input holds {}', dtypes.tf_dtype_name(int(src_type)), x.dtype)
    truncate = ctx.bool_attr('Truncate', False)
    try:
        return cast_array(x, src_is_bf16, dst, dst_type == dtypes.DT_BFLOAT16, truncate)
    except TypeError as e:
        raise ctx.error('{}', e) from None
