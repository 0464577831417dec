"""Decoder building blocks of the newest opsets (CausalConvWithState, SwiGLU, TensorScatter) converted by mo and run
in OpenVINO. TensorScatter is compared with onnxruntime; onnxruntime 1.32 runs neither CausalConvWithState nor
SwiGLU (nor the Swish-24 of SwiGLU's function body), so those are compared with ONNX's reference evaluator."""
import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir

F, H, D, BF = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.BFLOAT16
_NP = {F: np.float32, H: np.float16, D: np.float64, BF: ml_dtypes.bfloat16}
#: tolerances (rtol = atol) by element type
_TOLERANCE = {F: 1e-5, D: 1e-5, H: 1e-2, BF: 5e-2}


def _check_with_reference(model, feeds, tmp_path, rtol, atol):
    """Convert ``model``, run the IR and compare every output with ``onnx.reference``."""
    import mo
    from onnx.reference import ReferenceEvaluator
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    expected = ReferenceEvaluator(model).run(None, feeds)
    for name, actual, wanted in zip(names, run_ir(result.xml_path, feeds, names), expected):
        if wanted.dtype == ml_dtypes.bfloat16:
            # numpy compares no bfloat16 numbers: check the type, then compare the values as float32
            assert actual.dtype == wanted.dtype, 'output "{}": dtype {}'.format(name, actual.dtype)
            actual, wanted = actual.astype(np.float32), wanted.astype(np.float32)
        assert_close(actual, wanted, rtol, atol, 'output "{}"'.format(name))


def _convert_error(model, tmp_path):
    import mo
    from mo.utils.error import Error
    with pytest.raises(Error) as info:
        mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    return str(info.value)


@pytest.mark.parametrize('elem', [F, H])
@pytest.mark.parametrize('activation', [None, 'none', 'silu', 'swish'])
@pytest.mark.parametrize('bias', [False, True])
@pytest.mark.parametrize('past', [False, True])
@pytest.mark.parametrize('length,kernel', [(7, 3), (1, 4), (2, 5), (5, 1)])
def test_causal_conv_with_state(elem, activation, bias, past, length, kernel, tmp_path):
    rng = np.random.RandomState(length * 10 + kernel)
    dtype = _NP[elem]
    batch, channels = 2, 3
    feeds = {'x': rng.randn(batch, channels, length).astype(dtype),
             'w': rng.randn(channels, 1, kernel).astype(dtype)}
    inputs = [('x', elem, ['batch', channels, 'length']), ('w', elem, [channels, 1, kernel])]
    if bias:
        feeds['b'] = rng.randn(channels).astype(dtype)
        inputs.append(('b', elem, [channels]))
    if past:
        feeds['s'] = rng.randn(batch, channels, kernel - 1).astype(dtype)
        inputs.append(('s', elem, ['batch', channels, kernel - 1]))
    attrs = {} if activation is None else {'activation': activation}
    node = helper.make_node('CausalConvWithState', ['x', 'w', 'b' if bias else '', 's' if past else ''],
                            ['y', 'state'], **attrs)
    model = make_model([node], inputs, [('y', elem, None), ('state', elem, None)], opset=27)
    _check_with_reference(model, feeds, tmp_path, _TOLERANCE[elem], _TOLERANCE[elem])


@pytest.mark.parametrize('length,kernel', [(6, 3), (1, 4)])
def test_causal_conv_with_state_bfloat16(length, kernel, tmp_path):
    rng = np.random.RandomState(2)
    bf = ml_dtypes.bfloat16
    feeds = {'x': rng.randn(2, 3, length).astype(bf), 'w': rng.randn(3, 1, kernel).astype(bf),
             'b': rng.randn(3).astype(bf), 's': rng.randn(2, 3, kernel - 1).astype(bf)}
    node = helper.make_node('CausalConvWithState', ['x', 'w', 'b', 's'], ['y', 'state'], activation='silu')
    model = make_model([node], [(name, BF, list(value.shape)) for name, value in feeds.items()],
                       [('y', BF, None), ('state', BF, None)], opset=27)
    _check_with_reference(model, feeds, tmp_path, _TOLERANCE[BF], _TOLERANCE[BF])


def test_causal_conv_with_state_constant_weights_output_only(tmp_path):
    """Weights as an initializer and present_state unused: only the convolution is written."""
    rng = np.random.RandomState(1)
    node = helper.make_node('CausalConvWithState', ['x', 'w'], ['y', ''], activation='silu')
    model = make_model([node], [('x', F, [1, 4, 6])], [('y', F, [1, 4, 6])], opset=27,
                       initializers={'w': rng.randn(4, 1, 3).astype(np.float32)})
    _check_with_reference(model, {'x': rng.randn(1, 4, 6).astype(np.float32)}, tmp_path, 1e-5, 1e-5)


def test_causal_conv_with_state_bad_activation(tmp_path):
    node = helper.make_node('CausalConvWithState', ['x', 'w'], ['y', 'state'], activation='relu', name='conv')
    model = make_model([node], [('x', F, [1, 2, 4]), ('w', F, [2, 1, 3])], [('y', F, None), ('state', F, None)],
                       opset=27)
    message = _convert_error(model, tmp_path)
    assert 'conv' in message and 'relu' in message


@pytest.mark.parametrize('elem', [F, H, D, BF])
@pytest.mark.parametrize('alpha', [None, 1.0, 0.5, 1.702])
def test_swiglu(elem, alpha, tmp_path):
    rng = np.random.RandomState(3)
    shape = [2, 3, 8]
    feeds = {'a': (3 * rng.randn(*shape)).astype(_NP[elem]), 'b': rng.randn(*shape).astype(_NP[elem])}
    attrs = {} if alpha is None else {'alpha': alpha}
    node = helper.make_node('SwiGLU', ['a', 'b'], ['y'], **attrs)
    model = make_model([node], [('a', elem, ['n', 3, 8]), ('b', elem, ['n', 3, 8])], [('y', elem, None)], opset=28)
    _check_with_reference(model, feeds, tmp_path, _TOLERANCE[elem], _TOLERANCE[elem])


def _scatter_case(rng, shape, axis, update_length, dtype):
    update_shape = list(shape)
    update_shape[axis] = update_length
    if np.dtype(dtype).kind == 'f':
        return rng.randn(*shape).astype(dtype), rng.randn(*update_shape).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return np.zeros(shape, np.bool_), np.ones(update_shape, np.bool_)
    return rng.randint(0, 100, shape).astype(dtype), rng.randint(100, 200, update_shape).astype(dtype)


@pytest.mark.parametrize('mode', [None, 'linear', 'circular'])
@pytest.mark.parametrize('shape,axis,update_length', [([2, 3, 6, 4], -2, 2), ([2, 3, 6, 4], 2, 1),
                                                      ([2, 6, 3, 4], 1, 3), ([3, 4, 6], -1, 2), ([3, 6], 1, 6),
                                                      ([2, 5, 4], -2, 0)])
@pytest.mark.parametrize('with_indices', [False, True])
def test_tensorscatter(mode, shape, axis, update_length, with_indices, tmp_path):
    rng = np.random.RandomState(5)
    past, update = _scatter_case(rng, shape, axis, update_length, np.float32)
    length = shape[axis]
    feeds = {'past': past, 'update': update}
    inputs = [('past', F, shape), ('update', F, list(update.shape))]
    if with_indices:
        if mode == 'circular':
            # starts past the end and starts that wrap round
            indices = rng.randint(0, 2 * length, shape[0])
            indices[0] = length - 1
        else:
            indices = rng.randint(0, length - update_length + 1, shape[0])
        feeds['idx'] = indices.astype(np.int64)
        inputs.append(('idx', TensorProto.INT64, [shape[0]]))
    attrs = {'axis': axis}
    if mode is not None:
        attrs['mode'] = mode
    node = helper.make_node('TensorScatter', ['past', 'update', 'idx' if with_indices else ''], ['present'], **attrs)
    model = make_model([node], inputs, [('present', F, shape)], opset=24)
    if update_length == 0:
        # onnxruntime rejects an empty update; ONNX's reference takes it (nothing is written)
        _check_with_reference(model, feeds, tmp_path, 0, 0)
        return
    check_model(model, feeds, tmp_path, rtol=0, atol=0)


@pytest.mark.parametrize('elem,dtype', [(H, np.float16), (BF, ml_dtypes.bfloat16), (D, np.float64),
                                        (TensorProto.INT64, np.int64), (TensorProto.INT32, np.int32),
                                        (TensorProto.INT8, np.int8), (TensorProto.UINT8, np.uint8),
                                        (TensorProto.BOOL, np.bool_)])
def test_tensorscatter_element_types(elem, dtype, tmp_path):
    rng = np.random.RandomState(7)
    past, update = _scatter_case(rng, [2, 2, 5, 3], -2, 2, dtype)
    feeds = {'past': past, 'update': update, 'idx': np.array([4, 1], np.int64)}
    node = helper.make_node('TensorScatter', ['past', 'update', 'idx'], ['present'], mode='circular')
    model = make_model([node], [('past', elem, ['batch', 2, 'max', 3]), ('update', elem, ['batch', 2, 'len', 3]),
                                ('idx', TensorProto.INT64, ['batch'])], [('present', elem, None)], opset=24)
    if elem == BF:
        # onnxruntime takes no bfloat16 numpy arrays
        _check_with_reference(model, feeds, tmp_path, 0, 0)
    else:
        # OpenVINO's CPU plugin runs float64 as float32: a copy keeps float32's precision only
        check_model(model, feeds, tmp_path, rtol=1e-7 if elem == D else 0, atol=0)


@pytest.mark.parametrize('attrs,words', [({'axis': 0}, ['batch axis']), ({'mode': 'ring'}, ['ring', 'mode'])])
def test_tensorscatter_bad_attributes(attrs, words, tmp_path):
    node = helper.make_node('TensorScatter', ['past', 'update'], ['present'], name='cache', **attrs)
    model = make_model([node], [('past', F, [2, 4, 3]), ('update', F, [2, 1, 3])], [('present', F, None)],
                       opset=24)
    message = _convert_error(model, tmp_path)
    assert 'cache' in message and all(word in message for word in words)
