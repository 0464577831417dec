"""ONNX BitCast (opset 26) against onnxruntime: every pair of one width mo writes at run time (integers, bool and
8-bit integers, float16/float32 and the integers of their width), each over random bit patterns and the special
ones (+-0, subnormals, the extremes, +-inf), as a scalar, 1-D and 2-D.

``extensions/middle/bitcast_lowering.py`` cannot keep a NaN's payload or sign: the float feeds hold the quiet NaN
only (the NaN bit patterns fed to the integer -> float pairs become NaNs, which is all a NaN is compared by).
float64 <-> int64 is refused with an Error (OpenVINO's CPU plugin holds both in 32 bits)."""
import numpy as np
import pytest

from tests.onnx.onnx_oracle import assert_close, make_model, run_ir, run_onnxruntime

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import helper  # noqa: E402
from onnx.helper import np_dtype_to_tensor_dtype  # noqa: E402

import mo  # noqa: E402
from mo.utils.error import Error  # noqa: E402

OPSET = 26

PAIRS = [(np.float32, np.int32), (np.float32, np.uint32), (np.int32, np.float32), (np.uint32, np.float32),
         (np.float16, np.int16), (np.float16, np.uint16), (np.int16, np.float16), (np.uint16, np.float16),
         (np.int8, np.uint8), (np.uint8, np.int8), (np.int16, np.uint16), (np.uint16, np.int16),
         (np.int32, np.uint32), (np.uint32, np.int32), (np.bool_, np.uint8), (np.bool_, np.int8)]

SPECIAL = {4: [0, 0x80000000, 1, 0x80000001, 0x7FFFFF, 0x807FFFFF, 0x800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
               0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0xBF800000, 0x7FFFFFFF],
           2: [0, 0x8000, 1, 0x8001, 0x3FF, 0x83FF, 0x400, 0x8400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3C00,
               0xBC00, 0x7FFF],
           1: [0, 0x80, 1, 0x81, 0x7F, 0xFF]}


def _patterns(dtype, shape, rng):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    unsigned = np.dtype('u{}'.format(dtype.itemsize))
    bits = rng.integers(0, 1 << (8 * dtype.itemsize), shape, dtype=np.uint64).astype(unsigned)
    flat = bits.reshape(-1)
    special = SPECIAL[dtype.itemsize][:flat.size]
    flat[:len(special)] = np.array(special, dtype=np.uint64).astype(unsigned)
    if dtype.kind == 'f':  # the quiet NaN only (module docstring)
        flat[np.isnan(flat.view(dtype))] = SPECIAL[dtype.itemsize][12]
    return bits.view(dtype)


def _model(source, target, shape):
    node = helper.make_node('BitCast', ['x'], ['y'], to=np_dtype_to_tensor_dtype(np.dtype(target)))
    return make_model([node], [('x', np_dtype_to_tensor_dtype(np.dtype(source)), list(shape))],
                      [('y', np_dtype_to_tensor_dtype(np.dtype(target)), list(shape))], opset=OPSET)


def _assert_same_bits(actual, expected):
    """The same type, shape and bit patterns (a NaN: any NaN, module docstring); -0.0 is not 0.0."""
    assert_close(actual, expected, rtol=0, atol=0)
    unsigned = 'u{}'.format(expected.dtype.itemsize)
    same = actual.view(unsigned) == expected.view(unsigned)
    if expected.dtype.kind == 'f':
        same |= np.isnan(actual) & np.isnan(expected)
    assert same.all(), 'bit patterns differ: {} (expected {})'.format(actual[~same][:5], expected[~same][:5])


@pytest.mark.parametrize('shape', [(), (7,), (64, 512)], ids=['scalar', '1d', '2d'])
@pytest.mark.parametrize('source,target', PAIRS, ids=['{}-{}'.format(np.dtype(s).name, np.dtype(t).name)
                                                      for s, t in PAIRS])
def test_bitcast_matches_onnxruntime(source, target, shape, tmp_path):
    x = _patterns(source, shape, np.random.default_rng(len(shape)))
    model = _model(source, target, shape)
    if source == np.bool_:  # onnxruntime has no bool BitCast kernel: ONNX's reference implementation instead
        from onnx.reference import ReferenceEvaluator
        expected = ReferenceEvaluator(model).run(None, {'x': x})[0]
    else:
        expected = run_onnxruntime(model, {'x': x})[0]
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    _assert_same_bits(np.asarray(run_ir(result.xml_path, {'x': x}, ['y'])[0]), np.asarray(expected))


@pytest.mark.parametrize('source,target', [(np.float64, np.int64), (np.int64, np.float64)])
def test_bitcast_of_64_bit_floats_is_refused(source, target, tmp_path):
    with pytest.raises(Error, match='not supported at run time'):
        mo.convert_model(_model(source, target, (3,)), output_dir=str(tmp_path), model_name='model')
