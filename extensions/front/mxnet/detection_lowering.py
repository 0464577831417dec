"""MXNet's region and suppression ops from opset ops: _contrib_ROIAlign (ROIAlign-9) and _contrib_box_nms
(NonMaxSuppression-9 with MXNet's output layout)."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.box_lowering import corners
from extensions.front.mxnet.formulas import BIG, dims, ints
from extensions.ops.detection import ROIAlign
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Greater, Minimum, Mul, NotEqual, Sub
from mo.ops.gather import Gather
from mo.ops.non_max_suppression import NonMaxSuppression
from mo.ops.nn_ops import TopK
from mo.ops.reduce import ReduceMax, ReduceMin
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze
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
    from mo.ops.split import Split
    split = b.op(Split, [boxes, ints(b, -1, suffix + '/axis')], suffix + '/split', num_splits=4)
    half = b.const(np.array(0.5, F32), suffix + '/half', F32)
    w = b.op(Mul, [split.out_port(2), half], suffix + '/half_w')
    h = b.op(Mul, [split.out_port(3), half], suffix + '/half_h')
    return corners(b, split.out_port(0), split.out_port(1), w, h, suffix)


def _to_centres(b: Builder, boxes, suffix: str):
    """Corner-form boxes ``[.., 4]`` as (cx, cy, w, h)."""
    from mo.ops.split import Split
    split = b.op(Split, [boxes, ints(b, -1, suffix + '/axis')], suffix + '/split', num_splits=4)
    w = b.op(Sub, [split.out_port(2), split.out_port(0)], suffix + '/w')
    h = b.op(Sub, [split.out_port(3), split.out_port(1)], suffix + '/h')
    half = b.const(np.array(0.5, F32), suffix + '/half', F32)
    cx = b.op(Add, [split.out_port(0), b.op(Mul, [w, half], suffix + '/hw')], suffix + '/cx')
    cy = b.op(Add, [split.out_port(1), b.op(Mul, [h, half], suffix + '/hh')], suffix + '/cy')
    return b.op(Concat, [cx, cy, w, h], suffix, axis=-1, in_ports_count=4)


class BoxNMSLowering(OpRule):
    """_contrib_box_nms(data [1, N, K]) = the records of NonMaxSuppression's choice, best first, then rows of -1
    up to N. A record is valid with score > valid_thresh (and an id other than background_id); only the topk best
    valid ones compete (topk -1: all); a box suppresses a worse one of IoU > overlap_thresh of its own id (any id
    with force_suppress or without id_index), ids kept apart by shifting each id's boxes beyond the others';
    out_format other than in_format rewrites the coordinates of the records given."""
    op = 'MXcontrib_box_nms'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        start, score_index = attr.int('coord_start', 2), attr.int('score_index', 1)
        id_index, background = attr.int('id_index', -1), attr.int('background_id', -1)
        topk, threshold = attr.int('topk', -1), attr.float('valid_thresh', 0.0)
        in_format, out_format = attr.str('in_format', 'corner'), attr.str('out_format', 'corner')
        records = b.op(Squeeze, [node.in_port(0), ints(b, [0], 'batch_axis')], 'records')  # [N, K]
        count = dims(b, records, [0], 'count')
        scores = column(b, records, score_index, 'scores')
        valid = b.op(Greater, [scores, b.const(np.array(threshold, F32), 'valid_thresh', F32)], 'valid')
        if id_index >= 0 and background >= 0:
            ids = column(b, records, id_index, 'ids_bg')
            from mo.ops.elementwise import LogicalAnd
            valid = b.op(LogicalAnd, [valid, b.op(NotEqual, [ids, b.const(np.array(background, F32), 'background',
                                                                           F32)], 'not_background')], 'valid_id')
        lowest = b.const(np.array(-3e38, F32), 'lowest', F32)
        masked = b.op(Select, [valid, scores, lowest], 'masked')
        if topk > 0:
            k = b.op(Squeeze, [b.op(Minimum, [count, ints(b, [topk], 'topk')], 'k_1d'), ints(b, [0], 'k_axis')], 'k')
            best = b.op(TopK, [masked, k], 'best', axis=0, mode='max', sort='value', index_element_type='i64',
                        out_ports_count=2)
            records = b.op(Gather, [records, best.out_port(1), ints(b, 0, 'best_axis')], 'best_records')
            masked = best.out_port(0)
        boxes = columns(b, records, start, start + 4, 'boxes')
        if in_format == 'center':
            boxes = _to_corners(b, boxes, 'corners')
        if id_index >= 0 and not attr.bool('force_suppress', False):
            # each id's boxes moved past every other id's: no IoU across ids
            span = b.op(Add, [b.op(Sub, [b.op(ReduceMax, [boxes, ints(b, [0, 1], 'all')], 'max'),
                                         b.op(ReduceMin, [boxes, ints(b, [0, 1], 'all2')], 'min')], 'range'),
                              b.const(np.array(1, F32), 'one', F32)], 'span')
            ids = columns(b, records, id_index, id_index + 1, 'ids')
            boxes = b.op(Add, [boxes, b.op(Mul, [ids, span], 'shift')], 'shifted')
        nms = b.op(NonMaxSuppression, [
            b.op(Unsqueeze, [boxes, ints(b, [0], 'boxes_axis')], 'nms_boxes'),
            b.op(Unsqueeze, [masked, ints(b, [0, 1], 'scores_axes')], 'nms_scores'),
            b.op(Convert, [count], 'max_boxes', dst_type=np.dtype(np.int64)),
            b.const(np.array(attr.float('overlap_thresh', 0.5), F32), 'iou', F32),
            b.const(np.array(-1e38, F32), 'score_threshold', F32)], 'nms', box_encoding='corner',
            sort_result_descending=True, output_type=np.int64, out_ports_count=3)
        chosen = column(b, nms.out_port(0), 2, 'chosen')
        kept = b.op(Gather, [records, chosen, ints(b, 0, 'kept_axis')], 'kept')
        if in_format != out_format:
            coords = columns(b, kept, start, start + 4, 'kept_boxes')
            coords = _to_centres(b, coords, 'centres') if out_format == 'center' else _to_corners(b, coords, 'corners_out')
            kept = b.op(Concat, [columns(b, kept, 0, start, 'head'), coords, columns(b, kept, start + 4, None, 'tail')],
                        'kept_format', axis=1, in_ports_count=3)
        from extensions.front.mxnet.formulas import concat, shape_of
        fill = b.op(Broadcast, [b.const(np.array(-1, F32), 'minus_one', F32),
                                concat(b, [dims(b, node.in_port(0), [1, 2], 'nk')], 'fill_shape')], 'fill')
        padded = b.op(Concat, [kept, fill], 'padded', axis=0, in_ports_count=2)
        rows = b.op(Slice, [padded, ints(b, [0], 'rows_start'), count, ints(b, [1], 'rows_step'),
                            ints(b, [0], 'rows_axis')], 'rows')
        del shape_of
        return b.op(Unsqueeze, [rows, ints(b, [0], 'out_batch')], 'output')
