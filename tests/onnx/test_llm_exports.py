"""LLM exports of 2026 built with onnx.helper in the forms their exporters write, converted by mo, run in OpenVINO
and compared with onnxruntime: ``torch.onnx.export(dynamo=True)`` at opsets 23/24 (standard Attention whose mask is
boolean or float by its type wherever it comes from, head counts with inputs of a rank known only at inference,
RMSNormalization, RotaryEmbedding); onnxruntime GenAI's com.microsoft GroupQueryAttention; an If whose branches give
different shapes; a sequence appended to in a Loop and concatenated after it (a Mamba-style scan)."""
import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto as T, helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402

RNG = np.random.default_rng(43)


def _rand(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


# ----- opset 23/24 Attention: the mask's kind is its type --------------------------------------------------------

def _padding_mask_nodes(kind: str):
    """The nodes that make ``mask`` [B, 1, S, S] from the graph input ``attention_mask`` (int64 [B, S]) as the dynamo
    exporter's traces do: Cast to bool, Unsqueeze, Expand (and a causal And of a Trilu); ``float``: then Where(mask,
    0, -inf); ``float_from_initializer``: a Slice of a float initializer added to nothing else."""
    nodes = [helper.make_node('Cast', ['attention_mask'], ['keep'], to=T.BOOL),
             helper.make_node('Unsqueeze', ['keep', 'axes_12'], ['keep_4d']),
             helper.make_node('Shape', ['q'], ['q_shape']),
             helper.make_node('Gather', ['q_shape', 'seq_axis'], ['seq']),
             helper.make_node('Shape', ['attention_mask'], ['mask_shape']),
             helper.make_node('Slice', ['mask_shape', 'zero_1', 'one_1'], ['batch']),
             helper.make_node('Concat', ['batch', 'one_1', 'seq', 'seq'], ['target'], axis=0),
             helper.make_node('Expand', ['keep_4d', 'target'], ['expanded'])]
    if kind in ('bool_causal', 'float'):
        nodes += [helper.make_node('Concat', ['seq', 'seq'], ['square'], axis=0),
                  helper.make_node('ConstantOfShape', ['square'], ['ones'],
                                   value=helper.make_tensor('v', T.BOOL, [1], [True])),
                  helper.make_node('Trilu', ['ones'], ['lower'], upper=0),
                  helper.make_node('And', ['expanded', 'lower'], ['allowed'])]
    else:
        nodes.append(helper.make_node('Identity', ['expanded'], ['allowed']))
    if kind == 'float':
        nodes.append(helper.make_node('Where', ['allowed', 'zero_f', 'minus_inf'], ['mask']))
    else:
        nodes.append(helper.make_node('Identity', ['allowed'], ['mask']))
    return nodes


MASK_CONSTANTS = {'axes_12': np.array([1, 2], np.int64), 'seq_axis': np.array([1], np.int64),
                  'zero_1': np.array([0], np.int64), 'one_1': np.array([1], np.int64),
                  'zero_f': np.array(0.0, np.float32), 'minus_inf': np.array(-np.inf, np.float32)}


@pytest.mark.parametrize('kind', ['bool', 'bool_causal', 'float'])
@pytest.mark.parametrize('dynamic', [False, True])
@pytest.mark.parametrize('heads', [(4, 4), (4, 2)])
def test_attention_mask_computed_by_graph(tmp_path, kind, dynamic, heads):
    # the mask comes out of Identity/Expand/Where: only its inferred type tells boolean from float
    batch, seq, head = 2, 5, 8
    q_heads, kv_heads = heads
    dims = ['batch', 'seq'] if dynamic else [batch, seq]
    inputs = [('q', T.FLOAT, dims + [q_heads * head]), ('k', T.FLOAT, dims + [kv_heads * head]),
              ('v', T.FLOAT, dims + [kv_heads * head]), ('attention_mask', T.INT64, dims)]
    keep = np.ones((batch, seq), np.int64)
    keep[1, :2] = 0  # left padding of the second sequence
    feeds = {'q': _rand(batch, seq, q_heads * head), 'k': _rand(batch, seq, kv_heads * head),
             'v': _rand(batch, seq, kv_heads * head), 'attention_mask': keep}
    node = helper.make_node('Attention', ['q', 'k', 'v', 'mask'], ['y'], q_num_heads=q_heads, kv_num_heads=kv_heads)
    model = make_model(_padding_mask_nodes(kind) + [node], inputs, [('y', T.FLOAT, None)], MASK_CONSTANTS, opset=23)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('source', ['bool_initializer', 'float_initializer', 'bool_input_identity'])
@pytest.mark.parametrize('opset', [23, 24])
def test_attention_mask_of_a_declared_type(tmp_path, source, opset):
    # 4-D inputs, a mask from an initializer (sliced to the query length) or a graph input behind an Identity
    batch, heads, q_len, kv_len, head = 2, 2, 3, 6, 4
    inputs = [('q', T.FLOAT, [batch, heads, q_len, head]), ('k', T.FLOAT, [batch, heads, kv_len, head]),
              ('v', T.FLOAT, [batch, heads, kv_len, head])]
    feeds = {'q': _rand(batch, heads, q_len, head), 'k': _rand(batch, heads, kv_len, head),
             'v': _rand(batch, heads, kv_len, head)}
    initializers = {'start': np.array([0], np.int64), 'end': np.array([q_len], np.int64)}
    if source == 'bool_input_identity':
        inputs.append(('m', T.BOOL, [q_len, kv_len]))
        feeds['m'] = RNG.random((q_len, kv_len)) < 0.7
        nodes = [helper.make_node('Identity', ['m'], ['mask'])]
    else:
        full = RNG.random((8, kv_len)) < 0.7 if source == 'bool_initializer' else _rand(8, kv_len)
        initializers['table'] = full
        nodes = [helper.make_node('Slice', ['table', 'start', 'end'], ['mask'])]
    nodes.append(helper.make_node('Attention', ['q', 'k', 'v', 'mask'], ['y']))
    model = make_model(nodes, inputs, [('y', T.FLOAT, None)], initializers, opset=opset)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('mask', ['bool', 'float'])
@pytest.mark.parametrize('causal', [0, 1])
def test_attention_with_cache_and_computed_mask(tmp_path, mask, causal):
    # a decoder step as the exporter writes it: past key/value concatenated by the op, a [B, 1, S, P + S] mask cast
    # from the int64 attention mask, present key/value out
    batch, heads, kv_heads, seq, past, head = 2, 4, 2, 3, 4, 8
    total = past + seq
    inputs = [('q', T.FLOAT, ['b', heads, 's', head]), ('k', T.FLOAT, ['b', kv_heads, 's', head]),
              ('v', T.FLOAT, ['b', kv_heads, 's', head]), ('past_k', T.FLOAT, ['b', kv_heads, 'p', head]),
              ('past_v', T.FLOAT, ['b', kv_heads, 'p', head]), ('attention_mask', T.INT64, ['b', 'p_s'])]
    keep = np.ones((batch, total), np.int64)
    keep[0, :3] = 0
    feeds = {'q': _rand(batch, heads, seq, head), 'k': _rand(batch, kv_heads, seq, head),
             'v': _rand(batch, kv_heads, seq, head), 'past_k': _rand(batch, kv_heads, past, head),
             'past_v': _rand(batch, kv_heads, past, head), 'attention_mask': keep}
    nodes = [helper.make_node('Cast', ['attention_mask'], ['keep'], to=T.BOOL),
             helper.make_node('Unsqueeze', ['keep', 'axes_12'], ['keep_4d']),
             helper.make_node('Expand', ['keep_4d', 'rows'], ['allowed'])]
    if mask == 'float':
        nodes.append(helper.make_node('Where', ['allowed', 'zero_f', 'minus_inf'], ['mask']))
    else:
        nodes.append(helper.make_node('Identity', ['allowed'], ['mask']))
    nodes.append(helper.make_node('Attention', ['q', 'k', 'v', 'mask', 'past_k', 'past_v'],
                                  ['y', 'present_k', 'present_v'], is_causal=causal))
    constants = dict(MASK_CONSTANTS, rows=np.array([1, 1, seq, 1], np.int64))
    model = make_model(nodes, inputs, [(n, T.FLOAT, None) for n in ('y', 'present_k', 'present_v')], constants,
                       opset=23)
    check_model(model, feeds, tmp_path)


def test_attention_float16_mask_of_float_query(tmp_path):
    # ONNX lets the float mask be of another float type than the query's (onnxruntime does not run it: the
    # reference is the same model with the mask cast to float first)
    import mo
    from tests.onnx.onnx_oracle import assert_close, run_ir, run_onnxruntime
    shape = [1, 2, 3, 4]
    inputs = [('q', T.FLOAT, shape), ('k', T.FLOAT, shape), ('v', T.FLOAT, shape), ('m', T.FLOAT16, [3, 3])]
    feeds = {'q': _rand(*shape), 'k': _rand(*shape), 'v': _rand(*shape), 'm': _rand(3, 3, dtype=np.float16)}
    nodes = [helper.make_node('Identity', ['m'], ['mask']), helper.make_node('Attention', ['q', 'k', 'v', 'mask'],
                                                                             ['y'])]
    model = make_model(nodes, inputs, [('y', T.FLOAT, None)], opset=23)
    reference = make_model([helper.make_node('Cast', ['m'], ['mask'], to=T.FLOAT), nodes[1]], inputs,
                           [('y', T.FLOAT, None)], opset=23)
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    assert_close(run_ir(result.xml_path, feeds, ['y'])[0], run_onnxruntime(reference, feeds)[0], 1e-4, 1e-5)


@pytest.mark.parametrize('rank', [3, 4])
@pytest.mark.parametrize('mask', [None, 'bool', 'float'])
@pytest.mark.parametrize('past', [False, True])
def test_attention_head_counts_of_inputs_of_unknown_rank(tmp_path, rank, mask, past):
    # Q, K, V come out of a Transpose (4-D) or an Identity (3-D) with q_num_heads/kv_num_heads given, which apply to
    # 3-D inputs only: whether to split the heads waits for the inferred rank
    batch, seq, heads, kv_heads, head, past_len = 2, 3, 4, 2, 8, 2
    shapes = {'q': [batch, seq, heads, head], 'k': [batch, seq, kv_heads, head], 'v': [batch, seq, kv_heads, head]}
    if rank == 3:
        shapes = {n: s[:2] + [s[2] * s[3]] for n, s in shapes.items()}
    inputs = [(n, T.FLOAT, ['b', 's'] + s[2:]) for n, s in shapes.items()]
    feeds = {n: _rand(*s) for n, s in shapes.items()}
    if rank == 4:
        nodes = [helper.make_node('Transpose', [n], [n + '_in'], perm=[0, 2, 1, 3]) for n in 'qkv']
    else:
        nodes = [helper.make_node('Identity', [n], [n + '_in']) for n in 'qkv']
    names = ['q_in', 'k_in', 'v_in', '', '', '']
    total = seq + past_len if past else seq
    if mask:
        inputs.append(('m', T.BOOL if mask == 'bool' else T.FLOAT, [seq, total]))
        feeds['m'] = RNG.random((seq, total)) < 0.7 if mask == 'bool' else _rand(seq, total)
        names[3] = 'm'
    if past:
        for name in ('past_k', 'past_v'):
            inputs.append((name, T.FLOAT, ['b', kv_heads, 'p', head]))
            feeds[name] = _rand(batch, kv_heads, past_len, head)
        names[4:6] = ['past_k', 'past_v']
    outputs = ['y'] + (['present_k', 'present_v'] if past else [])
    nodes.append(helper.make_node('Attention', names, outputs, q_num_heads=heads, kv_num_heads=kv_heads))
    model = make_model(nodes, inputs, [(n, T.FLOAT, None) for n in outputs], opset=23)
    check_model(model, feeds, tmp_path)


# ----- RMSNormalization and RotaryEmbedding (opset 23) as the dynamo exporter writes them --------------------------

@pytest.mark.parametrize('attrs', [{}, {'epsilon': 1e-2}, {'axis': -2}, {'axis': 1, 'stash_type': 1}])
@pytest.mark.parametrize('dynamic', [False, True])
def test_rms_normalization(tmp_path, attrs, dynamic):
    shape = [2, 3, 8]
    axis = attrs.get('axis', -1)
    scale_shape = shape[axis:]
    inputs = [('x', T.FLOAT, ['b', 's', 8] if dynamic else shape)]
    node = helper.make_node('RMSNormalization', ['x', 'scale'], ['y'], **attrs)
    model = make_model([node], inputs, [('y', T.FLOAT, None)], {'scale': _rand(*scale_shape)}, opset=23)
    check_model(model, {'x': _rand(*shape)}, tmp_path)


@pytest.mark.parametrize('interleaved', [0, 1])
@pytest.mark.parametrize('rotary_dim', [0, 4])
def test_rotary_embedding_of_a_decoder_layer(tmp_path, interleaved, rotary_dim):
    # the exporter's layer: 4-D heads rotated with caches gathered by position ids, then Attention with GQA
    batch, seq, heads, kv_heads, head = 2, 4, 4, 2, 8
    half = (rotary_dim or head) // 2
    inputs = [('q', T.FLOAT, ['b', heads, 's', head]), ('k', T.FLOAT, ['b', kv_heads, 's', head]),
              ('v', T.FLOAT, ['b', kv_heads, 's', head]), ('pos', T.INT64, ['b', 's'])]
    feeds = {'q': _rand(batch, heads, seq, head), 'k': _rand(batch, kv_heads, seq, head),
             'v': _rand(batch, kv_heads, seq, head), 'pos': RNG.integers(0, 16, (batch, seq)).astype(np.int64)}
    angles = np.arange(16)[:, None] * (0.5 ** np.arange(half))[None, :]
    caches = {'cos': np.cos(angles).astype(np.float32), 'sin': np.sin(angles).astype(np.float32)}
    attrs = {'interleaved': interleaved, 'rotary_embedding_dim': rotary_dim}
    nodes = [helper.make_node('RotaryEmbedding', ['q', 'cos', 'sin', 'pos'], ['q_rot'], **attrs),
             helper.make_node('RotaryEmbedding', ['k', 'cos', 'sin', 'pos'], ['k_rot'], **attrs),
             helper.make_node('Attention', ['q_rot', 'k_rot', 'v'], ['y'], is_causal=1)]
    model = make_model(nodes, inputs, [('y', T.FLOAT, None)], caches, opset=23)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('rank', [3, 4])
@pytest.mark.parametrize('interleaved', [0, 1])
@pytest.mark.parametrize('rotary_dim', [0, 4])
def test_rotary_embedding_num_heads_of_input_of_unknown_rank(tmp_path, rank, interleaved, rotary_dim):
    # num_heads given, the input out of a Transpose (4-D [B, H, S, D]) or an Identity (3-D): its layout waits for
    # the inferred rank
    batch, seq, heads, head = 2, 3, 4, 8
    shape = [batch, seq, heads, head] if rank == 4 else [batch, seq, heads * head]
    half = (rotary_dim or head) // 2
    producer = helper.make_node('Transpose', ['x'], ['x_in'], perm=[0, 2, 1, 3]) if rank == 4 else \
        helper.make_node('Identity', ['x'], ['x_in'])
    node = helper.make_node('RotaryEmbedding', ['x_in', 'cos', 'sin', 'pos'], ['y'], num_heads=heads,
                            interleaved=interleaved, rotary_embedding_dim=rotary_dim)
    model = make_model([producer, node], [('x', T.FLOAT, ['b', 's'] + shape[2:]), ('pos', T.INT64, ['b', 's'])],
                       [('y', T.FLOAT, None)], {'cos': _rand(12, half), 'sin': _rand(12, half)}, opset=23)
    check_model(model, {'x': _rand(*shape), 'pos': RNG.integers(0, 12, (batch, seq)).astype(np.int64)}, tmp_path)


# ----- com.microsoft GroupQueryAttention (onnxruntime GenAI's builder) ------------------------------------------------

MS = 'com.microsoft'


def _gqa_case(step: str, batch=2, heads=4, kv_heads=2, head=16, packed=False, rotary=None, position_ids=False,
              bias=False, sink=False, dtype=np.float32, dynamic=True, **attrs):
    """A GroupQueryAttention model and its feeds. ``step``: 'prompt' (no past, S = total), 'padded_prompt' (entry 1
    shorter, right-padded), 'decode' (one token after a past of separate tensors), 'shared' (one token into a shared
    max-length buffer, entries of different lengths), 'chunk' (3 tokens after a past, batch 1). ``rotary``: None,
    'full' or 'partial' (cos/sin of a quarter of the head). Returns the model, the feeds and, per entry, how many
    present rows onnxruntime defines."""
    onnx_type = T.FLOAT if dtype == np.float32 else T.FLOAT16
    seq = {'prompt': 5, 'padded_prompt': 5, 'decode': 1, 'shared': 1, 'chunk': 3}[step]
    batch = 1 if step == 'chunk' else batch
    totals = {'prompt': [seq] * batch, 'padded_prompt': [seq, seq - 2][:batch], 'decode': [7] * batch,
              'shared': [6, 3][:batch], 'chunk': [9]}[step]
    buffer = {'prompt': 0, 'padded_prompt': 0, 'decode': 6, 'shared': 10, 'chunk': 6}[step]
    total_length = max(totals)
    inputs, feeds, initializers = [], {}, {}

    def add(name, shape, value, elem=onnx_type, dims=None):
        inputs.append((name, elem, dims if dims is not None and dynamic else shape))
        feeds[name] = value
    width = (heads + 2 * kv_heads) * head if packed else heads * head
    add('query', [batch, seq, width], _rand(batch, seq, width, dtype=dtype), dims=['b', 's', width])
    names = ['query', '', '']
    if not packed:
        add('key', [batch, seq, kv_heads * head], _rand(batch, seq, kv_heads * head, dtype=dtype),
            dims=['b', 's', kv_heads * head])
        add('value', [batch, seq, kv_heads * head], _rand(batch, seq, kv_heads * head, dtype=dtype),
            dims=['b', 's', kv_heads * head])
        names[1:3] = ['key', 'value']
    names += ['', '']
    if buffer:
        for name in ('past_key', 'past_value'):
            add(name, [batch, kv_heads, buffer, head], _rand(batch, kv_heads, buffer, head, dtype=dtype),
                dims=['b', kv_heads, 'p', head])
        names[3:5] = ['past_key', 'past_value']
    add('seqlens_k', [batch], np.array(totals, np.int32) - 1, T.INT32, dims=['b'])
    add('total_sequence_length', [], np.array(total_length, np.int32), T.INT32, dims=[])
    names += ['seqlens_k', 'total_sequence_length']
    if rotary:
        half = head // 2 if rotary == 'full' else head // 4
        angles = np.arange(32)[:, None] * (0.6 ** np.arange(half))[None, :]
        initializers.update({'cos': np.cos(angles).astype(dtype), 'sin': np.sin(angles).astype(dtype)})
        names += ['cos', 'sin']
        attrs['do_rotary'] = 1
    if position_ids:
        past = [t - seq for t in totals] if step not in ('prompt', 'padded_prompt') else [0] * batch
        add('position_ids', [batch, seq], np.array([[p + i for i in range(seq)] for p in past], np.int64), T.INT64,
            dims=['b', 's'])
        names += ['' for _ in range(9 - len(names))] + ['position_ids']
    if bias:
        names += ['' for _ in range(10 - len(names))] + ['attention_bias']
        add('attention_bias', [1, heads, seq, total_length], _rand(1, heads, seq, total_length, dtype=dtype),
            dims=[1, heads, 's', 't'])
    if sink:
        names += ['' for _ in range(11 - len(names))] + ['head_sink']
        initializers['head_sink'] = _rand(heads, dtype=dtype)
    outputs = ['y', 'present_key', 'present_value'] + (['qk'] if attrs.get('qk_output') else [])
    node = helper.make_node('GroupQueryAttention', names, outputs, domain=MS, num_heads=heads, kv_num_heads=kv_heads,
                            **attrs)
    model = make_model([node], inputs, [(n, onnx_type, None) for n in outputs], initializers, opset=21,
                       domains={MS: 1})
    return model, feeds, totals, seq


def _check_gqa(tmp_path, model, feeds, totals, seq, rtol=1e-4, atol=1e-5):
    """Output rows of real tokens (a padded prompt's padding rows are unspecified) and the present rows onnxruntime
    defines (each entry's first total rows) against onnxruntime."""
    import mo
    from tests.onnx.onnx_oracle import assert_close, run_ir, run_onnxruntime
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    actual, expected = run_ir(result.xml_path, feeds, names), run_onnxruntime(model, feeds)
    assert actual[1].shape == expected[1].shape, (actual[1].shape, expected[1].shape)
    for b, total in enumerate(totals):
        rows = min(seq, total)
        assert_close(actual[0][b, :rows], expected[0][b, :rows], rtol, atol, 'output of entry {}'.format(b))
        for k in (1, 2):
            assert_close(actual[k][b, :, :total], expected[k][b, :, :total], rtol, atol,
                         '{} of entry {}'.format(names[k], b))
        if len(names) > 3:  # output_qk: the keys each real row sees
            assert actual[3].shape == expected[3].shape, (actual[3].shape, expected[3].shape)
            for row in range(rows):
                seen = total - seq + row + 1 if total >= seq else row + 1
                assert_close(actual[3][b, :, row, :seen], expected[3][b, :, row, :seen], rtol, atol,
                             'output_qk of entry {}, row {}'.format(b, row))


GQA_CASES = {
    'prompt': dict(step='prompt'),
    'prompt_static': dict(step='prompt', dynamic=False),
    'prompt_mha': dict(step='prompt', kv_heads=4),
    'prompt_mqa_packed': dict(step='prompt', kv_heads=1, packed=True),
    'padded_prompt': dict(step='padded_prompt'),
    'padded_prompt_rotary': dict(step='padded_prompt', rotary='full'),
    'decode': dict(step='decode'),
    'decode_packed_rotary': dict(step='decode', packed=True, rotary='full'),
    'decode_rotary_interleaved': dict(step='decode', rotary='full', rotary_interleaved=1),
    'decode_partial_rotary': dict(step='decode', rotary='partial', head=32),
    'decode_position_ids': dict(step='decode', rotary='full', position_ids=True),
    'shared': dict(step='shared'),
    'shared_rotary': dict(step='shared', rotary='full'),
    'chunk': dict(step='chunk', rotary='full'),
    'window': dict(step='decode', local_window_size=3),
    'prompt_window': dict(step='prompt', local_window_size=2),
    'shared_window_rotary': dict(step='shared', local_window_size=2, rotary='full', rotary_interleaved=1),
    'softcap_scale': dict(step='decode', softcap=1.5, scale=0.2),
    'prompt_softcap': dict(step='prompt', softcap=0.5),
    'attention_bias': dict(step='decode', bias=True),
    'prompt_attention_bias': dict(step='prompt', bias=True),
    'shared_attention_bias': dict(step='shared', bias=True),
    'chunk_window_bias': dict(step='chunk', local_window_size=4, bias=True),
    'head_sink': dict(step='decode', sink=True),
    'prompt_head_sink_softcap': dict(step='prompt', sink=True, softcap=2.0),
    'smooth_softmax': dict(step='prompt', smooth_softmax=1),
    'non_causal': dict(step='prompt', causal=0),
    'qk_scores': dict(step='decode', qk_output=1, softcap=2.0),
    'qk_probabilities': dict(step='decode', qk_output=2),
    'prompt_qk_scores': dict(step='prompt', qk_output=1),
    'shared_qk_probabilities': dict(step='shared', qk_output=2, rotary='full'),
    'padded_prompt_qk_probabilities': dict(step='padded_prompt', qk_output=2),
    'decode_non_causal': dict(step='decode', causal=0),
}


@pytest.mark.parametrize('case', sorted(GQA_CASES))
def test_group_query_attention(tmp_path, case):
    model, feeds, totals, seq = _gqa_case(**GQA_CASES[case])
    _check_gqa(tmp_path, model, feeds, totals, seq)


@pytest.mark.parametrize('case', ['prompt', 'decode_packed_rotary', 'shared'])
def test_group_query_attention_float16(tmp_path, case):
    model, feeds, totals, seq = _gqa_case(**dict(GQA_CASES[case], dtype=np.float16))
    _check_gqa(tmp_path, model, feeds, totals, seq, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize('attrs,message', [
    ({'num_heads': 4, 'kv_num_heads': 3}, 'kv_num_heads dividing num_heads'),
    ({'num_heads': 4, 'kv_num_heads': 2, 'local_window_size': -3}, 'local_window_size -3'),
    ({'num_heads': 4, 'kv_num_heads': 2, 'softcap': -1.0}, 'softcap'),
    ({'num_heads': 4, 'kv_num_heads': 2, 'qk_output': 3}, 'qk_output must be 0, 1 or 2'),
    ({'num_heads': 4, 'kv_num_heads': 2, 'sliding_window_cache': 1}, 'window-sized cache'),
    ({'num_heads': 4, 'kv_num_heads': 2, 'k_quant_type': 'PER_TENSOR'}, 'quantized KV cache'),
    ({'num_heads': 4, 'kv_num_heads': 2, 'do_rotary': 2}, 'do_rotary must be 0 or 1'),
])
def test_group_query_attention_bad_attributes(tmp_path, attrs, message):
    import mo
    from mo.utils.error import Error
    node = helper.make_node('GroupQueryAttention', ['q', 'k', 'v', '', '', 'seqlens', 'total'], ['y'], domain=MS,
                            **attrs)
    model = make_model([node], [('q', T.FLOAT, [1, 3, 64]), ('k', T.FLOAT, [1, 3, 32]), ('v', T.FLOAT, [1, 3, 32]),
                                ('seqlens', T.INT32, [1]), ('total', T.INT32, [])], [('y', T.FLOAT, None)],
                       opset=21, domains={MS: 1})
    with pytest.raises(Error, match=message):
        mo.convert_model(model, output_dir=str(tmp_path), model_name='model')


# ----- a sequence built inside a Loop, concatenated after it (a Mamba-style scan) -------------------------------------

def _scan_model(axis: int, new_axis: int, dynamic: bool, appended: str = 'computed', extra_scan: bool = False):
    """h_t = tanh(a * h_{t-1} + x[t]) over the T rows of x [T, B, D], each y_t = h_t * c appended to a sequence
    (``appended`` 'computed'; 'state': h_t itself; 'outer': the enclosing graph's c, the same each step), joined by
    ConcatFromSequence(axis, new_axis) after the loop; ``extra_scan``: the body has a scan output of its own."""
    from onnx import TensorProto as TP
    f = TP.FLOAT
    body_nodes = [helper.make_node('Gather', ['x', 'i'], ['x_t'], axis=0),
                  helper.make_node('Mul', ['h_in', 'a'], ['decayed']),
                  helper.make_node('Add', ['decayed', 'x_t'], ['pre']),
                  helper.make_node('Tanh', ['pre'], ['h_out']),
                  helper.make_node('Mul', ['h_out', 'c'], ['y_t'])]
    element = {'computed': 'y_t', 'state': 'h_out', 'outer': 'c'}[appended]
    body_nodes.append(helper.make_node('SequenceInsert', ['seq_in', element], ['seq_out']))
    body_nodes.append(helper.make_node('Identity', ['cond_in'], ['cond_out']))
    outputs = [helper.make_tensor_value_info('cond_out', TP.BOOL, []),
               helper.make_tensor_value_info('h_out', f, None),
               helper.make_tensor_sequence_value_info('seq_out', f, None)]
    if extra_scan:
        body_nodes.append(helper.make_node('Neg', ['h_out'], ['neg_t']))
        outputs.append(helper.make_tensor_value_info('neg_t', f, None))
    body = helper.make_graph(body_nodes, 'scan_body',
                             [helper.make_tensor_value_info('i', TP.INT64, []),
                              helper.make_tensor_value_info('cond_in', TP.BOOL, []),
                              helper.make_tensor_value_info('h_in', f, None),
                              helper.make_tensor_sequence_value_info('seq_in', f, None)], outputs)
    nodes = [helper.make_node('Shape', ['x'], ['x_shape']),
             helper.make_node('Gather', ['x_shape', 'zero'], ['steps'], axis=0),
             helper.make_node('SequenceEmpty', [], ['empty'], dtype=f),
             helper.make_node('Loop', ['steps', '', 'h0', 'empty'], ['h_last', 'ys'] + (['negs'] if extra_scan else []),
                              body=body),
             helper.make_node('ConcatFromSequence', ['ys'], ['y'], axis=axis, new_axis=new_axis)]
    dims = ['t', 'b', 4] if dynamic else [5, 2, 4]
    graph_outputs = [('y', f, None), ('h_last', f, None)] + ([('negs', f, None)] if extra_scan else [])
    return make_model(nodes, [('x', f, dims), ('h0', f, dims[1:])], graph_outputs,
                      {'a': np.full([4], 0.7, np.float32), 'c': _rand(2, 4), 'zero': np.array(0, np.int64)},
                      opset=17)


@pytest.mark.parametrize('axis,new_axis', [(0, 1), (1, 1), (-1, 1), (2, 1), (0, 0), (1, 0), (-1, 0)])
@pytest.mark.parametrize('dynamic', [False, True])
def test_sequence_appended_in_a_loop(tmp_path, axis, new_axis, dynamic):
    model = _scan_model(axis, new_axis, dynamic)
    check_model(model, {'x': _rand(5, 2, 4), 'h0': _rand(2, 4)}, tmp_path)


@pytest.mark.parametrize('appended', ['state', 'outer'])
@pytest.mark.parametrize('extra_scan', [False, True])
def test_sequence_appended_in_a_loop_forms(tmp_path, appended, extra_scan):
    model = _scan_model(1, 1, True, appended, extra_scan)
    check_model(model, {'x': _rand(5, 2, 4), 'h0': _rand(2, 4)}, tmp_path)


# ----- an If whose branches give different shapes ---------------------------------------------------------------------

def _if_model(then_nodes, then_out, else_nodes, else_out, inputs, after=()):
    then = helper.make_graph(then_nodes, 'then', [], [helper.make_tensor_value_info(then_out, T.FLOAT, None)])
    other = helper.make_graph(else_nodes, 'else', [], [helper.make_tensor_value_info(else_out, T.FLOAT, None)])
    nodes = [helper.make_node('If', ['cond'], ['branch'], then_branch=then, else_branch=other)] + list(after)
    out = after[-1].output[0] if after else 'branch'
    return make_model(nodes, [('cond', T.BOOL, [1])] + inputs, [(out, T.FLOAT, None)],
                      {'axes0': np.array([0], np.int64), 'starts': np.array([0], np.int64),
                       'ends': np.array([1], np.int64)}, opset=16)


@pytest.mark.parametrize('cond', [False, True])
def test_if_branches_of_different_sizes(tmp_path, cond):
    # the same rank, other sizes: the If's output has dynamic dimensions where they differ
    model = _if_model([helper.make_node('Relu', ['x'], ['t'])], 't',
                      [helper.make_node('Slice', ['x', 'starts', 'ends', 'axes0'], ['e'])], 'e',
                      [('x', T.FLOAT, [2, 3])], [helper.make_node('Neg', ['branch'], ['y'])])
    check_model(model, {'cond': np.array([cond]), 'x': _rand(2, 3)}, tmp_path)


@pytest.mark.ir_not_compiled("OpenVINO's CPU plugin does not compile an If of dynamic rank")
@pytest.mark.parametrize('after', [False, True])
def test_if_branches_of_different_ranks(tmp_path, after):
    # [1, 2, 3] or [2, 3]: the If's output is of dynamic rank, and so is what reads it; OpenVINO reads the IR (its
    # CPU plugin does not compile an If of dynamic rank, nor does it for ovc's IR)
    import mo
    import openvino as ov
    model = _if_model([helper.make_node('Unsqueeze', ['x', 'axes0'], ['t'])], 't',
                      [helper.make_node('Identity', ['x'], ['e'])], 'e', [('x', T.FLOAT, [2, 3])],
                      [helper.make_node('Relu', ['branch'], ['y'])] if after else [])
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    read = ov.Core().read_model(result.xml_path)
    assert read.outputs[0].get_partial_shape().rank.is_dynamic
    assert read.outputs[0].get_element_type() == ov.Type.f32


@pytest.mark.ir_not_compiled("OpenVINO's CPU plugin does not compile an If of dynamic rank")
def test_if_of_different_ranks_inside_a_branch(tmp_path):
    # OpenVINO's layer test: the inner If's output, of rank 3 or 2, transposed by a 3-axis order then its shape taken:
    # rank 3 again, a [3] shape output whichever branch
    import mo
    import openvino as ov
    inner = _if_model([helper.make_node('Unsqueeze', ['x', 'axes0'], ['it'])], 'it',
                      [helper.make_node('Identity', ['x'], ['ie'])], 'ie', [])
    inner_if = helper.make_node('If', ['rank_cond'], ['rank_variant'], then_branch=inner.graph.node[0].attribute[0].g,
                                else_branch=inner.graph.node[0].attribute[1].g)
    other = helper.make_graph([inner_if, helper.make_node('Transpose', ['rank_variant'], ['tr'], perm=[1, 0, 2]),
                               helper.make_node('Shape', ['tr'], ['eo'])], 'else', [],
                              [helper.make_tensor_value_info('eo', T.INT64, None)])
    then = helper.make_graph([helper.make_node('Unsqueeze', ['x', 'axes0'], ['tt']),
                              helper.make_node('Shape', ['tt'], ['to'])], 'then', [],
                             [helper.make_tensor_value_info('to', T.INT64, None)])
    model = make_model([helper.make_node('If', ['cond'], ['y'], then_branch=then, else_branch=other)],
                       [('cond', T.BOOL, [1]), ('rank_cond', T.BOOL, [1]), ('x', T.FLOAT, [2, 3])],
                       [('y', T.INT64, None)], {'axes0': np.array([0], np.int64)}, opset=16)
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    read = ov.Core().read_model(result.xml_path)
    assert read.outputs[0].get_element_type() == ov.Type.i64


def test_if_of_different_ranks_read_by_a_body_is_an_error(tmp_path):
    # a body's Parameters need the rank of the outer tensor they stand for: one clear Error
    import mo
    from mo.utils.error import Error
    model = _if_model([helper.make_node('Unsqueeze', ['x', 'axes0'], ['t'])], 't',
                      [helper.make_node('Identity', ['x'], ['e'])], 'e', [('x', T.FLOAT, [2, 3])])
    reader = helper.make_graph([helper.make_node('Relu', ['branch'], ['r'])], 'reader', [],
                               [helper.make_tensor_value_info('r', T.FLOAT, None)])
    model.graph.node.append(helper.make_node('If', ['cond'], ['z'], then_branch=reader, else_branch=reader))
    del model.graph.output[:]
    model.graph.output.append(helper.make_tensor_value_info('z', T.FLOAT, None))
    with pytest.raises(Error, match='reads a tensor of dynamic rank'):
        mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
