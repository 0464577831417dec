"""ONNX's Attention (the internal op ``ONNXAttention`` of ``attention_ext.py``) as opset ops:

    scores = softcap(Q @ K^T * scale);  Y = Softmax(scores + bias) @ V

with K, V the concatenated cache and their heads repeated for grouped-query attention. The bias adds the mask
(boolean: -inf where false; float: as is; padded with -inf up to the keys' length), the causal frontier and
sliding window aligned at ``offset`` (the past length, or nonpad_kv_seqlen - q length per batch) and -inf past each
batch's nonpad_kv_seqlen. Rows whose bias is all -inf give zeros, as ONNX's reference does.
"""
import numpy as np

from extensions.front.onnx.attention_mask import ONNXAttentionHeads, ONNXAttentionMaskBias, ONNXAttentionMergeHeads
from mo.front.common.nn_formulas import I64, like, rank
from mo.front.common.rule import Builder, OpRule
from mo.ops.convert import ConvertLike
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt, Tanh
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Div, Greater, Less, LessEqual, LogicalAnd, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import Softmax
from mo.ops.pad import Pad
from mo.ops.range import Range
from mo.ops.reduce import ReduceOr
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.split import Split
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

def _shape_part(b, shape, begin: int, end: int, tag: str):
    return b.op(Slice, [shape, b.const([begin], tag + '/begin', I64), b.const([end], tag + '/end', I64),
                        b.const([1], tag + '/step', I64)], tag)


def _declared_rank(node: Node, port: int):
    """The rank of an input when its producer states it (a graph input or a constant), else None."""
    source = node.in_port(port).get_source().node
    if source.soft_get('op') == 'Parameter' and source.soft_get('shape', None) is not None:
        return len(source.shape)
    if source.soft_get('op') == 'Const':
        return np.ndim(source.value)
    return None


def _split_heads(b, x, heads: int, tag: str):
    """``[B, S, H * D]`` -> ``[B, H, S, D]``."""
    split = b.op(Reshape, [x, b.const([0, 0, heads, -1], tag + '/split_shape', I64)], tag + '/split',
                 special_zero=True)
    return b.op(Transpose, [split, b.const([0, 2, 1, 3], tag + '/order', I64)], tag)


def _repeat_heads(b, kv, q, tag: str):
    """``kv [B, Hkv, S, D]`` with each head repeated Hq / Hkv times (``q [B, Hq, ...]``): ``[B, Hq, S, D]``."""
    group = b.op(Div, [b.dim_of(q, 1, tag + '/q_heads'), b.dim_of(kv, 1, tag + '/kv_heads')], tag + '/group')
    shape = b.op(ShapeOf, [kv], tag + '/shape')
    target = b.concat([_shape_part(b, shape, 0, 2, tag + '/batch_heads'),
                        b.op(Unsqueeze, [group, b.const([0], tag + '/group_axis', I64)], tag + '/group_1d'),
                        _shape_part(b, shape, 2, 4, tag + '/rows')], tag + '/target')
    spread = b.op(Broadcast, [b.op(Unsqueeze, [kv, b.const([2], tag + '/axis', I64)], tag + '/unsqueezed'), target],
                  tag + '/spread')
    merged = b.concat([b.const([0, -1], tag + '/merged_heads', I64), _shape_part(b, shape, 2, 4, tag + '/rows_')],
                    tag + '/merged_shape')
    return b.op(Reshape, [spread, merged], tag, special_zero=True)


class ONNXAttentionLowering(OpRule):
    """Attention = Softmax(softcap(Q K^T * scale) + bias) V (see the module docstring); outputs Y, present_key,
    present_value, qk_matmul_output (mode 0/1: the scaled, soft-capped scores; 2: with the bias; 3: the
    probabilities)."""
    op = 'ONNXAttention'

    def rewrite(self, node: Node, b: Builder):
        q, k, v = node.in_port(0), node.in_port(1), node.in_port(2)
        heads = node.q_num_heads is not None or node.kv_num_heads is not None
        declared = _declared_rank(node, 0)
        three_d = heads and declared == 3
        # with head counts and a query of a rank the front phase does not know: split (and merge back) once
        # inference has told 3-D from 4-D, as the counts apply to 3-D inputs only
        deferred = heads and declared is None
        if three_d or deferred:
            if node.q_num_heads is None or node.kv_num_heads is None:
                raise Error('Attention "{}": 3-D inputs need both q_num_heads and kv_num_heads', b.name)
        if three_d:
            q = _split_heads(b, q, node.q_num_heads, 'q_heads')
            k = _split_heads(b, k, node.kv_num_heads, 'k_heads')
            v = _split_heads(b, v, node.kv_num_heads, 'v_heads')
        elif deferred:
            query = q
            q, k, v = (b.op(ONNXAttentionHeads, [x], tag, heads=count, attention=b.name)
                       for x, count, tag in ((q, node.q_num_heads, 'q_heads'), (k, node.kv_num_heads, 'k_heads'),
                                             (v, node.kv_num_heads, 'v_heads')))
        past = node.is_in_port_connected(4)
        if past != node.is_in_port_connected(5):
            raise Error('Attention "{}": past_key and past_value go together', b.name)
        if past:
            k = b.op(Concat, [node.in_port(4), k], 'present_key', axis=2)
            v = b.op(Concat, [node.in_port(5), v], 'present_value', axis=2)
        present_k, present_v = k, v
        if not (three_d and node.q_num_heads == node.kv_num_heads):
            k, v = _repeat_heads(b, k, q, 'key_groups'), _repeat_heads(b, v, q, 'value_groups')
        if node.scale is None:
            # 1 / sqrt(head size), the head size Q's last dimension in Q's type
            head_size = b.op(ConvertLike, [b.dim_of(q, 3, 'q_head_size'), q], 'head_size')
            scale = b.op(Div, [like(b, 1.0, q, 'one'), b.op(Sqrt, [head_size], 'sqrt_head_size')], 'scale')
        else:
            scale = like(b, node.scale, q, 'scale')
        scores = b.op(Mul, [b.op(MatMul, [q, k], 'qk', transpose_b=True), scale], 'scaled')
        if node.softcap > 0:
            cap = like(b, node.softcap, q, 'softcap')
            scores = b.op(Mul, [b.op(Tanh, [b.op(Div, [scores, cap], 'capped_in')], 'capped'), cap], 'softcapped')
        bias = self._bias(node, b, q, k, past)
        with_bias = scores if bias is None else b.op(Add, [scores, bias], 'with_bias')
        probs = b.op(Softmax, [with_bias], 'probs', axis=-1)
        if bias is not None:
            # a row that attends no key gives zeros (the runtime's ReduceMax of -inf rows is not -inf, so the test
            # is whether any key of the row is allowed)
            allowed = b.op(Greater, [bias, like(b, -np.inf, q, 'minus_inf_row')], 'allowed_keys')
            attends = b.op(ReduceOr, [allowed, b.const([-1], 'row_axis', I64)], 'row_attends', keep_dims=True)
            probs = b.op(Select, [attends, probs, like(b, 0.0, q, 'zero_row')], 'probs_masked')
        y = b.op(MatMul, [probs, v], 'attention')
        if three_d:
            y = b.op(Transpose, [y, b.const([0, 2, 1, 3], 'merge_order', I64)], 'merge_heads_t')
            y = b.op(Reshape, [y, b.const([0, 0, -1], 'merge_shape', I64)], 'merge_heads', special_zero=True)
        elif deferred:
            y = b.op(ONNXAttentionMergeHeads, [y, query], 'merge_heads')
        qk_output = {0: scores, 1: scores, 2: with_bias, 3: probs}[node.qk_matmul_output_mode]
        return [y, present_k if past else None, present_v if past else None, qk_output]

    @staticmethod
    def _bias(node: Node, b: Builder, q, k, past: bool):
        """The additive bias ``[..., q length, kv length]`` or None."""
        parts = []
        q_len, kv_len = b.dim_of(q, 2, 'q_length'), b.dim_of(k, 2, 'kv_length')
        if node.is_in_port_connected(3):
            parts.append(_mask_bias(b, node, q, kv_len))
        nonpad = node.in_port(6) if node.is_in_port_connected(6) else None
        if nonpad is not None and past:
            raise Error('Attention "{}": nonpad_kv_seqlen cannot be combined with past_key/past_value', b.name)
        windowed = node.left_window_size >= 0 or node.right_window_size >= 0
        zero, minus_inf = like(b, 0.0, q, 'bias_zero'), like(b, -np.inf, q, 'bias_minus_inf')
        one = b.const(1, 'one_step', I64)
        keys = b.op(Range, [b.const(0, 'key_start', I64), kv_len, one], 'key_index', output_type=np.dtype(I64))
        if node.is_causal or windowed:
            queries = b.op(Range, [b.const(0, 'query_start', I64), q_len, one], 'query_index',
                           output_type=np.dtype(I64))
            position = b.op(Unsqueeze, [queries, b.const([1], 'query_column', I64)], 'query_position')
            if past:
                position = b.op(Add, [position, b.dim_of(node.in_port(4), 2, 'past_length')], 'position')
            elif nonpad is not None:
                offset = b.op(Sub, [nonpad, q_len], 'offset')
                offset = b.op(Unsqueeze, [offset, b.const([1, 2], 'offset_axes', I64)], 'offset_per_batch')
                position = b.op(Add, [position, offset], 'position')
            allowed = []
            if node.is_causal:
                allowed.append(b.op(LessEqual, [keys, position], 'causal'))
            if node.left_window_size >= 0:
                allowed.append(b.op(LessEqual, [b.op(Sub, [position, keys], 'behind'),
                                                b.const(node.left_window_size, 'left_window', I64)], 'left_ok'))
            if node.right_window_size >= 0:
                allowed.append(b.op(LessEqual, [b.op(Sub, [keys, position], 'ahead'),
                                                b.const(node.right_window_size, 'right_window', I64)], 'right_ok'))
            frontier = allowed[0]
            for index, more in enumerate(allowed[1:]):
                frontier = b.op(LogicalAnd, [frontier, more], 'allowed_{}'.format(index))
            frontier = b.op(Select, [frontier, zero, minus_inf], 'frontier')
            if nonpad is not None and not past:
                frontier = b.op(Unsqueeze, [frontier, b.const([1], 'frontier_heads', I64)], 'frontier_per_batch')
            parts.append(frontier)
        if nonpad is not None:
            valid = b.op(Less, [keys, b.op(Unsqueeze, [nonpad, b.const([1], 'nonpad_column', I64)], 'nonpad_2d')],
                         'valid_keys')
            valid = b.op(Unsqueeze, [valid, b.const([1, 2], 'valid_axes', I64)], 'valid_keys_4d')
            parts.append(b.op(Select, [valid, zero, minus_inf], 'padding_bias'))
        if not parts:
            return None
        bias = parts[0]
        for index, part in enumerate(parts[1:]):
            bias = b.op(Add, [bias, part], 'bias_{}'.format(index))
        return bias


def _mask_bias(b, node: Node, q, kv_len):
    """attn_mask as an additive bias (boolean: 0 where true, -inf where false), padded with -inf along its last axis
    up to the keys' length (a mask of the new keys only, with a cache)."""
    # boolean or float: the mask's type, known once types are inferred, decides (ONNX nodes state no types)
    mask = b.op(ONNXAttentionMaskBias, [node.in_port(3), q], 'mask_bias', attention=b.name)
    mask_rank = rank(b, mask, 'mask_rank')
    missing = b.op(Sub, [kv_len, b.dim_of(mask, -1, 'mask_length')], 'mask_missing')
    leading = b.op(Sub, [mask_rank, b.const(1, 'one_axis', I64)], 'mask_leading')
    zeros = b.op(Broadcast, [b.const(0, 'pad_zero', I64), b.op(Unsqueeze, [leading, b.const([0], 'lead_axis', I64)],
                                                               'leading_1d')], 'leading_zeros')
    pads_end = b.concat([zeros, b.op(Unsqueeze, [missing, b.const([0], 'missing_axis', I64)], 'missing_1d')],
                      'mask_pads_end')
    pads_begin = b.op(Broadcast, [b.const(0, 'pad_zero_begin', I64),
                                  b.op(Unsqueeze, [mask_rank, b.const([0], 'rank_axis', I64)], 'rank_1d')],
                      'mask_pads_begin')
    return b.op(Pad, [mask, pads_begin, pads_end, like(b, -np.inf, q, 'mask_pad_value')], 'mask_padded',
                pad_mode='constant')


class ONNXRotaryEmbeddingLowering(OpRule):
    """RotaryEmbedding: with X as [B, S, H, D] (4-D [B, H, S, D] transposed, 3-D [B, S, H * D] split) and cos, sin
    the caches (gathered at position_ids) as [B, S, 1, R / 2], the first R features, as halves (x1, x2) or as
    interleaved pairs, become (cos x1 - sin x2, sin x1 + cos x2); the rest pass through."""
    op = 'ONNXRotaryEmbedding'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        declared = _declared_rank(node, 0)
        three_d = node.num_heads > 0 and declared == 3
        # num_heads and an input of a rank the front phase does not know: as [B, H, S, D] once inference has told
        # 3-D from 4-D (num_heads applies to 3-D inputs only), and back
        deferred = node.num_heads > 0 and declared is None
        if three_d:
            x = b.op(Reshape, [x, b.const([0, 0, node.num_heads, -1], 'split_shape', I64)], 'split_heads',
                     special_zero=True)
        else:
            if deferred:
                x = b.op(ONNXAttentionHeads, [x], 'heads', heads=node.num_heads, attention=b.name)
            x = b.op(Transpose, [x, b.const([0, 2, 1, 3], 'to_bshd', I64)], 'bshd')
        cos, sin = node.in_port(1), node.in_port(2)
        if node.is_in_port_connected(3):
            axis = b.const(0, 'cache_axis', I64)
            cos = b.op(Gather, [cos, node.in_port(3), axis], 'cos_at')
            sin = b.op(Gather, [sin, node.in_port(3), axis], 'sin_at')
        result = rotate_heads(b, x, cos, sin, node.rotary_dim, node.interleaved)
        if three_d:
            return b.op(Reshape, [result, b.op(ShapeOf, [node.in_port(0)], 'input_shape')], 'merge_heads')
        result = b.op(Transpose, [result, b.const([0, 2, 1, 3], 'to_bhsd', I64)], 'bhsd')
        if deferred:
            result = b.op(ONNXAttentionMergeHeads, [result, node.in_port(0)], 'merge_heads')
        return result


def rotate_heads(b, x, cos, sin, rotary_dim: int, interleaved: bool, tag: str = ''):
    """x as [B, S, H, D], cos and sin as [B or 1, S, R / 2]: the first R = rotary_dim features of each head (all for
    0), as halves (x1, x2) or as interleaved pairs, become (cos x1 - sin x2, sin x1 + cos x2); the rest pass through.
    ``tag`` prefixes the new nodes' names (one builder rotating several tensors)."""
    cos = b.op(Unsqueeze, [cos, b.const([2], tag + 'cos_heads', I64)], tag + 'cos')
    sin = b.op(Unsqueeze, [sin, b.const([2], tag + 'sin_heads', I64)], tag + 'sin')
    rotated, passed = x, None
    if rotary_dim:
        rotated = _features(b, x, 0, rotary_dim, 1, tag + 'rotated_part')
        passed = _features(b, x, rotary_dim, np.iinfo(np.int64).max, 1, tag + 'passed_part')
    if interleaved:
        x1 = _features(b, rotated, 0, np.iinfo(np.int64).max, 2, tag + 'even')
        x2 = _features(b, rotated, 1, np.iinfo(np.int64).max, 2, tag + 'odd')
    else:
        halves = b.op(Split, [rotated, b.const(-1, tag + 'half_axis', I64)], tag + 'halves', num_splits=2)
        x1, x2 = halves.out_port(0), halves.out_port(1)
    real = b.op(Sub, [b.op(Mul, [cos, x1], tag + 'cos_x1'), b.op(Mul, [sin, x2], tag + 'sin_x2')], tag + 'real')
    imag = b.op(Add, [b.op(Mul, [sin, x1], tag + 'sin_x1'), b.op(Mul, [cos, x2], tag + 'cos_x2')], tag + 'imag')
    if interleaved:
        last = b.const([-1], tag + 'pair_axis', I64)
        pairs = b.op(Concat, [b.op(Unsqueeze, [real, last], tag + 'real_pair'),
                              b.op(Unsqueeze, [imag, last], tag + 'imag_pair')], tag + 'pairs', axis=-1)
        result = b.op(Reshape, [pairs, b.op(ShapeOf, [rotated], tag + 'rotated_shape')], tag + 'rotated')
    else:
        result = b.op(Concat, [real, imag], tag + 'rotated', axis=-1)
    if passed is not None:
        result = b.op(Concat, [result, passed], tag + 'joined', axis=-1)
    return result


def _features(b, x, begin, end, step, tag: str):
    """``x[..., begin:end:step]``."""
    return b.op(Slice, [x, b.const([begin], tag + '/begin', I64), b.const([end], tag + '/end', I64),
                        b.const([step], tag + '/step', I64), b.const([-1], tag + '/axis', I64)], tag)
