"""ONNX's NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss as opset ops (the internal ops ``loss_ext.py``
extracts)."""
from mo.front.common.nn_formulas import I64, axes_from, like
from extensions.ops.opset_tensor import GatherElements
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Negative
from mo.ops.elementwise import Div, Mul, NotEqual
from mo.ops.gather import Gather
from mo.ops.nn_ops import LogSoftmax
from mo.ops.reduce import ReduceMean, ReduceSum
from mo.ops.select import Select
from mo.ops.squeeze import Squeeze
from mo.ops.unsqueeze import Unsqueeze


def nll_loss(b: Builder, node: Node, log_prob, target, weight):
    """The loss of ``log_prob [N, C, d...]`` at ``target [N, d...]`` weighted by ``weight [C]`` (a port or None),
    reduced as the node's ``reduction`` says; targets equal to ``ignore_index`` weigh 0."""
    valid = None
    if node.ignore_index is not None:
        valid = b.op(NotEqual, [target, like(b, node.ignore_index, target, 'ignore_index')], 'valid')
        # an ignored target may be outside [0, C): read class 0 there, its weight is 0 anyway
        target = b.op(Select, [valid, target, like(b, 0, target, 'class_0')], 'safe_target')
    column = b.op(Unsqueeze, [target, b.const([1], 'class_axis', I64)], 'target_column')
    picked = b.op(Squeeze, [b.op(GatherElements, [log_prob, column], 'picked', axis=1),
                            b.const([1], 'picked_axis', I64)], 'picked_squeezed')
    loss = b.op(Negative, [picked], 'neg')
    weights = None
    if weight is not None:
        weights = b.op(Gather, [weight, target, b.const(0, 'weight_axis', I64)], 'target_weight')
    if valid is not None:
        kept = weights if weights is not None else like(b, 1.0, loss, 'one')
        weights = b.op(Select, [valid, kept, like(b, 0.0, loss, 'zero')], 'valid_weight')
    if weights is not None:
        loss = b.op(Mul, [loss, weights], 'weighted')
    if node.reduction == 'none':
        return loss
    total = b.op(ReduceSum, [loss, axes_from(b, loss, 0, 'all_axes')], 'sum', keep_dims=False)
    if node.reduction == 'sum':
        return total
    if weights is None:
        return b.op(ReduceMean, [loss, axes_from(b, loss, 0, 'mean_axes')], 'mean', keep_dims=False)
    weight_sum = b.op(ReduceSum, [weights, axes_from(b, weights, 0, 'weight_axes')], 'weight_sum', keep_dims=False)
    return b.op(Div, [total, weight_sum], 'mean')


def _optional(node: Node, port: int):
    return node.in_port(port) if node.is_in_port_connected(port) else None


class ONNXNLLLossLowering(OpRule):
    """NegativeLogLikelihoodLoss(input, target, weight) = -input[n, target[n, d...], d...] * weight[target], 0 at
    ignore_index; reduction sum: the sum; mean: the sum over the sum of the weights that count (the count of the
    targets without weights)."""
    op = 'ONNXNLLLoss'

    def rewrite(self, node: Node, b: Builder):
        return nll_loss(b, node, node.in_port(0), node.in_port(1), _optional(node, 2))


class ONNXSoftmaxCrossEntropyLossLowering(OpRule):
    """SoftmaxCrossEntropyLoss(scores, labels, weights) = NegativeLogLikelihoodLoss(LogSoftmax(scores, axis 1),
    labels, weights); output 1 is the LogSoftmax."""
    op = 'ONNXSoftmaxCrossEntropyLoss'

    def rewrite(self, node: Node, b: Builder):
        log_prob = b.op(LogSoftmax, [node.in_port(0)], 'log_prob', axis=1)
        return [nll_loss(b, node, log_prob, node.in_port(1), _optional(node, 2)), log_prob]
