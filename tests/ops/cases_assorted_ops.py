"""Harness cases for the TF ops that OpenVINO's ``ovc`` converts and mo did not (issue 26): Rint, MulNoNan,
ApproximateEqual, Angle, SparseTensorDenseAdd, SparseTensorDenseMatMul, MatrixInverse, BatchMatrixInverse,
TensorListResize, CTCLoss (the loss), over their attributes and the dtypes TF registers CPU kernels for
(``kernels.get_registered_kernels_for_op``), except: bfloat16 (no numpy type to feed or compare); complex MulNoNan,
SparseTensorDense* and MatrixInverse (mo's complex tensors go through the ops ``complex_tensors`` lists); float16
BatchMatrixInverse (its op def takes float and double only, though a kernel is registered).
"""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

_TOL = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-6}  # OpenVINO CPU computes f64 in f32


def _rint(dtype):
    # ties (x.5) both ways, negative zero, large values: TF rounds half to even
    values = lambda rng, s: np.concatenate([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -3.5, 1e6 + 0.5, -0.0],  # noqa
                                            rng.uniform(-10, 10, 6)]).reshape(s)
    return OpCase('', lambda x: tf.raw_ops.Rint(x=x), [In((2, 8), dtype, values=values)], rtol=0)


def _mul_no_nan(dtype, shapes):
    a, b = {'same': ((3, 4), (3, 4)), 'broadcast': ((3, 4), (4,))}[shapes]

    def special_x(rng, s):  # inf and NaN in x: 0 where y is 0
        x = rng.standard_normal(s)
        x.flat[:3] = [np.inf, -np.inf, np.nan]
        return x

    def y_with_zeros(rng, s):
        y = rng.integers(-2, 3, s).astype(np.float64)
        y.flat[:3] = 0
        return y
    return OpCase('', lambda x, y: tf.raw_ops.MulNoNan(x=x, y=y), [In(a, dtype, values=special_x),
                                                                     In(b, dtype, values=y_with_zeros)],
                  rtol=_TOL[dtype])


def _approximate_equal(dtype, tolerance):
    def near(rng, s):
        return rng.uniform(-1, 1, s) * tolerance * 2  # differences on both sides of the tolerance
    return OpCase('', lambda x, y: tf.raw_ops.ApproximateEqual(x=x, y=x + y, tolerance=tolerance),
                  [In((4, 5), dtype), In((4, 5), dtype, values=near)])


def _angle(dtype):
    real = np.float32 if dtype == np.complex64 else np.float64
    axes = lambda rng, s: rng.integers(-1, 2, s) * rng.uniform(0.5, 2, s)  # noqa: E731  (axes and zeros too)
    return OpCase('', lambda re, im: tf.raw_ops.Angle(input=tf.complex(re, im), Tout=tf.as_dtype(real)),
                  [In((3, 6), real, values=axes), In((3, 6), real, values=axes)],
                  rtol=1e-6)  # OpenVINO's CPU plugin computes f64 Atan in f32


# a 2-D sparse tensor of shape [4, 5] with a duplicate index ([1, 2] twice: the values add up)
_INDICES = np.array([[0, 0], [1, 2], [3, 4], [1, 2], [2, 1]])
_DENSE_SHAPE = (4, 5)
_INDICES_3D = np.array([[0, 1, 2], [1, 0, 0], [1, 2, 3], [0, 1, 2]])


def _sparse_add(dtype, index_type, rank):
    indices, shape = (_INDICES, _DENSE_SHAPE) if rank == 2 else (_INDICES_3D, (2, 3, 4))
    count = len(indices)

    def fn(values, dense):
        return tf.raw_ops.SparseTensorDenseAdd(a_indices=tf.constant(indices, index_type), a_values=values,
                                               a_shape=tf.constant(shape, index_type), b=dense)
    exact = np.dtype(dtype).kind in 'iu'
    low = 0 if np.dtype(dtype).kind == 'u' else -5
    return OpCase('', fn, [In((count,), dtype, low=low, high=6), In(shape, dtype, low=low, high=6)],
                  rtol=0 if exact else _TOL[dtype])


def _sparse_matmul(dtype, index_type, adjoint_a, adjoint_b):
    a_shape = _DENSE_SHAPE[::-1] if adjoint_a else _DENSE_SHAPE
    indices = _INDICES[:, ::-1] if adjoint_a else _INDICES
    b_shape = (3, 5) if adjoint_b else (5, 3)

    def fn(values, dense):
        return tf.raw_ops.SparseTensorDenseMatMul(a_indices=tf.constant(indices, index_type), a_values=values,
                                                  a_shape=tf.constant(a_shape, tf.int64), b=dense,
                                                  adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    exact = np.dtype(dtype).kind in 'iu'
    return OpCase('', fn, [In((len(indices),), dtype), In(b_shape, dtype)], rtol=0 if exact else 4 * _TOL[dtype])


def _well_conditioned(rng, shape):
    # rows permuted so that pivoting matters (a zero on the diagonal)
    n = shape[-1]
    a = rng.standard_normal(shape) + 3 * np.eye(n)
    a = a[..., rng.permutation(n), :]
    if n > 1:
        a[..., 0, 0] = 0
    return a


def _matrix_inverse(op, dtype, adjoint, shape):
    legacy = None
    if op == 'BatchMatrixInverse':  # removed in GraphDef version 13: a version-12 graph, as old models hold
        if len(shape) < 3 or dtype == np.float16:  # its op def takes float and double only
            return None

        def legacy(graph_def):
            graph_def.versions.producer = 12
            for node in graph_def.node:
                if node.op == 'MatrixInverse':
                    node.op = 'BatchMatrixInverse'
    return OpCase('', lambda x: tf.raw_ops.MatrixInverse(input=x, adjoint=adjoint),
                  [In(shape, dtype, values=_well_conditioned)], edit_graph_def=legacy,
                  rtol={np.float16: 2e-2, np.float32: 1e-4, np.float64: 1e-5}[dtype])


def _list_resize(dtype, size):
    def fn(x, *run_size):
        lst = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=tf.constant([2, 3], tf.int32))
        new_size = run_size[0] if run_size else tf.constant(size, tf.int32)
        resized = tf.raw_ops.TensorListResize(input_handle=lst, size=new_size)
        return tf.raw_ops.TensorListStack(input_handle=resized, element_shape=tf.constant([2, 3], tf.int32),
                                          element_dtype=tf.as_dtype(dtype))
    inputs = [In((4, 2, 3), dtype)]
    if size == 'input':
        inputs.append(In((), np.int32, values=lambda rng, s: np.array(7)))
    return OpCase('', fn, inputs, rtol=0)


# labels of the batch's 3 sequences: lengths 2, 3 (a repeat: 1 1), 1
_CTC_INDICES = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]], np.int64)
_CTC_VALUES = np.array([1, 3, 2, 2, 0, 4], np.int32)


def _ctc_loss(dtype, collapse, merge):
    def fn(logits):
        return tf.raw_ops.CTCLoss(inputs=logits, labels_indices=tf.constant(_CTC_INDICES),
                                  labels_values=tf.constant(_CTC_VALUES), sequence_length=tf.constant([6, 8, 5]),
                                  preprocess_collapse_repeated=collapse, ctc_merge_repeated=merge)[0]
    return OpCase('', fn, [In((8, 3, 6), dtype)], rtol=1e-4)


_FLOATS = [np.float16, np.float32, np.float64]
register(
    grid('parity/Rint', _rint, dtype=[np.float32, np.float64])
    + grid('parity/MulNoNan', _mul_no_nan, dtype=_FLOATS, shapes=['same', 'broadcast'])
    + grid('parity/ApproximateEqual', _approximate_equal, dtype=[np.float32, np.float64], tolerance=[1e-5, 0.5])
    + grid('parity/Angle', _angle, dtype=[np.complex64, np.complex128])
    + grid('parity/SparseTensorDenseAdd', _sparse_add,
           dtype=_FLOATS + [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64],
           index_type=[tf.int32, tf.int64], rank=[2, 3])
    + grid('parity/SparseTensorDenseMatMul', _sparse_matmul, dtype=_FLOATS + [np.int32],
           index_type=[tf.int32, tf.int64], adjoint_a=[False, True], adjoint_b=[False, True])
    + grid('parity/TensorListResize', _list_resize, dtype=[np.float32, np.int32], size=[2, 4, 6, 0, 'input'])
    + grid('parity/CTCLoss', _ctc_loss, dtype=[np.float32, np.float64], collapse=[False, True],
           merge=[True, False])
    + grid('parity/MatrixInverse', _matrix_inverse, op=['MatrixInverse', 'BatchMatrixInverse'], dtype=_FLOATS,
           adjoint=[False, True], shape=[(1, 1), (3, 3), (2, 4, 4), (2, 3, 6, 6)])
)
