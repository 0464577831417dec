"""MXNet's convolutions, FullyConnected, activations with parameters and the softmax family, from opset ops.

MXNet is channels-first like the opset; weights keep MXNet's layout: Convolution's ``[O, C/G, k...]``,
Deconvolution's ``[C, O/G, k...]`` (the opset's ConvolutionBackpropData order), FullyConnected's ``[O, K]``.
"""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.elementwise_lowering import like
from extensions.front.mxnet.formulas import concat, ints, per_channel, shape_of, shape_slice
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Elu, Erf
from mo.ops.convolution import (Convolution, ConvolutionBackpropData, GroupConvolution,
                                GroupConvolutionBackpropData)
from mo.ops.elementwise import Add, Div, Mul
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import LogSoftmax, PRelu, Selu, Softmax
from mo.ops.reshape import Reshape
from mo.utils.error import Error


def _check_layout(node: Node, b: Builder):
    layout = mxnet_attr(node).str('layout', None)
    if layout not in (None, 'None', 'NCW', 'NCHW', 'NCDHW'):
        raise Error('{} "{}": layout {} is not converted (channels-first only)', node.mxnet_op, b.name, layout)


def window_attrs(node: Node, kernel) -> dict:
    """strides, dilations and pads of a convolution from MXNet's stride, dilate and pad (unset: 1s and 0s)."""
    attr, rank = mxnet_attr(node), len(kernel)
    pad = attr.tuple('pad', ()) or (0,) * rank
    return {'strides': np.array(attr.tuple('stride', ()) or (1,) * rank, np.int64),
            'dilations': np.array(attr.tuple('dilate', ()) or (1,) * rank, np.int64),
            'pads_begin': np.array(pad, np.int64), 'pads_end': np.array(pad, np.int64)}


def grouped(b: Builder, weights, groups: int, suffix: str):
    """Weights ``[A, B, k...]`` as ``[G, A/G, B, k...]`` for the opset's grouped convolutions."""
    target = concat(b, [ints(b, [groups, -1], suffix + '/groups'), shape_slice(b, weights, 1, None, suffix + '/tail')],
                    suffix + '/shape')
    return b.op(Reshape, [weights, target], suffix)


def add_bias(b: Builder, node: Node, result, port: int):
    """``result + bias`` along the channel axis when input ``port`` (the bias) is there."""
    if mxnet_attr(node).bool('no_bias', node.mxnet_op == 'Deconvolution') or not node.is_in_port_connected(port):
        return result
    return b.op(Add, [result, per_channel(b, node.in_port(port), result, 'bias_per_channel')], 'bias_add')


class ConvolutionLowering(OpRule):
    """Convolution(x, W, bias) = Convolution(x, W) + bias, GroupConvolution with W as [G, O/G, C/G, k...] for
    num_group > 1."""
    op = 'MXConvolution'

    def rewrite(self, node: Node, b: Builder):
        _check_layout(node, b)
        attr = mxnet_attr(node)
        kernel, groups = attr.tuple('kernel'), attr.int('num_group', 1)
        if groups == 1:
            conv = b.op(Convolution, [node.in_port(0), node.in_port(1)], 'conv', **window_attrs(node, kernel))
        else:
            conv = b.op(GroupConvolution, [node.in_port(0), grouped(b, node.in_port(1), groups, 'weights')], 'conv',
                        **window_attrs(node, kernel))
        return add_bias(b, node, conv, 2)


class DeconvolutionLowering(OpRule):
    """Deconvolution(x, W, bias) = ConvolutionBackpropData(x, W) + bias (output_padding = adj), grouped with W as
    [G, C/G, O/G, k...]; no bias unless no_bias is False."""
    op = 'MXDeconvolution'

    def rewrite(self, node: Node, b: Builder):
        _check_layout(node, b)
        attr = mxnet_attr(node)
        kernel, groups = attr.tuple('kernel'), attr.int('num_group', 1)
        if attr.tuple('target_shape', ()):
            raise Error('Deconvolution "{}": target_shape is not converted yet; give pad and adj instead', b.name)
        attrs = window_attrs(node, kernel)
        attrs['output_padding'] = np.array(attr.tuple('adj', ()) or (0,) * len(kernel), np.int64)
        op_class, weights = ConvolutionBackpropData, node.in_port(1)
        if groups != 1:
            op_class, weights = GroupConvolutionBackpropData, grouped(b, weights, groups, 'weights')
        return add_bias(b, node, b.op(op_class, [node.in_port(0), weights], 'deconv', **attrs), 2)


def flatten(b: Builder, x, suffix: str):
    """``x`` as ``[N, -1]``."""
    return b.op(Reshape, [x, ints(b, [0, -1], suffix + '/shape')], suffix, special_zero=True)


class FlattenLowering(OpRule):
    """Flatten(x) = Reshape(x, [N, -1])."""
    op = 'MXFlatten'

    def rewrite(self, node: Node, b: Builder):
        return flatten(b, node.in_port(0), 'flatten')


class FullyConnectedLowering(OpRule):
    """FullyConnected(x, W, bias) = MatMul(x as [N, -1] when flatten, W transposed) + bias."""
    op = 'MXFullyConnected'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        x = node.in_port(0)
        if attr.bool('flatten', True):
            x = flatten(b, x, 'flatten')
        result = b.op(MatMul, [x, node.in_port(1)], 'matmul', transpose_b=True)
        if attr.bool('no_bias', False) or not node.is_in_port_connected(2):
            return result
        return b.op(Add, [result, node.in_port(2)], 'bias_add')


_SELU_ALPHA, _SELU_LAMBDA = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


class LeakyReLULowering(OpRule):
    """LeakyReLU(x) by act_type: leaky = PRelu(x, slope); prelu = PRelu(x, gamma) per channel; elu = Elu(x, slope);
    selu = Selu(x) with SELU's constants; gelu = x / 2 * (1 + Erf(x / sqrt 2)); rrelu at inference = PRelu with
    the middle of [lower_bound, upper_bound]."""
    op = 'MXLeakyReLU'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        act = attr.str('act_type', 'leaky')
        if act == 'leaky':
            return b.op(PRelu, [x, like(b, [attr.float('slope', 0.25)], x, 'slope')], 'prelu')
        if act == 'prelu':
            return b.op(PRelu, [x, node.in_port(1)], 'prelu')
        if act == 'rrelu':
            slope = (attr.float('lower_bound', 0.125) + attr.float('upper_bound', 0.334)) / 2
            return b.op(PRelu, [x, like(b, [slope], x, 'slope')], 'prelu')
        if act == 'elu':
            return b.op(Elu, [x], 'elu', alpha=attr.float('slope', 0.25))
        if act == 'selu':
            return b.op(Selu, [x, like(b, [_SELU_ALPHA], x, 'alpha'), like(b, [_SELU_LAMBDA], x, 'lambda')], 'selu')
        if act == 'gelu':
            erf = b.op(Erf, [b.op(Mul, [x, like(b, 1 / np.sqrt(2), x, 'rsqrt2')], 'scaled')], 'erf')
            half = b.op(Mul, [x, like(b, 0.5, x, 'half')], 'half_x')
            return b.op(Mul, [half, b.op(Add, [erf, like(b, 1, x, 'one')], 'one_plus_erf')], 'gelu')
        raise Error('LeakyReLU "{}": act_type "{}" is not one of leaky, prelu, rrelu, elu, selu, gelu', b.name, act)


def _softmax(b: Builder, x, axis: int, log: bool = False):
    return b.op(LogSoftmax if log else Softmax, [x], 'softmax', axis=axis)


def _softmax_flat(b: Builder, x):
    """Softmax over every axis but the first: of x as [N, -1], shaped back."""
    flat = _softmax(b, flatten(b, x, 'flatten'), 1)
    return b.op(Reshape, [flat, shape_of(b, x, 'shape')], 'reshape')


class SoftmaxLowering(OpRule):
    """softmax(x, axis, temperature) = Softmax(x / temperature, axis)."""
    op = 'MXsoftmax'
    log = False

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        if attr.bool('use_length', False):
            raise Error('{} "{}": use_length is not converted', node.mxnet_op, b.name)
        temperature = attr.float('temperature', None)
        if temperature is not None and temperature != 1:
            x = b.op(Div, [x, like(b, temperature, x, 'temperature')], 'scaled')
        return _softmax(b, x, attr.int('axis', -1), self.log)


class LogSoftmaxLowering(SoftmaxLowering):
    """log_softmax(x, axis, temperature) = LogSoftmax(x / temperature, axis)."""
    op = 'MXlog_softmax'
    log = True


class SoftmaxActivationLowering(OpRule):
    """SoftmaxActivation(x): mode channel = Softmax over axis 1; instance = over every axis but the first."""
    op = 'MXSoftmaxActivation'

    def rewrite(self, node: Node, b: Builder):
        if mxnet_attr(node).str('mode', 'instance') == 'channel':
            return _softmax(b, node.in_port(0), 1)
        return _softmax_flat(b, node.in_port(0))


class SoftmaxOutputLowering(OpRule):
    """SoftmaxOutput(x, label) at inference: Softmax over axis 1 (multi_output), the last axis (preserve_shape),
    else over every axis but the first; the label is not read."""
    op = 'MXSoftmaxOutput'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        if attr.bool('multi_output', False):
            return _softmax(b, node.in_port(0), 1)
        if attr.bool('preserve_shape', False):
            return _softmax(b, node.in_port(0), -1)
        return _softmax_flat(b, node.in_port(0))
