"""QuantizeLinear/DequantizeLinear (per tensor, per axis, blocked; int8/uint8/int16/uint16; with and without zero
point), a QDQ Conv model and the QLinear/Integer ops: converted by mo, run by OpenVINO, compared with onnxruntime
within one quantization step; and the IR has the form the CPU plugin runs as int8 (FakeQuantize, int8 weights
behind an unfolded Convert)."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import TensorProto, helper  # noqa: E402

from tests.onnx.onnx_oracle import make_model, run_ir, run_onnxruntime  # noqa: E402

_ONNX_TYPES = {np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8, np.int16: TensorProto.INT16,
               np.uint16: TensorProto.UINT16}


def _convert_and_run(model, feeds, tmp_path):
    import mo
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    return result, run_ir(result.xml_path, feeds, names), run_onnxruntime(model, feeds)


def _within_one_step(actual, expected, step=None):
    """Integers within 1; floats within one quantization ``step`` (an array broadcast to the output)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, (actual.shape, actual.dtype,
                                                                                 expected.shape, expected.dtype)
    tolerance = 1 if step is None else np.broadcast_to(step, expected.shape) * 1.001 + 1e-6
    assert np.all(np.abs(actual.astype(np.float64) - expected.astype(np.float64)) <= tolerance)


def _ir_ops(xml_path):
    return [(layer.get('type'), layer) for layer in ET.parse(str(xml_path)).getroot().iter('layer')]


def _scales(shape, axis, block, rng):
    """A scale of the shape per tensor (axis None), per axis or blocked quantization needs."""
    if axis is None:
        return np.array(rng.uniform(0.02, 0.05), np.float32)
    if block:
        scale_shape = list(shape)
        scale_shape[axis] = -(-shape[axis] // block)
        return rng.uniform(0.02, 0.05, scale_shape).astype(np.float32)
    return rng.uniform(0.02, 0.05, shape[axis]).astype(np.float32)


GRANULARITY = [(None, 0, 13), (1, 0, 13), (0, 0, 13), (-1, 0, 13), (3, 0, 13), (1, 2, 21), (-1, 3, 21)]


@pytest.mark.parametrize('dtype', [np.uint8, np.int8, np.int16, np.uint16])
@pytest.mark.parametrize('axis,block,opset', GRANULARITY)
@pytest.mark.parametrize('with_zero', [True, False])
def test_quantize_linear(dtype, axis, block, opset, with_zero, tmp_path):
    """A standalone QuantizeLinear: integers within 1 of onnxruntime's."""
    if (block or dtype in (np.int16, np.uint16)) and opset < 21:
        opset = 21
    if not with_zero and dtype != np.uint8:
        pytest.skip('without a zero point the type is uint8')
    rng = np.random.default_rng(0)
    shape = [2, 3, 4, 5]
    scale = _scales(shape, axis, block, rng)
    info = np.iinfo(dtype)
    zero = rng.integers(max(info.min, -20), min(info.max, 20) + 1, scale.shape).astype(dtype)
    inputs = ['x', 'scale'] + (['zero'] if with_zero else [])
    attrs = {} if axis is None else {'axis': axis}
    if block:
        attrs['block_size'] = block
    node = helper.make_node('QuantizeLinear', inputs, ['y'], **attrs)
    initializers = {'scale': scale, **({'zero': zero} if with_zero else {})}
    y_type = _ONNX_TYPES[dtype] if with_zero else TensorProto.UINT8
    model = make_model([node], [('x', TensorProto.FLOAT, shape)], [('y', y_type, shape)], initializers, opset=opset)
    x = rng.normal(0, 3, shape).astype(np.float32)
    _, (actual,), (expected,) = _convert_and_run(model, {'x': x}, tmp_path)
    _within_one_step(actual, expected)


@pytest.mark.parametrize('dtype', [np.uint8, np.int8, np.int16, np.uint16, np.int32])
@pytest.mark.parametrize('axis,block,opset', GRANULARITY)
def test_dequantize_constant_weights(dtype, axis, block, opset, tmp_path):
    """DequantizeLinear of constant integer weights feeding a MatMul: matches onnxruntime, and the IR keeps the
    weights as integers behind a Convert (int32, a bias's type, folds)."""
    if (block or dtype in (np.int16, np.uint16)) and opset < 21:
        opset = 21
    if dtype == np.int32 and (axis is not None or block):
        pytest.skip('int32 is dequantized per tensor without zero point (a bias)')
    rng = np.random.default_rng(1)
    shape = [2, 3, 4, 5]
    scale = _scales(shape, axis, block, rng)
    info = np.iinfo(dtype)
    weights = rng.integers(max(info.min, -100), min(info.max, 100) + 1, shape).astype(dtype)
    inputs, initializers = ['w', 'scale'], {'w': weights, 'scale': scale}
    if dtype != np.int32:
        inputs.append('zero')
        initializers['zero'] = rng.integers(max(info.min, -5), 6, scale.shape).astype(dtype)
    attrs = {} if axis is None else {'axis': axis}
    if block:
        attrs['block_size'] = block
    nodes = [helper.make_node('DequantizeLinear', inputs, ['w_float'], **attrs),
             helper.make_node('MatMul', ['x', 'w_float'], ['y'])]
    model = make_model(nodes, [('x', TensorProto.FLOAT, [2, 3, 6, 4])], [('y', TensorProto.FLOAT, [2, 3, 6, 5])],
                       initializers, opset=opset)
    x = rng.normal(0, 1, [2, 3, 6, 4]).astype(np.float32)
    result, (actual,), (expected,) = _convert_and_run(model, {'x': x}, tmp_path)
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)
    const_types = {layer.find('data').get('element_type') for kind, layer in _ir_ops(result.xml_path)
                   if kind == 'Const'}
    wanted = {np.int8: 'i8', np.uint8: 'u8', np.int16: 'i16', np.uint16: 'u16'}.get(dtype)
    if wanted:
        assert wanted in const_types, const_types
        assert 'Convert' in {kind for kind, _ in _ir_ops(result.xml_path)}


@pytest.mark.parametrize('dtype', [np.uint8, np.int8])
@pytest.mark.parametrize('axis', [None, 1, -3])
def test_quantize_dequantize_pair_is_fake_quantize(dtype, axis, tmp_path):
    """QuantizeLinear -> DequantizeLinear on float data: one FakeQuantize, within one step of onnxruntime."""
    rng = np.random.default_rng(2)
    shape = [2, 4, 5, 5]
    scale = _scales(shape, axis, 0, rng)
    zero = rng.integers(-10, 10, scale.shape).astype(dtype) if dtype == np.int8 else \
        rng.integers(100, 150, scale.shape).astype(dtype)
    attrs = {} if axis is None else {'axis': axis}
    nodes = [helper.make_node('QuantizeLinear', ['x', 'scale', 'zero'], ['q'], **attrs),
             helper.make_node('DequantizeLinear', ['q', 'scale', 'zero'], ['y'], **attrs)]
    model = make_model(nodes, [('x', TensorProto.FLOAT, shape)], [('y', TensorProto.FLOAT, shape)],
                       {'scale': scale, 'zero': zero}, opset=13)
    x = rng.normal(0, 2, shape).astype(np.float32)
    result, (actual,), (expected,) = _convert_and_run(model, {'x': x}, tmp_path)
    step = scale if axis is None else scale.reshape([-1] + [1] * (len(shape) - (axis % len(shape)) - 1))
    _within_one_step(actual, expected, step)
    ops = [kind for kind, _ in _ir_ops(result.xml_path)]
    assert ops.count('FakeQuantize') == 1 and 'Round' not in ops, ops


def _qdq_conv_model(per_channel: bool, group: int = 1):
    """The QDQ form onnxruntime's quantizer writes: activations through QuantizeLinear -> DequantizeLinear (uint8),
    int8 weights (per output channel or per tensor) and an int32 bias through DequantizeLinear, a Conv and Relu
    between them, the output quantized again."""
    rng = np.random.default_rng(3)
    channels, out_channels = 4, 8
    x_scale, y_scale = np.float32(0.03), np.float32(0.05)
    w = rng.integers(-127, 128, [out_channels, channels // group, 3, 3]).astype(np.int8)
    w_scale = rng.uniform(0.002, 0.01, out_channels if per_channel else ()).astype(np.float32)
    w_zero = np.zeros(w_scale.shape, np.int8)
    bias_scale = (x_scale * w_scale).astype(np.float32)
    bias = rng.integers(-500, 500, out_channels).astype(np.int32)
    initializers = {'x_scale': x_scale, 'x_zero': np.uint8(128), 'w': w, 'w_scale': w_scale, 'w_zero': w_zero,
                    'b': bias, 'b_scale': bias_scale, 'y_scale': y_scale, 'y_zero': np.uint8(0)}
    axis = {'axis': 0} if per_channel else {}
    nodes = [helper.make_node('QuantizeLinear', ['x', 'x_scale', 'x_zero'], ['x_q']),
             helper.make_node('DequantizeLinear', ['x_q', 'x_scale', 'x_zero'], ['x_dq']),
             helper.make_node('DequantizeLinear', ['w', 'w_scale', 'w_zero'], ['w_dq'], **axis),
             helper.make_node('DequantizeLinear', ['b', 'b_scale'], ['b_dq'], **axis),
             helper.make_node('Conv', ['x_dq', 'w_dq', 'b_dq'], ['conv'], pads=[1, 1, 1, 1], group=group),
             helper.make_node('Relu', ['conv'], ['relu']),
             helper.make_node('QuantizeLinear', ['relu', 'y_scale', 'y_zero'], ['y_q']),
             helper.make_node('DequantizeLinear', ['y_q', 'y_scale', 'y_zero'], ['y'])]
    model = make_model(nodes, [('x', TensorProto.FLOAT, [1, channels, 8, 8])],
                       [('y', TensorProto.FLOAT, [1, out_channels, 8, 8])], initializers, opset=13)
    return model, y_scale


@pytest.mark.parametrize('per_channel', [True, False])
@pytest.mark.parametrize('group', [1, 2])
def test_qdq_conv_model(per_channel, group, tmp_path):
    """A QDQ Conv model: FakeQuantize on the activations, int8 weights, matches onnxruntime within one step."""
    model, y_scale = _qdq_conv_model(per_channel, group)
    x = np.random.default_rng(4).normal(0, 1.5, [1, 4, 8, 8]).astype(np.float32)
    result, (actual,), (expected,) = _convert_and_run(model, {'x': x}, tmp_path)
    _within_one_step(actual, expected, y_scale)
    ops = _ir_ops(result.xml_path)
    kinds = [kind for kind, _ in ops]
    assert kinds.count('FakeQuantize') == 2, kinds
    assert any(kind == 'Const' and layer.find('data').get('element_type') == 'i8' for kind, layer in ops)


def test_dynamic_quantize_linear(tmp_path):
    """DynamicQuantizeLinear: scale and zero point as onnxruntime's, y within 1."""
    node = helper.make_node('DynamicQuantizeLinear', ['x'], ['y', 'scale', 'zero'])
    model = make_model([node], [('x', TensorProto.FLOAT, [3, 4, 5])],
                       [('y', TensorProto.UINT8, [3, 4, 5]), ('scale', TensorProto.FLOAT, []),
                        ('zero', TensorProto.UINT8, [])], opset=13)
    x = np.random.default_rng(5).normal(0.5, 2, [3, 4, 5]).astype(np.float32)
    _, actual, expected = _convert_and_run(model, {'x': x}, tmp_path)
    _within_one_step(actual[0], expected[0])
    np.testing.assert_allclose(actual[1], expected[1], rtol=1e-6)
    _within_one_step(actual[2], expected[2])


@pytest.mark.parametrize('a_type,b_type', [(np.uint8, np.int8), (np.uint8, np.uint8), (np.int8, np.int8)])
def test_qlinear_matmul_and_matmul_integer(a_type, b_type, tmp_path):
    """QLinearMatMul (constant int weights, per-column scale) and MatMulInteger of the same data."""
    rng = np.random.default_rng(6)
    a_info, b_info = np.iinfo(a_type), np.iinfo(b_type)
    b_const = rng.integers(b_info.min, b_info.max, [2, 6, 5], endpoint=True).astype(b_type)
    init = {'a_scale': np.float32(0.02), 'a_zero': np.array(3, a_type), 'b': b_const,
            'b_scale': np.float32(0.01), 'b_zero': np.array(2, b_type), 'y_scale': np.float32(0.4),
            'y_zero': np.array(10, a_type)}
    nodes = [helper.make_node('QLinearMatMul', ['a', 'a_scale', 'a_zero', 'b', 'b_scale', 'b_zero', 'y_scale',
                                                'y_zero'], ['y']),
             helper.make_node('MatMulInteger', ['a', 'b', 'a_zero', 'b_zero'], ['y_int'])]
    a_onnx = _ONNX_TYPES[a_type]
    model = make_model(nodes, [('a', a_onnx, [2, 4, 6])], [('y', a_onnx, [2, 4, 5]), ('y_int', TensorProto.INT32,
                                                                                      [2, 4, 5])], init, opset=10)
    a = rng.integers(a_info.min, a_info.max, [2, 4, 6], endpoint=True).astype(a_type)
    _, actual, expected = _convert_and_run(model, {'a': a}, tmp_path)
    _within_one_step(actual[0], expected[0])
    np.testing.assert_array_equal(actual[1], expected[1])


@pytest.mark.parametrize('group', [1, 2])
@pytest.mark.parametrize('per_channel', [True, False])
def test_qlinear_conv_and_conv_integer(group, per_channel, tmp_path):
    """QLinearConv (with bias, strides, per-channel or per-tensor weights) and ConvInteger of the same data."""
    rng = np.random.default_rng(7)
    w = rng.integers(-50, 50, [6, 4 // group, 3, 3]).astype(np.int8)
    w_scale = rng.uniform(0.005, 0.01, 6 if per_channel else ()).astype(np.float32)
    w_zero = np.zeros(w_scale.shape, np.int8)
    init = {'x_scale': np.float32(0.02), 'x_zero': np.uint8(120), 'w': w, 'w_scale': w_scale, 'w_zero': w_zero,
            'y_scale': np.float32(0.05), 'y_zero': np.uint8(100),
            'bias': rng.integers(-300, 300, 6).astype(np.int32)}
    conv_attrs = dict(pads=[1, 0, 1, 2], strides=[2, 1], group=group)
    nodes = [helper.make_node('QLinearConv', ['x', 'x_scale', 'x_zero', 'w', 'w_scale', 'w_zero', 'y_scale',
                                              'y_zero', 'bias'], ['y'], **conv_attrs),
             helper.make_node('ConvInteger', ['x', 'w', 'x_zero'], ['y_int'], **conv_attrs)]
    model = make_model(nodes, [('x', TensorProto.UINT8, [1, 4, 7, 7])],
                       [('y', TensorProto.UINT8, None), ('y_int', TensorProto.INT32, None)], init, opset=10)
    x = rng.integers(0, 255, [1, 4, 7, 7], endpoint=True).astype(np.uint8)
    _, actual, expected = _convert_and_run(model, {'x': x}, tmp_path)
    _within_one_step(actual[0], expected[0])
    np.testing.assert_array_equal(actual[1], expected[1])


def test_non_integer_zero_point_is_an_error(tmp_path):
    """A zero point of a type mo cannot quantize to is one clear error naming the node."""
    import mo
    node = helper.make_node('QuantizeLinear', ['x', 'scale', 'zero'], ['y'], name='quant')
    model = make_model([node], [('x', TensorProto.FLOAT, [2])], [('y', TensorProto.INT32, [2])],
                       {'scale': np.float32(0.1), 'zero': np.int32(0)}, opset=13)
    with pytest.raises(mo.Error, match='quant'):
        mo.convert_model(model, output_dir=str(tmp_path))
