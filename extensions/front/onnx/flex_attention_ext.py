"""Extractor for ONNX's FlexAttention (domain ai.onnx.preview, opset 1): the internal op ``ONNXFlexAttention`` for
``flex_attention_lowering.py``."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.front.onnx.tensor import np_dtype
from mo.utils.error import Error


def modifier(node, attr: str):
    """The GraphProto of graph attribute ``attr`` (score_mod or prob_mod), None when absent; an Error unless it
    has one input and one output."""
    graph = onnx_attr(node, attr, 'g', None)
    if graph is not None and (len(graph.input) != 1 or len(graph.output) != 1):
        raise Error('FlexAttention "{}": {} has {} inputs and {} outputs; it must have one of each',
                    node.soft_get('name', node.id), attr, len(graph.input), len(graph.output))
    return graph


class FlexAttentionExtractor(FrontExtractorOp):
    """FlexAttention(Q, K, V) -> MatMul of Q and K scaled by sqrt(scale) each, score_mod's nodes, SoftMax, prob_mod's
    nodes, MatMul with V: the modifier graphs inlined, the scores in softmax_precision (default float32, double for
    double inputs); grouped key/value heads repeated."""
    op = 'FlexAttention'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'MatMul, score_mod, SoftMax, prob_mod, MatMul'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        precision = onnx_attr(node, 'softmax_precision', 'i', None)
        if precision is not None:
            precision = np_dtype(precision, 'FlexAttention "{}": softmax_precision'.format(name))
            if precision.kind != 'f' and precision.name != 'bfloat16':
                raise Error('FlexAttention "{}": softmax_precision {} is not a floating-point type', name,
                            precision)
        node.attrs().update({'scale': onnx_attr(node, 'scale', 'f', None), 'softmax_precision': precision,
                             'score_mod': modifier(node, 'score_mod'), 'prob_mod': modifier(node, 'prob_mod')})
        node['op'] = 'ONNXFlexAttention'
        return True
