"""Extractor for ONNX's LinearAttention (opset 27): the internal op ``ONNXLinearAttention`` for
``linear_attention_lowering.py``."""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error

#: the recurrences LinearAttention knows: (uses decay, uses beta)
UPDATE_RULES = {'linear': (False, False), 'gated': (True, False), 'delta': (False, True),
                'gated_delta': (True, True)}


class LinearAttentionExtractor(FrontExtractorOp):
    """LinearAttention(query, key, value, past_state, decay, beta) -> a TensorIterator over the sequence whose
    body updates the state [B, H_kv, d_k, d_v] by the update_rule (linear, gated, delta, gated_delta) and reads
    it with each query head's group; output and present_state. chunk_size is a tuning hint and is ignored, as are
    decay and beta given to a rule that does not use them (ONNX's reference refuses those)."""
    op = 'LinearAttention'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'TensorIterator (state update and read per step)'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        rule = onnx_attr(node, 'update_rule', 's', b'gated_delta')
        rule = rule.decode() if isinstance(rule, bytes) else str(rule)
        if rule not in UPDATE_RULES:
            raise Error('LinearAttention "{}": update_rule "{}" is not one of {}', name, rule,
                        ', '.join(sorted(UPDATE_RULES)))
        q_heads = onnx_attr(node, 'q_num_heads', 'i', None)
        kv_heads = onnx_attr(node, 'kv_num_heads', 'i', None)
        if q_heads is None or kv_heads is None:
            raise Error('LinearAttention "{}": q_num_heads and kv_num_heads are required', name)
        if kv_heads <= 0 or q_heads <= 0 or q_heads % kv_heads:
            raise Error('LinearAttention "{}": q_num_heads {} must be a positive multiple of kv_num_heads {}',
                        name, q_heads, kv_heads)
        node.attrs().update({'update_rule': rule, 'q_num_heads': int(q_heads), 'kv_num_heads': int(kv_heads),
                             'scale': float(onnx_attr(node, 'scale', 'f', 0.0))})
        node['op'] = 'ONNXLinearAttention'
        return True
