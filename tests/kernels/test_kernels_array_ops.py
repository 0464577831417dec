"""Data-movement and construction kernels against TensorFlow."""
import zlib
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from ._tfref import check, check_error, rand, run_mo, bf16
from mo.front.tf import dtypes

DTYPES = [np.float32, np.int32, np.int64, np.bool_, np.float16]


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


@pytest.mark.parametrize('op', ['Identity', 'StopGradient', 'Snapshot', 'PreventGradient'])
def test_identities(op, rng):
    x = rand((2, 3), np.float32, rng)
    check(op, [x])
    [out] = run_mo(op, [x])
    assert out is x


def test_identity_n_and_strings(rng):
    check('IdentityN', [rand((2,), np.float32, rng), rand((), np.int32, rng), np.array([b'a'], dtype=object)])
    check('Identity', [bf16([1.5, 2])])


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('perm', [[1, 0, 2], [2, 1, 0], [0, 1, 2], [-1, 0, 1]])
def test_transpose(dtype, perm, rng):
    x = rand((2, 3, 4), dtype, rng)
    check('Transpose', [x, np.array(perm, np.int32)])
    check('ConjugateTranspose', [x, np.array(perm, np.int64)])


def test_transpose_special(rng):
    check('Transpose', [np.float32(1), np.zeros(0, np.int32)])
    check('Transpose', [np.zeros((0, 3), np.float32), np.array([1, 0], np.int32)])
    x = rand((2, 3), np.complex64, rng)
    check('ConjugateTranspose', [x, np.array([1, 0], np.int32)])
    check_error('Transpose', [rand((2, 3), np.float32, rng), np.array([1, 1], np.int32)])
    check_error('Transpose', [rand((2, 3), np.float32, rng), np.array([0, 1, 2], np.int32)])


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('axis', [0, 1, -1, -2])
def test_concat(dtype, axis, rng):
    a = rand((2, 3), dtype, rng)
    b = rand((2, 3), dtype, rng)
    c = rand((2, 3), dtype, rng)
    check('ConcatV2', [a, b, c, np.array(axis, np.int32)])
    check('ConcatV2', [a, b, np.array(axis, np.int64)])
    check('Concat', [np.array(axis, np.int32), a, b, c])


def test_concat_shapes_and_errors(rng):
    check('ConcatV2', [rand((2, 0), np.float32, rng), rand((2, 3), np.float32, rng), np.array(1, np.int32)])
    check('ConcatV2', [rand((2, 1), np.float32, rng), rand((2, 3), np.float32, rng), np.array(-1, np.int32)])
    check_error('ConcatV2', [np.float32(1), np.float32(2), np.array(0, np.int32)])
    check_error('ConcatV2', [rand((2, 1), np.float32, rng), rand((3, 3), np.float32, rng), np.array(1, np.int32)])
    check_error('ConcatV2', [rand((2, 1), np.float32, rng), rand((2, 1), np.float32, rng), np.array(2, np.int32)])


@pytest.mark.parametrize('axis', [0, 1, 2, -1, -3])
@pytest.mark.parametrize('dtype', DTYPES)
def test_pack_unpack(axis, dtype, rng):
    xs = [rand((2, 3), dtype, rng) for _ in range(4)]
    check('Pack', xs, {'axis': axis})
    stacked = np.stack(xs)
    if axis < 3:
        a = axis if axis >= -3 else axis
        check('Unpack', [stacked], {'axis': a, 'num': stacked.shape[a]})


def test_pack_unpack_edge(rng):
    check('Pack', [np.float32(1), np.float32(2)], {'axis': 0})
    check('Pack', [np.zeros((0, 2), np.float32)] * 2, {'axis': -1})
    check('Unpack', [np.zeros((3, 0), np.float32)], {'axis': 0, 'num': 3})
    check_error('Pack', [rand((2,), np.float32, rng), rand((3,), np.float32, rng)], {'axis': 0})
    check_error('Pack', [rand((2,), np.float32, rng)] * 2, {'axis': 2})


@pytest.mark.parametrize('axis', [0, 1, -1])
def test_split(axis, rng):
    x = rand((4, 6), np.float32, rng)
    for num in (1, 2):
        check('Split', [np.array(axis, np.int32), x], {'num_split': num})
    check_error('Split', [np.array(axis, np.int32), rand((4, 5), np.float32, rng)], {'num_split': 3})


@pytest.mark.parametrize('sizes', [[1, 2, 3], [6], [-1, 2], [0, 6, 0], [2, -1, 1], [0, -1]])
def test_split_v(sizes, rng):
    x = rand((3, 6), np.int32, rng)
    check('SplitV', [x, np.array(sizes, np.int32), np.array(1, np.int32)], {'num_split': len(sizes)})
    check('SplitV', [x.T.copy(), np.array(sizes, np.int64), np.array(-2, np.int32)], {'num_split': len(sizes)})


def test_split_v_errors(rng):
    x = rand((3, 6), np.int32, rng)
    for sizes in ([1, 2], [-1, -1], [4, 4, -1], [7]):
        check_error('SplitV', [x, np.array(sizes, np.int32), np.array(1, np.int32)], {'num_split': len(sizes)})


@pytest.mark.parametrize('begin,size', [([0, 0], [2, 3]), ([1, 0], [-1, -1]), ([1, 2], [1, 1]), ([2, 3], [0, 0]),
                                        ([0, 1], [2, -1])])
def test_slice(begin, size, rng):
    x = rand((2, 3), np.float32, rng)
    check('Slice', [x, np.array(begin, np.int32), np.array(size, np.int32)])
    check('Slice', [x.astype(np.int64), np.array(begin, np.int64), np.array(size, np.int64)])


def test_slice_errors(rng):
    x = rand((4,), np.float32, rng)
    check_error('Slice', [x, np.array([2], np.int32), np.array([3], np.int32)])
    check_error('Slice', [x, np.array([5], np.int32), np.array([0], np.int32)])
    check_error('Slice', [x, np.array([2], np.int32), np.array([-2], np.int32)])
    check_error('Slice', [x, np.array([0, 0], np.int32), np.array([1, 1], np.int32)])


@pytest.mark.parametrize('pshape,ishape,axis,batch_dims', [
    ((5,), (3,), 0, 0), ((5, 4), (2, 3), 0, 0), ((5, 4), (2, 3), 1, 0), ((5, 4), (), 1, 0), ((5, 4, 3), (2,), -1, 0),
    ((2, 3, 4), (2, 2), 1, 1), ((2, 3, 4), (2, 5), 2, 1), ((2, 3, 4), (2, 3, 5), 2, 2), ((2, 3, 4), (2, 2), -1, -1),
    ((2, 3, 4, 2), (2, 3), 2, 1), ((0, 3), (0,), 0, 0), ((3, 0), (2,), 0, 0), ((3, 4), (0, 2), 1, 0)])
def test_gather_v2(pshape, ishape, axis, batch_dims, rng):
    params = rand(pshape, np.float32, rng)
    ax = axis if axis >= 0 else axis + len(pshape)
    indices = rng.integers(0, max(pshape[ax], 1), size=ishape).astype(np.int32) if pshape[ax] else \
        np.zeros(ishape, np.int32)
    check('GatherV2', [params, indices, np.array(axis, np.int32)], {'batch_dims': batch_dims})
    check('GatherV2', [params.astype(np.int32), indices.astype(np.int64), np.array(axis, np.int64)],
          {'batch_dims': batch_dims})
    if axis == 0 and batch_dims == 0:
        check('Gather', [params, indices])


def test_gather_errors(rng):
    params = rand((5, 3), np.float32, rng)
    check_error('GatherV2', [params, np.array([5], np.int32), np.array(0, np.int32)])
    check_error('GatherV2', [params, np.array([-1], np.int32), np.array(0, np.int32)])
    check_error('GatherV2', [params, np.array([1], np.int32), np.array(2, np.int32)])
    check_error('GatherV2', [params, np.array([[1]], np.int32), np.array(0, np.int32)], {'batch_dims': 1})
    check_error('Gather', [params, np.array([7], np.int32)])


@pytest.mark.parametrize('pshape,ishape', [((3, 4), (2, 2)), ((3, 4), (2, 1)), ((3, 4, 2), (5, 3)),
                                           ((3, 4), (2, 3, 1)), ((3,), (1,)), ((3, 4), (2, 0)), ((3, 4), (0, 2))])
def test_gather_nd(pshape, ishape, rng):
    params = rand(pshape, np.float32, rng)
    k = ishape[-1]
    indices = np.stack([rng.integers(0, pshape[i], size=ishape[:-1]) for i in range(k)], -1).astype(np.int32) \
        if k else np.zeros(ishape, np.int32)
    check('GatherNd', [params, indices])
    check('GatherNd', [params.astype(np.int64), indices.astype(np.int64)])


def test_gather_nd_bad_indices(rng):
    params = np.arange(6, dtype=np.int32).reshape(3, 2)
    indices = np.array([[5, 0], [1, 1], [-1, 0]], np.int32)
    check_error('GatherNd', [params, indices])
    check('GatherNd', [params, indices], {'bad_indices_policy': 'IGNORE'})
    check_error('GatherNd', [params, np.array([[0, 0, 0]], np.int32)])


@pytest.mark.parametrize('dtype', DTYPES)
def test_fill_zeros_ones_like(dtype, rng):
    value = rand((), dtype, rng)
    for dims in ([2, 3], [], [0, 4]):
        check('Fill', [np.array(dims, np.int32), value])
        check('Fill', [np.array(dims, np.int64), value])
    x = rand((2, 3), dtype, rng)
    check('ZerosLike', [x])
    check('OnesLike', [x])
    check_error('Fill', [np.array([-1], np.int32), value])


def test_bf16_like_and_fill():
    check('OnesLike', [bf16([[1, 2, 3]])])
    check('ZerosLike', [bf16([[1, 2, 3]])])
    check('Fill', [np.array([2], np.int32), bf16(2.5)])


@pytest.mark.parametrize('args', [(0, 10, 1), (10, -3, -4), (10, 10, -4), (3, 20, 7), (-5, 5, 3), (1, 2, 5)])
@pytest.mark.parametrize('dtype', [np.int32, np.int64, np.float32, np.float64])
def test_range(args, dtype):
    check('Range', [np.array(a, dtype) for a in args])


def test_range_float_rounding_and_errors():
    check('Range', [np.float32(0.1), np.float32(10.0), np.float32(0.3)])
    check('Range', [np.float32(-1), np.float32(1), np.float32(1 / 3)])
    check('Range', [np.float16(0.1), np.float16(3), np.float16(0.3)])
    check('Range', [np.array([1], np.int32), np.array(5, np.int32), np.array(1, np.int32)])
    check_error('Range', [np.int32(10), np.int32(13), np.int32(-4)])
    check_error('Range', [np.int32(10), np.int32(3), np.int32(4)])
    check_error('Range', [np.int32(0), np.int32(3), np.int32(0)])


def test_lin_space():
    check('LinSpace', [np.float32(0.1), np.float32(1.7), np.int32(7)])
    check('LinSpace', [np.float64(-3), np.float64(11), np.int64(50)])
    check('LinSpace', [np.float32(0.1), np.float32(1.7), np.int32(1)])
    check_error('LinSpace', [np.float32(0.1), np.float32(1.7), np.int32(0)])


@pytest.mark.parametrize('multiples', [[1, 1], [2, 3], [0, 2], [3, 0]])
@pytest.mark.parametrize('dtype', DTYPES)
def test_tile(multiples, dtype, rng):
    check('Tile', [rand((2, 3), dtype, rng), np.array(multiples, np.int32)])


def test_tile_edge(rng):
    check('Tile', [np.float32(2), np.zeros(0, np.int32)])
    check('Tile', [rand((0, 3), np.float32, rng), np.array([4, 2], np.int64)])
    check_error('Tile', [rand((2, 3), np.float32, rng), np.array([2], np.int32)])
    check_error('Tile', [rand((2, 3), np.float32, rng), np.array([2, -1], np.int32)])


@pytest.mark.parametrize('pads', [[[0, 0], [0, 0]], [[1, 2], [0, 3]], [[2, 0], [1, 1]]])
@pytest.mark.parametrize('dtype', DTYPES)
def test_pad(pads, dtype, rng):
    x = rand((2, 3), dtype, rng)
    check('Pad', [x, np.array(pads, np.int32)])
    check('PadV2', [x, np.array(pads, np.int64), rand((), dtype, rng)])


@pytest.mark.parametrize('mode', ['REFLECT', 'SYMMETRIC'])
@pytest.mark.parametrize('pads', [[[0, 0], [0, 0]], [[1, 1], [2, 0]], [[1, 0], [0, 2]], [[2, 2], [1, 2]]])
def test_mirror_pad(mode, pads, rng):
    x = rand((3, 3), np.float32, rng)
    if mode == 'REFLECT' and max(max(p) for p in pads) > 2:
        return
    check('MirrorPad', [x, np.array(pads, np.int32)], {'mode': mode})


def test_pad_errors(rng):
    x = rand((3,), np.float32, rng)
    check_error('Pad', [x, np.array([[-1, 1]], np.int32)])
    check_error('Pad', [x, np.array([[1, 1], [1, 1]], np.int32)])
    check_error('MirrorPad', [x, np.array([[3, 0]], np.int32)], {'mode': 'REFLECT'})
    check_error('MirrorPad', [x, np.array([[4, 0]], np.int32)], {'mode': 'SYMMETRIC'})
    check('Pad', [np.float32(1), np.zeros((0, 2), np.int32)])


@pytest.mark.parametrize('axis', [-1, 0, 1, 2])
@pytest.mark.parametrize('idx_dtype', [np.int32, np.int64, np.uint8])
def test_one_hot(axis, idx_dtype, rng):
    indices = rng.integers(0, 6, size=(2, 3)).astype(idx_dtype)
    if idx_dtype != np.uint8:
        indices[0, 0] = -1
    check('OneHot', [indices, np.int32(5), np.float32(5.0), np.float32(-1.0)], {'axis': axis})
    check('OneHot', [indices, np.int32(4), np.int64(1), np.int64(0)], {'axis': axis})
    check('OneHot', [indices, np.int32(0), np.bool_(True), np.bool_(False)], {'axis': axis})


def test_one_hot_scalar_indices_and_errors():
    check('OneHot', [np.int32(2), np.int32(3), np.float32(1), np.float32(0)])
    check_error('OneHot', [np.array([1], np.int32), np.int32(-1), np.float32(1), np.float32(0)])


@pytest.mark.parametrize('dtype', DTYPES)
def test_reverse(dtype, rng):
    x = rand((2, 3, 4), dtype, rng)
    for dims in ([True, False, True], [False] * 3, [True] * 3):
        check('Reverse', [x, np.array(dims)])
    for axis in ([0], [1, -1], [], [-3, 1, 2]):
        check('ReverseV2', [x, np.array(axis, np.int32)])
    check_error('ReverseV2', [x, np.array([0, -3], np.int32)])
    check_error('ReverseV2', [x, np.array([3], np.int32)])


@pytest.mark.parametrize('dtype', [np.bool_, np.float32, np.int32, np.int8, np.int64])
@pytest.mark.parametrize('shape', [(5,), (3, 4), (2, 0, 3), (2, 3, 2)])
def test_where(dtype, shape, rng):
    x = rand(shape, dtype, rng, -1, 2)
    check('Where', [x])


def test_where_scalar_is_an_error():
    check_error('Where', [np.array(True)])


def test_where_float_special():
    check('Where', [np.array([0.0, -0.0, 1, np.nan, np.inf], np.float32)])
    check('Where', [bf16([0.0, -0.0, 1, 2])])


@pytest.mark.parametrize('dtype', [np.int32, np.int64, np.float32, np.float16])
def test_unique(dtype, rng):
    x = rand((20,), dtype, rng, -3, 4)
    check('Unique', [x])
    check('Unique', [x], {'out_idx': dtypes.DT_INT64})
    check('Unique', [x[:0]])


def test_unique_special():
    check('Unique', [np.array([np.nan, 1, np.nan, -0.0, 0.0, 1], np.float32)])
    check('Unique', [np.array([b'b', b'a', b'b'], dtype=object)])
    check_error('Unique', [np.ones((2, 2), np.float32)])


@settings(max_examples=30, deadline=None)
@given(st.permutations(list(range(6))))
def test_invert_permutation(perm):
    check('InvertPermutation', [np.array(perm, np.int32)])
    check('InvertPermutation', [np.array(perm, np.int64)])


def test_invert_permutation_errors():
    check_error('InvertPermutation', [np.array([0, 0, 1], np.int32)])
    check_error('InvertPermutation', [np.array([0, 3, 1], np.int32)])
    check('InvertPermutation', [np.zeros(0, np.int32)])


def test_ensure_shape_and_check_numerics():
    x = np.ones((2, 3), np.float32)
    check('EnsureShape', [x], {'shape': (2, -1)})
    check_error('EnsureShape', [x], {'shape': (3, -1)})
    check('CheckNumerics', [x], {'message': 'ok'})
    check_error('CheckNumerics', [np.array([1, np.nan], np.float32)], {'message': 'bad'})


def test_views_not_copies():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    [t] = run_mo('Transpose', [x, np.array([2, 0, 1], np.int32)])
    assert np.shares_memory(t, x)
    outs = run_mo('Split', [np.array(2, np.int32), x], {'num_split': 2})
    assert all(np.shares_memory(o, x) for o in outs)
    [s] = run_mo('Slice', [x, np.array([0, 1, 0], np.int32), np.array([-1, 1, 2], np.int32)])
    assert np.shares_memory(s, x)
