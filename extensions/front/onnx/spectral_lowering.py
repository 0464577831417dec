"""ONNX signal-processing ops built from opset ops (the internal ``ONNX*`` ops ``spectral_ext`` leaves).

Complex tensors are float tensors with a trailing dimension of 2 in ONNX as in the opset; ONNX's real signals
carry a trailing dimension of 1. Windows and MelWeightMatrix of constant inputs fold to constants (numpy, in
float64, then the requested type); a window of run-time size is a Range-based formula.
"""
import numpy as np

from extensions.front.onnx.math_lowering import dimension, like, static_shape
from extensions.ops.onnx_tensor import ConvertLike
from extensions.front.tf.formula_kit import F32, I64, cast, unsqueeze
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.elementwise import Add, Div, Equal, Mul, Sub
from mo.ops.fft import DFT, IDFT, IRDFT
from mo.ops.gather import Gather
from mo.ops.math_ops import Cos
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.utils.error import Error

# the cosine-sum coefficients a0, a1, a2 of each window: w[n] = a0 - a1 cos(2 pi n / D) + a2 cos(4 pi n / D)
_WINDOWS = {'HannWindow': (0.5, 0.5, 0.0),
            'HammingWindow': (25.0 / 46.0, 21.0 / 46.0, 0.0),
            'BlackmanWindow': (0.42, 0.5, 0.08)}


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _constant(node: Node, port: int):
    """The value of input ``port`` when a Const feeds it, else None."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    return source.value if source.soft_get('op') == 'Const' and source.has_valid('value') else None


class ONNXWindowLowering(OpRule):
    """Hann/Hamming/BlackmanWindow(size) = a0 - a1 cos(2 pi n / D) + a2 cos(4 pi n / D), n = 0 .. size - 1,
    D = size (periodic) or size - 1 (symmetric)."""
    op = 'ONNXWindow'

    def rewrite(self, node: Node, b: Builder):
        a0, a1, a2 = _WINDOWS[node.window]
        size = _constant(node, 0)
        if size is not None:
            size = int(np.ravel(size)[0])
            if size < 0:
                raise Error('{} "{}": size {} is negative', node.window, _name(node), size)
            n = np.arange(size, dtype=np.float64)
            period = size if node.periodic else size - 1
            # a symmetric window of one point divides by zero: ONNX's reference then gives NaN, as this does
            with np.errstate(divide='ignore', invalid='ignore'):
                value = a0 - a1 * np.cos(2 * np.pi * n / period) + a2 * np.cos(4 * np.pi * n / period)
            return b.const(value.astype(node.out_type), 'window', node.out_type)
        count = cast(b, node.in_port(0), F32, 'count')
        n = b.op(Range, [b.const(0, 'start', F32), count, b.const(1, 'step', F32)], 'n', output_type=F32)
        period = count if node.periodic else b.op(Sub, [count, b.const(1, 'one', F32)], 'period')
        phase = b.op(Div, [b.op(Mul, [n, b.const(2 * np.pi, 'two_pi', F32)], 'angle'), period], 'phase')
        value = b.op(Sub, [b.const(a0, 'a0', F32), b.op(Mul, [b.const(a1, 'a1', F32), b.op(Cos, [phase], 'cos1')],
                                                           'term1')], 'sum1')
        if a2:
            double = b.op(Mul, [phase, b.const(2, 'two', F32)], 'phase2')
            value = b.op(Add, [value, b.op(Mul, [b.const(a2, 'a2', F32), b.op(Cos, [double], 'cos2')], 'term2')],
                         'sum2')
        return cast(b, value, node.out_type, 'window')


def mel_weight_matrix(num_mel_bins: int, dft_length: int, sample_rate, lower_hz, upper_hz) -> np.ndarray:
    """ONNX's MelWeightMatrix [dft_length // 2 + 1, num_mel_bins] in float64: triangles of peak 1 between
    num_mel_bins + 2 points equally spaced in mel(f) = 2595 log10(1 + f / 700) over [lower_hz, upper_hz] (the
    step is the range / (num_mel_bins + 2), as ONNX's reference computes it), each point taken to the spectrogram
    bin floor((dft_length + 1) f / sample_rate)."""
    def mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)
    low, high = mel(float(lower_hz)), mel(float(upper_hz))
    points = low + np.arange(num_mel_bins + 2) * (high - low) / (num_mel_bins + 2)
    hertz = 700.0 * (np.power(10.0, points / 2595.0) - 1.0)
    bins = np.floor((dft_length + 1) * hertz / sample_rate).astype(np.int64)
    out = np.zeros((dft_length // 2 + 1, num_mel_bins))
    for i in range(num_mel_bins):
        left, center, right = bins[i], bins[i + 1], bins[i + 2]
        if center == left:
            out[center, i] = 1.0
        else:
            for j in range(left, center + 1):
                out[j, i] = (j - left) / (center - left)
        for j in range(center, right):  # the falling edge (overwrites the peak with 1 where it starts)
            out[j, i] = (right - j) / (right - center)
    return out


class ONNXMelWeightMatrixLowering(OpRule):
    """MelWeightMatrix(num_mel_bins, dft_length, sample_rate, lower_edge_hertz, upper_edge_hertz) = the constant
    ``mel_weight_matrix`` computes (every input must be constant)."""
    op = 'ONNXMelWeightMatrix'

    def rewrite(self, node: Node, b: Builder):
        values = [_constant(node, k) for k in range(5)]
        if any(v is None for v in values):
            raise Error('MelWeightMatrix "{}": mo converts it only with constant inputs', _name(node))
        bins, length, rate, low, high = [np.ravel(v)[0] for v in values]
        if int(bins) <= 0 or int(length) <= 0 or float(rate) <= 0:
            raise Error('MelWeightMatrix "{}": num_mel_bins, dft_length and sample_rate must be positive',
                        _name(node))
        value = mel_weight_matrix(int(bins), int(length), rate, low, high)
        return b.const(value.astype(node.out_type), 'matrix', node.out_type)


def _fit(b: Builder, x, axis: int, length, tag: str):
    """``x`` cropped or zero-padded to ``length`` (an int64 scalar) along ``axis`` (either sign)."""
    cropped = b.op(Slice, [x, b.const([0], tag + '/start', I64), unsqueeze(b, length, [0], tag + '/stop'),
                           b.const([1], tag + '/step', I64), b.const([axis], tag + '/axis', I64)], tag + '/cropped')
    shape = b.op(ShapeOf, [cropped], tag + '/shape', output_type=I64)
    rank = dimension(b, shape, 0, tag + '/rank')
    where = b.const(axis, tag + '/where', I64) if axis >= 0 else \
        b.op(Add, [rank, b.const(axis, tag + '/back', I64)], tag + '/where')
    dims = b.op(Range, [b.const(0, tag + '/first', I64), rank, b.const(1, tag + '/one', I64)], tag + '/dims',
                output_type=I64)
    size = b.op(Gather, [shape, where, b.const(0, tag + '/gather_axis', I64)], tag + '/size')
    missing = b.op(Sub, [length, size], tag + '/missing')
    zero = b.const(0, tag + '/zero', I64)
    after = b.op(Select, [b.op(Equal, [dims, where], tag + '/is_axis'), missing, zero], tag + '/pads_end')
    before = b.op(Broadcast, [zero, unsqueeze(b, rank, [0], tag + '/rank_vector')], tag + '/pads_begin')
    return b.op(Pad, [cropped, before, after, like(b, 0, x, tag + '/fill')], tag, pad_mode='constant')


class ONNXDFTLowering(OpRule):
    """DFT(x, dft_length, axis): x made complex (a real [..., 1] gets a zero imaginary part), fitted to dft_length
    along axis, then DFT/IDFT along it; onesided keeps the first n // 2 + 1 points of a forward transform, and
    an inverse onesided one is IRDFT(spectrum fitted to n // 2 + 1 points, n) with a trailing 1."""
    op = 'ONNXDFT'

    def _axis(self, node: Node) -> int:
        if node.axis is not None:
            return int(node.axis)
        if not node.is_in_port_connected(2):
            return -2
        value = _constant(node, 2)
        if value is None:
            raise Error('DFT "{}": mo converts it only with a constant axis', _name(node))
        return int(np.ravel(value)[0])

    def rewrite(self, node: Node, b: Builder):
        axis = self._axis(node)
        if axis == -1:
            raise Error('DFT "{}": axis -1 is the complex dimension, not a signal axis', _name(node))
        # the opset counts the axes of the complex tensor without its trailing 2; ONNX's -2 is its -1
        transform_axis = b.const([axis + 1 if axis < 0 else axis], 'axes', I64)
        x = node.in_port(0)
        # complex = x[..., [0, last]] * [1, last], last = parts - 1: [re, im] for complex input, [re, 0] for real
        last = b.op(Sub, [dimension(b, x, -1, 'parts'), b.const(1, 'one', I64)], 'last')
        indices = b.op(Mul, [b.const([0, 1], 'which', I64), last], 'indices')
        pair = b.op(Gather, [x, indices, b.const(-1, 'part_axis', I64)], 'pair')
        factor = b.op(Add, [b.const([1, 0], 'real_factor', I64), indices], 'factor')
        signal = b.op(Mul, [pair, b.op(ConvertLike, [factor, x], 'factor_typed')], 'complex')
        length = None
        if node.is_in_port_connected(1):
            length = cast(b, node.in_port(1), I64, 'length_i64')
            length = b.op(Gather, [b.op(Broadcast, [length, b.const([1], 'one_vec', I64)], 'length_vec'),
                                   b.const(0, 'first', I64), b.const(0, 'first_axis', I64)], 'length')
        if node.inverse and node.onesided:
            if length is None:  # a full signal of 2 (m - 1) points from m
                m = dimension(b, signal, axis, 'half_points')
                length = b.op(Mul, [b.op(Sub, [m, b.const(1, 'one_pt', I64)], 'm_minus_1'), b.const(2, 'two_pt', I64)],
                              'length')
            half = b.op(Add, [b.op(Div, [length, b.const(2, 'half_div', I64)], 'half'), b.const(1, 'half_one', I64)],
                        'half_points')
            spectrum = _fit(b, signal, axis, half, 'fit')
            real = b.op(IRDFT, [spectrum, transform_axis, unsqueeze(b, length, [0], 'signal_size')], 'irdft')
            return unsqueeze(b, real, [-1], 'real')
        if length is not None:
            signal = _fit(b, signal, axis, length, 'fit')
        transformed = b.op(IDFT if node.inverse else DFT, [signal, transform_axis], 'idft' if node.inverse else 'dft')
        if not node.onesided:
            return transformed
        points = dimension(b, transformed, axis, 'points')
        stop = b.op(Add, [b.op(Div, [points, b.const(2, 'half_div', I64)], 'half'), b.const(1, 'half_one', I64)],
                    'stop')
        return b.op(Slice, [transformed, b.const([0], 'begin', I64), unsqueeze(b, stop, [0], 'stop_vec'),
                            b.const([1], 'stride', I64), b.const([axis], 'slice_axis', I64)], 'onesided')


class ONNXDetLowering(OpRule):
    """Det(x[..., n, n]) for a static n <= 6: Laplace expansion along the rows, unrolled over the column subsets
    (det of rows 0..k on columns S = sum over j in S of (-1)^(k + position of j in S) x[k, j] det(rows 0..k-1,
    S - {j})), on the batch of scalars x[..., i, j]."""
    op = 'ONNXDet'
    largest = 6

    def rewrite(self, node: Node, b: Builder):
        shape = static_shape(node.in_port(0))
        if shape is None or len(shape) < 2 or shape[-1] != shape[-2] or not 1 <= shape[-1] <= self.largest:
            raise Error('Det "{}": mo converts it for square matrices of a static size up to {} (the input has '
                        'shape {})', _name(node), self.largest, shape)
        n = shape[-1]
        x = node.in_port(0)
        rows = [b.op(Gather, [x, b.const(i, 'row{}'.format(i), I64), b.const(-2, 'row_axis{}'.format(i), I64)],
                     'rows{}'.format(i)) for i in range(n)]
        element = [[b.op(Gather, [rows[i], b.const(j, 'col{}_{}'.format(i, j), I64),
                                  b.const(-1, 'col_axis{}_{}'.format(i, j), I64)], 'x{}_{}'.format(i, j))
                    for j in range(n)] for i in range(n)]
        minors = {(j,): element[0][j] for j in range(n)}  # column subsets (sorted tuples) of the first rows
        for k in range(1, n):
            grown = {}
            for columns in _subsets(n, k + 1):
                total = None
                for position, j in enumerate(columns):
                    rest = tuple(c for c in columns if c != j)
                    term = b.op(Mul, [element[k][j], minors[rest]], 'm{}_{}'.format(_key(columns), j))
                    if total is None:
                        total = term if (k + position) % 2 == 0 else \
                            b.op(Sub, [like(b, 0, x, 'zero{}'.format(_key(columns))), term],
                                 'neg{}'.format(_key(columns)))
                    else:
                        total = b.op(Sub if (k + position) % 2 else Add, [total, term],
                                     's{}_{}'.format(_key(columns), j))
                grown[columns] = total
            minors = grown
        return minors[tuple(range(n))]


def _subsets(n: int, size: int):
    """The sorted column subsets of ``size`` columns out of ``n``."""
    from itertools import combinations
    return list(combinations(range(n), size))


def _key(columns) -> str:
    return ''.join(str(c) for c in columns)
