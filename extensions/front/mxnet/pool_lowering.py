"""MXNet's Pooling from the opset's MaxPool, AvgPool and reductions."""
import numpy as np

from extensions.ops.adaptive_pool import AdaptiveAvgPool
from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.elementwise_lowering import like
from extensions.front.mxnet.formulas import all_axes, ints
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.elementwise import Mul
from mo.ops.pooling import AvgPool, MaxPool
from mo.ops.reduce import ReduceMax, ReduceMean, ReduceSum
from mo.utils.error import Error

_GLOBAL = {'max': ReduceMax, 'avg': ReduceMean, 'sum': ReduceSum}


class PoolingLowering(OpRule):
    """Pooling(x): global_pool = ReduceMax/Mean/Sum over the spatial axes (kept); otherwise MaxPool or AvgPool
    with MXNet's stride and pad, pooling_convention full rounding up (valid: down), count_include_pad (default
    True) as exclude-pad false; sum = AvgPool counting the padding * the window's size."""
    op = 'MXPooling'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        layout = attr.str('layout', None)
        if layout not in (None, 'None', 'NCW', 'NCHW', 'NCDHW'):
            raise Error('Pooling "{}": layout {} is not converted (channels-first only)', b.name, layout)
        pool_type = attr.str('pool_type', 'max')
        if pool_type not in _GLOBAL:
            raise Error('Pooling "{}": pool_type "{}" is not converted (max, avg, sum)', b.name, pool_type)
        if attr.bool('global_pool', False):
            return b.op(_GLOBAL[pool_type], [x, all_axes(b, x, 'axes', 2)], 'global', keep_dims=True)
        kernel = attr.tuple('kernel')
        rank = len(kernel)
        pad = attr.tuple('pad', ()) or (0,) * rank
        convention = attr.str('pooling_convention', 'valid')
        if convention not in ('valid', 'full'):
            raise Error('Pooling "{}": pooling_convention "{}" is not converted (valid, full)', b.name, convention)
        attrs = {'kernel': np.array(kernel, np.int64),
                 'strides': np.array(attr.tuple('stride', ()) or (1,) * rank, np.int64),
                 'pads_begin': np.array(pad, np.int64), 'pads_end': np.array(pad, np.int64),
                 'rounding_type': 'ceil' if convention == 'full' else 'floor'}
        if pool_type == 'max':
            return b.op(MaxPool, [x], 'pool', **attrs)
        include_pad = attr.bool('count_include_pad', True) or pool_type == 'sum'
        pooled = b.op(AvgPool, [x], 'pool', **dict(attrs, **{'exclude-pad': not include_pad}))
        if pool_type == 'sum':
            return b.op(Mul, [pooled, like(b, float(np.prod(kernel)), pooled, 'window')], 'sum')
        return pooled


class AdaptiveAvgPoolingLowering(OpRule):
    """_contrib_AdaptiveAvgPooling2D(x, output_size) = AdaptiveAvgPool(x, output_size) (one value: square)."""
    op = 'MXcontrib_AdaptiveAvgPooling2D'

    def rewrite(self, node: Node, b: Builder):
        size = mxnet_attr(node).tuple('output_size', (1,)) or (1,)
        size = list(size) * 2 if len(size) == 1 else list(size)
        return b.op(AdaptiveAvgPool, [node.in_port(0), ints(b, size, 'output_size')], 'pool')
