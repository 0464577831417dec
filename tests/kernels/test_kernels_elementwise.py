"""Element-wise kernels against TensorFlow: arithmetic, division rules, unary math, comparisons, logic."""
import zlib
import math

import numpy as np
import pytest

from ._tfref import check, check_error, rand, bf16, run_mo, combos, TF_CPU_GAPS
from mo.front.tf import kernels
from mo.front.tf.kernels.special import erf, erfc

FLOATS = [np.float16, np.float32, np.float64]
NUMERIC = FLOATS + [np.int32, np.int64]
SHAPE_PAIRS = [((3, 4), (3, 4)), ((2, 3, 4), (4,)), ((3, 1), (1, 5)), ((), (2, 3)), ((0, 3), (1, 3)),
               ((2, 1, 3), (4, 1)), ((), ())]


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


def _nonzero(x):
    if x.dtype.kind in 'iu':
        return np.where(x == 0, 1, x).astype(x.dtype)
    return np.where(np.abs(x) < 0.5, 1.5, x).astype(x.dtype)


@pytest.mark.parametrize('op', ['Add', 'AddV2', 'Sub', 'Mul', 'Maximum', 'Minimum', 'SquaredDifference'])
@pytest.mark.parametrize('dtype', NUMERIC)
@pytest.mark.parametrize('shapes', SHAPE_PAIRS)
def test_arithmetic(op, dtype, shapes, rng):
    check(op, [rand(shapes[0], dtype, rng), rand(shapes[1], dtype, rng)])


@pytest.mark.parametrize('op,dtype', combos(['Add', 'Sub', 'Mul', 'Maximum', 'Minimum'], [np.int8, np.uint8, np.int16])
                         + combos(['Add', 'Sub', 'Mul'], [np.complex64]))
def test_arithmetic_other_dtypes(op, dtype, rng):
    check(op, [rand((3, 4), dtype, rng, 0, 100), rand((4,), dtype, rng, 0, 100)])


def test_integer_overflow_wraps():
    big = np.array([2 ** 31 - 1, -2 ** 31], np.int32)
    for op in ('Add', 'Sub', 'Mul', 'SquaredDifference'):
        check(op, [big, np.array([2, 3], np.int32)])


def test_nan_propagation():
    x = np.array([np.nan, 1, -1, 0, np.inf, -np.inf], np.float32)
    y = np.zeros(6, np.float32)
    for op in ('Maximum', 'Minimum', 'Add', 'Mul'):
        check(op, [x, y])
        check(op, [y, x])


def test_string_add_and_equal():
    a = np.array([b'a', b'bc', b''], dtype=object)
    b = np.array(b'x', dtype=object)
    check('Add', [a, b])
    check('Equal', [a, np.array(b'bc', dtype=object)])
    check('NotEqual', [a, a])


@pytest.mark.parametrize('op,dtype', combos(['RealDiv', 'Div', 'FloorDiv', 'FloorMod', 'Mod', 'TruncateDiv',
                                             'TruncateMod', 'DivNoNan', 'Pow'], FLOATS))
@pytest.mark.parametrize('shapes', SHAPE_PAIRS[:5])
def test_float_division_family(op, dtype, shapes, rng):
    x = rand(shapes[0], dtype, rng)
    y = rand(shapes[1], dtype, rng)
    if op == 'Pow':
        x = np.abs(x).astype(dtype)
        y = (y / 4).astype(dtype)
    check(op, [x, y])


def test_float_division_edge_cases():
    x = np.array([1, -1, 5, 0, 1, -5, 3, -3, 3, np.inf, 7, -7], np.float32)
    y = np.array([0.1, 0.1, 0, 0, -0.0, 2, -2, -3, 3, 2, np.inf, np.inf], np.float32)
    for op in ('RealDiv', 'FloorDiv', 'FloorMod', 'Mod', 'TruncateMod', 'DivNoNan', 'MulNoNan', 'Xdivy', 'Xlogy'):
        check(op, [x, y])


@pytest.mark.parametrize('op,dtype', combos(['Div', 'FloorDiv', 'FloorMod', 'Mod', 'TruncateDiv', 'TruncateMod'],
                                            [np.int32, np.int64, np.int8, np.uint8, np.int16]))
def test_integer_division_family(op, dtype, rng):
    low = 0 if dtype == np.uint8 else -20
    x = rand((4, 5), dtype, rng, low, 20)
    y = _nonzero(rand((5,), dtype, rng, low, 20))
    check(op, [x, y])
    check(op, [np.array([7, -7, 7, -7, 0], dtype) if dtype != np.uint8 else np.array([7, 9, 0], dtype),
               np.array([2, 2, -2, -2, 3], dtype) if dtype != np.uint8 else np.array([2, 3, 4], dtype)])


@pytest.mark.parametrize('op', ['Div', 'FloorDiv', 'FloorMod', 'TruncateDiv'])
def test_integer_division_by_zero(op):
    check_error(op, [np.array([1, 2], np.int32), np.array([1, 0], np.int32)])


def test_integer_division_overflow():
    int_min = np.array([-2 ** 31], np.int32)
    for op in ('Div', 'FloorDiv', 'FloorMod', 'TruncateDiv', 'TruncateMod'):
        check(op, [int_min, np.array([-1], np.int32)])


def test_integer_pow():
    check('Pow', [np.array([2, -3, 0, 3, 7], np.int32), np.array([3, 3, 0, 40, 1], np.int32)])
    check('Pow', [np.array([2, -3, 0, 3], np.int64), np.array([62, 5, 1, 39], np.int64)])
    check_error('Pow', [np.array([2, 1], np.int32), np.array([1, -1], np.int32)])


def test_add_n(rng):
    for dtype in (np.float32, np.int32, np.float16):
        check('AddN', [rand((2, 3), dtype, rng) for _ in range(4)])
        check('AddN', [rand((0, 3), dtype, rng) for _ in range(2)])
        check('AddN', [rand((2, 3), dtype, rng)])
    check_error('AddN', [np.ones((2, 3), np.float32), np.ones(3, np.float32)])


@pytest.mark.parametrize('op', ['Add', 'Mul', 'RealDiv'])
def test_incompatible_shapes(op):
    err = check_error(op, [np.ones((2, 3), np.float32), np.ones((4,), np.float32)])
    assert 'Incompatible shapes' in str(err)


# -- unary -------------------------------------------------------------------------------------

UNARY_FLOAT = ['Sqrt', 'Rsqrt', 'Exp', 'Expm1', 'Log', 'Log1p', 'Sin', 'Cos', 'Tan', 'Tanh', 'Sigmoid',
               'Erf', 'Erfc', 'Floor', 'Ceil', 'Round', 'Rint', 'Reciprocal', 'Inv', 'Neg', 'Abs', 'Sign',
               'Square', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh', 'IsNan',
               'IsInf', 'IsFinite']
# float32 transcendental functions differ by an ulp or two between Eigen and numpy/libm
LOOSE = {'Tanh': 3e-6, 'Sigmoid': 3e-6, 'Expm1': 3e-6, 'Tan': 3e-6, 'Erfc': 3e-6, 'Erf': 3e-6,
         'Sinh': 3e-6, 'Cosh': 3e-6, 'Asinh': 3e-6, 'Acosh': 3e-6, 'Atanh': 3e-6, 'Log1p': 3e-6}


def _domain(op, x):
    if op in ('Sqrt', 'Rsqrt', 'Log'):
        return np.abs(x) + x.dtype.type(0.01)
    if op in ('Asin', 'Acos', 'Atanh'):
        return (x / x.dtype.type(10.5)).astype(x.dtype)
    if op == 'Acosh':
        return np.abs(x) + x.dtype.type(1)
    if op == 'Log1p':
        return np.abs(x) - x.dtype.type(0.9)
    if op in ('Exp', 'Expm1', 'Sinh', 'Cosh'):
        return (x * x.dtype.type(0.9)).astype(x.dtype)
    return x


@pytest.mark.parametrize('op,dtype', combos(UNARY_FLOAT, FLOATS))
def test_unary_float(op, dtype, rng):
    x = _domain(op, rand((5, 7), dtype, rng))
    rtol = LOOSE.get(op) if dtype == np.float32 else None
    check(op, [x], rtol=rtol)
    check(op, [x[:0]])
    check(op, [x[0, 0]])


@pytest.mark.parametrize('op', ['Neg', 'Abs', 'Sign', 'Square'])
@pytest.mark.parametrize('dtype', [np.int32, np.int64, np.int8, np.int16])
def test_unary_int(op, dtype, rng):
    check(op, [rand((3, 4), dtype, rng)])


def test_round_int_is_identity():
    # TF 2.21's CPU Round kernel returns zeros for int32/int64 (a bug; tf.math.round never emits
    # Round for integers, it returns its input). mo implements the documented semantics: identity.
    x = np.array([1, -2, 7], np.int32)
    [out] = run_mo('Round', [x])
    assert out.dtype == np.int32 and np.array_equal(out, x)


def test_unary_special_values():
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -2.5, 1e-30, 1e30, 88.8, -88.8,
                  -100, 100], np.float32)
    for op in ('Sign', 'Round', 'Rint', 'Floor', 'Ceil', 'Sigmoid', 'Tanh', 'Erf', 'Erfc', 'Reciprocal',
               'Exp', 'IsNan', 'IsInf', 'IsFinite', 'Neg', 'Abs', 'Square'):
        check(op, [x], rtol=3e-6)
    check('Round', [np.array([0.5, 1.5, 2.5, -0.5, -1.5, 3.5], np.float16)])


def test_unary_rejects_int():
    with pytest.raises(kernels.KernelError, match='Sqrt'):
        kernels.evaluate('Sqrt', {}, [np.array([4], np.int32)])


def test_erf_accuracy():
    xs = np.concatenate([np.linspace(-7, 7, 4001), [0.0, -0.0, 1e-300, 1.0, -1.0, 27.0, -27.0]])
    ref = np.array([math.erf(v) for v in xs])
    refc = np.array([math.erfc(v) for v in xs])
    np.testing.assert_allclose(erf(xs), ref, rtol=1e-14, atol=1e-300)
    np.testing.assert_allclose(erfc(xs), refc, rtol=5e-14, atol=1e-300)
    assert np.isnan(erf(np.array([np.nan]))[0]) and erf(np.array([np.inf]))[0] == 1.0
    assert erfc(np.array([np.inf]))[0] == 0.0 and erfc(np.array([-np.inf]))[0] == 2.0
    x32 = np.linspace(-10, 10, 1001).astype(np.float32)
    assert erf(x32).dtype == np.float32
    np.testing.assert_array_equal(erf(x32), np.array([math.erf(v) for v in x32.astype(float)], np.float32))


def test_erf_against_tf_wide_range(rng):
    x = np.concatenate([rng.normal(0, 3, 500), np.linspace(-6, 6, 301)]).astype(np.float64)
    check('Erf', [x], rtol=1e-13)
    check('Erfc', [x], rtol=1e-12)
    check('Erf', [x.astype(np.float32)], rtol=3e-6)
    check('Erfc', [x.astype(np.float32)], rtol=3e-6, atol=1e-30)


def test_bfloat16_math():
    a = bf16([1.5, -2.25, 3.0, 100.0, 0.1])
    b = bf16([0.5, 4.0, -3.0, 7.0, 0.3])
    for op in ('AddV2', 'Mul', 'Sub', 'RealDiv', 'Maximum', 'Pow'):
        check(op, [a, b] if op != 'Pow' else [bf16([1.5, 2, 3, 1.1, 0.5]), b])
    for op in ('Neg', 'Abs', 'Exp', 'Sqrt', 'Tanh', 'Sigmoid', 'Floor'):
        check(op, [bf16([1.5, 2.25, 3.0, 0.01, 0.1])])
    check('Less', [a, b])
    check('Equal', [a, b])


# -- comparisons, logic, select ------------------------------------------------------------------

@pytest.mark.parametrize('op', ['Equal', 'NotEqual', 'Less', 'LessEqual', 'Greater', 'GreaterEqual'])
@pytest.mark.parametrize('dtype', NUMERIC + [np.uint8])
@pytest.mark.parametrize('shapes', SHAPE_PAIRS[:5])
def test_comparisons(op, dtype, shapes, rng):
    check(op, [rand(shapes[0], dtype, rng, 0, 4), rand(shapes[1], dtype, rng, 0, 4)])


def test_comparisons_nan_and_bool():
    x = np.array([np.nan, 1, np.nan], np.float32)
    y = np.array([np.nan, np.nan, 2], np.float32)
    for op in ('Equal', 'NotEqual', 'Less', 'LessEqual', 'Greater', 'GreaterEqual'):
        check(op, [x, y])
    check('Equal', [np.array([True, False]), np.array([True, True])])


@pytest.mark.parametrize('op', ['Equal', 'NotEqual'])
def test_equal_incompatible_shapes(op):
    x, y = np.ones(2, np.float32), np.ones(3, np.float32)
    check(op, [x, y], {'incompatible_shape_error': False})
    check(op, [np.ones((2, 1), np.float32), y], {'incompatible_shape_error': False})
    check_error(op, [x, y], {'incompatible_shape_error': True})


@pytest.mark.parametrize('shapes', SHAPE_PAIRS)
def test_logical(shapes, rng):
    a, b = rand(shapes[0], np.bool_, rng), rand(shapes[1], np.bool_, rng)
    check('LogicalAnd', [a, b])
    check('LogicalOr', [a, b])
    check('LogicalNot', [a])


@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.bool_, np.float16])
def test_select(dtype, rng):
    t, e = rand((4, 3), dtype, rng), rand((4, 3), dtype, rng)
    check('Select', [rand((4, 3), np.bool_, rng), t, e])
    check('Select', [rand((4,), np.bool_, rng), t, e])
    check('Select', [np.array(True), t, e])
    check('Select', [np.array(False), t[0, 0], e[0, 0]])
    check_error('Select', [rand((3,), np.bool_, rng), t, e])
    check_error('Select', [rand((4, 3), np.bool_, rng), t, e[:2]])


@pytest.mark.parametrize('shapes', [((4, 3), (4, 3), (4, 3)), ((3,), (4, 3), ()), ((4, 1), (1, 3), (3,)),
                                    ((), (2,), (2,)), ((0, 1), (1, 3), (1,))])
def test_select_v2(shapes, rng):
    c, t, e = shapes
    check('SelectV2', [rand(c, np.bool_, rng), rand(t, np.float32, rng), rand(e, np.float32, rng)])
    check('SelectV2', [rand(c, np.bool_, rng), rand(t, np.int64, rng), rand(e, np.int64, rng)])


def test_clip_by_value(rng):
    t = rand((3, 4), np.float32, rng)
    check('ClipByValue', [t, np.float32(-2), np.float32(3)])
    check('ClipByValue', [t, np.float32(6), np.float32(4)])
    check('ClipByValue', [t, rand((3, 4), np.float32, rng), np.float32(3)])
    check('ClipByValue', [rand((3, 4), np.int32, rng), np.int32(-2), np.int32(3)])
    check_error('ClipByValue', [t, np.zeros(4, np.float32), np.float32(3)])


def test_atan2(rng):
    check('Atan2', [rand((3, 4), np.float32, rng), rand((4,), np.float32, rng)], rtol=3e-6)
    check('Atan2', [np.array([0.0, -0.0, 1, -1], np.float64), np.array([-0.0, -0.0, 0, 0], np.float64)])


def test_wrong_dtype_mix_is_an_error():
    with pytest.raises(kernels.KernelError, match='AddV2'):
        run_mo('AddV2', [np.ones(2, np.float32), np.ones(2, np.float64)])


@pytest.mark.parametrize('op,dtype', sorted(TF_CPU_GAPS, key=str))
def test_combinations_tf_cannot_run(op, dtype, rng):
    """Op/dtype pairs valid per the op-def but without a TF CPU kernel: mo evaluates them sensibly."""
    x = _domain(op, rand((3, 4), dtype, rng, 1, 9))
    inputs = [x] if op in UNARY_FLOAT + ['Rint'] else [x, _nonzero(rand((4,), dtype, rng, 1, 9))]
    [out] = run_mo(op, inputs)
    assert out.dtype == dtype and out.shape == (3, 4)
