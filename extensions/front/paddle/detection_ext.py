"""Extractors for Paddle's detection ops, each as an internal op ``Paddle<Op>`` with its attributes checked,
for ``detection_lowering.py``: ``yolo_box``, ``box_coder``, ``roi_align``, ``deformable_conv`` (and its
maskless ``deformable_conv_v1``), ``prior_box``.

The formulas each lowering follows are in its docstring; the attributes are read here once, with Paddle's
defaults for the ones a program may leave out.
"""
from mo.front.extractor import FrontExtractorOp
from mo.utils.error import Error


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _floats(value) -> list:
    return [float(v) for v in (value if isinstance(value, (list, tuple)) else [value])]


class _PaddleDetectionExtractor(FrontExtractorOp):
    """Base: moves the node to ``Paddle<Name>`` with ``attributes(node, attrs)``."""
    framework = 'paddle'
    internal = None
    ir = ''

    @classmethod
    def describe(cls, op):
        return cls.ir

    @classmethod
    def attributes(cls, node, attrs: dict) -> dict:
        raise NotImplementedError

    @classmethod
    def extract(cls, node):
        node.attrs().update(cls.attributes(node, node['pb'].attrs))
        node['paddle_op'] = node['op']
        node['op'] = cls.internal
        return True


class YoloBoxExtractor(_PaddleDetectionExtractor):
    """yolo_box -> PaddleYoloBox (elementwise formulas)."""
    op = 'yolo_box'
    internal = 'PaddleYoloBox'
    ir = 'Sigmoid/Exp/elementwise formulas'

    @classmethod
    def attributes(cls, node, attrs):
        anchors = [int(a) for a in attrs.get('anchors', [])]
        if not anchors or len(anchors) % 2:
            raise Error('yolo_box "{}": anchors {} must be (width, height) pairs', node.soft_get('name', node.id),
                        anchors)
        return {'anchors': anchors, 'class_num': int(attrs.get('class_num', 1)),
                'conf_thresh': float(attrs.get('conf_thresh', 0.01)),
                'downsample_ratio': int(attrs.get('downsample_ratio', 32)),
                'clip_bbox': bool(attrs.get('clip_bbox', True)), 'scale_x_y': float(attrs.get('scale_x_y', 1.0)),
                'iou_aware': bool(attrs.get('iou_aware', False)),
                'iou_aware_factor': float(attrs.get('iou_aware_factor', 0.5))}


class BoxCoderExtractor(_PaddleDetectionExtractor):
    """box_coder -> PaddleBoxCoder (elementwise formulas)."""
    op = 'box_coder'
    internal = 'PaddleBoxCoder'
    ir = 'elementwise formulas'

    @classmethod
    def attributes(cls, node, attrs):
        code_type = _text(attrs.get('code_type', 'encode_center_size'))
        if code_type not in ('encode_center_size', 'decode_center_size'):
            raise Error('box_coder "{}": code_type "{}" is not encode_center_size or decode_center_size',
                        node.soft_get('name', node.id), code_type)
        return {'code_type': code_type, 'box_normalized': bool(attrs.get('box_normalized', True)),
                'axis': int(attrs.get('axis', 0)), 'variance': _floats(attrs.get('variance', []))}


class RoiAlignExtractor(_PaddleDetectionExtractor):
    """roi_align -> PaddleRoiAlign (then ROIAlign-9, the batch index of each box from RoisNum)."""
    op = 'roi_align'
    internal = 'PaddleRoiAlign'
    ir = 'ROIAlign (opset9)'

    @classmethod
    def attributes(cls, node, attrs):
        return {'pooled_h': int(attrs.get('pooled_height', 1)), 'pooled_w': int(attrs.get('pooled_width', 1)),
                'spatial_scale': float(attrs.get('spatial_scale', 1.0)),
                'sampling_ratio': max(int(attrs.get('sampling_ratio', -1)), 0),
                'aligned': bool(attrs.get('aligned', False))}


class DeformableConvExtractor(_PaddleDetectionExtractor):
    """deformable_conv, deformable_conv_v1 -> PaddleDeformableConv (then DeformableConvolution-8)."""
    op = ['deformable_conv', 'deformable_conv_v1']
    internal = 'PaddleDeformableConv'
    ir = 'DeformableConvolution (opset8)'

    @classmethod
    def attributes(cls, node, attrs):
        pads = [int(p) for p in attrs.get('paddings', [0, 0])]
        if len(pads) == 2:
            begin, end = pads, pads
        elif len(pads) == 4:  # (top, bottom, left, right), as Paddle's convolutions list four
            begin, end = [pads[0], pads[2]], [pads[1], pads[3]]
        else:
            raise Error('{} "{}": paddings {} are not 2 or 4 values', node['op'], node.soft_get('name', node.id),
                        pads)
        return {'strides': [int(s) for s in attrs.get('strides', [1, 1])],
                'dilations': [int(d) for d in attrs.get('dilations', [1, 1])],
                'pads_begin': begin, 'pads_end': end, 'group': int(attrs.get('groups', 1)),
                'deformable_group': int(attrs.get('deformable_groups', 1))}


def _first(attrs: dict, names, default):
    """The first of ``names`` the op has (classic and PIR spell some attributes differently)."""
    for name in names:
        if name in attrs:
            return attrs[name]
    return default


class PriorBoxExtractor(_PaddleDetectionExtractor):
    """prior_box -> PaddlePriorBox (then PriorBox-8)."""
    op = 'prior_box'
    internal = 'PaddlePriorBox'
    ir = 'PriorBox (opset8)'

    @classmethod
    def attributes(cls, node, attrs):
        step_w, step_h = float(attrs.get('step_w', 0.0)), float(attrs.get('step_h', 0.0))
        if step_w != step_h and step_w > 0 and step_h > 0:
            raise Error('prior_box "{}": step_w {} and step_h {} differ, and PriorBox takes one step',
                        node.soft_get('name', node.id), step_w, step_h)
        return {'min_size': _floats(attrs.get('min_sizes', [])), 'max_size': _floats(attrs.get('max_sizes', [])),
                'aspect_ratio': _floats(attrs.get('aspect_ratios', [1.0])), 'flip': bool(attrs.get('flip', False)),
                'clip': bool(attrs.get('clip', False)), 'step': step_w if step_w > 0 and step_h > 0 else 0.0,
                'offset': float(attrs.get('offset', 0.5)),
                'variance': _floats(attrs.get('variances', [0.1, 0.1, 0.2, 0.2])),
                'min_max_aspect_ratios_order': bool(attrs.get('min_max_aspect_ratios_order', False))}


class MulticlassNmsExtractor(_PaddleDetectionExtractor):
    """multiclass_nms, multiclass_nms2, multiclass_nms3 -> PaddleMulticlassNms (then MulticlassNms-9)."""
    op = ['multiclass_nms', 'multiclass_nms2', 'multiclass_nms3']
    internal = 'PaddleMulticlassNms'
    ir = 'MulticlassNms (opset9)'

    @classmethod
    def attributes(cls, node, attrs):
        return {'score_threshold': float(attrs.get('score_threshold', 0.0)),
                'nms_top_k': int(attrs.get('nms_top_k', -1)), 'keep_top_k': int(attrs.get('keep_top_k', -1)),
                'iou_threshold': float(attrs.get('nms_threshold', 0.3)), 'nms_eta': float(attrs.get('nms_eta', 1.0)),
                'background_class': int(attrs.get('background_label', 0)),
                'normalized': bool(attrs.get('normalized', True))}


class MatrixNmsExtractor(_PaddleDetectionExtractor):
    """matrix_nms -> PaddleMatrixNms (then MatrixNms-8)."""
    op = 'matrix_nms'
    internal = 'PaddleMatrixNms'
    ir = 'MatrixNms (opset8)'

    @classmethod
    def attributes(cls, node, attrs):
        return {'score_threshold': float(attrs.get('score_threshold', 0.0)),
                'post_threshold': float(attrs.get('post_threshold', 0.0)),
                'nms_top_k': int(attrs.get('nms_top_k', -1)), 'keep_top_k': int(attrs.get('keep_top_k', -1)),
                'decay_function': 'gaussian' if attrs.get('use_gaussian', False) else 'linear',
                'gaussian_sigma': float(attrs.get('gaussian_sigma', 2.0)),
                'background_class': int(attrs.get('background_label', 0)),
                'normalized': bool(attrs.get('normalized', True))}


class GenerateProposalsExtractor(_PaddleDetectionExtractor):
    """generate_proposals, generate_proposals_v2 -> PaddleGenerateProposals (then GenerateProposals-9)."""
    op = ['generate_proposals', 'generate_proposals_v2']
    internal = 'PaddleGenerateProposals'
    ir = 'GenerateProposals (opset9)'

    @classmethod
    def attributes(cls, node, attrs):
        return {'pre_nms_count': int(_first(attrs, ('pre_nms_topN', 'pre_nms_top_n'), 6000)),
                'post_nms_count': int(_first(attrs, ('post_nms_topN', 'post_nms_top_n'), 1000)),
                'nms_threshold': float(attrs.get('nms_thresh', 0.5)), 'min_size': float(attrs.get('min_size', 0.1)),
                'nms_eta': float(attrs.get('eta', 1.0)), 'pixel_offset': bool(attrs.get('pixel_offset', True))}


class DensityPriorBoxExtractor(_PaddleDetectionExtractor):
    """density_prior_box -> PaddleDensityPriorBox (elementwise formulas over the feature map's grid)."""
    op = 'density_prior_box'
    internal = 'PaddleDensityPriorBox'
    ir = 'elementwise formulas'

    @classmethod
    def attributes(cls, node, attrs):
        sizes, densities = _floats(attrs.get('fixed_sizes', [])), [int(d) for d in attrs.get('densities', [])]
        if len(sizes) != len(densities) or not sizes or any(d < 1 for d in densities):
            raise Error('density_prior_box "{}": fixed_sizes {} and densities {} must pair up, densities positive',
                        node.soft_get('name', node.id), sizes, densities)
        return {'fixed_size': sizes, 'density': densities,
                'fixed_ratio': _floats(attrs.get('fixed_ratios', [1.0])),
                'variance': _floats(attrs.get('variances', [0.1, 0.1, 0.2, 0.2])),
                'clip': bool(attrs.get('clip', False)), 'step_w': float(attrs.get('step_w', 0.0)),
                'step_h': float(attrs.get('step_h', 0.0)), 'offset': float(attrs.get('offset', 0.5)),
                'flatten_to_2d': bool(attrs.get('flatten_to_2d', False))}
