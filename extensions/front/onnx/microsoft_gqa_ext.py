"""com.microsoft GroupQueryAttention (onnxruntime GenAI's builder) as the internal op ``ONNXMSGroupQueryAttention``,
lowered in the middle phase (``extensions.middle.onnx.group_query_attention``), where the head size is known from the
query's shape (a packed QKV query tells it only by its width)."""
from extensions.front.onnx.microsoft_attention_ext import _flag, _name, _part, _same_type_infer
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.ops.op import Op
from mo.utils.error import Error

OP = 'GroupQueryAttention'
#: input ports
QUERY, KEY, VALUE, PAST_KEY, PAST_VALUE, SEQLENS_K, TOTAL_LENGTH, COS, SIN, POSITION_IDS, ATTENTION_BIAS, HEAD_SINK, \
    K_SCALE, V_SCALE, Q_NORM, K_NORM, QUERY_SEQLENS = range(17)
#: inputs mo does not convert, with why: onnxruntime's quantized KV cache, CUDA/WebGPU-only per-head norms, chunked
#: prefill of right-padded queries
UNSUPPORTED_INPUTS = {K_SCALE: 'k_scale (a quantized KV cache)', V_SCALE: 'v_scale (a quantized KV cache)',
                      Q_NORM: 'q_norm_weight', K_NORM: 'k_norm_weight', QUERY_SEQLENS: 'query_seqlens'}


class ONNXMSGroupQueryAttention(Op):
    """GroupQueryAttention(query, key, value, past_key, past_value, seqlens_k, total_sequence_length, cos_cache,
    sin_cache, position_ids, attention_bias, head_sink, ...) -> output [B, S, num_heads * H], present_key and
    present_value [B, kv_num_heads, max(past buffer, total_sequence_length), H], output_qk [B, num_heads, S,
    total_sequence_length]."""
    op = 'ONNXMSGroupQueryAttention'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'op': self.op, 'infer': ONNXMSGroupQueryAttention.infer, 'type_infer': _same_type_infer,
            'in_ports_count': 17, 'out_ports_count': 4,
        }, attrs)

    @staticmethod
    def infer(node):
        query = node.in_port(QUERY).data.get_shape()
        if query is None:
            return
        batch, length, width = (int(d) for d in query)
        packed = not node.is_in_port_connected(KEY)
        head = _part(width, node.num_heads + 2 * node.kv_num_heads if packed else node.num_heads)
        total = node.in_port(TOTAL_LENGTH).data.get_value()
        total = int(total.item()) if total is not None else -1
        present = length if total < 0 and not node.is_in_port_connected(PAST_KEY) else total
        if node.is_in_port_connected(PAST_KEY):
            past = node.in_port(PAST_KEY).data.get_shape()
            buffer = int(past[2]) if past is not None else -1
            present = max(buffer, total) if buffer >= 0 and total >= 0 else -1
        outputs = {0: [batch, length, width if not packed else _product(head, node.num_heads)],
                   1: [batch, node.kv_num_heads, present, head], 2: [batch, node.kv_num_heads, present, head],
                   3: [batch, node.num_heads, length, total]}
        for port, shape in outputs.items():
            if port in node.out_ports() and not node.out_port(port).disconnected():
                node.out_port(port).data.set_shape(shape)


def _product(a: int, b: int) -> int:
    return a * b if a >= 0 and b >= 0 else -1


class GroupQueryAttentionExtractor(FrontExtractorOp):
    """com.microsoft GroupQueryAttention -> ONNXMSGroupQueryAttention: num_heads, kv_num_heads (dividing num_heads),
    scale (0: 1 / sqrt(head size)), softcap, local_window_size, do_rotary, rotary_interleaved, smooth_softmax,
    causal, qk_output (output_qk: 1 the scores before the Softmax, 2 the probabilities). A quantized KV cache,
    per-head Q/K norms, a window-sized cache and query_seqlens are refused."""
    op = OP
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'MatMul, SoftMax, MatMul with the KV cache written by Gather (+ rotary, window, softcap)'

    @classmethod
    def extract(cls, node):
        name = _name(node)
        heads = int(onnx_attr(node, 'num_heads', 'i', 0))
        kv_heads = int(onnx_attr(node, 'kv_num_heads', 'i', 0))
        if heads < 1 or kv_heads < 1 or heads % kv_heads:
            raise Error('{} "{}": num_heads {} and kv_num_heads {} must be positive, kv_num_heads dividing num_heads',
                        OP, name, heads, kv_heads)
        window = int(onnx_attr(node, 'local_window_size', 'i', -1))
        causal = _flag(node, OP, 'causal') if onnx_attr(node, 'causal', 'i', None) is not None else True
        if window < -1 or (window >= 0 and not causal):
            raise Error('{} "{}": local_window_size {} must be -1, or non-negative with causal attention', OP, name,
                        window)
        softcap = float(onnx_attr(node, 'softcap', 'f', 0.0))
        if softcap < 0:
            raise Error('{} "{}": softcap {} must not be negative', OP, name, softcap)
        if onnx_attr(node, 'sliding_window_cache', 'i', 0):
            raise Error('{} "{}": sliding_window_cache = 1 (a window-sized cache) is not supported', OP, name)
        qk_output = int(onnx_attr(node, 'qk_output', 'i', 0))
        if qk_output not in (0, 1, 2):
            raise Error('{} "{}": qk_output must be 0, 1 or 2, not {}', OP, name, qk_output)
        for attr in ('k_quant_type', 'v_quant_type'):
            value = onnx_attr(node, attr, 's', b'NONE')
            value = value.decode() if isinstance(value, bytes) else value
            if value != 'NONE':
                raise Error('{} "{}": {} "{}" (a quantized KV cache) is not supported', OP, name, attr, value)
        ONNXMSGroupQueryAttention.update_node_stat(node, {
            'num_heads': heads, 'kv_num_heads': kv_heads, 'scale': float(onnx_attr(node, 'scale', 'f', 0.0)),
            'softcap': softcap, 'local_window_size': window, 'causal': causal,
            'do_rotary': _flag(node, OP, 'do_rotary'), 'rotary_interleaved': _flag(node, OP, 'rotary_interleaved'),
            'smooth_softmax': _flag(node, OP, 'smooth_softmax'), 'qk_output': qk_output})
        return True
