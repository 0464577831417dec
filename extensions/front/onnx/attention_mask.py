"""Internal ops for the parts of ONNX Attention that depend on what inference tells, lowered in the middle phase
(``extensions.middle.onnx.attention_mask``). ``ONNXAttentionMaskBias``: attn_mask as an additive bias, whose form depends
on the mask's element type (boolean: 0 where true, -inf where false; float: the mask itself); ONNX nodes do not state
their types, so the front phase cannot always tell which. ``ONNXAttentionHeads``/``ONNXAttentionMergeHeads``: the
split into heads of a 3-D input and the merge back, for inputs whose rank the front phase does not know."""
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


class ONNXAttentionHeads(Op):
    """ONNXAttentionHeads(x) with ``heads``: a 3-D [B, S, heads * D] input as [B, heads, S, D], a 4-D one as it is;
    for an input whose rank the front phase does not know (Attention's q_num_heads/kv_num_heads apply to 3-D inputs
    only)."""
    op = 'ONNXAttentionHeads'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': self.op, 'infer': ONNXAttentionHeads.infer, 'in_ports_count': 1,
                                 'out_ports_count': 1}, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        if len(shape) == 3:
            width = int(shape[2])
            shape = [int(shape[0]), node.heads, int(shape[1]), width // node.heads if width >= 0 else -1]
        node.out_port(0).data.set_shape(shape)


class ONNXAttentionMergeHeads(Op):
    """ONNXAttentionMergeHeads(y, query): y [B, H, S, Dv] as [B, S, H * Dv] when the query was 3-D, else as it is."""
    op = 'ONNXAttentionMergeHeads'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': self.op, 'infer': ONNXAttentionMergeHeads.infer, 'in_ports_count': 2,
                                 'out_ports_count': 1}, attrs)

    @staticmethod
    def infer(node):
        shape, query = node.in_port(0).data.get_shape(), node.in_port(1).data.get_shape()
        if shape is None or query is None:
            return
        if len(query) == 3:
            heads, width = int(shape[1]), int(shape[3])
            shape = [int(shape[0]), int(shape[2]), heads * width if heads >= 0 and width >= 0 else -1]
        node.out_port(0).data.set_shape(shape)
