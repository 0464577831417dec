# A Model Optimizer-style extractor (its imports renamed): TensorFlow's GatherNd through mo.ops.gathernd.GatherND.
from mo.front.extractor import FrontExtractorOp
from mo.ops.gathernd import GatherND


class TeamGatherNdExtractor(FrontExtractorOp):
    op = 'GatherNd'
    enabled = True

    @classmethod
    def extract(cls, node):
        GatherND.update_node_stat(node, {'batch_dims': 0})
        return cls.enabled
