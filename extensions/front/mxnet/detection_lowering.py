"""MXNet's region and suppression ops from opset ops: _contrib_ROIAlign (ROIAlign-9) and _contrib_box_nms
(NonMaxSuppression-9 with MXNet's output layout)."""
import dataclasses

import numpy as np

from extensions.ops.region import ROIPooling
from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.box_lowering import corners
from extensions.front.mxnet.formulas import BIG, concat, dims, ints
from extensions.ops.detection import ROIAlign
from extensions.ops.tensor_iterator import TensorIterator
from mo.front.common.rule import Builder, OpRule
from mo.front.mxnet.per_image import image_body, image_symbol
from mo.graph.graph import Node
from mo.ops.activation_ops import Exp, Floor
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import (Add, Div, FloorMod, Greater, GreaterEqual, Less, LogicalAnd, LogicalOr, Maximum,
                                Minimum, Mul, NotEqual, Sub)
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.non_max_suppression import NonMaxSuppression
from mo.ops.range import Range
from mo.ops.reduce import ReduceMax, ReduceMin, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.split import Split
from mo.ops.squeeze import Squeeze
from mo.ops.tensor_ops import GatherND, ScatterNDUpdate
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

F32 = np.float32


def columns(b: Builder, table, start: int, stop, suffix: str):
    """``table[:, start:stop]`` of a 2-D table."""
    return b.op(Slice, [table, ints(b, [start], suffix + '/start'), ints(b, [BIG if stop is None else stop],
                                                                           suffix + '/stop'),
                        ints(b, [1], suffix + '/step'), ints(b, [1], suffix + '/axis')], suffix)


def column(b: Builder, table, index: int, suffix: str):
    """``table[:, index]`` (1-D)."""
    return b.op(Gather, [table, ints(b, index, suffix + '/index'), ints(b, 1, suffix + '/axis')], suffix)


class ROIAlignLowering(OpRule):
    """_contrib_ROIAlign(data, rois [R, 5]: batch index, x1, y1, x2, y2) = ROIAlign(data, rois[:, 1:], rois[:, 0])
    averaging sample_ratio^2 samples per bin (-1: adaptive), corners not shifted (aligned: half a pixel)."""
    op = 'MXcontrib_ROIAlign'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        if attr.bool('position_sensitive', False):
            raise Error('_contrib_ROIAlign "{}": position_sensitive is not converted', b.name)
        pooled = attr.tuple('pooled_size')
        rois = node.in_port(1)
        boxes = columns(b, rois, 1, 5, 'boxes')
        batch = b.op(Convert, [column(b, rois, 0, 'batch_f')], 'batch', dst_type=np.dtype(np.int32))
        ratio = attr.int('sample_ratio', -1)
        return b.op(ROIAlign, [node.in_port(0), boxes, batch], 'roi_align', pooled_h=pooled[0], pooled_w=pooled[1],
                    sampling_ratio=max(ratio, 0), spatial_scale=attr.float('spatial_scale'), mode='avg',
                    aligned_mode='half_pixel' if attr.bool('aligned', False) else 'asymmetric')


def _to_corners(b: Builder, boxes, suffix: str):
    """Centre-form boxes ``[.., 4]`` (cx, cy, w, h) as corners."""
    split = b.op(Split, [boxes, ints(b, -1, suffix + '/axis')], suffix + '/split', num_splits=4)
    half = b.const(np.array(0.5, F32), suffix + '/half', F32)
    w = b.op(Mul, [split.out_port(2), half], suffix + '/half_w')
    h = b.op(Mul, [split.out_port(3), half], suffix + '/half_h')
    return corners(b, split.out_port(0), split.out_port(1), w, h, suffix)


def _to_centres(b: Builder, boxes, suffix: str):
    """Corner-form boxes ``[.., 4]`` as (cx, cy, w, h)."""
    split = b.op(Split, [boxes, ints(b, -1, suffix + '/axis')], suffix + '/split', num_splits=4)
    w = b.op(Sub, [split.out_port(2), split.out_port(0)], suffix + '/w')
    h = b.op(Sub, [split.out_port(3), split.out_port(1)], suffix + '/h')
    half = b.const(np.array(0.5, F32), suffix + '/half', F32)
    cx = b.op(Add, [split.out_port(0), b.op(Mul, [w, half], suffix + '/hw')], suffix + '/cx')
    cy = b.op(Add, [split.out_port(1), b.op(Mul, [h, half], suffix + '/hh')], suffix + '/cy')
    return b.op(Concat, [cx, cy, w, h], suffix, axis=-1, in_ports_count=4)


def _item(b: Builder, table, index: int, suffix: str):
    """``table[..., index]`` (the last axis dropped)."""
    return b.op(Gather, [table, ints(b, index, suffix + '/index'), ints(b, -1, suffix + '/axis')], suffix)


def _items(b: Builder, table, start: int, stop, suffix: str):
    """``table[..., start:stop]``."""
    return b.op(Slice, [table, ints(b, [start], suffix + '/start'),
                        ints(b, [BIG if stop is None else stop], suffix + '/stop'), ints(b, [1], suffix + '/step'),
                        ints(b, [-1], suffix + '/axis')], suffix)


class BoxNMSLowering(OpRule):
    """_contrib_box_nms(data [B, N, K]) = per batch, the records NonMaxSuppression keeps, best first, then rows of
    -1 up to N. A record is valid with score > valid_thresh (and an id other than background_id); only the topk
    best valid ones compete (topk -1: all); a box suppresses a worse one of IoU > overlap_thresh of its own id (any
    id with force_suppress or without id_index), ids kept apart by shifting each id's boxes beyond the others';
    out_format other than in_format rewrites the coordinates of the records given."""
    op = 'MXcontrib_box_nms'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        start, score_index = attr.int('coord_start', 2), attr.int('score_index', 1)
        id_index, background = attr.int('id_index', -1), attr.int('background_id', -1)
        topk, threshold = attr.int('topk', -1), attr.float('valid_thresh', 0.0)
        in_format, out_format = attr.str('in_format', 'corner'), attr.str('out_format', 'corner')
        data = node.in_port(0)
        records = data  # [B, N, K]
        count = dims(b, data, [1], 'count')
        scores = _item(b, records, score_index, 'scores')  # [B, N]
        valid = b.op(Greater, [scores, b.const(np.array(threshold, F32), 'valid_thresh', F32)], 'valid')
        if id_index >= 0 and background >= 0:
            ids = _item(b, records, id_index, 'ids_bg')
            valid = b.op(LogicalAnd, [valid, b.op(NotEqual, [ids, b.const(np.array(background, F32), 'background',
                                                                           F32)], 'not_background')], 'valid_id')
        masked = b.op(Select, [valid, scores, b.const(np.array(-3e38, F32), 'lowest', F32)], 'masked')
        if topk > 0:
            k = b.op(Squeeze, [b.op(Minimum, [count, ints(b, [topk], 'topk')], 'k_1d'), ints(b, [0], 'k_axis')], 'k')
            best = b.op(TopK, [masked, k], 'best', axis=1, mode='max', sort='value', index_element_type='i64',
                        out_ports_count=2)
            records = b.op(Gather, [records, best.out_port(1), ints(b, 1, 'best_axis')], 'best_records',
                           batch_dims=1)
            masked = best.out_port(0)
        boxes = _items(b, records, start, start + 4, 'boxes')
        if in_format == 'center':
            boxes = _to_corners(b, boxes, 'corners')
        if id_index >= 0 and not attr.bool('force_suppress', False):
            # each id's boxes moved past every other id's: no IoU across ids
            every = ints(b, [0, 1, 2], 'all')
            extent = b.op(Sub, [b.op(ReduceMax, [boxes, every], 'max'), b.op(ReduceMin, [boxes, every], 'min')],
                          'extent')
            span = b.op(Add, [extent, b.const(np.array(1, F32), 'one', F32)], 'span')
            ids = _items(b, records, id_index, id_index + 1, 'ids')
            boxes = b.op(Add, [boxes, b.op(Mul, [ids, span], 'shift')], 'shifted')
        nms = b.op(NonMaxSuppression, [
            boxes, b.op(Unsqueeze, [masked, ints(b, [1], 'scores_axis')], 'nms_scores'),
            b.op(Convert, [count], 'max_boxes', dst_type=np.dtype(np.int64)),
            b.const(np.array(attr.float('overlap_thresh', 0.5), F32), 'iou', F32),
            b.const(np.array(-1e38, F32), 'score_threshold', F32)], 'nms', box_encoding='corner',
            sort_result_descending=False, output_type=np.int64, out_ports_count=3)
        # [M, 3] by batch, each batch's best first: (batch, box) of each, and its row in its batch
        chosen = b.op(Gather, [nms.out_port(0), ints(b, [0, 2], 'batch_box'), ints(b, 1, 'chosen_axis')], 'chosen')
        kept = b.op(GatherND, [records, chosen], 'kept')  # [M, K]
        if in_format != out_format:
            coords = _items(b, kept, start, start + 4, 'kept_boxes')
            coords = _to_centres(b, coords, 'centres') if out_format == 'center' else _to_corners(b, coords,
                                                                                               'corners_out')
            kept = b.op(Concat, [_items(b, kept, 0, start, 'head'), coords, _items(b, kept, start + 4, None, 'tail')],
                        'kept_format', axis=1, in_ports_count=3)
        batch = _item(b, chosen, 0, 'batch')  # [M]
        earlier = b.op(Less, [b.op(Unsqueeze, [batch, ints(b, [0], 'row')], 'batch_row'),
                              b.op(Unsqueeze, [batch, ints(b, [1], 'col')], 'batch_col')], 'earlier')
        first = b.op(ReduceSum, [b.op(Convert, [earlier], 'earlier_i', dst_type=np.dtype(np.int64)),
                                 ints(b, [1], 'sum_axis')], 'first')
        selected = b.op(Squeeze, [dims(b, chosen, [0], 'selected_1d'), ints(b, [0], 'sel_axis')], 'selected')
        order = b.op(Range, [ints(b, 0, 'r_start'), selected, ints(b, 1, 'r_step')], 'order', output_type=np.int64)
        row = b.op(Sub, [order, first], 'row_in_batch')
        target = b.op(Concat, [b.op(Unsqueeze, [batch, ints(b, [1], 't_b')], 'target_batch'),
                               b.op(Unsqueeze, [row, ints(b, [1], 't_r')], 'target_row')], 'target', axis=1,
                      in_ports_count=2)
        shape = b.op(ShapeOf, [data], 'data_shape', output_type=np.int64)
        fill = b.op(Broadcast, [b.const(np.array(-1, F32), 'minus_one', F32), shape],
                    'fill')
        return b.op(ScatterNDUpdate, [fill, target, kept], 'output')


class ROIPoolingLowering(OpRule):
    """ROIPooling(data, rois [R, 5]) = the opset's ROIPooling (max of each bin), rois as MXNet gives them."""
    op = 'MXROIPooling'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        pooled = attr.tuple('pooled_size')
        return b.op(ROIPooling, [node.in_port(0), node.in_port(1)], 'roi_pooling', pooled_h=pooled[0],
                    pooled_w=pooled[1], spatial_scale=attr.float('spatial_scale'), method='max')


def mxnet_anchors(stride: int, ratios, scales) -> np.ndarray:
    """MXNet's (py-faster-rcnn's) base anchors ``[A, 4]``: the ``stride``-sized box reshaped to each ratio (areas
    and sides rounded as MXNet rounds them), then scaled, ratio by ratio."""
    anchors = []
    size = float(stride * stride)
    centre = 0.5 * (stride - 1)
    for ratio in ratios:
        for scale in scales:
            width = np.floor(np.sqrt(np.floor(size / ratio)) + 0.5)
            height = np.floor(width * ratio + 0.5)
            width, height = width * scale, height * scale
            anchors.append([centre - 0.5 * (width - 1), centre - 0.5 * (height - 1), centre + 0.5 * (width - 1),
                            centre + 0.5 * (height - 1)])
    return np.array(anchors, F32)


class ProposalLowering(OpRule):
    """_contrib_Proposal(cls_prob, bbox_pred, im_info) of one image, as MXNet computes it: anchors at every
    feature cell (cells by row, then column, then anchor), decoded with MXNet's +1 box sizes and clipped to the
    image; boxes smaller than rpn_min_size * scale, and those of cells past the image's own size (floor(im_h /
    feature_stride) rows, floor(im_w / feature_stride) columns), scored -1, the small ones widened by it; the
    rpn_pre_nms_top_n best suppressed at threshold (IoU of +1 sizes); the first rpn_post_nms_top_n kept, repeated
    round when fewer remain: rois [post, 5] (batch index 0, corners), scores [post, 1] with output_score."""
    op = 'MXcontrib_Proposal'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        if attr.bool('iou_loss', False):
            raise Error('_contrib_Proposal "{}": iou_loss is not converted', b.name)
        stride = attr.int('feature_stride', 16)
        base = mxnet_anchors(stride, attr.tuple('ratios', (0.5, 1, 2), item='float'),
                             attr.tuple('scales', (4, 8, 16, 32), item='float'))
        count = len(base)

        def f32(value, tag):
            return b.const(np.array(value, F32), tag, F32)

        probs, deltas, info = node.in_port(0), node.in_port(1), node.in_port(2)
        # foreground scores [1, A, H, W] -> [H * W * A]
        fg = b.op(Slice, [probs, ints(b, [count], 'fg/start'), ints(b, [2 * count], 'fg/stop'), ints(b, [1], 'fg/step'),
                          ints(b, [1], 'fg/axis')], 'fg')
        scores = b.op(Reshape, [b.op(Transpose, [fg, ints(b, [0, 2, 3, 1], 'fg/order')], 'fg_hwa'),
                                ints(b, [-1], 'flat')], 'scores')
        # deltas [1, 4A, H, W] -> [H * W * A, 4]
        hw = dims(b, probs, [2, 3], 'hw')
        d = b.op(Reshape, [deltas, concat(b, [ints(b, [count, 4], 'd/a4'), hw], 'd/shape4')], 'd_a4hw')
        d = b.op(Transpose, [d, ints(b, [2, 3, 0, 1], 'd/order')], 'd_hwa4')
        d = b.op(Reshape, [d, ints(b, [-1, 4], 'd/flat')], 'deltas')
        # anchors [H, W, A, 4] = base + the cell's shift
        height_f = b.op(Convert, [dims(b, probs, [2], 'h1')], 'h_f', dst_type=np.dtype(F32))
        width_f = b.op(Convert, [dims(b, probs, [3], 'w1')], 'w_f', dst_type=np.dtype(F32))

        def shifts(size, tag):
            scalar = b.op(Squeeze, [size, ints(b, [0], tag + '/axis')], tag + '/n')
            index = b.op(Range, [f32(0, tag + '/start'), scalar, f32(1, tag + '/delta')], tag + '/index',
                         output_type=F32)
            return b.op(Mul, [index, f32(stride, tag + '/stride')], tag)

        sy = b.op(Reshape, [shifts(height_f, 'sy'), ints(b, [-1, 1, 1, 1], 'sy/shape')], 'sy_grid')
        sx = b.op(Reshape, [shifts(width_f, 'sx'), ints(b, [1, -1, 1, 1], 'sx/shape')], 'sx_grid')
        zero = b.op(Mul, [sy, f32(0, 'zero')], 'zero_y')
        shift_x = b.op(Add, [sx, zero], 'shift_x')  # [H, W, 1, 1]
        shift = b.op(Concat, [shift_x, b.op(Add, [sy, b.op(Mul, [sx, f32(0, 'zero2')], 'zero_x')], 'shift_y'),
                              shift_x, b.op(Add, [sy, b.op(Mul, [sx, f32(0, 'zero3')], 'zero_x2')], 'shift_y2')],
                     'shift', axis=3, in_ports_count=4)
        anchors = b.op(Reshape, [b.op(Add, [shift, b.const(base.reshape(1, 1, count, 4), 'base', F32)], 'grid'),
                                 ints(b, [-1, 4], 'a/flat')], 'anchors')
        a = b.op(Split, [anchors, ints(b, 1, 'a/axis')], 'a', num_splits=4)
        g = b.op(Split, [d, ints(b, 1, 'g/axis')], 'g', num_splits=4)
        one, half = f32(1, 'one'), f32(0.5, 'half')
        width = b.op(Add, [b.op(Sub, [a.out_port(2), a.out_port(0)], 'aw0'), one], 'aw')
        height = b.op(Add, [b.op(Sub, [a.out_port(3), a.out_port(1)], 'ah0'), one], 'ah')
        cx = b.op(Add, [a.out_port(0), b.op(Mul, [b.op(Sub, [width, one], 'aw1'), half], 'aw_half')], 'acx')
        cy = b.op(Add, [a.out_port(1), b.op(Mul, [b.op(Sub, [height, one], 'ah1'), half], 'ah_half')], 'acy')
        px = b.op(Add, [b.op(Mul, [g.out_port(0), width], 'dxw'), cx], 'px')
        py = b.op(Add, [b.op(Mul, [g.out_port(1), height], 'dyh'), cy], 'py')
        pw = b.op(Mul, [b.op(Exp, [g.out_port(2)], 'ew'), width], 'pw')
        ph = b.op(Mul, [b.op(Exp, [g.out_port(3)], 'eh'), height], 'ph')
        hw_half = b.op(Mul, [b.op(Sub, [pw, one], 'pw1'), half], 'pw_half')
        hh_half = b.op(Mul, [b.op(Sub, [ph, one], 'ph1'), half], 'ph_half')
        im = b.op(Squeeze, [info, ints(b, [0], 'im/axis')], 'im')  # height, width, scale
        im_h = b.op(Gather, [im, ints(b, 0, 'im_h/i'), ints(b, 0, 'im_h/a')], 'im_h')
        im_w = b.op(Gather, [im, ints(b, 1, 'im_w/i'), ints(b, 0, 'im_w/a')], 'im_w')
        im_scale = b.op(Gather, [im, ints(b, 2, 'im_s/i'), ints(b, 0, 'im_s/a')], 'im_scale')
        max_x, max_y = b.op(Sub, [im_w, one], 'max_x'), b.op(Sub, [im_h, one], 'max_y')
        zero_f = f32(0, 'zero_f')

        def clip(value, top, tag):
            return b.op(Maximum, [b.op(Minimum, [value, top], tag + '/min'), zero_f], tag)

        x1 = clip(b.op(Sub, [px, hw_half], 'x1_raw'), max_x, 'x1')
        y1 = clip(b.op(Sub, [py, hh_half], 'y1_raw'), max_y, 'y1')
        x2 = clip(b.op(Add, [px, hw_half], 'x2_raw'), max_x, 'x2')
        y2 = clip(b.op(Add, [py, hh_half], 'y2_raw'), max_y, 'y2')
        # boxes under the minimum size: score -1, widened by half the minimum each way
        min_size = b.op(Mul, [f32(attr.int('rpn_min_size', 16), 'min_size'), im_scale], 'min_scaled')
        box_w = b.op(Add, [b.op(Sub, [x2, x1], 'bw0'), one], 'bw')
        box_h = b.op(Add, [b.op(Sub, [y2, y1], 'bh0'), one], 'bh')
        small = b.op(LogicalOr, [b.op(Less, [box_w, min_size], 'narrow'), b.op(Less, [box_h, min_size], 'short')],
                     'small')
        grow = b.op(Select, [small, b.op(Mul, [min_size, half], 'half_min'), zero_f], 'grow')
        boxes = b.op(Concat, [b.op(Sub, [x1, grow], 'fx1'), b.op(Sub, [y1, grow], 'fy1'),
                              b.op(Add, [x2, grow], 'fx2'), b.op(Add, [y2, grow], 'fy2')], 'boxes', axis=1,
                     in_ports_count=4)
        # cells past the image's own size (floor(im_h / stride) rows, floor(im_w / stride) columns; a batch's
        # smaller images do not fill the feature map): score -1 too
        def past(grid, size, tag):
            cells = b.op(Floor, [b.op(Div, [size, f32(stride, tag + '/stride')], tag + '/cells_f')], tag + '/cells')
            return b.op(GreaterEqual, [grid, b.op(Mul, [cells, f32(stride, tag + '/stride2')], tag + '/edge')], tag)

        outside = b.op(LogicalOr, [past(sy, im_h, 'past_h'), past(sx, im_w, 'past_w')], 'outside')  # [H, W, 1, 1]
        outside = b.op(Add, [b.op(Convert, [outside], 'outside_f', dst_type=np.dtype(F32)),
                             b.const(np.zeros((1, 1, count, 1), F32), 'per_anchor', F32)], 'outside_hwa')
        outside = b.op(Greater, [b.op(Reshape, [outside, ints(b, [-1], 'outside/flat')], 'outside_1d'),
                                 f32(0.5, 'outside/half')], 'outside_cells')
        dropped = b.op(LogicalOr, [b.op(Squeeze, [small, ints(b, [1], 'small/axis')], 'small_1d'), outside], 'dropped')
        scores = b.op(Select, [dropped, f32(-1, 'minus_one'), scores], 'filtered')
        total = dims(b, scores, [0], 'total')
        k = b.op(Squeeze, [b.op(Minimum, [total, ints(b, [attr.int('rpn_pre_nms_top_n', 6000)], 'pre')], 'k_1d'),
                           ints(b, [0], 'k/axis')], 'k')
        best = b.op(TopK, [scores, k], 'best', axis=0, mode='max', sort='value', index_element_type='i64',
                    out_ports_count=2)
        best_boxes = b.op(Gather, [boxes, best.out_port(1), ints(b, 0, 'best/axis')], 'best_boxes')
        # MXNet's IoU counts a box's far edge in (+1 sizes): the same IoU as of boxes one larger
        plus = b.const(np.array([[0, 0, 1, 1]], F32), 'plus_one', F32)
        post = attr.int('rpn_post_nms_top_n', 300)
        nms = b.op(NonMaxSuppression, [
            b.op(Unsqueeze, [b.op(Add, [best_boxes, plus], 'nms_boxes0'), ints(b, [0], 'nb/axis')], 'nms_boxes'),
            b.op(Unsqueeze, [best.out_port(0), ints(b, [0, 1], 'ns/axes')], 'nms_scores'),
            ints(b, [post], 'post'), f32(attr.float('threshold', 0.7), 'iou'), f32(-3e38, 'score_threshold')],
            'nms', box_encoding='corner', sort_result_descending=False, output_type=np.int64, out_ports_count=3)
        kept = column(b, nms.out_port(0), 2, 'kept')
        found = dims(b, kept, [0], 'found')
        index = b.op(FloorMod, [b.op(Range, [ints(b, 0, 'r/start'), ints(b, post, 'r/stop'), ints(b, 1, 'r/step')],
                                     'r', output_type=np.int64), found], 'round')
        chosen = b.op(Gather, [kept, index, ints(b, 0, 'chosen/axis')], 'chosen')
        rois = b.op(Gather, [best_boxes, chosen, ints(b, 0, 'rois/axis')], 'roi_boxes')
        batch = b.op(Broadcast, [f32(0, 'batch0'), ints(b, [post, 1], 'batch/shape')], 'batch')
        out = b.op(Concat, [batch, rois], 'rois', axis=1, in_ports_count=2)
        if not attr.bool('output_score', False):
            return [out]
        score = b.op(Gather, [best.out_port(0), chosen, ints(b, 0, 'score/axis')], 'roi_scores')
        return [out, b.op(Unsqueeze, [score, ints(b, [1], 'score/axis1')], 'score')]


class MultiProposalLowering(OpRule):
    """_contrib_MultiProposal(cls_prob [B, 2A, H, W], bbox_pred [B, 4A, H, W], im_info [B, 3]): each image's
    _contrib_Proposal (``ProposalLowering``) on its own (``mo.front.mxnet.per_image``), the rois of image b in rows
    b * post .. (b + 1) * post with b in column 0: rois [B * post, 5], scores [B * post, 1] with output_score."""
    op = 'MXcontrib_MultiProposal'

    def rewrite(self, node: Node, b: Builder):
        outputs = 2 if mxnet_attr(node).bool('output_score', False) else 1
        one = dataclasses.replace(node.pb, op='_contrib_Proposal')
        symbol = image_symbol(one, 3, outputs, add_batch_axis=True)
        images = b.op(TensorIterator, [node.in_port(k) for k in range(3)], 'per_image', mxnet_image_symbol=symbol,
                      build_body=image_body, sliced=3, states=0, stacked=outputs, in_ports_count=3,
                      out_ports_count=outputs)
        stacked = images.out_port(0)  # [B, post, 5], column 0 the index within the image (0)
        boxes = b.op(Slice, [stacked, ints(b, [1], 'boxes/start'), ints(b, [5], 'boxes/stop'),
                             ints(b, [1], 'boxes/step'), ints(b, [2], 'boxes/axis')], 'boxes')
        zero_column = b.op(Slice, [stacked, ints(b, [0], 'zero/start'), ints(b, [1], 'zero/stop'),
                                   ints(b, [1], 'zero/step'), ints(b, [2], 'zero/axis')], 'zero_column')
        count = b.op(Squeeze, [dims(b, stacked, [0], 'batch'), ints(b, [0], 'batch/axis')], 'batch_count')
        index = b.op(Range, [ints(b, 0, 'index/start'), count, ints(b, 1, 'index/step')], 'index', output_type=np.int64)
        index = b.op(Reshape, [b.op(Convert, [index], 'index_f', dst_type=np.dtype(F32)),
                               ints(b, [-1, 1, 1], 'index/shape')], 'image_index')
        column = b.op(Add, [zero_column, index], 'image_column')  # [B, post, 1]
        rois = b.op(Concat, [column, boxes], 'rois_by_image', axis=2, in_ports_count=2)
        result = [b.op(Reshape, [rois, ints(b, [-1, 5], 'rois/shape')], 'rois')]
        if outputs == 2:
            result.append(b.op(Reshape, [images.out_port(1), ints(b, [-1, 1], 'scores/shape')], 'scores'))
        return result
