"""ONNX Attention's attn_mask (``extensions.front.onnx.attention_mask``) as a bias, by the type inference gave it."""
import numpy as np

from extensions.front.onnx.nn_formulas import like
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.convert import ConvertLike
from mo.ops.select import Select
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
