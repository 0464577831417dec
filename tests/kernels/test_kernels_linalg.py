"""MatMul, BatchMatMul V1/V2/V3, Einsum and MatrixBandPart against TensorFlow."""
import zlib
import numpy as np
import pytest

from ._tfref import check, check_error, rand
from mo.front.tf import dtypes

MM_DTYPES = [np.float32, np.float64, np.float16, np.int32, np.int64, np.complex64]


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


def _tol(dtype):
    return {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 5e-3, np.dtype(np.complex64): 1e-5}.get(
        np.dtype(dtype))


@pytest.mark.parametrize('dtype', MM_DTYPES)
@pytest.mark.parametrize('ta', [False, True])
@pytest.mark.parametrize('tb', [False, True])
def test_mat_mul(dtype, ta, tb, rng):
    a = rand((3, 4) if not ta else (4, 3), dtype, rng, -4, 4)
    b = rand((4, 5) if not tb else (5, 4), dtype, rng, -4, 4)
    check('MatMul', [a, b], {'transpose_a': ta, 'transpose_b': tb}, rtol=_tol(dtype), atol=1e-4)


def test_mat_mul_edge(rng):
    check('MatMul', [np.zeros((0, 3), np.float32), np.zeros((3, 2), np.float32)])
    check('MatMul', [np.zeros((2, 0), np.float32), np.zeros((0, 2), np.float32)])
    check('MatMul', [np.full((1, 4096), 0.1, np.float16), np.ones((4096, 1), np.float16)])
    check_error('MatMul', [np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float32)])
    check_error('MatMul', [np.zeros((1, 2, 3), np.float32), np.zeros((3, 2), np.float32)])


@pytest.mark.parametrize('xs,ys', [((2, 3, 4), (2, 4, 5)), ((4, 3), (3, 2)), ((2, 1, 3, 4), (2, 1, 4, 2)),
                                   ((0, 3, 4), (0, 4, 5))])
@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.float16])
def test_batch_mat_mul(xs, ys, dtype, rng):
    x, y = rand(xs, dtype, rng, -4, 4), rand(ys, dtype, rng, -4, 4)
    for op in ('BatchMatMul', 'BatchMatMulV2'):
        check(op, [x, y], rtol=_tol(dtype), atol=1e-3)
        xt = np.swapaxes(x, -1, -2).copy()
        yt = np.swapaxes(y, -1, -2).copy()
        check(op, [xt, yt], {'adj_x': True, 'adj_y': True}, rtol=_tol(dtype), atol=1e-3)


@pytest.mark.parametrize('xs,ys', [((2, 3, 4), (4, 5)), ((1, 3, 4), (6, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                                   ((3, 4), (2, 2, 4, 1))])
def test_batch_mat_mul_v2_broadcast(xs, ys, rng):
    x, y = rand(xs, np.float32, rng), rand(ys, np.float32, rng)
    check('BatchMatMulV2', [x, y], rtol=1e-5, atol=1e-4)
    check('BatchMatMulV3', [x, y], {'Tout': dtypes.DT_FLOAT}, rtol=1e-5, atol=1e-4)
    check_error('BatchMatMul', [x, y]) if xs[:-2] != ys[:-2] else None


def test_batch_mat_mul_complex_adjoint(rng):
    x, y = rand((2, 4, 3), np.complex64, rng), rand((2, 5, 4), np.complex64, rng)
    check('BatchMatMulV2', [x, y], {'adj_x': True, 'adj_y': True}, rtol=1e-5, atol=1e-4)


def test_batch_mat_mul_v3_mixed_types(rng):
    x = rand((2, 3, 4), np.int8, rng, -100, 100)
    y = rand((4, 5), np.uint8, rng, 0, 200)
    check('BatchMatMulV3', [x, y], {'Tout': dtypes.DT_INT32})
    check('BatchMatMulV3', [x, rand((4, 5), np.int8, rng, -100, 100)], {'Tout': dtypes.DT_INT32})


def test_batch_mat_mul_errors(rng):
    check_error('BatchMatMulV2', [rand((2, 3, 4), np.float32, rng), rand((3, 4, 5), np.float32, rng)])
    check_error('BatchMatMulV2', [rand((3, 4), np.float32, rng), rand((3, 5), np.float32, rng)])


@pytest.mark.parametrize('equation,shapes', [
    ('ij,jk->ik', [(2, 3), (3, 4)]), ('bij,bjk->bik', [(2, 3, 4), (2, 4, 5)]), ('ij->ji', [(2, 3)]),
    ('ii->', [(3, 3)]), ('ii->i', [(3, 3)]), ('i,j->ij', [(3,), (4,)]), ('...ij,jk->...ik', [(5, 2, 3), (3, 4)]),
    ('bhqd,bhkd->bhqk', [(1, 2, 3, 4), (1, 2, 5, 4)]), ('ij->', [(2, 3)]), ('abc,cd->abd', [(2, 3, 4), (4, 2)]),
    ('i,i->', [(5,), (5,)]), ('ab...,b->a...', [(2, 3, 4), (3,)])])
@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.float64])
def test_einsum(equation, shapes, dtype, rng):
    inputs = [rand(s, dtype, rng, -5, 5) for s in shapes]
    check('Einsum', inputs, {'equation': equation}, rtol=1e-5 if dtype == np.float32 else None, atol=1e-4)


def test_einsum_errors(rng):
    check_error('Einsum', [rand((2, 3), np.float32, rng), rand((3, 4), np.float32, rng)], {'equation': 'ij,jk'})
    check_error('Einsum', [rand((2, 3), np.float32, rng), rand((4, 4), np.float32, rng)], {'equation': 'ij,jk->ik'})


@pytest.mark.parametrize('lower,upper', [(0, 0), (-1, 0), (0, -1), (1, 2), (-1, -1), (3, 4)])
def test_matrix_band_part(lower, upper, rng):
    x = rand((2, 3, 4), np.float32, rng)
    check('MatrixBandPart', [x, np.int64(lower), np.int64(upper)])
    check('MatrixBandPart', [x.astype(np.int32), np.int32(lower), np.int32(upper)])


def test_matrix_band_part_errors(rng):
    check_error('MatrixBandPart', [rand((3, 4), np.float32, rng), np.int64(4), np.int64(0)])
    check_error('MatrixBandPart', [rand((4,), np.float32, rng), np.int64(1), np.int64(0)])
