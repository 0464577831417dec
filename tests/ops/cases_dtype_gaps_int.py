"""Harness cases for the real (integer, unsigned, float16/float64, bool) dtype gaps that
``tools/audit_tf_coverage.py`` still listed after ``cases_dtype_grid.py``/``cases_dtype_index.py`` (issue 26
point 7): one op per case, each dtype TF registers a CPU kernel for and its op def allows.

Narrow integer products (Mul, Prod, Cumprod, Square, Pow, segment products, EuclideanNorm, Mean) take small
values so that TF and OpenVINO agree without overflow. ``XFAIL`` lists what fails, and why.
"""
import numpy as np
import tensorflow as tf

from tests.ops.dtype_kit import op_def_allows
from tests.ops.harness import In, OpCase, grid, register

F16, F64 = np.float16, np.float64
INTS = [np.int8, np.int16, np.int32, np.int64]
UINTS = [np.uint8, np.uint16, np.uint32, np.uint64]


def _rtol(dtype):
    return 1e-2 if np.dtype(dtype) == np.float16 else 1e-4


def _small(dtype):
    """Values whose products stay in range of an 8-bit type: 0..2 (unsigned) or -2..2."""
    low = 0 if np.dtype(dtype).kind == 'u' else -2
    return lambda rng, s: rng.integers(low, 3, s)


def _const(shape, dtype, seed=1, low=-3, high=4):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == 'f':
        return tf.constant(rng.standard_normal(shape).astype(dtype))
    return tf.constant(rng.integers(low, high, shape).astype(dtype))


# ----- element-wise and reductions of 8-bit (and other narrow) integers ---------------------------------------

_NARROW = {
    'Mul': lambda x: tf.raw_ops.Mul(x=x, y=x[::-1]),
    'Square': lambda x: tf.raw_ops.Square(x=x),
    'Prod': lambda x: tf.raw_ops.Prod(input=x, axis=[1]),
    'Cumprod': lambda x: tf.raw_ops.Cumprod(x=x, axis=1),
    'Mean': lambda x: tf.raw_ops.Mean(input=x, axis=[0]),
    'EuclideanNorm': lambda x: tf.raw_ops.EuclideanNorm(input=x, axis=[1]),
    'SegmentProd': lambda x: tf.raw_ops.SegmentProd(data=x, segment_ids=[0, 1, 1, 2]),
    'UnsortedSegmentProd': lambda x: tf.raw_ops.UnsortedSegmentProd(data=x, segment_ids=[1, 0, 1, 1], num_segments=2),
    'Pow': lambda x: tf.raw_ops.Pow(x=x, y=tf.raw_ops.Abs(x=x[::-1])),
    'Acos': lambda x: tf.raw_ops.Acos(x=x),
}
#: op -> the dtypes of its gap
_NARROW_TYPES = {
    'Mul': [np.int8, np.uint8], 'Square': [np.uint8], 'Prod': [np.int8, np.uint8], 'Cumprod': [np.int8, np.uint8],
    'Mean': [np.int8, np.uint8], 'EuclideanNorm': [np.int8, np.uint8], 'SegmentProd': [np.int8, np.uint8],
    'UnsortedSegmentProd': [np.int8, np.uint8], 'Pow': [np.int8, np.int16], 'Acos': INTS,
}


def _narrow(op, dtype):
    if dtype not in _NARROW_TYPES[op] or not op_def_allows(op, 'T', dtype):
        return None
    values = (lambda rng, s: rng.integers(-1, 2, s)) if op == 'Acos' else _small(dtype)
    return OpCase('', _NARROW[op], [In((4, 3), dtype, values=values)])


def _truncate_div_f16():
    return OpCase('', lambda x, y: tf.raw_ops.TruncateDiv(x=x, y=y),
                  [In((2, 5), F16, values=lambda rng, s: rng.uniform(-9, 9, s)),
                   In((2, 5), F16, values=lambda rng, s: rng.uniform(0.5, 3, s) * rng.choice([-1, 1], s))],
                  rtol=1e-2)


# ----- matmul in int16, transposes of every real type -----------------------------------------------------------

def _matmul_int16(op):
    if not op_def_allows(op, 'Ta' if op == 'BatchMatMulV3' else 'T', np.int16):
        return None
    if op == 'MatMul':
        fn = lambda x, y: tf.raw_ops.MatMul(a=x, b=y, transpose_b=True)  # noqa: E731
        shapes = ((3, 4), (5, 4))
    elif op == 'BatchMatMulV3':
        fn = lambda x, y: tf.raw_ops.BatchMatMulV3(x=x, y=y, Tout=tf.int16)  # noqa: E731
        shapes = ((2, 3, 4), (2, 4, 5))
    else:
        fn = lambda x, y: getattr(tf.raw_ops, op)(x=x, y=y)  # noqa: E731
        shapes = ((2, 3, 4), (2, 4, 5))
    return OpCase('', fn, [In(shapes[0], np.int16, low=-3, high=4), In(shapes[1], np.int16, low=-3, high=4)])


def _conjugate_transpose(dtype):
    return OpCase('', lambda x: tf.raw_ops.ConjugateTranspose(x=x, perm=[2, 0, 1]), [In((2, 3, 4), dtype)])


def _conv_backprop_int32():
    w = _const((3, 3, 2, 4), np.int32)
    return OpCase('', lambda x: tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 6, 6, 2], filter=w, out_backprop=x,
                                                                strides=[1, 1, 1, 1], padding='SAME'),
                  [In((1, 6, 6, 4), np.int32, low=-3, high=4)])


# ----- index types: int16 indices (SplitV with int8 size_splits aborts TensorFlow's shape function) ----------

def _index16(op):
    if not op_def_allows(op, 'Tindices', np.int16):
        return None
    i16 = tf.int16
    fns = {
        'Gather': lambda x: tf.raw_ops.Gather(params=x, indices=tf.constant([3, 0, 2], i16)),
        'GatherV2': lambda x: tf.raw_ops.GatherV2(params=x, indices=tf.constant([[1, 0], [3, 3]], i16), axis=0),
        'GatherNd': lambda x: tf.raw_ops.GatherNd(params=x, indices=tf.constant([[1, 2], [3, 0]], i16)),
        'UnsortedSegmentSum': lambda x: tf.raw_ops.UnsortedSegmentSum(
            data=x, segment_ids=tf.constant([1, 0, 1, 2], i16), num_segments=3),
        'UnsortedSegmentMax': lambda x: tf.raw_ops.UnsortedSegmentMax(
            data=x, segment_ids=tf.constant([1, 0, 1, 1], i16), num_segments=2),
        'UnsortedSegmentMin': lambda x: tf.raw_ops.UnsortedSegmentMin(
            data=x, segment_ids=tf.constant([0, 0, 1, 1], i16), num_segments=2),
        'UnsortedSegmentProd': lambda x: tf.raw_ops.UnsortedSegmentProd(
            data=x, segment_ids=tf.constant([1, 0, 1, 0], i16), num_segments=2),
    }
    return OpCase('', fns[op], [In((4, 5))])


# ----- pooling and resizes of uint32/uint64 ---------------------------------------------------------------------

def _image_u(op, dtype):
    if not op_def_allows(op, 'T', dtype):
        return None
    fns = {
        'MaxPool': lambda x: tf.raw_ops.MaxPool(input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME'),
        'MaxPoolV2': lambda x: tf.raw_ops.MaxPoolV2(input=x, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                                    padding='VALID'),
        'ResizeArea': lambda x: tf.raw_ops.ResizeArea(images=x, size=[3, 4]),
        'ResizeBicubic': lambda x: tf.raw_ops.ResizeBicubic(images=x, size=[9, 6], half_pixel_centers=True),
        'ResizeBilinear': lambda x: tf.raw_ops.ResizeBilinear(images=x, size=[9, 6], half_pixel_centers=True),
        'ResizeNearestNeighbor': lambda x: tf.raw_ops.ResizeNearestNeighbor(images=x, size=[9, 6]),
        'ScaleAndTranslate': lambda x: tf.raw_ops.ScaleAndTranslate(images=x, size=[4, 3], scale=[0.5, 0.45],
                                                                    translation=[0.0, 0.2]),
    }
    return OpCase('', fns[op], [In((1, 7, 5, 2), dtype, low=0, high=200)], rtol=1e-5)


def _crop_and_resize(dtype):
    if not op_def_allows('CropAndResize', 'T', dtype):
        return None
    boxes = tf.constant([[0.1, 0.2, 0.7, 0.9], [-0.2, 0.0, 0.5, 1.2], [0.6, 0.5, 0.1, 0.1]], tf.float32)
    low = 0 if np.dtype(dtype).kind == 'u' else -50
    values = None if np.dtype(dtype).kind == 'f' else (lambda rng, s: rng.integers(low, 100, s))
    return OpCase('', lambda x: tf.raw_ops.CropAndResize(image=x, boxes=boxes, box_ind=[0, 1, 1], crop_size=[4, 3]),
                  [In((2, 7, 6, 3), dtype, values=values)], rtol=1e-2 if dtype == F16 else 1e-5)


# ----- tensor scatters, bincount weights, random, f16/f64 odds ------------------------------------------------

def _tensor_scatter(op, dtype):
    if op in ('TensorScatterMax', 'TensorScatterMin') and np.dtype(dtype).kind == 'c':
        return None
    fn = getattr(tf.raw_ops, op)
    indices = tf.constant([[1], [3], [1]], tf.int32)
    low = 0 if np.dtype(dtype).kind == 'u' else -4
    return OpCase('', lambda x, u: fn(tensor=x, indices=indices, updates=u),
                  [In((4, 3), dtype, low=low, high=5), In((3, 3), dtype, low=0, high=3)], rtol=_rtol(dtype))


def _bincount(op, dtype):
    if not op_def_allows(op, 'T', dtype):
        return None
    arr = In((4, 6), np.int32, low=0, high=9)
    w = In((4, 6), dtype, low=0 if np.dtype(dtype).kind == 'u' else -3, high=9)
    if op == 'Bincount':
        return OpCase('', lambda a, b: tf.raw_ops.Bincount(arr=a, size=7, weights=b), [arr, w], rtol=_rtol(dtype))
    return OpCase('', lambda a, b: tf.raw_ops.DenseBincount(input=a, size=7, weights=b), [arr, w], rtol=_rtol(dtype))


def _random(op, dtype):
    if op == 'RandomUniform':
        fn = lambda s: tf.raw_ops.RandomUniform(shape=s, dtype=tf.as_dtype(dtype), seed=7, seed2=11)  # noqa: E731
    else:
        fn = lambda s: tf.raw_ops.RandomUniformInt(shape=s, minval=np.int64(-4), maxval=np.int64(9),  # noqa: E731
                                                   seed=7, seed2=11)
    return OpCase('', fn, [In((3,), np.int32, values=lambda rng, s: np.array([2, 3, 50]))], rtol=_rtol(dtype))


def _ctc_f64():
    return OpCase('', lambda x, n: tuple(tf.raw_ops.CTCGreedyDecoder(inputs=x, sequence_length=n,
                                                                     merge_repeated=True)),
                  [In((6, 2, 4), F64), In((2,), np.int32, values=lambda rng, s: np.array([6, 4]))])


_OV_CPU_RANDOM = ('OpenVINO CPU runs a {} RandomUniform as {}: its values are the Philox stream of the {} kernel '
                  '(equal to TF\'s {} values for the same seeds), not TF\'s {} ones; the IR\'s output_type is {}')
def _lstm_f16(op):
    """LSTMBlockCell, BlockLSTM, BlockLSTMV2 in float16 (weights, state and input)."""
    size, hidden = 3, 4
    weights = dict(w=_const((size + hidden, 4 * hidden), F16, 2) * 0.5, wci=_const((hidden,), F16, 3),
                   wcf=_const((hidden,), F16, 4), wco=_const((hidden,), F16, 5), b=_const((4 * hidden,), F16, 6))
    attrs = dict(cell_clip=3.0, use_peephole=True)
    if op == 'LSTMBlockCell':
        return OpCase('', lambda x, s: tuple(_R_LSTM[op](x=x, cs_prev=s * 2, h_prev=s, forget_bias=1.0, **weights,
                                                         **attrs)),
                      [In((2, size), F16), In((2, hidden), F16)], rtol=2e-2)
    if op == 'BlockLSTM':
        attrs['forget_bias'] = 1.0
    return OpCase('', lambda x, s: tuple(_R_LSTM[op](seq_len_max=np.int64(5), x=x, cs_prev=s * 2, h_prev=s, **weights,
                                                     **attrs)),
                  [In((5, 2, size), F16), In((2, hidden), F16)], rtol=2e-2)


_R_LSTM = {'LSTMBlockCell': tf.raw_ops.LSTMBlockCell, 'BlockLSTM': tf.raw_ops.BlockLSTM,
           'BlockLSTMV2': tf.raw_ops.BlockLSTMV2}


XFAIL = {
    'dtype_gaps/random[op=RandomUniform,dtype=float16]': _OV_CPU_RANDOM.format('f16', 'f32', 'f32', 'float32',
                                                                               'float16', 'f16'),
    'dtype_gaps/random[op=RandomUniform,dtype=float64]': _OV_CPU_RANDOM.format('f64', 'f32', 'f32', 'float32',
                                                                               'float64', 'f64'),
    'dtype_gaps/random[op=RandomUniformInt,dtype=int64]': _OV_CPU_RANDOM.format('i64', 'i32', 'i32', 'int32',
                                                                                'int64', 'i64'),
}

_CASES = (
    grid('dtype_gaps/narrow', _narrow, op=sorted(_NARROW), dtype=INTS + UINTS)
    + [OpCase('dtype_gaps/TruncateDiv_float16', _truncate_div_f16().fn, _truncate_div_f16().inputs, rtol=1e-2)]
    + grid('dtype_gaps/matmul_int16', _matmul_int16, op=['MatMul', 'BatchMatMul', 'BatchMatMulV2', 'BatchMatMulV3'])
    + grid('dtype_gaps/ConjugateTranspose', _conjugate_transpose, dtype=[np.bool_, F16, F64] + INTS + UINTS)
    + [OpCase('dtype_gaps/Conv2DBackpropInput_int32', _conv_backprop_int32().fn, _conv_backprop_int32().inputs)]
    + grid('dtype_gaps/index16', _index16, op=['Gather', 'GatherV2', 'GatherNd', 'UnsortedSegmentSum',
                                               'UnsortedSegmentMax', 'UnsortedSegmentMin', 'UnsortedSegmentProd'])
    + grid('dtype_gaps/image', _image_u, op=['MaxPool', 'MaxPoolV2', 'ResizeArea', 'ResizeBicubic', 'ResizeBilinear',
                                             'ResizeNearestNeighbor', 'ScaleAndTranslate'],
           dtype=[np.uint32, np.uint64])
    + grid('dtype_gaps/CropAndResize', _crop_and_resize, dtype=[F16, F64] + INTS + [np.uint16, np.uint32, np.uint64])
    + grid('dtype_gaps/tensor_scatter', _tensor_scatter,
           op=['TensorScatterAdd', 'TensorScatterSub', 'TensorScatterMax', 'TensorScatterMin'],
           dtype=[F16, F64, np.int8, np.int16, np.int64] + UINTS)
    + grid('dtype_gaps/bincount', _bincount, op=['Bincount', 'DenseBincount'],
           dtype=[F16, np.int8, np.int16] + UINTS)
    + grid('dtype_gaps/random', _random, op=['RandomUniform'], dtype=[F16, F64])
    + grid('dtype_gaps/random', _random, op=['RandomUniformInt'], dtype=[np.int64])
    + [OpCase('dtype_gaps/CTCGreedyDecoder_float64', _ctc_f64().fn, _ctc_f64().inputs)]
    + grid('dtype_gaps/lstm_float16', _lstm_f16, op=['LSTMBlockCell', 'BlockLSTM', 'BlockLSTMV2'])
)
for _case in _CASES:
    _case.xfail = XFAIL.get(_case.name, _case.xfail)
assert set(XFAIL) <= {c.name for c in _CASES}, sorted(set(XFAIL) - {c.name for c in _CASES})
register(_CASES)
