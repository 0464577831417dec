"""Matrix products: MatMul, BatchMatMul (V1/V2/V3), Einsum, and MatrixBandPart.

Half-precision products accumulate in float32 and round once, as TF's CPU kernels do; integer
products accumulate in the integer type and wrap.
"""
import numpy as np

from .registry import kernel, same_dtype, shape_str, int_scalar, compute_dtype, require_dtype_kind


def _product(a, b, out_dtype):
    ct = compute_dtype(out_dtype)
    return np.matmul(a.astype(ct, copy=False), b.astype(ct, copy=False)).astype(out_dtype, copy=False)


def _adjoint(x):
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == 'c' else x


@kernel('MatMul', inputs=2)
def mat_mul(ctx, a, b):
    """a @ b for matrices, each optionally transposed first (transpose_a / transpose_b)."""
    dtype = same_dtype(ctx, a, b)
    require_dtype_kind(ctx, a, 'iufc')
    if a.ndim != 2 or b.ndim != 2:
        raise ctx.error('In[0] and In[1] must be matrices, got {} and {}', shape_str(a.shape), shape_str(b.shape))
    if ctx.bool_attr('transpose_a', False):
        a = a.T
    if ctx.bool_attr('transpose_b', False):
        b = b.T
    if a.shape[1] != b.shape[0]:
        raise ctx.error('Matrix size-incompatible: In[0]: {}, In[1]: {}', shape_str(a.shape), shape_str(b.shape))
    return _product(a, b, dtype)


def _batch_matmul(ctx, x, y, out_dtype, broadcast):
    if x.ndim < 2 or y.ndim < 2:
        raise ctx.error('In[0] and In[1] must have rank >= 2, got {} and {}', shape_str(x.shape), shape_str(y.shape))
    if not broadcast:
        if x.ndim != y.ndim:
            raise ctx.error('In[0] and In[1] has different ndims: {} vs. {}', shape_str(x.shape), shape_str(y.shape))
        for i in range(x.ndim - 2):
            if x.shape[i] != y.shape[i]:
                raise ctx.error('In[0].dim({}) and In[1].dim({}) must be the same: {} vs {}',
                                i, i, shape_str(x.shape), shape_str(y.shape))
    else:
        try:
            np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
        except ValueError:
            raise ctx.error('In[0] and In[1] must have compatible batch dimensions: {} vs. {}',
                            shape_str(x.shape), shape_str(y.shape)) from None
    if ctx.bool_attr('adj_x', False):
        x = _adjoint(x)
    if ctx.bool_attr('adj_y', False):
        y = _adjoint(y)
    if x.shape[-1] != y.shape[-2]:
        raise ctx.error('Matrix size-incompatible: In[0]: {}, In[1]: {}', shape_str(x.shape), shape_str(y.shape))
    return _product(x, y, out_dtype)


@kernel('BatchMatMul', inputs=2)
def batch_mat_mul(ctx, x, y):
    """Matrix product over the last two dims; batch dims must be equal (no broadcasting); adj_x/adj_y."""
    dtype = same_dtype(ctx, x, y)
    require_dtype_kind(ctx, x, 'iufc')
    return _batch_matmul(ctx, x, y, dtype, broadcast=False)


@kernel('BatchMatMulV2', inputs=2)
def batch_mat_mul_v2(ctx, x, y):
    """Matrix product over the last two dims with broadcast batch dims; adj_x/adj_y conjugate-transpose."""
    dtype = same_dtype(ctx, x, y)
    require_dtype_kind(ctx, x, 'iufc')
    return _batch_matmul(ctx, x, y, dtype, broadcast=True)


@kernel('BatchMatMulV3', inputs=2, bf16=('Ta', 'Tb'), bf16_out=('Tout',))
def batch_mat_mul_v3(ctx, x, y):
    """BatchMatMulV2 with operand types Ta/Tb (e.g. int8 x uint8) computed and returned in Tout."""
    require_dtype_kind(ctx, x, 'iufc')
    require_dtype_kind(ctx, y, 'iufc')
    out_dtype = ctx.dtype_attr('Tout', None) if 'Tout' in ctx.attrs else np.result_type(x, y)
    if ctx.attrs.get('Tout') == 14:  # bfloat16 is computed as float32 (evaluate rounds the result)
        out_dtype = np.dtype(np.float32)
    return _batch_matmul(ctx, x, y, out_dtype, broadcast=True)


@kernel('Einsum', inputs=(1, 2))
def einsum(ctx, *inputs):
    """Einstein summation per the ``equation`` attribute (explicit '->' output, '...' broadcasts)."""
    equation = ctx.str_attr('equation').replace(' ', '')
    if equation.count('->') != 1:
        raise ctx.error("Expecting exactly one '->' in einsum equation: {}", equation)
    dtype = same_dtype(ctx, *inputs)
    require_dtype_kind(ctx, inputs[0], 'iufc')
    ct = compute_dtype(dtype)
    operands = [x.astype(ct, copy=False) for x in inputs]
    try:
        out = np.einsum(equation, *operands, optimize=len(operands) > 1)
    except ValueError as e:
        raise ctx.error('invalid equation "{}" for inputs {}: {}', equation,
                        ', '.join(shape_str(x.shape) for x in inputs), e) from None
    return np.asarray(out).astype(dtype, copy=False)


@kernel('MatrixBandPart', inputs=3)
def matrix_band_part(ctx, x, num_lower, num_upper):
    """Keep the band of num_lower sub- and num_upper super-diagonals of the inner matrices (negative: all)."""
    if x.ndim < 2:
        raise ctx.error('input must be at least 2-dim, received shape: {}', shape_str(x.shape))
    lower = int_scalar(ctx, num_lower, 'num_lower')
    upper = int_scalar(ctx, num_upper, 'num_upper')
    m, n = x.shape[-2:]
    if lower > m:
        raise ctx.error('num_lower must be negative or less or equal to number of rows ({}) got: {}', m, lower)
    if upper > n:
        raise ctx.error('num_upper must be negative or less or equal to number of columns ({}) got: {}', n, upper)
    row = np.arange(m).reshape(m, 1)
    col = np.arange(n).reshape(1, n)
    keep = np.ones((m, n), bool)
    if lower >= 0:
        keep &= row - col <= lower
    if upper >= 0:
        keep &= col - row <= upper
    return np.where(keep, x, np.zeros((), x.dtype))
