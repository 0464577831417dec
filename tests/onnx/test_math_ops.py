"""ONNX math ops (reductions, normalizations, arg-reductions, activations, Clip, Pow, Div, Gemm) against
onnxruntime, on the attribute / version / dtype combinations the backend suite leaves out."""
import numpy as np
import pytest

from tests.onnx.onnx_oracle import check_model, make_model

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import TensorProto, helper  # noqa: E402

F32, I32, I64 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64
RNG = np.random.default_rng(0)


def _one_op(op, inputs, out_type, opset, initializers=None, **attrs):
    """A model of one ``op`` node reading ``inputs`` (name, type, shape) and the initializers."""
    names = [i[0] for i in inputs] + list(initializers or {})
    node = helper.make_node(op, names, ['y'], **attrs)
    return make_model([node], inputs, [helper.make_tensor_value_info('y', out_type, None)],
                      initializers=initializers or {}, opset=opset)


@pytest.mark.parametrize('opset', [11, 13])
@pytest.mark.parametrize('op', ['Softmax', 'LogSoftmax', 'Hardmax'])
@pytest.mark.parametrize('axis', [0, 1, -1, -2])
def test_softmax_family(tmp_path, op, axis, opset):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    x[0, 0, :2] = 5.0  # ties for Hardmax: the first one wins
    check_model(_one_op(op, [('x', F32, [2, 3, 4])], F32, opset, axis=axis), {'x': x}, tmp_path)


@pytest.mark.parametrize('op', ['ArgMax', 'ArgMin'])
@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('select_last_index', [0, 1])
@pytest.mark.parametrize('axis', [0, -1])
def test_arg_reductions(tmp_path, op, keepdims, select_last_index, axis):
    x = RNG.integers(0, 3, (3, 4)).astype(np.float32)  # many ties
    model = _one_op(op, [('x', F32, [3, 4])], I64, 13, axis=axis, keepdims=keepdims,
                    select_last_index=select_last_index)
    check_model(model, {'x': x}, tmp_path)


_REDUCTIONS = ['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2',
               'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare']


@pytest.mark.parametrize('op', _REDUCTIONS)
@pytest.mark.parametrize('axes', [None, [1], [0, -1]])
@pytest.mark.parametrize('keepdims', [0, 1])
def test_reductions_axes_attribute(tmp_path, op, axes, keepdims):
    x = RNG.uniform(0.5, 2.0, (2, 3, 4)).astype(np.float32)
    attrs = {'keepdims': keepdims} if axes is None else {'keepdims': keepdims, 'axes': axes}
    check_model(_one_op(op, [('x', F32, [2, 3, 4])], F32, 11, **attrs), {'x': x}, tmp_path)


@pytest.mark.parametrize('op', _REDUCTIONS)
@pytest.mark.parametrize('axes', [[], [1], [0, -1]])
@pytest.mark.parametrize('noop', [0, 1])
def test_reductions_axes_initializer(tmp_path, op, axes, noop):
    x = RNG.uniform(0.5, 2.0, (2, 3, 4)).astype(np.float32)
    model = _one_op(op, [('x', F32, [2, 3, 4])], F32, 18, initializers={'axes': np.array(axes, np.int64)},
                    keepdims=0, noop_with_empty_axes=noop)
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('dtype, elem', [(np.float32, F32), (np.int32, I32), (np.int64, I64)])
@pytest.mark.parametrize('bounds', ['both', 'min', 'max', 'none'])
def test_clip_inputs(tmp_path, dtype, elem, bounds):
    x = (RNG.standard_normal((3, 4)) * 10).astype(dtype)
    inits = {'min': np.array(-3, dtype), 'max': np.array(4, dtype)}
    names = {'both': ['x', 'min', 'max'], 'min': ['x', 'min'], 'max': ['x', '', 'max'], 'none': ['x']}[bounds]
    node = helper.make_node('Clip', names, ['y'])
    model = make_model([node], [('x', elem, [3, 4])], [helper.make_tensor_value_info('y', elem, None)],
                       initializers={k: v for k, v in inits.items() if k in names}, opset=13)
    check_model(model, {'x': x}, tmp_path)


def test_clip_attributes(tmp_path):
    x = (RNG.standard_normal((3, 4)) * 10).astype(np.float32)
    check_model(_one_op('Clip', [('x', F32, [3, 4])], F32, 6, min=-2.0, max=3.5), {'x': x}, tmp_path)


@pytest.mark.parametrize('positive, negative', [(1, 1), (1, 0), (0, 1), (0, 0)])
def test_isinf_detect(tmp_path, positive, negative):
    x = np.array([1.0, np.inf, -np.inf, np.nan, 0.0], np.float32)
    model = _one_op('IsInf', [('x', F32, [5])], TensorProto.BOOL, 20, detect_positive=positive,
                    detect_negative=negative)
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('approximate', ['none', 'tanh'])
def test_gelu(tmp_path, approximate):
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    check_model(_one_op('Gelu', [('x', F32, [3, 4])], F32, 20, approximate=approximate), {'x': x}, tmp_path)


@pytest.mark.parametrize('op, attrs', [('Celu', {'alpha': 2.0}), ('Shrink', {'lambd': 1.0, 'bias': 0.5}),
                                       ('ThresholdedRelu', {'alpha': 0.3}), ('HardSigmoid', {'alpha': 0.3}),
                                       ('LeakyRelu', {'alpha': 0.2}), ('Selu', {'alpha': 2.0, 'gamma': 3.0}),
                                       ('Reciprocal', {})])
def test_activations(tmp_path, op, attrs):
    x = RNG.standard_normal((3, 4)).astype(np.float32) * 3
    check_model(_one_op(op, [('x', F32, [3, 4])], F32, 13, **attrs), {'x': x}, tmp_path)


@pytest.mark.parametrize('slope_shape', [[1], [4], [3, 1], [2, 3, 4]])
def test_prelu_numpy_broadcast(tmp_path, slope_shape):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    slope = RNG.uniform(0.1, 0.9, slope_shape).astype(np.float32)
    model = _one_op('PRelu', [('x', F32, [2, 3, 4])], F32, 16, initializers={'slope': slope})
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('dtype, elem', [(np.int32, I32), (np.int64, I64)])
def test_integer_division_truncates(tmp_path, dtype, elem):
    a = np.array([7, -7, 7, -7, 0], dtype)
    b = np.array([2, 2, -2, -2, 3], dtype)
    model = _one_op('Div', [('a', elem, [5]), ('b', elem, [5])], elem, 14)
    check_model(model, {'a': a, 'b': b}, tmp_path)


@pytest.mark.parametrize('base, exponent', [(np.float32, np.int64), (np.int32, np.float32), (np.int64, np.int64)])
def test_pow_mixed_types(tmp_path, base, exponent):
    elem = {np.float32: F32, np.int32: I32, np.int64: I64}
    x = np.array([1, 2, 3, 4], base)
    y = np.array([2, 3, 1, 0], exponent)
    model = _one_op('Pow', [('base', elem[base], [4]), ('exponent', elem[exponent], [4])], elem[base], 15)
    check_model(model, {'base': x, 'exponent': y}, tmp_path)


@pytest.mark.parametrize('n', [1, 2, 3])
@pytest.mark.parametrize('op', ['Max', 'Min', 'Sum', 'Mean'])
def test_variadic(tmp_path, op, n):
    shapes = [[3, 4], [4], [1, 4]][:n]
    inputs = [('x{}'.format(i), F32, s) for i, s in enumerate(shapes)]
    feeds = {name: RNG.standard_normal(shape).astype(np.float32) for name, _, shape in inputs}
    check_model(_one_op(op, inputs, F32, 13), feeds, tmp_path)


@pytest.mark.parametrize('trans_a, trans_b', [(0, 0), (1, 0), (0, 1), (1, 1)])
@pytest.mark.parametrize('c_shape', [None, [], [5], [3, 5]])
def test_gemm(tmp_path, trans_a, trans_b, c_shape):
    a = RNG.standard_normal((4, 3) if trans_a else (3, 4)).astype(np.float32)
    b = RNG.standard_normal((5, 4) if trans_b else (4, 5)).astype(np.float32)
    inits = {'b': b}
    if c_shape is not None:
        inits['c'] = RNG.standard_normal(c_shape).astype(np.float32)
    model = _one_op('Gemm', [('a', F32, list(a.shape))], F32, 13, initializers=inits, alpha=0.5, beta=2.0,
                    transA=trans_a, transB=trans_b)
    check_model(model, {'a': a}, tmp_path)


@pytest.mark.parametrize('equation', ['ij,jk', 'ij->ji', 'bij, bjk -> bik', '...ii', 'i,i'])
def test_einsum_equations(tmp_path, equation):
    terms = equation.replace(' ', '').split('->')[0].split(',')
    sizes = {'i': 3, 'j': 4, 'k': 2, 'b': 2}
    inputs = []
    for index, term in enumerate(terms):
        shape = ([2] if '...' in term else []) + [sizes[c] for c in term.replace('...', '')]
        inputs.append(('x{}'.format(index), F32, shape))
    feeds = {name: RNG.standard_normal(shape).astype(np.float32) for name, _, shape in inputs}
    check_model(_one_op('Einsum', inputs, F32, 12, equation=equation), feeds, tmp_path)


@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('inf_first', [True, False])
def test_reduce_max_equals_negative_infinity(tmp_path, keepdims, inf_first):
    """Equal(ReduceMax(x), -inf) over rows of which some are all -inf (ONNX's Attention body asks so of fully masked
    rows): OpenVINO's CPU gives the lowest finite float as the ReduceMax of such a row, mo asks the elements."""
    axes = np.array([-1], np.int64)
    pair = ['negative_infinity', 'row_max'] if inf_first else ['row_max', 'negative_infinity']
    nodes = [helper.make_node('ReduceMax', ['x', 'axes'], ['row_max'], keepdims=keepdims),
             helper.make_node('Equal', pair, ['all_masked'])]
    model = make_model(nodes, [('x', TensorProto.FLOAT, [2, 3, 4])], [('all_masked', TensorProto.BOOL, None)],
                       {'axes': axes, 'negative_infinity': np.array(-np.inf, np.float32)}, opset=18)
    x = np.random.default_rng(0).normal(0, 1, [2, 3, 4]).astype(np.float32)
    x[0, 1] = -np.inf
    x[1, 2, :3] = -np.inf
    x[1, 0] = np.finfo(np.float32).min  # the lowest finite float is not -inf
    check_model(model, {'x': x}, tmp_path)
