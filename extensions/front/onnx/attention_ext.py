"""Extractor for ONNX's Attention (opsets 23, 24, 25): the internal op ``ONNXAttention`` for
``attention_lowering.py``. onnxruntime's com.microsoft ops of the same names go to ``microsoft_attention_ext``."""
from extensions.front.onnx import microsoft_attention_ext as microsoft
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error


class AttentionExtractor(FrontExtractorOp):
    """Attention(Q, K, V, attn_mask, past_key, past_value, nonpad_kv_seqlen) -> MatMul, Softmax, MatMul with the
    bias of the mask, the offset-aligned causal frontier, the sliding window (opset 25) and the non-padded key lengths
    (opset 24); 3-D inputs split into heads by q_num_heads/kv_num_heads; grouped key/value heads repeated;
    present_key/present_value the concatenated cache; qk_matmul_output as qk_matmul_output_mode says.
    softmax_precision is not followed: the softmax runs in the inputs' type."""
    op = 'Attention'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'MatMul, SoftMax, MatMul (+ mask/causal bias)'

    @classmethod
    def extract(cls, node):
        if node.soft_get('domain') == microsoft.DOMAIN:
            return microsoft.extract_attention(node)
        name = node.soft_get('name', node.id)
        mode = int(onnx_attr(node, 'qk_matmul_output_mode', 'i', 0))
        if mode not in (0, 1, 2, 3):
            raise Error('Attention "{}": qk_matmul_output_mode {} is not 0, 1, 2 or 3', name, mode)
        attrs = {'is_causal': bool(onnx_attr(node, 'is_causal', 'i', 0)), 'qk_matmul_output_mode': mode,
                 'softcap': float(onnx_attr(node, 'softcap', 'f', 0.0)),
                 'scale': onnx_attr(node, 'scale', 'f', None),
                 'q_num_heads': onnx_attr(node, 'q_num_heads', 'i', None),
                 'kv_num_heads': onnx_attr(node, 'kv_num_heads', 'i', None),
                 'left_window_size': int(onnx_attr(node, 'left_window_size', 'i', -1)),
                 'right_window_size': int(onnx_attr(node, 'right_window_size', 'i', -1))}
        if attrs['left_window_size'] < -1 or attrs['right_window_size'] < -1:
            raise Error('Attention "{}": window sizes must be -1 or non-negative', name)
        node.attrs().update(attrs)
        node['op'] = 'ONNXAttention'
        return True


class RotaryEmbeddingExtractor(FrontExtractorOp):
    """RotaryEmbedding(X, cos_cache, sin_cache, position_ids) -> the rotation of the first rotary_embedding_dim
    features of each head by the cached cos/sin (Gather by position_ids), halves or interleaved pairs; 3-D inputs split
    into num_heads heads."""
    op = 'RotaryEmbedding'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'Gather, Multiply, Add, Concat'

    @classmethod
    def extract(cls, node):
        if node.soft_get('domain') == microsoft.DOMAIN:
            return microsoft.extract_rotary_embedding(node)
        dim = int(onnx_attr(node, 'rotary_embedding_dim', 'i', 0))
        heads = int(onnx_attr(node, 'num_heads', 'i', 0))
        if dim < 0 or dim % 2 or heads < 0:
            raise Error('RotaryEmbedding "{}": rotary_embedding_dim {} must be even and num_heads {} non-negative',
                        node.soft_get('name', node.id), dim, heads)
        node.attrs().update({'interleaved': bool(onnx_attr(node, 'interleaved', 'i', 0)), 'rotary_dim': dim,
                             'num_heads': heads})
        node['op'] = 'ONNXRotaryEmbedding'
        return True
