"""Paddle's interpolate ops (the internal op ``PaddleInterpolate`` of ``interp_ext.py``) as Interpolate-11.

Interpolate's ``sizes`` mode maps coordinates with ``in / out`` and its ``scales`` mode with ``1 / scale``,
which are exactly Paddle's two ratios: sizes from ``SizeTensor``/``OutSize``/``out_*`` (and, for the ``_v1`` ops,
from ``int(in * scale)``), scales from a ``Scale`` tensor or the ``_v2`` ``scale`` attribute. The spatial axes
are given on input 2, so NHWC needs no Transposes.
"""
import numpy as np

from mo.front.common.nn_formulas import I64, axes_from
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Floor
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.interpolate import Interpolate
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.utils.error import Error

F32 = np.float32


def slot_ports(node: Node, slot: str):
    """The connected input ports of Paddle input ``slot`` of ``node``, in order (``[]`` when it has none)."""
    ports = (node.soft_get('in_slots', None) or {}).get(slot, [])
    return [port for port in ports if node.is_in_port_connected(port)]


def as_i64_vector(b: Builder, parts, tag: str):
    """The int64 vector made of ``parts`` (ports of int scalars or 1-element tensors, each of any int type: a
    SizeTensor list mixes int32 constants and int64 sizes read from a shape)."""
    flat = [b.op(Convert, [b.op(Reshape, [part, b.const([1], '{}{}/shape'.format(tag, i), I64)],
                                '{}{}/flat'.format(tag, i))], '{}{}'.format(tag, i), dst_type=np.dtype(I64))
            for i, part in enumerate(parts)]
    return flat[0] if len(flat) == 1 else b.op(Concat, flat, tag, axis=0, in_ports_count=len(flat))


class PaddleInterpolateLowering(OpRule):
    """PaddleInterpolate(X, OutSize, SizeTensor..., Scale) = Interpolate-11(X, sizes or scales, spatial axes),
    the coordinate and nearest modes as ``interp_ext.py`` chose them."""
    op = 'PaddleInterpolate'

    def rewrite(self, node: Node, b: Builder):
        x_ports = slot_ports(node, 'X') or [0]
        x = node.in_port(x_ports[0])
        spatial = int(node.spatial)
        # NCHW: [2, ..., rank - 1]; NHWC: [1, ..., rank - 2] (constants once the rank is known)
        if node.layout == 'NCHW':
            axes = axes_from(b, x, 2, 'axes')
        else:
            axes = axes_from(b, x, 1, 'axes', stop_offset=-1)
        attrs = dict(mode=node.mode, coordinate_transformation_mode=node.coordinate_transformation_mode,
                     nearest_mode=node.nearest_mode, cube_coeff=-0.75, antialias=False)
        size_tensors, out_size, scale = (slot_ports(node, slot) for slot in ('SizeTensor', 'OutSize', 'Scale'))
        if size_tensors:
            target, mode = as_i64_vector(b, [node.in_port(p) for p in size_tensors], 'size_tensor'), 'sizes'
        elif out_size:
            target = b.op(Convert, [node.in_port(out_size[0])], 'out_size', dst_type=np.dtype(I64))
            mode = 'sizes'
        elif scale:  # one value for every axis, or one per axis
            as_f32 = b.op(Convert, [node.in_port(scale[0])], 'scale_f32', dst_type=np.dtype(F32))
            target = b.op(Broadcast, [as_f32, b.const([spatial], 'scale_count', I64)], 'scales')
            mode = 'scales' if not node.v1 else self._v1_sizes(b, x, axes, target)
        elif len(node.scales_attr) in (1, spatial) and all(s > 0 for s in node.scales_attr):
            scales = np.broadcast_to(np.array(node.scales_attr, F32), [spatial]).copy()
            if node.v1:
                target, mode = self._v1_sizes(b, x, axes, b.const(scales, 'scale_attr', F32)), 'sizes'
            else:
                target, mode = b.const(scales, 'scales', F32), 'scales'
        elif all(s > 0 for s in node.sizes_attr):
            if 1 in node.sizes_attr and node.coordinate_transformation_mode == 'half_pixel' and \
                    node.mode != 'nearest':
                return self._to_one(node, b, x, spatial)
            target, mode = b.const(np.array(node.sizes_attr, I64), 'sizes', I64), 'sizes'
        else:
            raise Error('{} "{}" has no output size: no SizeTensor, OutSize or Scale input, and neither its scale '
                        'nor its out_d/out_h/out_w attributes are positive', node.soft_get('paddle_op'), b.name)
        if isinstance(mode, Node):  # a _v1 op with a Scale tensor: sizes computed from it
            target, mode = mode, 'sizes'
        attrs['shape_calculation_mode'] = mode
        return b.op(Interpolate, [x, target, axes], 'interpolate', **attrs)

    @staticmethod
    def _to_one(node: Node, b: Builder, x, spatial: int):
        """Constant sizes with a 1 in the half-pixel linear or cubic modes: Paddle's ratio is 0 along that axis, so
        it samples at -0.5 clamped to 0 (linear: the first row) or at -0.5 unclamped (cubic: rows 0, 0, 0, 1 with
        Keys' weights at 1/2: ``1.09375 * row 0 - 0.09375 * row 1``), where Interpolate would take the centre.
        Those axes are done with Gathers, the others by Interpolate."""
        first = 2 if node.layout == 'NCHW' else 1
        axes = [first + k for k in range(spatial)]
        rest = []
        for axis, size in zip(axes, node.sizes_attr):
            if size != 1:
                rest.append((axis, size))
                continue
            tag = 'axis{}'.format(axis)
            row0 = b.op(Gather, [x, b.const([0], tag + '/first', I64), b.const(axis, tag + '/axis', I64)],
                        tag + '/row0')
            if node.mode != 'cubic':
                x = row0
                continue
            last = b.op(Sub, [b.op(Gather, [b.op(ShapeOf, [x], tag + '/shape'), b.const([axis], tag + '/dim', I64),
                                            b.const(0, tag + '/dim_axis', I64)], tag + '/size'),
                              b.const([1], tag + '/one', I64)], tag + '/last')
            second = b.op(Minimum, [b.const([1], tag + '/second_index', I64), last], tag + '/second')
            row1 = b.op(Gather, [x, second, b.const(axis, tag + '/axis1', I64)], tag + '/row1')
            x = b.op(Sub, [b.op(Mul, [row0, b.const(1.09375, tag + '/w0', F32)], tag + '/weighted0'),
                           b.op(Mul, [row1, b.const(0.09375, tag + '/w1', F32)], tag + '/weighted1')], tag + '/cubic')
        if not rest:
            return x
        return b.op(Interpolate, [x, b.const(np.array([s for _, s in rest], I64), 'sizes', I64),
                                  b.const(np.array([a for a, _ in rest], I64), 'rest_axes', I64)], 'interpolate',
                    mode=node.mode, coordinate_transformation_mode='half_pixel', nearest_mode=node.nearest_mode,
                    cube_coeff=-0.75, antialias=False, shape_calculation_mode='sizes')

    @staticmethod
    def _v1_sizes(b: Builder, x, axes, scales):
        """``int(in * scale)`` along ``axes``: the ``_v1`` ops take the size from the scale, then the ratio
        ``in / out`` from the size."""
        dims = b.op(Gather, [b.op(ShapeOf, [x], 'shape'), axes, b.const(0, 'gather_axis', I64)], 'spatial_dims')
        scaled = b.op(Mul, [b.op(Convert, [dims], 'spatial_f32', dst_type=np.dtype(F32)), scales], 'scaled')
        return b.op(Convert, [b.op(Floor, [scaled], 'floor')], 'v1_sizes', dst_type=np.dtype(I64))
