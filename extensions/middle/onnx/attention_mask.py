"""ONNX Attention's parts that wait for inference (``extensions.front.onnx.attention_mask``): attn_mask as a bias by
the type inference gave it, the split into heads and the merge back by the rank it gave the inputs."""
import numpy as np

from mo.front.common.nn_formulas import like
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.convert import ConvertLike
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.transpose import Transpose
from mo.utils.error import Error


class AttentionMaskBiasLowering(MiddleOpRule):
    """A boolean mask becomes Select(mask, 0, -inf) in the query's type; a float mask is the bias as it is (in the
    query's type)."""
    id = 'AttentionMaskBiasLowering'
    op = 'ONNXAttentionMaskBias'

    def rewrite(self, node: Node, b: Builder):
        mask_type = node.in_port(0).data.get_data_type()
        query_type = node.in_port(1).data.get_data_type()
        if mask_type is None:
            raise Error('Attention "{}": the element type of attn_mask is unknown after type inference',
                        node.soft_get('attention', b.name))
        if np.dtype(mask_type) == np.bool_:
            reference = node.in_port(1)
            return b.op(Select, [node.in_port(0), like(b, 0.0, reference, 'zero'), like(b, -np.inf, reference,
                                                                                         'minus_inf')], 'bias')
        if query_type is not None and np.dtype(mask_type) != np.dtype(query_type):
            # ONNX lets a float mask be of another float type than Q: added in Q's
            return b.op(ConvertLike, [node.in_port(0), node.in_port(1)], 'bias')
        return node.in_port(0)


class AttentionHeadsLowering(MiddleOpRule):
    """A 3-D [B, S, H * D] input becomes Transpose(Reshape(x, [B, S, H, D]), [0, 2, 1, 3]); a 4-D one is itself."""
    id = 'AttentionHeadsLowering'
    op = 'ONNXAttentionHeads'

    def rewrite(self, node: Node, b: Builder):
        shape = node.in_port(0).data.get_shape()
        if shape is None or len(shape) not in (3, 4):
            raise Error('Attention "{}": Q, K and V must be 3-D or 4-D, not of shape {}',
                        node.soft_get('attention', b.name), None if shape is None else list(shape))
        if len(shape) == 4:
            return node.in_port(0)
        split = b.op(Reshape, [node.in_port(0), b.const(np.array([0, 0, node.heads, -1], np.int64), 'split_shape')],
                     'split', special_zero=True)
        return b.op(Transpose, [split, b.const(np.array([0, 2, 1, 3], np.int64), 'order')], 'heads')


class AttentionMergeHeadsLowering(MiddleOpRule):
    """With a 3-D query, y [B, H, S, Dv] becomes Reshape(Transpose(y, [0, 2, 1, 3]), [B, S, H * Dv]); else y."""
    id = 'AttentionMergeHeadsLowering'
    op = 'ONNXAttentionMergeHeads'

    def rewrite(self, node: Node, b: Builder):
        query = node.in_port(1).data.get_shape()
        if query is None or len(query) != 3:
            return node.in_port(0)
        moved = b.op(Transpose, [node.in_port(0), b.const(np.array([0, 2, 1, 3], np.int64), 'order')], 'moved')
        return b.op(Reshape, [moved, b.const(np.array([0, 0, -1], np.int64), 'merge_shape')], 'merged',
                    special_zero=True)
