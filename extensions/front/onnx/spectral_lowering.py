"""ONNX signal-processing ops built from opset ops (the internal ``ONNX*`` ops ``spectral_ext`` leaves).

Complex tensors are float tensors with a trailing dimension of 2 in ONNX as in the opset; ONNX's real signals
carry a trailing dimension of 1. Windows and MelWeightMatrix of constant inputs fold to constants (numpy, in
float64, then the requested type); with inputs known at run time only they are Range-based formulas (f32).
"""
import numpy as np

from extensions.front.onnx.math_lowering import DIM_NAMES, like, static_shape
from extensions.front.onnx.tensor_lowering import move_axis
from mo.front.common.formula_kit import F32, I64
from mo.front.common.rule import Builder, OpRule
from mo.ops.convert import ConvertLike
from mo.graph.graph import Node
from mo.ops.activation_ops import Exp, Floor, Log
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Equal, GreaterEqual, Less, LessEqual, LogicalAnd, LogicalOr, Maximum, Mul, Sub
from mo.ops.fft import DFT, IDFT, IRDFT
from mo.ops.gather import Gather
from mo.ops.math_ops import Cos
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.transpose import Transpose
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
        count = b.cast(node.in_port(0), F32, 'count')
        n = b.op(Range, [b.const(0, 'start', F32), count, b.const(1, 'step', F32)], 'n', output_type=F32)
        period = count if node.periodic else b.op(Sub, [count, b.const(1, 'one', F32)], 'period')
        phase = b.op(Div, [b.op(Mul, [n, b.const(2 * np.pi, 'two_pi', F32)], 'angle'), period], 'phase')
        value = b.op(Sub, [b.const(a0, 'a0', F32), b.op(Mul, [b.const(a1, 'a1', F32), b.op(Cos, [phase], 'cos1')],
                                                           'term1')], 'sum1')
        if a2:
            double = b.op(Mul, [phase, b.const(2, 'two', F32)], 'phase2')
            value = b.op(Add, [value, b.op(Mul, [b.const(a2, 'a2', F32), b.op(Cos, [double], 'cos2')], 'term2')],
                         'sum2')
        return b.cast(value, node.out_type, 'window')


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
    ``mel_weight_matrix`` computes when every input is constant, else the same formula at run time."""
    op = 'ONNXMelWeightMatrix'

    def rewrite(self, node: Node, b: Builder):
        values = [_constant(node, k) for k in range(5)]
        if any(v is None for v in values):
            return self._runtime(node, b)
        bins, length, rate, low, high = [np.ravel(v)[0] for v in values]
        if int(bins) <= 0 or int(length) <= 0 or float(rate) <= 0:
            raise Error('MelWeightMatrix "{}": num_mel_bins, dft_length and sample_rate must be positive',
                        _name(node))
        value = mel_weight_matrix(int(bins), int(length), rate, low, high)
        return b.const(value.astype(node.out_type), 'matrix', node.out_type)

    @staticmethod
    def _runtime(node: Node, b: Builder):
        """The same for inputs known at run time only, in f32: with L, C, R = bins[i], bins[i + 1], bins[i + 2]
        (rows [1, num_mel_bins]) and j = 0 .. dft_length // 2 (a column), the entry is (R - j) / (R - C) for
        C <= j < R, else (j - L) / (C - L) for L <= j <= C (1 where C == L), else 0."""
        def f32(port, tag):
            return b.cast(b.op(Reshape, [port, b.const([], tag + '/scalar_shape', I64)], tag + '/scalar'), F32, tag)
        count = b.cast(b.op(Reshape, [node.in_port(0), b.const([], 'count_shape', I64)], 'count_scalar'), I64,
                     'count')
        length, rate, low, high = [f32(node.in_port(k), tag) for k, tag in
                                   ((1, 'dft_length'), (2, 'sample_rate'), (3, 'lower_hz'), (4, 'upper_hz'))]
        mel_scale = 2595.0 / np.log(10.0)  # mel(f) = 2595 log10(1 + f / 700) = mel_scale ln(1 + f / 700)

        def mel(hz, tag):
            return b.op(Mul, [b.op(Log, [b.op(Add, [b.op(Div, [hz, b.const(700, tag + '/700', F32)], tag + '/ratio'),
                                                    b.const(1, tag + '/one', F32)], tag + '/plus_one')], tag + '/log'),
                              b.const(mel_scale, tag + '/scale', F32)], tag)
        mel_low = mel(low, 'mel_low')
        points_count = b.op(Add, [count, b.const(2, 'two', I64)], 'points_count')
        step = b.op(Div, [b.op(Sub, [mel(high, 'mel_high'), mel_low], 'mel_span'), b.cast(points_count, F32,
                                                                                          'points_f32')], 'mel_step')
        index = b.cast(b.op(Range, [b.const(0, 'p_start', I64), points_count, b.const(1, 'p_step', I64)], 'p',
                             output_type=I64), F32, 'p_f32')
        points = b.op(Add, [mel_low, b.op(Mul, [index, step], 'p_offsets')], 'mel_points')
        hertz = b.op(Mul, [b.op(Sub, [b.op(Exp, [b.op(Div, [points, b.const(mel_scale, 'mel_scale', F32)],
                                                      'exponent')], 'exp'), b.const(1, 'exp_one', F32)], 'exp_minus_1'),
                           b.const(700, 'hz_700', F32)], 'hertz')
        scaled = b.op(Div, [b.op(Mul, [hertz, b.op(Add, [length, b.const(1, 'len_one', F32)], 'length_plus_1')],
                                 'hz_scaled'), rate], 'bin_position')
        bins = b.unsqueeze(b.op(Floor, [scaled], 'bins'), [0], 'bins_row')

        def part(start, tag):  # bins[start : start + num_mel_bins] as a row
            return b.op(Slice, [bins, b.const([start], tag + '/start', I64),
                                b.unsqueeze(b.op(Add, [count, b.const(start, tag + '/offset', I64)], tag + '/end'),
                                          [0], tag + '/stop'), b.const([1], tag + '/step', I64),
                                b.const([1], tag + '/axis', I64)], tag)
        left, center, right = part(0, 'left'), part(1, 'center'), part(2, 'right')
        rows = b.op(Add, [b.op(Div, [b.cast(length, I64, 'length_i64'), b.const(2, 'half', I64)], 'half_length'),
                          b.const(1, 'rows_one', I64)], 'rows')
        j = b.unsqueeze(b.cast(b.op(Range, [b.const(0, 'j_start', I64), rows, b.const(1, 'j_step', I64)], 'j_i64',
                                      output_type=I64), F32, 'j_f32'), [1], 'j')
        zero, one = b.const(0, 'zero', F32), b.const(1, 'one', F32)
        falling = b.op(Div, [b.op(Sub, [right, j], 'to_right'), b.op(Sub, [right, center], 'fall_width')], 'falling')
        rise_width = b.op(Sub, [center, left], 'rise_width')
        rising = b.op(Select, [b.op(Equal, [rise_width, zero], 'no_rise'), one,
                               b.op(Div, [b.op(Sub, [j, left], 'from_left'), rise_width], 'rise')], 'rising')
        in_fall = b.op(LogicalAnd, [b.op(GreaterEqual, [j, center], 'from_center'), b.op(Less, [j, right], 'to_end')],
                       'in_fall')
        in_rise = b.op(LogicalAnd, [b.op(GreaterEqual, [j, left], 'from_start'),
                                    b.op(LessEqual, [j, center], 'to_center')], 'in_rise')
        weights = b.op(Select, [in_fall, falling, b.op(Select, [in_rise, rising, zero], 'rise_or_zero')], 'weights')
        return b.cast(weights, node.out_type, 'matrix')


def _fit(b: Builder, x, axis: int, length, tag: str):
    """``x`` cropped or zero-padded to ``length`` (an int64 scalar) along ``axis`` (either sign)."""
    cropped = b.op(Slice, [x, b.const([0], tag + '/start', I64), b.unsqueeze(length, [0], tag + '/stop'),
                           b.const([1], tag + '/step', I64), b.const([axis], tag + '/axis', I64)], tag + '/cropped')
    shape = b.op(ShapeOf, [cropped], tag + '/shape', output_type=I64)
    rank = b.dim_of(shape, 0, tag + '/rank', const_names=DIM_NAMES)
    where = b.const(axis, tag + '/where', I64) if axis >= 0 else \
        b.op(Add, [rank, b.const(axis, tag + '/back', I64)], tag + '/where')
    dims = b.op(Range, [b.const(0, tag + '/first', I64), rank, b.const(1, tag + '/one', I64)], tag + '/dims',
                output_type=I64)
    size = b.op(Gather, [shape, where, b.const(0, tag + '/gather_axis', I64)], tag + '/size')
    missing = b.op(Sub, [length, size], tag + '/missing')
    zero = b.const(0, tag + '/zero', I64)
    after = b.op(Select, [b.op(Equal, [dims, where], tag + '/is_axis'), missing, zero], tag + '/pads_end')
    before = b.op(Broadcast, [zero, b.unsqueeze(rank, [0], tag + '/rank_vector')], tag + '/pads_begin')
    return b.op(Pad, [cropped, before, after, like(b, 0, x, tag + '/fill')], tag, pad_mode='constant')


def _real_bins_exact(b: Builder, transformed, last, axis: int):
    """``transformed`` (the DFT or IDFT along ``axis`` of a signal that is real when ``last`` is 0) with the
    imaginary parts of points 0 and n / 2 set to 0: for a real signal these are sums of the samples with factors
    1 and (-1)^j, real exactly, but OpenVINO's f32 twiddle factors (sin(pi j) is not 0 in f32) leave an
    imaginary part of some 1e-6 of the signal's magnitude there, where the exact result is 0."""
    n = b.dim_of(transformed, axis, 'points_all', const_names=DIM_NAMES)
    k = b.op(Range, [b.const(0, 'k_start', I64), n, b.const(1, 'k_step', I64)], 'k', output_type=I64)
    zero = b.const(0, 'k_zero', I64)
    at_zero = b.op(Equal, [k, zero], 'at_zero')
    at_half = b.op(Equal, [b.op(Mul, [k, b.const(2, 'k_two', I64)], 'k_twice'), n], 'at_half')
    real_point = b.op(LogicalOr, [at_zero, at_half], 'real_point')
    # the imaginary factor: 0 at those points of a real signal (last = 0), 1 elsewhere and for complex signals
    keep = b.op(Maximum, [b.op(Select, [real_point, zero, b.const(1, 'k_one', I64)], 'kept'), last], 'keep')
    pairs = b.op(Add, [b.op(Mul, [b.unsqueeze(keep, [1], 'keep_column'), b.const([0, 1], 'imag_only', I64)],
                                'imag_factor'), b.const([1, 0], 'real_one', I64)], 'pair_factor')
    # [n, 2] aligned with transformed: [n, 1, ..., 1, 2], one 1 per axis between ``axis`` and the complex one
    if axis < 0:
        middle = b.const([1] * (-axis - 2), 'middle_ones', I64)
    else:
        rank = b.op(ShapeOf, [b.op(ShapeOf, [transformed], 'out_shape', output_type=I64)], 'out_rank', output_type=I64)
        middle = b.op(Broadcast, [b.const([1], 'one_1d', I64), b.op(Sub, [rank, b.const([axis + 2], 'after_axis',
                                                                                         I64)], 'middle_count')],
                      'middle_ones', mode='numpy')
    shape = b.op(Concat, [b.const([-1], 'n_dim', I64), middle, b.const([2], 'two_dim', I64)], 'factor_shape', axis=0,
                 in_ports_count=3)
    factor = b.op(Reshape, [pairs, shape], 'aligned_factor', special_zero=False)
    return b.op(Mul, [transformed, b.op(ConvertLike, [factor, transformed], 'factor_like')], 'real_bins_exact')


class ONNXDFTLowering(OpRule):
    """DFT(x, dft_length, axis): x made complex (a real [..., 1] gets a zero imaginary part), fitted to dft_length
    along axis, then DFT/IDFT along it; onesided keeps the first n // 2 + 1 points of a forward transform, and
    an inverse onesided one is IRDFT(spectrum fitted to n // 2 + 1 points, n) with a trailing 1. An axis known
    at run time only: the same along axis -2 of x transposed to put that axis there, transposed back."""
    op = 'ONNXDFT'

    def _axis(self, node: Node) -> int:
        if node.axis is not None:
            return int(node.axis)
        if not node.is_in_port_connected(2):
            return -2
        value = _constant(node, 2)
        return None if value is None else int(np.ravel(value)[0])

    def rewrite(self, node: Node, b: Builder):
        axis = self._axis(node)
        if axis is None:  # known at run time only: transform along -2 of x transposed to put the axis there
            moved, back = move_axis(b, node.in_port(0).get_source(), node.in_port(2), 1, 'moved')
            return b.op(Transpose, [self._transform(node, b, moved, -2), back], 'moved_back')
        if axis == -1:
            raise Error('DFT "{}": axis -1 is the complex dimension, not a signal axis', _name(node))
        return self._transform(node, b, node.in_port(0), axis)

    @staticmethod
    def _transform(node: Node, b: Builder, x, axis: int):
        # the opset counts the axes of the complex tensor without its trailing 2; ONNX's -2 is its -1
        transform_axis = b.const([axis + 1 if axis < 0 else axis], 'axes', I64)
        # complex = x[..., [0, last]] * [1, last], last = parts - 1: [re, im] for complex input, [re, 0] for real
        last = b.op(Sub, [b.dim_of(x, -1, 'parts', const_names=DIM_NAMES), b.const(1, 'one', I64)], 'last')
        indices = b.op(Mul, [b.const([0, 1], 'which', I64), last], 'indices')
        pair = b.op(Gather, [x, indices, b.const(-1, 'part_axis', I64)], 'pair')
        factor = b.op(Add, [b.const([1, 0], 'real_factor', I64), indices], 'factor')
        signal = b.op(Mul, [pair, b.op(ConvertLike, [factor, x], 'factor_typed')], 'complex')
        length = None
        if node.is_in_port_connected(1):
            length = b.cast(node.in_port(1), I64, 'length_i64')
            length = b.op(Gather, [b.op(Broadcast, [length, b.const([1], 'one_vec', I64)], 'length_vec'),
                                   b.const(0, 'first', I64), b.const(0, 'first_axis', I64)], 'length')
        if node.inverse and node.onesided:
            if length is None:  # a full signal of 2 (m - 1) points from m
                m = b.dim_of(signal, axis, 'half_points', const_names=DIM_NAMES)
                length = b.op(Mul, [b.op(Sub, [m, b.const(1, 'one_pt', I64)], 'm_minus_1'), b.const(2, 'two_pt', I64)],
                              'length')
            half = b.op(Add, [b.op(Div, [length, b.const(2, 'half_div', I64)], 'half'), b.const(1, 'half_one', I64)],
                        'half_points')
            spectrum = _fit(b, signal, axis, half, 'fit')
            real = b.op(IRDFT, [spectrum, transform_axis, b.unsqueeze(length, [0], 'signal_size')], 'irdft')
            return b.unsqueeze(real, [-1], 'real')
        if length is not None:
            signal = _fit(b, signal, axis, length, 'fit')
        transformed = b.op(IDFT if node.inverse else DFT, [signal, transform_axis], 'idft' if node.inverse else 'dft')
        transformed = _real_bins_exact(b, transformed, last, axis)
        if not node.onesided:
            return transformed
        points = b.dim_of(transformed, axis, 'points', const_names=DIM_NAMES)
        stop = b.op(Add, [b.op(Div, [points, b.const(2, 'half_div', I64)], 'half'), b.const(1, 'half_one', I64)],
                    'stop')
        return b.op(Slice, [transformed, b.const([0], 'begin', I64), b.unsqueeze(stop, [0], 'stop_vec'),
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
