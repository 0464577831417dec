"""Cases for the prior box, NMS and proposal ops (``test_paddle_detection.py``): ``prior_box``,
``multiclass_nms3`` (also its two-stage form with ``RoisNum``),
``matrix_nms`` and ``generate_proposals`` with their attributes varied."""
import numpy as np


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global PriorBox, MulticlassNms3, MulticlassNms3Rois, MulticlassNmsOld, MatrixNms, Proposals
    import paddle
    from paddle.vision import ops

    class PriorBox(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = kwargs

        def forward(self, feature, image):
            return ops.prior_box(feature, image, **self.kwargs)

    class MulticlassNms3(paddle.nn.Layer):
        """multiclass_nms3 has no Python API in Paddle 3: the op itself (as PaddleDetection calls it)."""
        def __init__(self, **attrs):
            super().__init__()
            self.attrs = dict({'score_threshold': 0.05, 'nms_top_k': -1, 'keep_top_k': -1, 'nms_threshold': 0.3,
                               'normalized': True, 'nms_eta': 1.0, 'background_label': -1}, **attrs)

        def forward(self, bboxes, scores):
            a = self.attrs
            if _in_pir():
                return paddle._C_ops.multiclass_nms3(bboxes, scores, None, a['score_threshold'], a['nms_top_k'],
                                                     a['keep_top_k'], a['nms_threshold'], a['normalized'], a['nms_eta'],
                                                     a['background_label'])
            from paddle.base.layer_helper import LayerHelper
            helper = LayerHelper('multiclass_nms3')
            out = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
            index = helper.create_variable_for_type_inference(dtype='int32')
            count = helper.create_variable_for_type_inference(dtype='int32')
            helper.append_op(type='multiclass_nms3', inputs={'BBoxes': bboxes, 'Scores': scores},
                             outputs={'Out': out, 'Index': index, 'NmsRoisNum': count}, attrs=dict(a))
            return out, index, count

    class MulticlassNms3Rois(MulticlassNms3):
        """The two-stage form: each RoI's box and score per class, RoisNum RoIs per image."""
        def forward(self, bboxes, scores, rois_num):
            a = self.attrs
            if _in_pir():
                return paddle._C_ops.multiclass_nms3(bboxes, scores, rois_num, a['score_threshold'], a['nms_top_k'],
                                                     a['keep_top_k'], a['nms_threshold'], a['normalized'], a['nms_eta'],
                                                     a['background_label'])
            from paddle.base.layer_helper import LayerHelper
            helper = LayerHelper('multiclass_nms3')
            out = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
            index = helper.create_variable_for_type_inference(dtype='int32')
            count = helper.create_variable_for_type_inference(dtype='int32')
            helper.append_op(type='multiclass_nms3', inputs={'BBoxes': bboxes, 'Scores': scores, 'RoisNum': rois_num},
                             outputs={'Out': out, 'Index': index, 'NmsRoisNum': count}, attrs=dict(a))
            return out, index, count

    class MulticlassNmsOld(MulticlassNms3):
        """The classic multiclass_nms (Out) and multiclass_nms2 (Out, Index) ops: classic programs only."""
        def forward(self, bboxes, scores):
            from paddle.base.layer_helper import LayerHelper
            outputs = []
            for op, slots in (('multiclass_nms', ['Out']), ('multiclass_nms2', ['Out', 'Index'])):
                helper = LayerHelper(op)
                made = {slot: helper.create_variable_for_type_inference(
                    dtype='int32' if slot == 'Index' else bboxes.dtype) for slot in slots}
                helper.append_op(type=op, inputs={'BBoxes': bboxes, 'Scores': scores}, outputs=made,
                                 attrs=dict(self.attrs))
                outputs += [made[slot] for slot in slots]
            return outputs

    class MatrixNms(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = dict({'score_threshold': 0.05, 'post_threshold': 0.1, 'nms_top_k': -1, 'keep_top_k': -1},
                               **kwargs)

        def forward(self, bboxes, scores):
            out, count, index = ops.matrix_nms(bboxes, scores, return_index=True, return_rois_num=True, **self.kwargs)
            return out, index, count

    class Proposals(paddle.nn.Layer):
        def __init__(self, **kwargs):
            super().__init__()
            self.kwargs = kwargs

        def forward(self, scores, deltas, img_size, anchors, variances):
            rois, probs, count = ops.generate_proposals(scores, deltas, img_size, anchors, variances,
                                                        return_rois_num=True, **self.kwargs)
            return rois, probs, count


def _prior(**kwargs):
    def make():
        return PriorBox(**kwargs), [('feature', [1, 4, 5, 6], 'float32'), ('image', [1, 3, 80, 96], 'float32')], \
            [np.zeros((1, 4, 5, 6), np.float32), np.zeros((1, 3, 80, 96), np.float32)]
    return make


def _in_pir():
    import paddle
    return paddle.framework.in_pir_mode()


def _detections(images=2, boxes=12, classes=3, pixels=False):
    """Boxes in clusters (so that NMS has overlaps to suppress) and distinct scores (so no ties to order)."""
    centers = np.random.rand(images, boxes // 3, 1, 2) * (60 if pixels else 0.6) + (10 if pixels else 0.2)
    jitter = np.random.randn(images, boxes // 3, 3, 2) * (3 if pixels else 0.03)
    size = np.random.rand(images, boxes // 3, 3, 2) * (15 if pixels else 0.15) + (8 if pixels else 0.1)
    xy = (centers + jitter).reshape(images, boxes, 2)
    size = size.reshape(images, boxes, 2)
    bboxes = np.concatenate([xy - size / 2, xy + size / 2], -1).astype(np.float32)
    scores = np.random.permutation(images * classes * boxes).reshape(images, classes, boxes) / (images * classes *
                                                                                                 boxes)
    return bboxes, scores.astype(np.float32)


def _nms(layer_class, pixels=False, **attrs):
    def make():
        bboxes, scores = _detections(pixels=pixels)
        specs = [('bboxes', [-1, 12, 4], 'float32'), ('scores', [-1, 3, 12], 'float32')]
        return globals()[layer_class](**attrs), specs, [bboxes, scores]
    return make


def _nms_rois(counts, classes=3, **attrs):
    """RoIs in clusters, a box per class jittered around each, distinct scores; ``counts`` RoIs per image."""
    def make():
        rois = int(sum(counts))
        centers = np.random.rand(rois, 1, 2) * 0.6 + 0.2
        xy = centers + np.random.randn(rois, classes, 2) * 0.03
        size = np.random.rand(rois, classes, 2) * 0.15 + 0.1
        bboxes = np.concatenate([xy - size / 2, xy + size / 2], -1).astype(np.float32)
        scores = (np.random.permutation(rois * classes).reshape(rois, classes) / (rois * classes)).astype(np.float32)
        specs = [('bboxes', [-1, classes, 4], 'float32'), ('scores', [-1, classes], 'float32'),
                 ('rois_num', [-1], 'int32')]
        return MulticlassNms3Rois(**attrs), specs, [bboxes, scores, np.array(counts, np.int32)]
    return make


def _proposals(**kwargs):
    def make():
        a, h, w = 3, 4, 5
        ys, xs = np.meshgrid(np.arange(h) * 16.0 + 8, np.arange(w) * 16.0 + 8, indexing='ij')
        sizes = np.array([12.0, 24.0, 40.0])
        anchors = np.zeros((h, w, a, 4), np.float32)
        for k, s in enumerate(sizes):
            anchors[:, :, k] = np.stack([xs - s / 2, ys - s / 2, xs + s / 2, ys + s / 2], -1)
        variances = (np.random.rand(h, w, a, 4) * 0.5 + 0.5).astype(np.float32)
        scores = np.random.permutation(2 * a * h * w).reshape(2, a, h, w).astype(np.float32) / (2 * a * h * w)
        deltas = (np.random.randn(2, 4 * a, h, w) * 0.2).astype(np.float32)
        img = np.array([[64, 80], [60, 70]], np.float32)
        specs = [('scores', [-1, a, h, w], 'float32'), ('deltas', [-1, 4 * a, h, w], 'float32'),
                 ('img_size', [-1, 2], 'float32'), ('anchors', [h, w, a, 4], 'float32'),
                 ('variances', [h, w, a, 4], 'float32')]
        return Proposals(**kwargs), specs, [scores, deltas, img, anchors, variances]
    return make


CASES = {
    'prior_box': _prior(min_sizes=[10.0, 20.0], max_sizes=[16.0, 30.0], aspect_ratios=[2.0], flip=True),
    'prior_box_clip_order_steps': _prior(min_sizes=[30.0], max_sizes=[50.0], aspect_ratios=[2.0, 3.0], flip=True,
                                         clip=True, min_max_aspect_ratios_order=True, steps=[16.0, 16.0],
                                         offset=0.3, variance=[0.1, 0.2, 0.3, 0.4]),
    'prior_box_no_max': _prior(min_sizes=[8.0], aspect_ratios=[1.0, 0.5]),
    'multiclass_nms3': _nms('MulticlassNms3'),
    'multiclass_nms3_topk_background': _nms('MulticlassNms3', nms_top_k=5, keep_top_k=7, background_label=0,
                                            nms_threshold=0.5),
    'multiclass_nms3_pixels_eta': _nms('MulticlassNms3', pixels=True, normalized=False, nms_eta=0.9,
                                       score_threshold=0.3),
    'multiclass_nms3_rois_num': _nms_rois([5, 9]),
    'multiclass_nms3_rois_num_3images_topk': _nms_rois([6, 0, 8], classes=4, keep_top_k=6, nms_top_k=4,
                                                       background_label=0, nms_threshold=0.4),
    'matrix_nms_linear': _nms('MatrixNms'),
    'matrix_nms_gaussian_topk': _nms('MatrixNms', use_gaussian=True, gaussian_sigma=1.5, nms_top_k=8, keep_top_k=6,
                                     background_label=1),
    'matrix_nms_pixels': _nms('MatrixNms', pixels=True, normalized=False, post_threshold=0.2),
    'generate_proposals': _proposals(pre_nms_top_n=40, post_nms_top_n=10, nms_thresh=0.6, min_size=2.0),
    'generate_proposals_offset_eta': _proposals(pre_nms_top_n=30, post_nms_top_n=12, nms_thresh=0.5,
                                                min_size=1.0, pixel_offset=True),
}

#: cases only Paddle 2.6 can write (Paddle 3 registers neither multiclass_nms nor multiclass_nms2): committed
#: fixtures (``tools/make_paddle_op_fixtures.py``)
CASES_P26 = {
    'multiclass_nms_v1_v2': _nms('MulticlassNmsOld', keep_top_k=9, nms_top_k=6),
}
