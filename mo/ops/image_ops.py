"""Sliding-window image ops of the opset beyond the pools: ExtractImagePatches (opset3) and MaxPool (opset8,
which also returns where each maximum was).

Both work channels-first, ``[N, C, H, W]``; TensorFlow's channels-last nodes reach them through the layout
replacer (``extensions/front/tf/nhwc_to_nchw.py``) or a lowering that transposes. Unknown spatial sizes stay
-1; the runtime works SAME padding out from ``auto_pad``. Neither folds: constant images are not worth it.
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.ops.convolution import _csv, _ints, forward_pads
from mo.ops.op import Op
from mo.utils.error import Error


def _window_output(node, shape, kernel, strides, dilations):
    """The spatial output sizes of a window op on ``shape`` ``[N, C, spatial...]`` (pads filled in)."""
    begin, end, out = forward_pads(shape[2:], kernel, strides, dilations, node.auto_pad,
                                   node.soft_get('pads_begin', None), node.soft_get('pads_end', None),
                                   node.soft_get('rounding_type', 'floor'))
    node['pads_begin'], node['pads_end'] = int64_array(begin), int64_array(end)
    return out


class ExtractImagePatches(Op):
    """``[N, C, H, W]`` -> ``[N, C * kh * kw, out_h, out_w]``: each output pixel holds the window of ``sizes``
    (taps ``rates`` apart) starting ``strides`` apart, ordered (row, column, channel) as TensorFlow's patches.

    ``auto_pad``: ``valid`` or ``same_upper`` (TensorFlow's SAME); TF's ``ksizes``/``rates`` are ``sizes``/``rates``.
    """
    op = type = 'ExtractImagePatches'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'ExtractImagePatches', 'op': 'ExtractImagePatches', 'version': 'opset3', 'auto_pad': 'valid',
            'infer': ExtractImagePatches.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('sizes', lambda n: _csv(n.sizes)), ('strides', lambda n: _csv(n.strides)),
                ('rates', lambda n: _csv(n.rates)), 'auto_pad']

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        name = node.soft_get('name', node.id)
        if len(shape) != 4 or node.soft_get('layout', 'NCHW') != 'NCHW':
            raise Error('ExtractImagePatches "{}": the input must be a channels-first image [N, C, H, W], got {}',
                        name, [int(d) for d in shape])
        if node.auto_pad not in ('valid', 'same_upper', 'same_lower'):
            raise Error('ExtractImagePatches "{}": auto_pad "{}" is not supported', name, node.auto_pad)
        sizes, strides, rates = (_ints(node[attr], 2, 1) for attr in ('sizes', 'strides', 'rates'))
        out = _window_output(node, shape, sizes, strides, rates)
        depth = -1 if shape[1] < 0 else int(shape[1]) * sizes[0] * sizes[1]
        node.out_port(0).data.set_shape([int(shape[0]), depth] + out)


class MaxPoolWithIndices(Op):
    """opset8 MaxPool: output 0 the maxima, output 1 where each was, counted over the dimensions from ``axis`` on
    of the unpadded input (``axis`` 2: ``y * W + x`` within each image and channel).

    ``kernel``, ``strides``, ``dilations``, pads and ``auto_pad`` as ``mo.ops.pooling.MaxPool``.
    """
    op = 'MaxPoolWithIndices'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'MaxPool', 'op': 'MaxPoolWithIndices', 'version': 'opset8', 'auto_pad': 'explicit',
            'rounding_type': 'floor', 'axis': 2, 'index_element_type': 'i64',
            'infer': MaxPoolWithIndices.infer, 'type_infer': MaxPoolWithIndices.type_infer,
            'in_ports_count': 1, 'out_ports_count': 2,
        }, attrs)

    def backend_attrs(self):
        return [('strides', lambda n: _csv(n.strides)), ('dilations', lambda n: _csv(n.dilations)),
                ('pads_begin', lambda n: _csv(n.pads_begin)), ('pads_end', lambda n: _csv(n.pads_end)),
                ('kernel', lambda n: _csv(n.kernel)), 'rounding_type', 'auto_pad', 'index_element_type', 'axis']

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        rank = len(shape) - 2
        kernel, strides = _ints(node.kernel, rank, 1), _ints(node.strides, rank, 1)
        dilations = _ints(node.soft_get('dilations', None), rank, 1)
        node['dilations'] = int64_array(dilations)
        out = list(int(d) for d in shape[:2]) + _window_output(node, shape, kernel, strides, dilations)
        for port in (0, 1):
            # the IR lists both outputs even when only the indices are read
            node.out_port(port)._data_node(create=True)['keep_output_port'] = True
            node.out_port(port).data.set_shape(out)

    @staticmethod
    def type_infer(node):
        source = node.in_port(0).data.get_data_type()
        if source is not None:
            node.out_port(0).data.set_data_type(source)
        node.out_port(1).data.set_data_type(np.dtype({'i32': np.int32, 'i64': np.int64}[node.index_element_type]))
