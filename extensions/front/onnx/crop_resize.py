"""Resize with the coordinate transformations Interpolate does not have, linear or nearest, one axis at a time as
ONNX's reference resizes: output pixel ``x`` reads the input at

    tf_crop_and_resize:    start * (in - 1) + x * (end - start) * (in - 1) / (out - 1)
                           (start + (end - start) / 2) * (in - 1) when out is 1; start, end from roi
    half_pixel_symmetric:  in / 2 * (1 - out / (scale * in)) + (x + 0.5) / scale - 0.5

blending its two neighbours (linear) or taking the nearest (nearest_mode), clamped to the input; tf_crop_and_resize
gives extrapolation_value where the coordinate falls outside [0, in - 1].
"""
import numpy as np

from mo.front.common.nn_formulas import I64, like
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.ops.activation_ops import Ceiling, Floor
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Add, Div, Greater, Less, LogicalOr, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.utils.error import Error

F32 = np.float32


def _scalar(b, vector, index: int, tag: str):
    return b.op(Gather, [vector, b.const(index, tag + '/index', I64), b.const(0, tag + '/axis', I64)], tag)


def resize_by_gathers(node: Node, b: Builder, rank: int, axes, target, by_sizes: bool):
    """The node's result: ``x`` of ``rank`` dimensions resized along ``axes`` (ints) to ``target`` (sizes, or
    scales of the input's sizes): tf_crop_and_resize (reading roi, input 1, and ``extrapolation_value``) or
    half_pixel_symmetric (by scales)."""
    crop = node.coordinate_transformation_mode == 'tf_crop_and_resize'
    if node.mode not in ('linear', 'nearest'):
        raise Error('Resize "{}": {} is supported for the linear and nearest modes', b.name,
                    node.coordinate_transformation_mode)
    if crop and not node.is_in_port_connected(1):
        raise Error('Resize "{}": tf_crop_and_resize needs the roi input', b.name)
    x = node.in_port(0)
    roi = b.op(Convert, [node.in_port(1)], 'roi_f32', dst_type=np.dtype(F32)) if crop else None
    shape = b.op(ShapeOf, [x], 'input_shape')
    result = x
    for i, axis in enumerate(axes):
        tag = 'axis_{}'.format(axis)
        in_size = b.op(Convert, [_scalar(b, shape, axis, tag + '/in_size')], tag + '/in_f32', dst_type=np.dtype(F32))
        wanted = _scalar(b, target, i, tag + '/target')
        if by_sizes:
            out_size = b.op(Convert, [wanted], tag + '/out', dst_type=np.dtype(I64))
        else:
            scaled = b.op(Floor, [b.op(Mul, [in_size, b.op(Convert, [wanted], tag + '/scale', dst_type=np.dtype(F32))],
                                       tag + '/scaled')], tag + '/floor')
            out_size = b.op(Convert, [scaled], tag + '/out', dst_type=np.dtype(I64))
        last = b.op(Sub, [in_size, b.const(1.0, tag + '/one', F32)], tag + '/last')
        out_f = b.op(Convert, [out_size], tag + '/out_f32', dst_type=np.dtype(F32))
        index = b.op(Range, [b.const(0.0, tag + '/first', F32), out_f, b.const(1.0, tag + '/unit', F32)],
                     tag + '/index', output_type=np.dtype(F32))
        if roi is None:
            coords, outside = _symmetric_coordinates(b, index, in_size, out_f, wanted, tag)
        else:
            coords, outside = _crop_coordinates(b, index, roi, i, len(axes), last, out_f, tag)
        clamped = b.op(Minimum, [b.op(Maximum, [coords, b.const(0.0, tag + '/low_', F32)], tag + '/at_least'), last],
                       tag + '/clamped')
        along = b.const(axis, tag + '/gather_axis', I64)
        column = [-1 if d == axis else 1 for d in range(rank)]
        column = b.const(np.array(column, I64), tag + '/column_shape')
        if node.mode == 'linear':
            low = b.op(Floor, [clamped], tag + '/low_coord')
            high = b.op(Minimum, [b.op(Add, [low, b.const(1.0, tag + '/next', F32)], tag + '/high_raw'), last],
                        tag + '/high_coord')
            weight = b.op(ConvertLike, [b.op(Reshape, [b.op(Sub, [clamped, low], tag + '/frac'), column],
                                             tag + '/frac_column'), x], tag + '/weight')
            low_values = b.op(Gather, [result, b.op(Convert, [low], tag + '/low_i', dst_type=np.dtype(I64)), along],
                              tag + '/low_values')
            high_values = b.op(Gather, [result, b.op(Convert, [high], tag + '/high_i', dst_type=np.dtype(I64)),
                                        along], tag + '/high_values')
            values = b.op(Add, [low_values, b.op(Mul, [b.op(Sub, [high_values, low_values], tag + '/rise'), weight],
                                                 tag + '/climb')], tag + '/linear')
        else:
            nearest = _nearest(b, clamped, node.nearest_mode, tag)
            values = b.op(Gather, [result, b.op(Convert, [nearest], tag + '/nearest_i', dst_type=np.dtype(I64)),
                                   along], tag + '/nearest')
        if outside is None:
            result = values
            continue
        outside = b.op(Reshape, [outside, column], tag + '/outside_column')
        result = b.op(Select, [outside, like(b, node.extrapolation_value, x, tag + '/extrapolation'), values],
                      tag + '/resized')
    return result


def _crop_coordinates(b, index, roi, i: int, count: int, last, out_f, tag: str):
    """tf_crop_and_resize: (coordinates, whether each is outside the input)."""
    start = b.op(Mul, [_scalar(b, roi, i, tag + '/roi_start'), last], tag + '/start')
    length = b.op(Mul, [b.op(Sub, [_scalar(b, roi, count + i, tag + '/roi_end'),
                                       _scalar(b, roi, i, tag + '/roi_start_')], tag + '/roi_length'), last],
                      tag + '/length')
    several = b.op(Greater, [out_f, b.const(1.0, tag + '/one_', F32)], tag + '/several')
    denominator = b.op(Maximum, [b.op(Sub, [out_f, b.const(1.0, tag + '/one__', F32)], tag + '/out_last'),
                                 b.const(1.0, tag + '/at_least_one', F32)], tag + '/denominator')
    step = b.op(Select, [several, b.op(Div, [length, denominator], tag + '/spread'),
                         b.const(0.0, tag + '/zero', F32)], tag + '/step')
    base = b.op(Select, [several, start, b.op(Add, [start, b.op(Div, [length, b.const(2.0, tag + '/two', F32)],
                                                                  tag + '/half')], tag + '/centre')], tag + '/base')
    coords = b.op(Add, [base, b.op(Mul, [index, step], tag + '/offsets')], tag + '/coords')
    outside = b.op(LogicalOr, [b.op(Less, [coords, b.const(0.0, tag + '/low', F32)], tag + '/before'),
                               b.op(Greater, [coords, last], tag + '/after')], tag + '/outside')
    return coords, outside


def _symmetric_coordinates(b, index, in_size, out_f, scale, tag: str):
    """half_pixel_symmetric: in / 2 * (1 - out / (scale * in)) + (x + 0.5) / scale - 0.5."""
    scale = b.op(Convert, [scale], tag + '/scale_f32', dst_type=np.dtype(F32))
    half = b.const(0.5, tag + '/half', F32)
    adjustment = b.op(Div, [out_f, b.op(Mul, [scale, in_size], tag + '/scaled_in')], tag + '/adjustment')
    offset = b.op(Mul, [b.op(Mul, [in_size, half], tag + '/centre'),
                        b.op(Sub, [b.const(1.0, tag + '/one_s', F32), adjustment], tag + '/shrink')], tag + '/offset')
    position = b.op(Sub, [b.op(Div, [b.op(Add, [index, half], tag + '/pixel_centre'), scale], tag + '/in_units'),
                          half], tag + '/half_pixel')
    return b.op(Add, [offset, position], tag + '/coords'), None


def _nearest(b, coords, mode: str, tag: str):
    """The nearest input pixel of each coordinate, as ``nearest_mode`` rounds."""
    if mode == 'floor':
        return b.op(Floor, [coords], tag + '/nearest_floor')
    if mode == 'ceil':
        return b.op(Ceiling, [coords], tag + '/nearest_ceil')
    half = b.const(0.5, tag + '/half_pixel', F32)
    if mode == 'round_prefer_ceil':
        return b.op(Floor, [b.op(Add, [coords, half], tag + '/up')], tag + '/nearest_round')
    return b.op(Ceiling, [b.op(Sub, [coords, half], tag + '/down')], tag + '/nearest_round')
