"""StridedSlice against TensorFlow: hand-picked Python slices plus hypothesis over all mask combinations."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from ._tfref import check, check_error, run_mo, run_tf, assert_same, tf
from mo.front.tf import kernels


def _ss(x, begin, end, strides, **masks):
    return [x, np.array(begin, np.int32), np.array(end, np.int32), np.array(strides, np.int32)], masks


CASES = [
    # x[1:3], x[::-1], x[-1], x[..., 0], x[:, None], x[None, ..., 1:], x[::2, ::-2]
    ((1, 0), (3, 0), (1, 1), {}),
    ((0,), (0,), (-1,), {'begin_mask': 1, 'end_mask': 1}),
    ((-1,), (0,), (1,), {'shrink_axis_mask': 1}),
    ((0, 0), (0, 1), (1, 1), {'ellipsis_mask': 1, 'shrink_axis_mask': 2}),
    ((0, 0), (0, 0), (1, 1), {'begin_mask': 1, 'end_mask': 1, 'new_axis_mask': 2}),
    ((0, 0, 1), (0, 0, 0), (1, 1, 1), {'new_axis_mask': 1, 'ellipsis_mask': 2, 'end_mask': 4}),
    ((0, 0), (0, 0), (2, -2), {'begin_mask': 3, 'end_mask': 3}),
    ((5, -10), (-10, 10), (-1, 1), {}),
    ((2, 1), (0, 2), (-1, 1), {}),
    ((0,), (1,), (1,), {'shrink_axis_mask': 1, 'begin_mask': 1}),
    ((1, 1, 1), (2, 2, 2), (1, 1, 1), {'shrink_axis_mask': 7}),
]


@pytest.mark.parametrize('begin,end,strides,masks', CASES)
@pytest.mark.parametrize('dtype', [np.float32, np.int64, np.bool_])
def test_python_style_slices(begin, end, strides, masks, dtype):
    x = (np.arange(60).reshape(3, 4, 5) % 7).astype(dtype)
    inputs, masks = _ss(x, begin, end, strides, **masks)
    check('StridedSlice', inputs, masks)


def test_int64_spec_and_scalar_result():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    spec = [np.array(v, np.int64) for v in ([1, 2], [2, 3], [1, 1])]
    check('StridedSlice', [x] + spec, {'shrink_axis_mask': 3})
    [out] = run_mo('StridedSlice', [x] + spec, {'shrink_axis_mask': 3})
    assert isinstance(out, np.ndarray) and out.shape == () and np.shares_memory(out, x)


def test_errors():
    x = np.zeros((3, 4), np.float32)
    for inputs, masks in [
            _ss(x, [0], [1], [0]),                                   # zero stride
            _ss(x, [3], [4], [1], shrink_axis_mask=1),               # shrink index out of range
            _ss(x, [0, 0, 0], [1, 1, 1], [1, 1, 1]),                 # too many dims
            _ss(x, [0, 0], [1, 1], [1, 1], ellipsis_mask=3),         # two ellipses
            _ss(x, [1], [0], [-1], shrink_axis_mask=1)]:             # shrink with negative stride
        check_error('StridedSlice', inputs, masks)
    with pytest.raises(kernels.KernelError, match='StridedSlice'):
        run_mo('StridedSlice', [x, np.array([0], np.int32), np.array([1, 1], np.int32), np.array([1], np.int32)])


@st.composite
def slice_problems(draw):
    rank = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=rank, max_size=rank)))
    n = draw(st.integers(0 if rank == 0 else 1, 5))
    ints = st.integers(-7, 7)
    begin = draw(st.lists(ints, min_size=n, max_size=n))
    end = draw(st.lists(ints, min_size=n, max_size=n))
    strides = draw(st.lists(st.sampled_from([-3, -2, -1, 1, 1, 2, 3]), min_size=n, max_size=n))
    bits = st.integers(0, 2 ** n - 1 if n else 0)
    single_bit = st.one_of(st.just(0), st.sampled_from([1 << i for i in range(n)] or [0]))
    masks = {
        'begin_mask': draw(bits), 'end_mask': draw(bits),
        'ellipsis_mask': draw(st.one_of(single_bit, bits)),
        'new_axis_mask': draw(st.one_of(st.just(0), bits)),
        'shrink_axis_mask': draw(st.one_of(st.just(0), bits)),
    }
    return shape, begin, end, strides, masks


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=slice_problems())
def test_random_against_tensorflow(problem):
    shape, begin, end, strides, masks = problem
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    inputs = [x, np.array(begin, np.int32), np.array(end, np.int32), np.array(strides, np.int32)]
    try:
        expected = run_tf('StridedSlice', inputs, masks)
    except (tf.errors.InvalidArgumentError, ValueError):
        with pytest.raises(kernels.KernelError):
            run_mo('StridedSlice', inputs, masks)
        return
    assert_same('StridedSlice', expected, run_mo('StridedSlice', inputs, masks))
