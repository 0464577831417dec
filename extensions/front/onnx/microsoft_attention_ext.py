"""onnxruntime's attention-side contrib ops (com.microsoft RotaryEmbedding, MultiHeadAttention, Attention) as internal
ops lowered in the middle phase (``extensions.middle.microsoft_attention_lowering``), where the ranks of their inputs
are known: each op takes several layouts told apart by rank alone (3-D or 4-D RotaryEmbedding input, a 3-D or packed
5-D query...).

RotaryEmbedding and Attention share their names with ONNX's own (opset 23), whose extractors in ``attention_ext``
hand a com.microsoft node over to the functions here.
"""
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.op import Op
from mo.utils.error import Error

DOMAIN = 'com.microsoft'


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _flag(node, op: str, attr: str) -> bool:
    value = onnx_attr(node, attr, 'i', 0)
    if value not in (0, 1):
        raise Error('{} "{}": {} must be 0 or 1, got {}', op, _name(node), attr, value)
    return bool(value)


def _same_type_infer(node):
    dtype = node.in_port(0).data.get_data_type()
    if dtype is not None:
        for port in node.out_ports().values():
            if not port.disconnected():
                port.data.set_data_type(dtype)


class ONNXMSRotaryEmbedding(Op):
    """com.microsoft RotaryEmbedding(input, position_ids, cos_cache, sin_cache): output of input's shape and type."""
    op = 'ONNXMSRotaryEmbedding'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': self.op, 'infer': ONNXMSRotaryEmbedding.infer, 'type_infer': _same_type_infer,
            'in_ports_count': 4, 'out_ports_count': 1, 'interleaved': False, 'rotary_dim': 0, 'num_heads': 0,
        }, attrs)

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is not None:
            node.out_port(0).data.set_shape(shape)


def extract_rotary_embedding(node):
    """com.microsoft RotaryEmbedding -> ONNXMSRotaryEmbedding: interleaved, rotary_embedding_dim (0: the head size),
    num_heads (needed with rotary_embedding_dim). ``scale`` only rescales the caches onnxruntime would rebuild for a
    sequence longer than them, which its CPU kernel does not do either; ``is_packed_batching`` does not change what
    the CPU kernel computes on 3-D and 4-D inputs: both are read and left aside."""
    name = _name(node)
    dim = int(onnx_attr(node, 'rotary_embedding_dim', 'i', 0))
    heads = int(onnx_attr(node, 'num_heads', 'i', 0))
    if dim < 0 or dim % 2 or heads < 0:
        raise Error('RotaryEmbedding "{}": rotary_embedding_dim {} must be even and not negative, num_heads {} not '
                    'negative', name, dim, heads)
    if dim and not heads:
        raise Error('RotaryEmbedding "{}": rotary_embedding_dim {} needs num_heads', name, dim)
    _flag(node, 'RotaryEmbedding', 'is_packed_batching')
    ONNXMSRotaryEmbedding.update_node_stat(node, {'interleaved': _flag(node, 'RotaryEmbedding', 'interleaved'),
                                                  'rotary_dim': dim, 'num_heads': heads})
    return True
