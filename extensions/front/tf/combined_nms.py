"""TensorFlow's CombinedNonMaxSuppression from the opset's NonMaxSuppression.

TF runs a greedy NMS per batch and class (scores above score_threshold, at most
``S = min(max_output_size_per_class, num_boxes)`` boxes each), files each class's selections in ``S`` slots
(unused slots score -1), sorts a batch's ``C * S`` slots by score and keeps the first
``K = max_total_size`` (``min(max_total_size, max_output_size_per_class * C)`` with pad_per_class); rows past
the number of real selections are zeros. Here:

1. one NonMaxSuppression call over ``B * C`` "batches" (each batch's boxes for one class, scores of that class
   only), so that a box per class (q = C) works as well as shared boxes (q = 1);
2. each selection's slot = its (batch, class) group * S + its rank in the group (the opset lists selections by
   group in selection order), scattered into a slot canvas of scores (-1 elsewhere) and box indices (-1);
3. TopK(K) of each batch's slots; rows at or past the batch's count of real selections become zeros, the
   others take the slot's score, class (-1 for an empty slot, which TF ranks too when real scores are below -1)
   and box (clipped to [0, 1] with clip_boxes).
"""
import numpy as np

from mo.front.common.formula_kit import F32, I32, I64, arange, batched_gather, column, dim
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, GreaterEqual, Less, LogicalAnd, Maximum, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.non_max_suppression import NonMaxSuppression
from mo.ops.reduce import ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.tensor_ops import CumSum, ScatterNDUpdate


def _vector(b, scalars, tag: str):
    """A 1-D int64 tensor of the given scalars (int64 tensors or Python ints)."""
    parts = [b.unsqueeze(s, [0], '{}/{}'.format(tag, k)) if not isinstance(s, int) else
             b.const([s], '{}/{}'.format(tag, k), I64) for k, s in enumerate(scalars)]
    return b.op(Concat, parts, tag, axis=0, in_ports_count=len(parts))


def _filled(b, value, dtype, shape, tag: str):
    return b.op(Broadcast, [b.const(value, tag + '/value', dtype), shape], tag)


class CombinedNonMaxSuppressionLowering(OpRule):
    """CombinedNonMaxSuppression(boxes [B, N, q, 4], scores [B, N, C], max_output_size_per_class, max_total_size,
    iou_threshold, score_threshold) -> nmsed_boxes [B, K, 4], nmsed_scores [B, K], nmsed_classes [B, K],
    valid_detections [B] (see the module docstring)."""
    op = 'CombinedNonMaxSuppression'

    def rewrite(self, node: Node, b: Builder):
        boxes, scores = node.in_port(0), node.in_port(1)
        batch, count, classes = (dim(b, scores, axis, name, I64) for axis, name in
                                 ((0, 'batch'), (1, 'boxes_count'), (2, 'classes')))
        groups = b.op(Mul, [batch, classes], 'groups')
        # every (batch, class) pair's boxes: [B, q, N, 4] broadcast over the classes
        class_boxes = b.op(Broadcast, [b.transpose(boxes, [0, 2, 1, 3], 'boxes_by_class'),
                                       _vector(b, [batch, classes, count, 4], 'class_boxes_shape')], 'class_boxes')
        group_boxes = b.op(Reshape, [class_boxes, _vector(b, [-1, count, 4], 'group_boxes_shape')], 'group_boxes')
        # OpenVINO's CPU NonMaxSuppression keeps the scores above the threshold, as TF does (the opset's text says
        # at or above; tests/ops/cases_detection.py holds scores equal to the threshold)
        class_scores = b.transpose(scores, [0, 2, 1], 'scores_by_class')
        group_scores = b.op(Reshape, [class_scores, _vector(b, [-1, 1, count], 'group_scores_shape')], 'group_scores')
        per_class = b.cast(node.in_port(2), I64, 'per_class')
        nms = b.op(NonMaxSuppression, [group_boxes, group_scores, per_class, node.in_port(4), node.in_port(5)],
                   'nms', output_type=np.int64, sort_result_descending=False, in_ports_count=5)
        group = column(b, nms.out_port(0), 0, 'selected_group')
        box = column(b, nms.out_port(0), 2, 'selected_box')
        selected_score = column(b, nms.out_port(1), 2, 'selected_score')
        # each selection's slot: its group's first slot + its rank in the group
        slots = b.op(Minimum, [per_class, count], 'slots')
        ones = _filled(b, 1, I64, b.op(ShapeOf, [group], 'selected_count'), 'ones')
        per_group = b.op(ScatterNDUpdate, [_filled(b, 0, I64, b.unsqueeze(groups, [0], 'groups_vector'),
                                                   'no_selections'),
                                           b.unsqueeze(group, [1], 'group_column'), ones], 'per_group',
                         reduction='sum')
        group_start = b.op(CumSum, [per_group, b.const(0, 'cumsum_axis', I64)], 'group_start', exclusive=True)
        rank = b.op(Sub, [arange(b, dim(b, group, 0, 'selections', I64), 'position', I64),
                          b.op(Gather, [group_start, group, b.const(0, 'start_axis', I64)], 'first_of_group')],
                    'rank')
        slot = b.unsqueeze(b.op(Add, [b.op(Mul, [group, slots], 'group_slot'), rank], 'slot'), [1], 'slot_column')
        canvas_shape = b.unsqueeze(b.op(Mul, [groups, slots], 'all_slots'), [0], 'canvas_shape')
        batch_slots = _vector(b, [batch, -1], 'batch_slots')
        slot_scores = b.op(Reshape, [b.op(ScatterNDUpdate, [_filled(b, -1.0, F32, canvas_shape, 'empty_scores'),
                                                            slot, selected_score], 'slot_scores_flat'),
                                     batch_slots], 'slot_scores')
        slot_boxes = b.op(Reshape, [b.op(ScatterNDUpdate, [_filled(b, -1, I64, canvas_shape, 'empty_boxes'), slot,
                                                           box], 'slot_boxes_flat'), batch_slots], 'slot_boxes')
        # the first K slots of each batch by score (padded so that TopK always has K to pick from)
        total = b.cast(node.in_port(3), I64, 'max_total')
        if node.pad_per_class:
            total = b.op(Minimum, [total, b.op(Mul, [per_class, classes], 'per_class_total')], 'per_batch')
        padding_shape = _vector(b, [batch, total], 'padding_shape')
        padded_scores = b.op(Concat, [slot_scores, _filled(b, -np.inf, F32, padding_shape, 'score_padding')],
                             'padded_scores', axis=1)
        padded_boxes = b.op(Concat, [slot_boxes, _filled(b, -1, I64, padding_shape, 'box_padding')], 'padded_boxes',
                            axis=1)
        top = b.op(TopK, [padded_scores, total], 'top', axis=1, mode='max', sort='value', stable=True,
                   index_element_type='i64')
        picked_box = batched_gather(b, padded_boxes, top.out_port(1), 2, 'picked_box')
        real_slot = b.op(GreaterEqual, [picked_box, b.const(0, 'zero', I64)], 'real_slot')
        # rows past the batch's number of real selections are zeros
        real_count = b.op(ReduceSum, [b.cast(b.op(GreaterEqual, [slot_boxes, b.const(0, 'zero_', I64)],
                                                   'is_real'), I32, 'is_real_int'), b.const([1], 'count_axis', I64)],
                          'real_count')
        valid = b.op(Minimum, [real_count, b.cast(total, I32, 'total_i32')], 'valid_detections')
        row = b.unsqueeze(arange(b, b.cast(total, I32, 'rows_count'), 'row', I32), [0], 'row_index')
        shown = b.op(Less, [row, b.unsqueeze(valid, [1], 'valid_column')], 'shown')
        zero = b.const(0, 'zero_f', F32)
        nmsed_scores = b.op(Select, [shown, top.out_port(0), zero], 'nmsed_scores')
        class_index = b.op(Div, [top.out_port(1), slots], 'class_index')
        class_value = b.op(Select, [real_slot, b.cast(class_index, F32, 'class_float'), b.const(-1, 'no_class', F32)],
                           'class_value')
        nmsed_classes = b.op(Select, [shown, class_value, zero], 'nmsed_classes')
        flat_boxes = b.op(Reshape, [class_boxes, _vector(b, [batch, -1, 4], 'flat_boxes_shape')], 'flat_boxes')
        flat_index = b.op(Add, [b.op(Mul, [class_index, count], 'class_start'),
                                b.op(Maximum, [picked_box, b.const(0, 'no_box', I64)], 'box_or_0')], 'flat_index')
        flat_index = b.op(Minimum, [flat_index, b.op(Sub, [b.op(Mul, [classes, count], 'all_boxes'),
                                                           b.const(1, 'one', I64)], 'last_box')], 'flat_index_in')
        if node.clip_boxes:
            flat_boxes = b.op(Clamp, [flat_boxes], 'clipped', min=0.0, max=1.0)
        coords = batched_gather(b, flat_boxes, flat_index, 2, 'coords')
        keep = b.unsqueeze(b.op(LogicalAnd, [shown, real_slot], 'row_box'), [2], 'row_box_3d')
        nmsed_boxes = b.op(Select, [keep, coords, zero], 'nmsed_boxes')
        return [nmsed_boxes, nmsed_scores, nmsed_classes, valid]
