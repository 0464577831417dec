"""Extractors for ONNX's convolutions, Dropout and LRN.

ONNX is channels-first like the opset, so the attributes keep their meaning; the spatial lists (strides,
dilations, pads) hold spatial entries only, as the opset's. Conv and ConvTranspose keep internal op names
(``ONNXConv``, ``ONNXConvTranspose``) for ``nn_lowering.py``, which adds the bias, the groups' weight shape and
the output shape ConvTranspose implies.
"""
from mo.utils.shape import int64_array
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_autopad, get_onnx_opset_version, onnx_attr
from mo.ops.tensor_ops import LRN
from mo.utils.error import Error

_AUTO_PAD = {None: 'explicit', 'same_upper': 'same_upper', 'same_lower': 'same_lower', 'valid': 'valid'}


def window_attrs(node, with_dilations=True) -> dict:
    """strides, dilations, pads_begin/pads_end and auto_pad of a convolution or pooling node (unset lists are left
    out: the op's inference fills in 1s and 0s once the rank is known)."""
    name = node.soft_get('name', node.id)
    auto_pad = get_onnx_autopad(onnx_attr(node, 'auto_pad', 's', b'NOTSET'))
    if auto_pad not in _AUTO_PAD:
        raise Error('Node "{}" ({}): auto_pad "{}" is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID', name,
                    node.op, auto_pad)
    attrs = {'layout': 'NCHW', 'auto_pad': _AUTO_PAD[auto_pad]}
    names = ('strides', 'dilations') if with_dilations else ('strides',)
    for attr in names:
        value = onnx_attr(node, attr, 'ints', None)
        if value:
            if any(v < 1 for v in value):
                raise Error('Node "{}" ({}): {} {} must be positive', name, node.op, attr, list(value))
            attrs[attr] = int64_array(value)
    pads = onnx_attr(node, 'pads', 'ints', None)
    if pads and attrs['auto_pad'] == 'explicit':
        if len(pads) % 2 or any(p < 0 for p in pads):
            raise Error('Node "{}" ({}): pads {} are not begin and end values of each spatial axis', name, node.op,
                        list(pads))
        attrs['pads_begin'], attrs['pads_end'] = int64_array(pads[:len(pads) // 2]), int64_array(pads[len(pads) // 2:])
    kernel = onnx_attr(node, 'kernel_shape', 'ints', None)
    if kernel:
        attrs['kernel_shape'] = int64_array(kernel)
    return attrs


class ConvExtractor(FrontExtractorOp):
    """Conv -> ``ONNXConv`` with its window attributes and group read; ``ONNXConvLowering`` then builds the
    Convolution (GroupConvolution for group > 1) and the bias Add."""
    op = 'Conv'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Convolution/GroupConvolution (+ Add of the bias)'

    @classmethod
    def extract(cls, node):
        group = onnx_attr(node, 'group', 'i', 1)
        if group < 1:
            raise Error('Conv "{}": group {} must be positive', node.soft_get('name', node.id), group)
        node.attrs().update(dict(window_attrs(node), group=int(group)))
        node['op'] = 'ONNXConv'
        return True


class ConvTransposeExtractor(FrontExtractorOp):
    """ConvTranspose -> ConvolutionBackpropData (GroupConvolutionBackpropData for group > 1) with output_padding;
    output_shape, or SAME auto_pad (output = input * stride), becomes its output-shape input, the padding split as
    ONNX splits it."""
    op = 'ConvTranspose'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'ConvolutionBackpropData (+ Add of the bias)'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        group = onnx_attr(node, 'group', 'i', 1)
        if group < 1:
            raise Error('ConvTranspose "{}": group {} must be positive', name, group)
        attrs = dict(window_attrs(node), group=int(group))
        for attr in ('output_padding', 'output_shape'):
            value = onnx_attr(node, attr, 'ints', None)
            if value:
                attrs[attr] = int64_array(value)
        node.attrs().update(attrs)
        node['op'] = 'ONNXConvTranspose'
        return True


class DropoutExtractor(FrontExtractorOp):
    """Dropout in inference -> its input, and a mask of all true (ones of the data's type before opset 10) of the
    input's shape when the mask is read. A training_mode not constant false, with a ratio that is not constant 0,
    is random: an Error."""
    op = 'Dropout'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Identity (mask: Broadcast of true)'

    @classmethod
    def extract(cls, node):
        # the mask is of the data's type before opset 10, bool from 10 on
        node['bool_mask'] = get_onnx_opset_version(node) >= 10
        node['op'] = 'ONNXDropout'
        return True


class LRNExtractor(FrontExtractorOp):
    """LRN -> LRN across channels (axes [1]: ``LRNAxes`` connects them); ONNX's alpha is divided by size as the
    opset's is."""
    op = 'LRN'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        size = onnx_attr(node, 'size', 'i', None)
        if size is None or size < 1:
            raise Error('LRN "{}": size must be a positive integer, got {}', node.soft_get('name', node.id), size)
        LRN.update_node_stat(node, {'alpha': float(onnx_attr(node, 'alpha', 'f', 1e-4)),
                                    'beta': float(onnx_attr(node, 'beta', 'f', 0.75)),
                                    'bias': float(onnx_attr(node, 'bias', 'f', 1.0)), 'size': int(size)})
        return True

