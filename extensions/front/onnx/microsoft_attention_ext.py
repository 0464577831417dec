"""onnxruntime's attention-side contrib ops (com.microsoft RotaryEmbedding, MultiHeadAttention, Attention) as internal
ops lowered in the middle phase (``extensions.middle.onnx.microsoft_attention_lowering``), where the ranks of their inputs
are known: each op takes several layouts told apart by rank alone (3-D or 4-D RotaryEmbedding input, a 3-D or packed
5-D query...).

RotaryEmbedding and Attention share their names with ONNX's own (opset 23), whose extractors in ``attention_ext``
hand a com.microsoft node over to the functions here.
"""
from mo.front.extractor import FrontExtractorOp
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


class ONNXMSMultiHeadAttention(Op):
    """com.microsoft MultiHeadAttention(query, key, value, bias, key_padding_mask, attention_bias, past_key,
    past_value) -> output [B, S, Dv], present_key, present_value [B, N, T, H], qk [B, N, S, T]."""
    op = 'ONNXMSMultiHeadAttention'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': self.op, 'infer': ONNXMSMultiHeadAttention.infer, 'type_infer': _same_type_infer,
            'in_ports_count': 10, 'out_ports_count': 4,
        }, attrs)

    @staticmethod
    def infer(node):
        shapes = {port: node.in_port(port).data.get_shape() for port in (0, 1, 2, 6)
                  if node.is_in_port_connected(port)}
        query = shapes[0]
        key, value = shapes.get(1), shapes.get(2)
        if query is None or (key is None and len(query) != 5):
            return
        heads = node.num_heads
        batch, length = int(query[0]), int(query[1])
        if len(query) == 5:  # packed QKV [B, S, N, 3, H]
            kv_length, head, v_head = length, int(query[4]), int(query[4])
        elif len(key) == 5:  # packed KV [B, L, N, 2, H]
            kv_length, head, v_head = int(key[1]), int(key[4]), int(key[4])
        elif len(key) == 4:  # key and value as [B, N, L, H]
            kv_length, head, v_head = int(key[2]), int(key[3]), None if value is None else int(value[3])
        else:
            kv_length, head = int(key[1]), _part(int(query[2]), heads)
            v_head = None if value is None else _part(int(value[2]), heads)
        if v_head is None:
            return
        past = shapes.get(6)
        total = _sum(kv_length, -1 if past is None and 6 in shapes else int(past[2]) if past is not None else 0)
        outputs = {0: [batch, length, _product(v_head, heads)], 1: [batch, heads, total, head],
                   2: [batch, heads, total, v_head], 3: [batch, heads, length, total]}
        for port, shape in outputs.items():
            if port in node.out_ports() and not node.out_port(port).disconnected():
                node.out_port(port).data.set_shape(shape)


def _part(size: int, parts: int) -> int:
    return size // parts if size >= 0 else -1


def _sum(a: int, b: int) -> int:
    return a + b if a >= 0 and b >= 0 else -1


def _product(a: int, b: int) -> int:
    return a * b if a >= 0 and b >= 0 else -1


def _heads(node, op: str) -> int:
    heads = onnx_attr(node, 'num_heads', 'i', None)
    if heads is None or heads < 1:
        raise Error('{} "{}": num_heads must be a positive integer, got {}', op, _name(node), heads)
    return int(heads)


def attention_attrs(node, op: str) -> dict:
    """The attributes MultiHeadAttention and Attention share (scale 0: 1 / sqrt(head size), as onnxruntime reads it)."""
    return {'num_heads': _heads(node, op), 'scale': float(onnx_attr(node, 'scale', 'f', 0.0)),
            'mask_filter_value': float(onnx_attr(node, 'mask_filter_value', 'f', -10000.0)),
            'unidirectional': _flag(node, op, 'unidirectional')}


class MultiHeadAttentionExtractor(FrontExtractorOp):
    """com.microsoft MultiHeadAttention -> ONNXMSMultiHeadAttention (num_heads, scale, mask_filter_value,
    unidirectional). past_sequence_length and cache_indirection (buffer sharing, beam search) are refused."""
    op = 'MultiHeadAttention'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        attrs = attention_attrs(node, cls.op)
        ONNXMSMultiHeadAttention.update_node_stat(node, attrs)
        return True


class ONNXMSAttention(Op):
    """com.microsoft Attention(input, weights, bias, mask_index, past, attention_bias, past_sequence_length) ->
    output [B, S, Dv], present [2, B, N, T, H]."""
    op = 'ONNXMSAttention'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': self.op, 'infer': ONNXMSAttention.infer, 'type_infer': _same_type_infer,
            'in_ports_count': 7, 'out_ports_count': 2, 'qkv_hidden_sizes': None,
        }, attrs)

    @staticmethod
    def infer(node):
        x, weights = node.in_port(0).data.get_shape(), node.in_port(1).data.get_shape()
        if x is None or weights is None:
            return
        sizes = node.qkv_hidden_sizes or [_part(int(weights[-1]), 3)] * 3
        heads = node.num_heads
        past = node.in_port(4).data.get_shape() if node.is_in_port_connected(4) else [0] * 4
        total = _sum(int(x[1]), -1 if past is None else int(past[3]))
        node.out_port(0).data.set_shape([int(x[0]), int(x[1]), sizes[2]])
        if 1 in node.out_ports() and not node.out_port(1).disconnected():
            node.out_port(1).data.set_shape([2, int(x[0]), heads, total, _part(sizes[1], heads)])


def extract_attention(node):
    """com.microsoft Attention -> ONNXMSAttention: num_heads, qkv_hidden_sizes (Q, K, V widths; thirds of the
    weights' by default), scale, mask_filter_value, unidirectional. do_rotary (which onnxruntime's CPU kernel refuses
    too) and past_present_share_buffer are refused."""
    name, op = _name(node), 'Attention'
    attrs = attention_attrs(node, op)
    for flag in ('do_rotary', 'past_present_share_buffer'):
        if onnx_attr(node, flag, 'i', 0):
            raise Error('{} "{}": {} = 1 is not supported', op, name, flag)
    sizes = onnx_attr(node, 'qkv_hidden_sizes', 'ints', None)
    if sizes is not None:
        sizes = [int(s) for s in sizes]
        if len(sizes) != 3 or any(s <= 0 or s % attrs['num_heads'] for s in sizes) or sizes[0] != sizes[1]:
            raise Error('{} "{}": qkv_hidden_sizes {} must be three positive multiples of num_heads {}, the first two '
                        'equal', op, name, sizes, attrs['num_heads'])
    ONNXMSAttention.update_node_stat(node, dict(attrs, qkv_hidden_sizes=sizes))
    return True
