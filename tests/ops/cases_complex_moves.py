"""Harness cases for the complex forms of ``extensions/front/tf/complex_moves.py`` beyond ``cases_dtype_complex``'s
one case per op: the attribute variants that change what the float form does (batches and padding of the NHWC
moves, OneHot's axis and negative indices, negative or non-leading axes, duplicate scatter indices, Select's
vector and scalar conditions, diagonal ranges and alignments, unbounded bands, scalar sparse values, negative
segment ids, the other tensor list and TensorArray ops), and Where's edge: elements whose real part is 0 but not
their imaginary part. Each op runs on z = Complex(x, y) and the result is compared part by part with TensorFlow.
"""
import numpy as np
import tensorflow as tf

from tests.ops.dtype_kit import complex_parts, second_operand
from tests.ops.harness import In, OpCase, grid, register

_R = tf.raw_ops


def _lists(z):
    """PushBack, SetItem (growing), Resize, Length and Stack on a list of complex elements, from an empty list."""
    t = z.dtype
    x = tf.reshape(z, [6, 4])
    empty = _R.EmptyTensorList(element_shape=[4], max_num_elements=-1, element_dtype=t)
    pushed = _R.TensorListPushBack(input_handle=empty, tensor=x[0])
    pushed = _R.TensorListPushBack(input_handle=pushed, tensor=x[1])
    written = _R.TensorListSetItem(input_handle=pushed, index=0, item=x[2])
    resized = _R.TensorListResize(input_handle=written, size=3)
    length = _R.TensorListLength(input_handle=resized)
    stacked = _R.TensorListStack(input_handle=resized, element_shape=[4], element_dtype=t)
    concat, lengths = _R.TensorListConcatV2(input_handle=_R.TensorListFromTensor(tensor=tf.reshape(x, [3, 2, 4]),
                                                                                 element_shape=[2, 4]),
                                            element_shape=[-1, 4], element_dtype=t,
                                            leading_dims=tf.constant([], tf.int64))
    return stacked, length, concat, lengths


def _arrays(z):
    """A TensorArray of complex elements written one by one, its size and its concatenation with the lengths."""
    t = z.dtype
    x = tf.reshape(z, [6, 4])
    ta, flow = _R.TensorArrayV3(size=2, dtype=t, element_shape=[4], clear_after_read=False, dynamic_size=True)
    flow = _R.TensorArrayWriteV3(handle=ta, index=0, value=x[3], flow_in=flow)
    flow = _R.TensorArrayWriteV3(handle=ta, index=2, value=x[1], flow_in=flow)
    size = _R.TensorArraySizeV3(handle=ta, flow_in=flow)
    concat, lengths = _R.TensorArrayConcatV3(handle=ta, flow_in=flow, dtype=t, element_shape_except0=[])
    return concat, size, lengths


#: variant -> (z's shape, fn(z))
_VARIANTS = {
    'DepthToSpace_batch': ((2, 2, 3, 8), lambda z: _R.DepthToSpace(input=z, block_size=2)),
    'SpaceToDepth_batch': ((2, 4, 6, 3), lambda z: _R.SpaceToDepth(input=z, block_size=2)),
    'ExtractImagePatches_same_rates': ((2, 5, 6, 3), lambda z: _R.ExtractImagePatches(
        images=z, ksizes=[1, 2, 3, 1], strides=[1, 2, 1, 1], rates=[1, 2, 1, 1], padding='SAME')),
    'OneHot_axis0': ((2, 3, 4), lambda z: _R.OneHot(indices=[[0, 3], [-1, 1]], depth=4, on_value=z[1, 2, 3],
                                                    off_value=z[0, 1, 2], axis=0)),
    'ReverseSequence_batch_last': ((2, 3, 4), lambda z: _R.ReverseSequence(input=z, seq_lengths=[1, 3, 0, 2],
                                                                           seq_dim=1, batch_dim=2)),
    'ScatterNd_duplicates': ((2, 3, 4), lambda z: _R.ScatterNd(indices=[[1, 0], [0, 2], [1, 0]], updates=z[0, :, :],
                                                               shape=[2, 3, 4])),
    'Select_rows': ((2, 3, 4), lambda z: _R.Select(condition=[False, True], x=z, y=second_operand(z))),
    'Select_scalar': ((2, 3, 4), lambda z: _R.Select(condition=tf.math.real(z)[0, 0, 0] > 0, x=z, y=second_operand(z))),
    'MatrixBandPart_lower_all': ((2, 3, 4), lambda z: _R.MatrixBandPart(input=z, num_lower=-1, num_upper=1)),
    'MatrixBandPart_upper_all': ((2, 3, 4), lambda z: _R.MatrixBandPart(input=z, num_lower=0, num_upper=-1)),
    'MatrixDiagV3_range': ((2, 3, 4), lambda z: _R.MatrixDiagV3(diagonal=z, k=[-1, 1], num_rows=5, num_cols=-1,
                                                                padding_value=z[1, 0, 2], align='LEFT_RIGHT')),
    'MatrixDiagPartV3_range': ((2, 3, 4), lambda z: _R.MatrixDiagPartV3(input=z, k=[0, 2], padding_value=z[0, 2, 1],
                                                                        align='LEFT_LEFT')),
    'MatrixSetDiagV3_range': ((2, 3, 4), lambda z: _R.MatrixSetDiagV3(input=z, diagonal=second_operand(z)[:, :2, :3], k=[-1, 0],
                                                                      align='RIGHT_RIGHT')),
    'SparseToDense_scalar_value': ((2, 3, 4), lambda z: _R.SparseToDense(
        sparse_indices=[[0, 1], [1, 3], [2, 0]], output_shape=[3, 4], sparse_values=z[1, 1, 1],
        default_value=z[0, 2, 3])),
    'UnsortedSegmentSum_negative_ids': ((2, 3, 4), lambda z: _R.UnsortedSegmentSum(
        data=z, segment_ids=[[2, -1, 0], [0, 2, -1]], num_segments=4)),
    'DynamicStitch_matrix_indices': ((2, 3, 4), lambda z: _R.DynamicStitch(indices=[[[0, 4], [2, 1]], [3]],
                                                                           data=[z[:, :2], z[1, 2:]])),
    'TensorListOps': ((2, 3, 4), _lists),
    'TensorArrayOps': ((2, 3, 4), _arrays),
}

#: the edge of Where: zeros, real parts of 0 with imaginary parts that are not, and the reverse
_WHERE_RE = [[0.0, 0.0, 1.5, 0.0], [0.0, -2.0, 0.0, 0.0], [3.0, 0.0, 0.0, -0.5]]
_WHERE_IM = [[0.0, 1.0, 0.0, -0.0], [2.5, 0.0, 0.0, -1.0], [0.0, 0.0, 0.0, 0.0]]


def _case(variant, dtype):
    shape, fn = _VARIANTS[variant]
    return OpCase('', lambda x, y: complex_parts(fn(tf.complex(x, y))), [In(shape, dtype), In(shape, dtype)],
                  rtol=1e-4 if dtype == np.float32 else 1e-6)


def _where(dtype):
    return OpCase('', lambda x, y: _R.Where(condition=tf.complex(x, y)),
                  [In((3, 4), dtype, values=lambda rng, s: np.array(_WHERE_RE)),
                   In((3, 4), dtype, values=lambda rng, s: np.array(_WHERE_IM))])


register(grid('complex_moves/op', _case, variant=sorted(_VARIANTS), dtype=[np.float32, np.float64])
         + grid('complex_moves/where_edges', _where, dtype=[np.float32, np.float64]))
