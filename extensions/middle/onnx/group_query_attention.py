"""com.microsoft GroupQueryAttention (``extensions.front.onnx.microsoft_gqa_ext``) as opset ops.

As onnxruntime defines it, per batch entry b the cache holds ``total_b = seqlens_k[b] + 1`` tokens after the step, of
which the ``S`` new ones (the query's length) are the last: they sit at ``past_b = total_b - S`` on. A first prompt
(S = total_sequence_length) is right-padded instead: its entries start at 0. Both read ``past_b = max(total_b - S,
0)``, since a first prompt's entries are never longer than S. The present cache, of length ``max(past buffer,
total_sequence_length)``, is the past buffer with the new keys written at ``past_b`` (a Gather of the past and the new
rows, by batch), which covers the past/present pair as separate tensors and as one shared buffer alike.
"""
import numpy as np

from extensions.front.onnx.attention_lowering import _repeat_heads, rotate_heads
from extensions.front.onnx.microsoft_gqa_ext import (ATTENTION_BIAS, COS, HEAD_SINK, KEY, OP, PAST_KEY, PAST_VALUE,
                                                    POSITION_IDS, QUERY, SEQLENS_K, SIN, TOTAL_LENGTH,
                                                    UNSUPPORTED_INPUTS, VALUE)
from mo.front.common.nn_formulas import like
from extensions.middle.onnx.microsoft_attention_lowering import _i64, _shape
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.activation_ops import Tanh
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, GreaterEqual, Less, LessEqual, LogicalAnd, Maximum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import Softmax
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.split import VariadicSplit
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

I64 = np.int64


def _column(b: Builder, x, tag: str):
    """[B] -> [B, 1]."""
    return b.op(Unsqueeze, [x, _i64(b, [1], tag + '/axis')], tag)


def _range(b: Builder, length, tag: str):
    return b.op(Range, [_i64(b, 0, tag + '/start'), length, _i64(b, 1, tag + '/step')], tag,
                output_type=np.dtype(I64))


class GroupQueryAttentionLowering(MiddleOpRule):
    """GroupQueryAttention = Softmax(softcap(Q K^T * scale) + attention_bias + causal/window bias) V, with Q, K, V
    the query's heads (or a packed QKV query's parts), rotated at their positions with do_rotary; K and V the present
    cache (the past buffer with the new rows written at each entry's past length), their kv_num_heads heads repeated
    for the num_heads query heads; head_sink or smooth_softmax add a sink to the Softmax's denominator."""
    id = 'GroupQueryAttentionLowering'
    op = 'ONNXMSGroupQueryAttention'

    def rewrite(self, node: Node, b: Builder):
        for port, what in UNSUPPORTED_INPUTS.items():
            if node.is_in_port_connected(port):
                raise Error('{} "{}": {} is not supported', OP, b.name, what)
        if node.is_out_port_connected(3) and node.qk_output not in (1, 2):
            raise Error('{} "{}": output_qk needs qk_output 1 (the scores) or 2 (the probabilities)', OP, b.name)
        heads, kv_heads = node.num_heads, node.kv_num_heads
        width = _shape(node, QUERY, OP, 'query', (3,))[2]
        packed = not node.is_in_port_connected(KEY)
        if packed == node.is_in_port_connected(VALUE):
            raise Error('{} "{}": key and value go together (neither: a packed QKV query)', OP, b.name)
        parts = heads + 2 * kv_heads if packed else heads
        if width <= 0 or width % parts:
            raise Error('{} "{}": the query of width {} does not hold {} heads', OP, b.name, width, parts)
        head = width // parts
        q, k, v = node.in_port(QUERY).get_source(), None, None
        if packed:
            split = b.op(VariadicSplit, [q, _i64(b, 2, 'qkv_axis'), _i64(b, [heads * head, kv_heads * head,
                                                                              kv_heads * head], 'qkv_sizes')],
                         'qkv', out_ports_count=3)
            q, k, v = split.out_port(0), split.out_port(1), split.out_port(2)
        else:
            k, v = node.in_port(KEY).get_source(), node.in_port(VALUE).get_source()
        # [B, S, N * H] -> [B, S, N, H]
        q, k, v = (b.op(Reshape, [x, _i64(b, [0, 0, n, head], tag + '_shape')], tag, special_zero=True)
                   for x, n, tag in ((q, heads, 'q_bsnh'), (k, kv_heads, 'k_bsnh'), (v, kv_heads, 'v_bsnh')))
        length = b.dim_of(q, 1, 'query_length')
        total = b.op(Add, [b.op(Convert, [node.in_port(SEQLENS_K)], 'seqlens_k', dst_type=np.dtype(I64)),
                           _i64(b, 1, 'one')], 'total_lengths')
        past = b.op(Maximum, [b.op(Sub, [total, length], 'past_or_negative'), _i64(b, 0, 'zero')], 'past_lengths')
        # the query rows' positions [B, S]
        positions = b.op(Add, [_column(b, past, 'past_column'), _range(b, length, 'rows')], 'positions')
        if node.do_rotary:
            q, k = self._rotate(node, b, q, k, positions, total, head)
        to_heads = _i64(b, [0, 2, 1, 3], 'bnsh_order')
        q, k, v = (b.op(Transpose, [x, to_heads], tag) for x, tag in ((q, 'q'), (k, 'k'), (v, 'v')))
        if node.is_in_port_connected(PAST_KEY) != node.is_in_port_connected(PAST_VALUE):
            raise Error('{} "{}": past_key and past_value go together', OP, b.name)
        if node.is_in_port_connected(PAST_KEY):
            k, v = self._present(node, b, k, v, past)
        scores = b.op(MatMul, [q, _repeat_heads(b, k, q, 'key_groups')], 'qk', transpose_b=True)
        scores = b.op(Mul, [scores, like(b, node.scale or 1.0 / np.sqrt(head), q, 'scale')], 'scaled')
        if node.softcap > 0:
            cap = like(b, node.softcap, q, 'softcap')
            scores = b.op(Mul, [b.op(Tanh, [b.op(Div, [scores, cap], 'capped_in')], 'capped'), cap], 'softcapped')
        keys = _range(b, b.dim_of(k, 2, 'key_count'), 'keys')
        if node.is_in_port_connected(ATTENTION_BIAS):
            scores = b.op(Add, [scores, self._bias(b, node.in_port(ATTENTION_BIAS), keys)], 'with_attention_bias')
        raw = scores
        scores = b.op(Add, [scores, self._mask(node, b, keys, positions, total, q)], 'masked')
        probs = self._softmax(node, b, scores)
        qk = None
        if node.is_out_port_connected(3):
            # [B, N, S, total_sequence_length]: the first keys of a shared buffer's
            declared = b.op(Reshape, [node.in_port(TOTAL_LENGTH), _i64(b, [1], 'qk_keys_shape')], 'qk_keys',
                            special_zero=False)
            qk = b.op(Slice, [raw if node.qk_output == 1 else probs, _i64(b, [0], 'qk_begin'),
                              b.op(Convert, [declared], 'qk_end', dst_type=np.dtype(I64)), _i64(b, [1], 'qk_step'),
                              _i64(b, [3], 'qk_axis')], 'qk_output')
        y = b.op(MatMul, [probs, _repeat_heads(b, v, q, 'value_groups')], 'attention')
        y = b.op(Transpose, [y, _i64(b, [0, 2, 1, 3], 'merge_order')], 'merge_t')
        y = b.op(Reshape, [y, _i64(b, [0, 0, heads * head], 'merge_shape')], 'merge_heads', special_zero=True)
        return [y, k if node.is_out_port_connected(1) else None, v if node.is_out_port_connected(2) else None, qk]

    @staticmethod
    def _rotate(node: Node, b: Builder, q, k, positions, total, head: int):
        """Q and K [B, S, N, H] rotated by the cos/sin cache rows at position_ids, or else at each row's position (a
        first prompt's padding rows past the entry's length at position 1, as onnxruntime does)."""
        if not (node.is_in_port_connected(COS) and node.is_in_port_connected(SIN)):
            raise Error('{} "{}": do_rotary needs cos_cache and sin_cache', OP, b.name)
        half = _shape(node, COS, OP, 'cos_cache', (2,))[1]
        if half <= 0 or 2 * half > head:
            raise Error('{} "{}": cos_cache rows of {} values rotate at most a head of {}', OP, b.name, half, head)
        if node.is_in_port_connected(POSITION_IDS):
            at = node.in_port(POSITION_IDS).get_source()
        else:
            inside = b.op(Less, [positions, _column(b, total, 'total_column')], 'inside')
            at = b.op(Select, [inside, positions, _i64(b, 1, 'padding_position')], 'rotary_positions')
        axis = _i64(b, 0, 'cache_axis')
        cos = b.op(Gather, [node.in_port(COS), at, axis], 'cos_at')
        sin = b.op(Gather, [node.in_port(SIN), at, axis], 'sin_at')
        dim = 0 if 2 * half == head else 2 * half
        return (rotate_heads(b, q, cos, sin, dim, node.rotary_interleaved, 'q_rotary/'),
                rotate_heads(b, k, cos, sin, dim, node.rotary_interleaved, 'k_rotary/'))

    @staticmethod
    def _present(node: Node, b: Builder, k, v, past):
        """The present cache [B, N, L, H], L = max(past buffer, total_sequence_length): row j of entry b is new row
        j - past_b where that is one of the S new rows, else the past buffer's row j (zeros past its end)."""
        buffer = b.dim_of(node.in_port(PAST_KEY), 2, 'past_buffer')
        declared = b.op(Convert, [b.op(Reshape, [node.in_port(TOTAL_LENGTH), _i64(b, [], 'scalar')], 'total_scalar',
                                       special_zero=False)], 'total_sequence_length', dst_type=np.dtype(I64))
        size = b.op(Maximum, [buffer, declared], 'present_length')
        rows = _range(b, size, 'present_rows')
        relative = b.op(Sub, [rows, _column(b, past, 'present_past')], 'relative')  # [B, L]
        new_rows = b.dim_of(k, 2, 'new_rows')
        is_new = b.op(LogicalAnd, [b.op(GreaterEqual, [relative, _i64(b, 0, 'first_new')], 'after_past'),
                                   b.op(Less, [relative, new_rows], 'before_end')], 'is_new')
        # rows of Concat(past padded to L, new): j itself, or L + j - past_b for a new row
        index = b.op(Select, [is_new, b.op(Add, [relative, size], 'new_index'), rows], 'source_rows')
        grow = b.op(Unsqueeze, [b.op(Sub, [size, buffer], 'grow'), _i64(b, [0], 'grow_axis')], 'grow_1d')
        pads_end = b.op(Concat, [_i64(b, [0, 0], 'pads_lead'), grow, _i64(b, [0], 'pads_tail')], 'pads_end', axis=0)
        present = []
        for port, new, tag in ((PAST_KEY, k, 'present_key'), (PAST_VALUE, v, 'present_value')):
            padded = b.op(Pad, [node.in_port(port), _i64(b, [0, 0, 0, 0], tag + '/pads_begin'), pads_end,
                                like(b, 0.0, new, tag + '/zero')], tag + '/padded', pad_mode='constant')
            rows_of_both = b.op(Concat, [padded, new], tag + '/rows', axis=2)
            present.append(b.op(Gather, [rows_of_both, index, _i64(b, 2, tag + '/axis')], tag, batch_dims=1))
        return present

    @staticmethod
    def _bias(b: Builder, bias, keys):
        """attention_bias [B or 1, N or 1, S, T], its last axis padded with zeros (keys masked anyway) or cut to the
        keys' count (a shared buffer longer than total_sequence_length)."""
        count = b.op(ShapeOf, [keys], 'key_count_1d', output_type=np.dtype(I64))
        missing = b.op(Maximum, [b.op(Sub, [count, b.dim_of(bias, 3, 'bias_keys')], 'bias_short'),
                                 _i64(b, [0], 'no_pad')], 'bias_missing')
        pads_end = b.op(Concat, [_i64(b, [0, 0, 0], 'bias_pads_lead'), missing], 'bias_pads_end', axis=0)
        padded = b.op(Pad, [bias, _i64(b, [0, 0, 0, 0], 'bias_pads_begin'), pads_end, like(b, 0.0, bias, 'bias_zero')],
                      'bias_padded', pad_mode='constant')
        return b.op(Slice, [padded, _i64(b, [0], 'bias_begin'), count, _i64(b, [1], 'bias_step'),
                            _i64(b, [3], 'bias_axis')], 'bias')

    @staticmethod
    def _mask(node: Node, b: Builder, keys, positions, total, q):
        """0 where a query row at position p sees key j, -inf elsewhere, [B, 1, S, L]: causal j <= p (and p - j <
        local_window_size), otherwise j < the entry's total length."""
        at = b.op(Unsqueeze, [positions, _i64(b, [2], 'position_axis')], 'position_column')  # [B, S, 1]
        if node.causal:
            allowed = b.op(LessEqual, [keys, at], 'causal')
            if node.local_window_size >= 0:
                behind = b.op(Sub, [at, keys], 'behind')
                # local_window_size keys, the row's own included
                allowed = b.op(LogicalAnd, [allowed, b.op(Less, [behind, _i64(b, node.local_window_size, 'window')],
                                                          'in_window')], 'allowed')
        else:
            allowed = b.op(Less, [keys, b.op(Unsqueeze, [total, _i64(b, [1, 2], 'total_axes')], 'total_3d')],
                           'stored')
        allowed = b.op(Unsqueeze, [allowed, _i64(b, [1], 'mask_heads')], 'allowed_4d')
        return b.op(Select, [allowed, like(b, 0.0, q, 'keep'), like(b, -np.inf, q, 'minus_inf')], 'mask')

    @staticmethod
    def _softmax(node: Node, b: Builder, scores):
        """Softmax over the keys; with a sink (head_sink[n], or 0 for smooth_softmax) the sink's exp joins the
        denominator: a Softmax with the sink as one more key, that key's probability dropped."""
        if node.is_in_port_connected(HEAD_SINK):
            sink = b.op(Reshape, [node.in_port(HEAD_SINK), _i64(b, [1, -1, 1, 1], 'sink_shape')], 'sink_4d',
                        special_zero=False)
        elif node.smooth_softmax:
            sink = like(b, np.zeros([1, 1, 1, 1]), scores, 'sink_4d')
        else:
            return b.op(Softmax, [scores], 'probs', axis=-1)
        shape = b.op(ShapeOf, [scores], 'scores_shape', output_type=np.dtype(I64))
        column = b.op(Concat, [b.op(Slice, [shape, _i64(b, [0], 'lead_begin'), _i64(b, [3], 'lead_end'),
                                            _i64(b, [1], 'lead_step')], 'lead'), _i64(b, [1], 'one_key')],
                      'sink_shape_full', axis=0)
        sink = b.op(Broadcast, [sink, column], 'sink')
        probs = b.op(Softmax, [b.op(Concat, [scores, sink], 'with_sink', axis=3)], 'probs_with_sink', axis=-1)
        count = b.dim_of(scores, 3, 'score_keys')
        return b.op(Slice, [probs, _i64(b, [0], 'keys_begin'), b.op(Unsqueeze, [count, _i64(b, [0], 'count_axis')],
                                                                   'keys_end'),
                            _i64(b, [1], 'keys_step'), _i64(b, [3], 'keys_axis')], 'probs')
