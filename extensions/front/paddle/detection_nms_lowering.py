"""Paddle's prior boxes, NMS and proposals (internal ops of ``detection_ext.py``) as the opset ops OpenVINO
made for them: PriorBox-8, MulticlassNms-9, MatrixNms-8, GenerateProposals-9."""
import numpy as np

from mo.front.common.nn_formulas import I64
from extensions.front.paddle.detection_lowering import _dim, _outputs, _port, split
from extensions.ops.paddle_detection import GenerateProposals, MatrixNms, MulticlassNms, PriorBox
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, FloorMod, GreaterEqual, Mul
from mo.ops.nn_ops import TopK
from mo.ops.reduce import ReduceSum
from mo.ops.tensor_ops import CumSum
from mo.ops.gather import Gather
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze

F32 = np.float32


def _hw(b: Builder, tensor, tag: str):
    """``shape(tensor)[2:4]`` (int64): an NCHW tensor's height and width."""
    return b.op(Gather, [b.op(ShapeOf, [tensor], tag + '/shape'), b.const([2, 3], tag + '/indices', I64),
                         b.const(0, tag + '/axis', I64)], tag)


class PaddlePriorBoxLowering(OpRule):
    """prior_box(Input, Image) -> Boxes, Variances ``[H, W, priors, 4]``: PriorBox-8 over the feature map's and the
    image's sizes (Paddle's priors per cell: for each min size the aspect ratios [1, ratios..., their inverses
    with flip] and then the max size's box, or with min_max_aspect_ratios_order the min box, the max box, then
    the other ratios; as PriorBox with ``scale_all_sizes``), its two rows reshaped."""
    op = 'PaddlePriorBox'

    def rewrite(self, node: Node, b: Builder):
        feature, image = _port(node, 'Input'), _port(node, 'Image')
        layer_hw = _hw(b, feature, 'layer_hw')
        priors = b.op(PriorBox, [layer_hw, _hw(b, image, 'image_hw')], 'prior_box', min_size=node.min_size,
                      max_size=node.max_size, aspect_ratio=node.aspect_ratio, flip=node.flip, clip=node.clip,
                      step=node.step, offset=node.offset, variance=node.variance, scale_all_sizes=True,
                      min_max_aspect_ratios_order=node.min_max_aspect_ratios_order)
        shape = b.op(Concat, [layer_hw, b.const([-1, 4], 'tail', I64)], 'out_shape', axis=0)
        boxes, variances = split(b, priors, 2, 0, 'rows')
        return _outputs(node, {'Boxes': b.op(Reshape, [boxes, shape], 'boxes'),
                               'Variances': b.op(Reshape, [variances, shape], 'variances')})


class PaddleMulticlassNmsLowering(OpRule):
    """multiclass_nms3(BBoxes [N, M, 4], Scores [N, C, M], RoisNum) -> Out [K, 6], Index [K, 1], NmsRoisNum [N] =
    MulticlassNms-9: Paddle lists each image's kept boxes by class, then by score (``classid``, per image), and
    indexes them ``image * M + box`` as the opset does.

    The two-stage form with RoisNum (BBoxes ``[M, C, 4]``, Scores ``[M, C]``: each RoI's box and score per class,
    RoisNum RoIs per image) is the opset's three-input form once made class-major (``[C, M, 4]``, ``[C, M]``),
    which keeps the same boxes and indexes them ``roi * C + class`` as Paddle does. Paddle lists them by image,
    class, then RoI (not by score): the rows are put in that order by sorting on
    ``(image * C + class) * M + roi``."""
    op = 'PaddleMulticlassNms'

    def rewrite(self, node: Node, b: Builder):
        inputs = [_port(node, 'BBoxes'), _port(node, 'Scores'), _port(node, 'RoisNum', False)]
        boxes, counts = inputs[0], inputs[2]
        if counts is not None:
            inputs[0] = b.op(Transpose, [boxes, b.const([1, 0, 2], 'boxes_order', I64)], 'boxes_class_major')
            inputs[1] = b.op(Transpose, [inputs[1], b.const([1, 0], 'scores_order', I64)], 'scores_class_major')
        nms = b.op(MulticlassNms, inputs, 'nms', sort_result_type='classid', sort_result_across_batch=False,
                   output_type=np.int32, iou_threshold=node.iou_threshold, score_threshold=node.score_threshold,
                   nms_top_k=node.nms_top_k, keep_top_k=node.keep_top_k, background_class=node.background_class,
                   normalized=node.normalized, nms_eta=node.nms_eta)
        out, index = nms.out_port(0), nms.out_port(1)
        if counts is not None:
            order = _roi_order(b, index, boxes, counts)
            out = b.op(Gather, [out, order, b.const(0, 'rows_axis', I64)], 'out_by_roi')
            index = b.op(Gather, [index, order, b.const(0, 'index_rows_axis', I64)], 'index_by_roi')
        return _outputs(node, {'Out': out, 'Index': index, 'NmsRoisNum': nms.out_port(2)})


def _roi_order(b: Builder, index, boxes, counts):
    """The permutation of the kept rows (``index`` ``[K, 1]``: ``roi * C + class``) that lists them by image,
    class, then RoI; ``boxes`` ``[M, C, 4]``, ``counts`` the RoIs of each image."""
    flat = b.op(Convert, [b.op(Reshape, [index, b.const([-1], 'flat_shape', I64)], 'index_flat')], 'index_i64',
                dst_type=np.dtype(np.int64))
    sizes = b.op(ShapeOf, [boxes], 'boxes_shape', output_type=np.dtype(np.int64))
    rois_total = b.op(Gather, [sizes, b.const(0, 'm_index', I64), b.const(0, 'm_axis', I64)], 'rois_total')
    classes = b.op(Gather, [sizes, b.const(1, 'c_index', I64), b.const(0, 'c_axis', I64)], 'classes')
    roi = b.op(Div, [flat, classes], 'roi')
    label = b.op(FloorMod, [flat, classes], 'label')
    ends = b.op(CumSum, [b.op(Convert, [counts], 'counts_i64', dst_type=np.dtype(np.int64)),
                         b.const(0, 'cumsum_axis', I64)], 'roi_ends')
    past = b.op(GreaterEqual, [b.op(Unsqueeze, [roi, b.const([1], 'roi_axis', I64)], 'roi_column'),
                               b.op(Unsqueeze, [ends, b.const([0], 'ends_axis', I64)], 'ends_row')], 'past_image')
    image = b.op(ReduceSum, [b.op(Convert, [past], 'past_i64', dst_type=np.dtype(np.int64)),
                             b.const([1], 'images_axis', I64)], 'image', keep_dims=False)
    group = b.op(Add, [b.op(Mul, [image, classes], 'image_classes'), label], 'group')
    key = b.op(Add, [b.op(Mul, [group, rois_total], 'group_offset'), roi], 'key')
    kept = b.op(Reshape, [b.op(ShapeOf, [flat], 'kept_1d', output_type=np.dtype(np.int64)),
                          b.const(np.zeros([0], np.int64), 'scalar', I64)], 'kept')
    top = b.op(TopK, [key, kept], 'by_key', axis=0, mode='min', sort='value', index_element_type='i64')
    return top.out_port(1)


class PaddleMatrixNmsLowering(OpRule):
    """matrix_nms(BBoxes, Scores) -> Out, Index, RoisNum = MatrixNms-8: each image's kept boxes by decayed
    score (``score``, per image)."""
    op = 'PaddleMatrixNms'

    def rewrite(self, node: Node, b: Builder):
        nms = b.op(MatrixNms, [_port(node, 'BBoxes'), _port(node, 'Scores')], 'nms', sort_result_type='score',
                   sort_result_across_batch=False, output_type=np.int32, score_threshold=node.score_threshold,
                   post_threshold=node.post_threshold, nms_top_k=node.nms_top_k, keep_top_k=node.keep_top_k,
                   decay_function=node.decay_function, gaussian_sigma=node.gaussian_sigma,
                   background_class=node.background_class, normalized=node.normalized)
        return _outputs(node, {'Out': nms.out_port(0), 'Index': nms.out_port(1), 'RoisNum': nms.out_port(2)})


class PaddleGenerateProposalsLowering(OpRule):
    """generate_proposals_v2(Scores [N, A, H, W], BboxDeltas [N, 4A, H, W], ImShape [N, 2], Anchors [H, W, A, 4],
    Variances [H, W, A, 4]) = GenerateProposals-9(im_info, Anchors, BboxDeltas * variances, Scores):

    * Paddle scales each delta by its variance before decoding (and clips the log-sizes after), so the deltas
      are scaled up front, the variances laid out as the deltas' ``[4A, H, W]``;
    * im_info is ``[h, w, 1]`` (the v2 op's sizes are not scaled; the classic v1 op's ImInfo ``[h, w, scale]``
      is taken as it is, its min size scaled as the opset does);
    * ``pixel_offset`` (+1 on widths, v1 always) is the opset's ``normalized`` false."""
    op = 'PaddleGenerateProposals'

    def rewrite(self, node: Node, b: Builder):
        scores, deltas = _port(node, 'Scores'), _port(node, 'BboxDeltas')
        anchors, variances = _port(node, 'Anchors'), _port(node, 'Variances', False)
        info = _port(node, 'ImInfo', False)
        pixel_offset = node.pixel_offset
        if info is not None:  # the v1 op
            im_info = b.op(Convert, [info], 'im_info', dst_type=np.dtype(F32))
            pixel_offset = True
        else:
            sizes = b.op(Convert, [_port(node, 'ImShape')], 'im_shape', dst_type=np.dtype(F32))
            ones_shape = b.op(Concat, [_dim(b, sizes, 0, 'images', I64), b.const([1], 'one_column', I64)],
                              'ones_shape', axis=0)
            ones = b.op(Broadcast, [b.const(np.array(1.0, F32), 'one', F32), ones_shape], 'ones')
            im_info = b.op(Concat, [sizes, ones], 'im_info', axis=1)
        if variances is not None:
            flat = b.op(Reshape, [variances, b.const([0, 0, -1], 'var_shape', I64)], 'var_hw4a', special_zero=True)
            per_channel = b.op(Transpose, [flat, b.const([2, 0, 1], 'var_order', I64)], 'var_4a_hw')
            deltas = b.op(Mul, [deltas, per_channel], 'scaled_deltas')
        proposals = b.op(GenerateProposals, [im_info, anchors, deltas, scores], 'proposals',
                         min_size=node.min_size, nms_threshold=node.nms_threshold, pre_nms_count=node.pre_nms_count,
                         post_nms_count=node.post_nms_count, normalized=not pixel_offset, nms_eta=node.nms_eta,
                         roi_num_type=np.int32)
        probs = b.op(Unsqueeze, [proposals.out_port(1), b.const([1], 'probs_axis', I64)], 'probs')  # Paddle: [K, 1]
        return _outputs(node, {'RpnRois': proposals.out_port(0), 'RpnRoiProbs': probs,
                               'RpnRoisNum': proposals.out_port(2)})
