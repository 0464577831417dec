"""ONNX's LinearAttention (opset 27) and FlexAttention (ai.onnx.preview 1) over the grids the backend suite leaves
out: every update rule x per-key or per-head decay x beta per head or scalar x grouped heads x past state x scale,
float16 with a float32 state, dynamic batch and sequence (one IR run at two sizes); FlexAttention's scale, grouped
heads, score_mod/prob_mod (one reading a tensor of the enclosing graph), softmax_precision, float16/double and
dynamic sizes.

onnxruntime (1.32) knows neither op (LinearAttention's opset 27 is newer than it reads, FlexAttention's domain
unregistered), so ONNX's reference evaluator (``onnx.reference``) is the numeric reference here; OpenVINO runs the
IR mo wrote.
"""
import itertools

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
from onnx import TensorProto as T, helper  # noqa: E402

import mo  # noqa: E402
from tests.onnx.onnx_oracle import assert_close, make_model, run_ir  # noqa: E402

RNG = np.random.default_rng(27)
NP = {T.FLOAT: np.float32, T.FLOAT16: np.float16, T.DOUBLE: np.float64}


def _reference(model, feeds):
    from onnx.reference import ReferenceEvaluator
    return ReferenceEvaluator(model).run(None, feeds)


def _check(model, feed_sets, tmp_path, rtol=1e-4, atol=1e-5, twin=None):
    """Convert once, run the IR on each feed set and compare every output with the reference's (which runs
    ``twin(model, feeds)`` when given: the same computation in a form the reference evaluator takes)."""
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    for feeds in feed_sets:
        actual = run_ir(result.xml_path, feeds, names)
        reference = _reference(model, feeds) if twin is None else _reference(*twin(model, feeds))
        for name, a, e in zip(names, actual, reference):
            assert_close(a, e, rtol, atol, 'output "{}"'.format(name))


# LinearAttention -------------------------------------------------------------------------------------------------

def _linear_model(rule, hq, hkv, dk, dv, elem=T.FLOAT, past=False, past_elem=None, decay='key', beta='head',
                  scale=None, dims=('B', 'T')):
    gated, delta = rule in ('gated', 'gated_delta'), rule in ('delta', 'gated_delta')
    inputs = [('query', elem, list(dims) + [hq * dk]), ('key', elem, list(dims) + [hkv * dk]),
              ('value', elem, list(dims) + [hkv * dv])]
    names = ['query', 'key', 'value', '', '', '']
    if past:
        inputs.append(('past_state', past_elem or elem, [dims[0], hkv, dk, dv]))
        names[3] = 'past_state'
    if gated:
        inputs.append(('decay', elem, list(dims) + [hkv * dk if decay == 'key' else hkv]))
        names[4] = 'decay'
    if delta:
        inputs.append(('beta', elem, list(dims) + [hkv if beta == 'head' else 1]))
        names[5] = 'beta'
    while names[-1] == '':
        names.pop()
    attrs = {'q_num_heads': hq, 'kv_num_heads': hkv, 'update_rule': rule}
    if scale is not None:
        attrs['scale'] = scale
    node = helper.make_node('LinearAttention', names, ['output', 'present_state'], **attrs)
    outputs = [('output', elem, None), ('present_state', past_elem or elem, None)]
    return make_model([node], inputs, outputs, opset=27, ir_version=11)


def _linear_feeds(model, batch, time):
    feeds = {}
    for value_info in model.graph.input:
        dims = [d.dim_value or {'B': batch, 'T': time}[d.dim_param] for d in value_info.type.tensor_type.shape.dim]
        dtype = NP[value_info.type.tensor_type.elem_type]
        if value_info.name == 'decay':
            value = -np.abs(RNG.standard_normal(dims)) * 0.5          # log-space decay: exp(g) in (0, 1]
        elif value_info.name == 'beta':
            value = 1 / (1 + np.exp(-RNG.standard_normal(dims)))     # a sigmoid output
        elif value_info.name == 'key':  # L2-normalized per head, as the delta rules expect
            kv_heads = next(a.i for a in model.graph.node[0].attribute if a.name == 'kv_num_heads')
            value = RNG.standard_normal(dims[:-1] + [kv_heads, dims[-1] // kv_heads])
            value = (value / np.linalg.norm(value, axis=-1, keepdims=True)).reshape(dims)
        else:
            value = RNG.standard_normal(dims) * 0.5
        feeds[value_info.name] = value.astype(dtype)
    return feeds


RULES = ['linear', 'gated', 'delta', 'gated_delta']
HEADS = [(2, 2), (4, 2), (4, 1)]


@pytest.mark.parametrize('rule,heads,past', list(itertools.product(RULES, HEADS, [False, True])))
def test_linear_attention_rules(rule, heads, past, tmp_path):
    hq, hkv = heads
    model = _linear_model(rule, hq, hkv, 4, 3, past=past)
    # one IR, two batch and sequence sizes: the recurrence runs over the sequence given at run time
    _check(model, [_linear_feeds(model, 2, 5), _linear_feeds(model, 1, 3)], tmp_path)


@pytest.mark.parametrize('rule,decay,beta,scale', [
    ('gated', 'head', 'head', None), ('gated_delta', 'head', 'one', None), ('gated_delta', 'key', 'one', 0.7),
    ('delta', 'key', 'one', 2.0), ('linear', 'key', 'head', 0.25)])
def test_linear_attention_decay_beta_scale(rule, decay, beta, scale, tmp_path):
    model = _linear_model(rule, 4, 2, 3, 5, decay=decay, beta=beta, scale=scale, past=True)
    _check(model, [_linear_feeds(model, 2, 4)], tmp_path)


@pytest.mark.parametrize('rule,past_elem', [('gated_delta', None), ('gated_delta', T.FLOAT), ('linear', T.FLOAT)])
def test_linear_attention_float16(rule, past_elem, tmp_path):
    """float16 activations, the state float16 or float32 (present_state takes past_state's type)."""
    model = _linear_model(rule, 4, 2, 4, 4, elem=T.FLOAT16, past=past_elem is not None, past_elem=past_elem)
    _check(model, [_linear_feeds(model, 2, 3)], tmp_path, rtol=1e-2, atol=1e-3)


def test_linear_attention_errors(tmp_path):
    from mo.utils.error import Error
    model = _linear_model('gated', 3, 2, 4, 4)
    with pytest.raises(Error, match='multiple of kv_num_heads'):
        mo.convert_model(model, output_dir=str(tmp_path))
    node = helper.make_node('LinearAttention', ['query', 'key', 'value'], ['output'], q_num_heads=2, kv_num_heads=2,
                            update_rule='gated')
    model = make_model([node], [(n, T.FLOAT, [1, 2, 8]) for n in ('query', 'key', 'value')],
                       [('output', T.FLOAT, None)], opset=27, ir_version=11)
    with pytest.raises(Error, match='needs the decay input'):
        mo.convert_model(model, output_dir=str(tmp_path))


# FlexAttention ---------------------------------------------------------------------------------------------------

def _modifier(kind, elem):
    """A modifier graph (one input ``x`` [B, H, L, S], one output): causal mask, soft cap, scale, or one reading
    the enclosing graph's ``bias`` input."""
    value_info = [helper.make_tensor_value_info('x', elem, None)], [helper.make_tensor_value_info('x_out', elem, None)]
    dtype = NP[elem]
    if kind == 'causal':
        nodes = [helper.make_node('Shape', ['x'], ['x_shape']),
                 helper.make_node('Gather', ['x_shape', 'two'], ['l_dim'], axis=0),
                 helper.make_node('Gather', ['x_shape', 'three'], ['s_dim'], axis=0),
                 helper.make_node('Range', ['zero', 'l_dim', 'one'], ['l_range']),
                 helper.make_node('Range', ['zero', 's_dim', 'one'], ['s_range']),
                 helper.make_node('Unsqueeze', ['l_range', 'last'], ['l_col']),
                 helper.make_node('GreaterOrEqual', ['l_col', 's_range'], ['allowed']),
                 helper.make_node('Where', ['allowed', 'x', 'minus_inf'], ['x_out'])]
        inits = [helper.make_tensor(n, T.INT64, [], [v]) for n, v in (('zero', 0), ('one', 1), ('two', 2),
                                                                     ('three', 3))]
        inits += [helper.make_tensor('last', T.INT64, [1], [-1]),
                  onnx.numpy_helper.from_array(np.array(-np.inf, dtype), 'minus_inf')]
    elif kind == 'softcap':
        inits = [onnx.numpy_helper.from_array(np.array(2.0, dtype), 'cap')]
        nodes = [helper.make_node('Div', ['x', 'cap'], ['capped']), helper.make_node('Tanh', ['capped'], ['tanh']),
                 helper.make_node('Mul', ['tanh', 'cap'], ['x_out'])]
    elif kind == 'scale':
        inits = [onnx.numpy_helper.from_array(np.array(0.5, dtype), 'half')]
        nodes = [helper.make_node('Mul', ['x', 'half'], ['x_out'])]
    else:  # 'outer': adds the main graph's input ``bias`` [L, S] (cast to the modifier's type)
        inits = []
        nodes = [helper.make_node('Cast', ['bias'], ['bias_cast'], to=elem),
                 helper.make_node('Add', ['x', 'bias_cast'], ['x_out'])]
    return helper.make_graph(nodes, kind, *value_info, initializer=inits)


def _flex_model(elem=T.FLOAT, hq=4, hkv=4, e=8, ev=8, scale=None, score_mod=None, prob_mod=None, precision=None,
                dims=(2, 5, 6)):
    batch, length, keys = dims
    inputs = [('Q', elem, [batch, hq, length, e]), ('K', elem, [batch, hkv, keys, e]),
              ('V', elem, [batch, hkv, keys, ev])]
    attrs = {}
    if scale is not None:
        attrs['scale'] = scale
    mod_elem = precision or (T.DOUBLE if elem == T.DOUBLE else T.FLOAT)
    if score_mod:
        attrs['score_mod'] = _modifier(score_mod, mod_elem)
    if prob_mod:
        attrs['prob_mod'] = _modifier(prob_mod, mod_elem)
    if precision is not None:
        attrs['softmax_precision'] = precision
    if 'outer' in (score_mod, prob_mod):
        inputs.append(('bias', T.FLOAT, [length, keys]))
    node = helper.make_node('FlexAttention', ['Q', 'K', 'V'], ['Y'], domain='ai.onnx.preview', **attrs)
    return make_model([node], inputs, [('Y', elem, None)], opset=23, domains={'ai.onnx.preview': 1},
                      ir_version=11)


def _bias_inside(model, feeds):
    """The model with its modifiers' reads of the graph input ``bias`` replaced by a constant of its value (the
    reference evaluator does not let a modifier read the enclosing graph), and the feeds without ``bias``."""
    twin = onnx.ModelProto()
    twin.CopyFrom(model)
    for attr in twin.graph.node[0].attribute:
        if attr.type == onnx.AttributeProto.GRAPH:
            for node in attr.g.node:
                if node.input and node.input[0] == 'bias':
                    node.input[0] = 'bias_value'
            attr.g.initializer.append(onnx.numpy_helper.from_array(feeds['bias'], 'bias_value'))
    del twin.graph.input[-1]
    return twin, {k: v for k, v in feeds.items() if k != 'bias'}


def _flex_feeds(model, sizes=None):
    feeds = {}
    for value_info in model.graph.input:
        dims = [d.dim_value or sizes[d.dim_param] for d in value_info.type.tensor_type.shape.dim]
        feeds[value_info.name] = RNG.standard_normal(dims).astype(NP[value_info.type.tensor_type.elem_type])
    return feeds


@pytest.mark.parametrize('heads,scale,score_mod,prob_mod', [
    ((4, 4), None, None, None), ((4, 2), None, 'causal', None), ((4, 1), 0.3, 'softcap', 'scale'),
    ((2, 2), 2.0, 'outer', None), ((4, 2), None, None, 'outer'), ((2, 1), None, 'causal', 'scale')])
def test_flex_attention(heads, scale, score_mod, prob_mod, tmp_path):
    model = _flex_model(hq=heads[0], hkv=heads[1], scale=scale, score_mod=score_mod, prob_mod=prob_mod, ev=5)
    _check(model, [_flex_feeds(model)], tmp_path, twin=_bias_inside if 'outer' in (score_mod, prob_mod) else None)


@pytest.mark.parametrize('elem,precision,score_mod', [
    (T.FLOAT16, None, 'causal'), (T.FLOAT16, T.FLOAT, 'softcap'), (T.FLOAT, T.FLOAT, None),
    (T.DOUBLE, None, 'softcap'), (T.DOUBLE, T.DOUBLE, 'causal')])
def test_flex_attention_types(elem, precision, score_mod, tmp_path):
    model = _flex_model(elem=elem, hq=4, hkv=2, score_mod=score_mod, precision=precision)
    tolerance = (1e-2, 1e-3) if elem == T.FLOAT16 else (1e-4, 1e-5)
    _check(model, [_flex_feeds(model)], tmp_path, *tolerance)


def test_flex_attention_dynamic_sizes(tmp_path):
    """One IR, run at two batch, query and key lengths."""
    model = _flex_model(hq=4, hkv=2, score_mod='causal', prob_mod='scale', dims=('B', 'L', 'S'))
    _check(model, [_flex_feeds(model, {'B': 2, 'L': 5, 'S': 7}), _flex_feeds(model, {'B': 1, 'L': 3, 'S': 3})],
           tmp_path)


def test_flex_attention_bad_modifier(tmp_path):
    from mo.utils.error import Error
    model = _flex_model(score_mod='scale')
    model.graph.node[0].attribute[0].g.input.append(helper.make_tensor_value_info('extra', T.FLOAT, None))
    with pytest.raises(Error, match='one of each'):
        mo.convert_model(model, output_dir=str(tmp_path))
