"""Harness cases for the complex forms of ``extensions/front/tf/complex_linear.py`` and ``complex_inverse_trig.py``
beyond ``cases_dtype_complex``'s one case per op: the attribute variants that change what the float form does
(adjoint flags, which conjugate, against MatMul's plain transposes; Einsum's one-operand, diagonal, ellipsis and
full-sum equations; keep_dims, negative, several and empty axes; Cumprod's exclusive/reverse; empty segments and
dropped ids, which multiply to 1; clip bounds of both orders), and the edges: products through zeros and the
negative real axis, and the inverse functions on and beside their branch cuts, with +0 and -0 imaginary parts
(TF takes the side the zero's sign names), and over eight decades, each element to 1e-5 of its own size. Each op
runs on z = Complex(x, y), the result compared part by part with TensorFlow.
"""
import numpy as np
import tensorflow as tf

from tests.ops.dtype_kit import complex_parts, second_operand
from tests.ops.harness import In, OpCase, grid, register

_R = tf.raw_ops


def _c(values, z):
    """A complex constant of z's type."""
    return tf.constant(np.asarray(values).astype(z.dtype.as_numpy_dtype))


def _sparse(z, **flags):
    """SparseTensorDenseMatMul of A [3, 4] (two values of z, one index twice: they add up) and B."""
    indices = [[0, 1], [2, 3], [0, 1]]
    if flags.get('adjoint_a'):  # A is stored [4, 3]
        indices = [index[::-1] for index in indices]
    indices = tf.constant(indices, tf.int64)
    shape = tf.constant([4, 3] if flags.get('adjoint_a') else [3, 4], tf.int64)
    b = z[1] if flags.get('adjoint_b') else tf.transpose(z[1])  # [3, 4] or [4, 3]
    return _R.SparseTensorDenseMatMul(a_indices=indices, a_values=z[0, 0, :3], a_shape=shape, b=b, **flags)


_SQUARE = (2, 3, 3)
_SHAPE = (2, 3, 4)

#: variant -> (z's shape, fn(z))
_VARIANTS = {
    'BatchMatMul_adj_x': (_SQUARE, lambda z: _R.BatchMatMul(x=z, y=second_operand(z), adj_x=True)),
    'BatchMatMulV2_adj_both_broadcast': (_SQUARE, lambda z: _R.BatchMatMulV2(x=z[:1], y=second_operand(z), adj_x=True,
                                                                             adj_y=True)),
    'BatchMatMulV3_adj_x': (_SHAPE, lambda z: _R.BatchMatMulV3(x=z, y=second_operand(z), adj_x=True, Tout=z.dtype)),
    'MatMul_transposes': ((2, 3, 4), lambda z: _R.MatMul(a=z[0], b=z[1], transpose_a=True)),
    'Einsum_one_operand': (_SHAPE, lambda z: _R.Einsum(inputs=[z], equation='bij->jb')),
    'Einsum_diagonal': (_SQUARE, lambda z: _R.Einsum(inputs=[z], equation='bii->bi')),
    'Einsum_ellipsis': (_SHAPE, lambda z: _R.Einsum(inputs=[z, second_operand(z)], equation='...ij,...kj->...ik')),
    'Einsum_full_sum': (_SHAPE, lambda z: _R.Einsum(inputs=[z, second_operand(z)], equation='bij,bij->')),
    'Einsum_outer': (_SHAPE, lambda z: _R.Einsum(inputs=[z[0, 0], z[1, 1]], equation='i,j->ij')),
    'SparseTensorDenseMatMul_adjoint_a': (_SHAPE, lambda z: _sparse(z, adjoint_a=True)),
    'SparseTensorDenseMatMul_adjoint_b': (_SHAPE, lambda z: _sparse(z, adjoint_b=True)),
    'SparseTensorDenseMatMul_adjoint_both': (_SHAPE, lambda z: _sparse(z, adjoint_a=True, adjoint_b=True)),
    'MatrixInverse_adjoint': (_SQUARE, lambda z: _R.MatrixInverse(input=z + _c(3 * np.eye(3), z), adjoint=True)),
    'MatrixInverse_batch_2x2': ((3, 2, 2), lambda z: _R.MatrixInverse(input=z + _c(2 * np.eye(2), z))),
    'EuclideanNorm_keep_dims_negative': (_SHAPE, lambda z: _R.EuclideanNorm(input=z, axis=[-1, 0], keep_dims=True)),
    'EuclideanNorm_all': (_SHAPE, lambda z: _R.EuclideanNorm(input=z, axis=[0, 1, 2])),
    'EuclideanNorm_no_axes': (_SHAPE, lambda z: _R.EuclideanNorm(input=z, axis=tf.constant([], tf.int32))),
    'Prod_keep_dims_negative': (_SHAPE, lambda z: _R.Prod(input=z, axis=[-1, 0], keep_dims=True)),
    'Cumprod_exclusive': (_SHAPE, lambda z: _R.Cumprod(x=z, axis=1, exclusive=True)),
    'Cumprod_reverse_negative': (_SHAPE, lambda z: _R.Cumprod(x=z, axis=-1, reverse=True)),
    'Cumprod_exclusive_reverse': (_SHAPE, lambda z: _R.Cumprod(x=z, axis=0, exclusive=True, reverse=True)),
    'SegmentProd_empty_segment': (_SHAPE, lambda z: _R.SegmentProd(data=tf.transpose(z, [2, 0, 1]),
                                                                   segment_ids=[0, 0, 3, 3])),
    'UnsortedSegmentProd_empty_dropped': (_SHAPE, lambda z: _R.UnsortedSegmentProd(
        data=z, segment_ids=[[2, -1, 0], [0, 2, -1]], num_segments=4)),
    'ClipByValue_ordered': (_SHAPE, lambda z: _R.ClipByValue(t=z, clip_value_min=_c(-0.5 - 0.25j, z),
                                                             clip_value_max=_c(0.75 + 1j, z))),
    'ClipByValue_tensor_bounds': (_SHAPE, lambda z: _R.ClipByValue(t=z, clip_value_min=second_operand(z),
                                                                   clip_value_max=second_operand(z) + _c(0.5 + 0.5j, z))),
}

#: the edges of the products: zeros (a product through one is 0), the negative real axis (argument pi), -0
_PRODUCT_RE = [[0.0, -2.0, 3.0, -1.5], [0.5, 1.0, -0.5, 2.0], [-4.0, 0.0, 0.25, -1.0]]
_PRODUCT_IM = [[0.0, 0.0, 0.0, 2.0], [0.0, -0.0, -1.0, 0.5], [-0.0, -3.0, 0.0, 0.0]]
_PRODUCT_OPS = {
    'Prod': lambda z: _R.Prod(input=z, axis=[1]),
    'Cumprod': lambda z: _R.Cumprod(x=z, axis=1),
    'Cumprod_exclusive_reverse': lambda z: _R.Cumprod(x=z, axis=0, exclusive=True, reverse=True),
    'UnsortedSegmentProd': lambda z: _R.UnsortedSegmentProd(data=z, segment_ids=[2, 0, 2], num_segments=4),
    'EuclideanNorm': lambda z: _R.EuclideanNorm(input=z, axis=[1]),
}

#: the branch cuts: the real axis beyond +-1 (Asin, Acos, Atanh; Acosh below 1), the imaginary axis beyond +-i
#: (Asinh, Atan), each with +0 and -0 (the side the value is taken from), the points +-1 and 0 on them, points
#: just beside the cuts, tiny and large numbers (those near +-1 exact in float32: OpenVINO's CPU computes float64 in
#: float32, and there the function's slope magnifies the input's rounding past float64's tolerance)
_CUT_RE = [[2.0, 2.0, -3.0, -3.0, 0.5, -0.5], [0.0, -0.0, 0.0, -0.0, 0.0, 1e-3],
           [0.25, -0.25, 0.0, 1.0, -1.0, 1.5], [1e-6, 1e3, -1e3, 1 - 2 ** -10, -1 - 2 ** -10, 1e-8]]
_CUT_IM = [[0.0, -0.0, 0.0, -0.0, -0.0, 0.0], [2.0, 2.0, -1.5, -1.5, 0.0, 1.0],
           [1e-3, -1e-3, 0.5, 1e-4, -1e-4, 0.0], [1e-6, 1e3, 5.0, 0.0, -0.0, -1.0]]
_INVERSE = ['Acos', 'Acosh', 'Asin', 'Asinh', 'Atan', 'Atanh']


def _wide_values(part):
    """1000 numbers z: magnitudes over eight decades in every direction, then 100 just beside the real axis and 100
    just beside the imaginary axis (the cuts and their ends); ``part`` 0 gives the real parts, 1 the imaginary."""
    def values(rng, shape):
        rng = np.random.default_rng(26)  # both inputs from one draw
        size = np.exp(rng.uniform(np.log(1e-4), np.log(1e4), 1000))
        angle = rng.uniform(-np.pi, np.pi, 1000)
        real, imag = size * np.cos(angle), size * np.sin(angle)
        near = np.sign(rng.uniform(-1, 1, 200)) * np.exp(rng.uniform(np.log(1e-7), np.log(1e-2), 200))
        along = rng.uniform(-3, 3, 200)
        real[:100], imag[:100] = along[:100], near[:100]
        real[100:200], imag[100:200] = near[100:], along[100:]
        return (real, imag)[part]
    return values


def _elementwise_close(actual, expected):
    """Each element within 1e-5 of TF's, relative to its own modulus (the harness's tolerance is relative to the
    largest, which would not see a formula losing the digits of small results)."""
    got, want = actual[0] + 1j * actual[1], expected[0] + 1j * expected[1]
    error = np.abs(got.astype(np.complex128) - want) / np.abs(want)
    worst = int(np.argmax(error))
    assert error[worst] <= 1e-5, 'relative error %.3g at element %d (TF %s, OpenVINO %s)' % (
        error[worst], worst, want[worst], got[worst])


def _wide(op):
    fn = getattr(_R, op)
    return OpCase('', lambda x, y: complex_parts(fn(x=tf.complex(x, y))),
                  [In((1000,), np.float32, values=_wide_values(0)), In((1000,), np.float32, values=_wide_values(1))],
                  check=_elementwise_close)


def _case(variant, dtype):
    shape, fn = _VARIANTS[variant]
    return OpCase('', lambda x, y: complex_parts(fn(tf.complex(x, y))), [In(shape, dtype), In(shape, dtype)],
                  rtol=1e-4 if dtype == np.float32 else 1e-6)


def _fixed(fn, real, imag, dtype):
    return OpCase('', lambda x, y: complex_parts(fn(tf.complex(x, y))),
                  [In(np.shape(real), dtype, values=lambda rng, s: np.array(real)),
                   In(np.shape(imag), dtype, values=lambda rng, s: np.array(imag))],
                  rtol=1e-4 if dtype == np.float32 else 1e-6)


def _product_edges(op, dtype):
    return _fixed(_PRODUCT_OPS[op], _PRODUCT_RE, _PRODUCT_IM, dtype)


def _cuts(op, dtype):
    return _fixed(lambda z: getattr(_R, op)(x=z), _CUT_RE, _CUT_IM, dtype)


register(grid('complex_linear/op', _case, variant=sorted(_VARIANTS), dtype=[np.float32, np.float64])
         + grid('complex_linear/product_edges', _product_edges, op=sorted(_PRODUCT_OPS),
                dtype=[np.float32, np.float64])
         + grid('complex_linear/cuts', _cuts, op=_INVERSE, dtype=[np.float32, np.float64])
         + grid('complex_linear/wide', _wide, op=_INVERSE))
