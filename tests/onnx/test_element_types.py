"""ONNX's narrow element types (bfloat16, float8e4m3fn, float8e5m2, int4, uint4) through mo and OpenVINO, against
onnxruntime: Cast to and from them at run time (with and without float8 ``saturate``), initializers of them
(int4/uint4 packed two per byte in the model and in the IR), DequantizeLinear of int4/uint4/float8 weights.
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
