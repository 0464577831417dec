"""Data movement and construction: identity, transpose, concat/stack/split, slicing, gathers, fill,
range, tile, padding, one-hot, reverse, where, unique.

Most of these never look at values, so they are registered with ``bf16=()`` and move bfloat16
tensors as their uint16 bit patterns. Where possible the result is a view of the input (numpy
basic indexing, transpose, split), never a copy.
"""
import numpy as np

from .registry import (kernel, int_list, int_vector, int_scalar, norm_axis, same_dtype, shape_str,
                       is_int)


# -- identities --------------------------------------------------------------------------------

@kernel('Identity', 'StopGradient', 'Snapshot', 'PreventGradient', inputs=1, bf16=())
def identity(ctx, x):
    """The input itself (gradient-only ops are identities in inference)."""
    return x


@kernel('IdentityN', inputs=(0, None), bf16=())
def identity_n(ctx, *xs):
    """Each input unchanged."""
    return list(xs)


@kernel('EnsureShape', inputs=1, bf16=())
def ensure_shape(ctx, x):
    """The input, after checking it is compatible with the ``shape`` attribute (-1 is unknown)."""
    expected = ctx.attr('shape', None)
    if expected is not None:
        expected = list(expected)
        if len(expected) != x.ndim or any(e not in (-1, d) for e, d in zip(expected, x.shape)):
            raise ctx.error('Shape of tensor {} is not compatible with expected shape {}.',
                            shape_str(x.shape), shape_str(expected))
    return x


@kernel('CheckNumerics', inputs=1)
def check_numerics(ctx, x):
    """The input, after checking it holds no inf or nan."""
    if x.dtype.kind in 'fc' and not np.all(np.isfinite(x)):
        raise ctx.error('{} : Tensor had {} values', ctx.str_attr('message', ''),
                        'NaN' if np.any(np.isnan(x)) else 'Inf')
    return x


# -- transpose, concat, stack, split -----------------------------------------------------------

def _permutation(ctx, perm, rank):
    if perm.ndim != 1:
        raise ctx.error('perm must be rank 1, got shape {}', shape_str(perm.shape))
    axes = int_vector(ctx, perm, 'perm')
    if len(axes) != rank:
        raise ctx.error('transpose expects a vector of size {}. But input(1) is a vector of size {}',
                        rank, len(axes))
    axes = [a + rank if -rank <= a < 0 else a for a in axes]
    for a in axes:
        if not 0 <= a < rank:
            raise ctx.error('{} is out of range [0 .. {})', a, rank)
    for i in range(rank):
        if i not in axes:
            raise ctx.error('{} is missing from {{{}}}.', i, ','.join(map(str, axes)))
    return axes


@kernel('Transpose', inputs=2, bf16=())
def transpose(ctx, x, perm):
    """Permute the dimensions: output dim i is input dim perm[i] (negative entries count from the end)."""
    return np.transpose(x, _permutation(ctx, perm, x.ndim))


@kernel('ConjugateTranspose', inputs=2, bf16=())
def conjugate_transpose(ctx, x, perm):
    """Transpose, then complex-conjugate (a plain transpose for real types)."""
    out = np.transpose(x, _permutation(ctx, perm, x.ndim))
    return np.conj(out) if out.dtype.kind == 'c' else out


def _concat(ctx, values, axis_tensor):
    same_dtype(ctx, *values)
    axis = int_scalar(ctx, axis_tensor, 'axis')
    rank = values[0].ndim
    if rank == 0:
        raise ctx.error("Can't concatenate scalars (use tf.stack instead)")
    if not -rank <= axis < rank:
        raise ctx.error('Expected concatenating dimensions in the range [{}, {}), but got {}', -rank, rank, axis)
    axis %= rank
    for i, v in enumerate(values[1:], 1):
        if v.ndim != rank or any(a != b for d, (a, b) in enumerate(zip(v.shape, values[0].shape)) if d != axis):
            raise ctx.error('Dimensions of inputs should match: shape[0] = {} vs. shape[{}] = {}',
                            shape_str(values[0].shape), i, shape_str(v.shape))
    if len(values) == 1:
        return values[0]
    return np.concatenate(values, axis=axis)


@kernel('ConcatV2', inputs=(2, None), bf16=())
def concat_v2(ctx, *inputs):
    """Join the tensors along ``axis`` (the last input), which may be negative."""
    return _concat(ctx, inputs[:-1], inputs[-1])


@kernel('Concat', inputs=(2, None), bf16=())
def concat(ctx, concat_dim, *values):
    """Join the tensors along ``concat_dim`` (the first input)."""
    return _concat(ctx, values, concat_dim)


@kernel('Pack', inputs=(1, None), bf16=())
def pack(ctx, *values):
    """Stack N same-shape tensors along a new dimension ``axis`` in [-(rank+1), rank]."""
    same_dtype(ctx, *values)
    rank = values[0].ndim
    axis = ctx.int_attr('axis', 0)
    if not -rank - 1 <= axis <= rank:
        raise ctx.error('axis = {} not in [{}, {})', axis, -rank - 1, rank + 1)
    for i, v in enumerate(values[1:], 1):
        if v.shape != values[0].shape:
            raise ctx.error('Shapes of all inputs must match: values[0].shape = {} != values[{}].shape = {}',
                            shape_str(values[0].shape), i, shape_str(v.shape))
    return np.stack(values, axis=axis if axis >= 0 else axis + rank + 1)


@kernel('Unpack', inputs=1, bf16=())
def unpack(ctx, value):
    """Split along ``axis`` into its ``num`` slices, removing that dimension (views of the input)."""
    rank = value.ndim
    axis = ctx.int_attr('axis', 0)
    if not -rank <= axis < rank:
        raise ctx.error('axis = {} not in [{}, {})', axis, -rank, rank)
    axis %= rank
    num = ctx.int_attr('num', value.shape[axis])
    if num != value.shape[axis]:
        raise ctx.error('Input shape axis {} must equal {}, got shape {}', axis, num, shape_str(value.shape))
    lead = (slice(None),) * axis
    return [value[lead + (i,)] for i in range(num)]


@kernel('Split', inputs=2, bf16=())
def split(ctx, split_dim, value):
    """Split ``value`` into ``num_split`` equal pieces along ``split_dim`` (views)."""
    if split_dim.ndim != 0:
        raise ctx.error('split_dim must be a scalar but has rank {}', split_dim.ndim)
    axis = int_scalar(ctx, split_dim, 'split_dim')
    rank = value.ndim
    if not -rank <= axis < rank:
        raise ctx.error('-input rank(-{}) <= split_dim < input rank ({}), but got {}', rank, rank, axis)
    axis %= rank
    num = ctx.int_attr('num_split')
    if num <= 0 or value.shape[axis] % num:
        raise ctx.error('Number of ways to split should evenly divide the split dimension, '
                        'but got split_dim {} (size = {}) and num_split {}', axis, value.shape[axis], num)
    return np.split(value, num, axis=axis)


@kernel('SplitV', inputs=3, bf16=())
def split_v(ctx, value, size_splits, split_dim):
    """Split along ``split_dim`` into pieces of the given sizes; one size may be -1 (the rest)."""
    axis = int_scalar(ctx, split_dim, 'split_dim')
    rank = value.ndim
    if not -rank <= axis < rank:
        raise ctx.error('-input rank(-{}) <= split_dim < input rank ({}), but got {}', rank, rank, axis)
    axis %= rank
    sizes = int_list(ctx, size_splits, 'size_splits')
    num = ctx.int_attr('num_split', len(sizes))
    if len(sizes) != num:
        raise ctx.error('size_splits has {} entries but num_split is {}', len(sizes), num)
    dim = value.shape[axis]
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    if len(unknown) > 1:
        raise ctx.error('There can only be one -1 in the input.')
    if any(s < -1 for s in sizes):
        raise ctx.error('Split size at index {} must be >= 0. Got: {}',
                        next(i for i, s in enumerate(sizes) if s < -1), min(sizes))
    known = sum(s for s in sizes if s != -1)
    if unknown:
        if known > dim:
            raise ctx.error('The specified sizes ({}) do not fit the split dimension of size {}', known, dim)
        sizes[unknown[0]] = dim - known
    elif known != dim:
        raise ctx.error('Determined shape must either match input shape along split_dim exactly if '
                        'fully specified, or be less than the size of the input along split_dim if not '
                        'fully specified.  Got: {}', known)
    bounds = np.cumsum(sizes)[:-1]
    return np.split(value, bounds, axis=axis)


# -- slicing and gathering ---------------------------------------------------------------------

@kernel('Slice', inputs=3, bf16=())
def slice_(ctx, x, begin, size):
    """x[begin : begin + size] per dimension; size -1 means to the end (a view)."""
    b = int_vector(ctx, begin, 'begin') if begin.ndim else int_list(ctx, begin, 'begin')
    s = int_vector(ctx, size, 'size') if size.ndim else int_list(ctx, size, 'size')
    if len(b) != x.ndim or len(s) != x.ndim:
        raise ctx.error('Expected begin and size arguments to be 1-D tensors of size {}, '
                        'but got shapes {} and {} instead.', x.ndim, shape_str(begin.shape), shape_str(size.shape))
    index = []
    for i, (bi, si, dim) in enumerate(zip(b, s, x.shape)):
        if si == -1:
            si = dim - bi
        if not 0 <= bi <= dim:
            raise ctx.error('Expected begin[{}] in [0, {}], but got {}', i, dim, bi)
        if not 0 <= si <= dim - bi:
            raise ctx.error('Expected size[{}] in [0, {}], but got {}', i, dim - bi, si)
        index.append(slice(bi, bi + si))
    return x[tuple(index)]


def _check_indices(ctx, indices, limit, what='indices'):
    if not is_int(indices.dtype):
        raise ctx.error('{} must be an integer tensor, got {}', what, indices.dtype)
    if indices.size:
        bad = (indices < 0) | (indices >= limit)
        if bad.any():
            pos = tuple(int(p) for p in np.argwhere(bad)[0])
            raise ctx.error('{}[{}] = {} is not in [0, {})', what, ','.join(map(str, pos)),
                            indices[pos], limit)


def gather(ctx, params, indices, axis, batch_dims):
    """tf.gather: params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]."""
    if params.ndim < 1:
        raise ctx.error('params must be at least 1 dimensional')
    if not -indices.ndim <= batch_dims <= indices.ndim:
        raise ctx.error('Expected batch_dims in the range [{}, {}], but got {}',
                        -indices.ndim, indices.ndim, batch_dims)
    if batch_dims < 0:
        batch_dims += indices.ndim
    if not -params.ndim <= axis < params.ndim:
        raise ctx.error('Expected axis in the range [{}, {}), but got {}', -params.ndim, params.ndim, axis)
    axis %= params.ndim
    if batch_dims > axis:
        raise ctx.error('batch_dims ({}) must be less than or equal to axis ({}).', batch_dims, axis)
    for i in range(batch_dims):
        if params.shape[i] != indices.shape[i]:
            raise ctx.error('params.shape[{}]: {} should be equal to indices.shape[{}]: {}',
                            i, params.shape[i], i, indices.shape[i])
    _check_indices(ctx, indices, params.shape[axis])
    out_shape = params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    # fold the batch dims into one and gather per batch with broadcast advanced indexing:
    # out[b, m, k, r] = p[b, m, idx[b, k], r]
    b = int(np.prod(params.shape[:batch_dims], dtype=np.int64))
    m = int(np.prod(params.shape[batch_dims:axis], dtype=np.int64))
    p = params.reshape((b, m, params.shape[axis], -1))
    idx = indices.reshape((b, -1))
    out = p[np.arange(b)[:, None, None], np.arange(m)[None, :, None], idx[:, None, :]]
    return out.reshape(out_shape)


@kernel('GatherV2', inputs=3, bf16=())
def gather_v2(ctx, params, indices, axis):
    """Gather slices along ``axis``; batch_dims leading dims are shared; indices must be in range."""
    if axis.ndim != 0:
        raise ctx.error('axis must be scalar')
    return gather(ctx, params, indices, int_scalar(ctx, axis, 'axis'), ctx.int_attr('batch_dims', 0))


@kernel('Gather', inputs=2, bf16=())
def gather_v1(ctx, params, indices):
    """Gather rows (axis 0) of params; indices must be in range."""
    return gather(ctx, params, indices, 0, 0)


@kernel('GatherNd', inputs=2, bf16=())
def gather_nd(ctx, params, indices):
    """Gather slices of params addressed by the last dim of indices; bad_indices_policy IGNORE zeroes bad ones."""
    if not is_int(indices.dtype):
        raise ctx.error('indices must be an integer tensor, got {}', indices.dtype)
    if indices.ndim < 1:
        raise ctx.error('indices must be at least a vector, got shape {}', shape_str(indices.shape))
    k = indices.shape[-1]
    if k > params.ndim:
        raise ctx.error('index innermost dimension length must be <= params rank; saw: {} vs. {}', k, params.ndim)
    policy = ctx.str_attr('bad_indices_policy', '').upper()
    if policy not in ('', 'DEFAULT', 'ERROR', 'IGNORE'):
        raise ctx.error('unknown bad_indices_policy "{}"', policy)
    out_shape = indices.shape[:-1] + params.shape[k:]
    n = int(np.prod(indices.shape[:-1], dtype=np.int64))
    flat = indices.reshape(n, k)
    limits = np.array(params.shape[:k], dtype=np.int64)
    bad = np.any((flat < 0) | (flat >= limits), axis=1) if k else np.zeros(n, bool)
    if bad.any() and policy != 'IGNORE':
        i = int(np.argmax(bad))
        raise ctx.error('indices[{}] = [{}] does not index into param shape {}', i,
                        ', '.join(str(int(v)) for v in flat[i]), shape_str(params.shape))
    if k == 0:
        out = np.broadcast_to(params, (n,) + params.shape)
    else:
        safe = np.where(bad[:, None], 0, flat) if bad.any() else flat
        out = params[tuple(safe.T)] if params.size else np.zeros((n,) + params.shape[k:], params.dtype)
        if bad.any():
            out = out.copy()
            out[bad] = np.zeros((), params.dtype)
    return out.reshape(out_shape)


# -- construction ------------------------------------------------------------------------------

@kernel('Fill', inputs=2, bf16=())
def fill(ctx, dims, value):
    """A tensor of shape ``dims`` filled with the scalar ``value``."""
    shape = int_list(ctx, dims, 'dims')
    if dims.ndim > 1:
        raise ctx.error('dims must be a vector, got shape {}', shape_str(dims.shape))
    for d in shape:
        if d < 0:
            raise ctx.error('Dimension {} must be >= 0', d)
    if value.size != 1:
        raise ctx.error('value must be a scalar, got shape {}', shape_str(value.shape))
    return np.full(shape, value.reshape(()), dtype=value.dtype)


@kernel('ZerosLike', inputs=1, bf16=())
def zeros_like(ctx, x):
    """Zeros (False, empty strings) of the input's shape and dtype."""
    if x.dtype.kind == 'O':
        return np.full(x.shape, b'', dtype=object)
    return np.zeros(x.shape, x.dtype)


@kernel('OnesLike', inputs=1)
def ones_like(ctx, x):
    """Ones (True) of the input's shape and dtype."""
    if x.dtype.kind == 'O':
        raise ctx.error('OnesLike is not defined for strings')
    return np.ones(x.shape, x.dtype)


def _scalar_value(ctx, t, name):
    if t.size != 1 or t.ndim > 1:
        raise ctx.error('{} must be a scalar, not shape {}', name, shape_str(t.shape))
    return t.reshape(())


@kernel('Range', inputs=3, bf16=('Tidx',))
def range_(ctx, start, limit, delta):
    """start, start + delta, ... up to (excluding) limit; element i is start + i * delta in the input type."""
    start = _scalar_value(ctx, start, 'start')
    limit = _scalar_value(ctx, limit, 'limit')
    delta = _scalar_value(ctx, delta, 'delta')
    dtype = same_dtype(ctx, start, limit, delta)
    if dtype.kind not in 'iuf':
        raise ctx.error('Range does not support {}', dtype)
    if delta == 0:
        raise ctx.error('Requires delta != 0: {}', delta)
    if delta > 0 and start > limit:
        raise ctx.error('Requires start <= limit when delta > 0: {}/{}', start, limit)
    if delta < 0 and start < limit:
        raise ctx.error('Requires start >= limit when delta < 0: {}/{}', start, limit)
    if dtype.kind in 'iu':
        s, l, d = int(start), int(limit), int(delta)
        size = (abs(l - s) + abs(d) - 1) // abs(d)
    else:
        # the count is computed in the input type, like TF (so float32 rounding affects it)
        size = float(np.ceil(np.abs((limit - start) / delta)))
        if not np.isfinite(size):
            raise ctx.error('Requires finite range: {}/{}/{}', start, limit, delta)
        size = int(size)
    return (start + np.arange(size).astype(dtype) * delta).astype(dtype, copy=False)


@kernel('LinSpace', inputs=3)
def lin_space(ctx, start, stop, num):
    """``num`` evenly spaced values from start to stop inclusive; the last is exactly stop."""
    start = _scalar_value(ctx, start, 'start')
    stop = _scalar_value(ctx, stop, 'stop')
    n = int_scalar(ctx, num, 'num')
    dtype = same_dtype(ctx, start, stop)
    if dtype.kind != 'f':
        raise ctx.error('LinSpace does not support {}', dtype)
    if n <= 0:
        raise ctx.error('Requires num > 0: {}', n)
    if n == 1:
        return np.array([start], dtype)
    step = (stop - start) / dtype.type(n - 1)
    out = start + np.arange(n).astype(dtype) * step
    out[-1] = stop
    return out


@kernel('Tile', inputs=2, bf16=())
def tile(ctx, x, multiples):
    """Repeat the input ``multiples[i]`` times along dimension i."""
    reps = int_vector(ctx, multiples, 'multiples') if multiples.ndim else int_list(ctx, multiples, 'multiples')
    if multiples.ndim != 1 or len(reps) != x.ndim:
        raise ctx.error('Expected multiples argument to be a vector of length {} but got length {}',
                        x.ndim, len(reps))
    for i, r in enumerate(reps):
        if r < 0:
            raise ctx.error('Expected multiples[{}] >= 0, but got {}', i, r)
    if x.ndim == 0:
        return x
    return np.tile(x, reps)


def _paddings(ctx, x, paddings):
    if paddings.ndim != 2 or paddings.shape[1] != 2 or paddings.shape[0] != x.ndim:
        raise ctx.error('paddings must be a matrix with 2 columns and {} rows: {}',
                        x.ndim, shape_str(paddings.shape))
    pads = np.asarray(int_list(ctx, paddings, 'paddings', max_rank=2), dtype=np.int64).reshape(-1, 2)
    for before, after in pads:
        if before < 0 or after < 0:
            raise ctx.error('Paddings must be non-negative: {} {}', before, after)
    return [(int(a), int(b)) for a, b in pads]


@kernel('Pad', inputs=2, bf16=())
def pad(ctx, x, paddings):
    """Pad each dimension with paddings[i] = [before, after] zeros."""
    pads = _paddings(ctx, x, paddings)
    if not pads:
        return x
    if x.dtype.kind == 'O':
        return np.pad(x, pads, mode='constant', constant_values=b'')
    return np.pad(x, pads, mode='constant')


@kernel('PadV2', inputs=3, bf16=())
def pad_v2(ctx, x, paddings, constant_values):
    """Pad each dimension with paddings[i] = [before, after] copies of the scalar constant_values."""
    same_dtype(ctx, x, constant_values)
    if constant_values.ndim != 0:
        raise ctx.error('constant_values must be a scalar. Got: {}', shape_str(constant_values.shape))
    pads = _paddings(ctx, x, paddings)
    return np.pad(x, pads, mode='constant', constant_values=constant_values) if pads else x


@kernel('MirrorPad', inputs=2, bf16=())
def mirror_pad(ctx, x, paddings):
    """Pad by mirroring: REFLECT excludes the edge (pad < dim), SYMMETRIC repeats it (pad <= dim)."""
    pads = _paddings(ctx, x, paddings)
    mode = ctx.str_attr('mode').upper()
    if not pads:
        return x
    if mode not in ('REFLECT', 'SYMMETRIC'):
        raise ctx.error('mode must be REFLECT or SYMMETRIC, got {}', mode)
    offset = 1 if mode == 'REFLECT' else 0
    for (before, after), dim in zip(pads, x.shape):
        if before > dim - offset or after > dim - offset:
            raise ctx.error('paddings must be {} the dimension size: {}, {} not {} {}',
                            'less than' if offset else 'no greater than', before, after,
                            'less than' if offset else 'greater than', dim)
    return np.pad(x, pads, mode=mode.lower())


@kernel('OneHot', inputs=4, bf16=())
def one_hot(ctx, indices, depth, on_value, off_value):
    """on_value where the new ``axis`` index equals indices, off_value elsewhere (out-of-range -> all off)."""
    if not is_int(indices.dtype):
        raise ctx.error('indices must be an integer tensor, got {}', indices.dtype)
    n = int_scalar(ctx, depth, 'depth')
    if n < 0:
        raise ctx.error('depth must be non-negative, got: {}', n)
    same_dtype(ctx, on_value, off_value)
    if on_value.ndim or off_value.ndim:
        raise ctx.error('on_value and off_value must be scalars')
    axis = ctx.int_attr('axis', -1)
    if not -1 <= axis <= indices.ndim:
        raise ctx.error('Expected axis to be -1 or between [0, {}).  But received: {}', indices.ndim + 1, axis)
    if axis == -1:
        axis = indices.ndim
    hot = np.expand_dims(indices, axis) == np.arange(n).reshape((n,) + (1,) * (indices.ndim - axis))
    return np.where(hot, on_value, off_value)


@kernel('Reverse', inputs=2, bf16=())
def reverse(ctx, x, dims):
    """Reverse the dimensions i where dims[i] is True."""
    if dims.dtype != np.bool_ or dims.ndim != 1:
        raise ctx.error('dims must be a 1-D bool tensor, got {} {}', dims.dtype, shape_str(dims.shape))
    if dims.shape[0] != x.ndim:
        raise ctx.error("'dims' must have the same number of values as 'input' has dimensions. "
                        "'input' has {}'dims' has {} values", x.ndim, dims.shape[0])
    axes = tuple(int(i) for i in np.flatnonzero(dims))
    return np.flip(x, axes) if axes else x


@kernel('ReverseV2', inputs=2, bf16=())
def reverse_v2(ctx, x, axis):
    """Reverse the listed dimensions (negative ones count from the end; each at most once)."""
    if axis.ndim != 1:
        raise ctx.error("'axis' must be 1-D, not {}", shape_str(axis.shape))
    axes = []
    for a in int_list(ctx, axis, 'axis'):
        a = norm_axis(ctx, a, x.ndim, 'axis')
        if a in axes:
            raise ctx.error('axis {} specified more than once.', a)
        axes.append(a)
    return np.flip(x, tuple(axes)) if axes else x


@kernel('Where', inputs=1)
def where(ctx, condition):
    """Coordinates (int64, row-major order) of the true / non-zero elements (rank >= 1)."""
    if condition.ndim == 0:
        raise ctx.error('WhereOp : Unhandled input dimensions: 0')
    return np.argwhere(condition).astype(np.int64, copy=False)


@kernel('Unique', inputs=1)
def unique(ctx, x):
    """The distinct values of a 1-D tensor in order of first appearance, and each element's index into them."""
    if x.ndim != 1:
        raise ctx.error('unique expects a 1D vector.')
    out_idx = ctx.dtype_attr('out_idx', 3)
    if x.size == 0:
        return [x, np.zeros(0, out_idx)]
    kwargs = {'equal_nan': False} if x.dtype.kind in 'fc' else {}  # TF hashes: every nan is new
    _, first, inverse = np.unique(x, return_index=True, return_inverse=True, **kwargs)
    order = np.argsort(first, kind='stable')
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return [x[first[order]], rank[inverse.reshape(-1)].astype(out_idx)]


@kernel('InvertPermutation', inputs=1, bf16=())
def invert_permutation(ctx, x):
    """y such that y[x[i]] = i, for a permutation x of 0..n-1."""
    if x.ndim != 1:
        raise ctx.error('invert_permutation expects a 1D vector.')
    if not is_int(x.dtype):
        raise ctx.error('x must be an integer tensor, got {}', x.dtype)
    n = x.shape[0]
    out_of_range = (x < 0) | (x >= n)
    if out_of_range.any():
        raise ctx.error('{} is not between 0 and {}', x[np.argmax(out_of_range)], n)
    counts = np.bincount(x.astype(np.int64), minlength=n)
    if (counts > 1).any():
        raise ctx.error('{} is duplicated in the input.', int(np.argmax(counts > 1)))
    y = np.empty(n, dtype=x.dtype)
    y[x] = np.arange(n, dtype=x.dtype)
    return y
