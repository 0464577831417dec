"""Opset ops made for Paddle's detection heads: PriorBox (opset8), MulticlassNms (opset9), MatrixNms (opset8)
and GenerateProposals (opset9).

The NMS ops and GenerateProposals give run-time sized outputs (the boxes they keep); their shapes here say
only the ranks and the per-image count's length. PriorBox's output is ``[2, 4 * H * W * priors]`` (boxes then
variances), known once the feature map's and the image's sizes are.
"""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.ops.op import Op


def _bool(name):
    return name, lambda node: str(bool(node[name])).lower()


def expanded_aspect_ratios(ratios, flip: bool) -> list:
    """``[1]`` then each ratio not yet present (within 1e-6), each followed by its inverse with ``flip``: the
    ratios PriorBox and Paddle's prior_box use."""
    result = [1.0]
    for ratio in ratios:
        for value in ([ratio, 1.0 / ratio] if flip else [ratio]):
            if all(abs(value - seen) >= 1e-6 for seen in result):
                result.append(value)
    return result


class PriorBox(Op):
    """Inputs: output_size ``[2]`` (H, W of the feature map), image_size ``[2]`` (H, W); output ``[2, 4 * H * W *
    priors]``: the normalized (x1, y1, x2, y2) of each prior, cell by cell, then their variances."""
    op = type = 'PriorBox'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'PriorBox', 'op': 'PriorBox', 'version': 'opset8', 'min_size': [], 'max_size': [],
            'aspect_ratio': [], 'flip': False, 'clip': False, 'step': 0.0, 'offset': 0.5, 'variance': [],
            'scale_all_sizes': True, 'fixed_ratio': [], 'fixed_size': [], 'density': [],
            'min_max_aspect_ratios_order': True,
            'infer': PriorBox.infer, 'type_infer': PriorBox.type_infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['min_size', 'max_size', 'aspect_ratio', _bool('flip'), _bool('clip'), 'step', 'offset', 'variance',
                _bool('scale_all_sizes'), 'fixed_ratio', 'fixed_size', 'density',
                _bool('min_max_aspect_ratios_order')]

    @staticmethod
    def priors(node) -> int:
        """Priors per cell (the plain case: no fixed sizes or densities)."""
        ratios = expanded_aspect_ratios(node.aspect_ratio, node.flip)
        return len(ratios) * len(node.min_size) + len(node.max_size)

    @staticmethod
    def infer(node):
        size = node.in_port(0).data.get_value()
        if size is None or node.fixed_size or node.density:
            node.out_port(0).data.set_shape([2, -1])
            return
        cells = int(np.prod(np.ravel(size)))
        node.out_port(0).data.set_shape([2, 4 * cells * PriorBox.priors(node)])

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(np.float32)


class _Nms(Op):
    """Inputs: boxes ``[N, M, 4]``, scores ``[N, C, M]``; outputs selected_outputs ``[K, 6]`` (class, score, x1,
    y1, x2, y2), selected_indices ``[K, 1]`` (``image * M + box``), selected_num ``[N]``."""
    defaults = {}

    def __init__(self, graph, attrs: dict = None):
        base = {'type': self.op, 'op': self.op, 'version': self.version, 'sort_result_type': 'none',
                'sort_result_across_batch': False, 'output_type': np.int64, 'score_threshold': 0.0,
                'nms_top_k': -1, 'keep_top_k': -1, 'background_class': -1, 'normalized': True,
                'infer': type(self).infer, 'type_infer': type(self).type_infer,
                'in_ports_count': 3, 'out_ports_count': 3}
        base.update(self.defaults)
        super().__init__(graph, base, attrs)

    def backend_attrs(self):
        return ['sort_result_type', _bool('sort_result_across_batch'),
                ('output_type', lambda n: ir_element_type(n.output_type)), 'score_threshold', 'nms_top_k',
                'keep_top_k', 'background_class', _bool('normalized')]

    @staticmethod
    def infer(node):
        boxes = node.in_port(0).data.get_shape()
        batch = -1 if boxes is None else int(boxes[0])
        for port, shape in ((0, [-1, 6]), (1, [-1, 1]), (2, [batch])):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_shape(shape)

    @staticmethod
    def type_infer(node):
        score_type = node.in_port(1).data.get_data_type() or np.float32
        for port, dtype in ((0, score_type), (1, node.output_type), (2, node.output_type)):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_data_type(dtype)


class MulticlassNms(_Nms):
    """opset9 MulticlassNms: greedy NMS per image and class (``nms_eta`` < 1 lowers the IoU threshold as it
    goes), then ``keep_top_k`` per image; an optional third input (roisnum) is for boxes shared by classes."""
    op = 'MulticlassNms'
    version = 'opset9'
    defaults = {'iou_threshold': 0.0, 'nms_eta': 1.0}

    def backend_attrs(self):
        return super().backend_attrs() + ['iou_threshold', 'nms_eta']


class MatrixNms(_Nms):
    """opset8 MatrixNms: each box's score decays by its overlap with the higher-scored boxes of its class
    (``gaussian`` or ``linear``); boxes under ``post_threshold`` afterwards are dropped."""
    op = 'MatrixNms'
    version = 'opset8'
    defaults = {'decay_function': 'linear', 'gaussian_sigma': 2.0, 'post_threshold': 0.0, 'in_ports_count': 2}

    def backend_attrs(self):
        return super().backend_attrs() + ['decay_function', 'gaussian_sigma', 'post_threshold']


class GenerateProposals(Op):
    """opset9 GenerateProposals: inputs im_info ``[N, 3 or 4]`` (H, W, scales), anchors ``[H, W, A, 4]``, deltas
    ``[N, A * 4, H, W]``, scores ``[N, A, H, W]``; outputs rois ``[K, 4]``, roi scores ``[K]``, rois per image
    ``[N]``."""
    op = type = 'GenerateProposals'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'GenerateProposals', 'op': 'GenerateProposals', 'version': 'opset9', 'min_size': 0.0,
            'nms_threshold': 0.7, 'pre_nms_count': 6000, 'post_nms_count': 1000, 'normalized': True,
            'nms_eta': 1.0, 'roi_num_type': np.int64,
            'infer': GenerateProposals.infer, 'type_infer': GenerateProposals.type_infer,
            'in_ports_count': 4, 'out_ports_count': 3,
        }, attrs)

    def backend_attrs(self):
        return ['min_size', 'nms_threshold', 'pre_nms_count', 'post_nms_count', _bool('normalized'), 'nms_eta',
                ('roi_num_type', lambda n: ir_element_type(n.roi_num_type))]

    @staticmethod
    def infer(node):
        info = node.in_port(0).data.get_shape()
        batch = -1 if info is None else int(info[0])
        for port, shape in ((0, [-1, 4]), (1, [-1]), (2, [batch])):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_shape(shape)

    @staticmethod
    def type_infer(node):
        score_type = node.in_port(3).data.get_data_type() or np.float32
        for port, dtype in ((0, score_type), (1, score_type), (2, node.roi_num_type)):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_data_type(dtype)
