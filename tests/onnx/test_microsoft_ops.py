"""The com.microsoft ops onnxruntime's transformer optimizer writes (Gelu, FastGelu, BiasGelu, QuickGelu,
SkipLayerNormalization, SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization, FusedMatMul, FusedConv,
EmbedLayerNormalization), converted by mo and run in OpenVINO, against onnxruntime running the same model (it runs
these ops natively; where its CPU has no kernel for an op or a domain, onnxruntime runs the same computation in the
form it has one for)."""
import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto, helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402

MS = 'com.microsoft'
TYPES = {'f32': (np.float32, TensorProto.FLOAT), 'f16': (np.float16, TensorProto.FLOAT16)}
# f16 results: onnxruntime computes some contrib ops in f16 steps, OpenVINO in f32
TOLERANCE = {'f32': dict(rtol=1e-4, atol=1e-5), 'f16': dict(rtol=1e-2, atol=1e-2)}


def _model(node, inputs, outputs, initializers=()):
    return make_model([node], inputs, outputs, initializers, opset=17, domains={MS: 1})


def _random(shape, dtype, seed=0, low=-3.0, high=3.0):
    return np.random.default_rng(seed).uniform(low, high, shape).astype(dtype)


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('op,bias', [('Gelu', False), ('FastGelu', False), ('FastGelu', True), ('BiasGelu', True)])
def test_gelu_family(tmp_path, kind, op, bias):
    dtype, onnx_type = TYPES[kind]
    inputs = [('x', onnx_type, [2, 3, 8])] + ([('bias', onnx_type, [8])] if bias else [])
    node = helper.make_node(op, [i[0] for i in inputs], ['y'], domain=MS)
    feeds = {'x': _random([2, 3, 8], dtype)}
    if bias:
        feeds['bias'] = _random([8], dtype, seed=1)
    check_model(_model(node, inputs, [('y', onnx_type, None)]), feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('alpha', [None, 1.0, -0.5])
def test_quick_gelu(tmp_path, kind, alpha):
    dtype, onnx_type = TYPES[kind]
    attrs = {} if alpha is None else {'alpha': alpha}
    node = helper.make_node('QuickGelu', ['x'], ['y'], domain=MS, **attrs)
    model = _model(node, [('x', onnx_type, [4, 6])], [('y', onnx_type, None)])
    check_model(model, {'x': _random([4, 6], dtype)}, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('beta,bias', [(False, False), (True, False), (True, True), (False, True)])
@pytest.mark.parametrize('epsilon', [None, 1e-3])
def test_skip_layer_normalization(tmp_path, kind, beta, bias, epsilon):
    dtype, onnx_type = TYPES[kind]
    hidden = 16
    inputs = [('input', onnx_type, [2, 5, hidden]), ('skip', onnx_type, [2, 5, hidden]),
              ('gamma', onnx_type, [hidden])]
    names = ['input', 'skip', 'gamma', 'beta' if beta else '', 'bias' if bias else '']
    while names[-1] == '':
        names.pop()
    inputs += [(n, onnx_type, [hidden]) for n in names[3:] if n]
    attrs = {} if epsilon is None else {'epsilon': epsilon}
    node = helper.make_node('SkipLayerNormalization', names, ['output', '', '', 'sum'], domain=MS, **attrs)
    outputs = [('output', onnx_type, None), ('sum', onnx_type, None)]
    feeds = {name: _random(shape, dtype, seed=i) for i, (name, _, shape) in enumerate(inputs)}
    check_model(_model(node, inputs, outputs), feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('trans_a,trans_b', [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize('alpha', [None, 0.125])
def test_fused_matmul(tmp_path, kind, trans_a, trans_b, alpha):
    dtype, onnx_type = TYPES[kind]
    a_shape = [2, 5, 3] if trans_a else [2, 3, 5]
    b_shape = [4, 5] if trans_b else [5, 4]
    attrs = {'transA': trans_a, 'transB': trans_b}
    if alpha is not None:
        attrs['alpha'] = alpha
    node = helper.make_node('FusedMatMul', ['a', 'b'], ['y'], domain=MS, **attrs)
    model = _model(node, [('a', onnx_type, a_shape), ('b', onnx_type, b_shape)], [('y', onnx_type, None)])
    feeds = {'a': _random(a_shape, dtype), 'b': _random(b_shape, dtype, seed=1)}
    check_model(model, feeds, tmp_path, **TOLERANCE[kind])


ACTIVATIONS = [(None, None), ('Relu', None), ('Tanh', None), ('Sigmoid', None), ('LeakyRelu', [0.2]),
               ('Clip', [-1.0, 2.0]), ('HardSigmoid', [0.3, 0.4])]


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('activation,params', ACTIVATIONS)
@pytest.mark.parametrize('bias,z', [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize('group', [1, 2])
def test_fused_conv(tmp_path, kind, activation, params, bias, z, group):
    dtype, onnx_type = TYPES[kind]
    attrs = {'group': group, 'pads': [1, 0, 1, 0], 'strides': [1, 2]}
    if activation:
        attrs['activation'] = activation
    if params:
        attrs['activation_params'] = params
    names = ['x', 'w'] + (['b'] if bias else []) + (['z'] if z else [])
    node = helper.make_node('FusedConv', names, ['y'], domain=MS, **attrs)
    shapes = {'x': [1, 4, 6, 6], 'w': [6, 4 // group, 3, 3], 'b': [6], 'z': [1, 6, 6, 2]}
    inputs = [(n, onnx_type, shapes[n]) for n in names]
    feeds = {n: _random(shapes[n], dtype, seed=i, low=-1, high=1) for i, n in enumerate(names)}
    check_model(_model(node, inputs, [('y', onnx_type, None)]), feeds, tmp_path, **TOLERANCE[kind])


def test_fused_matmul_trans_batch_is_an_error(tmp_path):
    import mo
    from mo.utils.error import Error
    node = helper.make_node('FusedMatMul', ['a', 'b'], ['y'], domain=MS, transBatchA=1)
    model = _model(node, [('a', TensorProto.FLOAT, [2, 3, 5]), ('b', TensorProto.FLOAT, [5, 4])],
                   [('y', TensorProto.FLOAT, None)])
    with pytest.raises(Error, match='transBatchA'):
        mo.convert_model(model, output_dir=str(tmp_path))


@pytest.mark.parametrize('kind', ['f32', 'f16'])
def test_skip_layer_normalization_statistics(tmp_path, kind):
    # mean and inv_std_var ([..., 1], float32 always) besides the output and the sum; skip broadcast from [S, H]
    dtype, onnx_type = TYPES[kind]
    inputs = [('input', onnx_type, [2, 5, 16]), ('skip', onnx_type, [5, 16]), ('gamma', onnx_type, [16]),
              ('beta', onnx_type, [16]), ('bias', onnx_type, [16])]
    node = helper.make_node('SkipLayerNormalization', [i[0] for i in inputs], ['output', 'mean', 'inv', 'sum'],
                            domain=MS, epsilon=1e-3)
    outputs = [('output', onnx_type, None), ('mean', TensorProto.FLOAT, None), ('inv', TensorProto.FLOAT, None),
               ('sum', onnx_type, None)]
    feeds = {name: _random(shape, dtype, seed=i) for i, (name, _, shape) in enumerate(inputs)}
    check_model(_model(node, inputs, outputs), feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('segments', [False, True])
@pytest.mark.parametrize('mask', [False, True])
@pytest.mark.parametrize('position_ids', [False, True])
def test_embed_layer_normalization(tmp_path, kind, segments, mask, position_ids):
    dtype, onnx_type = TYPES[kind]
    batch, length, hidden, vocab = 2, 6, 8, 11
    rng = np.random.default_rng(3)
    feeds = {'input_ids': rng.integers(0, vocab, [batch, length]).astype(np.int32)}
    initializers = {'word': _random([vocab, hidden], dtype, 1), 'position': _random([length + 2, hidden], dtype, 2),
                    'gamma': _random([hidden], dtype, 3), 'beta': _random([hidden], dtype, 4)}
    names = ['input_ids', '', 'word', 'position', '', 'gamma', 'beta', '', '']
    inputs = [('input_ids', TensorProto.INT32, [batch, length])]
    if segments:
        names[1], names[4] = 'segment_ids', 'segment'
        feeds['segment_ids'] = rng.integers(0, 2, [batch, length]).astype(np.int32)
        initializers['segment'] = _random([2, hidden], dtype, 5)
        inputs.append(('segment_ids', TensorProto.INT32, [batch, length]))
    if mask:
        names[7] = 'mask'
        feeds['mask'] = (rng.uniform(size=[batch, length]) < 0.7).astype(np.int32)
        inputs.append(('mask', TensorProto.INT32, [batch, length]))
    if position_ids:
        names[8] = 'position_ids'
        feeds['position_ids'] = rng.integers(0, length + 2, [batch, length]).astype(np.int32)
        inputs.append(('position_ids', TensorProto.INT32, [batch, length]))
    while names[-1] == '':
        names.pop()
    node = helper.make_node('EmbedLayerNormalization', names, ['output', 'mask_index', 'embedding_sum'], domain=MS,
                            epsilon=1e-5)
    outputs = [('output', onnx_type, None), ('mask_index', TensorProto.INT32, None), ('embedding_sum', onnx_type, None)]
    check_model(_model(node, inputs, outputs, initializers), feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('attrs,message', [({'activation': 'Elu'}, 'activation "Elu"'),
                                           ({'activation': 'Clip', 'activation_params': [0.0]}, 'activation_params')])
def test_fused_conv_bad_activation_is_an_error(tmp_path, attrs, message):
    import mo
    from mo.utils.error import Error
    node = helper.make_node('FusedConv', ['x', 'w'], ['y'], domain=MS, **attrs)
    model = _model(node, [('x', TensorProto.FLOAT, [1, 2, 4, 4]), ('w', TensorProto.FLOAT, [3, 2, 3, 3])],
                   [('y', TensorProto.FLOAT, None)])
    with pytest.raises(Error, match=message):
        mo.convert_model(model, output_dir=str(tmp_path))


def _check_against(model, reference, feeds, tmp_path, rtol, atol):
    """Convert ``model`` with mo and compare its IR in OpenVINO with onnxruntime running ``reference`` (the same
    computation in a form onnxruntime's CPU runs: another domain, or standard ops where it has no kernel)."""
    import mo
    from tests.onnx.onnx_oracle import assert_close, run_ir, run_onnxruntime
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    expected = run_onnxruntime(reference, feeds)
    for name, a, e in zip(names, run_ir(result.xml_path, feeds, names), expected):
        assert_close(a, e, rtol, atol, 'output "{}"'.format(name))


def _convert_error(model, tmp_path, message):
    import mo
    from mo.utils.error import Error
    with pytest.raises(Error, match=message):
        mo.convert_model(model, output_dir=str(tmp_path))


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('shape,axis', [([2, 5, 16], None), ([2, 5, 16], -1), ([2, 5, 16], 1), ([6, 16], -2),
                                        ([2, 3, 4, 8], -2), ([2, 3, 4, 8], 0)])
@pytest.mark.parametrize('epsilon', [None, 1e-3])
@pytest.mark.parametrize('inv_std_var', [False, True])
@pytest.mark.parametrize('domain', ['', MS])
def test_simplified_layer_normalization(tmp_path, kind, shape, axis, epsilon, inv_std_var, domain):
    # onnxruntime writes it in the default domain (its CPU kernel is registered there); com.microsoft converts alike
    dtype, onnx_type = TYPES[kind]
    attrs = {k: v for k, v in (('axis', axis), ('epsilon', epsilon)) if v is not None}
    first = (axis if axis is not None else -1) % len(shape)
    scale_shape = shape[first:]
    outputs = [('y', onnx_type, None)] + ([('inv', TensorProto.FLOAT, None)] if inv_std_var else [])

    def model(node_domain):
        node = helper.make_node('SimplifiedLayerNormalization', ['x', 'scale'], [o[0] for o in outputs],
                                domain=node_domain, **attrs)
        return make_model([node], [('x', onnx_type, shape), ('scale', onnx_type, scale_shape)], outputs, opset=17,
                          domains={MS: 1})
    feeds = {'x': _random(shape, dtype), 'scale': _random(scale_shape, dtype, seed=1)}
    _check_against(model(domain), model(''), feeds, tmp_path, **TOLERANCE[kind])


SKIP_SHAPES = {'3d': ([2, 5, 16], [2, 5, 16]), 'skip_2d': ([2, 5, 16], [5, 16]), 'skip_1sh': ([2, 5, 16], [1, 5, 16]),
               '2d': ([7, 16], [7, 16])}


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('shapes', sorted(SKIP_SHAPES))
@pytest.mark.parametrize('bias', [False, True])
@pytest.mark.parametrize('epsilon', [None, 1e-3])
@pytest.mark.parametrize('read', ['output', 'sum', 'inv', 'mean', 'all'])
def test_skip_simplified_layer_normalization(tmp_path, kind, shapes, bias, epsilon, read):
    # input 3 is the bias here (SkipLayerNormalization's is input 4, after beta); mean is zeros, inv_std_var float32
    dtype, onnx_type = TYPES[kind]
    input_shape, skip_shape = SKIP_SHAPES[shapes]
    inputs = [('input', onnx_type, input_shape), ('skip', onnx_type, skip_shape), ('gamma', onnx_type, [16])]
    if bias:
        inputs.append(('bias', onnx_type, [16]))
    wanted = {'output': ['output'], 'sum': ['output', 'sum'], 'inv': ['output', 'inv'], 'mean': ['output', 'mean'],
              'all': ['output', 'mean', 'inv', 'sum']}[read]
    names = [n if n in wanted else '' for n in ('output', 'mean', 'inv', 'sum')]
    while names[-1] == '':
        names.pop()
    attrs = {} if epsilon is None else {'epsilon': epsilon}
    node = helper.make_node('SkipSimplifiedLayerNormalization', [i[0] for i in inputs], names, domain=MS, **attrs)
    types = {'output': onnx_type, 'mean': TensorProto.FLOAT, 'inv': TensorProto.FLOAT, 'sum': onnx_type}
    outputs = [(n, types[n], None) for n in wanted]
    feeds = {name: _random(shape, dtype, seed=i) for i, (name, _, shape) in enumerate(inputs)}
    check_model(_model(node, inputs, outputs), feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('shapes', sorted(SKIP_SHAPES))
@pytest.mark.parametrize('beta,bias', [(False, False), (True, True), (False, True)])
@pytest.mark.parametrize('read', ['mean', 'inv', 'all'])
def test_skip_layer_normalization_outputs(tmp_path, kind, shapes, beta, bias, read):
    # each optional output read alone or all together, the skip broadcast, 2-D input
    dtype, onnx_type = TYPES[kind]
    input_shape, skip_shape = SKIP_SHAPES[shapes]
    inputs = [('input', onnx_type, input_shape), ('skip', onnx_type, skip_shape), ('gamma', onnx_type, [16])]
    names = ['input', 'skip', 'gamma', 'beta' if beta else '', 'bias' if bias else '']
    while names[-1] == '':
        names.pop()
    inputs += [(n, onnx_type, [16]) for n in names[3:] if n]
    wanted = {'mean': ['output', 'mean'], 'inv': ['output', 'inv'], 'all': ['output', 'mean', 'inv', 'sum']}[read]
    outs = [n if n in wanted else '' for n in ('output', 'mean', 'inv', 'sum')]
    while outs[-1] == '':
        outs.pop()
    node = helper.make_node('SkipLayerNormalization', names, outs, domain=MS, epsilon=1e-4)
    types = {'output': onnx_type, 'mean': TensorProto.FLOAT, 'inv': TensorProto.FLOAT, 'sum': onnx_type}
    feeds = {name: _random(shape, dtype, seed=i) for i, (name, _, shape) in enumerate(inputs)}
    check_model(_model(node, inputs, [(n, types[n], None) for n in wanted]), feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('op,attrs,message', [
    ('SimplifiedLayerNormalization', {'stash_type': 11}, 'stash_type 11'),
    ('SimplifiedLayerNormalization', {'epsilon': -1e-5}, 'epsilon'),
    ('SkipSimplifiedLayerNormalization', {'epsilon': -1.0}, 'epsilon')])
def test_simplified_layer_normalization_bad_attributes(tmp_path, op, attrs, message):
    inputs = ['x', 'scale'] if op == 'SimplifiedLayerNormalization' else ['x', 'skip', 'scale']
    shapes = {'x': [2, 8], 'skip': [2, 8], 'scale': [8]}
    node = helper.make_node(op, inputs, ['y'], domain='' if op == 'SimplifiedLayerNormalization' else MS, **attrs)
    model = _model(node, [(n, TensorProto.FLOAT, shapes[n]) for n in inputs], [('y', TensorProto.FLOAT, None)])
    _convert_error(model, tmp_path, message)


#: FusedGemm's activations with the activation_* attributes onnxruntime needs for each
GEMM_ACTIVATIONS = [('Relu', {}), ('Tanh', {}), ('Sigmoid', {}), ('Softplus', {}), ('Softsign', {}),
                    ('LeakyRelu', {'alpha': 0.2}), ('Elu', {'alpha': 0.7}), ('Celu', {'alpha': 1.5}),
                    ('ThresholdedRelu', {'alpha': 0.4}), ('HardSigmoid', {'alpha': 0.3, 'beta': 0.4}),
                    ('Selu', {'alpha': 1.2, 'gamma': 0.9}), ('ParametricSoftplus', {'alpha': 0.8, 'beta': 1.7}),
                    ('ScaledTanh', {'alpha': 1.3, 'beta': 0.6}),
                    # an attribute the activation does not read is ignored
                    ('LeakyRelu', {'alpha': 0.05, 'beta': 3.0, 'gamma': 2.0})]


def _gemm_case(kind, trans_a, trans_b, c_shape, attrs, op='FusedGemm', domain=MS):
    dtype, onnx_type = TYPES[kind]
    m, k, n = 3, 4, 5
    shapes = {'a': [k, m] if trans_a else [m, k], 'b': [n, k] if trans_b else [k, n], 'c': c_shape}
    names = ['a', 'b'] + (['c'] if c_shape is not None else [])
    node = helper.make_node(op, names, ['y'], domain=domain, transA=trans_a, transB=trans_b, **attrs)
    model = _model(node, [(x, onnx_type, shapes[x]) for x in names], [('y', onnx_type, None)])
    feeds = {x: _random(shapes[x], dtype, seed=i, low=-2, high=2) for i, x in enumerate(names)}
    return model, feeds


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('activation,params', GEMM_ACTIVATIONS)
@pytest.mark.parametrize('trans_a,trans_b', [(0, 0), (1, 1)])
@pytest.mark.parametrize('c_shape', [None, [5], [3, 5]])
def test_fused_gemm_activations(tmp_path, kind, activation, params, trans_a, trans_b, c_shape):
    attrs = dict({'activation_' + k: v for k, v in params.items()}, activation=activation)
    model, feeds = _gemm_case(kind, trans_a, trans_b, c_shape, attrs)
    check_model(model, feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('trans_a,trans_b', [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize('c_shape', [None, [], [1], [5], [1, 5], [3, 1], [3, 5]])
@pytest.mark.parametrize('alpha,beta', [(None, None), (0.5, None), (None, 0.0), (2.0, -1.5)])
def test_fused_gemm_gemm_attributes(tmp_path, kind, trans_a, trans_b, c_shape, alpha, beta):
    attrs = {'activation': 'LeakyRelu', 'activation_alpha': 0.1}
    attrs.update({k: v for k, v in (('alpha', alpha), ('beta', beta)) if v is not None})
    model, feeds = _gemm_case(kind, trans_a, trans_b, c_shape, attrs)
    check_model(model, feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('c_shape', [None, [5]])
def test_fused_gemm_without_activation(tmp_path, kind, c_shape):
    # onnxruntime's kernel refuses FusedGemm without an activation; mo reads it as the Gemm alone, so the reference is
    # onnxruntime's Gemm
    attrs = {'alpha': 0.5, 'beta': 2.0}
    model, feeds = _gemm_case(kind, 1, 0, c_shape, attrs)
    reference, _ = _gemm_case(kind, 1, 0, c_shape, attrs, op='Gemm', domain='')
    _check_against(model, reference, feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('attrs,message', [
    ({'activation': 'Gelu'}, 'activation "Gelu"'),
    ({'activation': 'LeakyRelu'}, 'activation_alpha'),
    ({'activation': 'HardSigmoid', 'activation_alpha': 0.2}, 'activation_beta'),
    ({'activation': 'Selu', 'activation_alpha': 1.0, 'activation_beta': 1.0}, 'activation_gamma')])
def test_fused_gemm_bad_activation_is_an_error(tmp_path, attrs, message):
    model, _ = _gemm_case('f32', 0, 0, None, attrs)
    _convert_error(model, tmp_path, message)


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('shapes', [([2, 6, 8], [8], [2, 6, 8]), ([1, 4, 3], [3], [1, 4, 3]),
                                    ([2, 6, 8], [8], [1, 6, 8])])
def test_bias_add(tmp_path, kind, shapes):
    # onnxruntime registers BiasAdd for its GPU only: the reference is onnxruntime's Add(Add(X, bias), skip)
    dtype, onnx_type = TYPES[kind]
    names = ['x', 'bias', 'skip']
    inputs = [(n, onnx_type, s) for n, s in zip(names, shapes)]
    model = _model(helper.make_node('BiasAdd', names, ['y'], domain=MS), inputs, [('y', onnx_type, None)])
    adds = [helper.make_node('Add', ['x', 'bias'], ['xb']), helper.make_node('Add', ['xb', 'skip'], ['y'])]
    reference = make_model(adds, inputs, [('y', onnx_type, None)], opset=17)
    feeds = {n: _random(s, dtype, seed=i) for i, (n, s) in enumerate(zip(names, shapes))}
    _check_against(model, reference, feeds, tmp_path, **TOLERANCE[kind])


@pytest.mark.parametrize('kind', ['f32', 'f16'])
@pytest.mark.parametrize('activation,params', [('Relu', None), ('LeakyRelu', [0.3]), ('Clip', [-0.5, 0.5]),
                                               ('HardSigmoid', [0.25, 0.5]), ('Sigmoid', None), ('Tanh', None)])
@pytest.mark.parametrize('rank', [1, 3])
def test_fused_conv_1d_3d(tmp_path, kind, activation, params, rank):
    # every activation onnxruntime's FusedConv takes (MLAS's: Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid)
    # on 1-D (dilated, padded) and 3-D (strided, SAME_UPPER: onnxruntime has no dilation with it) convolutions, with
    # the sum input Z
    dtype, onnx_type = TYPES[kind]
    spatial = [7] * rank if rank == 1 else [4] * rank
    attrs = {'activation': activation, 'dilations': [2], 'pads': [2, 2]} if rank == 1 else \
        {'activation': activation, 'strides': [2] * rank, 'auto_pad': 'SAME_UPPER'}
    if params:
        attrs['activation_params'] = params
    node = helper.make_node('FusedConv', ['x', 'w', 'b', 'z'], ['y'], domain=MS, **attrs)
    out_spatial = spatial if rank == 1 else [2] * rank
    shapes = {'x': [1, 3] + spatial, 'w': [4, 3] + [3] * rank, 'b': [4], 'z': [1, 4] + out_spatial}
    inputs = [(n, onnx_type, shapes[n]) for n in ('x', 'w', 'b', 'z')]
    feeds = {n: _random(shapes[n], dtype, seed=i, low=-1, high=1) for i, n in enumerate(shapes)}
    check_model(_model(node, inputs, [('y', onnx_type, None)]), feeds, tmp_path, **TOLERANCE[kind])

