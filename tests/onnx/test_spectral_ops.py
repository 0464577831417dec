"""Spectral ops (windows, MelWeightMatrix, DFT, Det) converted by mo and run in OpenVINO, against onnxruntime."""
import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir

F, D = TensorProto.FLOAT, TensorProto.DOUBLE


@pytest.mark.parametrize('op', ['HannWindow', 'HammingWindow', 'BlackmanWindow'])
@pytest.mark.parametrize('periodic', [0, 1])
@pytest.mark.parametrize('out_type', [F, D])
@pytest.mark.parametrize('constant', [True, False])
def test_window(op, periodic, out_type, constant, tmp_path):
    node = helper.make_node(op, ['size'], ['y'], periodic=periodic, output_datatype=out_type)
    size = np.array(10, np.int64)
    if constant:
        model = make_model([node], [], [('y', out_type, [10])], initializers={'size': size})
        feeds = {}
    else:
        model = make_model([node], [('size', TensorProto.INT64, [])], [('y', out_type, None)])
        feeds = {'size': size}
    check_model(model, feeds, tmp_path, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('out_type', [F, D])
@pytest.mark.parametrize('bins,length,rate,low,high', [(8, 16, 8192, 0.0, 4096.0), (5, 33, 16000, 300.0, 7000.0)])
def test_mel_weight_matrix(out_type, bins, length, rate, low, high, tmp_path):
    inits = {'bins': np.array(bins, np.int64), 'length': np.array(length, np.int64),
             'rate': np.array(rate, np.int64), 'low': np.array(low, np.float32), 'high': np.array(high, np.float32)}
    node = helper.make_node('MelWeightMatrix', list(inits), ['y'], output_datatype=out_type)
    model = make_model([node], [], [('y', out_type, [length // 2 + 1, bins])], initializers=inits)
    check_model(model, {}, tmp_path)


@pytest.mark.parametrize('parts', [1, 2])
@pytest.mark.parametrize('axis', [1, 2])
@pytest.mark.parametrize('inverse', [0, 1])
@pytest.mark.parametrize('onesided', [0, 1])
@pytest.mark.parametrize('length', [None, 6, 12])
def test_dft_opset17(parts, axis, inverse, onesided, length, tmp_path):
    if onesided and (parts == 2) != bool(inverse):
        pytest.skip('onesided takes real input forward, complex input inverse')
    x = np.random.RandomState(0).randn(2, 8, 5, parts).astype(np.float32)
    inputs = ['x', 'length' if length else '']
    node = helper.make_node('DFT', inputs, ['y'], axis=axis, inverse=inverse, onesided=onesided)
    inits = {'length': np.array(length, np.int64)} if length else {}
    model = make_model([node], [('x', F, list(x.shape))], [('y', F, None)], initializers=inits, opset=17)
    if inverse and onesided and length:
        # onnxruntime's inverse onesided DFT with a dft_length disagrees with ONNX's reference and numpy's irfft
        # (which agree): compare with ONNX's reference there
        import mo
        from onnx.reference import ReferenceEvaluator
        result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
        expected = ReferenceEvaluator(model).run(None, {'x': x})[0]
        assert_close(run_ir(result.xml_path, {'x': x}, ['y'])[0], expected.astype(np.float32), 1e-3, 1e-4)
        return
    check_model(model, {'x': x}, tmp_path, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize('axis', [-2, -3, 1])
def test_dft_opset20_constant_axis(axis, tmp_path):
    x = np.random.RandomState(1).randn(3, 8, 2).astype(np.float32)
    node = helper.make_node('DFT', ['x', '', 'axis'], ['y'])
    model = make_model([node], [('x', F, list(x.shape))], [('y', F, None)],
                       initializers={'axis': np.array(axis, np.int64)}, opset=20)
    check_model(model, {'x': x}, tmp_path, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize('n', [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize('batch', [[], [2], [2, 3]])
def test_det(n, batch, tmp_path):
    x = np.random.RandomState(n).randn(*batch, n, n).astype(np.float32)
    node = helper.make_node('Det', ['x'], ['y'])
    model = make_model([node], [('x', F, list(x.shape))], [('y', F, None)])
    check_model(model, {'x': x}, tmp_path, rtol=1e-4, atol=1e-4)
