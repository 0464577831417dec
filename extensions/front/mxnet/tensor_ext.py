"""Extractors for MXNet's shape and indexing ops: Concat is the opset's, constants are built here, the others
leave an ``MX<op>`` node for ``tensor_lowering`` and ``reduce_lowering``."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr, pending
from mo.front.extractor import FrontExtractorOp
from mo.front.mxnet.dtypes import np_dtype_of_name
from mo.ops.concat import Concat
from mo.ops.const import Const
from mo.utils.error import Error


class ConcatExtractor(FrontExtractorOp):
    """Concat(a, b, ..., dim) -> Concat along dim (default 1)."""
    op = ['Concat', 'concat']

    @classmethod
    def extract(cls, node):
        count = len([p for p in node.in_ports() if node.is_in_port_connected(p)])
        Concat.update_node_stat(node, {'axis': mxnet_attr(node).int('dim', 1), 'in_ports_count': count})
        return True


def _const(node, value):
    Const.update_node_stat(node, {'value': value, 'shape': np.array(value.shape, np.int64), 'data_type': value.dtype})
    return True


class ArangeExtractor(FrontExtractorOp):
    """_arange(start, stop, step, repeat, dtype) -> its values as a Const (they depend on no input); stop None
    counts from 0 to start."""
    op = '_arange'

    @classmethod
    def extract(cls, node):
        attr = mxnet_attr(node)
        if attr.bool('infer_range', False):
            raise Error('_arange "{}": infer_range is not converted', node.name)
        start, stop, step = attr.float('start', 0.0), attr.float('stop', None), attr.float('step', 1.0)
        if stop is None:
            start, stop = 0.0, start
        dtype = np_dtype_of_name(attr.str('dtype', 'float32'), '_arange "{}"'.format(node.name))
        values = np.arange(start, stop, step, dtype=np.float64)
        return _const(node, np.repeat(values, attr.int('repeat', 1)).astype(dtype))


class FilledExtractor(FrontExtractorOp):
    """_zeros/_ones/_full(shape, dtype, value) -> a Const when the shape is known; a shape with a 0 (a dim MXNet
    infers from the op it feeds, as Gluon's RNN begin states have) is left to that op's rule as ``MXzeros``."""
    op = ['_zeros', '_ones', '_full', 'zeros', 'ones']

    @classmethod
    def extract(cls, node):
        attr = mxnet_attr(node)
        shape = attr.tuple('shape', ())
        fill = {'_zeros': 0.0, 'zeros': 0.0, '_ones': 1.0, 'ones': 1.0}.get(node.op)
        if fill is None:
            fill = attr.float('value')
        dtype = np_dtype_of_name(attr.str('dtype', 'float32'), '{} "{}"'.format(node.op, node.name))
        if shape and all(d and d > 0 for d in shape):
            return _const(node, np.full(shape, fill, dtype))
        node['fill_value'], node['fill_dtype'] = fill, dtype
        return pending(node, 'MXzeros')


class TensorExtractor(FrontExtractorOp):
    """Shape, slicing, broadcasting and gathering ops -> ``MX<op>`` for their rules."""
    op = ['Reshape', 'reshape', 'transpose', 'slice', 'crop', 'slice_axis', 'slice_like', 'Crop', 'expand_dims',
          'squeeze', 'SwapAxis', 'swapaxes', 'reshape_like', 'broadcast_to', 'broadcast_axis', 'broadcast_axes',
          'broadcast_like', 'reverse', 'flip', 'tile', 'repeat', 'stack', 'SliceChannel', 'split', 'take',
          'Embedding', 'argmax', 'argmin', 'mean', 'sum', 'max', 'min', 'prod', 'nansum', 'norm', 'sum_axis',
          'max_axis', 'min_axis']
    _SAME = {'reshape': 'MXReshape', 'crop': 'MXslice', 'swapaxes': 'MXSwapAxis', 'broadcast_axes': 'MXbroadcast_axis',
             'flip': 'MXreverse', 'split': 'MXSliceChannel', 'sum_axis': 'MXsum', 'max_axis': 'MXmax',
             'min_axis': 'MXmin', 'nansum': 'MXsum'}

    @classmethod
    def extract(cls, node):
        return pending(node, cls._SAME.get(node.op))
