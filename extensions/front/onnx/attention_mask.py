"""The internal op ``ONNXAttentionMaskBias``: ONNX Attention's attn_mask as an additive bias, whose form depends on
the mask's element type (boolean: 0 where true, -inf where false; float: the mask itself). ONNX nodes do not state
their types, so the front phase cannot always tell which; ``extensions.middle.attention_mask.AttentionMaskBiasLowering``
decides once type inference has given the mask its type."""
from mo.ops.op import Op


class ONNXAttentionMaskBias(Op):
    """ONNXAttentionMaskBias(mask, like): the mask's shape, ``like``'s element type (the query's)."""
    op = 'ONNXAttentionMaskBias'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': self.op, 'infer': ONNXAttentionMaskBias.infer, 'type_infer': ONNXAttentionMaskBias.type_infer,
            'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is not None:
            node.out_port(0).data.set_shape(shape)

    @staticmethod
    def type_infer(node):
        dtype = node.in_port(1).data.get_data_type()
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)
