"""StridedSlice: TensorFlow's generalisation of Python slicing, with all its mask rules.

The spec ``begin[i]:end[i]:strides[i]`` is "sparse": besides ordinary ranges, an entry can be

* an ellipsis (``ellipsis_mask`` bit; at most one) standing for as many full ranges as needed, and
  when no entry is an ellipsis one is implied at the end (trailing dims are kept whole);
* a new axis (``new_axis_mask``), which consumes no input dim and inserts a size-1 dim (the
  ellipsis bit wins over the new-axis bit, the new-axis bit over shrink);
* a shrink (``shrink_axis_mask``): a single index ``begin[i]`` (negative counts from the end, must
  be in range; the begin mask and ``end`` are ignored) that removes the dim.

``begin_mask``/``end_mask`` bits make begin/end "as far as possible" in the stride's direction;
other values are made non-negative and clamped into range, Python-style. The spec is expanded to
one entry per input dim ("dense" form), which maps one-to-one onto a numpy basic index, so the
result is a view of the input.
"""
from .registry import kernel, int_list, shape_str


def strided_slice_index(ctx, shape, begin, end, strides, begin_mask=0, end_mask=0,
                        ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    """The numpy index (a tuple of slices, ints and None) StridedSlice applies to a tensor of ``shape``.

    ``begin``, ``end``, ``strides`` are equal-length lists of ints. Raises ``KernelError`` (via
    ``ctx.error``) for specs TensorFlow rejects.
    """
    n = len(begin)
    if ellipsis_mask & (ellipsis_mask - 1):
        raise ctx.error('Multiple ellipses in slice spec not allowed')
    # new axes after the ellipsis consume no input dims, so the ellipsis must cover that many more
    ellipsis_seen = False
    new_axes_after_ellipsis = 0
    for i in range(n):
        if ellipsis_seen and new_axis_mask >> i & 1:
            new_axes_after_ellipsis += 1
        if ellipsis_mask >> i & 1:
            ellipsis_seen = True
    sparse_dims = n
    if not ellipsis_seen:
        ellipsis_mask |= 1 << n
        sparse_dims += 1

    rank = len(shape)
    index = []
    full = 0  # next input dim to consume
    for i in range(sparse_dims):
        if ellipsis_mask >> i & 1:
            stop = min(rank - (sparse_dims - i) + 1 + new_axes_after_ellipsis, rank)
            while full < stop:
                index.append(slice(None))
                full += 1
            continue
        if new_axis_mask >> i & 1:
            index.append(None)
            continue
        if full == rank:
            raise ctx.error('Index out of range using input dim {}; input has only {} dims', full, rank)
        index.append(_dense_entry(ctx, full, shape[full], begin[i], end[i], strides[i],
                                  begin_mask >> i & 1, end_mask >> i & 1, shrink_axis_mask >> i & 1))
        full += 1
    return tuple(index)


def _dense_entry(ctx, axis, dim, b, e, s, b_masked, e_masked, shrink):
    if s == 0:
        raise ctx.error('strides[{}] must be non-zero', axis)
    if shrink:
        if s < 0:
            raise ctx.error('only stride 1 allowed on non-range indexing.')
        # a single index: begin (masks ignored), made non-negative, must be in range
        fwd = b + dim if b < 0 else b
        if not 0 <= fwd < dim:
            raise ctx.error('slice index {} of dimension {} out of bounds.', b, axis)
        return fwd
    # valid begin/end values: [0, dim] going forward, [-1, dim - 1] going backward (-1 = "before 0")
    lo, hi = (0, dim) if s > 0 else (-1, dim - 1)

    def canonical(value, masked, is_begin):
        if masked:
            return (lo if is_begin else hi) if s > 0 else (hi if is_begin else lo)
        fwd = value + dim if value < 0 else value
        return min(max(fwd, lo), hi)

    b = canonical(b, b_masked, True)
    e = canonical(e, e_masked, False)
    length = e - b
    if length == 0 or (length < 0) != (s < 0):
        return slice(0, 0)
    # e == -1 going backward means "through element 0", which numpy spells as None
    return slice(b, e if e >= 0 else None, s)


@kernel('StridedSlice', inputs=4, bf16=())
def strided_slice(ctx, x, begin, end, strides):
    """Python-style x[begin:end:strides] with begin/end/ellipsis/new_axis/shrink_axis masks (a view)."""
    if not (begin.ndim == end.ndim == strides.ndim == 1) or not (begin.shape == end.shape == strides.shape):
        raise ctx.error('Expected begin, end, and strides to be 1D equal size tensors, but got shapes '
                        '{}, {}, and {} instead.', shape_str(begin.shape), shape_str(end.shape),
                        shape_str(strides.shape))
    if begin.dtype != end.dtype or begin.dtype != strides.dtype:
        raise ctx.error('begin, end and strides must have one dtype, got {}, {}, {}',
                        begin.dtype, end.dtype, strides.dtype)
    index = strided_slice_index(
        ctx, x.shape, int_list(ctx, begin, 'begin'), int_list(ctx, end, 'end'),
        int_list(ctx, strides, 'strides'),
        begin_mask=ctx.int_attr('begin_mask', 0), end_mask=ctx.int_attr('end_mask', 0),
        ellipsis_mask=ctx.int_attr('ellipsis_mask', 0), new_axis_mask=ctx.int_attr('new_axis_mask', 0),
        shrink_axis_mask=ctx.int_attr('shrink_axis_mask', 0))
    # the trailing Ellipsis matches no dims; it makes numpy return a 0-d view, not a scalar copy,
    # when every dim is indexed by an integer
    return x[index + (Ellipsis,)]
