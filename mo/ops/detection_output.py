"""DetectionOutput (opset8): box decoding against priors, per-class NMS and top-k selection.

Inputs: 0 box logits ``[N, num_priors * 4]`` (``num_loc_classes * 4`` per prior when
``share_location`` is false), 1 class predictions ``[N, num_priors * num_classes]``, 2 proposals
``[1 or N, 1 or 2, num_priors * prior_size]`` (``prior_size`` 4 when ``normalized``, else 5; the
second channel holds the variances). Output ``[1, 1, N * D, 7]`` rows
``[image_id, label, confidence, xmin, ymin, xmax, ymax]``, ``image_id = -1`` past the last one.
"""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error


class DetectionOutput(Op):
    """``D`` is ``keep_top_k[0]`` when positive, else ``top_k * num_classes`` when ``top_k`` is
    positive, else ``num_priors * num_classes``."""
    op = 'DetectionOutput'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'DetectionOutput', 'op': 'DetectionOutput', 'version': 'opset8',
            'background_label_id': 0, 'top_k': -1, 'variance_encoded_in_target': False, 'keep_top_k': [-1],
            'code_type': 'caffe.PriorBoxParameter.CENTER_SIZE', 'share_location': True, 'nms_threshold': 0.5,
            'confidence_threshold': 0.0, 'clip_after_nms': False, 'clip_before_nms': False,
            'decrease_label_id': False, 'normalized': True, 'input_height': 1, 'input_width': 1,
            'objectness_score': 0.0,
            'infer': DetectionOutput.infer, 'in_ports_count': 3, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['background_label_id', 'top_k', 'variance_encoded_in_target', 'keep_top_k', 'code_type',
                'share_location', 'nms_threshold', 'confidence_threshold', 'clip_after_nms', 'clip_before_nms',
                'decrease_label_id', 'normalized', 'input_height', 'input_width', 'objectness_score']

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        boxes = node.in_port(0).data.get_shape()
        classes = node.in_port(1).data.get_shape()
        priors = node.in_port(2).data.get_shape()
        if boxes is None or classes is None or priors is None:
            return
        if len(boxes) != 2 or len(classes) != 2 or len(priors) != 3:
            raise Error('DetectionOutput "{}" needs 2D box logits, 2D class predictions and 3D proposals, not {}, {}, '
                        '{}', name, boxes.tolist(), classes.tolist(), priors.tolist())
        batch = int(boxes[0])
        prior_size = 4 if node.normalized else 5
        keep_top_k = int(np.ravel(node.keep_top_k)[0]) if len(np.ravel(node.keep_top_k)) else -1
        if keep_top_k > 0:
            per_image = keep_top_k
        elif int(priors[2]) < 0 or int(classes[1]) < 0:
            per_image = -1
        else:
            num_priors = int(priors[2]) // prior_size
            num_classes = int(classes[1]) // num_priors if num_priors else 0
            per_image = node.top_k * num_classes if node.top_k > 0 else num_priors * num_classes
        total = -1 if batch < 0 or per_image < 0 else batch * per_image
        node.out_port(0).data.set_shape(np.array([1, 1, total, 7], dtype=np.int64))
