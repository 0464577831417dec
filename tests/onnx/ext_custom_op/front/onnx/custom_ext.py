# A Model Optimizer-style ONNX extractor for the custom-domain op MyOp (no `framework`: the folder says onnx).
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr

# the extension's own op, from its ops/ folder (loaded before front/)
from ...ops.my_op import MyOp


class MyOpExtractor(FrontExtractorOp):
    op = 'MyOp'
    enabled = True

    @classmethod
    def extract(cls, node):
        attrs = {'alpha': onnx_attr(node, 'alpha', 'f', 1.0)}
        MyOp.update_node_stat(node, attrs)
        return cls.enabled
