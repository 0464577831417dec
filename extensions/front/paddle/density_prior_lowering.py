"""Paddle's ``density_prior_box`` (the internal op ``PaddleDensityPriorBox`` of ``detection_ext.py``) as
elementwise formulas over the feature map's grid.

Paddle's priors of cell (h, w), centre ``((w + offset) * step_w, (h + offset) * step_h)`` (the steps the image's
size over the feature map's when not given): for each fixed size s with density d, each fixed ratio r, each
(i, j) of a d x d grid, the box of width ``s * sqrt(r)`` and height ``s / sqrt(r)`` centred ``(j + 1/2) * t -
a / 2`` right of and ``(i + 1/2) * t - a / 2`` below the cell's centre, ``a = int((step_w + step_h) / 2)`` and the
shift ``t = int(a / d)`` (an integer: Paddle divides integers); its corners over the image's width and height,
clamped to [0, 1]. Boxes and Variances are ``[H, W, priors, 4]`` (``[H * W * priors, 4]`` with flatten_to_2d).
"""
import numpy as np

from mo.front.common.nn_formulas import I64
from extensions.front.paddle.detection_lowering import _dim, _outputs, _port
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Floor
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Maximum, Minimum, Mul, Sub
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.unsqueeze import Unsqueeze

F32 = np.float32


def prior_constants(node: Node):
    """Per prior, in Paddle's order: its density, its column and row in the density grid plus 1/2, and its half
    width and height."""
    density, column, row, half_w, half_h = [], [], [], [], []
    for size, count in zip(node.fixed_size, node.density):
        for ratio in node.fixed_ratio:
            for i in range(count):
                for j in range(count):
                    density.append(count)
                    column.append(j + 0.5)
                    row.append(i + 0.5)
                    half_w.append(size * np.sqrt(ratio) / 2)
                    half_h.append(size / np.sqrt(ratio) / 2)
    return [np.array(v, F32) for v in (density, column, row, half_w, half_h)]


class PaddleDensityPriorBoxLowering(OpRule):
    """density_prior_box(Input, Image) -> Boxes, Variances (see the module docstring)."""
    op = 'PaddleDensityPriorBox'

    def rewrite(self, node: Node, b: Builder):
        feature, image = _port(node, 'Input'), _port(node, 'Image')
        height, width = _dim(b, feature, 2, 'h', I64), _dim(b, feature, 3, 'w', I64)
        img_h, img_w = _dim(b, image, 2, 'img_h'), _dim(b, image, 3, 'img_w')
        h_f = b.op(Convert, [height], 'h_f32', dst_type=np.dtype(F32))
        w_f = b.op(Convert, [width], 'w_f32', dst_type=np.dtype(F32))
        if node.step_w > 0 and node.step_h > 0:
            step_w, step_h = b.const([node.step_w], 'step_w', F32), b.const([node.step_h], 'step_h', F32)
            average = b.const([float(int((node.step_w + node.step_h) * 0.5))], 'step_average', F32)
        else:
            step_w = b.op(Div, [img_w, w_f], 'step_w')
            step_h = b.op(Div, [img_h, h_f], 'step_h')
            average = b.op(Floor, [b.op(Mul, [b.op(Add, [step_w, step_h], 'step_sum'),
                                              b.const(0.5, 'half', F32)], 'step_mean')], 'step_average')
        density, column, row, half_w, half_h = prior_constants(node)
        count = len(density)
        shift = b.op(Floor, [b.op(Div, [average, b.const(density, 'density', F32)], 'shift_exact')], 'shift')
        back = b.op(Mul, [average, b.const(-0.5, 'minus_half', F32)], 'half_average')
        off_x = b.op(Add, [back, b.op(Mul, [shift, b.const(column, 'column', F32)], 'shift_x')], 'off_x')
        off_y = b.op(Add, [back, b.op(Mul, [shift, b.const(row, 'row', F32)], 'shift_y')], 'off_y')

        def centres(size, step, shape, tag):
            """``(k + offset) * step`` for k < size, shaped ``shape`` (the grid axis and the priors')."""
            scalar = b.op(Reshape, [size, b.const([], tag + '/scalar', I64)], tag + '/stop')
            k = b.op(Convert, [b.op(Range, [b.const(np.array(0, I64), tag + '/start', I64), scalar,
                                            b.const(np.array(1, I64), tag + '/one', I64)], tag + '/range',
                                    output_type=np.dtype(I64))], tag + '/k', dst_type=np.dtype(F32))
            centre = b.op(Mul, [b.op(Add, [k, b.const(node.offset, tag + '/offset', F32)], tag + '/shifted'), step],
                          tag + '/centre')
            return b.op(Reshape, [centre, b.const(shape, tag + '/shape', I64)], tag)

        cx = centres(width, step_w, [1, -1, 1], 'cx')  # [1, W, 1]
        cy = centres(height, step_h, [-1, 1, 1], 'cy')  # [H, 1, 1]
        px = b.op(Add, [cx, off_x], 'px')  # [1, W, P]
        py = b.op(Add, [cy, off_y], 'py')  # [H, 1, P]
        zero, one = b.const(0.0, 'zero', F32), b.const(1.0, 'one', F32)
        hw, hh = b.const(half_w, 'half_w', F32), b.const(half_h, 'half_h', F32)
        corners = [b.op(Maximum, [b.op(Div, [b.op(Sub, [px, hw], 'x1_px'), img_w], 'x1_n'), zero], 'x1'),
                   b.op(Maximum, [b.op(Div, [b.op(Sub, [py, hh], 'y1_px'), img_h], 'y1_n'), zero], 'y1'),
                   b.op(Minimum, [b.op(Div, [b.op(Add, [px, hw], 'x2_px'), img_w], 'x2_n'), one], 'x2'),
                   b.op(Minimum, [b.op(Div, [b.op(Add, [py, hh], 'y2_px'), img_h], 'y2_n'), one], 'y2')]
        grid = b.op(Concat, [height, width, b.const([count], 'priors', I64)], 'grid_shape', axis=0,
                    in_ports_count=3)
        columns = [b.op(Unsqueeze, [b.op(Broadcast, [c, grid], 'c{}/full'.format(k)),
                                    b.const([3], 'c{}/axis'.format(k), I64)], 'c{}'.format(k))
                   for k, c in enumerate(corners)]
        boxes = b.op(Concat, columns, 'boxes', axis=3, in_ports_count=4)
        if node.clip:
            boxes = b.op(Minimum, [b.op(Maximum, [boxes, zero], 'clip_low'), one], 'boxes_clipped')
        variances = b.op(Broadcast, [b.const(np.array(node.variance, F32), 'variance', F32),
                                     b.op(Concat, [grid, b.const([4], 'four', I64)], 'var_shape', axis=0)],
                         'variances')
        if node.flatten_to_2d:
            boxes = b.op(Reshape, [boxes, b.const([-1, 4], 'flat', I64)], 'boxes_2d')
            variances = b.op(Reshape, [variances, b.const([-1, 4], 'var_flat', I64)], 'variances_2d')
        return _outputs(node, {'Boxes': boxes, 'Variances': variances})
