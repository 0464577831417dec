"""Shape, Size, Rank, Reshape, ExpandDims, Squeeze, BroadcastTo/Args/GradientArgs against TensorFlow."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from ._tfref import check, check_error, run_mo, bf16
from mo.front.tf import dtypes

SHAPES = [(), (0,), (3,), (2, 3), (1, 0, 4), (2, 1, 3, 1)]


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', [np.float32, np.int64, np.bool_, np.float16])
def test_shape_size_rank(shape, dtype):
    x = np.zeros(shape, dtype)
    check('Shape', [x])
    check('Shape', [x], {'out_type': dtypes.DT_INT64})
    check('Size', [x])
    check('Size', [x], {'out_type': dtypes.DT_INT64})
    check('Rank', [x])


def test_shape_n_and_strings():
    xs = [np.zeros(s, np.float32) for s in SHAPES]
    check('ShapeN', xs)
    check('ShapeN', xs, {'out_type': dtypes.DT_INT64})
    check('Shape', [np.array([b'a', b'b'], dtype=object)])
    check('Shape', [bf16([[1, 2, 3]])])


@pytest.mark.parametrize('src,dst', [((2, 3), [3, 2]), ((2, 3), [-1]), ((2, 3), [3, -1]), ((2, 3), [1, 6, 1]),
                                     ((1,), []), ((), [1, 1]), ((0, 3), [0, -1]), ((0, 3), [-1, 3]),
                                     ((0, 3), [-1, 0]), ((0, 3), [2, -1, 0]), ((4, 0, 2), [0, -1]),
                                     ((2, 3, 4), [4, -1, 2])])
def test_reshape(src, dst):
    x = np.arange(int(np.prod(src)), dtype=np.float32).reshape(src)
    check('Reshape', [x, np.array(dst, np.int32)])
    check('Reshape', [x.astype(np.int64), np.array(dst, np.int64)])


@pytest.mark.parametrize('src,dst', [((2, 3), [4, 2]), ((2, 3), [-1, -1]), ((2, 3), [4, -1]),
                                     ((2, 3), [-2, 3]), ((2, 3), [0, -1])])
def test_reshape_errors(src, dst):
    check_error('Reshape', [np.zeros(src, np.float32), np.array(dst, np.int32)])


def test_reshape_is_a_view():
    x = np.arange(6, dtype=np.float32)
    [out] = run_mo('Reshape', [x, np.array([2, 3], np.int32)])
    assert np.shares_memory(out, x)


@pytest.mark.parametrize('shape', [(), (3,), (2, 3)])
def test_expand_dims(shape):
    x = np.zeros(shape, np.float32)
    for axis in range(-len(shape) - 1, len(shape) + 1):
        check('ExpandDims', [x, np.array(axis, np.int32)])
        check('ExpandDims', [x, np.array([axis], np.int64)])
    check_error('ExpandDims', [x, np.array(len(shape) + 1, np.int32)])
    check_error('ExpandDims', [x, np.array(-len(shape) - 2, np.int32)])


@pytest.mark.parametrize('dims', [[], [0], [-1], [0, 2], [2, -4]])
def test_squeeze(dims):
    x = np.zeros((1, 3, 1, 1), np.float32)
    check('Squeeze', [x], {'squeeze_dims': dims})


def test_squeeze_errors():
    check_error('Squeeze', [np.zeros((1, 3), np.float32)], {'squeeze_dims': [1]})
    check_error('Squeeze', [np.zeros((1, 3), np.float32)], {'squeeze_dims': [2]})
    check('Squeeze', [np.zeros((), np.float32)], {'squeeze_dims': []})


@pytest.mark.parametrize('src,dst', [((3,), [2, 3]), ((1, 3), [4, 3]), ((), [2, 2]), ((2, 1), [2, 2, 5]),
                                     ((0, 1), [0, 4]), ((3,), [3]), ((1,), [0])])
def test_broadcast_to(src, dst):
    x = np.arange(int(np.prod(src)), dtype=np.int32).reshape(src)
    check('BroadcastTo', [x, np.array(dst, np.int32)])
    check('BroadcastTo', [x.astype(np.float16), np.array(dst, np.int64)])


def test_broadcast_to_errors():
    check_error('BroadcastTo', [np.zeros(3, np.float32), np.array([3, 1], np.int32)])
    check_error('BroadcastTo', [np.zeros((1, 3), np.float32), np.array([3], np.int32)])


shape_vec = st.lists(st.sampled_from([1, 1, 2, 3]), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(a=shape_vec, b=shape_vec)
def test_broadcast_args_and_gradient_args(a, b):
    s0, s1 = np.array(a, np.int32), np.array(b, np.int32)
    try:
        np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        check_error('BroadcastArgs', [s0, s1])
        check_error('BroadcastGradientArgs', [s0, s1])
        return
    check('BroadcastArgs', [s0, s1])
    check('BroadcastGradientArgs', [s0, s1])
    check('BroadcastGradientArgs', [s0.astype(np.int64), s1.astype(np.int64)])
