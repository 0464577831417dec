"""Paddle's detection ops (the internal ops of ``detection_ext.py``) as opset ops and elementwise formulas."""
import numpy as np

from mo.front.common.nn_formulas import I64
from extensions.front.paddle.interp_lowering import slot_ports
from extensions.ops.detection import DeformableConvolution, ROIAlign
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Exp, Log, Sigmoid, Abs
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.gather import Gather
from mo.ops.elementwise import Add, Div, GreaterEqual, Maximum, Minimum, Mul, Pow, Sub
from mo.ops.range import Range
from mo.ops.reduce import ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.split import Split, VariadicSplit
from mo.ops.tensor_ops import CumSum
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

F32 = np.float32


def _port(node: Node, slot: str, required: bool = True):
    """The input port of ``node``'s Paddle ``slot`` (None when absent and not ``required``)."""
    ports = slot_ports(node, slot)
    if not ports:
        if required:
            raise Error('{} "{}" has no {} input', node.soft_get('paddle_op', node.op), node.soft_get('name', node.id),
                        slot)
        return None
    return node.in_port(ports[0])


def _dim(b: Builder, tensor, index: int, tag: str, dtype=F32):
    """``shape(tensor)[index]`` as a 1-element tensor of ``dtype``.

    Not ``b.dim_of``: its Gather is named ``<tag>/i64`` but its constants ``<tag>/index`` and ``<tag>/axis``
    (``b.element`` names them after the Gather), and with a dynamic shape they are in the IR."""
    shape = b.shape_of(tensor, tag + '/shape')
    picked = b.op(Gather, [shape, b.const([index], tag + '/index', I64), b.const(0, tag + '/axis', I64)], tag + '/i64')
    return picked if dtype == I64 else b.op(Convert, [picked], tag, dst_type=np.dtype(dtype))


def _outputs(node: Node, by_slot: dict):
    """One entry per output port of ``node`` from ``{slot: replacement}``; None for the other ports."""
    slots = node.soft_get('out_slots', None) or {}
    count = max([p for ports in slots.values() for p in ports] + [0]) + 1
    result = [None] * count
    for slot, value in by_slot.items():
        for port in slots.get(slot, []):
            result[port] = value
    return [item if node.is_out_port_connected(k) else None for k, item in enumerate(result)]


class PaddleYoloBoxLowering(OpRule):
    """yolo_box(X [N, A * (5 + C), H, W], ImgSize [N, 2] (h, w)) -> Boxes [N, A * H * W, 4] (x1, y1, x2, y2),
    Scores [N, A * H * W, C], per anchor a, row k, column l (in that order):

    * ``conf = sigmoid(obj)`` (``iou_aware``: the first A channels are IoU logits and ``conf = conf ^ (1 - f) *
      sigmoid(iou) ^ f``); an entry with ``conf < conf_thresh`` gives zero boxes and scores;
    * ``cx = (l + sigmoid(tx) * s - (s - 1) / 2) * img_w / W``, ``cy`` likewise with k, img_h and H;
      ``w = exp(tw) * anchor_w * img_w / (downsample_ratio * W)``, ``h`` likewise;
    * the corners ``cx -+ w / 2``, ``cy -+ h / 2``, with ``clip_bbox`` clamped to ``[0, img_w - 1]`` and
      ``[0, img_h - 1]``; ``scores = conf * sigmoid(class logits)``."""
    op = 'PaddleYoloBox'

    def rewrite(self, node: Node, b: Builder):
        x, img = _port(node, 'X'), _port(node, 'ImgSize')
        anchors = np.array(node.anchors, F32).reshape(-1, 2)
        count, classes = len(anchors), int(node.class_num)
        if node.iou_aware:
            iou, x = [b.op(VariadicSplit, [x, b.const(1, 'iou_split/axis', I64),
                                           b.const([count, -1], 'iou_split/sizes', I64)], 'iou_split').out_port(k)
                      for k in range(2)]
        height, width = _dim(b, x, 2, 'h', I64), _dim(b, x, 3, 'w', I64)
        shape = b.op(Concat, [b.const([0, count, 5 + classes], 'head_shape', I64), height, width], 'shape5', axis=0,
                     in_ports_count=3)
        p = b.op(Reshape, [x, shape], 'per_anchor', special_zero=True)  # [N, A, 5 + C, H, W]
        parts = b.op(VariadicSplit, [p, b.const(2, 'entries/axis', I64),
                                     b.const([1, 1, 1, 1, 1, classes], 'entries/sizes', I64)], 'entries',
                     out_ports_count=6)
        tx, ty, tw, th, obj, cls = (parts.out_port(k) for k in range(6))
        conf = b.op(Sigmoid, [obj], 'conf_raw')
        if node.iou_aware:
            iou_shape = b.op(Concat, [b.const([0, count, 1], 'iou_shape_head', I64), height, width], 'iou_shape',
                             axis=0, in_ports_count=3)
            iou_p = b.op(Sigmoid, [b.op(Reshape, [iou, iou_shape], 'iou_5d', special_zero=True)], 'iou_sigmoid')
            factor = float(node.iou_aware_factor)
            conf = b.op(Mul, [b.op(Pow, [conf, b.const(1 - factor, 'conf_exponent', F32)], 'conf_pow'),
                              b.op(Pow, [iou_p, b.const(factor, 'iou_exponent', F32)], 'iou_pow')], 'conf_iou')
        keep = b.op(GreaterEqual, [conf, b.const(node.conf_thresh, 'conf_thresh', F32)], 'keep')
        img_f = b.op(Convert, [img], 'img_f32', dst_type=np.dtype(F32))
        img_h, img_w = [b.op(Reshape, [half, b.const([-1, 1, 1, 1, 1], 'img{}/shape'.format(k), I64)],
                             'img{}'.format(k))
                        for k, half in enumerate(split(b, img_f, 2, 1, 'img_hw'))]
        h_f = b.op(Convert, [height], 'h_f32', dst_type=np.dtype(F32))
        w_f = b.op(Convert, [width], 'w_f32', dst_type=np.dtype(F32))
        grid_x = b.op(Convert, [b.op(Range, [b.const(0, 'gx/start', I64), b.op(Reshape, [width, b.const(
            [], 'gx/scalar', I64)], 'gx/stop'), b.const(1, 'gx/step', I64)], 'gx/i64', output_type=np.dtype(I64))],
            'grid_x', dst_type=np.dtype(F32))  # [W]
        grid_y = b.op(Reshape, [b.op(Convert, [b.op(Range, [b.const(0, 'gy/start', I64), b.op(Reshape, [
            height, b.const([], 'gy/scalar', I64)], 'gy/stop'), b.const(1, 'gy/step', I64)], 'gy/i64',
            output_type=np.dtype(I64))], 'gy/f32', dst_type=np.dtype(F32)), b.const([-1, 1], 'gy/shape', I64)],
            'grid_y')  # [H, 1]
        scale = float(node.scale_x_y)
        bias = -0.5 * (scale - 1.0)

        def center(t, grid, size, extent, tag):
            shifted = b.op(Add, [b.op(Add, [grid, b.op(Mul, [b.op(Sigmoid, [t], tag + '/sigmoid'),
                                                             b.const(scale, tag + '/scale', F32)], tag + '/scaled')],
                                         tag + '/plus_grid'), b.const(bias, tag + '/bias', F32)], tag + '/shifted')
            return b.op(Div, [b.op(Mul, [shifted, extent], tag + '/image'), size], tag)

        def length(t, anchor, size, extent, tag):
            stretched = b.op(Mul, [b.op(Exp, [t], tag + '/exp'),
                                   b.const(anchor.reshape(1, -1, 1, 1, 1) / float(node.downsample_ratio),
                                           tag + '/anchor', F32)], tag + '/anchor_scaled')
            return b.op(Div, [b.op(Mul, [stretched, extent], tag + '/image'), size], tag)

        cx, cy = center(tx, grid_x, w_f, img_w, 'cx'), center(ty, grid_y, h_f, img_h, 'cy')
        half_w = b.op(Mul, [length(tw, anchors[:, 0], w_f, img_w, 'bw'), b.const(0.5, 'half_w/c', F32)], 'half_w')
        half_h = b.op(Mul, [length(th, anchors[:, 1], h_f, img_h, 'bh'), b.const(0.5, 'half_h/c', F32)], 'half_h')
        corners = [b.op(Sub, [cx, half_w], 'x1'), b.op(Sub, [cy, half_h], 'y1'), b.op(Add, [cx, half_w], 'x2'),
                   b.op(Add, [cy, half_h], 'y2')]
        if node.clip_bbox:
            zero = b.const(0.0, 'zero', F32)
            one = b.const(1.0, 'one', F32)
            corners = [b.op(Maximum, [corners[0], zero], 'x1_clip'), b.op(Maximum, [corners[1], zero], 'y1_clip'),
                       b.op(Minimum, [corners[2], b.op(Sub, [img_w, one], 'w_last')], 'x2_clip'),
                       b.op(Minimum, [corners[3], b.op(Sub, [img_h, one], 'h_last')], 'y2_clip')]
        boxes = b.op(Concat, corners, 'boxes5', axis=2, in_ports_count=4)  # [N, A, 4, H, W]
        zeros = b.const(0.0, 'masked', F32)
        boxes = b.op(Select, [keep, boxes, zeros], 'boxes_kept')
        scores = b.op(Select, [keep, b.op(Mul, [conf, b.op(Sigmoid, [cls], 'cls_sigmoid')], 'scores5'), zeros],
                      'scores_kept')
        outputs = {}
        for slot, tensor, depth in (('Boxes', boxes, 4), ('Scores', scores, classes)):
            last = b.op(Transpose, [tensor, b.const([0, 1, 3, 4, 2], slot + '/order', I64)], slot + '/last')
            outputs[slot] = b.op(Reshape, [last, b.const([0, -1, depth], slot + '/shape', I64)], slot,
                                 special_zero=True)
        return _outputs(node, outputs)


def split(b: Builder, tensor, parts: int, axis: int, tag: str):
    node = b.op(Split, [tensor, b.const(axis, tag + '/axis', I64)], tag, num_splits=parts)
    return [node.out_port(k) for k in range(parts)]


class PaddleBoxCoderLowering(OpRule):
    """box_coder(PriorBox [M, 4], PriorBoxVar [M, 4] (optional), TargetBox): widths are ``x2 - x1`` (``+ 1``
    when the boxes are not normalized), centers ``x1 + w / 2``; the variances are PriorBoxVar, else the
    ``variance`` attribute, else none.

    * encode_center_size, TargetBox [N, 4] -> [N, M, 4]: ``((tcx - pcx) / pw, (tcy - pcy) / ph, log|tw / pw|,
      log|th / ph|) / var`` with the target's center ``(x1 + x2) / 2``;
    * decode_center_size, TargetBox [N, M, 4] -> [N, M, 4]: ``c = var * t * p_size + p_center`` (``exp(var *
      t) * p_size`` for the sizes), corners ``c -+ size / 2`` (the far ones ``- 1`` when not normalized); the
      priors run along axis 1 (``axis`` 0) or along axis 0 (``axis`` 1)."""
    op = 'PaddleBoxCoder'

    def rewrite(self, node: Node, b: Builder):
        prior, variance = _port(node, 'PriorBox'), _port(node, 'PriorBoxVar', False)
        target = _port(node, 'TargetBox')
        extra = 0.0 if node.box_normalized else 1.0
        encode = node.code_type == 'encode_center_size'
        prior_axis = 0 if encode or node.axis == 0 else 1  # where the priors' broadcast axis goes
        prior = b.op(Unsqueeze, [prior, b.const([prior_axis], 'prior/axis', I64)], 'prior3')
        px1, py1, px2, py2 = split(b, prior, 4, 2, 'prior_xyxy')
        pw = b.op(Add, [b.op(Sub, [px2, px1], 'pw_raw'), b.const(extra, 'pw_extra', F32)], 'pw')
        ph = b.op(Add, [b.op(Sub, [py2, py1], 'ph_raw'), b.const(extra, 'ph_extra', F32)], 'ph')
        pcx = b.op(Add, [px1, b.op(Mul, [pw, b.const(0.5, 'pcx/half', F32)], 'pcx/half_w')], 'pcx')
        pcy = b.op(Add, [py1, b.op(Mul, [ph, b.const(0.5, 'pcy/half', F32)], 'pcy/half_h')], 'pcy')
        if variance is not None:
            var = split(b, b.op(Unsqueeze, [variance, b.const([prior_axis], 'var/axis', I64)], 'var3'), 4, 2, 'var')
        elif len(node.variance) == 4:
            var = [b.const(np.array(v, F32), 'var{}'.format(k), F32) for k, v in enumerate(node.variance)]
        elif not node.variance:
            var = None
        else:
            raise Error('box_coder "{}": variance {} is not 4 values', b.name, node.variance)
        if encode:
            target = b.op(Unsqueeze, [target, b.const([1], 'target/axis', I64)], 'target3')
            tx1, ty1, tx2, ty2 = split(b, target, 4, 2, 'target_xyxy')
            tcx = b.op(Mul, [b.op(Add, [tx1, tx2], 'tcx/sum'), b.const(0.5, 'tcx/half', F32)], 'tcx')
            tcy = b.op(Mul, [b.op(Add, [ty1, ty2], 'tcy/sum'), b.const(0.5, 'tcy/half', F32)], 'tcy')
            tw = b.op(Add, [b.op(Sub, [tx2, tx1], 'tw_raw'), b.const(extra, 'tw_extra', F32)], 'tw')
            th = b.op(Add, [b.op(Sub, [ty2, ty1], 'th_raw'), b.const(extra, 'th_extra', F32)], 'th')
            codes = [b.op(Div, [b.op(Sub, [tcx, pcx], 'dx'), pw], 'ox'), b.op(Div, [b.op(Sub, [tcy, pcy], 'dy'), ph],
                                                                           'oy'),
                     b.op(Log, [b.op(Abs, [b.op(Div, [tw, pw], 'rw')], 'rw_abs')], 'ow'),
                     b.op(Log, [b.op(Abs, [b.op(Div, [th, ph], 'rh')], 'rh_abs')], 'oh')]
            if var is not None:
                codes = [b.op(Div, [c, v], 'code{}'.format(k)) for k, (c, v) in enumerate(zip(codes, var))]
            result = b.op(Concat, codes, 'encoded', axis=2, in_ports_count=4)
        else:
            t = split(b, target, 4, 2, 'deltas')
            if var is not None:
                t = [b.op(Mul, [d, v], 'scaled{}'.format(k)) for k, (d, v) in enumerate(zip(t, var))]
            cx = b.op(Add, [b.op(Mul, [t[0], pw], 'cx/offset'), pcx], 'cx')
            cy = b.op(Add, [b.op(Mul, [t[1], ph], 'cy/offset'), pcy], 'cy')
            half_w = b.op(Mul, [b.op(Mul, [b.op(Exp, [t[2]], 'w/exp'), pw], 'w'), b.const(0.5, 'half_w/c', F32)],
                          'half_w')
            half_h = b.op(Mul, [b.op(Mul, [b.op(Exp, [t[3]], 'h/exp'), ph], 'h'), b.const(0.5, 'half_h/c', F32)],
                          'half_h')
            x2 = b.op(Add, [cx, half_w], 'x2')
            y2 = b.op(Add, [cy, half_h], 'y2')
            if extra:
                x2 = b.op(Sub, [x2, b.const(extra, 'x2/extra', F32)], 'x2_pixel')
                y2 = b.op(Sub, [y2, b.const(extra, 'y2/extra', F32)], 'y2_pixel')
            result = b.op(Concat, [b.op(Sub, [cx, half_w], 'x1'), b.op(Sub, [cy, half_h], 'y1'), x2, y2], 'decoded',
                          axis=2, in_ports_count=4)
        return _outputs(node, {'OutputBox': result})


class PaddleRoiAlignLowering(OpRule):
    """roi_align(X, ROIs [R, 4], RoisNum [N]) = ROIAlign-9(X, ROIs, batch index of each box): box r belongs to
    image ``#{n : r >= cumsum(RoisNum)[n]}`` (all to image 0 without RoisNum); ``aligned`` shifts the scaled
    corners by -0.5 and lets boxes be smaller than a pixel, which is what OpenVINO's CPU runtime computes for
    ``half_pixel_for_nn`` (its ``half_pixel`` does not match Paddle's results), else ``asymmetric``; a
    sampling_ratio of -1 (as many samples as the bin is pixels, rounded up) is the opset's 0."""
    op = 'PaddleRoiAlign'

    def rewrite(self, node: Node, b: Builder):
        x, rois, counts = _port(node, 'X'), _port(node, 'ROIs'), _port(node, 'RoisNum', False)
        boxes = _dim(b, rois, 0, 'box_count', I64)
        if counts is None:
            batch = b.op(Broadcast, [b.const(np.array(0, np.int32), 'batch_zero', np.int32), boxes], 'batch_indices')
        else:
            ends = b.op(CumSum, [b.op(Convert, [counts], 'counts_i64', dst_type=np.dtype(I64)),
                                 b.const(0, 'cumsum_axis', I64)], 'image_ends')
            box_ids = b.op(Range, [b.const(0, 'ids/start', I64), b.op(Reshape, [boxes, b.const([], 'ids/scalar', I64)],
                                                                      'ids/stop'), b.const(1, 'ids/step', I64)],
                           'ids', output_type=np.dtype(I64))
            past = b.op(GreaterEqual, [b.op(Unsqueeze, [box_ids, b.const([1], 'ids/axis', I64)], 'ids_column'),
                                       ends], 'past_image')
            batch = b.op(ReduceSum, [b.op(Convert, [past], 'past_i32', dst_type=np.dtype(np.int32)),
                                     b.const([1], 'sum_axis', I64)], 'batch_indices', keep_dims=False)
        return b.op(ROIAlign, [x, rois, batch], 'roi_align', pooled_h=node.pooled_h, pooled_w=node.pooled_w,
                    sampling_ratio=node.sampling_ratio, spatial_scale=node.spatial_scale, mode='avg',
                    aligned_mode='half_pixel_for_nn' if node.aligned else 'asymmetric')


class PaddleDeformableConvLowering(OpRule):
    """deformable_conv(Input, Offset, Filter, Mask) = DeformableConvolution-8(Input, Offset, Filter, Mask):
    Paddle's offsets are (y, x) pairs per kernel point as the opset's, and a sampling point less than a pixel
    outside the input still weighs its inside neighbours (``bilinear_interpolation_pad``)."""
    op = 'PaddleDeformableConv'

    def rewrite(self, node: Node, b: Builder):
        inputs = [_port(node, 'Input'), _port(node, 'Offset'), _port(node, 'Filter'), _port(node, 'Mask', False)]
        return b.op(DeformableConvolution, inputs, 'deformable_conv', strides=node.strides,
                    dilations=node.dilations, pads_begin=node.pads_begin, pads_end=node.pads_end, group=node.group,
                    deformable_group=node.deformable_group, bilinear_interpolation_pad=True, auto_pad='explicit')
