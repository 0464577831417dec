"""MXNet's _contrib_MultiBoxDetection (SSD's decoder) as opset ops, in MXNet's own output layout."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.box_lowering import corners
from extensions.front.mxnet.formulas import concat, dims, ints
from extensions.ops.tensor_iterator import TensorIterator
from mo.front.common.rule import Builder, OpRule
from mo.front.mxnet.per_image import image_body, image_symbol, in_image_body
from mo.graph.graph import Node
from mo.ops.activation_ops import Exp
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Equal, GreaterEqual, Minimum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.nn_ops import TopK
from mo.ops.non_max_suppression import NonMaxSuppression
from mo.ops.range import Range
from mo.ops.reduce import ReduceMax, ReduceMin, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.split import Split
from mo.ops.squeeze import Squeeze
from mo.ops.tensor_ops import NonZero
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

F32 = np.float32
I64 = np.int64


class MultiBoxDetectionLowering(OpRule):
    """_contrib_MultiBoxDetection(cls_prob [B, C, A], loc_pred [B, 4A], anchors [1, A, 4]) as MXNet computes it, image
    by image (``mo.front.mxnet.per_image``); of one image:
    each anchor's best class but the background (the first of equal ones) and its score, valid when the score is
    at least threshold; boxes decoded with the variances (clipped to [0, 1] with clip). Rows: the nms_topk best
    valid records (all with -1), stably sorted, those suppressed by a better one of their class (any with
    force_suppress) at IoU nms_threshold marked id -1; then the other valid records in anchor order with id -1;
    then rows of -1: [1, A, 6] of (id, score, x1, y1, x2, y2); [B, A, 6] for the batch."""
    op = 'MXcontrib_MultiBoxDetection'

    def rewrite(self, node: Node, b: Builder):
        if not in_image_body(node.graph):
            # a batch: each image on its own (cls_prob and loc_pred sliced, the anchors shared)
            symbol = image_symbol(node.pb, 3, 1, add_batch_axis=False)
            return b.op(TensorIterator, [node.in_port(k) for k in range(3)], 'per_image', mxnet_image_symbol=symbol,
                        build_body=image_body, sliced=2, states=0, stacked=1, in_ports_count=3, out_ports_count=1)
        attr = mxnet_attr(node)
        if attr.int('background_id', 0) != 0:
            raise Error('_contrib_MultiBoxDetection "{}": a background_id other than 0 is not converted', b.name)
        variances = attr.tuple('variances', (0.1, 0.1, 0.2, 0.2), item='float')
        threshold, topk = attr.float('threshold', 0.01), attr.int('nms_topk', -1)

        def f32(value, tag):
            return b.const(np.array(value, F32), tag, F32)

        probs = b.op(Squeeze, [node.in_port(0), ints(b, [0], 'probs/axis')], 'probs')  # [C, A]
        fg = b.op(Slice, [probs, ints(b, [1], 'fg/start'), ints(b, [2 ** 62], 'fg/stop'), ints(b, [1], 'fg/step'),
                          ints(b, [0], 'fg/axis')], 'fg')
        best = b.op(TopK, [fg, ints(b, 1, 'best/k')], 'best', axis=0, mode='max', sort='value',
                    index_element_type='i64', out_ports_count=2)  # stable: the first of equal scores
        score = b.op(Squeeze, [best.out_port(0), ints(b, [0], 'score/axis')], 'score')  # [A]
        class_id = b.op(Convert, [b.op(Squeeze, [best.out_port(1), ints(b, [0], 'id/axis')], 'id_i')], 'id',
                        dst_type=np.dtype(F32))
        valid = b.op(GreaterEqual, [score, f32(threshold, 'threshold')], 'valid')
        # boxes: centre + offset * variance * size, size * exp(offset * variance)
        anchors = b.op(Reshape, [node.in_port(2), ints(b, [-1, 4], 'anchors/shape')], 'anchors')
        loc = b.op(Reshape, [node.in_port(1), ints(b, [-1, 4], 'loc/shape')], 'loc')
        a = b.op(Split, [anchors, ints(b, 1, 'a/axis')], 'a', num_splits=4)
        p = b.op(Split, [loc, ints(b, 1, 'p/axis')], 'p', num_splits=4)
        half = f32(0.5, 'half')
        aw, ah = b.op(Sub, [a.out_port(2), a.out_port(0)], 'aw'), b.op(Sub, [a.out_port(3), a.out_port(1)], 'ah')
        ax = b.op(Mul, [b.op(Add, [a.out_port(0), a.out_port(2)], 'ax2'), half], 'ax')
        ay = b.op(Mul, [b.op(Add, [a.out_port(1), a.out_port(3)], 'ay2'), half], 'ay')
        ox = b.op(Add, [b.op(Mul, [b.op(Mul, [p.out_port(0), f32(variances[0], 'vx')], 'px'), aw], 'dx'), ax], 'ox')
        oy = b.op(Add, [b.op(Mul, [b.op(Mul, [p.out_port(1), f32(variances[1], 'vy')], 'py'), ah], 'dy'), ay], 'oy')
        ow = b.op(Mul, [b.op(Mul, [b.op(Exp, [b.op(Mul, [p.out_port(2), f32(variances[2], 'vw')], 'pw')], 'ew'), aw],
                             'ow2'), half], 'ow')
        oh = b.op(Mul, [b.op(Mul, [b.op(Exp, [b.op(Mul, [p.out_port(3), f32(variances[3], 'vh')], 'ph')], 'eh'), ah],
                             'oh2'), half], 'oh')
        boxes = corners(b, ox, oy, ow, oh, 'boxes', clip=attr.bool('clip', True))  # [A, 4]
        records = b.op(Concat, [b.op(Unsqueeze, [class_id, ints(b, [1], 'id_col')], 'id_column'),
                                b.op(Unsqueeze, [score, ints(b, [1], 'score_col')], 'score_column'), boxes],
                       'records', axis=1, in_ports_count=3)  # [A, 6]
        # the valid records in anchor order, and the nkeep best of them
        count = b.op(ReduceSum, [b.op(Convert, [valid], 'valid_i', dst_type=np.dtype(I64)), ints(b, [0], 'v/axis')],
                     'valid_count', keep_dims=True)
        nkeep = count if topk <= 0 else b.op(Minimum, [count, ints(b, [topk], 'topk')], 'nkeep')
        masked = b.op(Select, [valid, score, f32(-3e38, 'lowest')], 'masked')
        order = b.op(TopK, [masked, b.op(Squeeze, [nkeep, ints(b, [0], 'k/axis')], 'k')], 'order', axis=0,
                     mode='max', sort='value', index_element_type='i64', out_ports_count=2)
        ranked = b.op(Gather, [records, order.out_port(1), ints(b, 0, 'ranked/axis')], 'ranked')  # [nkeep, 6]
        nms_boxes = b.op(Slice, [ranked, ints(b, [2], 'nb/start'), ints(b, [6], 'nb/stop'), ints(b, [1], 'nb/step'),
                                 ints(b, [1], 'nb/axis')], 'nms_boxes0')
        ranked_ids = b.op(Gather, [ranked, ints(b, 0, 'rid/i'), ints(b, 1, 'rid/a')], 'ranked_ids')
        if not attr.bool('force_suppress', False):
            # each class's boxes moved past the others': no IoU across classes
            every = ints(b, [0, 1], 'all')
            extent = b.op(Sub, [b.op(ReduceMax, [nms_boxes, every], 'max'), b.op(ReduceMin, [nms_boxes, every], 'min')],
                          'extent')
            span = b.op(Add, [extent, f32(1, 'one')], 'span')
            shift = b.op(Mul, [b.op(Unsqueeze, [ranked_ids, ints(b, [1], 'shift/axis')], 'ids_col'), span], 'shift')
            nms_boxes = b.op(Add, [nms_boxes, shift], 'shifted')
        nms = b.op(NonMaxSuppression, [
            b.op(Unsqueeze, [nms_boxes, ints(b, [0], 'nms/b_axis')], 'nms_boxes'),
            b.op(Unsqueeze, [order.out_port(0), ints(b, [0, 1], 'nms/s_axes')], 'nms_scores'), nkeep,
            f32(attr.float('nms_threshold', 0.5), 'iou'), f32(-3e38, 'score_threshold')], 'nms',
            box_encoding='corner', sort_result_descending=False, output_type=np.int64, out_ports_count=3)
        chosen = b.op(Gather, [nms.out_port(0), ints(b, 2, 'chosen/i'), ints(b, 1, 'chosen/a')], 'chosen')  # [M]
        positions = b.op(Range, [ints(b, 0, 'pos/start'), b.op(Squeeze, [nkeep, ints(b, [0], 'pos/axis')], 'pos/n'),
                                 ints(b, 1, 'pos/step')], 'positions', output_type=I64)
        hits = b.op(Equal, [b.op(Unsqueeze, [chosen, ints(b, [1], 'hits/axis')], 'chosen_col'), positions], 'hits')
        kept = b.op(ReduceSum, [b.op(Convert, [hits], 'hits_i', dst_type=np.dtype(I64)), ints(b, [0], 'kept/axis')],
                    'kept_count')
        is_kept = b.op(Convert, [kept], 'is_kept', dst_type=np.dtype(np.bool_))
        minus = f32(-1, 'minus_one')
        head_ids = b.op(Select, [is_kept, ranked_ids, minus], 'head_ids')
        rest = b.op(Slice, [ranked, ints(b, [1], 'rest/start'), ints(b, [6], 'rest/stop'), ints(b, [1], 'rest/step'),
                            ints(b, [1], 'rest/axis')], 'ranked_rest')
        head = b.op(Concat, [b.op(Unsqueeze, [head_ids, ints(b, [1], 'head/axis')], 'head_id_col'), rest], 'head',
                    axis=1, in_ports_count=2)
        # the valid records after the nkeep best, in anchor order, id -1
        where = b.op(Squeeze, [b.op(NonZero, [valid], 'valid_where', output_type=I64), ints(b, [0], 'w/axis')],
                     'valid_index')
        compact = b.op(Gather, [records, where, ints(b, 0, 'compact/axis')], 'compact')
        tail = b.op(Slice, [compact, nkeep, ints(b, [2 ** 62], 'tail/stop'), ints(b, [1], 'tail/step'),
                            ints(b, [0], 'tail/axis')], 'tail_records')
        tail_rest = b.op(Slice, [tail, ints(b, [1], 'tr/start'), ints(b, [6], 'tr/stop'), ints(b, [1], 'tr/step'),
                                 ints(b, [1], 'tr/axis')], 'tail_rest')
        tail_ids = b.op(Broadcast, [minus, concat(b, [dims(b, tail, [0], 'tail/n'), ints(b, [1], 'tail/one')],
                                                  'tail/id_shape')], 'tail_ids')
        tail = b.op(Concat, [tail_ids, tail_rest], 'tail', axis=1, in_ports_count=2)
        anchors_count = dims(b, records, [0], 'anchor_count')
        fill = b.op(Broadcast, [minus, concat(b, [anchors_count, ints(b, [6], 'fill/six')], 'fill/shape')], 'fill')
        rows = b.op(Concat, [head, tail, fill], 'rows', axis=0, in_ports_count=3)
        rows = b.op(Slice, [rows, ints(b, [0], 'out/start'), anchors_count, ints(b, [1], 'out/step'),
                            ints(b, [0], 'out/axis')], 'first_rows')
        return b.op(Unsqueeze, [rows, ints(b, [0], 'out/batch')], 'detections')
