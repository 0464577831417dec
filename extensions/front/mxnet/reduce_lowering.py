"""MXNet's reductions and arg-reductions from opset ops."""
import numpy as np

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.formulas import all_axes, axes_range, ints, rank
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Equal, FloorMod, Sub
from mo.ops.nn_ops import TopK
from mo.ops.reduce import ReduceL2, ReduceMax, ReduceMean, ReduceMin, ReduceProd, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.squeeze import Squeeze
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


def reduction_axes(b: Builder, node: Node, x):
    """The axes MXNet's ``axis`` and ``exclude`` name: none given = every axis; exclude = every axis but those
    (negative ones counted from the end)."""
    attr = mxnet_attr(node)
    axes = attr.tuple('axis', None)
    if not axes:
        return all_axes(b, x, 'axes')
    if not attr.bool('exclude', False):
        return ints(b, list(axes), 'axes')
    return excluded_axes(b, x, axes)


def excluded_axes(b: Builder, x, axes):
    """The axes of ``x`` other than ``axes``: the largest rank - len(axes) of Range(rank) with ``axes`` (made
    non-negative) scored -1 (MXNet's static shapes make it a constant)."""
    size = rank(b, x, 'rank')
    every = axes_range(b, 0, size, 'every')
    named = b.op(FloorMod, [b.op(Add, [ints(b, list(axes), 'named'), size], 'shifted'), size], 'named_axes')
    hits = b.op(Equal, [b.op(Unsqueeze, [every, ints(b, [1], 'column')], 'every_column'), named], 'hits')
    hit = b.op(ReduceMax, [b.op(Convert, [hits], 'hits_int', dst_type=np.dtype(np.int64)), ints(b, [1], 'row')],
               'hit')
    score = b.op(Select, [b.op(Convert, [hit], 'hit_bool', dst_type=np.dtype(np.bool_)), ints(b, -1, 'minus'),
                          every], 'score')
    count = b.op(Sub, [size, ints(b, len(axes), 'count')], 'kept_count')
    kept = b.op(TopK, [score, count], 'kept', axis=0, mode='max', sort='value', index_element_type='i64',
                out_ports_count=2)
    return kept.out_port(0)


_REDUCTIONS = {'mean': ReduceMean, 'sum': ReduceSum, 'nansum': ReduceSum, 'max': ReduceMax, 'min': ReduceMin,
               'prod': ReduceProd, 'sum_axis': ReduceSum, 'max_axis': ReduceMax, 'min_axis': ReduceMin}


def scalar_as_1d(b: Builder, node: Node, result):
    """MXNet's reduction of every axis without keepdims has shape [1], not []."""
    attr = mxnet_attr(node)
    if attr.tuple('axis', None) or attr.bool('keepdims', False):
        return result
    return b.op(Reshape, [result, ints(b, [1], 'one_d')], 'as_1d')


class _Reduction(OpRule):
    _abstract = True

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        keep = mxnet_attr(node).bool('keepdims', False)
        reduced = b.op(_REDUCTIONS[node.mxnet_op], [x, reduction_axes(b, node, x)], 'reduce', keep_dims=keep)
        return scalar_as_1d(b, node, reduced)


class MeanLowering(_Reduction):
    """mean(x, axis, keepdims) = ReduceMean over axis (none: every axis)."""
    op = 'MXmean'


class SumLowering(_Reduction):
    """sum(x, axis, keepdims) = ReduceSum over axis (none: every axis)."""
    op = 'MXsum'


class MaxLowering(_Reduction):
    """max(x, axis, keepdims) = ReduceMax over axis (none: every axis)."""
    op = 'MXmax'


class MinLowering(_Reduction):
    """min(x, axis, keepdims) = ReduceMin over axis (none: every axis)."""
    op = 'MXmin'


class ProdLowering(_Reduction):
    """prod(x, axis, keepdims) = ReduceProd over axis (none: every axis)."""
    op = 'MXprod'


class NormLowering(OpRule):
    """norm(x, ord, axis, keepdims): ord 2 = ReduceL2, ord 1 = ReduceSum(|x|), over axis (none: every axis)."""
    op = 'MXnorm'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        order = attr.int('ord', 2)
        keep = attr.bool('keepdims', False)
        axes = attr.tuple('axis', None)
        axes = ints(b, list(axes), 'axes') if axes else all_axes(b, x, 'axes')
        if order == 2:
            return scalar_as_1d(b, node, b.op(ReduceL2, [x, axes], 'norm', keep_dims=keep))
        if order == 1:
            return scalar_as_1d(b, node, b.op(ReduceSum, [b.op(Abs, [x], 'abs'), axes], 'norm', keep_dims=keep))
        raise Error('norm "{}": ord {} is not converted (1, 2)', b.name, order)


class ArgMaxLowering(OpRule):
    """argmax(x, axis, keepdims) = the indices of TopK(x, 1, max) along axis as floats (MXNet's type), axis
    squeezed unless keepdims; no axis: of x flattened, shape [1]."""
    op = 'MXargmax'
    mode = 'max'

    def rewrite(self, node: Node, b: Builder):
        attr, x = mxnet_attr(node), node.in_port(0)
        axis = attr.int('axis', None)
        keep = attr.bool('keepdims', False)
        if axis is None:
            x = b.op(Reshape, [x, ints(b, [-1], 'flat_shape')], 'flat')
            axis = 0
        top = b.op(TopK, [x, ints(b, 1, 'k')], 'topk', axis=axis, mode=self.mode, sort='value',
                   index_element_type='i32', out_ports_count=2)
        indices = b.op(Convert, [top.out_port(1)], 'float', dst_type=np.dtype(np.float32))
        if attr.int('axis', None) is None:
            return indices  # MXNet's [1]
        if keep:
            return indices
        return b.op(Squeeze, [indices, ints(b, [axis], 'axis')], 'squeeze')


class ArgMinLowering(ArgMaxLowering):
    """argmin(x, axis, keepdims) = as argmax with TopK's min."""
    op = 'MXargmin'
    mode = 'min'
