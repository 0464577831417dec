"""TensorFlow's CTCGreedyDecoder from the opset's CTCGreedyDecoderSeqLen.

The opset decodes each sequence of ``[batch, time, classes]`` into a row of class indices padded with -1 plus
its length; TF returns the same decodings as a sparse tensor: the (sequence, position) indices of the decoded
classes in row-major order, the classes (int64), the dense shape [batch, longest decoding], and per sequence the
negative sum of its best scores over its length.
"""
import numpy as np

from mo.front.common.formula_kit import F32, I32, I64, arange, dim, minus_one
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Negative
from mo.ops.concat import Concat
from mo.ops.elementwise import Less
from mo.ops.reduce import ReduceMax, ReduceSum
from mo.ops.select import Select
from mo.ops.rnn_ops import CTCGreedyDecoderSeqLen
from mo.ops.tensor_ops import GatherND, NonZero


class CTCGreedyDecoderLowering(OpRule):
    """CTCGreedyDecoder(inputs [T, B, C], sequence_length [B]) -> decoded_indices, decoded_values, decoded_shape,
    log_probability (see the module docstring)."""
    op = 'CTCGreedyDecoder'

    def rewrite(self, node: Node, b: Builder):
        logits, lengths = node.in_port(0), node.in_port(1)
        data = b.transpose(logits, [1, 0, 2], 'batch_major')
        if node.blank_index < 0:
            blank = minus_one(b, dim(b, logits, 2, 'class_count', I32), 'blank', I32)
        else:
            blank = b.const(node.blank_index, 'blank', I32)
        decoder = b.op(CTCGreedyDecoderSeqLen, [data, lengths, blank], 'decoder', merge_repeated=node.merge_repeated,
                       classes_index_type=np.dtype(np.int32), sequence_length_type=np.dtype(np.int32))
        decoded, decoded_lengths = decoder.out_port(0), decoder.out_port(1)
        # the decoded positions of each sequence: [B, T] true below its decoded length
        positions = b.unsqueeze(arange(b, dim(b, data, 1, 'time', I32), 'positions'), [0], 'positions_row')
        decoded_here = b.op(Less, [positions, b.unsqueeze(decoded_lengths, [1], 'decoded_column')], 'decoded_here')
        indices = b.transpose(b.op(NonZero, [decoded_here], 'nonzero', output_type=np.dtype(np.int64)), [1, 0],
                            'indices')
        values = b.cast(b.op(GatherND, [decoded, indices], 'classes'), I64, 'values')
        longest = b.op(ReduceMax, [b.cast(decoded_lengths, I64, 'lengths_i64'), b.const([0], 'batch_axis', I64)],
                       'longest', keep_dims=True)
        shape = b.op(Concat, [b.unsqueeze(dim(b, data, 0, 'batch', I64), [0], 'batch_vector'), longest],
                     'dense_shape', axis=0)
        # log_probability: -(sum over t < sequence_length of max over the classes)
        best = b.op(ReduceMax, [data, b.const([2], 'class_axis', I64)], 'best')
        inside = b.op(Less, [positions, b.unsqueeze(lengths, [1], 'length_column')], 'inside')
        kept = b.op(Select, [inside, best, b.const(0, 'zero', node.soft_get('score_type', None) or F32)], 'kept')
        total = b.op(ReduceSum, [kept, b.const([1], 'time_axis', I64)], 'total', keep_dims=True)
        return [indices, values, shape, b.op(Negative, [total], 'log_probability')]
