"""Harness cases for complex tensors (float [..., 2] in the IR) through the ops that are linear in their complex
input or have a simple complex formula: Cumsum, Roll, BiasAdd (both layouts), Pad/PadV2 (a complex fill value)/
MirrorPad, Exp (and the DCT of tf.signal.mfccs_from_log_mel_spectrograms), Reciprocal, Conj, ConjugateTranspose,
MatMul, Slice, StridedSlice (ellipsis, new axes, shrinks), GatherV2, GatherNd, Squeeze, Pack, Unpack, Split, SplitV,
Tile, Fill, BroadcastTo, SelectV2, ZerosLike, OnesLike, ReverseV2, Sum, Mean; axes constant and negative, and
computed in the graph; complex64 and complex128."""
import numpy as np
import tensorflow as tf

from tests.ops.harness import In, OpCase, grid, register

_RNG = np.random.default_rng(26)
_SIGNAL = (2, 3, 8)  # rfft -> [2, 3, 5] complex


def _complex_const(*shape, dtype=np.complex64):
    return (_RNG.standard_normal(shape) + 1j * _RNG.standard_normal(shape)).astype(dtype)


_W5 = _complex_const(5)
_W5D = _complex_const(5, dtype=np.complex128)


def _spectrum(x):
    return tf.signal.rfft(x)


def _parts(z):
    return tf.math.real(z), tf.math.imag(z)


def _op(op):
    """One op on the complex spectrum z [2, 3, 5] of the input; outputs its real and imaginary parts."""
    def fn(x):
        z = _spectrum(x)
        w = tf.constant(_W5 if x.dtype == tf.float32 else _W5D)
        r = {
            'Cumsum': lambda: tf.cumsum(z, axis=1),
            'Cumsum_exclusive_reverse_last': lambda: tf.cumsum(z, axis=-1, exclusive=True, reverse=True),
            'Roll': lambda: tf.roll(z, shift=[2, -1], axis=[-1, 1]),
            'BiasAdd': lambda: tf.nn.bias_add(z, w),
            'BiasAdd_NCHW': lambda: tf.raw_ops.BiasAdd(value=tf.transpose(z, [0, 2, 1]), bias=w[:5],
                                                       data_format='NCHW'),
            'Pad': lambda: tf.pad(z, [[0, 1], [1, 0], [2, 1]]),
            'PadV2': lambda: tf.pad(z, [[1, 0], [0, 2], [1, 1]],
                                    constant_values=tf.complex(tf.constant(1.5, x.dtype), tf.constant(-2.0, x.dtype))),
            'MirrorPad': lambda: tf.pad(z, [[0, 0], [1, 1], [2, 0]], mode='REFLECT'),
            'Exp': lambda: tf.exp(z * 0.1),
            'Reciprocal': lambda: tf.math.reciprocal(z),
            'Conj': lambda: tf.math.conj(z) * w,
            'ConjugateTranspose': lambda: tf.linalg.adjoint(z),
            'MatMul': lambda: tf.matmul(z[0], z[1], transpose_b=True),
            'Slice': lambda: tf.slice(z, [1, 0, 2], [1, -1, 2]),
            'StridedSlice': lambda: z[:, 1:, ::2],
            'StridedSlice_ellipsis': lambda: z[..., 1:4][..., None, 0],
            'StridedSlice_shrink_new': lambda: z[0, tf.newaxis, -1],
            'GatherV2': lambda: tf.gather(z, [4, 0, 2], axis=-1),
            'GatherNd': lambda: tf.gather_nd(z, [[1, 2], [0, 0]]),
            'Squeeze': lambda: tf.squeeze(z[:, :1], axis=-2),
            'Pack': lambda: tf.stack([z, z * w], axis=-1),
            'Unpack': lambda: tf.unstack(z, axis=-2)[1],
            'Split': lambda: tf.split(z, 3, axis=-2)[2],
            'SplitV': lambda: tf.split(z, [2, 3], axis=-1)[1],
            'Tile': lambda: tf.tile(z, [2, 1, 3]),
            'Fill': lambda: tf.fill([2, 3], tf.complex(x[0, 0, 0], x[0, 0, 1])) + z[:, :, 0],
            'BroadcastTo': lambda: tf.broadcast_to(w, [3, 5]) + z[0],
            'SelectV2': lambda: tf.where(tf.math.real(z) > 0, z, z * w),
            'ZerosLike': lambda: tf.zeros_like(z) + z * w,
            'OnesLike': lambda: tf.ones_like(z) * w + z,
            'ReverseV2': lambda: tf.reverse(z, axis=[-1, 0]),
            'Sum': lambda: tf.reduce_sum(z, axis=[0, -1]),
            'Mean': lambda: tf.reduce_mean(z, axis=-1, keepdims=True),
            'Neg_Sub_AddN': lambda: tf.math.add_n([-z, z - w, z]),
        }[op]()
        return _parts(r)
    return fn


_OPS = ['Cumsum', 'Cumsum_exclusive_reverse_last', 'Roll', 'BiasAdd', 'BiasAdd_NCHW', 'Pad', 'PadV2', 'MirrorPad',
        'Exp', 'Reciprocal', 'Conj', 'ConjugateTranspose', 'MatMul', 'Slice', 'StridedSlice', 'StridedSlice_ellipsis',
        'StridedSlice_shrink_new', 'GatherV2', 'GatherNd', 'Squeeze', 'Pack', 'Unpack', 'Split', 'SplitV', 'Tile',
        'Fill', 'BroadcastTo', 'SelectV2', 'ZerosLike', 'OnesLike', 'ReverseV2', 'Sum', 'Mean', 'Neg_Sub_AddN']
#: ops whose complex128 kernel is also checked (the parts are float64 in the IR)
_DOUBLE = ['Cumsum', 'Roll', 'BiasAdd', 'PadV2', 'Exp', 'Conj', 'MatMul', 'Reciprocal', 'OnesLike']


def _case(op, dtype):
    # complex128: OpenVINO's DFT computes f64 signals in lower precision
    return OpCase('', _op(op), [In(_SIGNAL, dtype=dtype)], rtol=1e-4 if dtype == np.float32 else 1e-6)


def _axes_in_graph(op):
    """The axis computed in the graph (a negative value at run time)."""
    def fn(x):
        z = _spectrum(x)
        axis = tf.shape(x)[0] - 3  # -1
        r = {'Cumsum': lambda: tf.cumsum(z, axis=axis), 'Roll': lambda: tf.roll(z, shift=2, axis=axis),
             'GatherV2': lambda: tf.gather(z, [1, 3], axis=axis),
             'Sum': lambda: tf.reduce_sum(z, axis=tf.reshape(axis, [1])),
             'ReverseV2': lambda: tf.reverse(z, axis=tf.reshape(axis, [1]))}[op]()
        return _parts(r)
    return OpCase('', fn, [In(_SIGNAL)])


def _mfcc(bins):
    """tf.signal.mfccs_from_log_mel_spectrograms: its DCT-II multiplies by exp(-i pi k / 2N) on an RFFT."""
    return OpCase('', lambda x: tf.signal.mfccs_from_log_mel_spectrograms(x), [In((2, 7, bins))], rtol=2e-4)


def _dct(kind):
    return OpCase('', lambda x: tf.signal.dct(x, type=kind, norm='ortho' if kind == 2 else None), [In((3, 10))],
                  rtol=2e-4)


register(grid('complex_ops/op', _case, op=_OPS, dtype=[np.float32])
         + grid('complex_ops/op', _case, op=_DOUBLE, dtype=[np.float64])
         + grid('complex_ops/axis_in_graph', _axes_in_graph, op=['Cumsum', 'Roll', 'GatherV2', 'Sum', 'ReverseV2'])
         + grid('complex_ops/mfccs_from_log_mel_spectrograms', _mfcc, bins=[8, 13])
         + grid('complex_ops/dct', _dct, kind=[2, 3]))
