"""Extractors for ONNX's losses, computable in inference: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss
keep internal op names (``ONNXNLLLoss``, ``ONNXSoftmaxCrossEntropyLoss``) for ``loss_lowering.py``."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr, onnx_node_has_attr
from mo.utils.error import Error

_REDUCTIONS = ('none', 'sum', 'mean')


def loss_attrs(node) -> dict:
    """``reduction`` (none, sum, mean; default mean) and ``ignore_index`` (None when absent)."""
    reduction = onnx_attr(node, 'reduction', 's', b'mean')
    reduction = reduction.decode() if isinstance(reduction, bytes) else str(reduction)
    if reduction not in _REDUCTIONS:
        raise Error('{} "{}": reduction "{}" is not one of none, sum, mean', node.op, node.soft_get('name', node.id),
                    reduction)
    ignore = int(onnx_attr(node, 'ignore_index', 'i')) if onnx_node_has_attr(node, 'ignore_index') else None
    return {'reduction': reduction, 'ignore_index': ignore}


class NegativeLogLikelihoodLossExtractor(FrontExtractorOp):
    """NegativeLogLikelihoodLoss(input [N, C, d...], target [N, d...], weight [C]) -> -input[n, target, d...] *
    weight[target] (GatherElements, Gather), 0 where target is ignore_index; summed, or averaged over the weights."""
    op = 'NegativeLogLikelihoodLoss'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'GatherElements, Gather, Multiply, ReduceSum'

    @classmethod
    def extract(cls, node):
        node.attrs().update(loss_attrs(node))
        node['op'] = 'ONNXNLLLoss'
        return True


class SoftmaxCrossEntropyLossExtractor(FrontExtractorOp):
    """SoftmaxCrossEntropyLoss(scores, labels, weights) -> NegativeLogLikelihoodLoss of LogSoftmax(scores, axis 1);
    output 1 (log_prob) is that LogSoftmax."""
    op = 'SoftmaxCrossEntropyLoss'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'LogSoftmax, GatherElements, Gather, Multiply, ReduceSum'

    @classmethod
    def extract(cls, node):
        node.attrs().update(loss_attrs(node))
        node['op'] = 'ONNXSoftmaxCrossEntropyLoss'
        return True
