"""ONNX's Resize and Upsample (the internal op ``ONNXResize`` of ``resize_ext.py``) as Interpolate-11."""
import numpy as np

from extensions.front.onnx.crop_resize import resize_by_gathers
from mo.front.common.nn_formulas import I64, rank
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Floor
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Mul
from mo.ops.gather import Gather
from mo.ops.nn_ops import Interpolate
from mo.ops.range import Range
from mo.ops.reduce import ReduceMax, ReduceMin
from mo.ops.shapeof import ShapeOf
from mo.utils.error import Error

F32 = np.float32


def _const_value(node: Node, port: int):
    """The value of a constant input (None when unconnected or computed)."""
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    return source.soft_get('value', None) if source.soft_get('op') == 'Const' else None


def _given(node: Node, port: int) -> bool:
    """True when input ``port`` is connected to something other than an empty constant (ONNX's "not given")."""
    if not node.is_in_port_connected(port):
        return False
    value = _const_value(node, port)
    return value is None or np.size(value) > 0


def _length(node: Node, port: int, rank: bool = False):
    """The length (or, with ``rank``, the rank) of an input its producer states: a constant or a graph input."""
    source = node.in_port(port).get_source().node
    if source.soft_get('op') == 'Const':
        shape = np.shape(source.value)
    elif source.soft_get('op') == 'Parameter' and source.soft_get('shape', None) is not None:
        shape = list(source.shape)
    else:
        return None
    if rank:
        return len(shape)
    return int(shape[0]) if len(shape) == 1 and int(shape[0]) >= 0 else None


def check_antialias(node: Node, b: Builder, scales_port: int, by_sizes: bool):
    """antialias only matters where linear or cubic resizing shrinks: OpenVINO's CPU Interpolate ignores it, so
    it converts only where nothing shrinks (constant scales of at least 1), else an Error."""
    if not node.soft_get('antialias', False) or node.mode == 'nearest':
        return
    scales = None if by_sizes else _const_value(node, scales_port)
    if scales is None or np.any(np.ravel(scales) < 1):
        raise Error('Resize "{}": antialias=1 is supported only for constant scales of at least 1 (the runtime\'s '
                    'Interpolate does not antialias when downscaling)', b.name)


class ONNXResizeLowering(OpRule):
    """Resize(X, roi, scales, sizes) / Resize-10 and Upsample(X, scales) = Interpolate-11(X, scales or sizes,
    axes). keep_aspect_ratio_policy not_larger/not_smaller: sizes = floor(s * input + 0.5) along the axes, s the
    smallest/largest of sizes / input, as ONNX computes them (the runtime then maps coordinates with each axis's
    size ratio, not s). tf_crop_and_resize, and half_pixel_symmetric with scales that are not constant integers:
    Gathers axis by axis (``crop_resize.py``)."""
    op = 'ONNXResize'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        if node.onnx_version == 10:
            scales_port, sizes_port = 1, None
        else:
            scales_port, sizes_port = 2, 3
        axes = b.const(np.array(node.axes, I64), 'axes') if node.has_valid('axes') else None
        by_sizes = sizes_port is not None and _given(node, sizes_port)
        mode = node.mode
        if mode == 'linear':
            mode = 'linear_onnx'
        coordinates = node.coordinate_transformation_mode
        if coordinates == 'half_pixel_symmetric' and not by_sizes:
            # it is half_pixel where out = in * scale: with sizes (the scale is out / in) or integer scales
            scales = _const_value(node, scales_port)
            if scales is None or np.any(np.ravel(scales) != np.round(np.ravel(scales))):
                return self._by_gathers(node, b, scales_port, sizes_port, by_sizes)
        if coordinates == 'tf_crop_and_resize':
            return self._by_gathers(node, b, scales_port, sizes_port, by_sizes)
        if coordinates == 'half_pixel_symmetric':
            coordinates = 'half_pixel'
        check_antialias(node, b, scales_port, by_sizes)
        attrs = dict(mode=mode, coordinate_transformation_mode=coordinates, nearest_mode=node.nearest_mode,
                     cube_coeff=float(node.soft_get('cube_coeff', -0.75)),
                     antialias=False)
        if by_sizes:
            sizes = node.in_port(sizes_port)
            if node.soft_get('keep_aspect_ratio_policy', 'stretch') != 'stretch':
                sizes = self._keep_aspect_ratio(node, b, sizes, axes)
            target, attrs['shape_calculation_mode'] = sizes, 'sizes'
        elif node.has_valid('scales_attr'):
            target, attrs['shape_calculation_mode'] = b.const(np.array(node.scales_attr, F32), 'scales'), 'scales'
        elif _given(node, scales_port):
            target, attrs['shape_calculation_mode'] = node.in_port(scales_port), 'scales'
        else:
            raise Error('{} "{}" has neither scales nor sizes', 'Resize' if node.onnx_version else 'Upsample', b.name)
        return b.op(Interpolate, [x, target, axes], 'interpolate', **attrs)

    @staticmethod
    def _by_gathers(node: Node, b: Builder, scales_port: int, sizes_port: int, by_sizes: bool):
        port = sizes_port if by_sizes else scales_port
        count = _length(node, port)
        rank = _length(node, 0, rank=True)
        axes = list(node.axes) if node.has_valid('axes') else (None if count is None else list(range(count)))
        if axes is None or rank is None:
            raise Error('Resize "{}": {} needs inputs of known rank and sizes/scales of known length', b.name,
                        node.coordinate_transformation_mode)
        axes = [a + rank if a < 0 else a for a in axes]
        return resize_by_gathers(node, b, rank, axes, node.in_port(port), by_sizes)

    @staticmethod
    def _keep_aspect_ratio(node: Node, b: Builder, sizes, axes):
        x = node.in_port(0)
        if axes is None:
            axes = b.op(Range, [b.const(0, 'axes/start', I64), rank(b, x, 'rank'), b.const(1, 'axes/step', I64)],
                        'all_axes', output_type=np.dtype(I64))
        shape = b.op(ShapeOf, [x], 'shape')
        spatial = b.op(Convert, [b.op(Gather, [shape, axes, b.const(0, 'gather_axis', I64)], 'input_sizes')],
                       'input_sizes_f32', dst_type=np.dtype(F32))
        ratios = b.op(Div, [b.op(Convert, [sizes], 'sizes_f32', dst_type=np.dtype(F32)), spatial], 'ratios')
        reduce = ReduceMin if node.keep_aspect_ratio_policy == 'not_larger' else ReduceMax
        scale = b.op(reduce, [ratios, b.const([0], 'reduce_axis', I64)], 'scale', keep_dims=False)
        scaled = b.op(Add, [b.op(Mul, [spatial, scale], 'scaled'), b.const(0.5, 'half', F32)], 'scaled_half')
        return b.op(Convert, [b.op(Floor, [scaled], 'rounded')], 'kept_sizes', dst_type=np.dtype(I64))
