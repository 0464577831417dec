# front/onnx/scaled_tanh_ext.py: extracts com.example's ScaledTanh (alpha * tanh(beta * x)); the folder
# front/onnx/ says that op = 'ScaledTanh' is an ONNX op type
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.op import Op


class ScaledTanhExtractor(FrontExtractorOp):
    op = 'ScaledTanh'
    enabled = True

    @classmethod
    def extract(cls, node):
        attrs = {'alpha': onnx_attr(node, 'alpha', 'f', 1.0), 'beta': onnx_attr(node, 'beta', 'f', 1.0)}
        Op.get_op_class_by_name('ScaledTanh').update_node_stat(node, attrs)  # the class of ops/scaled_tanh.py
        return cls.enabled
