# A Model Optimizer-style extractor (its imports renamed): Resize through the MO's ONNXResize10/ONNXResize11 ops.
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.ops.ONNXResize10 import ONNXResize10
from mo.ops.ONNXResize11 import ONNXResize11Op


class TeamResizeExtractor(FrontExtractorOp):
    op = 'Resize'
    enabled = True

    @classmethod
    def extract(cls, node):
        mode = onnx_attr(node, 'mode', 's', b'nearest').decode()
        if get_onnx_opset_version(node) < 11:
            ONNXResize10.update_node_stat(node, {'mode': mode})
            return cls.enabled
        ONNXResize11Op.update_node_stat(node, {
            'mode': mode,
            'coordinate_transformation_mode':
                onnx_attr(node, 'coordinate_transformation_mode', 's', b'half_pixel').decode(),
            'nearest_mode': onnx_attr(node, 'nearest_mode', 's', b'round_prefer_floor').decode(),
            'cube_coeff': onnx_attr(node, 'cubic_coeff_a', 'f', -0.75),
        })
        return cls.enabled
