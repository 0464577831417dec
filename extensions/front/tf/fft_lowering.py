"""TensorFlow's Fourier transforms and complex-number ops as opset ops on complex tensors stored as float
[..., 2] (the ops ``fft_ext`` extracts).

RDFT/IRDFT of OpenVINO's CPU plugin neither zero-pads a signal shorter than the transform nor reads a spectrum
shorter than it needs, so the signal (the spectrum for the inverse) is first cropped and zero-padded to the
lengths TensorFlow uses, from fft_length at run time (constant-folded when the sizes are known). The opset's
transforms take no float64: complex128 (and float64) data is transformed in float32 and converted back.
"""
import numpy as np

from mo.front.common.formula_kit import F32, I64
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Equal, Mul, Sub
from mo.ops.fft import DFT, IDFT, IRDFT, RDFT
from mo.ops.gather import Gather
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.reduce import ReduceSum
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice


def fit_axis(b, x, axis: int, length, tag: str, dtype):
    """``x`` cropped or zero-padded to ``length`` (an int64 scalar tensor) along ``axis`` (negative)."""
    cropped = b.op(Slice, [x, b.const([0], tag + '/start', I64), b.unsqueeze(length, [0], tag + '/stop'),
                           b.const([1], tag + '/step', I64), b.const([axis], tag + '/axis', I64)], tag + '/cropped')
    shape = b.op(ShapeOf, [cropped], tag + '/shape')
    rank = b.op(ShapeOf, [shape], tag + '/rank')
    where = b.op(Add, [b.element(rank, 0, tag + '/rank_scalar'), b.const(axis, tag + '/axis_back', I64)],
                 tag + '/axis_index')
    dims = b.op(Range, [b.const(0, tag + '/first', I64), b.element(rank, 0, tag + '/dims_count'),
                        b.const(1, tag + '/one', I64)], tag + '/dims', output_type=I64)
    missing = b.op(Sub, [length, b.op(Gather, [shape, where, b.const(0, tag + '/shape_axis', I64)], tag + '/size')],
                   tag + '/missing')
    zero = b.const(0, tag + '/zero', I64)
    after = b.op(Select, [b.op(Equal, [dims, where], tag + '/is_axis'), missing, zero], tag + '/pads_end')
    before = b.op(Broadcast, [zero, rank], tag + '/pads_begin')
    return b.op(Pad, [cropped, before, after, b.const(0, tag + '/fill', dtype)], tag, pad_mode='constant')


def _single(b, node, x, tag: str):
    """``x`` in float32 for a transform (float64 data is converted)."""
    return x if np.dtype(node.data_type) == F32 else b.cast(x, F32, tag)


def _typed(b, node, y, tag: str):
    """A transform's float32 result in the node's type."""
    return y if np.dtype(node.data_type) == F32 else b.cast(y, node.data_type, tag)


def _lengths(b, node, count: int):
    """fft_length (input 1) as ``count`` int64 scalars."""
    lengths = b.cast(node.in_port(1), I64, 'fft_length')
    return [b.element(lengths, k, 'length{}'.format(k)) for k in range(count)]


class FFTLowering(OpRule):
    """FFT/IFFT, 2D, 3D(z) = DFT/IDFT(z, the last 1, 2 or 3 complex axes)."""
    op = 'FFT'
    rank, transform = 1, DFT

    def rewrite(self, node: Node, b: Builder):
        transformed = b.op(self.transform, [_single(b, node, node.in_port(0), 'single'),
                                            b.const(list(range(-self.rank, 0)), 'axes', I64)],
                           self.transform.op.lower())
        return _typed(b, node, transformed, 'typed')


class IFFTLowering(FFTLowering):
    op, rank, transform = 'IFFT', 1, IDFT


class FFT2DLowering(FFTLowering):
    op, rank, transform = 'FFT2D', 2, DFT


class IFFT2DLowering(FFTLowering):
    op, rank, transform = 'IFFT2D', 2, IDFT


class FFT3DLowering(FFTLowering):
    op, rank, transform = 'FFT3D', 3, DFT


class IFFT3DLowering(FFTLowering):
    op, rank, transform = 'IFFT3D', 3, IDFT


class RFFTLowering(OpRule):
    """RFFT, 2D, 3D(x, fft_length) = RDFT(x fitted to fft_length on its last 1, 2 or 3 axes)."""
    op = 'RFFT'
    rank = 1

    def rewrite(self, node: Node, b: Builder):
        signal = _single(b, node, node.in_port(0), 'single')
        for k, length in enumerate(_lengths(b, node, self.rank)):
            signal = fit_axis(b, signal, k - self.rank, length, 'fit{}'.format(k), F32)
        return _typed(b, node, b.op(RDFT, [signal, b.const(list(range(-self.rank, 0)), 'axes', I64)], 'rdft'),
                      'typed')


class RFFT2DLowering(RFFTLowering):
    op, rank = 'RFFT2D', 2


class RFFT3DLowering(RFFTLowering):
    op, rank = 'RFFT3D', 3


class IRFFTLowering(OpRule):
    """IRFFT, 2D, 3D(z, fft_length) = IRDFT(z fitted to fft_length (the last axis to fft_length / 2 + 1), axes,
    fft_length)."""
    op = 'IRFFT'
    rank = 1

    def rewrite(self, node: Node, b: Builder):
        spectrum = _single(b, node, node.in_port(0), 'single')
        lengths = _lengths(b, node, self.rank)
        for k, length in enumerate(lengths):
            if k == self.rank - 1:  # the half spectrum: fft_length / 2 + 1 points
                length = b.op(Add, [b.op(Div, [length, b.const(2, 'two', I64)], 'half'), b.const(1, 'one', I64)],
                              'half_spectrum')
            spectrum = fit_axis(b, spectrum, k - self.rank - 1, length, 'fit{}'.format(k), F32)
        return _typed(b, node, b.op(IRDFT, [spectrum, b.const(list(range(-self.rank, 0)), 'axes', I64),
                                            b.cast(node.in_port(1), I64, 'signal_size')], 'irdft'), 'typed')


class IRFFT2DLowering(IRFFTLowering):
    op, rank = 'IRFFT2D', 2


class IRFFT3DLowering(IRFFTLowering):
    op, rank = 'IRFFT3D', 3


class ComplexLowering(OpRule):
    """Complex(re, im) = Concat(re, im) on a new trailing axis, each broadcast to the other's shape first."""
    op = 'Complex'

    def rewrite(self, node: Node, b: Builder):
        real, imag = node.in_port(0), node.in_port(1)
        parts = []
        for part, other, name in ((real, imag, 'real'), (imag, real, 'imag')):
            wide = b.op(Broadcast, [part, b.op(ShapeOf, [other], name + '/other_shape')], name + '/broadcast',
                        mode='bidirectional')
            parts.append(b.unsqueeze(wide, [-1], name))
        return b.op(Concat, parts, 'complex', axis=-1)


class RealLowering(OpRule):
    """Real(z) = z[..., 0]."""
    op = 'Real'
    part = 0

    def rewrite(self, node: Node, b: Builder):
        return b.op(Gather, [node.in_port(0), b.const(self.part, 'part', I64), b.const(-1, 'axis', I64)], 'part')


class ImagLowering(RealLowering):
    """Imag(z) = z[..., 1]."""
    op = 'Imag'
    part = 1


class ComplexAbsLowering(OpRule):
    """ComplexAbs(z) = Sqrt(ReduceSum(z * z, -1))."""
    op = 'ComplexAbs'

    def rewrite(self, node: Node, b: Builder):
        z = node.in_port(0)
        squares = b.op(ReduceSum, [b.op(Mul, [z, z], 'squares'), b.const([-1], 'axis', I64)], 'norm2')
        return b.op(Sqrt, [squares], 'abs')
