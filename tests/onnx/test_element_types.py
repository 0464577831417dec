"""ONNX's narrow element types (bfloat16, float8e4m3fn, float8e5m2, int4, uint4) through mo and OpenVINO, against
onnxruntime: Cast to and from them at run time (with and without float8 ``saturate``), initializers of them
(int4/uint4 packed two per byte in the model and in the IR), DequantizeLinear of int4/uint4/float8 weights.

float4e2m1 and float8e8m0, which onnxruntime does not cast, against ONNX's reference evaluator: Cast and CastLike
both ways (float8e8m0's ``round_mode`` and ``saturate``), their initializers, QuantizeLinear/DequantizeLinear to and
from float4e2m1. One exception: NaN to float4e2m1 is 6 by ONNX's float4 spec (docs/technical/float4.md, "NaN | 6"),
which OpenVINO gives; the reference evaluator (ml_dtypes) gives -0, so NaN is checked against the spec's table.
"""
import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.onnx.onnx_oracle import make_model, run_ir, run_onnxruntime

BF16, E4M3, E5M2, U4, I4 = (TensorProto.BFLOAT16, TensorProto.FLOAT8E4M3FN, TensorProto.FLOAT8E5M2,
                            TensorProto.UINT4, TensorProto.INT4)
ML_TYPES = {BF16: ml_dtypes.bfloat16, E4M3: ml_dtypes.float8_e4m3fn, E5M2: ml_dtypes.float8_e5m2,
            U4: ml_dtypes.uint4, I4: ml_dtypes.int4}
#: rounding ties, values past float8's ranges, infinities, NaN, subnormals. Not 61440, the tie between float8e5m2's
#: max and the next power of two: onnxruntime 1.32 casts it to NaN without saturate where ONNX's spec and reference
#: evaluator (and OpenVINO) give inf. Nor a float32 just below a float8e5m2 tie such as 61439: OpenVINO's CPU plugin
#: rounds it to float16 first (61440, the tie) and then to the tie's even neighbour (inf), where ONNX gives 57344
SPECIAL = np.array([0.0, -0.0, 1.0625, 1.1875, 2.5, -3.5, 300.0, 449.0, 464.0, 470.0, 1000.0, -1e6, 57344.0,
                    60000.0, 65536.0, 1e5, np.inf, -np.inf, np.nan, 1e-3, -2e-3, 1e-7, 0.1, 7.6], np.float32)


def _convert_and_run(model, feeds, tmp_path):
    import mo
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    return run_ir(result.xml_path, feeds, [o.name for o in model.graph.output])


def _reference(nodes, x, x_type, out_type, opset):
    """onnxruntime's output of ``nodes`` (input ``x``, output ``y``) as float32: its Python API has no numpy type for
    bfloat16 (nor float8), so ``x`` is an initializer and ``y`` is cast to float (exact from these types)."""
    model = make_model(list(nodes) + [helper.make_node('Cast', ['y'], ['y32'], to=TensorProto.FLOAT)], [],
                       [('y32', TensorProto.FLOAT, [x.size])], [numpy_helper.from_array(x, 'x')], opset=opset)
    return run_onnxruntime(model, {})[0]


def _same(actual, expected):
    """Same dtype and values (NaN where NaN), compared through f32 for ml_dtypes' types."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(actual.astype(np.float32), expected.astype(np.float32))


@pytest.mark.parametrize('src', [TensorProto.FLOAT, TensorProto.FLOAT16])
@pytest.mark.parametrize('dst,saturate', [(BF16, None), (E4M3, 1), (E4M3, 0), (E5M2, 1), (E5M2, 0)])
def test_cast_to_narrow_float(src, dst, saturate, tmp_path):
    attrs = {'to': dst} if saturate is None else {'to': dst, 'saturate': saturate}
    with np.errstate(over='ignore'):
        x = SPECIAL.astype(helper.tensor_dtype_to_np_dtype(src))
    model = make_model([helper.make_node('Cast', ['x'], ['y'], **attrs)], [('x', src, [x.size])],
                       [('y', dst, [x.size])], opset=19)
    expected = _reference(model.graph.node, x, src, dst, 19)
    actual = _convert_and_run(model, {'x': x}, tmp_path)[0]
    assert actual.dtype == np.dtype(ML_TYPES[dst])
    np.testing.assert_array_equal(actual.astype(np.float32), expected)


@pytest.mark.parametrize('src', [BF16, E4M3, E5M2])
@pytest.mark.parametrize('dst', [TensorProto.FLOAT, TensorProto.FLOAT16])
def test_cast_from_narrow_float(src, dst, tmp_path):
    # every bit pattern of the 8-bit types; bfloat16 from rounded specials
    if src == BF16:
        x = SPECIAL.astype(ml_dtypes.bfloat16)
    else:
        x = np.arange(256, dtype=np.uint8).view(ML_TYPES[src])
    model = make_model([helper.make_node('Cast', ['x'], ['y'], to=dst)], [('x', src, [x.size])],
                       [('y', dst, [x.size])], opset=19)
    expected = _reference(model.graph.node, x, src, dst, 19).astype(helper.tensor_dtype_to_np_dtype(dst))
    _same(_convert_and_run(model, {'x': x}, tmp_path)[0], expected)


@pytest.mark.parametrize('elem_type', [BF16, E4M3, E5M2])
def test_narrow_float_initializer(elem_type, tmp_path):
    """An initializer of the type (raw_data) read as such and written to the IR with its element type."""
    weights = np.linspace(-3, 3, 7, dtype=np.float32).astype(ML_TYPES[elem_type]).reshape(7, 1)
    model = make_model([helper.make_node('Cast', ['w'], ['w32'], to=TensorProto.FLOAT),
                        helper.make_node('Mul', ['x', 'w32'], ['y'])],
                       [('x', TensorProto.FLOAT, [7, 3])], [('y', TensorProto.FLOAT, [7, 3])],
                       [numpy_helper.from_array(weights, 'w')], opset=19)
    x = np.arange(21, dtype=np.float32).reshape(7, 3)
    _same(_convert_and_run(model, {'x': x}, tmp_path)[0], run_onnxruntime(model, {'x': x})[0])


@pytest.mark.parametrize('elem_type', [I4, U4, E4M3, E5M2])
@pytest.mark.parametrize('count', [7, 8])
def test_dequantize_weights(elem_type, count, tmp_path):
    """DequantizeLinear of an initializer: its Convert stays in the IR, so the IR's i4/u4 packing (odd and even
    element counts) is what OpenVINO reads."""
    dtype = ML_TYPES[elem_type]
    if elem_type in (I4, U4):
        info = ml_dtypes.iinfo(dtype)
        weights = (np.arange(count * 3) % (info.max - info.min + 1) + info.min).astype(dtype).reshape(count, 3)
    else:
        weights = np.linspace(-400, 400, count * 3, dtype=np.float32).astype(dtype).reshape(count, 3)
    scale = np.array(0.5, np.float32)
    model = make_model([helper.make_node('DequantizeLinear', ['w', 'scale'], ['wf']),
                        helper.make_node('Add', ['x', 'wf'], ['y'])],
                       [('x', TensorProto.FLOAT, [count, 3])], [('y', TensorProto.FLOAT, [count, 3])],
                       [numpy_helper.from_array(weights, 'w'), numpy_helper.from_array(scale, 'scale')], opset=21)
    x = np.zeros((count, 3), np.float32)
    actual = _convert_and_run(model, {'x': x}, tmp_path)[0]
    np.testing.assert_array_equal(actual, run_onnxruntime(model, {'x': x})[0])
    if elem_type in (I4, U4):
        xml = (tmp_path / 'model.xml').read_text()
        assert 'element_type="{}"'.format('i4' if elem_type == I4 else 'u4') in xml


F4, E8M0 = TensorProto.FLOAT4E2M1, TensorProto.FLOAT8E8M0
ML_NEW = {F4: ml_dtypes.float4_e2m1fn, E8M0: ml_dtypes.float8_e8m0fnu}
#: float4e2m1's ties (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5), saturation, infinities, signed zeros, tiny values
F4_SPECIAL = np.array([0.0, -0.0, 0.25, 0.26, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -5.0, 5.5, 6.0, 7.0, 100.0, -1e6,
                       np.inf, -np.inf, 0.48, 1.05, -3.5, 1e-7, -0.01, 4.99, 5.01], np.float32)
#: float8e8m0's edges: zeros, f32 subnormals around 2^-127, powers of two and the midpoints between them (ties for
#: ``nearest``), just below/above those, the top exponent and values past it, inf, NaN, negatives (unspecified by the
#: spec: the reference uses |x|)
E8M0_SPECIAL = np.array([0.0, -0.0, 1e-45, 2.0 ** -128, 2.0 ** -127, 1.5 * 2.0 ** -127, 2.0 ** -127 + 2.0 ** -149,
                         0.75 * 2.0 ** -126, 2.0 ** -126, 1.5 * 2.0 ** -126, 1.0, 1.5, np.nextafter(1.5, 0),
                         np.nextafter(1.0, 2), 3.0, 0.75, 0.124, 1.1, 1000.0, 2.0 ** 126 * 1.5, 2.0 ** 127,
                         2.0 ** 127 * 1.25, 2.0 ** 127 * 1.5, 3e38, np.finfo(np.float32).max, np.inf, -np.inf, np.nan,
                         -1.5, -3.0, -0.124], np.float32)


def _evaluate(model, feeds):
    """ONNX's reference evaluator's outputs of ``model``."""
    from onnx.reference import ReferenceEvaluator
    return ReferenceEvaluator(model).run(None, feeds)


def _same_bits(actual, expected):
    """Same ml_dtypes type, shape and bit patterns (the 8-bit and 4-bit types: NaN's pattern too)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(actual.view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize('src', [TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE])
@pytest.mark.parametrize('like', [False, True])
def test_cast_to_float4(src, like, tmp_path):
    with np.errstate(over='ignore'):
        x = F4_SPECIAL.astype(helper.tensor_dtype_to_np_dtype(src))
    if like:
        nodes = [helper.make_node('CastLike', ['x', 'like'], ['y'])]
        inits = [numpy_helper.from_array(np.zeros(1, ml_dtypes.float4_e2m1fn), 'like')]
    else:
        nodes, inits = [helper.make_node('Cast', ['x'], ['y'], to=F4)], []
    model = make_model(nodes, [('x', src, [x.size])], [('y', F4, [x.size])], inits, opset=23)
    _same_bits(_convert_and_run(model, {'x': x}, tmp_path)[0], _evaluate(model, {'x': x})[0])


@pytest.mark.parametrize('src', [TensorProto.FLOAT, TensorProto.FLOAT16])
def test_cast_nan_to_float4_is_six(src, tmp_path):
    """ONNX's float4 spec: NaN -> 6 (float4e2m1 has no NaN); at run time and folded from a constant."""
    x = np.array([np.nan, 1.0], helper.tensor_dtype_to_np_dtype(src))
    model = make_model([helper.make_node('Cast', ['x'], ['y'], to=F4),
                        helper.make_node('Cast', ['c'], ['z'], to=F4)],
                       [('x', src, [2])], [('y', F4, [2]), ('z', F4, [2])], [numpy_helper.from_array(x, 'c')],
                       opset=23)
    for output in _convert_and_run(model, {'x': x}, tmp_path):
        np.testing.assert_array_equal(output.astype(np.float32), [6.0, 1.0])


@pytest.mark.parametrize('src', [TensorProto.INT32, TensorProto.INT8, TensorProto.UINT8])
@pytest.mark.parametrize('dst', [F4, E8M0])
def test_cast_integers_to_new_types(src, dst, tmp_path):
    """From integers, which OpenVINO converts to f4e2m1/f8e8m0 only through f32."""
    x = np.array([0, 1, 2, 3, 5, 6, 7, 100, 127], helper.tensor_dtype_to_np_dtype(src))
    model = make_model([helper.make_node('Cast', ['x'], ['y'], to=dst)], [('x', src, [x.size])],
                       [('y', dst, [x.size])], opset=25)
    _same_bits(_convert_and_run(model, {'x': x}, tmp_path)[0], _evaluate(model, {'x': x})[0])


@pytest.mark.parametrize('dst', [TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.DOUBLE,
                                 TensorProto.INT32, TensorProto.INT8])
def test_cast_from_float4(dst, tmp_path):
    """Every float4e2m1 bit pattern, fed to the IR as an f4e2m1 input (odd count: a half-filled last byte)."""
    x = np.array(list(range(16)) + [5], np.uint8).view(ml_dtypes.float4_e2m1fn)
    model = make_model([helper.make_node('Cast', ['x'], ['y'], to=dst)], [('x', F4, [x.size])],
                       [('y', dst, [x.size])], opset=23)
    _same(_convert_and_run(model, {'x': x}, tmp_path)[0], _evaluate(model, {'x': x})[0])


# not DOUBLE: OpenVINO's CPU plugin turns a float64 +-inf into a finite f32 (test_cast_DOUBLE_to_FLOAT fails so)
@pytest.mark.parametrize('src', [TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16])
@pytest.mark.parametrize('round_mode', ['up', 'down', 'nearest'])
@pytest.mark.parametrize('saturate', [1, 0])
@pytest.mark.parametrize('like', [False, True])
def test_cast_to_e8m0(src, round_mode, saturate, like, tmp_path):
    with np.errstate(over='ignore'):
        x = E8M0_SPECIAL.astype(helper.tensor_dtype_to_np_dtype(src))
    attrs = {'round_mode': round_mode, 'saturate': saturate}
    cast = make_model([helper.make_node('Cast', ['x'], ['y'], to=E8M0, **attrs)], [('x', src, [x.size])],
                      [('y', E8M0, [x.size])], opset=25)
    model = cast
    if like:  # the reference evaluator's CastLike has no round_mode: it is Cast to the like input's type
        model = make_model([helper.make_node('CastLike', ['x', 'like'], ['y'], **attrs)], [('x', src, [x.size])],
                           [('y', E8M0, [x.size])], [numpy_helper.from_array(np.ones(1, ml_dtypes.float8_e8m0fnu),
                                                                             'like')], opset=25)
    _same_bits(_convert_and_run(model, {'x': x}, tmp_path)[0], _evaluate(cast, {'x': x})[0])


def test_cast_constant_to_e8m0(tmp_path):
    """A Cast of an initializer folds in mo: the same values as at run time."""
    x = E8M0_SPECIAL
    model = make_model([helper.make_node('Cast', ['c'], ['y'], to=E8M0, round_mode='nearest'),
                        helper.make_node('Identity', ['x'], ['z'])],
                       [('x', TensorProto.FLOAT, [1])], [('y', E8M0, [x.size]), ('z', TensorProto.FLOAT, [1])],
                       [numpy_helper.from_array(x, 'c')], opset=25)
    feeds = {'x': np.zeros(1, np.float32)}
    _same_bits(_convert_and_run(model, feeds, tmp_path)[0], _evaluate(model, feeds)[0])


@pytest.mark.parametrize('dst', [TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.DOUBLE])
def test_cast_from_e8m0(dst, tmp_path):
    """Every float8e8m0 bit pattern (0xFF is NaN)."""
    x = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu)
    model = make_model([helper.make_node('Cast', ['x'], ['y'], to=dst)], [('x', E8M0, [x.size])],
                       [('y', dst, [x.size])], opset=25)
    _same(_convert_and_run(model, {'x': x}, tmp_path)[0], _evaluate(model, {'x': x})[0])


@pytest.mark.parametrize('elem_type', [F4, E8M0])
@pytest.mark.parametrize('count', [7, 8])
def test_new_type_initializer(elem_type, count, tmp_path):
    """An initializer of the type (raw_data; float4 packed two per byte) written to the IR with its element type;
    its Cast to float stays in the IR (a Cast of a run-time value is added to keep it from folding)."""
    dtype = ML_NEW[elem_type]
    weights = np.arange(count, dtype=np.uint8).view(dtype) if elem_type == F4 else \
        np.arange(120, 120 + count, dtype=np.uint8).view(dtype)
    model = make_model([helper.make_node('DequantizeLinear', ['w', 'scale'], ['wf']),
                        helper.make_node('Add', ['x', 'wf'], ['y'])] if elem_type == F4 else
                       [helper.make_node('Cast', ['w'], ['wf'], to=TensorProto.FLOAT),
                        helper.make_node('Add', ['x', 'wf'], ['y'])],
                       [('x', TensorProto.FLOAT, [count])], [('y', TensorProto.FLOAT, [count])],
                       [numpy_helper.from_array(weights, 'w'), numpy_helper.from_array(np.float32(1), 'scale')],
                       opset=25)
    x = np.zeros(count, np.float32)
    np.testing.assert_array_equal(_convert_and_run(model, {'x': x}, tmp_path)[0], _evaluate(model, {'x': x})[0])
    if elem_type == F4:
        assert 'element_type="f4e2m1"' in (tmp_path / 'model.xml').read_text()



@pytest.mark.parametrize('axis', [None, 0])
def test_quantize_float4(axis, tmp_path):
    """QuantizeLinear to float4e2m1 (x / scale + zero point (0: -0 becomes +0), rounded to nearest even,
    saturated) and DequantizeLinear of the result at run time (no FakeQuantize: float4's levels are not evenly
    spaced)."""
    x = np.array([[0.0, 2.5, 4.8, 8.6, -0.5], [-30.0, -20.0, 6.0, 9.0, 1.5], [-0.0, -2.5, -4.8, -8.6, np.inf]],
                 np.float32)
    scale = np.array([2.0, 3.0, 4.0], np.float32) if axis is not None else np.float32(0.5)
    attrs = {} if axis is None else {'axis': axis}
    zero = np.zeros(scale.shape, ml_dtypes.float4_e2m1fn)
    model = make_model([helper.make_node('QuantizeLinear', ['x', 'scale', 'zero'], ['q'], **attrs),
                        helper.make_node('DequantizeLinear', ['q', 'scale', 'zero'], ['y'], **attrs)],
                       [('x', TensorProto.FLOAT, [3, 5])], [('q', F4, [3, 5]), ('y', TensorProto.FLOAT, [3, 5])],
                       [numpy_helper.from_array(scale, 'scale'), numpy_helper.from_array(zero, 'zero')], opset=23)
    actual, expected = _convert_and_run(model, {'x': x}, tmp_path), _evaluate(model, {'x': x})
    _same_bits(actual[0], expected[0])
    np.testing.assert_array_equal(actual[1], expected[1])
