"""ONNX's NonMaxSuppression, MaxUnpool, DeformConv and max-mode RoiAlign from opset ops (the internal ``ONNX*``
ops ``detection_ext`` leaves)."""
import numpy as np

from mo.front.common.nn_formulas import like, shape_tail
from mo.front.common.formula_kit import F32, I64, column
from extensions.ops.detection import DeformableConvolution
from extensions.ops.opset_tensor import ScatterElementsUpdate
from mo.front.common.rule import Builder, OpRule
from mo.ops.convert import ConvertLike
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Floor
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, GreaterEqual, LessEqual, LogicalAnd, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.non_max_suppression import NonMaxSuppression
from mo.ops.pad import Pad
from mo.ops.reduce import ReduceMax, ReduceProd, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.tensor_ops import GatherND


def _input_or(node: Node, b: Builder, port: int, value, dtype, suffix: str):
    """Input ``port`` of the node, or the constant ``value`` where ONNX's optional input is left out."""
    return node.in_port(port) if node.is_in_port_connected(port) else b.const(np.array([value], dtype), suffix, dtype)


def _next_up(b: Builder, threshold, tag: str):
    """The float32 just above ``threshold`` (float32): t + |t| * 0.75 * 2^-23 lies 0.75 to 1.5 units in the last
    place above a positive t, so it rounds to t's successor; 2^-126 (the smallest normal float) stands in for the
    step where that is smaller (t below about 1e-31, zero included: an IoU that small and above t is not a box's).
    A negative t only moves towards zero, which changes nothing: an IoU is never negative."""
    step = b.op(Mul, [b.op(Abs, [threshold], tag + '/abs'), b.const(0.75 * 2.0 ** -23, tag + '/ulp', F32)],
                tag + '/ulp_step')
    step = b.op(Maximum, [step, b.const(2.0 ** -126, tag + '/smallest', F32)], tag + '/step')
    return b.op(Add, [threshold, step], tag + '/next_up')


class ONNXNonMaxSuppressionLowering(OpRule):
    """NonMaxSuppression(boxes, scores, max_output_boxes_per_class = 0, iou_threshold = 0, score_threshold) ->
    the rows of NonMaxSuppression-9's selected_indices (int64, sorted per batch and class by score, as ONNX's)
    that hold a selection.

    The opset pads selected_indices with rows of -1 up to its largest possible size (OpenVINO's CPU plugin returns
    just the selections, other devices and releases need not), so the rows are cut to the number whose batch index
    is not negative: exactly ONNX's output on every device. (The opset's valid_outputs would say the same, but it
    is output 2 and the IR cannot leave output 1 out.) Without a score_threshold ONNX keeps every score, and the
    opset's default drops those at or below 0: -inf stands in for it. ONNX suppresses a box whose IoU is above
    iou_threshold, OpenVINO one whose IoU is at or above it: the threshold is raised to the next float32. The boxes
    go through a Reshape to [0, -1, 4]: ONNX's boxes are [batch, boxes, 4] by definition, but a shape computed at run
    time (torchvision's exports build the boxes with Reshapes to Shape-made sizes) leaves the last dimension unknown
    to OpenVINO, and its CPU plugin refuses a NonMaxSuppression whose boxes lack a static 4 there."""
    op = 'ONNXNonMaxSuppression'

    def rewrite(self, node: Node, b: Builder):
        boxes = b.op(Reshape, [node.in_port(0), b.const([0, -1, 4], 'boxes_shape', I64)], 'boxes', special_zero=True)
        inputs = [boxes, node.in_port(1),
                  _input_or(node, b, 2, 0, I64, 'max_output_boxes_per_class'),
                  _next_up(b, _input_or(node, b, 3, 0.0, F32, 'iou_threshold'), 'iou_threshold'),
                  _input_or(node, b, 4, -np.inf, F32, 'score_threshold')]
        nms = b.op(NonMaxSuppression, inputs, 'nms', box_encoding='center' if node.center_point_box else 'corner',
                   sort_result_descending=False, output_type=np.int64, in_ports_count=5)
        selected = nms.out_port(0)
        if self._selects_nothing(node):
            # its output is [0, 3] from the start (a Gather of it crashes OpenVINO's CPU plugin when compiling)
            return nms
        made = b.op(GreaterEqual, [column(b, selected, 0, 'batch_index'), b.const(0, 'no_batch', I64)], 'made')
        count = b.op(ReduceSum, [b.cast(made, I64, 'made_i64'), b.const([0], 'count/axes', I64)], 'count',
                     keep_dims=True)
        return b.op(Slice, [selected, b.const([0], 'start', I64), count, b.const([1], 'step', I64),
                            b.const([0], 'axes', I64)], 'selected_indices')

    @staticmethod
    def _selects_nothing(node: Node) -> bool:
        """max_output_boxes_per_class is left out (0) or a constant 0."""
        if not node.is_in_port_connected(2):
            return True
        source = node.in_port(2).get_source().node
        return source.soft_get('op') == 'Const' and source.has_valid('value') and not np.any(source.value)


class ONNXMaxUnpoolLowering(OpRule):
    """MaxUnpool(X, I[, output_shape]) = Reshape(ScatterElementsUpdate(zeros[prod(shape)], flat I, flat X, 0),
    shape), ``shape`` being N, C and (in - 1) * stride - pad_begin - pad_end + kernel along each spatial axis: I holds
    MaxPool's indices into the whole flattened tensor of that shape. An output_shape pads the result with zeros at
    the end of each axis up to it, as ONNX's reference (and its backend cases) do."""
    op = 'ONNXMaxUnpool'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        shape = self._default_shape(node, b, x)
        total = b.op(ReduceProd, [shape, b.const([0], 'total/axes', I64)], 'total', keep_dims=True)
        zeros = b.op(Broadcast, [like(b, 0, x, 'zero'), total], 'zeros')
        flat = b.const([-1], 'flat', I64)
        scattered = b.op(ScatterElementsUpdate, [zeros, b.op(Reshape, [node.in_port(1), flat], 'flat_indices'),
                                                 b.op(Reshape, [x, flat], 'flat_values'), b.const(0, 'axis', I64)],
                         'scattered')
        unpooled = b.op(Reshape, [scattered, shape], 'unpooled')
        if not node.is_in_port_connected(2):
            return unpooled
        wanted = b.cast(node.in_port(2), I64, 'output_shape')
        grow = b.op(Sub, [wanted, shape], 'grow')
        return b.op(Pad, [unpooled, b.op(Mul, [shape, b.const(0, 'no_pad', I64)], 'pads_begin'), grow], 'padded',
                    pad_mode='constant')

    @staticmethod
    def _default_shape(node: Node, b: Builder, x):
        kernel = np.array(node.kernel_shape, I64)
        rank = len(kernel)
        strides = np.array(node.strides if node.has_valid('strides') else [1] * rank, I64)
        pads = sum(np.array(node[attr] if node.has_valid(attr) else [0] * rank, I64)
                   for attr in ('pads_begin', 'pads_end'))
        spatial = shape_tail(b, x, 2, 'in_spatial')
        stepped = b.op(Mul, [b.op(Sub, [spatial, b.const(1, 'one', I64)], 'last'), b.const(strides, 'strides', I64)],
                       'stepped')
        out = b.op(Add, [stepped, b.const(kernel - pads, 'kernel_minus_pads', I64)], 'out_spatial')
        head = b.op(Slice, [b.op(ShapeOf, [x], 'in_shape'), b.const([0], 'head/begin', I64),
                            b.const([2], 'head/end', I64), b.const([1], 'head/step', I64)], 'head')
        return b.concat([head, out], 'shape')


class ONNXDeformConvLowering(OpRule):
    """DeformConv(X, W, offset[, B[, mask]]) = DeformableConvolution-8(X, offset, W[, mask]) + B along the channels.
    ONNX samples the offset points as GridSample does with zero padding (a point up to a pixel outside the image
    blends the pixels inside with zeros): bilinear_interpolation_pad. ONNX's offsets and mask are laid out as the
    opset's: per offset group, per kernel point, (y, x)."""
    op = 'ONNXDeformConv'

    def rewrite(self, node: Node, b: Builder):
        attrs = {attr: node[attr] for attr in ('strides', 'dilations', 'pads_begin', 'pads_end', 'kernel_shape')
                 if node.has_valid(attr)}
        mask = node.in_port(4) if node.is_in_port_connected(4) else None
        deform = b.op(DeformableConvolution, [node.in_port(0), node.in_port(2), node.in_port(1), mask], 'deform',
                      group=node.group, deformable_group=node.offset_group, bilinear_interpolation_pad=True,
                      **attrs)
        if not node.is_in_port_connected(3):
            return deform
        bias = b.op(Reshape, [node.in_port(3), b.const([1, -1, 1, 1], 'bias/shape', I64)], 'bias')
        return b.op(Add, [deform, bias], 'biased')


class ONNXRoiAlignMaxLowering(OpRule):
    """RoiAlign in max mode, as ONNX defines it: for each bin the largest of the *weighted corner values* w * x of
    the bilinear interpolation at its ``sampling_ratio`` x ``sampling_ratio`` sample points (not the largest
    interpolated value, which is what ROIAlign-9's max mode takes). Per ROI and axis the sample coordinates are
    start + (bin + (i + 0.5) / grid) * bin_size; a coordinate below -1 or past the size weighs 0, the others are
    clamped to [0, size - 1] and read from their two neighbours. The corners are gathered from the data laid out
    [N, H, W, C] (GatherND by (batch, y, x)), so a ROI reads its sample points, not its whole feature map."""
    op = 'ONNXRoiAlignMax'

    def rewrite(self, node: Node, b: Builder):
        data, rois = node.in_port(0), node.in_port(1)
        grid = int(node.sampling_ratio)
        shape = b.op(ShapeOf, [data], 'data_shape')
        ys = self._axis(node, b, rois, 1, self._size(b, shape, 2, 'height'), int(node.pooled_h), grid, 'y')
        xs = self._axis(node, b, rois, 0, self._size(b, shape, 3, 'width'), int(node.pooled_w), grid, 'x')
        # [R, Sy, 1, 1] and [R, 1, Sx, 1]: the corners of every sample point broadcast to [R, Sy, Sx, 1]
        ys = [b.unsqueeze(t, [2, 3], 'y/{}_grid'.format(i)) for i, t in enumerate(ys)]
        xs = [b.unsqueeze(t, [1, 3], 'x/{}_grid'.format(i)) for i, t in enumerate(xs)]
        batch = b.unsqueeze(b.cast(node.in_port(2), I64, 'batch_i64'), [1, 2, 3], 'batch_grid')
        grid_shape = b.op(ShapeOf, [b.op(Add, [ys[0], xs[0]], 'grid_sum')], 'grid_shape')
        batch = b.op(Broadcast, [batch, grid_shape], 'batch_index')
        nhwc = b.transpose(data, [0, 2, 3, 1], 'nhwc')
        best = None
        corners = (((0, 2), (0, 2), 'low_low'), ((0, 2), (1, 3), 'low_high'), ((1, 3), (0, 2), 'high_low'),
                   ((1, 3), (1, 3), 'high_high'))  # (index, weight) positions in the _axis tuples of y and x
        for (y_index, y_weight), (x_index, x_weight), tag in corners:
            at = b.op(Concat, [batch, b.op(Broadcast, [ys[y_index], grid_shape], tag + '/y'),
                               b.op(Broadcast, [xs[x_index], grid_shape], tag + '/x')], tag + '/at', axis=3,
                      in_ports_count=3)
            values = b.op(GatherND, [nhwc, at], tag + '/values')
            weight = b.op(Mul, [ys[y_weight], xs[x_weight]], tag + '/weight')
            weighted = b.op(Mul, [values, b.op(ConvertLike, [weight, values], tag + '/weight_like')], tag + '/weighted')
            best = weighted if best is None else b.op(Maximum, [best, weighted], tag + '/best')
        shape = b.const([0, int(node.pooled_h), grid, int(node.pooled_w), grid, -1], 'bins_shape', I64)
        bins = b.op(Reshape, [best, shape], 'bins', special_zero=True)
        pooled = b.op(ReduceMax, [bins, b.const([2, 4], 'bins/axes', I64)], 'pooled')
        return b.transpose(pooled, [0, 3, 1, 2], 'nchw')

    @staticmethod
    def _size(b: Builder, shape, axis: int, tag: str):
        return b.cast(b.op(Gather, [shape, b.const(axis, tag + '/index', I64), b.const(0, tag + '/axis', I64)],
                            tag + '/i64'), F32, tag)

    @staticmethod
    def _axis(node: Node, b: Builder, rois, first: int, size, pooled: int, grid: int, tag: str):
        """(low index, high index, low weight, high weight), each [R, pooled * grid], of the sample points along
        the axis whose ROI corners are columns ``first`` and ``first + 2`` of ``rois``."""
        rois = b.cast(rois, F32, tag + '/rois_f32')
        shift = 0.5 if node.half_pixel else 0.0
        scale = b.const(float(node.spatial_scale), tag + '/scale', F32)
        start, end = (b.op(Sub, [b.op(Mul, [column(b, rois, c, tag + '/corner_{}'.format(c)), scale],
                                      tag + '/scaled_{}'.format(c)), b.const(shift, tag + '/shift_{}'.format(c), F32)],
                           tag + '/at_{}'.format(c)) for c in (first, first + 2))
        extent = b.op(Sub, [end, start], tag + '/extent')
        if not node.half_pixel:  # output_half_pixel makes every ROI at least a pixel wide
            extent = b.op(Maximum, [extent, b.const(1.0, tag + '/one_pixel', F32)], tag + '/extent_1')
        bin_size = b.op(Div, [extent, b.const(float(pooled), tag + '/pooled', F32)], tag + '/bin')
        steps = np.array([p + (i + 0.5) / grid for p in range(pooled) for i in range(grid)], F32)
        offsets = b.op(Mul, [b.unsqueeze(bin_size, [1], tag + '/bin_column'), b.const(steps, tag + '/steps')],
                       tag + '/offsets')
        coords = b.op(Add, [b.unsqueeze(start, [1], tag + '/start_column'), offsets], tag + '/coords')
        above = b.op(GreaterEqual, [coords, b.const(-1.0, tag + '/minus_one', F32)], tag + '/above')
        inside = b.op(LogicalAnd, [above, b.op(LessEqual, [coords, size], tag + '/below')], tag + '/inside')
        inside = b.cast(inside, F32, tag + '/inside_f32')
        last = b.op(Sub, [size, b.const(1.0, tag + '/one', F32)], tag + '/last')
        non_negative = b.op(Maximum, [coords, b.const(0.0, tag + '/zero', F32)], tag + '/non_negative')
        clamped = b.op(Minimum, [non_negative, last], tag + '/clamped')
        low = b.op(Floor, [clamped], tag + '/low')
        high = b.op(Minimum, [b.op(Add, [low, b.const(1.0, tag + '/next', F32)], tag + '/low_plus_one'), last],
                    tag + '/high')
        high_weight = b.op(Sub, [clamped, low], tag + '/fraction')
        low_weight = b.op(Sub, [b.const(1.0, tag + '/unit', F32), high_weight], tag + '/rest')
        return (b.cast(low, I64, tag + '/low_index'), b.cast(high, I64, tag + '/high_index'),
                b.op(Mul, [low_weight, inside], tag + '/low_weight'),
                b.op(Mul, [high_weight, inside], tag + '/high_weight'))
