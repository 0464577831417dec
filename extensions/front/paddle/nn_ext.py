"""Extractors for Paddle's convolutions, pooling and normalizations: each becomes a ``Paddle_*`` op with its
attributes read into opset terms (pads as begin/end lists, auto_pad) for ``nn_lowering.py`` and
``norm_lowering.py``, which know the inputs' roles by slot.

Paddle writes paddings as one per spatial axis (``[ph, pw]``, both sides alike) or two (``[top, bottom, left,
right]``; 3-D ops the same with depth first), and ``padding_algorithm`` ``EXPLICIT``, ``SAME`` or ``VALID``.
Channels-last (``NHWC``, ``NDHWC``) convolutions and pools keep their attributes (Paddle's filters are
``[O, I, kh, kw]`` in either layout, its paddings and strides spatial only) and are marked ``channels_last``:
``nn_lowering.py`` runs them channels-first between two Transposes.
"""
from mo.front.extractor import FrontExtractorOp
from mo.front.paddle.extractor_utils import node_name, paddle_attr
from mo.utils.error import Error

_AUTO_PAD = {'EXPLICIT': 'explicit', 'SAME': 'same_upper', 'VALID': 'valid'}


def pads(node, spatial: int = 2):
    """``(pads_begin, pads_end)`` of the Paddle ``paddings`` attribute."""
    values = [int(v) for v in paddle_attr(node, 'paddings', [0] * spatial) or [0] * spatial]
    if len(values) == spatial:
        return values, list(values)
    if len(values) == 2 * spatial:
        return values[0::2], values[1::2]
    raise Error('Paddle op "{}" ({}): paddings {} fit no {}-D window', node_name(node), node.op, values, spatial)


#: channels-first and channels-last layouts by number of spatial axes
_LAYOUTS = {2: ('NCHW', 'NHWC'), 3: ('NCDHW', 'NDHWC')}


def window_attrs(node, spatial: int = 2) -> dict:
    """strides, dilations, pads_begin/pads_end and auto_pad of a convolution or pool of ``spatial`` axes, and whether
    it is channels-last."""
    first, last = _LAYOUTS[spatial]
    layout = paddle_attr(node, 'data_format', first)
    if layout not in (first, last, 'AnyLayout'):
        raise Error('Paddle op "{}" ({}): data_format "{}" is not {} or {}', node_name(node), node.op, layout, first,
                    last)
    algorithm = str(paddle_attr(node, 'padding_algorithm', 'EXPLICIT') or 'EXPLICIT').upper()
    if algorithm not in _AUTO_PAD:
        raise Error('Paddle op "{}" ({}): padding_algorithm "{}" is not EXPLICIT, SAME or VALID', node_name(node),
                    node.op, algorithm)
    begin, end = pads(node, spatial)
    attrs = {'layout': 'NCHW', 'channels_last': layout == last, 'auto_pad': _AUTO_PAD[algorithm],
             'strides': [int(v) for v in paddle_attr(node, 'strides', [1] * spatial)],
             'pads_begin': begin if algorithm == 'EXPLICIT' else [0] * len(begin),
             'pads_end': end if algorithm == 'EXPLICIT' else [0] * len(end)}
    if paddle_attr(node, 'dilations', None) is not None:
        attrs['dilations'] = [int(v) for v in paddle_attr(node, 'dilations')]
    return attrs


class ConvExtractor(FrontExtractorOp):
    """conv2d, depthwise_conv2d -> ``Paddle_conv`` (Convolution, GroupConvolution for groups > 1)."""
    op = ['conv2d', 'depthwise_conv2d']

    @classmethod
    def extract(cls, node):
        node.attrs().update(window_attrs(node))
        node['group'] = int(paddle_attr(node, 'groups', 1) or 1)
        node['op'] = 'Paddle_conv'
        return True


class ConvTransposeExtractor(FrontExtractorOp):
    """conv2d_transpose, depthwise_conv2d_transpose -> ``Paddle_conv_transpose`` (ConvolutionBackpropData,
    GroupConvolutionBackpropData for groups > 1), with output_padding and output_size."""
    op = ['conv2d_transpose', 'depthwise_conv2d_transpose']

    @classmethod
    def extract(cls, node):
        node.attrs().update(window_attrs(node))
        node['group'] = int(paddle_attr(node, 'groups', 1) or 1)
        node['output_padding'] = [int(v) for v in paddle_attr(node, 'output_padding', []) or []]
        node['output_size'] = [int(v) for v in paddle_attr(node, 'output_size', []) or []]
        node['op'] = 'Paddle_conv_transpose'
        return True


class PoolExtractor(FrontExtractorOp):
    """pool2d, pool3d and max_pool{2,3}d_with_index -> ``Paddle_pool``: MaxPool/AvgPool (ceil_mode, exclusive),
    global pooling as a reduction, adaptive pooling as AdaptiveAvgPool/AdaptiveMaxPool; the ``_with_index`` ops'
    Mask (each maximum's index within its channel's spatial positions) from MaxPool-8 or AdaptiveMaxPool."""
    op = ['pool2d', 'pool3d', 'max_pool2d_with_index', 'max_pool3d_with_index']
    SPATIAL = {'pool2d': 2, 'max_pool2d_with_index': 2, 'pool3d': 3, 'max_pool3d_with_index': 3}

    @classmethod
    def extract(cls, node):
        spatial = cls.SPATIAL[node.op]
        with_index = node.op.endswith('_with_index')
        pooling = 'max' if with_index else paddle_attr(node, 'pooling_type', 'max')
        if pooling not in ('max', 'avg'):
            raise Error('Paddle {} "{}": pooling_type "{}" is not max or avg', node.op, node_name(node), pooling)
        node.attrs().update(window_attrs(node, spatial))
        node['spatial'] = spatial
        node['pooling'] = pooling
        # the _with_index ops name the kernel size ``kernel_size`` in PIR
        node['ksize'] = [int(v) for v in paddle_attr(node, 'ksize', paddle_attr(node, 'kernel_size', [])) or []]
        node['global_pooling'] = bool(paddle_attr(node, 'global_pooling', False))
        node['adaptive'] = bool(paddle_attr(node, 'adaptive', False))
        node['ceil_mode'] = bool(paddle_attr(node, 'ceil_mode', False))
        node['exclusive'] = bool(paddle_attr(node, 'exclusive', True))
        node['with_mask'] = with_index and node.is_out_port_connected(1)
        node['op'] = 'Paddle_pool'
        return True


class NormExtractor(FrontExtractorOp):
    """batch_norm, sync_batch_norm, layer_norm, group_norm, instance_norm -> ``Paddle_<op>`` with epsilon and their
    own attributes (``norm_lowering.py``)."""
    op = ['batch_norm', 'sync_batch_norm', 'layer_norm', 'group_norm', 'instance_norm']
    #: a batch norm synchronised across devices in training is a batch norm at inference
    SAME_AS = {'sync_batch_norm': 'batch_norm'}

    @classmethod
    def extract(cls, node):
        node['epsilon'] = float(paddle_attr(node, 'epsilon', 1e-5))
        node['channels_last'] = paddle_attr(node, 'data_format', paddle_attr(node, 'data_layout', 'NCHW')) in (
            'NHWC', 'NLC', 'NDHWC')
        node['op'] = 'Paddle_' + cls.SAME_AS.get(node.op, node.op)
        return True
