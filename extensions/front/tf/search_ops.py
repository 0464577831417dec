"""TensorFlow's search and counting ops, extracted and built from opset ops: UpperBound and LowerBound
(tf.searchsorted: per row, the count of the row's entries at most / below each value, by a comparison of every
value with every entry summed, which is moderate for the sizes searchsorted is used with: [B, M, N] elements), and
Bincount / DenseBincount (each value compared with 0..size-1, a one-hot row weighted and summed; binary_output
takes the maximum; values outside [0, size) count nowhere; the size may be computed at run time).
"""
import numpy as np

from mo.front.common.formula_kit import I64, arange
from extensions.front.tf.tensor_ext import constant_input, set_op
from mo.front.common.rule import Builder, OpRule
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.graph.graph import Node
from mo.ops.elementwise import Equal, Less, LessEqual, Mul
from mo.ops.reduce import ReduceMax, ReduceSum
from mo.ops.reshape import Reshape
from mo.utils.error import Error


class _BoundExtractor(FrontExtractorOp):
    _abstract = True

    @classmethod
    def extract(cls, node):
        set_op(node, node.op, {'output_type': tf_dtype_attr(node, 'out_type', np.dtype(np.int32)),
                               'in_ports_count': 2, 'out_ports_count': 1})
        return True


class UpperBoundExtractor(_BoundExtractor):
    """UpperBound(sorted [B, N], values [B, M]) -> ReduceSum(sorted <= value) per row, in out_type."""
    op = 'UpperBound'


class LowerBoundExtractor(_BoundExtractor):
    """LowerBound(sorted [B, N], values [B, M]) -> ReduceSum(sorted < value) per row, in out_type."""
    op = 'LowerBound'


class UpperBoundLowering(OpRule):
    """UpperBound(sorted, values)[b, m] = sum_n(sorted[b, n] <= values[b, m]) (the rows are sorted)."""
    op = 'UpperBound'
    compare = LessEqual

    def rewrite(self, node: Node, b: Builder):
        entries = b.unsqueeze(node.in_port(0), [1], 'entries')  # [B, 1, N]
        values = b.unsqueeze(node.in_port(1), [2], 'values')  # [B, M, 1]
        before = b.cast(b.op(self.compare, [entries, values], 'before'), node.output_type, 'count_each')
        return b.op(ReduceSum, [before, b.const([2], 'axes', I64)], 'count', keep_dims=False)


class LowerBoundLowering(UpperBoundLowering):
    """LowerBound(sorted, values)[b, m] = sum_n(sorted[b, n] < values[b, m]) (the rows are sorted)."""
    op = 'LowerBound'
    compare = Less


class BincountExtractor(FrontExtractorOp):
    """Bincount(arr, size, weights) -> one-hot rows of arr against 0..size-1 (weighted when weights is not
    empty) summed over every element of arr."""
    op = 'Bincount'

    @classmethod
    def extract(cls, node):
        set_op(node, 'Bincount', {'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32)),
                                  'binary_output': False, 'in_ports_count': 3, 'out_ports_count': 1})
        return True


class DenseBincountExtractor(FrontExtractorOp):
    """DenseBincount(input [N] or [B, N], size, weights) -> one-hot rows summed per input row; binary_output."""
    op = 'DenseBincount'

    @classmethod
    def extract(cls, node):
        set_op(node, 'DenseBincount', {'data_type': tf_dtype_attr(node, 'T', np.dtype(np.float32)),
                                       'binary_output': bool(tf_attr(node, 'binary_output', False)),
                                       'in_ports_count': 3, 'out_ports_count': 1})
        return True


class BincountLowering(OpRule):
    """Bincount(arr, size, weights)[i] = sum over arr's elements e of (e == i) * weight(e) (weight 1 when weights
    is empty); values outside [0, size) count nowhere."""
    op = 'Bincount'
    per_row = False

    def rewrite(self, node: Node, b: Builder):
        weights = constant_input(node, 2)
        if weights is None and not node.is_in_port_connected(2):
            raise Error('{} "{}" has no weights input', node.op, b.name)
        weighted = not (weights is not None and np.size(weights) == 0) and not node.binary_output
        values = node.in_port(0)
        if not self.per_row:  # every element of arr counts into one histogram
            values = b.op(Reshape, [values, b.const([-1], 'flat', I64)], 'flat_values', special_zero=False)
        bins = arange(b, b.cast(node.in_port(1), I64, 'size_i64'), 'bins', I64)
        hits = b.op(Equal, [b.unsqueeze(b.cast(values, I64, 'values_i64'), [-1], 'values_column'), bins], 'hits')
        counts = b.cast(hits, node.data_type, 'hit_counts')
        if node.binary_output:
            return b.op(ReduceMax, [counts, b.const([-2], 'axes', I64)], 'present', keep_dims=False)
        if weighted:
            weight = node.in_port(2)
            if not self.per_row:
                weight = b.op(Reshape, [weight, b.const([-1], 'flat_w', I64)], 'flat_weights', special_zero=False)
            counts = b.op(Mul, [counts, b.unsqueeze(weight, [-1], 'weights_column')], 'weighted')
        return b.op(ReduceSum, [counts, b.const([-2], 'axes', I64)], 'bincount', keep_dims=False)


class DenseBincountLowering(BincountLowering):
    """DenseBincount(input, size, weights): Bincount of each row of a 2-D input ([B, size]), of a 1-D input as one
    row ([size]); binary_output gives 1 for a value present."""
    op = 'DenseBincount'
    per_row = True
