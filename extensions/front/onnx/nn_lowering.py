"""ONNX's Conv, ConvTranspose and Dropout as opset ops (the internal ops ``nn_ext.py`` extracts)."""
import numpy as np

from mo.front.common.nn_formulas import I64, like, per_channel, shape_tail
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convolution import (Convolution, ConvolutionBackpropData, GroupConvolution,
                                GroupConvolutionBackpropData)
from mo.ops.elementwise import Add, Mul
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.utils.error import Error

_WINDOW = ('strides', 'dilations', 'pads_begin', 'pads_end', 'auto_pad', 'layout')


def window(node: Node) -> dict:
    """The window attributes the extractor set (those the model left out stay unset: the op fills them in)."""
    return {attr: node[attr] for attr in _WINDOW if node.has_valid(attr)}


def add_bias(b: Builder, node: Node, result, port: int):
    """``result + B`` along axis 1 when the node's input ``port`` (the bias) is connected."""
    if not node.is_in_port_connected(port):
        return result
    return b.op(Add, [result, per_channel(b, node.in_port(port), result, 'bias_per_channel')], 'bias_add')


def grouped_weights(b: Builder, weights, group: int, tag: str):
    """ONNX weights ``[O, C/G, k...]`` (or ``[C, O/G, k...]`` transposed) as ``[G, O/G, C/G, k...]``."""
    target = b.concat([b.const([group, -1], tag + '/groups', I64), shape_tail(b, weights, 1, tag + '/tail')],
                    tag + '/shape')
    return b.op(Reshape, [weights, target], tag)


class ONNXConvLowering(OpRule):
    """Conv(X, W, B) = Convolution(X, W) + B, or GroupConvolution(X, W as [G, O/G, C/G, k...]) + B for group > 1."""
    op = 'ONNXConv'

    def rewrite(self, node: Node, b: Builder):
        if node.group == 1:
            conv = b.op(Convolution, [node.in_port(0), node.in_port(1)], 'conv', **window(node))
        else:
            weights = grouped_weights(b, node.in_port(1), node.group, 'weights')
            conv = b.op(GroupConvolution, [node.in_port(0), weights], 'conv', **window(node))
        return add_bias(b, node, conv, 2)


class ONNXConvTransposeLowering(OpRule):
    """ConvTranspose(X, W, B) = ConvolutionBackpropData(X, W) + B (GroupConvolutionBackpropData with W as
    [G, C/G, O/G, k...] for group > 1).

    With output_shape, or SAME auto_pad (output = input * stride), the output's spatial shape is the op's input 2
    and the runtime works out the padding: ONNX's SAME_UPPER crops the smaller half at the beginning (the opset's
    same_lower for a transposed convolution), otherwise the larger half (the opset's same_upper).
    """
    op = 'ONNXConvTranspose'

    def rewrite(self, node: Node, b: Builder):
        attrs = window(node)
        if node.has_valid('output_padding'):
            attrs['output_padding'] = node.output_padding
        op_class, weights = ConvolutionBackpropData, node.in_port(1)
        if node.group != 1:
            op_class, weights = GroupConvolutionBackpropData, grouped_weights(b, weights, node.group, 'weights')
        inputs = [node.in_port(0), weights]
        onnx_pad = attrs.get('auto_pad', 'explicit')
        if node.has_valid('output_shape'):
            out = [int(v) for v in node.output_shape]
            if node.has_valid('kernel_shape') and len(out) == len(node.kernel_shape) + 2:
                out = out[2:]
            inputs.append(b.const(np.array(out, I64), 'output_shape'))
        elif onnx_pad in ('same_upper', 'same_lower'):
            spatial = shape_tail(b, node.in_port(0), 2, 'input_spatial')
            strides = node.strides if node.has_valid('strides') else [1]
            inputs.append(b.op(Mul, [spatial, b.const(np.array(strides, I64), 'strides')], 'output_shape'))
        if len(inputs) == 3:
            attrs['auto_pad'] = 'same_lower' if onnx_pad == 'same_upper' else 'same_upper'
            attrs.pop('pads_begin', None)
            attrs.pop('pads_end', None)
        conv = b.op(op_class, inputs, 'deconv', **attrs)
        return add_bias(b, node, conv, 2)


def _constant(node: Node, port: int, default):
    """The value of a constant input, ``default`` when it is not connected, None when it is computed."""
    if not node.is_in_port_connected(port):
        return default
    source = node.in_port(port).get_source().node
    return source.soft_get('value', None) if source.soft_get('op') == 'Const' else None


class ONNXDropoutLowering(OpRule):
    """Dropout in inference is the identity; its mask (output 1) is all true (ones of the data's type before opset
    10), of the input's shape. A training_mode (opset 12 on) not constant false drops at random unless the ratio is
    a constant 0: not convertible."""
    op = 'ONNXDropout'

    def rewrite(self, node: Node, b: Builder):
        training = _constant(node, 2, False)
        if training is None or bool(np.ravel(training)[0]):
            ratio = _constant(node, 1, 0.5)
            if ratio is None or float(np.ravel(ratio)[0]) != 0:
                raise Error('Dropout "{}": training_mode is {} and the ratio is not 0: it drops at random; only '
                            'inference Dropout converts', b.name, 'computed' if training is None else 'true')
        mask = None
        if node.is_out_port_connected(1):
            shape = b.op(ShapeOf, [node.in_port(0)], 'shape')
            kept = b.const(True, 'true', np.bool_) if node.bool_mask else like(b, 1.0, node.in_port(0), 'one')
            mask = b.op(Broadcast, [kept, shape], 'mask')
        return [node.in_port(0), mask]
