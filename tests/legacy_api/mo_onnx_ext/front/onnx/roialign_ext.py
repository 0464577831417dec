# A Model Optimizer-style extractor (its imports renamed): RoiAlign through the MO's op class mo.ops.roialign.ROIAlign.
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.roialign import ROIAlign


class TeamRoiAlignExtractor(FrontExtractorOp):
    op = 'RoiAlign'
    enabled = True

    @classmethod
    def extract(cls, node):
        transform = onnx_attr(node, 'coordinate_transformation_mode', 's', b'half_pixel').decode()
        ROIAlign.update_node_stat(node, {
            'pooled_h': onnx_attr(node, 'output_height', 'i', 1),
            'pooled_w': onnx_attr(node, 'output_width', 'i', 1),
            'sampling_ratio': onnx_attr(node, 'sampling_ratio', 'i', 0),
            'spatial_scale': onnx_attr(node, 'spatial_scale', 'f', 1.0),
            'mode': onnx_attr(node, 'mode', 's', b'avg').decode(),
            'aligned_mode': 'asymmetric' if transform == 'output_half_pixel' else transform,
        })
        return cls.enabled
