"""Whole models in onnxruntime's quantized forms, made at test time with the onnxruntime wheel alone, converted by mo
and run by OpenVINO against onnxruntime running the quantized model:

* ``quantize_static(..., quant_format=QuantFormat.QOperator)`` of a small CNN (Conv, LeakyRelu, Sigmoid, Mul, Add,
  AveragePool, Concat, GlobalAveragePool, MatMul, Softmax -> QLinearConv, QLinearLeakyRelu, QLinearSigmoid, QLinearMul,
  QLinearAdd, QLinearAveragePool, QLinearConcat, QLinearGlobalAveragePool, QLinearMatMul, QLinearSoftmax) and of a
  small MLP of Gemms (QGemm), activations uint8 or int8, weights per tensor or per channel;
* ``quantize_dynamic`` of an MLP whose first two MatMuls read one input, saved after onnxruntime's own graph
  optimizations, which fuse its DynamicQuantizeLinear/MatMulInteger/Mul forms into DynamicQuantizeMatMul and
  MatMulIntegerToFloat;
* the committed ``bert_tiny.onnx`` (``tools/make_onnx_models.py``) through ``onnxruntime.transformers.optimizer`` then
  ``quantize_dynamic``: QEmbedLayerNormalization, QAttention, and DynamicQuantizeMatMul once onnxruntime optimized it.

Tolerance: outputs that a DequantizeLinear gives are compared in quanta of their scale: every element within one
quantum, at most 2% of them off by one (near-ties, see ``test_qoperator_ops``). Float outputs of dynamically quantized
models within 1e-4 of their range: activations are quantized at run time, and a level that rounds the other way at a
near-tie moves a result by about one quantum of the activation times a weight; none did in these models.
"""
import collections
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
ort_quantization = pytest.importorskip('onnxruntime.quantization')
pytest.importorskip('openvino')

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tests.onnx.onnx_oracle import make_model, run_ir, run_onnxruntime  # noqa: E402

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'models')


def _weights(rng, *shape):
    return (rng.normal(0, 1, shape) / np.sqrt(np.prod(shape[1:]) if len(shape) > 1 else 4)).astype(np.float32)


def _cnn():
    rng = np.random.default_rng(0)
    init = {'w1': _weights(rng, 8, 3, 3, 3), 'b1': _weights(rng, 8), 'w2': _weights(rng, 8, 8, 3, 3),
            'b2': _weights(rng, 8), 'w3': _weights(rng, 8, 8, 1, 1), 'b3': _weights(rng, 8),
            'fc': _weights(rng, 16, 10), 'fc_b': _weights(rng, 10)}
    nodes = [helper.make_node('Conv', ['x', 'w1', 'b1'], ['c1'], pads=[1, 1, 1, 1]),
             helper.make_node('LeakyRelu', ['c1'], ['a1'], alpha=0.1),
             helper.make_node('Conv', ['a1', 'w2', 'b2'], ['c2'], pads=[1, 1, 1, 1]),
             helper.make_node('Sigmoid', ['c2'], ['s2']),
             helper.make_node('Mul', ['a1', 's2'], ['gated']),
             helper.make_node('Add', ['gated', 'a1'], ['residual']),
             helper.make_node('AveragePool', ['residual'], ['pooled'], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node('Conv', ['pooled', 'w3', 'b3'], ['c3']),
             helper.make_node('Concat', ['pooled', 'c3'], ['features'], axis=1),
             helper.make_node('GlobalAveragePool', ['features'], ['g']),
             helper.make_node('Flatten', ['g'], ['flat']),
             helper.make_node('MatMul', ['flat', 'fc'], ['product']),
             helper.make_node('Add', ['product', 'fc_b'], ['logits']),
             helper.make_node('Softmax', ['logits'], ['y'], axis=-1)]
    outputs = [('y', TensorProto.FLOAT, [2, 10]), ('features', TensorProto.FLOAT, [2, 16, 8, 8])]
    return make_model(nodes, [('x', TensorProto.FLOAT, [2, 3, 16, 16])], outputs, init, opset=13), [2, 3, 16, 16]


def _mlp():
    rng = np.random.default_rng(1)
    init = {'w1': _weights(rng, 32, 24), 'b1': _weights(rng, 32), 'w2': _weights(rng, 16, 32), 'b2': _weights(rng, 16),
            'w3': _weights(rng, 16, 8)}
    nodes = [helper.make_node('Gemm', ['x', 'w1', 'b1'], ['h1'], transB=1),
             helper.make_node('Relu', ['h1'], ['r1']),
             helper.make_node('Gemm', ['r1', 'w2', 'b2'], ['h2'], transB=1, alpha=0.5),
             helper.make_node('Relu', ['h2'], ['r2']),
             helper.make_node('Gemm', ['r2', 'w3'], ['y'], transB=0)]
    return make_model(nodes, [('x', TensorProto.FLOAT, [4, 24])], [('y', TensorProto.FLOAT, [4, 8])], init,
                      opset=13), [4, 24]


class _Calibration(ort_quantization.CalibrationDataReader):
    """Eight seeded normal inputs of ``shape`` for the static quantizer's calibration."""

    def __init__(self, shape):
        rng = np.random.default_rng(2)
        self.batches = iter([{'x': rng.normal(0, 1, shape).astype(np.float32)} for _ in range(8)])

    def get_next(self):
        return next(self.batches, None)


def _op_types(model):
    return collections.Counter(node.op_type for node in model.graph.node)


def _output_scales(model):
    """The scale of each graph output a DequantizeLinear gives, by name."""
    constants = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    return {node.output[0]: float(constants[node.input[1]]) for node in model.graph.node
            if node.op_type == 'DequantizeLinear' and node.input[1] in constants}


def _convert_and_compare(model, feeds, tmp_path, weights=None):
    """Convert ``model``; its outputs' names, OpenVINO's and onnxruntime's values. ``weights`` (uint8, int8): the IR
    keeps integer weights of that type (behind an unfolded Convert)."""
    import mo
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    if weights:
        root = ET.parse(str(result.xml_path)).getroot()
        types = {layer.find('data').get('element_type') for layer in root.iter('layer') if layer.get('type') == 'Const'}
        assert {'uint8': 'u8', 'int8': 'i8'}[weights] in types, types
    names = [o.name for o in model.graph.output]
    return names, run_ir(result.xml_path, feeds, names), run_onnxruntime(model, feeds)


def _assert_within_quanta(name, actual, expected, scale):
    quanta = np.abs(actual.astype(np.float64) - expected.astype(np.float64)) / scale
    assert quanta.max() <= 1.001, '{}: off by {:.2f} quanta'.format(name, quanta.max())
    assert np.mean(quanta > 0.5) <= 0.02, '{}: {} elements of {} off by a quantum'.format(
        name, int(np.sum(quanta > 0.5)), quanta.size)


STATIC_FORMS = [('uint8', 'int8', False), ('int8', 'int8', True), ('uint8', 'uint8', True)]


def _quant_type(name):
    return {'uint8': ort_quantization.QuantType.QUInt8, 'int8': ort_quantization.QuantType.QInt8}[name]


@pytest.mark.parametrize('activations,weights,per_channel', STATIC_FORMS)
@pytest.mark.parametrize('network', ['cnn', 'mlp'])
def test_static_qoperator_model(network, activations, weights, per_channel, tmp_path):
    float_model, shape = {'cnn': _cnn, 'mlp': _mlp}[network]()
    source, target = str(tmp_path / 'float.onnx'), str(tmp_path / 'quantized.onnx')
    onnx.save(float_model, source)
    ort_quantization.quantize_static(source, target, _Calibration(shape),
                                     quant_format=ort_quantization.QuantFormat.QOperator,
                                     activation_type=_quant_type(activations), weight_type=_quant_type(weights),
                                     per_channel=per_channel)
    model = onnx.load(target)
    expected_ops = {'cnn': {'QLinearConv', 'QLinearLeakyRelu', 'QLinearSigmoid', 'QLinearMul', 'QLinearAdd',
                            'QLinearAveragePool', 'QLinearConcat', 'QLinearGlobalAveragePool', 'QLinearSoftmax'},
                    'mlp': {'QGemm'}}[network]
    assert expected_ops <= set(_op_types(model)), _op_types(model)
    scales = _output_scales(model)
    for seed in range(3):
        x = np.random.default_rng(10 + seed).normal(0, 1, shape).astype(np.float32)
        names, actual, expected = _convert_and_compare(model, {'x': x}, tmp_path / str(seed), weights)
        for name, a, e in zip(names, actual, expected):
            _assert_within_quanta(name, a, e, scales[name])


def _dynamic_mlp():
    """Two MatMuls reading x (one DynamicQuantizeLinear feeds both: MatMulIntegerToFloat once fused), then one
    reading their sum (DynamicQuantizeMatMul)."""
    rng = np.random.default_rng(3)
    init = {'w1': _weights(rng, 24, 32), 'w2': _weights(rng, 24, 32), 'bias': _weights(rng, 32),
            'w3': _weights(rng, 32, 16)}
    nodes = [helper.make_node('MatMul', ['x', 'w1'], ['h1']),
             helper.make_node('MatMul', ['x', 'w2'], ['h2']),
             helper.make_node('Add', ['h1', 'h2'], ['h']),
             helper.make_node('Add', ['h', 'bias'], ['hb']),
             helper.make_node('Relu', ['hb'], ['r']),
             helper.make_node('MatMul', ['r', 'w3'], ['y'])]
    return make_model(nodes, [('x', TensorProto.FLOAT, [2, 5, 24])], [('y', TensorProto.FLOAT, [2, 5, 16])], init,
                      opset=13)


def _onnxruntime_optimized(source, target):
    """``source`` saved as onnxruntime runs it after its extended graph optimizations (its contrib-op fusions)."""
    import onnxruntime
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = target
    onnxruntime.InferenceSession(source, options, providers=['CPUExecutionProvider'])
    return onnx.load(target)


def _dynamic(source, target, weights):
    ort_quantization.quantize_dynamic(source, target, weight_type=_quant_type(weights),
                                      extra_options={'DefaultTensorType': TensorProto.FLOAT})
    return onnx.load(target)


def _assert_float(names, actual, expected):
    for name, a, e in zip(names, actual, expected):
        np.testing.assert_allclose(a, e, rtol=0, atol=1e-4 * max(1.0, np.abs(e).max()), err_msg=name)


@pytest.mark.parametrize('weights', ['uint8', 'int8'])
def test_dynamic_quantized_mlp(weights, tmp_path):
    source = str(tmp_path / 'float.onnx')
    onnx.save(_dynamic_mlp(), source)
    _dynamic(source, str(tmp_path / 'dynamic.onnx'), weights)
    model = _onnxruntime_optimized(str(tmp_path / 'dynamic.onnx'), str(tmp_path / 'fused.onnx'))
    assert {'DynamicQuantizeMatMul', 'MatMulIntegerToFloat'} <= set(_op_types(model)), _op_types(model)
    x = np.random.default_rng(4).normal(0, 1, [2, 5, 24]).astype(np.float32)
    _assert_float(*_convert_and_compare(model, {'x': x}, tmp_path, weights))


def _bert_feeds(seed):
    rng = np.random.default_rng(seed)
    mask = np.ones([2, 7], np.int64)
    mask[0, 5:] = 0
    return {'input_ids': rng.integers(0, 1000, [2, 7]), 'attention_mask': mask,
            'token_type_ids': rng.integers(0, 2, [2, 7])}


@pytest.mark.parametrize('weights', ['uint8', 'int8'])
@pytest.mark.parametrize('fused', [False, True])
def test_dynamic_quantized_bert(weights, fused, tmp_path):
    from onnxruntime.transformers.optimizer import optimize_model
    optimized = optimize_model(os.path.join(MODELS_DIR, 'bert_tiny.onnx'), model_type='bert', num_heads=2,
                               hidden_size=16, opt_level=0)
    source = str(tmp_path / 'optimized.onnx')
    optimized.save_model_to_file(source)
    model = _dynamic(source, str(tmp_path / 'quantized.onnx'), weights)
    if fused:
        model = _onnxruntime_optimized(str(tmp_path / 'quantized.onnx'), str(tmp_path / 'fused.onnx'))
    ops = _op_types(model)
    assert {'QAttention', 'QEmbedLayerNormalization'} <= set(ops), ops
    assert not fused or 'DynamicQuantizeMatMul' in ops, ops
    for seed in range(2):
        _assert_float(*_convert_and_compare(model, _bert_feeds(seed), tmp_path / str(seed), weights))
