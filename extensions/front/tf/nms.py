"""TensorFlow's NonMaxSuppression (V1) and V2/V3/V4/V5 as the opset's NonMaxSuppression (one batch, one class).

TF selects from boxes ``[N, 4]`` scored ``[N]`` and returns box indices in descending score order;
the opset op works on ``[B, N, 4]`` / ``[B, C, N]`` and returns (batch, class, box) triples, sorted
by score. So the boxes get a batch dimension, the scores batch and class dimensions, and TF's
outputs are cut out of the opset's: column 2 of selected_indices (int32), column 2 of
selected_scores (V5), the number of selections (V4, V5), and for V4 with pad_to_max_output_size the
indices padded with zeros up to max_output_size.
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.graph.graph import Node
from mo.ops.convert import Convert
from mo.ops.elementwise import Sub
from mo.ops.gather import Gather
from mo.ops.non_max_suppression import NonMaxSuppression
from mo.ops.pad import Pad
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.squeeze import Squeeze
from mo.ops.unsqueeze import Unsqueeze

_VERSIONS = ('NonMaxSuppressionV2', 'NonMaxSuppressionV3', 'NonMaxSuppressionV4', 'NonMaxSuppressionV5',
             'NonMaxSuppression')


class NonMaxSuppressionExtractor(FrontExtractorOp):
    """NonMaxSuppression (V1), V2, V3, V4, V5 -> NonMaxSuppression (opset9) on one batch and class, TF's outputs
    cut out of the opset's (V1's iou_threshold attribute, V4 padding to max_output_size, V5 scores and
    soft_nms_sigma)."""
    op = list(_VERSIONS)

    @classmethod
    def extract(cls, node):
        node['pad_to_max_output_size'] = bool(tf_attr(node, 'pad_to_max_output_size', False))
        node['scores_type'] = tf_dtype_attr(node, 'T', np.dtype(np.float32))  # V5's selected_scores are of it
        if node.op == 'NonMaxSuppression':  # V1: the threshold is an attribute, not input 3
            node['iou_threshold'] = float(tf_attr(node, 'iou_threshold', 0.5))
            node['op'] = 'NonMaxSuppressionV1'  # 'NonMaxSuppression' is the opset op made of it
        return True


def _column(b: Builder, source, column: int, suffix: str) -> Node:
    """Column ``column`` of a [count, 3] selection (batch, class, box) output."""
    return b.op(Gather, [source, b.const(column, suffix + '/port_1', np.int64),
                         b.const(1, suffix + '/port_2', np.int64)], suffix)


class NonMaxSuppressionToOpset(OpRule):
    """NonMaxSuppressionV2-V5(boxes, scores, max_output_size, iou[, score[, sigma]]) -> opset NonMaxSuppression."""
    op = _VERSIONS[0]

    def rewrite(self, node: Node, b: Builder):
        nms = b.op(NonMaxSuppression, [], 'nms', output_type=np.int32, sort_result_descending=True)
        boxes = b.op(Unsqueeze, [node.in_port(0), b.const([0], 'boxes/port_1', np.int64)], 'boxes')
        boxes.out_port(0).connect(nms.in_port(0))
        scores = b.op(Unsqueeze, [node.in_port(1), b.const([0, 1], 'scores/port_1', np.int64)], 'scores')
        scores.out_port(0).connect(nms.in_port(1))
        for port in range(2, 6):  # max_output_size, iou_threshold, score_threshold, soft_nms_sigma: TF's order
            if node.is_in_port_connected(port):
                node.in_port(port).get_source().connect(nms.in_port(port))
        if node.op == 'NonMaxSuppressionV1':  # its IoU threshold is an attribute
            b.const(node.iou_threshold, 'iou_threshold', np.float32).out_port(0).connect(nms.in_port(3))
        indices = _column(b, nms.out_port(0), 2, 'indices')
        outputs = [indices]
        if node.op == 'NonMaxSuppressionV4' and node.soft_get('pad_to_max_output_size', False):
            outputs = [self._padded(node, b, indices)]
        if node.op == 'NonMaxSuppressionV5':
            scores = _column(b, nms.out_port(1), 2, 'selected_scores')
            scores_type = np.dtype(node.soft_get('scores_type', None) or np.float32)
            if scores_type != np.float32:  # the opset's selected_scores are float32 whatever the scores' type
                scores = b.op(Convert, [scores], 'selected_scores_type', dst_type=scores_type)
            outputs.append(scores)
        if node.op in ('NonMaxSuppressionV4', 'NonMaxSuppressionV5'):
            # valid_outputs: how many indices there are (the opset's own count output would leave its
            # scores output unused in V4, a gap the IR cannot express)
            shape = b.op(ShapeOf, [indices], 'valid_shape', output_type=np.int32)
            outputs.append(b.op(Squeeze, [shape, b.const([0], 'valid/port_1', np.int64)], 'valid'))
        return outputs

    @staticmethod
    def _padded(node: Node, b: Builder, indices: Node) -> Node:
        """The indices padded with zeros to max_output_size (V4's pad_to_max_output_size)."""
        count = b.op(ShapeOf, [indices], 'count', output_type=np.int32)
        wanted = b.op(Reshape, [node.in_port(2), b.const([1], 'max_size/port_1', np.int64)], 'max_size')
        missing = b.op(Sub, [wanted, count], 'missing')
        return b.op(Pad, [indices, b.const([0], 'pads_begin', np.int32), missing], 'padded', pad_mode='constant')


class NonMaxSuppressionV1ToOpset(NonMaxSuppressionToOpset):
    op = 'NonMaxSuppressionV1'


class NonMaxSuppressionV3ToOpset(NonMaxSuppressionToOpset):
    op = 'NonMaxSuppressionV3'


class NonMaxSuppressionV4ToOpset(NonMaxSuppressionToOpset):
    op = 'NonMaxSuppressionV4'


class NonMaxSuppressionV5ToOpset(NonMaxSuppressionToOpset):
    op = 'NonMaxSuppressionV5'
