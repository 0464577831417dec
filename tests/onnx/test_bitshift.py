"""ONNX BitShift against onnxruntime: both directions, every type of opset 11 (unsigned) and of the newest opset
(signed too), each amount in [0, bits) and outside it (negative, bits, beyond), broadcast and constant amounts.

OpenVINO's CPU plugin holds 64-bit integers in 32 bits, so 64-bit feeds (and a left shift's results) stay within
int32 (``extensions/middle/bitshift_lowering.py``)."""
import numpy as np
import pytest

from tests.onnx.onnx_oracle import check_model, make_model

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import helper  # noqa: E402
from onnx.helper import np_dtype_to_tensor_dtype  # noqa: E402

UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
NEWEST = 28  # signed types and the out-of-range rule


def _amounts(dtype, direction):
    bits = 8 * np.dtype(dtype).itemsize
    amounts = list(range(bits)) + [bits, bits + 3]
    if np.dtype(dtype).kind == 'i':
        amounts += [-1, -bits]
    if bits == 64 and direction == 'LEFT':
        amounts = [a for a in amounts if a < 24 or a >= 64]  # the result within int32 (module docstring)
    return np.array(amounts).astype(dtype)


def _values(dtype, direction, columns, rng):
    bits = 8 * np.dtype(dtype).itemsize
    info = np.iinfo(np.int32 if bits == 64 else dtype)
    signed = np.dtype(dtype).kind == 'i'
    low, high = (int(info.min) if signed else 0), int(info.max)
    if bits == 64 and direction == 'LEFT':
        low, high = (-128 if signed else 0), 127
    rows = [low, high, -1 if signed else high - 1, 1, 0]
    values = rng.integers(low, high + 1, (len(rows) + 3, columns), dtype=np.int64)
    values[:len(rows)] = np.array(rows)[:, None]
    return values.astype(dtype)


def _model(dtype, direction, opset, x_shape, y_shape, initializers=None):
    elem = np_dtype_to_tensor_dtype(np.dtype(dtype))
    inputs = [('x', elem, list(x_shape))] + ([] if initializers else [('y', elem, list(y_shape))])
    node = helper.make_node('BitShift', ['x', 'y'], ['z'], direction=direction)
    return make_model([node], inputs, [helper.make_tensor_value_info('z', elem, None)],
                      initializers=initializers or {}, opset=opset)


@pytest.mark.parametrize('direction', ['LEFT', 'RIGHT'])
@pytest.mark.parametrize('dtype', UNSIGNED + SIGNED, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize('opset', [11, NEWEST])
def test_bitshift_every_amount(tmp_path, opset, dtype, direction):
    if opset == 11 and dtype in SIGNED:
        pytest.skip('opset 11 defines BitShift on unsigned types only')
    amounts = _amounts(dtype, direction)
    if opset == 11:  # onnxruntime's opset-11 kernel shifts by the amount as C++ does: only [0, bits) is defined
        amounts = amounts[amounts.astype(np.int64) < 8 * np.dtype(dtype).itemsize]
    x = _values(dtype, direction, len(amounts), np.random.default_rng(3))
    check_model(_model(dtype, direction, opset, x.shape, amounts.shape), {'x': x, 'y': amounts}, tmp_path)


@pytest.mark.parametrize('direction', ['LEFT', 'RIGHT'])
@pytest.mark.parametrize('dtype', [np.uint8, np.int16, np.uint32, np.int32], ids=lambda t: np.dtype(t).name)
def test_bitshift_by_a_constant(tmp_path, dtype, direction):
    """``x >> 3`` with the amount an initializer (a scalar broadcast to x)."""
    x = _values(dtype, direction, 6, np.random.default_rng(4))
    model = _model(dtype, direction, NEWEST, x.shape, (), initializers={'y': np.array(3, dtype=dtype)})
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('dtype', [np.int8, np.uint16, np.int32], ids=lambda t: np.dtype(t).name)
def test_bitshift_broadcasts_x_against_amounts(tmp_path, dtype):
    """x [4, 1] against amounts [1, 9]: numpy broadcasting either way."""
    x = _values(dtype, 'RIGHT', 1, np.random.default_rng(5))[:4]
    amounts = np.arange(9).astype(dtype).reshape(1, 9)
    check_model(_model(dtype, 'RIGHT', NEWEST, x.shape, amounts.shape), {'x': x, 'y': amounts}, tmp_path)
