"""onnxruntime's com.microsoft attention-side ops (RotaryEmbedding, MultiHeadAttention, Attention) and layers built of
the contrib ops as onnxruntime's tools write them, converted by mo and run in OpenVINO, against onnxruntime (where its
CPU kernel does not take a form, packed query/key/value, the reference is the same attention given apart)."""
import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto, helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402
from tests.onnx.test_microsoft_ops import MS, TOLERANCE, TYPES, _convert_error, _model, _random  # noqa: E402


ROTARY_CASES = {
    # name: (input shape, position_ids shape or 'offset'/'scalar', attributes, cache width)
    '3d': ([2, 5, 16], [2, 5], {}, 4),
    '3d_num_heads': ([2, 5, 16], [2, 5], {'num_heads': 2}, 4),
    '3d_partial': ([2, 5, 24], [2, 5], {'rotary_embedding_dim': 4, 'num_heads': 3}, 2),
    '3d_offset': ([2, 5, 16], [1], {}, 4),
    '3d_scalar_offset': ([1, 3, 16], [], {}, 4),
    '4d': ([2, 2, 5, 8], [2, 5], {}, 4),
    '4d_partial': ([2, 3, 5, 8], [2, 5], {'rotary_embedding_dim': 4, 'num_heads': 3}, 2),
    '4d_offset': ([2, 2, 5, 8], [1], {}, 4),
    # read and left aside, as onnxruntime's CPU kernel does
    'scale': ([2, 5, 16], [2, 5], {'scale': 0.5}, 4),
    'packed_batching': ([2, 5, 16], [2, 5], {'is_packed_batching': 1}, 4),
}


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('case', sorted(ROTARY_CASES))
@pytest.mark.parametrize('interleaved', [None, 0, 1])
@pytest.mark.parametrize('hidden_rank', [False, True])
def test_rotary_embedding(tmp_path, kind, case, interleaved, hidden_rank):
    # com.microsoft's input order (input, position_ids, cos_cache, sin_cache), its 3-D and 4-D layouts, position_ids
    # as [B, S] or one offset; hidden_rank: the input comes out of an Identity, so its rank is not declared
    dtype, onnx_type = TYPES[kind]
    shape, positions, attrs, half = ROTARY_CASES[case]
    if interleaved is not None:
        attrs = dict(attrs, interleaved=interleaved)
    max_length = 12
    rng = np.random.default_rng(7)
    feeds = {'x': _random(shape, dtype),
             'pos': (rng.integers(0, max_length - shape[-2 if len(shape) == 4 else 1], positions) if positions != [1]
                     else np.array([3])).astype(np.int64)}
    angles = np.arange(max_length)[:, None] * (0.3 ** np.arange(half))[None, :]
    cos, sin = np.cos(angles).astype(dtype), np.sin(angles).astype(dtype)
    nodes = [helper.make_node('Identity', ['x'], ['x_any'])] if hidden_rank else []
    nodes.append(helper.make_node('RotaryEmbedding', ['x_any' if hidden_rank else 'x', 'pos', 'cos', 'sin'], ['y'],
                                  domain=MS, **attrs))
    model = make_model(nodes, [('x', onnx_type, shape), ('pos', TensorProto.INT64, positions)],
                       [('y', onnx_type, None)], {'cos': cos, 'sin': sin}, opset=17, domains={MS: 1})
    check_model(model, feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('attrs,message', [({'rotary_embedding_dim': 4}, 'needs num_heads'),
                                           ({'rotary_embedding_dim': 3, 'num_heads': 2}, 'must be even'),
                                           ({'interleaved': 2}, 'interleaved must be 0 or 1')])
def test_rotary_embedding_bad_attributes(tmp_path, attrs, message):
    node = helper.make_node('RotaryEmbedding', ['x', 'pos', 'cos', 'sin'], ['y'], domain=MS, **attrs)
    model = _model(node, [('x', TensorProto.FLOAT, [1, 3, 8]), ('pos', TensorProto.INT64, [1, 3]),
                          ('cos', TensorProto.FLOAT, [4, 2]), ('sin', TensorProto.FLOAT, [4, 2])],
                   [('y', TensorProto.FLOAT, None)])
    _convert_error(model, tmp_path, message)


def _check_with_feeds(model, feeds, reference, reference_feeds, tmp_path, rtol, atol):
    """As _check_against, the reference taking its own feeds (a packed tensor given to it unpacked)."""
    import mo
    from tests.onnx.onnx_oracle import assert_close, run_ir, run_onnxruntime
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    expected = run_onnxruntime(reference, reference_feeds)
    for name, a, e in zip(names, run_ir(result.xml_path, feeds, names), expected):
        assert_close(a, e, rtol, atol, 'output "{}"'.format(name))


MHA_INPUTS = ('query', 'key', 'value', 'bias', 'key_padding_mask', 'attention_bias', 'past_key', 'past_value')
#: onnxruntime computes MultiHeadAttention in float32 (its CPU kernel has no float16): float16 inputs are cast
MHA_TOLERANCE = {'f32': dict(rtol=1e-4, atol=1e-4), 'f16': dict(rtol=1e-2, atol=1e-2)}


def _mha_model(kind, tensors, attrs, outputs, op='MultiHeadAttention'):
    """A one-node model of ``op`` whose inputs are ``tensors`` (by input name; absent ones left out)."""
    _, onnx_type = TYPES[kind]
    names = [n if n in tensors else '' for n in MHA_INPUTS]
    while names[-1] == '':
        names.pop()
    inputs = [(n, TensorProto.INT32 if tensors[n].dtype == np.int32 else onnx_type, list(tensors[n].shape))
              for n in names if n]
    outs = [o if o in outputs else '' for o in ('output', 'present_key', 'present_value', 'qk')]
    while outs[-1] == '':
        outs.pop()
    node = helper.make_node(op, names, outs, domain=MS, **attrs)
    return _model(node, inputs, [(o, onnx_type, None) for o in outs if o])


MHA_CASES = {
    # name: (S, L, past length, inputs, attributes, outputs)
    'self': (3, 3, 0, ('bias',), {}, ('output',)),
    'cross': (3, 5, 0, (), {'scale': 0.2}, ('output',)),
    'cross_bias': (3, 5, 0, ('bias',), {}, ('output',)),
    'mask_lengths': (3, 5, 0, ('lengths',), {}, ('output',)),
    'mask_2d': (3, 5, 0, ('mask_2d',), {'mask_filter_value': -50.0}, ('output',)),
    'mask_3d': (3, 5, 0, ('mask_3d',), {}, ('output', 'qk')),
    'attention_bias': (3, 5, 0, ('attention_bias',), {}, ('output', 'qk')),
    'attention_bias_b1': (3, 5, 0, ('attention_bias_b1', 'mask_2d'), {}, ('output',)),
    'attention_bias_full': (3, 5, 0, ('attention_bias_full', 'bias'), {}, ('output',)),
    'causal': (4, 4, 0, ('bias',), {'unidirectional': 1}, ('output', 'qk')),
    'causal_mask': (4, 4, 0, ('mask_2d',), {'unidirectional': 1}, ('output',)),
    'causal_cross': (3, 5, 0, (), {'unidirectional': 1}, ('output', 'qk')),
    'present': (3, 3, 0, ('bias',), {}, ('output', 'present_key', 'present_value')),
    'past': (3, 3, 2, ('bias', 'mask_2d'), {}, ('output', 'present_key', 'present_value')),
    'past_lengths': (3, 3, 2, ('lengths',), {}, ('output', 'present_key', 'present_value')),
    'past_causal': (3, 3, 2, ('attention_bias',), {'unidirectional': 1}, ('output', 'present_key', 'present_value')),
    'past_decode': (1, 1, 4, ('bias', 'mask_2d'), {'unidirectional': 1},
                    ('output', 'present_key', 'present_value', 'qk')),
    'kv_heads': (3, 5, 0, ('kv_heads', 'bias'), {}, ('output',)),
    'kv_heads_past': (3, 5, 2, ('kv_heads',), {}, ('output', 'present_key', 'present_value')),
}


def _mha_tensors(kind, case, heads=2, head=4, batch=2):
    """The inputs of MHA_CASES[case] and the features they ask for."""
    dtype = TYPES[kind][0]
    length, kv_length, past, extras, attrs, outputs = MHA_CASES[case]
    total = past + kv_length
    hidden = heads * head
    rng = np.random.default_rng(11)
    t = {'query': _random([batch, length, hidden], dtype, 1, -1, 1)}
    if 'kv_heads' in extras:
        t['key'] = _random([batch, heads, kv_length, head], dtype, 2, -1, 1)
        t['value'] = _random([batch, heads, kv_length, head], dtype, 3, -1, 1)
    else:
        t['key'] = _random([batch, kv_length, hidden], dtype, 2, -1, 1)
        t['value'] = _random([batch, kv_length, hidden], dtype, 3, -1, 1)
    if 'bias' in extras:
        t['bias'] = _random([3 * hidden], dtype, 4, -1, 1)
    if 'lengths' in extras:
        t['key_padding_mask'] = np.array([total - 2, total][:batch], np.int32)
    if 'mask_2d' in extras:
        mask = (rng.uniform(size=[batch, total]) < 0.7).astype(np.int32)
        mask[:, -1] = 1
        t['key_padding_mask'] = mask
    if 'mask_3d' in extras:
        mask = (rng.uniform(size=[batch, length, total]) < 0.7).astype(np.int32)
        mask[:, :, 0] = 1
        t['key_padding_mask'] = mask
    for name, shape in (('attention_bias', [1, heads]), ('attention_bias_b1', [batch, 1]),
                        ('attention_bias_full', [batch, heads])):
        if name in extras:
            t['attention_bias'] = _random(shape + [length, total], dtype, 5, -2, 2)
    if past:
        t['past_key'] = _random([batch, heads, past, head], dtype, 6, -1, 1)
        t['past_value'] = _random([batch, heads, past, head], dtype, 7, -1, 1)
    return t, dict(attrs, num_heads=heads), outputs


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('case', sorted(MHA_CASES))
def test_multi_head_attention(tmp_path, kind, case):
    # onnxruntime's CPU kernel gives wrong numbers with past_key/past_value when present_key/present_value are not
    # read, and for unidirectional cross attention when qk is not read: those cases read them
    tensors, attrs, outputs = _mha_tensors(kind, case)
    check_model(_mha_model(kind, tensors, attrs, outputs), tensors, tmp_path, **MHA_TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('packed', ['qkv', 'kv'])
@pytest.mark.parametrize('extras', [(), ('bias', 'mask_2d')])
def test_multi_head_attention_packed(tmp_path, kind, packed, extras):
    # onnxruntime's CPU kernel does not take the packed forms: the reference is its MultiHeadAttention on the same
    # query, key and value given apart
    heads, head, batch, length = 2, 4, 2, 3
    MHA_CASES['packed'] = (length, length, 0, extras, {}, ('output',))
    try:
        tensors, attrs, outputs = _mha_tensors(kind, 'packed', heads, head, batch)
    finally:
        del MHA_CASES['packed']
    as_heads = [t.reshape(batch, length, heads, 1, head) for t in (tensors['query'], tensors['key'], tensors['value'])]
    model_tensors = dict(tensors)
    if packed == 'qkv':
        model_tensors['query'] = np.concatenate(as_heads, axis=3)
        del model_tensors['key'], model_tensors['value']
    else:
        model_tensors['key'] = np.concatenate(as_heads[1:], axis=3)
        del model_tensors['value']
    _check_with_feeds(_mha_model(kind, model_tensors, attrs, outputs), model_tensors,
                      _mha_model(kind, tensors, attrs, outputs), tensors, tmp_path, **MHA_TOLERANCE[kind])


@pytest.mark.parametrize('attrs,inputs,message', [
    ({}, ('query', 'key', 'value'), 'num_heads'),
    ({'num_heads': 2, 'unidirectional': 2}, ('query', 'key', 'value'), 'unidirectional must be 0 or 1'),
    ({'num_heads': 2}, ('query',), 'key is needed'),
    ({'num_heads': 2}, ('query', 'key', 'value', 'past_key'), 'past_key and past_value go together')])
def test_multi_head_attention_bad_inputs(tmp_path, attrs, inputs, message):
    shapes = {'query': [1, 3, 8], 'key': [1, 3, 8], 'value': [1, 3, 8], 'past_key': [1, 2, 2, 4]}
    names = [n if n in inputs else '' for n in MHA_INPUTS[:7]]
    while names[-1] == '':
        names.pop()
    node = helper.make_node('MultiHeadAttention', names, ['y'], domain=MS, **attrs)
    model = _model(node, [(n, TensorProto.FLOAT, shapes[n]) for n in names if n], [('y', TensorProto.FLOAT, None)])
    _convert_error(model, tmp_path, message)


ATTENTION_CASES = {
    # name: (past length, inputs, attributes, outputs)
    'plain': (0, ('no_bias',), {}, ('output',)),
    'bias': (0, (), {'scale': 0.25}, ('output',)),
    'qkv_hidden_sizes': (0, ('v_wide',), {'qkv_hidden_sizes': [8, 8, 12]}, ('output',)),
    'lengths': (0, ('lengths',), {}, ('output',)),
    'ends_starts': (0, ('ends_starts',), {}, ('output',)),
    'mask_2d': (0, ('mask_2d',), {'mask_filter_value': -30.0}, ('output',)),
    'mask_3d': (0, ('mask_3d',), {}, ('output',)),
    'attention_bias': (0, ('attention_bias',), {}, ('output',)),
    'unidirectional': (0, ('mask_2d',), {'unidirectional': 1}, ('output',)),
    'present': (0, (), {}, ('output', 'present')),
    'past': (2, ('mask_2d',), {}, ('output', 'present')),
    'past_lengths': (2, ('lengths',), {}, ('output', 'present')),
    'past_unidirectional': (2, (), {'unidirectional': 1}, ('output', 'present')),
    'past_decode': (4, ('ends_starts',), {'unidirectional': 1}, ('output', 'present')),
}


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('case', sorted(ATTENTION_CASES))
def test_attention(tmp_path, kind, case):
    # BERT's and GPT-2's packed-QKV Attention: onnxruntime's CPU kernel wants present read whenever past is given
    dtype, onnx_type = TYPES[kind]
    past, extras, attrs, outputs = ATTENTION_CASES[case]
    batch, heads, head, in_hidden = 2, 2, 4, 6
    length = 1 if case == 'past_decode' else 3
    total = past + length
    widths = attrs.get('qkv_hidden_sizes', [heads * head] * 3)
    rng = np.random.default_rng(5)
    t = {'input': _random([batch, length, in_hidden], dtype, 1, -1, 1),
         'weights': _random([in_hidden, sum(widths)], dtype, 2, -1, 1)}
    if 'no_bias' not in extras:
        t['bias'] = _random([sum(widths)], dtype, 3, -1, 1)
    if 'lengths' in extras:
        t['mask_index'] = np.array([total - 1, total], np.int32)
    if 'ends_starts' in extras:
        t['mask_index'] = np.array([total, total - 1, 1, 0], np.int32)
    if 'mask_2d' in extras:
        mask = (rng.uniform(size=[batch, total]) < 0.7).astype(np.int32)
        mask[:, 0] = 1
        t['mask_index'] = mask
    if 'mask_3d' in extras:
        mask = (rng.uniform(size=[batch, length, total]) < 0.7).astype(np.int32)
        mask[:, :, 0] = 1
        t['mask_index'] = mask
    if past:
        t['past'] = _random([2, batch, heads, past, head], dtype, 4, -1, 1)
    if 'attention_bias' in extras:
        t['attention_bias'] = _random([1, heads, length, total], dtype, 5, -2, 2)
    names = [n if n in t else '' for n in ('input', 'weights', 'bias', 'mask_index', 'past', 'attention_bias')]
    while names[-1] == '':
        names.pop()
    inputs = [(n, TensorProto.INT32 if t[n].dtype == np.int32 else onnx_type, list(t[n].shape)) for n in names if n]
    node = helper.make_node('Attention', names, list(outputs), domain=MS, num_heads=heads, **attrs)
    model = _model(node, inputs, [(o, onnx_type, None) for o in outputs])
    check_model(model, t, tmp_path, **MHA_TOLERANCE[kind])


@pytest.mark.parametrize('attrs,mask_shape,message', [
    ({'do_rotary': 1}, None, 'do_rotary'),
    ({'past_present_share_buffer': 1}, None, 'past_present_share_buffer'),
    ({'qkv_hidden_sizes': [8, 4, 8]}, None, 'qkv_hidden_sizes'),
    ({'qkv_hidden_sizes': [8, 8, 7]}, None, 'qkv_hidden_sizes'),
    ({}, [2, 1, 3, 3], '4-D mask_index'),
    ({}, [3], 'neither lengths'),
    ({}, None, 'num_heads must be')])
def test_attention_bad_attributes(tmp_path, attrs, mask_shape, message):
    if message != 'num_heads must be':
        attrs = dict(attrs, num_heads=2)
    inputs = [('input', TensorProto.FLOAT, [2, 3, 6]), ('weights', TensorProto.FLOAT, [6, 24])]
    names = ['input', 'weights']
    if mask_shape:
        names += ['', 'mask']
        inputs.append(('mask', TensorProto.INT32, mask_shape))
    node = helper.make_node('Attention', names, ['y'], domain=MS, **attrs)
    _convert_error(_model(node, inputs, [('y', TensorProto.FLOAT, None)]), tmp_path, message)


@pytest.mark.parametrize('kind', ['f32', 'f16'])
def test_bert_layer_with_dynamic_shapes(tmp_path, kind):
    # a BERT layer as onnxruntime's transformer optimizer writes it, batch and sequence dynamic: mask_index [B] comes
    # from EmbedLayerNormalization, so the Attention tells lengths from end and start positions at run time
    dtype, onnx_type = TYPES[kind]
    batch, length, heads, head, vocab = 2, 5, 2, 4, 11
    hidden = heads * head
    init = {'word': _random([vocab, hidden], dtype, 1, -1, 1), 'position': _random([8, hidden], dtype, 2, -1, 1),
            'segment': _random([2, hidden], dtype, 3, -1, 1), 'gamma': _random([hidden], dtype, 4, -1, 1),
            'beta': _random([hidden], dtype, 5, -1, 1), 'qkv_weights': _random([hidden, 3 * hidden], dtype, 6, -1, 1),
            'qkv_bias': _random([3 * hidden], dtype, 7, -1, 1),
            'out_weights': _random([hidden, hidden], dtype, 8, -1, 1),
            'out_bias': _random([hidden], dtype, 9, -1, 1)}
    nodes = [
        helper.make_node('EmbedLayerNormalization', ['ids', 'segments', 'word', 'position', 'segment', 'gamma', 'beta',
                                                     'mask'], ['embedded', 'mask_index'], domain=MS, epsilon=1e-5),
        helper.make_node('Attention', ['embedded', 'qkv_weights', 'qkv_bias', 'mask_index'], ['attended'], domain=MS,
                         num_heads=heads),
        helper.make_node('MatMul', ['attended', 'out_weights'], ['projected']),
        helper.make_node('SkipLayerNormalization', ['projected', 'embedded', 'gamma', 'beta', 'out_bias'], ['normed'],
                         domain=MS, epsilon=1e-5),
        helper.make_node('FastGelu', ['normed'], ['y'], domain=MS)]
    inputs = [(n, TensorProto.INT32, ['batch', 'sequence']) for n in ('ids', 'segments', 'mask')]
    model = make_model(nodes, inputs, [('y', onnx_type, None)], init, opset=17, domains={MS: 1})
    rng = np.random.default_rng(2)
    mask = np.ones([batch, length], np.int32)
    mask[0, 3:] = 0
    feeds = {'ids': rng.integers(0, vocab, [batch, length]).astype(np.int32),
             'segments': rng.integers(0, 2, [batch, length]).astype(np.int32), 'mask': mask}
    check_model(model, feeds, tmp_path, **MHA_TOLERANCE[kind])


def test_attention_ends_starts_of_dynamic_batch(tmp_path):
    # a 1-D mask_index whose size the model does not state: end and start positions [2B] told at run time
    batch, length, heads, head = 2, 4, 2, 4
    hidden = heads * head
    node = helper.make_node('Attention', ['input', 'weights', '', 'mask_index'], ['y'], domain=MS, num_heads=heads)
    model = _model(node, [('input', TensorProto.FLOAT, ['batch', length, hidden]),
                          ('weights', TensorProto.FLOAT, [hidden, 3 * hidden]),
                          ('mask_index', TensorProto.INT32, ['positions'])], [('y', TensorProto.FLOAT, None)])
    feeds = {'input': _random([batch, length, hidden], np.float32, 1, -1, 1),
             'weights': _random([hidden, 3 * hidden], np.float32, 2, -1, 1),
             'mask_index': np.array([3, 4, 1, 0], np.int32)}
    check_model(model, feeds, tmp_path, **MHA_TOLERANCE['f32'])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('interleaved', [0, 1])
def test_decoder_layer_with_dynamic_shapes(tmp_path, kind, interleaved):
    # a decoder layer as onnxruntime GenAI's builder writes it (SimplifiedLayerNormalization, RotaryEmbedding on the
    # 3-D projections without num_heads, MultiHeadAttention with past and a [B, T] mask, SkipSimplifiedLayerNorm),
    # batch, sequence and past lengths dynamic
    dtype, onnx_type = TYPES[kind]
    batch, length, past, heads, head = 2, 3, 4, 2, 4
    hidden = heads * head
    angles = np.arange(16)[:, None] * (0.3 ** np.arange(head // 2))[None, :]
    init = {'wq': _random([hidden, hidden], dtype, 1, -1, 1), 'wk': _random([hidden, hidden], dtype, 2, -1, 1),
            'wv': _random([hidden, hidden], dtype, 3, -1, 1), 'gamma': _random([hidden], dtype, 4, -1, 1),
            'cos': np.cos(angles).astype(dtype), 'sin': np.sin(angles).astype(dtype)}
    nodes = [helper.make_node('SimplifiedLayerNormalization', ['x', 'gamma'], ['normed'], epsilon=1e-5)]
    nodes += [helper.make_node('MatMul', ['normed', 'w' + p], [p]) for p in 'qkv']
    nodes += [helper.make_node('RotaryEmbedding', [p, 'positions', 'cos', 'sin'], [p + '_rotated'], domain=MS,
                               interleaved=interleaved) for p in 'qk']
    nodes += [helper.make_node('MultiHeadAttention', ['q_rotated', 'k_rotated', 'v', '', 'mask', '', 'past_key',
                                                      'past_value'], ['attended', 'present_key', 'present_value'],
                               domain=MS, num_heads=heads, unidirectional=1),
              helper.make_node('SkipSimplifiedLayerNormalization', ['attended', 'x', 'gamma'], ['y', '', '', 'sum'],
                               domain=MS, epsilon=1e-5)]
    inputs = [('x', onnx_type, ['batch', 'sequence', hidden]), ('positions', TensorProto.INT64, ['batch', 'sequence']),
              ('mask', TensorProto.INT32, ['batch', 'total']), ('past_key', onnx_type, ['batch', heads, 'past', head]),
              ('past_value', onnx_type, ['batch', heads, 'past', head])]
    outputs = [(n, onnx_type, None) for n in ('y', 'sum', 'present_key', 'present_value')]
    model = make_model(nodes, inputs, outputs, init, opset=17, domains={MS: 1})
    mask = np.ones([batch, past + length], np.int32)
    mask[0, 0] = 0
    feeds = {'x': _random([batch, length, hidden], dtype, 5, -1, 1),
             'positions': np.repeat((past + np.arange(length))[None], batch, 0).astype(np.int64), 'mask': mask,
             'past_key': _random([batch, heads, past, head], dtype, 6, -1, 1),
             'past_value': _random([batch, heads, past, head], dtype, 7, -1, 1)}
    check_model(model, feeds, tmp_path, **MHA_TOLERANCE[kind])
