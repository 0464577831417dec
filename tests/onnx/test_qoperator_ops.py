"""onnxruntime's QOperator int8 ops (com.microsoft QLinearAdd, QLinearMul, QLinearConcat, QLinearGlobalAveragePool,
QLinearAveragePool, QLinearLeakyRelu, QLinearSigmoid, QLinearSoftmax, QGemm, DynamicQuantizeMatMul,
MatMulIntegerToFloat, QAttention, QEmbedLayerNormalization) as single-op graphs over their attributes and uint8/int8
types: converted by mo, run by OpenVINO, compared with onnxruntime running the same graph.

Tolerance of integer outputs (``assert_quanta``): every element within 1 of onnxruntime's, and at most 2% of them
off by 1. mo emits the arithmetic of onnxruntime's kernels (requantisation half to even, saturation), but not their
exact sequence of f32 operations: the kernels fuse multiply-adds (QLinearAdd), approximate exp and the logistic
function by polynomials (MLAS) and sum in another order, so a value within an ulp or so of a .5 boundary can round
the other way. A wrong formula (another rounding mode, a missing zero point, a wrong scale) moves far more than 2% of
the elements, or by more than 1. The tests' scales are of the calibrated kind (no small-integer ratios between them):
ratios such as 0.05 / 0.03 put many values exactly on .5, where the rounding follows the last bit of each f32 step,
and mo's graph does not keep onnxruntime's order of f32 steps (OpenVINO also turns a division by a constant into a
multiplication by its reciprocal). Float outputs are compared at f32 precision relative to the output's range.
"""
import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import TensorProto, helper  # noqa: E402

from tests.onnx.onnx_oracle import make_model, run_ir, run_onnxruntime  # noqa: E402

MS = 'com.microsoft'
ONNX_TYPES = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}
TYPES = [np.uint8, np.int8]


def assert_quanta(actual, expected, max_fraction=0.02, what='output'):
    """Same shape and type; every element within 1 of ``expected``, at most ``max_fraction`` of them off by 1."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, (what, actual.shape, actual.dtype,
                                                                                 expected.shape, expected.dtype)
    difference = np.abs(actual.astype(np.int64) - expected.astype(np.int64))
    assert difference.max(initial=0) <= 1, '{}: off by {}'.format(what, difference.max())
    assert np.mean(difference) <= max_fraction, '{}: {} of {} elements off by 1'.format(
        what, int(difference.sum()), difference.size)


def assert_float(actual, expected, relative=1e-5, what='output'):
    """Within ``relative`` of the largest expected magnitude (f32 sums in another order)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, what
    np.testing.assert_allclose(actual, expected, rtol=0, atol=relative * max(1.0, np.abs(expected).max()),
                               err_msg=what)


def _run(model, feeds, tmp_path):
    import mo
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    return run_ir(result.xml_path, feeds, names), run_onnxruntime(model, feeds)


def _model(nodes, inputs, outputs, initializers):
    return make_model(nodes, inputs, outputs, initializers, opset=17, domains={MS: 1})


def _integers(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


def _zero(dtype, value):
    """A zero point near ``value`` (a uint8 offset) for ``dtype``."""
    return np.array(value if dtype == np.uint8 else value - 128, dtype)


@pytest.mark.parametrize('dtype', TYPES)
@pytest.mark.parametrize('op', ['QLinearAdd', 'QLinearMul'])
@pytest.mark.parametrize('b_shape', [[2, 3, 4, 5], [3, 1, 1], [1], [5]])
@pytest.mark.parametrize('zero_points', [True, False])
def test_qlinear_binary(op, dtype, b_shape, zero_points, tmp_path):
    rng = np.random.default_rng(1)
    init = {'a_scale': np.float32(0.0413), 'b_scale': np.float32(0.0687), 'c_scale': np.float32(0.0921 if op ==
                                                                                                'QLinearAdd' else 0.2113)}
    # without zero points (onnxruntime's type inference wants them given): zeros, the symmetric form mo leaves the
    # subtraction out of
    init.update(a_zero=_zero(dtype, 120), b_zero=_zero(dtype, 135), c_zero=_zero(dtype, 110))
    if not zero_points:
        init.update(a_zero=np.array(0, dtype), b_zero=np.array(0, dtype), c_zero=np.array(0, dtype))
    names = ['a', 'a_scale', 'a_zero', 'b', 'b_scale', 'b_zero', 'c_scale', 'c_zero']
    onnx_type = ONNX_TYPES[dtype]
    node = helper.make_node(op, names, ['c'], domain=MS)
    model = _model([node], [('a', onnx_type, [2, 3, 4, 5]), ('b', onnx_type, b_shape)], [('c', onnx_type, None)],
                   init)
    feeds = {'a': _integers(rng, dtype, [2, 3, 4, 5]), 'b': _integers(rng, dtype, b_shape)}
    (actual,), (expected,) = _run(model, feeds, tmp_path)
    assert_quanta(actual, expected)


@pytest.mark.parametrize('dtype', TYPES)
@pytest.mark.parametrize('op,attrs', [('QLinearSigmoid', {}), ('QLinearLeakyRelu', {}),
                                      ('QLinearLeakyRelu', {'alpha': 0.3})])
def test_qlinear_activations(op, attrs, dtype, tmp_path):
    onnx_type = ONNX_TYPES[dtype]
    init = {'x_scale': np.float32(0.0493), 'x_zero': _zero(dtype, 130), 'y_scale': np.float32(0.00397 if op ==
                                                                                                'QLinearSigmoid' else 0.0291),
            'y_zero': _zero(dtype, 0 if op == 'QLinearSigmoid' else 100)}
    node = helper.make_node(op, ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'], ['y'], domain=MS, **attrs)
    model = _model([node], [('x', onnx_type, [3, 256])], [('y', onnx_type, None)], init)
    x = np.tile(np.arange(256), 3).astype(np.int64) + np.iinfo(dtype).min  # every level
    (actual,), (expected,) = _run(model, {'x': x.reshape(3, 256).astype(dtype)}, tmp_path)
    assert_quanta(actual, expected)


@pytest.mark.parametrize('dtype', TYPES)
@pytest.mark.parametrize('axis', [1, -1])
def test_qlinear_concat(dtype, axis, tmp_path):
    rng = np.random.default_rng(2)
    onnx_type = ONNX_TYPES[dtype]
    init = {'y_scale': np.float32(0.0517), 'y_zero': _zero(dtype, 128)}
    names, inputs, feeds = ['y_scale', 'y_zero'], [], {}
    # the second input shares y's quantization (onnxruntime copies it), the others are requantized
    for index, (scale, zero) in enumerate([(0.0311, 100), (0.0517, 128), (0.1093, 140)]):
        x = 'x{}'.format(index)
        init[x + '_scale'], init[x + '_zero'] = np.float32(scale), _zero(dtype, zero)
        names += [x, x + '_scale', x + '_zero']
        shape = [2, 2 + index, 3] if axis == 1 else [2, 3, 2 + index]
        inputs.append((x, onnx_type, shape))
        feeds[x] = _integers(rng, dtype, shape)
    node = helper.make_node('QLinearConcat', names, ['y'], domain=MS, axis=axis)
    (actual,), (expected,) = _run(_model([node], inputs, [('y', onnx_type, None)], init), feeds, tmp_path)
    assert_quanta(actual, expected)


@pytest.mark.parametrize('dtype', TYPES)
@pytest.mark.parametrize('channels_last,shape', [(0, [2, 3, 5, 6]), (1, [2, 5, 6, 3]), (0, [1, 4, 7]),
                                                 (1, [1, 2, 3, 4, 5])])
def test_qlinear_global_average_pool(dtype, channels_last, shape, tmp_path):
    rng = np.random.default_rng(3)
    onnx_type = ONNX_TYPES[dtype]
    init = {'x_scale': np.float32(0.0493), 'x_zero': _zero(dtype, 125), 'y_scale': np.float32(0.0207),
            'y_zero': _zero(dtype, 130)}
    node = helper.make_node('QLinearGlobalAveragePool', ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'], ['y'],
                            domain=MS, channels_last=channels_last)
    model = _model([node], [('x', onnx_type, shape)], [('y', onnx_type, None)], init)
    (actual,), (expected,) = _run(model, {'x': _integers(rng, dtype, shape)}, tmp_path)
    assert_quanta(actual, expected)


@pytest.mark.parametrize('dtype', TYPES)
@pytest.mark.parametrize('attrs', [
    dict(kernel_shape=[3, 3]),
    dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
    dict(kernel_shape=[3, 3], pads=[1, 0, 1, 2], count_include_pad=1),
    dict(kernel_shape=[2, 3], strides=[2, 2], ceil_mode=1),
    dict(kernel_shape=[3, 2], auto_pad='SAME_UPPER'),
    dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], channels_last=1),
    dict(kernel_shape=[3], pads=[1, 1], strides=[2]),
])
def test_qlinear_average_pool(dtype, attrs, tmp_path):
    rng = np.random.default_rng(4)
    onnx_type = ONNX_TYPES[dtype]
    shape = [2, 3, 7, 8] if len(attrs['kernel_shape']) == 2 else [2, 3, 9]
    if attrs.get('channels_last'):
        shape = [shape[0]] + shape[2:] + [shape[1]]
    init = {'x_scale': np.float32(0.0493), 'x_zero': _zero(dtype, 125), 'y_scale': np.float32(0.0291),
            'y_zero': _zero(dtype, 120)}
    node = helper.make_node('QLinearAveragePool', ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'], ['y'], domain=MS,
                            **attrs)
    model = _model([node], [('x', onnx_type, shape)], [('y', onnx_type, None)], init)
    (actual,), (expected,) = _run(model, {'x': _integers(rng, dtype, shape)}, tmp_path)
    assert_quanta(actual, expected)


@pytest.mark.parametrize('dtype', TYPES)
@pytest.mark.parametrize('opset,axis', [(13, None), (13, 1), (12, None), (12, 1), (11, -2)])
@pytest.mark.parametrize('y_scale', [1 / 256, 0.0045])
def test_qlinear_softmax(dtype, opset, axis, y_scale, tmp_path):
    """y_scale 0.0045: onnxruntime scales by Floor(1 / y_scale) = 222, not 1 / y_scale."""
    rng = np.random.default_rng(5)
    onnx_type = ONNX_TYPES[dtype]
    attrs = {'opset': opset} if axis is None else {'opset': opset, 'axis': axis}
    init = {'x_scale': np.float32(0.08), 'x_zero': _zero(dtype, 128), 'y_scale': np.float32(y_scale),
            'y_zero': _zero(dtype, 0)}
    node = helper.make_node('QLinearSoftmax', ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'], ['y'], domain=MS,
                            **attrs)
    model = _model([node], [('x', onnx_type, [2, 4, 6])], [('y', onnx_type, None)], init)
    # inputs over half the range: no probability near 1 (onnxruntime wraps an int8 result of 128 to -128)
    x = (rng.integers(0, 128, [2, 4, 6]) + (0 if dtype == np.uint8 else -64)).astype(dtype)
    (actual,), (expected,) = _run(model, {'x': x}, tmp_path)
    assert_quanta(actual, expected)


@pytest.mark.parametrize('a_type,b_type', [(np.uint8, np.int8), (np.uint8, np.uint8), (np.int8, np.int8)])
@pytest.mark.parametrize('trans_a,trans_b', [(0, 0), (1, 1)])
@pytest.mark.parametrize('c_shape', [None, [5], [3, 5]])
@pytest.mark.parametrize('quantized_output', [True, False])
@pytest.mark.parametrize('per_column,alpha', [(False, 1.0), (True, 0.5)])
def test_qgemm(a_type, b_type, trans_a, trans_b, c_shape, quantized_output, per_column, alpha, tmp_path):
    rng = np.random.default_rng(6)
    m, k, n = 3, 16, 5
    b_quant = (n,) if per_column else ()
    init = {'a_scale': np.float32(0.0307), 'a_zero': _zero(a_type, 120),
            'b': _integers(rng, b_type, [n, k] if trans_b else [k, n]),
            'b_scale': rng.uniform(0.005, 0.02, b_quant).astype(np.float32),
            'b_zero': (rng.integers(-3, 4, b_quant) + (128 if b_type == np.uint8 else 0)).astype(b_type)}
    names = ['a', 'a_scale', 'a_zero', 'b', 'b_scale', 'b_zero']
    if c_shape:
        init['c'] = rng.integers(-2000, 2000, c_shape).astype(np.int32)
    names.append('c' if c_shape else '')
    output_type = TensorProto.FLOAT
    if quantized_output:
        init.update(y_scale=np.float32(0.2119), y_zero=_zero(a_type, 110))
        names += ['y_scale', 'y_zero']
        output_type = ONNX_TYPES[a_type]
    while not names[-1]:
        names.pop()
    node = helper.make_node('QGemm', names, ['y'], domain=MS, transA=trans_a, transB=trans_b, alpha=alpha)
    model = _model([node], [('a', ONNX_TYPES[a_type], [k, m] if trans_a else [m, k])], [('y', output_type, None)],
                   init)
    (actual,), (expected,) = _run(model, {'a': _integers(rng, a_type, [k, m] if trans_a else [m, k])}, tmp_path)
    if quantized_output:
        assert_quanta(actual, expected)
    else:
        assert_float(actual, expected)


def _dynamic_quantum(a):
    """The step of DynamicQuantizeLinear's uint8 quantization of ``a`` (its range widened to 0, over 255 levels)."""
    return (max(a.max(), 0) - min(a.min(), 0)) / 255


@pytest.mark.parametrize('b_type', TYPES)
@pytest.mark.parametrize('per_column', [False, True])
@pytest.mark.parametrize('zero_point,bias', [(True, True), (False, False)])
def test_dynamic_quantize_matmul(b_type, per_column, zero_point, bias, tmp_path):
    rng = np.random.default_rng(7)
    k, n = 12, 6
    shape = (n,) if per_column else ()
    init = {'b': _integers(rng, b_type, [k, n]), 'b_scale': rng.uniform(0.01, 0.03, shape).astype(np.float32)}
    names = ['a', 'b', 'b_scale']
    if zero_point:
        init['b_zero'] = (rng.integers(-3, 4, shape) + (128 if b_type == np.uint8 else 0)).astype(b_type)
    names.append('b_zero' if zero_point else '')
    if bias:
        init['bias'] = rng.normal(0, 1, [n]).astype(np.float32)
        names.append('bias')
    while not names[-1]:
        names.pop()
    node = helper.make_node('DynamicQuantizeMatMul', names, ['y'], domain=MS)
    model = _model([node], [('a', TensorProto.FLOAT, [2, 4, k])], [('y', TensorProto.FLOAT, None)], init)
    a = rng.normal(0.3, 1, [2, 4, k]).astype(np.float32)
    (actual,), (expected,) = _run(model, {'a': a}, tmp_path)
    # A's levels are computed as onnxruntime's; one level may still round the other way at a tie: one level of one
    # element of a row moves its outputs by at most quantum * b_scale * max|B - b_zero|
    centered = np.abs(init['b'].astype(np.float64) - np.asarray(init.get('b_zero', 0), np.float64))
    tolerance = _dynamic_quantum(a) * np.max(init['b_scale'] * centered.max(axis=0)) * 1.001 + 1e-5
    np.testing.assert_allclose(actual, expected, rtol=0, atol=tolerance)


@pytest.mark.parametrize('a_type,b_type', [(np.uint8, np.int8), (np.uint8, np.uint8), (np.int8, np.int8)])
@pytest.mark.parametrize('per_column', [False, True])
@pytest.mark.parametrize('zero_points,bias', [(True, True), (False, False), (True, False)])
def test_matmul_integer_to_float(a_type, b_type, per_column, zero_points, bias, tmp_path):
    rng = np.random.default_rng(8)
    k, n = 12, 6
    shape = (n,) if per_column else ()
    init = {'b': _integers(rng, b_type, [k, n]), 'a_scale': np.float32(0.02),
            'b_scale': rng.uniform(0.01, 0.03, shape).astype(np.float32)}
    names = ['a', 'b', 'a_scale', 'b_scale', '', '', '']
    if zero_points:
        init.update(a_zero=_zero(a_type, 125),
                    b_zero=(rng.integers(-3, 4, shape) + (128 if b_type == np.uint8 else 0)).astype(b_type))
        names[4:6] = ['a_zero', 'b_zero']
    if bias:
        init['bias'] = rng.normal(0, 1, [n]).astype(np.float32)
        names[6] = 'bias'
    while not names[-1]:
        names.pop()
    node = helper.make_node('MatMulIntegerToFloat', names, ['y'], domain=MS)
    model = _model([node], [('a', ONNX_TYPES[a_type], [2, 3, k])], [('y', TensorProto.FLOAT, None)], init)
    (actual,), (expected,) = _run(model, {'a': _integers(rng, a_type, [2, 3, k])}, tmp_path)
    assert_float(actual, expected)


@pytest.mark.parametrize('weight_type', TYPES)
@pytest.mark.parametrize('mask', [None, 'lengths', 'keys'])
@pytest.mark.parametrize('unidirectional,past', [(0, False), (1, False), (1, True)])
def test_qattention(weight_type, mask, unidirectional, past, tmp_path):
    rng = np.random.default_rng(9)
    batch, length, heads, head, past_length = 2, 4, 2, 4, 3
    hidden = heads * head
    init = {'weight': _integers(rng, weight_type, [hidden, 3 * hidden]),
            'bias': rng.normal(0, 0.5, [3 * hidden]).astype(np.float32), 'input_scale': np.float32(0.02),
            'weight_scale': np.float32(0.01), 'input_zero': np.uint8(127),
            'weight_zero': _zero(weight_type, 130)}
    names = ['input', 'weight', 'bias', 'input_scale', 'weight_scale', 'mask_index' if mask else '', 'input_zero',
             'weight_zero', 'past' if past else '']
    while not names[-1]:
        names.pop()
    inputs = [('input', TensorProto.UINT8, [batch, length, hidden])]
    feeds = {'input': _integers(rng, np.uint8, [batch, length, hidden])}
    total = length + (past_length if past else 0)
    if mask == 'lengths':
        feeds['mask_index'] = np.array([total - 1, total], np.int32)
    elif mask == 'keys':
        feeds['mask_index'] = (rng.uniform(size=[batch, total]) < 0.7).astype(np.int32)
        feeds['mask_index'][:, 0] = 1
    if mask:
        inputs.append(('mask_index', TensorProto.INT32, list(feeds['mask_index'].shape)))
    if past:
        feeds['past'] = rng.normal(0, 1, [2, batch, heads, past_length, head]).astype(np.float32)
        inputs.append(('past', TensorProto.FLOAT, [2, batch, heads, past_length, head]))
    outputs = ['y', 'present'] if past else ['y']
    node = helper.make_node('QAttention', names, outputs, domain=MS, num_heads=heads,
                            unidirectional=unidirectional)
    model = _model([node], inputs, [(o, TensorProto.FLOAT, None) for o in outputs], init)
    actual, expected = _run(model, feeds, tmp_path)
    for name, a, e in zip(outputs, actual, expected):
        assert_float(a, e, what=name)


@pytest.mark.parametrize('table_type', TYPES)
@pytest.mark.parametrize('segments,mask', [(True, True), (False, False), (True, False)])
def test_qembed_layer_normalization(table_type, segments, mask, tmp_path):
    rng = np.random.default_rng(10)
    batch, length, hidden, vocab = 2, 5, 8, 20
    tables = {'word': [vocab, hidden], 'position': [16, hidden], 'segment': [2, hidden], 'gamma': [hidden],
              'beta': [hidden]}
    init = {}
    for name, shape in tables.items():
        init[name] = _integers(rng, table_type, shape)
        init[name + '_scale'] = np.float32(rng.uniform(0.005, 0.02))
        init[name + '_zero'] = _zero(table_type, int(rng.integers(100, 150)))
    names = ['ids', 'segment_ids' if segments else '', 'word', 'position', 'segment' if segments else '', 'gamma',
             'beta', 'mask' if mask else '']
    for suffix in ('_scale', '_zero'):
        names += [name + suffix if name != 'segment' or segments else '' for name in tables]
    if not segments:
        for name in ('segment', 'segment_scale', 'segment_zero'):
            del init[name]
    inputs = [('ids', TensorProto.INT32, [batch, length])]
    feeds = {'ids': rng.integers(0, vocab, [batch, length]).astype(np.int32)}
    if segments:
        inputs.append(('segment_ids', TensorProto.INT32, [batch, length]))
        feeds['segment_ids'] = rng.integers(0, 2, [batch, length]).astype(np.int32)
    if mask:
        inputs.append(('mask', TensorProto.INT32, [batch, length]))
        feeds['mask'] = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)
    node = helper.make_node('QEmbedLayerNormalization', names, ['y', 'mask_index'], domain=MS, epsilon=1e-5)
    model = _model([node], inputs, [('y', TensorProto.FLOAT, None), ('mask_index', TensorProto.INT32, None)], init)
    (y, mask_index), (expected_y, expected_mask_index) = _run(model, feeds, tmp_path)
    assert_float(y, expected_y, relative=1e-4)
    np.testing.assert_array_equal(mask_index, expected_mask_index)


@pytest.mark.parametrize('op,inputs,attrs,message', [
    ('QLinearSoftmax', ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'], {}, 'opset is required'),
    ('QLinearConcat', ['y_scale', 'y_zero', 'x', 'x_scale', 'x_zero'], {}, 'axis is required'),
    ('QLinearAveragePool', ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'],
     dict(kernel_shape=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1, count_include_pad=1), 'count_include_pad with ceil_mode'),
    ('QLinearGlobalAveragePool', ['x', 'x_scale', 'x_zero', 'y_scale', 'y_zero'], dict(channels_last=2),
     'channels_last must be 0 or 1'),
    ('QAttention', ['x', 'w', 'bias', 'x_scale', 'w_scale'], dict(num_heads=2, do_rotary=1), 'do_rotary'),
    ('QLinearAdd', ['i16', 'x_scale', '', 'i16', 'x_scale', '', 'y_scale', ''], {}, 'not int8 or uint8'),
])
def test_bad_qoperator_nodes(op, inputs, attrs, message, tmp_path):
    """A QOperator node mo cannot convert is one error naming it and what is wrong."""
    import mo
    init = {'x_scale': np.float32(0.1), 'x_zero': np.uint8(128), 'y_scale': np.float32(0.1), 'y_zero': np.uint8(128),
            'w': np.zeros([8, 24], np.int8), 'w_scale': np.float32(0.1), 'bias': np.zeros([24], np.float32)}
    types = {'x': (TensorProto.UINT8, [1, 2, 4, 4] if op != 'QAttention' else [1, 3, 8]),
             'i16': (TensorProto.INT16, [2, 3])}
    graph_inputs = [(name, *types[name]) for name in dict.fromkeys(inputs) if name in types]
    node = helper.make_node(op, inputs, ['y'], domain=MS, name='bad_node', **attrs)
    model = _model([node], graph_inputs, [('y', TensorProto.FLOAT, None)],
                   {k: v for k, v in init.items() if k in inputs})
    with pytest.raises(mo.Error, match=message) as error:
        mo.convert_model(model, output_dir=str(tmp_path))
    assert 'bad_node' in str(error.value)
