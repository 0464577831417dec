"""A small Qwen2-style decoder with past key-values, built with onnx.helper in the form optimum exports it (random
weights, seeded): inputs ``input_ids``, ``attention_mask``, ``position_ids`` and ``past_key_values.N.key/value``
[batch, kv_heads, past, head]; outputs ``logits`` and ``present.N.key/value`` [batch, kv_heads, past + seq, head].

Per layer: RMSNorm, Q/K/V projections with biases, rotary embedding (rotate-half), the past concatenated on the
sequence axis, grouped-query attention with a causal and padding mask, output projection, SwiGLU MLP; then a final
RMSNorm and the LM head. ``greedy_onnxruntime`` generates with onnxruntime, feeding present back as past.
"""
from dataclasses import dataclass

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

I64 = np.int64


@dataclass(frozen=True)
class DecoderConfig:
    vocab: int = 64
    hidden: int = 32
    layers: int = 2
    heads: int = 4
    kv_heads: int = 2
    intermediate: int = 48
    max_positions: int = 128
    eps: float = 1e-6
    seed: int = 0

    @property
    def head(self) -> int:
        return self.hidden // self.heads


def past_names(layers: int, past: str = 'past_key_values.{}.{}', present: str = 'present.{}.{}'):
    """``[(past input, present output)]`` for each layer's key and value."""
    return [(past.format(i, kind), present.format(i, kind)) for i in range(layers) for kind in ('key', 'value')]


class _Graph:
    def __init__(self):
        self.nodes, self.inits = [], []
        self._count = 0

    def const(self, value, name=None):
        self._count += 1
        name = name or 'c{}'.format(self._count)
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, op_type, inputs, out=None, **attrs):
        self._count += 1
        out = out or '{}_{}'.format(op_type.lower(), self._count)
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out


def _rms_norm(g: _Graph, x, weight, eps):
    squared = g.op('Mul', [x, x])
    mean = g.op('ReduceMean', [squared], axes=[-1], keepdims=1)
    root = g.op('Sqrt', [g.op('Add', [mean, g.const(np.float32(eps))])])
    return g.op('Mul', [g.op('Div', [x, root]), weight])


def _rotate(g: _Graph, x, cos, sin, head):
    """x * cos + rotate_half(x) * sin, x [B, heads, S, head]."""
    half = head // 2
    first = g.op('Slice', [x, g.const(np.array([0], I64)), g.const(np.array([half], I64)), g.const(np.array([3], I64))])
    second = g.op('Slice', [x, g.const(np.array([half], I64)), g.const(np.array([head], I64)),
                            g.const(np.array([3], I64))])
    rotated = g.op('Concat', [g.op('Neg', [second]), first], axis=3)
    return g.op('Add', [g.op('Mul', [x, cos]), g.op('Mul', [rotated, sin])])


def build_decoder(cfg: DecoderConfig = DecoderConfig(), past: str = 'past_key_values.{}.{}',
                  present: str = 'present.{}.{}'):
    """The decoder's ModelProto (opset 17)."""
    rng = np.random.default_rng(cfg.seed)
    g = _Graph()

    def weight(*shape, scale=None):
        scale = scale if scale is not None else 1.0 / np.sqrt(shape[0])
        return g.const((rng.standard_normal(shape) * scale).astype(np.float32))

    head, heads, kv_heads = cfg.head, cfg.heads, cfg.kv_heads
    # rotary tables [max_positions, head] gathered by position_ids, then [B, 1, S, head]
    inv_freq = 1.0 / (10000 ** (np.arange(0, head, 2, dtype=np.float64) / head))
    angles = np.outer(np.arange(cfg.max_positions), inv_freq)
    angles = np.concatenate([angles, angles], axis=1)
    axis1 = g.const(np.array([1], I64))
    cos = g.op('Unsqueeze', [g.op('Gather', [g.const(np.cos(angles).astype(np.float32)), 'position_ids']), axis1])
    sin = g.op('Unsqueeze', [g.op('Gather', [g.const(np.sin(angles).astype(np.float32)), 'position_ids']), axis1])
    # mask [B, 1, S, T]: key position <= query position (queries are the last S of T) and not padding
    total = g.op('Gather', [g.op('Shape', ['attention_mask']), g.const(I64(1))])
    seq = g.op('Gather', [g.op('Shape', ['input_ids']), g.const(I64(1))])
    query_pos = g.op('Range', [g.op('Sub', [total, seq]), total, g.const(I64(1))])
    key_pos = g.op('Range', [g.const(I64(0)), total, g.const(I64(1))])
    causal = g.op('LessOrEqual', [g.op('Unsqueeze', [key_pos, g.const(np.array([0], I64))]),
                                  g.op('Unsqueeze', [query_pos, axis1])])
    padding = g.op('Unsqueeze', [g.op('Cast', ['attention_mask'], to=T.BOOL), g.const(np.array([1, 2], I64))])
    allowed = g.op('And', [causal, padding])
    mask = g.op('Where', [allowed, g.const(np.float32(0)), g.const(np.float32(-1e9))])

    hidden = g.op('Gather', [weight(cfg.vocab, cfg.hidden, scale=1.0), 'input_ids'])
    scale = g.const(np.float32(1.0 / np.sqrt(head)))
    names = past_names(cfg.layers, past, present)
    for layer in range(cfg.layers):
        x = _rms_norm(g, hidden, g.const((1 + 0.1 * rng.standard_normal(cfg.hidden)).astype(np.float32)), cfg.eps)

        def projection(width, count):
            y = g.op('Add', [g.op('MatMul', [x, weight(cfg.hidden, width)]),
                             g.const((0.1 * rng.standard_normal(width)).astype(np.float32))])
            y = g.op('Reshape', [y, g.const(np.array([0, 0, count, head], I64))])
            return g.op('Transpose', [y], perm=[0, 2, 1, 3])
        q = _rotate(g, projection(heads * head, heads), cos, sin, head)
        k = _rotate(g, projection(kv_heads * head, kv_heads), cos, sin, head)
        v = projection(kv_heads * head, kv_heads)
        (past_k, present_k), (past_v, present_v) = names[2 * layer], names[2 * layer + 1]
        k = g.op('Concat', [past_k, k], present_k, axis=2)
        v = g.op('Concat', [past_v, v], present_v, axis=2)
        repeat = g.const(np.array([1, 1, heads // kv_heads, 1, 1], I64))
        by_head = g.const(np.array([0, heads, -1, head], I64))
        axis2 = g.const(np.array([2], I64))
        k = g.op('Reshape', [g.op('Expand', [g.op('Unsqueeze', [k, axis2]), repeat]), by_head])
        v = g.op('Reshape', [g.op('Expand', [g.op('Unsqueeze', [v, axis2]), repeat]), by_head])
        scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, g.op('Transpose', [k], perm=[0, 1, 3, 2])]), scale]),
                              mask])
        context = g.op('MatMul', [g.op('Softmax', [scores], axis=-1), v])
        context = g.op('Reshape', [g.op('Transpose', [context], perm=[0, 2, 1, 3]),
                                   g.const(np.array([0, 0, heads * head], I64))])
        hidden = g.op('Add', [hidden, g.op('MatMul', [context, weight(heads * head, cfg.hidden)])])
        x = _rms_norm(g, hidden, g.const((1 + 0.1 * rng.standard_normal(cfg.hidden)).astype(np.float32)), cfg.eps)
        gate = g.op('MatMul', [x, weight(cfg.hidden, cfg.intermediate)])
        up = g.op('MatMul', [x, weight(cfg.hidden, cfg.intermediate)])
        swiglu = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), up])
        hidden = g.op('Add', [hidden, g.op('MatMul', [swiglu, weight(cfg.intermediate, cfg.hidden)])])
    x = _rms_norm(g, hidden, g.const(np.ones(cfg.hidden, np.float32)), cfg.eps)
    g.op('MatMul', [x, weight(cfg.hidden, cfg.vocab)], 'logits')

    kv_shape = ['batch', kv_heads, 'past_sequence', head]
    total_shape = ['batch', kv_heads, 'total_sequence', head]
    inputs = [helper.make_tensor_value_info('input_ids', T.INT64, ['batch', 'sequence']),
              helper.make_tensor_value_info('attention_mask', T.INT64, ['batch', 'total_sequence']),
              helper.make_tensor_value_info('position_ids', T.INT64, ['batch', 'sequence'])]
    inputs += [helper.make_tensor_value_info(p, T.FLOAT, kv_shape) for p, _ in names]
    outputs = [helper.make_tensor_value_info('logits', T.FLOAT, ['batch', 'sequence', cfg.vocab])]
    outputs += [helper.make_tensor_value_info(o, T.FLOAT, total_shape) for _, o in names]
    graph = helper.make_graph(g.nodes, 'decoder', inputs, outputs, initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])
    model.ir_version = 8
    return model


def quantized_4bit(model, block_size: int = 16):
    """The decoder with its MatMul weights as com.microsoft MatMulNBits (4 bits, ``block_size``), as onnxruntime's
    MatMulNBitsQuantizer writes it."""
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer
    quantizer = MatMulNBitsQuantizer(model, block_size=block_size, is_symmetric=False)
    quantizer.process()
    return quantizer.model.model


def greedy_onnxruntime(model, prompt: np.ndarray, steps: int, past: str = 'past_key_values.{}.{}',
                       present: str = 'present.{}.{}') -> np.ndarray:
    """``steps`` tokens after ``prompt`` [batch, length], greedily, with onnxruntime: present fed back as past."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=['CPUExecutionProvider'])
    kv = {i.name: i for i in session.get_inputs() if i.name not in ('input_ids', 'attention_mask', 'position_ids')}
    layers = len(kv) // 2
    batch = prompt.shape[0]
    cache = {name: np.zeros((batch, info.shape[1], 0, info.shape[3]), np.float32) for name, info in kv.items()}
    pairs = past_names(layers, past, present)
    ids, done, generated = prompt, 0, []
    for _ in range(steps):
        length = ids.shape[1]
        feeds = {'input_ids': ids, 'attention_mask': np.ones((batch, done + length), I64),
                 'position_ids': np.arange(done, done + length, dtype=I64)[None].repeat(batch, 0)}
        feeds.update(cache)
        outputs = dict(zip([o.name for o in session.get_outputs()], session.run(None, feeds)))
        cache = {p: outputs[o] for p, o in pairs}
        ids = outputs['logits'][:, -1].argmax(-1).astype(I64)[:, None]
        generated.append(ids[:, 0])
        done += length
    return np.stack(generated, axis=1)
