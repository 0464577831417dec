"""Kernels of the diagonal ops, Bucketize, Roll, UnravelIndex, ListDiff, Xlog1py, EuclideanNorm and L2Loss against
TensorFlow (the ops whose constant inputs fold when a model is loaded: tf.eye is MatrixDiagV3 of ones)."""
import zlib

import numpy as np
import pytest

from ._tfref import check, check_error, rand

ALIGNMENTS = [b'LEFT_LEFT', b'LEFT_RIGHT', b'RIGHT_LEFT', b'RIGHT_RIGHT']
BANDS = [0, 2, -1, (-1, 1), (1, 2), (-2, 0)]


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


def _k(k):
    return np.array(k, np.int32)


def _longest(k, rows, cols):
    k0, k1 = (k, k) if isinstance(k, int) else k
    d = min(max(0, k0), k1)
    return min(rows + min(d, 0), cols - max(d, 0))


@pytest.mark.parametrize('align', ALIGNMENTS)
@pytest.mark.parametrize('k', BANDS)
@pytest.mark.parametrize('shape', [(4, 4), (3, 5), (5, 3)])
def test_matrix_diag_part_and_set_diag(align, k, shape, rng):
    rows, cols = shape
    x = rand((2,) + shape, np.float32, rng)
    check('MatrixDiagPartV3', [x, _k(k), np.float32(9)], {'align': align})
    count = 1 if isinstance(k, int) else k[1] - k[0] + 1
    diag = rand((2,) + ((count,) if count > 1 else ()) + (_longest(k, rows, cols),), np.float32, rng)
    check('MatrixSetDiagV3', [x, diag, _k(k)], {'align': align})


@pytest.mark.parametrize('align', ALIGNMENTS)
@pytest.mark.parametrize('k', BANDS)
@pytest.mark.parametrize('size', [(-1, -1), (6, -1), (-1, 6)])
def test_matrix_diag(align, k, size, rng):
    k0, k1 = (k, k) if isinstance(k, int) else k
    rows, cols = size
    longest = 3 if size == (-1, -1) else (rows + min(k1, 0) if rows > 0 else cols - max(k0, 0))
    shape = (2,) + ((k1 - k0 + 1,) if k0 != k1 else ()) + (longest,)
    check('MatrixDiagV3', [rand(shape, np.int32, rng), _k(k), np.int32(rows), np.int32(cols), np.int32(-7)],
          {'align': align})


@pytest.mark.parametrize('dtype', [np.float32, np.int64, np.bool_])
def test_matrix_v1_and_v2(dtype, rng):
    check('MatrixDiag', [rand((2, 3), dtype, rng)])
    check('MatrixDiagPart', [rand((2, 3, 4), dtype, rng)])
    check('MatrixSetDiag', [rand((4, 3), dtype, rng), rand((3,), dtype, rng)])
    pad = np.zeros((), dtype)
    check('MatrixDiagV2', [rand((2, 2, 3), dtype, rng), _k([0, 1]), np.int32(-1), np.int32(-1), pad])
    check('MatrixDiagPartV2', [rand((3, 5), dtype, rng), _k([-1, 2]), pad])
    check('MatrixSetDiagV2', [rand((3, 5), dtype, rng), rand((2, 3), dtype, rng), _k([1, 2])])


def test_eye_folds_like_tf():
    check('MatrixDiagV3', [np.ones((4,), np.float32), _k(0), np.int32(4), np.int32(6), np.float32(0)])


def test_matrix_errors(rng):
    check_error('MatrixDiagPartV3', [rand((3, 4), np.float32, rng), _k(-3), np.float32(0)])
    check_error('MatrixDiagPartV3', [rand((3, 4), np.float32, rng), _k([2, 1]), np.float32(0)])
    check_error('MatrixSetDiagV3', [rand((3, 4), np.float32, rng), rand((2,), np.float32, rng), _k(0)])
    check_error('MatrixDiagV3', [rand((2, 3), np.float32, rng), _k([0, 2]), np.int32(-1), np.int32(-1),
                                 np.float32(0)])
    check_error('MatrixDiagPart', [rand((3,), np.float32, rng)])


@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize('boundaries', [[], [0.0], [-1.5, 0.0, 0.5, 2.0], [-2.0, 1.0, 1.0, 3.0]])
def test_bucketize(dtype, boundaries, rng):
    pool = np.array(boundaries + [-3.0, -0.7, 0.2, 1.2, 4.0, 1e9])
    x = rng.choice(pool, (3, 5))
    check('Bucketize', [x.astype(dtype)], {'boundaries': boundaries})


def test_bucketize_unsorted_boundaries():
    check_error('Bucketize', [np.zeros(3, np.float32)], {'boundaries': [1.0, 0.0]})


@pytest.mark.parametrize('shift, axis', [(1, 0), (-2, -1), (7, 1), ([1, -2], [1, 2]), ([1, 2], [-1, -1]),
                                         ([5], [0]), ([], [])])
@pytest.mark.parametrize('dtype', [np.float32, np.int64, np.bool_])
def test_roll(shift, axis, dtype, rng):
    check('Roll', [rand((2, 3, 4), dtype, rng), np.array(shift, np.int32), np.array(axis, np.int64)])


def test_roll_errors(rng):
    check_error('Roll', [rand((2, 3), np.float32, rng), np.array([1, 2], np.int32), np.array([0], np.int32)])
    check_error('Roll', [rand((2, 3), np.float32, rng), np.array(1, np.int32), np.array(2, np.int32)])


@pytest.mark.parametrize('dtype', [np.int32, np.int64])
def test_unravel_index(dtype, rng):
    dims = np.array([4, 3, 5], dtype)
    check('UnravelIndex', [np.array(37, dtype), dims])
    check('UnravelIndex', [rng.integers(0, 60, 7).astype(dtype), dims])
    check_error('UnravelIndex', [np.zeros(0, dtype), dims])
    check_error('UnravelIndex', [np.array([60], dtype), dims])


@pytest.mark.parametrize('dtype', [np.int32, np.float32, np.int64])
@pytest.mark.parametrize('out_idx', [3, 9])  # DT_INT32, DT_INT64
def test_list_diff(dtype, out_idx, rng):
    x = rng.integers(0, 6, 9).astype(dtype)
    check('ListDiff', [x, rng.integers(0, 6, 3).astype(dtype)], {'out_idx': out_idx})
    check('ListDiff', [x, np.zeros(0, dtype)], {'out_idx': out_idx})
    check('ListDiff', [np.zeros(0, dtype), x], {'out_idx': out_idx})


@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.float16])
def test_xlog1py(dtype, rng):
    x = np.where(rng.random((3, 4)) < 0.4, 0, rng.uniform(-2, 2, (3, 4))).astype(dtype)
    y = np.where(rng.random((4,)) < 0.3, -1, rng.uniform(-1, 3, (4,))).astype(dtype)
    check('Xlog1py', [x, y])


@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.float16, np.int32, np.int64, np.complex64])
@pytest.mark.parametrize('axes', [[1], [-1], [0, 2], [], [-3, -2, -1]])
@pytest.mark.parametrize('keep_dims', [False, True])
def test_euclidean_norm(dtype, axes, keep_dims, rng):
    check('EuclideanNorm', [rand((2, 3, 4), dtype, rng), np.array(axes, np.int32)], {'keep_dims': keep_dims})


@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.float16])
def test_l2_loss(dtype, rng):
    check('L2Loss', [rand((3, 4), dtype, rng)])
    check('L2Loss', [rand((), dtype, rng)])
