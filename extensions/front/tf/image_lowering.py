"""TensorFlow image ops built from opset ops with TensorFlow's own arithmetic (the ops ``image_ext`` extracts).

The opset's Interpolate has no area mode, and its cubic mode differs from TensorFlow's (TF looks its cubic
weights up in a table of 1024 steps, and with half_pixel_centers renormalizes the weights of taps that fall
outside the image), so both resizes are written out: the weights are computed from the sizes at run time
(constant-folded when the sizes are known) exactly as TF's CPU kernels compute them, then applied per image
axis, the rows first as TF does. CropAndResize samples with Gather and TF's lerp formula.
"""
import numpy as np

from mo.front.common.formula_kit import F32, I32, I64, arange, ceil, clamp, column, dim, float_input, floor, minus_one
from extensions.front.tf.tensor_ext import constant_input
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Equal, Greater, GreaterEqual, Less, LessEqual, LogicalAnd, Maximum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.math_ops import Round
from mo.ops.matmul import MatMul
from mo.ops.reduce import ReduceMean
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.utils.error import Error

#: TF's cubic weights are tabulated at this many steps between two pixels
_TABLE_SIZE = 1024


def cubic_table(a: float) -> np.ndarray:
    """TF's table of cubic convolution weights (``kTableSize + 1`` pairs, computed in double, stored in float):
    entry ``2 i`` is the weight of a tap ``i / 1024`` away, entry ``2 i + 1`` of one ``1 + i / 1024`` away."""
    x = (np.arange(_TABLE_SIZE + 1, dtype=np.float64) / _TABLE_SIZE).astype(np.float32).astype(np.float64)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    x = (x + 1.0).astype(np.float32).astype(np.float64)
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.stack([near, far], axis=1).reshape(-1).astype(np.float32)


def resize_scale(b, in_size, out_size, align_corners: bool, tag: str):
    """TF's CalculateResizeScale in float: (in - 1) / (out - 1) when aligning corners of an output longer than
    one pixel, else in / out (``in_size``/``out_size`` int32 scalars)."""
    in_f, out_f = b.cast(in_size, F32, tag + '/in'), b.cast(out_size, F32, tag + '/out')
    plain = b.op(Div, [in_f, out_f], tag + '/in_over_out')
    if not align_corners:
        return plain
    # (out - 1) at least 1: the quotient is not used for a one-pixel output, and must not divide by 0
    steps = b.op(Maximum, [minus_one(b, out_f, tag + '/out_1', F32), b.const(1, tag + '/one_f', F32)], tag + '/steps')
    aligned = b.op(Div, [minus_one(b, in_f, tag + '/in_1', F32), steps], tag + '/aligned')
    longer = b.op(Greater, [out_size, b.const(1, tag + '/one', I32)], tag + '/longer')
    return b.op(Select, [longer, aligned, plain], tag)


def _along(b, weights, axis: int, tag: str):
    """``weights`` [out] shaped to multiply a gathered NHWC image along ``axis`` (1 or 2)."""
    return b.unsqueeze(weights, range(1, 4 - axis), tag)


def _cubic_axis(b, image, axis: int, out_size, align_corners: bool, half_pixel: bool, tag: str):
    """``image`` (float NHWC) resampled along ``axis`` to ``out_size`` with TF's cubic taps and weights."""
    in_size = dim(b, image, axis, tag + '/in_size')
    scale = resize_scale(b, in_size, out_size, align_corners, tag + '/scale')
    position = b.cast(arange(b, out_size, tag + '/out_range'), F32, tag + '/out_float')
    if half_pixel:  # HalfPixelScaler: (x + 0.5) * scale - 0.5
        shifted = b.op(Add, [position, b.const(0.5, tag + '/half', F32)], tag + '/centre')
        source = b.op(Sub, [b.op(Mul, [shifted, scale], tag + '/scaled'), b.const(0.5, tag + '/half_', F32)],
                      tag + '/source')
    else:  # LegacyScaler: x * scale
        source = b.op(Mul, [position, scale], tag + '/source')
    base = floor(b, source, tag + '/floor')
    delta = b.op(Sub, [source, base], tag + '/delta')
    # lrintf rounds half to even
    offset = b.cast(b.op(Round, [b.op(Mul, [delta, b.const(_TABLE_SIZE, tag + '/steps', F32)], tag + '/steps_in')],
                          tag + '/round', mode='half_to_even'), I32, tag + '/offset')
    table = b.const(cubic_table(-0.5 if half_pixel else -0.75), tag + '/table', F32)
    twice = b.op(Mul, [offset, b.const(2, tag + '/two', I32)], tag + '/twice')
    mirrored = b.op(Mul, [b.op(Sub, [b.const(_TABLE_SIZE, tag + '/size', I32), offset], tag + '/rest'),
                          b.const(2, tag + '/two_', I32)], tag + '/mirrored')
    entries = [b.op(Add, [twice, b.const(1, tag + '/plus1', I32)], tag + '/e0'), twice, mirrored,
               b.op(Add, [mirrored, b.const(1, tag + '/plus1_', I32)], tag + '/e3')]
    weights = [b.op(Gather, [table, entry, b.const(0, tag + '/table_axis{}'.format(k), I64)], tag + '/w{}'.format(k))
               for k, entry in enumerate(entries)]
    first = b.cast(base, I32, tag + '/base')
    last = minus_one(b, in_size, tag + '/last', I32)
    zero = b.const(0, tag + '/zero', I32)
    taps, indices = [], []
    for k in range(4):
        tap = b.op(Add, [first, b.const(k - 1, tag + '/shift{}'.format(k), I32)], tag + '/tap{}'.format(k))
        taps.append(tap)
        indices.append(clamp(b, tap, zero, last, tag + '/index{}'.format(k)))
    if half_pixel:  # Keys cubic: taps outside the image weigh 0 and the others are renormalized to sum 1
        weights = [b.op(Select, [b.op(Equal, [index, tap], tag + '/inside{}'.format(k)), weight,
                                 b.const(0, tag + '/nothing{}'.format(k), F32)], tag + '/kept{}'.format(k))
                   for k, (index, tap, weight) in enumerate(zip(indices, taps, weights))]
        total = b.op(Add, [b.op(Add, [b.op(Add, [weights[0], weights[1]], tag + '/sum01'), weights[2]],
                                tag + '/sum012'), weights[3]], tag + '/sum')
        inverse = b.op(Div, [b.const(1, tag + '/unit', F32), total], tag + '/inverse')
        weights = [b.op(Mul, [w, inverse], tag + '/normal{}'.format(k)) for k, w in enumerate(weights)]
    result = None
    for k in range(4):
        rows = b.op(Gather, [image, indices[k], b.const(axis, tag + '/gather_axis{}'.format(k), I64)],
                    tag + '/gather{}'.format(k))
        term = b.op(Mul, [rows, _along(b, weights[k], axis, tag + '/weight{}'.format(k))], tag + '/term{}'.format(k))
        result = term if result is None else b.op(Add, [result, term], tag + '/acc{}'.format(k))
    return result


def _check_flags(node: Node):
    if node.align_corners and node.half_pixel_centers:
        raise Error('{} "{}": align_corners and half_pixel_centers cannot both be true (TensorFlow refuses it too)',
                    node.soft_get('tf_op', node.op), node.soft_get('name', node.id))


class ResizeBicubicLowering(OpRule):
    """ResizeBicubic(images, size): per image axis (rows, then columns) four Gathers of the taps, weighted by TF's
    table and summed; float32 output."""
    op = 'ResizeBicubic'

    def rewrite(self, node: Node, b: Builder):
        _check_flags(node)
        image = float_input(b, node, 0, 'image')
        size = node.in_port(1)
        result = image
        for axis, name in ((1, 'rows'), (2, 'columns')):
            out_size = b.element(size, axis - 1, name + '/out_size')
            result = _cubic_axis(b, result, axis, out_size, node.align_corners, node.half_pixel_centers, name)
        return result


def _area_weights(b, in_size, out_size, align_corners: bool, tag: str):
    """The ``[out, in]`` matrix of TF's area weights along one axis (each output cell's overlap with each input
    cell, before the final division by the scales) and the scale."""
    scale = resize_scale(b, in_size, out_size, align_corners, tag + '/scale')
    position = b.unsqueeze(b.cast(arange(b, out_size, tag + '/out_range'), F32, tag + '/out_float'), [1],
                         tag + '/column')
    low = b.op(Mul, [position, scale], tag + '/low')
    high = b.op(Mul, [b.op(Add, [position, b.const(1, tag + '/one', F32)], tag + '/next'), scale], tag + '/high')
    # cells up to 2 * in + 1: an aligned resize reads past the image, and TF bounds those cells to the last one
    cells_count = b.op(Add, [b.op(Mul, [in_size, b.const(2, tag + '/two', I32)], tag + '/twice'),
                             b.const(1, tag + '/plus', I32)], tag + '/cells_count')
    cells_int = arange(b, cells_count, tag + '/cells_range')
    cell = b.cast(cells_int, F32, tag + '/cells')
    cell_end = b.op(Add, [cell, b.const(1, tag + '/one_', F32)], tag + '/cell_end')
    starts_before = b.op(Less, [cell, low], tag + '/starts_before')
    ends_after = b.op(Greater, [cell_end, high], tag + '/ends_after')
    # TF's per-cell scale, term by term
    first = b.op(Select, [ends_after, scale, b.op(Sub, [cell_end, low], tag + '/tail')], tag + '/first')
    later = b.op(Select, [ends_after, b.op(Sub, [high, cell], tag + '/head'), b.const(1, tag + '/full', F32)],
                 tag + '/later')
    weight = b.op(Select, [starts_before, first, later], tag + '/weight')
    inside = b.op(LogicalAnd, [b.op(GreaterEqual, [cell, floor(b, low, tag + '/start')], tag + '/from'),
                               b.op(Less, [cell, ceil(b, high, tag + '/end')], tag + '/to')], tag + '/inside')
    weight = b.op(Select, [inside, weight, b.const(0, tag + '/none', F32)], tag + '/cell_weights')
    bounded = clamp(b, cells_int, b.const(0, tag + '/zero', I32), minus_one(b, in_size, tag + '/last', I32),
                    tag + '/bounded')
    pixels = b.unsqueeze(arange(b, in_size, tag + '/pixels'), [0], tag + '/row')
    onto = b.cast(b.op(Equal, [b.unsqueeze(bounded, [1], tag + '/bounded_column'), pixels], tag + '/onto_eq'),
                F32, tag + '/onto')
    return b.op(MatMul, [weight, onto], tag + '/matrix'), scale


class ResizeAreaLowering(OpRule):
    """ResizeArea(images, size) = A_h @ images @ A_w^T / (scale_h * scale_w): MatMul with each axis's matrix of
    TF's cell overlaps (columns first, as TF sums a row's cells before the rows); float32 output."""
    op = 'ResizeArea'

    def rewrite(self, node: Node, b: Builder):
        image = float_input(b, node, 0, 'image')
        size = node.in_port(1)
        matrices, scales = [], []
        for axis, name in ((1, 'rows'), (2, 'columns')):
            matrix, scale = _area_weights(b, dim(b, image, axis, name + '/in_size'),
                                          b.element(size, axis - 1, name + '/out_size'), node.align_corners, name)
            matrices.append(matrix)
            scales.append(scale)
        columns = b.op(MatMul, [matrices[1], image], 'columns/resized')  # [B, H, out_w, C]
        rows = b.op(MatMul, [matrices[0], b.transpose(columns, [0, 2, 1, 3], 'rows/swapped')], 'rows/resized')
        summed = b.transpose(rows, [0, 2, 1, 3], 'summed')
        area = b.op(Mul, scales, 'area')
        return b.op(Mul, [summed, b.op(Div, [b.const(1, 'one', F32), area], 'inverse_area')], 'resized')


def _crop_positions(b, low, high, image_size, count, count_value, tag: str):
    """Where TF's CropAndResize samples one axis: ``[boxes, count]`` floats, from the box edges ``low``/``high``
    ([boxes]), the image size and the crop size along it (``count_value`` when constant)."""
    span = b.cast(minus_one(b, image_size, tag + '/last', I32), F32, tag + '/span')
    centre = b.op(Mul, [b.op(Mul, [b.op(Add, [low, high], tag + '/sum'), b.const(0.5, tag + '/half', F32)],
                                tag + '/mid'), span], tag + '/centre')
    single = b.unsqueeze(centre, [1], tag + '/single')
    if count_value == 1:
        return single
    steps = b.cast(minus_one(b, count, tag + '/steps_int', I32), F32, tag + '/steps')
    scale = b.op(Div, [b.op(Mul, [b.op(Sub, [high, low], tag + '/extent'), span], tag + '/extent_px'), steps],
                 tag + '/scale')
    start = b.unsqueeze(b.op(Mul, [low, span], tag + '/start'), [1], tag + '/start_column')
    offsets = b.op(Mul, [b.unsqueeze(b.cast(arange(b, count, tag + '/range'), F32, tag + '/range_float'), [0],
                                   tag + '/range_row'),
                         b.unsqueeze(scale, [1], tag + '/scale_column')], tag + '/offsets')
    spread = b.op(Add, [start, offsets], tag + '/spread')
    if count_value is not None:
        return spread
    longer = b.op(Greater, [count, b.const(1, tag + '/one', I32)], tag + '/longer')
    return b.op(Select, [longer, spread, single], tag)


class CropAndResizeLowering(OpRule):
    """CropAndResize(image, boxes, box_ind, crop_size): sampling positions as TF computes them, pixels gathered
    from the image flattened to [B * H * W, C], bilinear lerp (TF's order) or the nearest pixel (rounding half away
    from zero), extrapolation_value outside the image; float32 output."""
    op = 'CropAndResize'

    def rewrite(self, node: Node, b: Builder):
        image = float_input(b, node, 0, 'image')
        boxes, box_index, crop_size = node.in_port(1), node.in_port(2), node.in_port(3)
        crop_value = constant_input(node, 3)
        crop_value = None if crop_value is None else [int(v) for v in np.ravel(crop_value)]
        height, width = dim(b, image, 1, 'height'), dim(b, image, 2, 'width')
        corners = [column(b, boxes, k, name) for k, name in enumerate(('y1', 'x1', 'y2', 'x2'))]
        axes = []
        for axis, (low, high, size, name) in enumerate(((corners[0], corners[2], height, 'rows'),
                                                        (corners[1], corners[3], width, 'columns'))):
            count = b.element(crop_size, axis, name + '/count')
            positions = _crop_positions(b, low, high, size, count, None if crop_value is None else crop_value[axis],
                                        name)
            span = b.cast(minus_one(b, size, name + '/last_px', I32), F32, name + '/last_float')
            inside = b.op(LogicalAnd, [b.op(GreaterEqual, [positions, b.const(0, name + '/zero', F32)], name + '/ge0'),
                                       b.op(LessEqual, [positions, span], name + '/le_last')], name + '/inside')
            axes.append((positions, inside, size))
        pixels = b.op(Reshape, [image, b.op(Concat, [b.const([-1], 'pixels/all', I32),
                                                     b.unsqueeze(dim(b, image, 3, 'depth'), [0], 'pixels/depth')],
                                            'pixels/shape', axis=0)], 'pixels')
        first_row = b.unsqueeze(b.op(Mul, [box_index, height], 'first_row'), [1], 'first_row_column')

        def sample(row_positions, column_positions, tag):
            """image[box_ind, rows, columns] for integer-valued float positions (clamped inside the image), one
            Gather of the image's pixels (OpenVINO's CPU plugin crashes on some Gathers with batch_dims)."""
            rows = clamp(b, b.cast(row_positions, I32, tag + '/row_int'), b.const(0, tag + '/row_zero', I32),
                         minus_one(b, height, tag + '/row_last', I32), tag + '/row')
            columns = clamp(b, b.cast(column_positions, I32, tag + '/col_int'), b.const(0, tag + '/col_zero', I32),
                            minus_one(b, width, tag + '/col_last', I32), tag + '/col')
            row_start = b.op(Mul, [b.op(Add, [first_row, rows], tag + '/image_row'), width], tag + '/row_start')
            index = b.op(Add, [b.unsqueeze(row_start, [2], tag + '/row_start_3d'),
                               b.unsqueeze(columns, [1], tag + '/col_3d')], tag + '/pixel')
            return b.op(Gather, [pixels, index, b.const(0, tag + '/axis', I64)], tag)

        (y, y_inside, _), (x, x_inside, _) = axes
        if node.method == 'nearest':
            result = sample(b.op(Round, [y], 'nearest_y', mode='half_away_from_zero'),
                            b.op(Round, [x], 'nearest_x', mode='half_away_from_zero'), 'nearest')
        else:
            top, bottom = floor(b, y, 'top'), ceil(b, y, 'bottom')
            left, right = floor(b, x, 'left'), ceil(b, x, 'right')
            y_lerp = b.unsqueeze(b.op(Sub, [y, top], 'y_lerp'), [2, 3], 'y_lerp_4d')
            x_lerp = b.unsqueeze(b.op(Sub, [x, left], 'x_lerp'), [1, 3], 'x_lerp_4d')

            def lerp(a, c, weight, tag):
                return b.op(Add, [a, b.op(Mul, [b.op(Sub, [c, a], tag + '/diff'), weight], tag + '/step')], tag)
            upper = lerp(sample(top, left, 'top_left'), sample(top, right, 'top_right'), x_lerp, 'upper')
            lower = lerp(sample(bottom, left, 'bottom_left'), sample(bottom, right, 'bottom_right'), x_lerp, 'lower')
            result = lerp(upper, lower, y_lerp, 'bilinear')
        inside = b.op(LogicalAnd, [b.unsqueeze(y_inside, [2, 3], 'rows/inside_4d'),
                                   b.unsqueeze(x_inside, [1, 3], 'columns/inside_4d')], 'inside')
        return b.op(Select, [inside, result, b.const(node.extrapolation_value, 'extrapolation', F32)], 'crops')


class AdjustContrastLowering(OpRule):
    """AdjustContrastv2(images, factor) = (x - mean) * factor + mean, the mean over the image axes (-3, -2) per
    channel (half images computed in float, as TF)."""
    op = 'AdjustContrastv2'

    def rewrite(self, node: Node, b: Builder):
        dtype = np.dtype(node.soft_get('data_type', None) or F32)
        images = float_input(b, node, 0, 'images')
        mean = b.op(ReduceMean, [images, b.const([-3, -2], 'axes', I64)], 'mean', keep_dims=True)
        centred = b.op(Sub, [images, mean], 'centred')
        result = b.op(Add, [b.op(Mul, [centred, node.in_port(1)], 'scaled'), mean], 'adjusted')
        return result if dtype == F32 else b.cast(result, dtype, 'result')
