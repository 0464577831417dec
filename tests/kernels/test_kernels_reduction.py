"""Reductions, ArgMax/ArgMin and scans against TensorFlow."""
import zlib
import numpy as np
import pytest

from ._tfref import check, check_error, rand, bf16
from mo.front.tf import dtypes

AXES = [0, -1, [0, 1], [], [-1, 0], [1], [0, 1, 2]]


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


@pytest.mark.parametrize('op', ['Sum', 'Prod', 'Max', 'Min', 'Mean'])
@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int32, np.int64, np.float16, np.int8, np.uint8])
@pytest.mark.parametrize('axis', AXES)
@pytest.mark.parametrize('keep_dims', [False, True])
def test_numeric_reductions(op, dtype, axis, keep_dims, rng):
    low, high = (-3, 4) if op == 'Prod' else (-50, 50)
    if np.dtype(dtype).kind == 'u':
        low = 0
    x = rand((3, 4, 5), dtype, rng, low, high)
    if op == 'Prod' and np.dtype(dtype).kind == 'f':
        x = (x / 3 + np.sign(x)).astype(dtype)
    axis = np.array(axis, np.int32)
    rtol = 2e-2 if dtype == np.float16 and op in ('Sum', 'Prod', 'Mean') else 2e-5 if dtype == np.float32 else None
    # TF accumulates half sums in half, mo in float32: over up to 60 terms of |x| <= 50 TF's own
    # rounding error reaches a few units, so half Sum/Mean are compared with an absolute margin
    half_atol = 4.0 if op in ('Sum', 'Mean') else 1e-2
    check(op, [x, axis], {'keep_dims': keep_dims}, rtol=rtol, atol=half_atol if dtype == np.float16 else None)


@pytest.mark.parametrize('op', ['Sum', 'Prod', 'Max', 'Min', 'Mean'])
def test_empty_and_scalar(op, rng):
    for dtype in (np.float32, np.int32):
        check(op, [np.zeros((0, 3), dtype), np.array(0, np.int32)])
        check(op, [np.zeros((0, 3), dtype), np.array(1, np.int64)], {'keep_dims': True})
        check(op, [np.zeros((2, 0), dtype), np.array([0, 1], np.int32)])
        check(op, [rand((), dtype, rng), np.zeros(0, np.int32)])
    check_error(op, [np.ones((2, 3), np.float32), np.array([0, -2], np.int32)])  # duplicate axis
    check_error(op, [np.ones((2, 3), np.float32), np.array(2, np.int32)])
    check_error(op, [np.float32(1), np.array(0, np.int32)])


def test_axis_tensor_of_any_rank():
    check('Sum', [np.ones((2, 3), np.float32), np.array([[0]], np.int32)])


def test_integer_mean_and_sum_overflow():
    big = np.iinfo(np.int32).max
    check('Mean', [np.array([big, big], np.int32), np.array(0, np.int32)])
    check('Mean', [np.array([-100, -100, -100, 1], np.int8), np.array(0, np.int32)])
    check('Mean', [np.array([255, 255, 254], np.uint8), np.array(0, np.int32)])
    check('Mean', [np.array([2 ** 62] * 3, np.int64), np.array(0, np.int32)])
    check('Mean', [np.array([[-7, 0, 0, 0], [7, 1, 1, 1]], np.int32), np.array(1, np.int32)])
    check('Sum', [np.array([100, 100, 100], np.int8), np.array(0, np.int32)])
    check('Prod', [np.array([1000, 1000, 1000, 1000], np.int32), np.array(0, np.int32)])


def test_max_min_nan():
    x = np.array([[1, np.nan, 3], [2, 1, 0]], np.float32)
    for op in ('Max', 'Min', 'Sum', 'Mean'):
        check(op, [x, np.array(1, np.int32)])


@pytest.mark.parametrize('op', ['All', 'Any'])
@pytest.mark.parametrize('axis', AXES)
def test_logical_reductions(op, axis, rng):
    x = rand((3, 4, 5), np.bool_, rng)
    check(op, [x, np.array(axis, np.int64)])
    check(op, [x, np.array(axis, np.int32)], {'keep_dims': True})
    check(op, [np.zeros((0, 4, 5), bool), np.array(axis, np.int32)])


def test_bfloat16_reduction():
    x = bf16([[1.5, 2.5, -3.0], [0.25, 8.0, 1.0]])
    for op in ('Sum', 'Max', 'Mean', 'Prod'):
        check(op, [x, np.array(1, np.int32)])


@pytest.mark.parametrize('op', ['ArgMax', 'ArgMin'])
@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.float16, np.int64, np.uint8, np.float64])
@pytest.mark.parametrize('axis', [0, 1, -1, -3])
def test_arg_reductions(op, dtype, axis, rng):
    x = rand((3, 4, 5), dtype, rng, 0, 4)  # many ties: the first index must win
    check(op, [x, np.array(axis, np.int32)])
    check(op, [x, np.array(axis, np.int64)], {'output_type': dtypes.DT_INT32})


@pytest.mark.parametrize('op', ['ArgMax', 'ArgMin'])
def test_arg_reductions_nan_inf(op):
    rows = [[1, np.nan, 3, 0], [np.nan, 1, 2, 5], [np.nan, np.nan, np.nan, np.nan], [-np.inf, -np.inf, 1, 0],
            [np.inf, np.inf, np.nan, -np.inf], [np.nan, -np.inf, -np.inf, 3]]
    x = np.array(rows, np.float32)
    check(op, [x, np.array(1, np.int32)])
    check(op, [x.T.copy(), np.array(0, np.int32)])
    check(op, [np.zeros((2, 0), np.float32), np.array(0, np.int32)])
    check_error(op, [np.zeros((0, 2), np.float32), np.array(0, np.int32)])
    check_error(op, [np.float32(1), np.array(0, np.int32)])


@pytest.mark.parametrize('op', ['Cumsum', 'Cumprod'])
@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.int64, np.float16, np.float64])
@pytest.mark.parametrize('exclusive', [False, True])
@pytest.mark.parametrize('reverse', [False, True])
def test_scans(op, dtype, exclusive, reverse, rng):
    x = rand((3, 5), dtype, rng, -3, 4)
    if op == 'Cumprod' and np.dtype(dtype).kind == 'f':
        x = (x / 2).astype(dtype)
    attrs = {'exclusive': exclusive, 'reverse': reverse}
    for axis in (0, 1, -1, -2):
        check(op, [x, np.array(axis, np.int32)], attrs, rtol=1e-5 if dtype == np.float32 else None)
    check(op, [x[:0], np.array(0, np.int32)], attrs)
    check(op, [x[:, :0], np.array(1, np.int64)], attrs)


def test_scan_errors():
    check_error('Cumsum', [np.ones((2, 3), np.float32), np.array(2, np.int32)])
    check_error('Cumsum', [np.float32(1), np.array(0, np.int32)])


def test_half_cumsum_accumulates_in_half():
    check('Cumsum', [np.full(3000, 0.1, np.float16), np.array(0, np.int32)])
