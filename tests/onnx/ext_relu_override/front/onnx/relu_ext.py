# A user's extractor for ONNX Relu, an op mo already extracts: it takes over from the built-in one.
from mo.front.extractor import FrontExtractorOp
from mo.ops.activation_ops import ReLU


class UserReluExtractor(FrontExtractorOp):
    op = 'Relu'
    enabled = True

    @classmethod
    def extract(cls, node):
        ReLU.update_node_stat(node, {'user_extracted': True})
        return cls.enabled
