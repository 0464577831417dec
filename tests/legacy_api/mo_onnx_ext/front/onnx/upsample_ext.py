# A Model Optimizer-style extractor (its imports renamed): Upsample through mo.ops.upsample.UpsampleOp (opset 7's
# scales attribute) or mo.ops.ONNXResize10.ONNXResize10 (opset 9's scales input).
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.ops.ONNXResize10 import ONNXResize10
from mo.ops.upsample import UpsampleOp


class TeamUpsampleExtractor(FrontExtractorOp):
    op = 'Upsample'
    enabled = True

    @classmethod
    def extract(cls, node):
        mode = onnx_attr(node, 'mode', 's', b'nearest').decode()
        if get_onnx_opset_version(node) >= 9:
            ONNXResize10.update_node_stat(node, {'mode': mode})
            return cls.enabled
        scales = onnx_attr(node, 'scales', 'floats')
        UpsampleOp.update_node_stat(node, {'mode': mode, 'height_scale': scales[2], 'width_scale': scales[3]})
        return cls.enabled
