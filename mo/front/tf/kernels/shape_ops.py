"""Ops about shapes: Shape, Size, Rank, Reshape, ExpandDims, Squeeze and the broadcast helpers.

None of these look at element values, so they are registered with ``bf16=()``: bfloat16 tensors
pass through as their uint16 bit patterns.
"""
import numpy as np

from .registry import kernel, int_list, int_vector, int_scalar, shape_str

_DT_INT32 = 3


def _shape_tensor(ctx, dims, out_dtype):
    out_dtype = np.dtype(out_dtype)
    if out_dtype.kind not in 'iu':
        raise ctx.error('out_type must be an integer type, got {}', out_dtype)
    info = np.iinfo(out_dtype)
    if any(d > info.max for d in dims):
        raise ctx.error('shape {} does not fit in out_type {}', shape_str(dims), out_dtype)
    return np.array(dims, dtype=out_dtype).reshape(len(dims))


@kernel('Shape', inputs=1, bf16=())
def shape(ctx, x):
    """The shape of the input as a 1-D tensor of out_type (int32 by default)."""
    return _shape_tensor(ctx, x.shape, ctx.dtype_attr('out_type', _DT_INT32))


@kernel('ShapeN', inputs=(1, None), bf16=())
def shape_n(ctx, *xs):
    """The shape of each of the N inputs, as N 1-D tensors of out_type."""
    out_dtype = ctx.dtype_attr('out_type', _DT_INT32)
    return [_shape_tensor(ctx, x.shape, out_dtype) for x in xs]


@kernel('Size', inputs=1, bf16=())
def size(ctx, x):
    """The number of elements as a scalar of out_type (int32 by default)."""
    out_dtype = ctx.dtype_attr('out_type', _DT_INT32)
    return _shape_tensor(ctx, [x.size], out_dtype).reshape(())


@kernel('Rank', inputs=1, bf16=())
def rank(ctx, x):
    """The number of dimensions as an int32 scalar."""
    return np.array(x.ndim, dtype=np.int32)


@kernel('Reshape', inputs=2, bf16=())
def reshape(ctx, x, new_shape):
    """Reshape; one -1 takes the remaining size, and TF's rule for empty tensors applies.

    With a 0 in the requested shape, the -1 is inferred from the non-zero dimensions only (TF skips
    zero-sized dims on both sides), so [0, 3] reshaped to [0, -1] is [0, 3], not an error.
    """
    if new_shape.ndim > 1:
        raise ctx.error('sizes input must be 1-D, not {}', shape_str(new_shape.shape))
    sizes = int_list(ctx, new_shape, 'shape')
    unknown = None
    product = 1
    has_zero = False
    for i, s in enumerate(sizes):
        if s == -1:
            if unknown is not None:
                raise ctx.error('Only one input size may be -1, not both {} and {}', unknown, i)
            unknown = i
        elif s < 0:
            raise ctx.error('Size {} must be non-negative, not {}', i, s)
        elif s == 0:
            has_zero = True
        else:
            product *= s
    dims = list(sizes)
    if unknown is not None:
        known = 1
        input_has_zero = False
        for d in x.shape:
            if d > 0 or not has_zero:
                known *= d
            else:
                input_has_zero = True
        missing = known // product
        if not input_has_zero and missing * product != known:
            raise ctx.error('Input to reshape is a tensor with {} values, but the requested shape '
                            'requires a multiple of {}', x.size, product)
        dims[unknown] = missing
    if int(np.prod(dims, dtype=np.int64)) != x.size:
        raise ctx.error('Input to reshape is a tensor with {} values, but the requested shape has {}',
                        x.size, int(np.prod(dims, dtype=np.int64)))
    return x.reshape(dims)


@kernel('ExpandDims', inputs=2, bf16=())
def expand_dims(ctx, x, dim):
    """Insert a size-1 dimension at ``dim`` in [-rank-1, rank] (scalar or 1-element dim)."""
    if dim.size != 1:
        raise ctx.error("'dim' must be a tensor with a single value, got shape {}", shape_str(dim.shape))
    axis = int_scalar(ctx, dim, 'dim', allow_one_element=True)
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise ctx.error('Tried to expand dim index {} for tensor with {} dimensions.', axis, x.ndim)
    if axis < 0:
        axis += x.ndim + 1
    return np.expand_dims(x, axis)


@kernel('Squeeze', inputs=1, bf16=())
def squeeze(ctx, x):
    """Drop the size-1 dimensions listed in squeeze_dims (all of them if the list is empty)."""
    dims = ctx.attrs.get('squeeze_dims', ctx.attrs.get('axis', []))
    dims = [int(d) for d in (dims or [])]
    if not dims:
        return x.reshape([d for d in x.shape if d != 1])
    axes = set()
    for d in dims:
        if not -x.ndim <= d < x.ndim:
            raise ctx.error('Tried to squeeze dim index {} for tensor with {} dimensions.', d, x.ndim)
        d %= x.ndim
        if x.shape[d] != 1:
            raise ctx.error('Can not squeeze dim[{}], expected a dimension of 1, got {}', d, x.shape[d])
        axes.add(d)
    return x.reshape([s for i, s in enumerate(x.shape) if i not in axes])


@kernel('BroadcastTo', inputs=2, bf16=())
def broadcast_to(ctx, x, new_shape):
    """Broadcast the input to ``shape`` (numpy rules, only the input side may stretch); a read-only view."""
    dims = int_vector(ctx, new_shape, 'shape') if new_shape.ndim else int_list(ctx, new_shape, 'shape')
    if any(d < 0 for d in dims):
        raise ctx.error('shape {} has a negative dimension', shape_str(dims))
    ok = len(dims) >= x.ndim and all(s == 1 or s == d for s, d in zip(x.shape[::-1], dims[::-1]))
    if not ok:
        raise ctx.error('Unable to broadcast tensor of shape {} to tensor of shape {}',
                        shape_str(x.shape), shape_str(dims))
    return np.broadcast_to(x, dims)


def _shape_pair(ctx, s0, s1):
    if s0.dtype != s1.dtype:
        raise ctx.error('s0 and s1 must have the same dtype, got {} and {}', s0.dtype, s1.dtype)
    return int_vector(ctx, s0, 's0'), int_vector(ctx, s1, 's1')


def _broadcast_dims(ctx, a, b):
    rank = max(len(a), len(b))
    pa = [1] * (rank - len(a)) + list(a)
    pb = [1] * (rank - len(b)) + list(b)
    out = []
    for x, y in zip(pa, pb):
        if x != y and x != 1 and y != 1:
            raise ctx.error('Incompatible shapes: {} vs. {}', shape_str(a), shape_str(b))
        out.append(y if x == 1 else x)
    return pa, pb, out


@kernel('BroadcastArgs', inputs=2, bf16=())
def broadcast_args(ctx, s0, s1):
    """The broadcast shape of two shape vectors, in their dtype."""
    a, b = _shape_pair(ctx, s0, s1)
    _, _, out = _broadcast_dims(ctx, a, b)
    return np.array(out, dtype=s0.dtype).reshape(len(out))


@kernel('BroadcastGradientArgs', inputs=2, bf16=())
def broadcast_gradient_args(ctx, s0, s1):
    """The axes each operand's gradient is summed over when broadcasting s0 against s1.

    Equal shape vectors give no axes at all; otherwise, after left-padding with 1s, an axis is
    listed for an operand whose size there is 1 -- for both operands when both are 1.
    """
    a, b = _shape_pair(ctx, s0, s1)
    if a == b:
        r0, r1 = [], []
    else:
        pa, pb, _ = _broadcast_dims(ctx, a, b)
        r0 = [i for i, (x, y) in enumerate(zip(pa, pb)) if x == 1]
        r1 = [i for i, (x, y) in enumerate(zip(pa, pb)) if y == 1]
    return [np.array(r0, dtype=s0.dtype).reshape(len(r0)), np.array(r1, dtype=s0.dtype).reshape(len(r1))]
