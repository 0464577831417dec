"""onnxruntime's attention-side contrib ops (``extensions.front.onnx.microsoft_attention_ext``) as opset ops, written
in the middle phase because their layouts are told apart by the ranks of their inputs."""
import numpy as np

from extensions.front.onnx.attention_lowering import rotate_heads
from mo.front.common.nn_formulas import like
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Equal, Greater, GreaterEqual, Less, LessEqual, LogicalAnd, LogicalOr, Mul
from mo.ops.gather import Gather
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import Softmax
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.split import Split, VariadicSplit
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

I64 = np.int64


def _i64(b: Builder, value, tag: str):
    return b.const(np.array(value, I64), tag, I64)


def _shape(node: Node, port: int, op: str, what: str, ranks):
    shape = node.in_port(port).data.get_shape()
    if shape is None or len(shape) not in ranks:
        raise Error('{} "{}": {} must be of rank {}, not of shape {}', op, node.soft_get('name', node.id), what,
                    ' or '.join(str(r) for r in ranks), None if shape is None else list(shape))
    return [int(d) for d in shape]


class ONNXMSRotaryEmbeddingLowering(MiddleOpRule):
    """RotaryEmbedding(input, position_ids, cos_cache, sin_cache): the heads of input as [B, S, H, D] (3-D
    [B, S, H * D] split, 4-D [B, H, S, D] transposed) have their first rotary_embedding_dim features (all for 0)
    rotated by the cache rows at position_ids ([B, S], or one offset p: rows p .. p + S - 1)."""
    id = 'ONNXMSRotaryEmbeddingLowering'
    op = 'ONNXMSRotaryEmbedding'

    def rewrite(self, node: Node, b: Builder):
        op = 'RotaryEmbedding'
        shape = _shape(node, 0, op, 'input', (3, 4))
        half = _shape(node, 2, op, 'cos_cache', (2,))[1]
        positions = node.in_port(1).data.get_shape()
        if positions is None or len(positions) > 2 or (len(positions) < 2 and int(np.prod(positions)) != 1):
            raise Error('{} "{}": position_ids must be [batch, sequence] or one offset, not of shape {}', op, b.name,
                        None if positions is None else list(positions))
        # the head size: twice the cache's width, or hidden / num_heads with a rotary_embedding_dim
        head = 2 * half if not node.rotary_dim else shape[2] // node.num_heads if len(shape) == 3 else shape[3]
        if head <= 0:
            raise Error('{} "{}": the head size is unknown (input of shape {}, cache width {})', op, b.name, shape,
                        half)
        x = node.in_port(0).get_source()
        if len(shape) == 3:
            # the hidden size kept static where it is, so that the shapes after the op stay known
            hidden = shape[2] if shape[2] > 0 else -1
            split = [0, 0, hidden // head if hidden > 0 else -1, head]
            heads = b.op(Reshape, [x, _i64(b, split, 'split_shape')], 'split_heads', special_zero=True)
        else:
            heads = b.op(Transpose, [x, _i64(b, [0, 2, 1, 3], 'to_bshd')], 'bshd')
        if len(positions) == 2:
            rows = node.in_port(1).get_source()
        else:
            # one offset: positions offset + [0, S) for every batch, as [1, S]
            length = b.dim_of(x, 1 if len(shape) == 3 else 2, 'sequence_length')
            steps = b.op(Range, [_i64(b, 0, 'start'), length, _i64(b, 1, 'step')], 'steps', output_type=np.dtype(I64))
            offset = b.op(Reshape, [node.in_port(1), _i64(b, [1], 'offset_shape')], 'offset', special_zero=False)
            rows = b.op(Unsqueeze, [b.op(Add, [steps, offset], 'positions'), _i64(b, [0], 'batch_axis')], 'rows')
        axis = _i64(b, 0, 'cache_axis')
        cos = b.op(Gather, [node.in_port(2), rows, axis], 'cos_at')
        sin = b.op(Gather, [node.in_port(3), rows, axis], 'sin_at')
        rotary = node.rotary_dim if 0 < node.rotary_dim < head else 0
        result = rotate_heads(b, heads, cos, sin, rotary, node.interleaved)
        if len(shape) == 3:
            return b.op(Reshape, [result, _i64(b, [0, 0, hidden], 'merge_shape')], 'merge_heads', special_zero=True)
        return b.op(Transpose, [result, _i64(b, [0, 2, 1, 3], 'to_bhsd')], 'bhsd')


def _to_heads(b: Builder, x, heads: int, head: int, tag: str):
    """[B, S, N * H] -> [B, N, S, H] (H static where it is known, so that the shapes after stay known)."""
    split = b.op(Reshape, [x, _i64(b, [0, 0, heads, head if head > 0 else -1], tag + '/split_shape')], tag + '/split',
                 special_zero=True)
    return b.op(Transpose, [split, _i64(b, [0, 2, 1, 3], tag + '/order')], tag)


def _unpack(b: Builder, packed, parts: int, tag: str):
    """[B, S, N, parts, H] -> ``parts`` tensors [B, S, N * H]."""
    split = b.op(Split, [packed, _i64(b, 3, tag + '/axis')], tag, num_splits=parts)
    return [b.op(Reshape, [split.out_port(i), _i64(b, [0, 0, -1], '{}/{}_shape'.format(tag, i))],
                 '{}/{}'.format(tag, i), special_zero=True) for i in range(parts)]


#: the forms of a key padding mask (MultiHeadAttention's key_padding_mask, Attention's mask_index)
LENGTHS, ENDS_STARTS, KEYS, QUERIES_KEYS = 'lengths [B]', 'end and start positions [2B]', '[B, T]', '[B, S, T]'
#: a 1-D mask whose size or batch is known at run time only: lengths [B] or end and start positions [2B]
LENGTHS_OR_ENDS_STARTS = '[B] or [2B]'


def _mask_term(b: Builder, mask, form: str, keys, scores, filter_value: float, tag: str):
    """A key padding mask as an additive term [B, 1, S or 1, T]: mask_filter_value where a key is masked (a 0 of a
    [B, T] or [B, S, T] mask; at or past the length of [B] lengths; outside [start, end) of [2B] end and start
    positions), 0 elsewhere."""
    if form in (LENGTHS, ENDS_STARTS, LENGTHS_OR_ENDS_STARTS):
        positions = b.op(Convert, [mask], tag + '/positions', dst_type=np.dtype(I64))
        if form == ENDS_STARTS:
            halves = b.op(Split, [positions, _i64(b, 0, tag + '/half_axis')], tag + '/halves', num_splits=2)
            ends, starts = halves.out_port(0), halves.out_port(1)
        elif form == LENGTHS_OR_ENDS_STARTS:
            # followed by as many zeros, the mask reads [ends, starts] either way: lengths have start 0
            zeros = b.op(Mul, [positions, _i64(b, 0, tag + '/zero_factor')], tag + '/zeros')
            padded = b.op(Concat, [positions, zeros], tag + '/padded', axis=0)
            batch = b.dim_of(scores, 0, tag + '/batch')
            first = b.op(Range, [_i64(b, 0, tag + '/start'), batch, _i64(b, 1, tag + '/step')], tag + '/first',
                         output_type=np.dtype(I64))
            axis = _i64(b, 0, tag + '/axis')
            ends = b.op(Gather, [padded, first, axis], tag + '/ends_part')
            starts = b.op(Gather, [padded, b.op(Add, [first, batch], tag + '/second'), axis], tag + '/starts_part')
        else:
            ends, starts = positions, None
        column = _i64(b, [1], tag + '/column')
        allowed = b.op(Less, [keys, b.op(Unsqueeze, [ends, column], tag + '/ends')], tag + '/before_end')
        if starts is not None:
            started = b.op(GreaterEqual, [keys, b.op(Unsqueeze, [starts, column], tag + '/starts')], tag + '/started')
            allowed = b.op(LogicalAnd, [allowed, started], tag + '/allowed')
    else:
        allowed = b.op(Greater, [mask, b.const(np.array(0, np.int32), tag + '/zero', np.int32)], tag + '/allowed')
    axes = [1] if form == QUERIES_KEYS else [1, 2]
    allowed = b.op(Unsqueeze, [allowed, _i64(b, axes, tag + '/axes')], tag + '/allowed_4d')
    return b.op(Select, [allowed, like(b, 0.0, scores, tag + '/keep'), like(b, filter_value, scores, tag + '/filter')],
                tag)


def _causal_term(b: Builder, queries, length, keys, past_length, scores, tag: str):
    """unidirectional: the lowest float where key j > past length + query i, 0 elsewhere; the last query row is
    never masked (as onnxruntime's kernel builds the mask: it differs from the causal rule for cross attention
    only)."""
    position = b.op(Unsqueeze, [queries, _i64(b, [1], tag + '/column')], tag + '/query_column')
    last = b.op(Equal, [position, b.op(Add, [length, _i64(b, -1, tag + '/minus_one')], tag + '/last_index')],
                tag + '/last_row')
    if past_length is not None:
        position = b.op(Add, [position, past_length], tag + '/position')
    allowed = b.op(LogicalOr, [b.op(LessEqual, [keys, position], tag + '/causal'), last], tag + '/allowed')
    # onnxruntime's lowest float32; float16 scores hold it as -inf (key 0 is never masked: no row
    # is all -inf)
    dtype = np.dtype(b.node.in_port(0).data.get_data_type() or np.float32)
    lowest = b.const(np.array(np.finfo(np.float32).min if dtype.itemsize >= 4 else -np.inf, dtype), tag + '/lowest')
    return b.op(Select, [allowed, like(b, 0.0, scores, tag + '/keep'), lowest], tag)


def attend(b: Builder, node: Node, q, k, v, head_size: int, v_hidden: int, past_length, mask, mask_form: str,
           attention_bias):
    """Q [B, N, S, H], K, V [B, N, T, H]: Softmax(Q K^T * scale + attention_bias + mask terms) V as [B, S, N * Hv]
    (v_hidden = N * Hv, -1 if unknown), and the scores before the Softmax (onnxruntime's qk output)."""
    scale = node.scale or 1.0 / np.sqrt(head_size)
    scores = b.op(Mul, [b.op(MatMul, [q, k], 'qk', transpose_b=True), like(b, scale, q, 'scale')], 'scaled')
    if attention_bias is not None:
        scores = b.op(Add, [scores, attention_bias], 'with_attention_bias')
    if mask is not None or node.unidirectional:
        total = b.dim_of(k, 2, 'total_length')
        keys = b.op(Range, [_i64(b, 0, 'key_start'), total, _i64(b, 1, 'key_step')], 'keys', output_type=np.dtype(I64))
        if mask is not None:
            scores = b.op(Add, [scores, _mask_term(b, mask, mask_form, keys, scores, node.mask_filter_value, 'mask')],
                          'with_mask')
        if node.unidirectional:
            length = b.dim_of(q, 2, 'query_length')
            queries = b.op(Range, [_i64(b, 0, 'query_start'), length, _i64(b, 1, 'query_step')], 'queries',
                           output_type=np.dtype(I64))
            scores = b.op(Add, [scores, _causal_term(b, queries, length, keys, past_length, scores, 'causal')],
                          'with_causal')
    probs = b.op(Softmax, [scores], 'probs', axis=-1)
    y = b.op(Transpose, [b.op(MatMul, [probs, v], 'attention'), _i64(b, [0, 2, 1, 3], 'merge_order')], 'merge_t')
    return b.op(Reshape, [y, _i64(b, [0, 0, v_hidden], 'merge_shape')], 'merge_heads', special_zero=True), scores


class ONNXMSMultiHeadAttentionLowering(MiddleOpRule):
    """MultiHeadAttention = Softmax(Q K^T * scale + attention_bias + key padding / causal terms) V for each of
    num_heads heads: Q, K, V from the 3-D query, key and value (+ their parts of bias), or a packed [B, S, N, 3, H]
    query, a packed [B, L, N, 2, H] key, or key and value already [B, N, L, H]; K and V after past_key/past_value
    (present_key/present_value); qk the scores before the Softmax."""
    id = 'ONNXMSMultiHeadAttentionLowering'
    op = 'ONNXMSMultiHeadAttention'

    def rewrite(self, node: Node, b: Builder):
        op, heads = 'MultiHeadAttention', node.num_heads
        for port, what in ((8, 'past_sequence_length'), (9, 'cache_indirection')):
            if node.is_in_port_connected(port):
                raise Error('{} "{}": {} (buffer sharing, beam search) is not supported', op, b.name, what)
        q_shape = _shape(node, 0, op, 'query', (3, 5))
        q, k, v = node.in_port(0).get_source(), None, None
        kv_heads = False  # key and value already [B, N, L, H]
        if len(q_shape) == 5:
            if node.is_in_port_connected(1) or node.is_in_port_connected(2):
                raise Error('{} "{}": a packed query [B, S, N, 3, H] comes without key and value', op, b.name)
            q, k, v = _unpack(b, q, 3, 'qkv')
            head = v_head = q_shape[4]
        else:
            if not node.is_in_port_connected(1):
                raise Error('{} "{}": the query is not packed [B, S, N, 3, H]: key is needed', op, b.name)
            k_shape = _shape(node, 1, op, 'key', (3, 4, 5))
            if len(k_shape) == 5:
                if node.is_in_port_connected(2):
                    raise Error('{} "{}": a packed key [B, L, N, 2, H] comes without value', op, b.name)
                k, v = _unpack(b, node.in_port(1).get_source(), 2, 'kv')
                v_head = k_shape[4]
            else:
                if not node.is_in_port_connected(2):
                    raise Error('{} "{}": key of rank {} needs value', op, b.name, len(k_shape))
                v_shape = _shape(node, 2, op, 'value', (len(k_shape),))
                k, v = node.in_port(1).get_source(), node.in_port(2).get_source()
                kv_heads = len(k_shape) == 4
                v_head = v_shape[3] if kv_heads else v_shape[2] // heads if v_shape[2] > 0 else -1
            head = q_shape[2] // heads if q_shape[2] > 0 else -1
        if head <= 0:
            raise Error('{} "{}": the head size is unknown (query of shape {})', op, b.name, q_shape)
        if node.is_in_port_connected(3):
            # bias: Q's, K's then V's, each hidden = N * H wide (V's the rest); K and V as [B, N, L, H] take none
            hidden = heads * head
            parts = b.op(VariadicSplit, [node.in_port(3), _i64(b, 0, 'bias_axis'), _i64(b, [hidden, hidden, -1],
                                                                                           'bias_sizes')],
                         'bias_parts', out_ports_count=3)
            q = b.op(Add, [q, parts.out_port(0)], 'q_bias')
            if not kv_heads:
                k = b.op(Add, [k, parts.out_port(1)], 'k_bias')
                v = b.op(Add, [v, parts.out_port(2)], 'v_bias')
        q = _to_heads(b, q, heads, head, 'q_heads')
        if not kv_heads:
            k, v = _to_heads(b, k, heads, head, 'k_heads'), _to_heads(b, v, heads, v_head, 'v_heads')
        past_length = None
        if node.is_in_port_connected(6) != node.is_in_port_connected(7):
            raise Error('{} "{}": past_key and past_value go together', op, b.name)
        if node.is_in_port_connected(6):
            past_length = b.dim_of(node.in_port(6), 2, 'past_length')
            k = b.op(Concat, [node.in_port(6), k], 'present_key', axis=2)
            v = b.op(Concat, [node.in_port(7), v], 'present_value', axis=2)
        mask, form = None, None
        if node.is_in_port_connected(4):
            mask_shape = _shape(node, 4, op, 'key_padding_mask', (1, 2, 3))
            if len(mask_shape) == 1 and q_shape[0] > 0 and mask_shape[0] != q_shape[0]:
                raise Error('{} "{}": a 1-D key_padding_mask holds the lengths of the batch of {}, not {} numbers', op,
                            b.name, q_shape[0], mask_shape[0])
            form = (LENGTHS, KEYS, QUERIES_KEYS)[len(mask_shape) - 1]
            mask = node.in_port(4).get_source()
        bias = node.in_port(5).get_source() if node.is_in_port_connected(5) else None
        y, scores = attend(b, node, q, k, v, head, heads * v_head if v_head > 0 else -1, past_length, mask, form, bias)
        return [y, k if node.is_out_port_connected(1) else None, v if node.is_out_port_connected(2) else None,
                scores if node.is_out_port_connected(3) else None]


class ONNXMSAttentionLowering(MiddleOpRule):
    """Attention(input, weights, bias, mask_index, past, attention_bias) = MultiHeadAttention of Q, K, V = input @
    weights (+ bias) split by qkv_hidden_sizes (thirds by default), K and V after past[0] and past[1]; present = K, V
    stacked; mask_index as lengths [B], end and start positions [2B], a [B, T] or a [B, S, T] mask."""
    id = 'ONNXMSAttentionLowering'
    op = 'ONNXMSAttention'

    def rewrite(self, node: Node, b: Builder):
        op, heads = 'Attention', node.num_heads
        if node.is_in_port_connected(6):
            raise Error('{} "{}": past_sequence_length (buffer sharing) is not supported', op, b.name)
        x_shape = _shape(node, 0, op, 'input', (3,))
        width = _shape(node, 1, op, 'weights', (2,))[1]
        sizes = node.qkv_hidden_sizes or ([width // 3] * 3 if width > 0 and width % 3 == 0 else None)
        if sizes is None or (width > 0 and sum(sizes) != width):
            raise Error('{} "{}": weights of width {} do not split into Q, K, V of widths {}', op, b.name, width,
                        sizes or 'thirds')
        qkv = b.op(MatMul, [node.in_port(0), node.in_port(1)], 'qkv')
        if node.is_in_port_connected(2):
            qkv = b.op(Add, [qkv, node.in_port(2)], 'qkv_bias')
        parts = b.op(VariadicSplit, [qkv, _i64(b, 2, 'qkv_axis'), _i64(b, sizes, 'qkv_sizes')], 'qkv_parts',
                     out_ports_count=3)
        q, k, v = (_to_heads(b, parts.out_port(i), heads, sizes[i] // heads, tag)
                   for i, tag in enumerate(('q_heads', 'k_heads', 'v_heads')))
        past_length = None
        if node.is_in_port_connected(4):
            past = node.in_port(4).get_source()
            past_length = b.dim_of(past, 3, 'past_length')
            axis = _i64(b, 0, 'past_axis')
            k = b.op(Concat, [b.op(Gather, [past, _i64(b, 0, 'past_key_index'), axis], 'past_key'), k], 'key', axis=2)
            v = b.op(Concat, [b.op(Gather, [past, _i64(b, 1, 'past_value_index'), axis], 'past_value'), v], 'value',
                     axis=2)
        present = None
        if node.is_out_port_connected(1):
            if sizes[1] != sizes[2]:
                raise Error('{} "{}": present stacks K and V: their widths {} and {} must be equal', op, b.name,
                            sizes[1], sizes[2])
            first = _i64(b, [0], 'present_axis')
            present = b.op(Concat, [b.op(Unsqueeze, [k, first], 'present_key'),
                                    b.op(Unsqueeze, [v, first], 'present_value')], 'present', axis=0)
        mask, form = None, None
        if node.is_in_port_connected(3):
            mask = node.in_port(3).get_source()
            form = self._mask_form(node, b, x_shape[0])
        bias = node.in_port(5).get_source() if node.is_in_port_connected(5) else None
        y, _ = attend(b, node, q, k, v, sizes[0] // heads, sizes[2], past_length, mask, form, bias)
        return [y, present]

    @staticmethod
    def _mask_form(node: Node, b: Builder, batch: int) -> str:
        shape = _shape(node, 3, 'Attention', 'mask_index', (1, 2, 3, 4))
        if len(shape) == 4:
            raise Error('Attention "{}": a 4-D mask_index (Megatron) is not supported', b.name)
        if len(shape) > 1:
            return KEYS if len(shape) == 2 else QUERIES_KEYS
        if batch > 0 and shape[0] == batch:
            return LENGTHS
        if batch > 0 and shape[0] == 2 * batch:
            return ENDS_STARTS
        if batch <= 0 or shape[0] <= 0:
            return LENGTHS_OR_ENDS_STARTS
        raise Error('Attention "{}": a 1-D mask_index of {} elements for a batch of {} is neither lengths [B] nor end '
                    'and start positions [2B]', b.name, shape[0], batch)
