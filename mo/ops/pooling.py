"""MaxPool and AvgPool (opset1) in the channels-first layout ``[N, C, spatial...]``.

``kernel``, ``strides``, ``pads_begin``/``pads_end`` and ``auto_pad`` mean what they mean for the
convolutions (``mo.ops.convolution``); pads are filled in from ``same_upper`` when the spatial
sizes are known. AvgPool's ``exclude-pad`` divides by the number of real pixels in a window, which
is how TensorFlow's AvgPool treats SAME padding. Both fold their value when the input is constant.
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.ops.convolution import _csv, _ints, forward_pads, sliding_windows
from mo.ops.op import Op
from mo.utils.error import Error
from mo.compat.ops_hook import legacy_op_names


class _Pool(Op):
    op = None
    type = None

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': self.type, 'op': self.op, 'version': 'opset1', 'auto_pad': 'explicit',
            'rounding_type': 'floor', 'infer': self.infer, 'in_ports_count': 1, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('strides', lambda n: _csv(n.strides)), ('kernel', lambda n: _csv(n.kernel)),
                ('pads_begin', lambda n: _csv(n.pads_begin)), ('pads_end', lambda n: _csv(n.pads_end)),
                'rounding_type', 'auto_pad']

    @classmethod
    def infer(cls, node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        name = node.soft_get('name', node.id)
        if node.soft_get('layout', 'NCHW') != 'NCHW':
            raise Error('{} "{}" is still in {} layout: the layout replacer must run before inference',
                        node.op, name, node.layout)
        rank = len(shape) - 2
        rounding = node.soft_get('rounding_type', 'floor')
        if rounding not in ('floor', 'ceil', 'ceil_torch'):
            raise Error('{} "{}": rounding_type "{}" is not one of floor, ceil, ceil_torch', node.op, name, rounding)
        try:
            kernel = _ints(node.kernel, rank, 1)
            strides = _ints(node.soft_get('strides', None), rank, 1)
        except (Error, AttributeError) as exc:
            raise Error('{} "{}": kernel/strides do not fit input of shape {}: {}', node.op, name,
                        shape.tolist(), exc) from None
        dilations = [1] * rank
        begin, end, out = forward_pads(shape[2:], kernel, strides, dilations, node.auto_pad,
                                       node.soft_get('pads_begin', None), node.soft_get('pads_end', None), rounding)
        node.kernel, node.strides = int64_array(kernel), int64_array(strides)
        # unknown spatial sizes: the runtime works the SAME padding out itself from auto_pad
        node.pads_begin, node.pads_end = int64_array(begin), int64_array(end)
        value = node.in_port(0).data.get_value()
        if value is not None and rounding == 'floor':
            node.out_port(0).data.set_value(cls.fold(node, value, kernel, strides, begin, end))
        else:
            node.out_port(0).data.set_shape(list(shape[:2]) + out)


class MaxPool(_Pool):
    """opset1 MaxPool: the maximum of each window; padding never wins."""
    op = type = 'MaxPool'

    @staticmethod
    def fold(node, x, kernel, strides, begin, end):
        axes = tuple(range(-len(kernel), 0))
        windows = sliding_windows(x, kernel, strides, [1] * len(kernel), begin, end, pad_value=-np.inf)
        return windows.max(axis=axes).astype(x.dtype)


class AvgPool(_Pool):
    """opset1 AvgPool; ``exclude-pad`` true averages over the real pixels of each window only."""
    op = type = 'AvgPool'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, dict({'exclude-pad': True}, **(attrs or {})))

    def backend_attrs(self):
        return super().backend_attrs() + [('exclude-pad', lambda n: str(bool(n['exclude-pad'])).lower())]

    @staticmethod
    def fold(node, x, kernel, strides, begin, end):
        axes = tuple(range(-len(kernel), 0))
        ones = [1] * len(kernel)
        total = sliding_windows(x.astype(np.float64), kernel, strides, ones, begin, end).sum(axis=axes)
        if node['exclude-pad']:
            count = sliding_windows(np.ones((1, 1) + x.shape[2:]), kernel, strides, ones, begin, end).sum(axis=axes)
        else:
            count = float(np.prod(kernel))
        return (total / count).astype(x.dtype)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
