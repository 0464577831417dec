# A Model Optimizer-style extractor (its imports renamed): GatherND through mo.ops.gathernd.GatherND.
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.gathernd import GatherND


class TeamGatherNDExtractor(FrontExtractorOp):
    op = 'GatherND'
    enabled = True

    @classmethod
    def extract(cls, node):
        GatherND.update_node_stat(node, {'batch_dims': onnx_attr(node, 'batch_dims', 'i', 0)})
        return cls.enabled
