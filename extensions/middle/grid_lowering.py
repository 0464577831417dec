"""Middle-phase lowerings of ONNX's sampling-grid ops (``extensions.front.onnx.grid_ext``), written once ranks
and element types are known.

AffineGrid(theta, size) builds the base grid of ``size`` (a constant or a run-time tensor) and multiplies it by
theta. Coordinate i of a dimension of n steps is ``(2 i + 1) / n - 1`` (align_corners=0: the pixel centres of
[-1, 1] cut into n cells) or ``2 i / max(n - 1, 1) - 1`` (align_corners=1: -1 and 1 at the corner centres; a
single step lies at -1, as in ONNX's reference and its function body; onnxruntime puts it at 1, PyTorch at 0).

GridSample on data other than 4-D (OpenVINO's GridSample-9 takes 4-D only) is computed by gathers, as ONNX's
reference defines it, axis by axis: a grid value g of a dimension of n pixels is the pixel coordinate
``x = (g + 1) (n - 1) / 2`` (align_corners=1) or ``((g + 1) n - 1) / 2`` (align_corners=0); nearest rounds it
half to even; a coordinate beyond the borders [0, n - 1] (align_corners=1) or [-0.5, n - 0.5] is clamped to
[0, n - 1] (border) or reflected at the borders (reflection). Nearest reads the pixel x, linear the pixels
floor(x) and floor(x) + 1 with weights 1 - f and f; a pixel index outside the data reads 0 (zeros), the nearest
pixel (border) or its reflection (reflection). The data is read as [N, C, pixels] by one Gather per corner of the
interpolation cell, with the flat index of the pixel. Cubic interpolation is done by OpenVINO's op (4-D) only.
"""
import itertools

import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.activation_ops import Floor
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Equal, FloorMod, Greater, Less, LogicalOr, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.math_ops import Round
from mo.ops.matmul import MatMul
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

I64 = np.int64
_END = np.iinfo(np.int64).max


def _i64(b: Builder, value, tag: str):
    return b.const(np.array(value, I64), tag, I64)


def _element(b: Builder, vector, index: int, tag: str):
    """``vector[index]``, an int64 scalar."""
    return b.op(Gather, [vector, _i64(b, index, tag + '/index'), _i64(b, 0, tag + '/axis')], tag)


def _part(b: Builder, vector, begin: int, end, tag: str):
    """``vector[begin:end]`` (1-D)."""
    return b.op(Slice, [vector, _i64(b, [begin], tag + '/begin'), _i64(b, [_END if end is None else end],
                                                                        tag + '/end'),
                        _i64(b, [1], tag + '/step')], tag)


def _concat(b: Builder, parts, tag: str, axis: int = 0):
    return b.op(Concat, parts, tag, axis=axis, in_ports_count=len(parts))


def _float_type(node: Node, port: int, what: str) -> np.dtype:
    dtype = node.in_port(port).data.get_data_type()
    if dtype is None or np.dtype(dtype).kind != 'f':
        raise Error('{} "{}": {} must be a floating-point tensor, not {}', node.soft_get('onnx_op', node.op),
                    node.soft_get('name', node.id), what, dtype)
    return np.dtype(dtype)


class AffineGridLowering(MiddleOpRule):
    """AffineGrid(theta [N, r, r + 1], size [N, C, d1..dr]) = Reshape(MatMul(base [d1*..*dr, r + 1], theta,
    transpose_b), [N, d1..dr, r]) with base the homogeneous coordinates (x, y[, z], 1) of every output position,
    x along dr (module docstring)."""
    id = 'AffineGridLowering'
    op = 'ONNXAffineGrid'

    def rewrite(self, node: Node, b: Builder):
        dtype = _float_type(node, 0, 'theta')
        spatial = int(node.in_port(1).data.get_shape()[0]) - 2  # 2 or 3: checked by the op's infer
        size = b.op(Convert, [node.in_port(1)], 'size', dst_type=np.dtype(I64))
        dims = _part(b, size, 2, None, 'spatial_size')
        components = []
        for axis in reversed(range(spatial)):  # x (the last axis) first
            steps = _element(b, size, 2 + axis, 'size_{}'.format(axis))
            coords = self._coordinates(b, node, steps, dtype, 'coords_{}'.format(axis))
            others = [a for a in range(spatial) if a != axis]
            if others:
                coords = b.op(Unsqueeze, [coords, _i64(b, others, 'coords_{}/axes'.format(axis))],
                              'coords_{}/placed'.format(axis))
            components.append(b.op(Broadcast, [coords, dims], 'coords_{}/grid'.format(axis)))
        components.append(b.op(Broadcast, [b.const(1, 'one', dtype), dims], 'ones'))
        components = [b.op(Unsqueeze, [c, _i64(b, [spatial], 'component_{}/axis'.format(k))],
                           'component_{}'.format(k)) for k, c in enumerate(components)]
        base = _concat(b, components, 'base', axis=spatial)
        base = b.op(Reshape, [base, _i64(b, [-1, spatial + 1], 'flat_shape')], 'base_flat')
        points = b.op(MatMul, [base, node.in_port(0)], 'transformed', transpose_b=True)
        shape = _concat(b, [_part(b, size, 0, 1, 'batch'), dims, _i64(b, [spatial], 'components')], 'grid_shape')
        return b.op(Reshape, [points, shape], 'grid')

    @staticmethod
    def _coordinates(b: Builder, node: Node, steps, dtype, tag: str):
        """The ``steps`` normalized coordinates of one dimension (module docstring)."""
        index = b.op(Range, [_i64(b, 0, tag + '/start'), steps, _i64(b, 1, tag + '/step')], tag + '/index',
                     output_type=np.dtype(I64))
        index = b.op(Convert, [index], tag + '/index_f', dst_type=dtype)
        n = b.op(Convert, [steps], tag + '/n', dst_type=dtype)
        twice = b.op(Mul, [index, b.const(2, tag + '/two', dtype)], tag + '/twice')
        if node.align_corners:
            numerator = twice
            denominator = b.op(Maximum, [b.op(Sub, [n, b.const(1, tag + '/one_less', dtype)], tag + '/intervals'),
                                         b.const(1, tag + '/at_least_one', dtype)], tag + '/denominator')
        else:
            numerator = b.op(Add, [twice, b.const(1, tag + '/one', dtype)], tag + '/odd')
            denominator = n
        return b.op(Sub, [b.op(Div, [numerator, denominator], tag + '/from_zero'), b.const(1, tag + '/minus', dtype)],
                    tag)


class GridSampleByGathers(MiddleOpRule):
    """GridSample of data other than 4-D (nearest or linear) -> Gathers of the data's pixels weighted per corner
    (module docstring)."""
    id = 'GridSampleByGathers'
    op = 'GridSample'

    def matches(self, node: Node) -> bool:
        shape = node.in_port(0).data.get_shape()
        return shape is not None and len(shape) != 4

    def rewrite(self, node: Node, b: Builder):
        rank = len(node.in_port(0).data.get_shape())
        if node.mode == 'bicubic':
            raise Error('GridSample "{}": cubic interpolation of {}-D data is not supported (OpenVINO\'s GridSample '
                        'takes 4-D data only)', b.name, rank)
        dtype = _float_type(node, 1, 'the grid')
        data_type = node.in_port(0).data.get_data_type()
        spatial = rank - 2
        data_shape = b.op(ShapeOf, [node.in_port(0)], 'data_shape', output_type=np.dtype(I64))
        grid_shape = b.op(ShapeOf, [node.in_port(1)], 'grid_shape', output_type=np.dtype(I64))
        data = b.op(Reshape, [node.in_port(0), _i64(b, [0, 0, -1], 'pixels_shape')], 'pixels', special_zero=True)
        if data_type != dtype:
            data = b.op(Convert, [data], 'pixels_f', dst_type=dtype)
        sizes, taps = [], []
        for axis in range(spatial):
            tag = 'axis_{}'.format(axis)
            n_int = _element(b, data_shape, 2 + axis, tag + '/size')
            n = b.op(Convert, [n_int], tag + '/size_f', dst_type=dtype)
            g = b.op(Gather, [node.in_port(1), _i64(b, spatial - 1 - axis, tag + '/component'),
                              _i64(b, -1, tag + '/component_axis')], tag + '/normalized')
            taps.append(self._taps(b, node, g, n, dtype, tag))
            sizes.append(n_int)
        total = None
        for choice in itertools.product(*[range(len(t)) for t in taps]):
            tag = 'corner_' + ''.join(str(k) for k in choice)
            flat, weight = None, None
            for axis, k in enumerate(choice):
                index, w = taps[axis][k]
                flat = index if flat is None else b.op(Add, [b.op(Mul, [flat, sizes[axis]], tag + '/scaled_{}'.format(
                    axis)), index], tag + '/flat_{}'.format(axis))
                if weight is None or w is None:  # None: a weight of 1
                    weight = w if weight is None else weight
                else:
                    weight = b.op(Mul, [weight, w], tag + '/weight_{}'.format(axis))
            flat = b.op(Reshape, [flat, _i64(b, [0, -1], tag + '/flat_shape')], tag + '/flat', special_zero=True)
            values = b.op(Gather, [data, flat, _i64(b, 2, tag + '/axis')], tag + '/values', batch_dims=1)
            term = values
            if weight is not None:  # None: every tap of every axis reads its pixel whole (nearest, no zeros)
                weight = b.op(Reshape, [weight, _i64(b, [0, 1, -1], tag + '/weight_shape')], tag + '/weight',
                              special_zero=True)
                term = b.op(Mul, [values, weight], tag + '/term')
            total = term if total is None else b.op(Add, [total, term], tag + '/sum')
        if data_type != dtype:
            total = b.op(Convert, [total], 'result_type', dst_type=np.dtype(data_type))
        shape = _concat(b, [_part(b, data_shape, 0, 2, 'batch_channels'), _part(b, grid_shape, 1, -1, 'positions')],
                        'output_shape')
        return b.op(Reshape, [total, shape], 'output')

    def _taps(self, b: Builder, node: Node, g, n, dtype, tag: str) -> list:
        """``[(pixel index, weight)]`` of one axis: the pixels the interpolation reads (int64, within [0, n - 1])
        and their weights (0 for a pixel outside the data with zeros padding; None for 1)."""
        one = b.const(1, tag + '/one', dtype)
        last = b.op(Sub, [n, one], tag + '/last')
        if node.align_corners:
            x = b.op(Mul, [b.op(Add, [g, one], tag + '/shifted'), b.op(Div, [last, b.const(2, tag + '/two', dtype)],
                                                                          tag + '/half_extent')], tag + '/x')
            low, high = b.const(0, tag + '/low', dtype), last
        else:
            scaled = b.op(Mul, [b.op(Add, [g, one], tag + '/shifted'), n], tag + '/scaled')
            x = b.op(Mul, [b.op(Sub, [scaled, one], tag + '/from_centre'), b.const(0.5, tag + '/half', dtype)],
                     tag + '/x')
            low = b.const(-0.5, tag + '/low', dtype)
            high = b.op(Sub, [n, b.const(0.5, tag + '/half_pixel', dtype)], tag + '/high')
        if node.mode == 'nearest':
            x = b.op(Round, [x], tag + '/nearest', mode='half_to_even')
        x = self._pad_coordinate(b, node, x, n, low, high, dtype, tag)
        if node.mode == 'nearest':
            return [self._pixel(b, node, x, None, n, low, high, dtype, tag + '/tap0')]
        x0 = b.op(Floor, [x], tag + '/floor')
        fraction = b.op(Sub, [x, x0], tag + '/fraction')
        x1 = b.op(Add, [x0, one], tag + '/next')
        return [self._pixel(b, node, x0, b.op(Sub, [one, fraction], tag + '/w0'), n, low, high, dtype, tag + '/tap0'),
                self._pixel(b, node, x1, fraction, n, low, high, dtype, tag + '/tap1')]

    def _pad_coordinate(self, b: Builder, node: Node, x, n, low, high, dtype, tag: str):
        """A coordinate beyond [low, high] clamped to [0, n - 1] (border) or reflected (reflection)."""
        if node.padding_mode == 'zeros':
            return x
        outside = b.op(LogicalOr, [b.op(Less, [x, low], tag + '/below'), b.op(Greater, [x, high], tag + '/above')],
                       tag + '/outside')
        if node.padding_mode == 'border':
            moved = self._clamp(b, x, n, dtype, tag + '/clamped')
        else:
            moved = self._reflect(b, x, low, high, dtype, tag + '/reflected')
        return b.op(Select, [outside, moved, x], tag + '/padded')

    @staticmethod
    def _clamp(b: Builder, x, n, dtype, tag: str):
        last = b.op(Sub, [n, b.const(1, tag + '/one', dtype)], tag + '/last')
        return b.op(Minimum, [b.op(Maximum, [x, b.const(0, tag + '/zero', dtype)], tag + '/at_least_0'), last], tag)

    @staticmethod
    def _reflect(b: Builder, x, low, high, dtype, tag: str):
        """x reflected at ``low`` and ``high`` until within them: beyond a border by d, it lies r = d mod (high - low)
        from that border after an even number of reflections, from the other one after an odd number; low when
        high = low."""
        below = b.op(Less, [x, low], tag + '/below')
        span = b.op(Sub, [high, low], tag + '/span')
        distance = b.op(Select, [below, b.op(Sub, [low, x], tag + '/under'), b.op(Sub, [x, high], tag + '/over')],
                        tag + '/distance')
        flips = b.op(Floor, [b.op(Div, [distance, span], tag + '/spans')], tag + '/flips')
        rest = b.op(Sub, [distance, b.op(Mul, [flips, span], tag + '/whole')], tag + '/rest')
        even = b.op(Equal, [b.op(FloorMod, [flips, b.const(2, tag + '/two', dtype)], tag + '/parity'),
                            b.const(0, tag + '/zero', dtype)], tag + '/even')
        from_low = b.op(Add, [low, rest], tag + '/from_low')
        from_high = b.op(Sub, [high, rest], tag + '/from_high')
        near_low = b.op(Select, [even, from_low, from_high], tag + '/after_low')
        near_high = b.op(Select, [even, from_high, from_low], tag + '/after_high')
        reflected = b.op(Select, [below, near_low, near_high], tag + '/either')
        # one pixel with align_corners=1: low = high, every position is that pixel
        single = b.op(Equal, [span, b.const(0, tag + '/no_span', dtype)], tag + '/single')
        return b.op(Select, [single, low, reflected], tag)

    def _pixel(self, b: Builder, node: Node, index, weight, n, low, high, dtype, tag: str):
        """``(pixel index within [0, n - 1] as int64, weight)`` for a float pixel index (integral) that may lie
        outside the data."""
        if node.padding_mode == 'zeros':
            outside = b.op(LogicalOr, [b.op(Less, [index, b.const(0, tag + '/zero', dtype)], tag + '/before'),
                                       b.op(Greater, [index, b.op(Sub, [n, b.const(1, tag + '/one', dtype)],
                                                                  tag + '/last')], tag + '/after')], tag + '/outside')
            keep = b.op(Select, [outside, b.const(0, tag + '/no', dtype), b.const(1, tag + '/yes', dtype)],
                        tag + '/inside')
            weight = keep if weight is None else b.op(Mul, [weight, keep], tag + '/weight')
        elif node.padding_mode == 'reflection':
            reflected = self._reflect(b, index, low, high, dtype, tag + '/reflected')
            # ONNX truncates the reflected coordinate to an index
            index = b.op(Floor, [reflected], tag + '/reflected_index')
        index = self._clamp(b, index, n, dtype, tag + '/index_f')
        # integral values: exact as int64, in which the flat index is computed (beyond f16's or f32's integers)
        return b.op(Convert, [index], tag + '/index', dst_type=np.dtype(I64)), weight
