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
from mo.ops.shapeof import ShapeOf
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
        from mo.ops.elementwise import Less, LogicalAnd
        from mo.ops.range import Range
        from mo.ops.reduce import ReduceSum
        from mo.ops.tensor_ops import GatherND, ScatterNDUpdate
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
            span = b.op(Add, [b.op(Sub, [b.op(ReduceMax, [boxes, every], 'max'), b.op(ReduceMin, [boxes, every], 'min')],
                                   'range'), b.const(np.array(1, F32), 'one', F32)], 'span')
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
        fill = b.op(Broadcast, [b.const(np.array(-1, F32), 'minus_one', F32), b.op(ShapeOf, [data], 'data_shape', output_type=np.int64)],
                    'fill')
        return b.op(ScatterNDUpdate, [fill, target, kept], 'output')
