"""Ops whose axis, pads or parameters are graph inputs (known at run time only), and ONNX's Mod at its float edge
values: converted once by mo, then run in OpenVINO on several input values, against onnxruntime, or ONNX's
reference implementation where onnxruntime has no kernel for the op (CumProd, MelWeightMatrix of int32 or
double inputs) or differs from the ONNX
definition (Mod's infinities, the inverse onesided DFT with a dft_length)."""
import numpy as np
import pytest

from tests.onnx.onnx_oracle import assert_close, make_model, run_ir, run_onnxruntime

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

import mo  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

F, D, H = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16
I32, I64 = TensorProto.INT32, TensorProto.INT64
NP = {F: np.float32, D: np.float64, H: np.float16, I32: np.int32, I64: np.int64}
RNG = np.random.default_rng(7)


def _onnx_reference(model, feeds):
    from onnx.reference import ReferenceEvaluator
    return ReferenceEvaluator(model).run(None, feeds)


def _convert(model, tmp_path):
    return mo.convert_model(model, output_dir=str(tmp_path), model_name='model').xml_path


@pytest.mark.parametrize('x_type', [F, I32, I64, D])
@pytest.mark.parametrize('axis_type', [I32, I64])
@pytest.mark.parametrize('exclusive', [0, 1])
@pytest.mark.parametrize('reverse', [0, 1])
def test_cumprod_runtime_axis(x_type, axis_type, exclusive, reverse, tmp_path):
    x = np.round(RNG.standard_normal((2, 3, 4)) * 2).astype(NP[x_type])  # zeros and negatives included
    node = helper.make_node('CumProd', ['x', 'axis'], ['y'], exclusive=exclusive, reverse=reverse)
    model = make_model([node], [('x', x_type, list(x.shape)), ('axis', axis_type, [])], [('y', x_type, None)],
                       opset=26)
    xml = _convert(model, tmp_path)
    for axis in (-3, -2, -1, 0, 1, 2):  # one IR, every axis
        feeds = {'x': x, 'axis': np.array(axis, NP[axis_type])}
        assert_close(run_ir(xml, feeds, ['y'])[0], _onnx_reference(model, feeds)[0], what='axis {}'.format(axis))


@pytest.mark.parametrize('parts', [1, 2])
@pytest.mark.parametrize('inverse', [0, 1])
@pytest.mark.parametrize('onesided', [0, 1])
@pytest.mark.parametrize('length', [None, 4, 9])
def test_dft_runtime_axis(parts, inverse, onesided, length, tmp_path):
    if onesided and (parts == 2) != bool(inverse):
        pytest.skip('onesided takes real input forward, complex input inverse')
    x = RNG.standard_normal((2, 6, 5, parts)).astype(np.float32)
    node = helper.make_node('DFT', ['x', 'length' if length else '', 'axis'], ['y'], inverse=inverse,
                            onesided=onesided)
    inits = {'length': np.array(length, np.int64)} if length else {}
    model = make_model([node], [('x', F, list(x.shape)), ('axis', I64, [])], [('y', F, None)],
                       initializers=inits, opset=20)
    xml = _convert(model, tmp_path)
    for axis in (0, 1, 2, -2, -3, -4):
        feeds = {'x': x, 'axis': np.array(axis, np.int64)}
        # onnxruntime's inverse onesided DFT with a dft_length disagrees with ONNX's reference and numpy's irfft
        reference = _onnx_reference if inverse and onesided and length else run_onnxruntime
        expected = reference(model, feeds)[0].astype(np.float32)
        assert_close(run_ir(xml, feeds, ['y'])[0], expected, 1e-3, 1e-4, what='axis {}'.format(axis))


@pytest.mark.parametrize('inverse', [0, 1])
@pytest.mark.parametrize('onesided', [0, 1])
def test_dft_real_signal_real_bins_exact(inverse, onesided, tmp_path):
    """Points 0 and n / 2 of the transform of a real signal are real: exactly 0 imaginary parts, whatever the
    axis (f32 twiddle factors leave ~1e-5 there on signals of magnitude 100)."""
    if onesided and inverse:
        pytest.skip('an inverse onesided DFT takes a complex spectrum')
    x = (np.arange(2 * 10 * 8, dtype=np.float32).reshape(2, 10, 8, 1) + 50).astype(np.float32)
    node = helper.make_node('DFT', ['x', '', 'axis'], ['y'], inverse=inverse, onesided=onesided)
    model = make_model([node], [('x', F, list(x.shape)), ('axis', I64, [])], [('y', F, None)], opset=20)
    xml = _convert(model, tmp_path)
    for axis, n in ((1, 10), (2, 8)):
        y = run_ir(xml, {'x': x, 'axis': np.array(axis, np.int64)}, ['y'])[0]
        imaginary = np.moveaxis(y[..., 1], axis, 0)
        assert np.all(imaginary[0] == 0) and np.all(imaginary[n // 2] == 0), 'axis {}'.format(axis)
        signal = np.fft.ifft(x[..., 0].astype(np.float64), axis=axis) if inverse else \
            np.fft.fft(x[..., 0].astype(np.float64), axis=axis)
        if onesided:
            signal = np.take(signal, np.arange(n // 2 + 1), axis=axis)
        expected = np.stack([signal.real, signal.imag], -1).astype(np.float32)
        assert_close(y, expected, 1e-4, 1e-3, what='axis {}'.format(axis))


@pytest.mark.parametrize('x_type', [F, I32])
@pytest.mark.parametrize('with_axes', [False, True])
def test_wrap_pad_runtime_pads(x_type, with_axes, tmp_path):
    x = (RNG.standard_normal((2, 3, 4)) * 10).astype(NP[x_type])
    inputs, inits = ['x', 'pads'], {}
    if with_axes:
        inputs += ['', 'axes']
        inits['axes'] = np.array([-1, 0], np.int64)
    node = helper.make_node('Pad', inputs, ['y'], mode='wrap')
    count = 4 if with_axes else 6
    model = make_model([node], [('x', x_type, list(x.shape)), ('pads', I64, [count])], [('y', x_type, None)],
                       initializers=inits, opset=19)
    xml = _convert(model, tmp_path)
    # pads beyond the size repeat x (numpy's wrap), negative pads crop
    pad_sets = ([[1, 0, 2, 0, 2, 1], [-1, 1, 0, 1, -2, 2], [0, 0, 0, 0, 0, 0], [5, 3, 9, 1, 7, 3]] if not with_axes
                else [[1, 2, 3, 1], [-1, 0, 2, -1], [0, 0, 0, 0], [6, 5, 9, 4]])
    for pads in pad_sets:
        feeds = {'x': x, 'pads': np.array(pads, np.int64)}
        assert_close(run_ir(xml, feeds, ['y'])[0], run_onnxruntime(model, feeds)[0], what='pads {}'.format(pads))


@pytest.mark.parametrize('pads', [[5, 0, 3, 1, 7, 0], [-1, 4, 0, 9, -2, 1]])
def test_wrap_pad_constant_pads_beyond_size(pads, tmp_path):
    x = (RNG.standard_normal((2, 3, 4)) * 10).astype(np.float32)
    node = helper.make_node('Pad', ['x', 'pads'], ['y'], mode='wrap')
    model = make_model([node], [('x', F, list(x.shape))], [('y', F, None)],
                       initializers={'pads': np.array(pads, np.int64)}, opset=19)
    assert_close(run_ir(_convert(model, tmp_path), {'x': x}, ['y'])[0], run_onnxruntime(model, {'x': x})[0])


@pytest.mark.parametrize('out_type', [F, D])
@pytest.mark.parametrize('int_type', [I32, I64])
@pytest.mark.parametrize('hz_type', [F, D])
def test_mel_weight_matrix_runtime_inputs(out_type, int_type, hz_type, tmp_path):
    names = ['bins', 'length', 'rate', 'low', 'high']
    node = helper.make_node('MelWeightMatrix', names, ['y'], output_datatype=out_type)
    model = make_model([node], [(name, int_type, []) for name in names[:3]] + [(name, hz_type, []) for name in
                                                                               names[3:]], [('y', out_type, None)])
    xml = _convert(model, tmp_path)
    for values in ((8, 16, 8192, 0.0, 4096.0), (5, 33, 16000, 300.0, 7000.0), (12, 64, 22050, 20.0, 11025.0)):
        feeds = {name: np.array(v, NP[int_type] if k < 3 else NP[hz_type]) for k, (name, v) in
                 enumerate(zip(names, values))}
        # onnxruntime's kernel takes int64 and float inputs only
        expected = (run_onnxruntime if int_type == I64 and hz_type == F else _onnx_reference)(model, feeds)[0]
        assert_close(run_ir(xml, feeds, ['y'])[0], expected, 1e-4, 1e-5, what='inputs {}'.format(values))


@pytest.mark.parametrize('x_type', [F, H, D])
def test_mod_floor_float_edges(x_type, tmp_path):
    """fmod=0 is numpy.mod (ONNX's reference): zeros take the divisor's sign, a finite dividend over an infinite
    divisor is itself or the divisor, infinite dividends and zero divisors give NaN."""
    inf, nan = np.inf, np.nan
    a = np.array([0., -0., 0., -0., -3., 3., -1., 1., inf, -inf, 1., 1., nan, 1., 5.5, -5.5, 7., -7.])
    b = np.array([-2., 2., 2., -2., inf, inf, -inf, -inf, 2., 2., 0., -0., 2., nan, 2., 2., -2.5, 2.5])
    if x_type == D:  # OpenVINO's CPU plugin computes f64 in f32 and saturates infinite f64 inputs to f32's max
        keep = np.isfinite(a) & np.isfinite(b)
        a, b = a[keep], b[keep]
    a, b = a.astype(NP[x_type]), b.astype(NP[x_type])
    node = helper.make_node('Mod', ['a', 'b'], ['z'], fmod=0)
    model = make_model([node], [('a', x_type, [a.size]), ('b', x_type, [b.size])], [('z', x_type, None)], opset=13)
    feeds = {'a': a, 'b': b}
    actual, expected = run_ir(_convert(model, tmp_path), feeds, ['z'])[0], _onnx_reference(model, feeds)[0]
    assert_close(actual, expected)
    zeros = expected == 0
    assert np.array_equal(np.signbit(actual[zeros]), np.signbit(expected[zeros])), 'the signs of zero results'
