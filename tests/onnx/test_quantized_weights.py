"""Quantized weights that stay compressed (MatMulNBits, GatherBlockQuantized, blocked int4/int8 DequantizeLinear) and
16-bit Q/DQ: ONNX graphs built here (random weights quantized with numpy as onnxruntime's quantizers lay them out,
or by those quantizers), converted by mo, run by OpenVINO's CPU and compared with onnxruntime; the IR keeps the
weights as u4/i4/u8/i8 constants and its ``.bin`` about the size of the ONNX model's quantized bytes."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
ov = pytest.importorskip('openvino')

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tests.onnx.onnx_oracle import make_model, run_onnxruntime  # noqa: E402
from tests.support.oracles import compile_openvino

#: OpenVINO's CPU in exact f32, and no dynamic quantization of the activations of compressed-weight MatMuls
_CPU_CONFIG = {'INFERENCE_PRECISION_HINT': 'f32', 'DYNAMIC_QUANTIZATION_GROUP_SIZE': '0'}
_MS = {'com.microsoft': 1}


def _convert(model, tmp_path):
    import mo
    return mo.convert_model(model, output_dir=str(tmp_path), model_name='model')


def _run_ir(xml_path, feeds):
    """The IR's outputs in order, compiled with ``_CPU_CONFIG``."""
    compiled = compile_openvino(xml_path, config=_CPU_CONFIG)
    by_name = {name: port for port in compiled.inputs for name in port.get_names()}
    result = compiled({by_name[name]: value for name, value in feeds.items()})
    return [result[port] for port in compiled.outputs]


def _compare(model, feeds, tmp_path, rtol=1e-4, atol=1e-4):
    """Convert ``model``, run the IR and onnxruntime on ``feeds``, compare; the conversion result and the largest
    absolute difference."""
    result = _convert(model, tmp_path)
    actual, expected = _run_ir(result.xml_path, feeds), run_onnxruntime(model, feeds)
    worst = 0.0
    for a, e in zip(actual, expected):
        assert a.shape == e.shape, (a.shape, e.shape)
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol)
        worst = max(worst, float(np.max(np.abs(a.astype(np.float64) - e))) if e.size else 0.0)
    return result, worst


def _layers(xml_path):
    return list(ET.parse(str(xml_path)).getroot().iter('layer'))


def _const_types(xml_path):
    return [layer.find('data').get('element_type') for layer in _layers(xml_path) if layer.get('type') == 'Const']


def _layer_types(xml_path):
    return [layer.get('type') for layer in _layers(xml_path)]


def _runs_compressed(xml_path, layer='FullyConnected'):
    """Whether OpenVINO's CPU runs the IR's ``layer`` (FullyConnected: a MatMul of constant weights; Gather) on
    compressed weights: its runtime precision is the codes' u4/i4/u8/i8, not f32."""
    compiled = compile_openvino(xml_path, config=_CPU_CONFIG)
    precisions = [op.get_rt_info()['runtimePrecision'].astype(str) for op in compiled.get_runtime_model().get_ops()
                  if op.get_rt_info()['layerType'].astype(str) == layer]
    return bool(precisions) and all(p in ('u2', 'u4', 'i4', 'u8', 'i8') for p in precisions)


def _bin_size(result):
    import os
    return os.path.getsize(str(result.xml_path)[:-4] + '.bin')


# ----- 16-bit Q/DQ ------------------------------------------------------------------------------------------------

_16_BIT = {np.int16: TensorProto.INT16, np.uint16: TensorProto.UINT16}


@pytest.mark.parametrize('dtype', [np.uint16, np.int16])
@pytest.mark.parametrize('axis', [None, 1])
def test_16_bit_quantize_dequantize(dtype, axis, tmp_path):
    """A QuantizeLinear -> DequantizeLinear pair of a 16-bit type on float data: within a hundredth of a
    quantization step of onnxruntime (OpenVINO's 16-bit FakeQuantize is off by about half the range's scale)."""
    rng = np.random.default_rng(16)
    shape = [2, 4, 6, 5]
    scale = (rng.uniform(2e-5, 5e-5, shape[axis]) if axis is not None else np.array(3e-5)).astype(np.float32)
    info = np.iinfo(dtype)
    middle = (int(info.min) + int(info.max) + 1) // 2
    zero = rng.integers(middle - 300, middle + 300, scale.shape).astype(dtype)
    attrs = {} if axis is None else {'axis': axis}
    nodes = [helper.make_node('QuantizeLinear', ['x', 'scale', 'zero'], ['q'], **attrs),
             helper.make_node('DequantizeLinear', ['q', 'scale', 'zero'], ['y'], **attrs)]
    model = make_model(nodes, [('x', TensorProto.FLOAT, shape)], [('y', TensorProto.FLOAT, shape)],
                       {'scale': scale, 'zero': zero}, opset=21)
    x = rng.normal(0, 0.5, shape).astype(np.float32)
    x.flat[:4] = [5.0, -5.0, 0.0, 1e-6]  # beyond the range on both sides: saturated
    result, worst = _compare(model, {'x': x}, tmp_path, rtol=0, atol=float(np.max(scale)) * 0.01)
    assert 'FakeQuantize' not in _layer_types(result.xml_path)


class _RandomReader:
    """A calibration data reader for onnxruntime's quantize_static: a few random batches of input ``x``."""

    def __init__(self, shape, seed=0):
        rng = np.random.default_rng(seed)
        self.batches = iter([{'x': rng.normal(0, 1, shape).astype(np.float32)} for _ in range(4)])

    def get_next(self):
        return next(self.batches, None)


def test_a16w8_quantize_static(tmp_path):
    """A MatMul -> Add -> Relu -> MatMul model quantized by onnxruntime's quantize_static to QDQ with uint16
    activations and int8 weights (a16w8): matches onnxruntime within a few 16-bit steps of the output's range (it
    was off by 3.3 with 16-bit FakeQuantizes)."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    rng = np.random.default_rng(17)
    w1 = rng.normal(0, 0.3, [16, 32]).astype(np.float32)
    b1 = rng.normal(0, 0.1, [32]).astype(np.float32)
    w2 = rng.normal(0, 0.3, [32, 8]).astype(np.float32)
    nodes = [helper.make_node('MatMul', ['x', 'w1'], ['h']), helper.make_node('Add', ['h', 'b1'], ['hb']),
             helper.make_node('Relu', ['hb'], ['r']), helper.make_node('MatMul', ['r', 'w2'], ['y'])]
    model = make_model(nodes, [('x', TensorProto.FLOAT, [4, 16])], [('y', TensorProto.FLOAT, [4, 8])],
                       {'w1': w1, 'b1': b1, 'w2': w2}, opset=21)
    source, quantized = tmp_path / 'float.onnx', tmp_path / 'a16w8.onnx'
    onnx.save(model, str(source))
    quantize_static(str(source), str(quantized), _RandomReader([4, 16]), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt16, weight_type=QuantType.QInt8)
    model = onnx.load(str(quantized))
    kinds = {(node.op_type, init.data_type) for node in model.graph.node for init in model.graph.initializer
             if node.op_type == 'QuantizeLinear' and init.name == node.input[2]}
    assert ('QuantizeLinear', TensorProto.UINT16) in kinds, kinds  # the quantizer did write 16-bit activations
    x = rng.normal(0, 1, [4, 16]).astype(np.float32)
    expected = run_onnxruntime(model, {'x': x})[0]
    # a few 16-bit steps of the output's range: a tie rounded the other way moves a value by one
    result, worst = _compare(model, {'x': x}, tmp_path / 'ir', rtol=0, atol=float(np.ptp(expected)) * 1e-4)
    assert 'FakeQuantize' not in _layer_types(result.xml_path)


# ----- MatMulNBits ------------------------------------------------------------------------------------------------

def _pack(codes, bits):
    """uint8 ``codes`` (< 2^bits) packed ``8 // bits`` a byte along the last axis, the first in the low bits (the
    last axis padded with zeros to a whole byte)."""
    per_byte = 8 // bits
    pad = -codes.shape[-1] % per_byte
    codes = np.concatenate([codes, np.zeros(codes.shape[:-1] + (pad,), np.uint8)], axis=-1).astype(np.uint8)
    codes = codes.reshape(codes.shape[:-1] + (-1, per_byte))
    return np.bitwise_or.reduce(codes << (np.arange(per_byte) * bits).astype(np.uint8), axis=-1).astype(np.uint8)


def _quantize_blocks(w, bits, block, zero_kind, rng):
    """``w`` [N, K] quantized in blocks of ``block`` along K as onnxruntime's MatMulNBits quantizer lays it out: the
    codes [N, blocks, block] (K padded with zeros), scales [N, blocks] and zero points (``'packed'`` uint8, ``'float'``
    or None: symmetric about 2^(bits-1))."""
    n, k = w.shape
    groups = -(-k // block)
    padded = np.zeros([n, groups * block], np.float32)
    padded[:, :k] = w
    blocks = padded.reshape(n, groups, block)
    top = (1 << bits) - 1
    if zero_kind is None:
        scale = np.abs(blocks).max(-1) / (1 << (bits - 1)) + 1e-8
        zero = np.full(scale.shape, 1 << (bits - 1), np.float32)
    else:
        low, high = np.minimum(blocks.min(-1), 0), np.maximum(blocks.max(-1), 0)
        scale = (high - low) / top + 1e-8
        zero = np.clip(np.round(-low / scale), 0, top)
    codes = np.clip(np.round(blocks / scale[..., None]) + zero[..., None], 0, top).astype(np.uint8)
    if zero_kind == 'float':
        zero = (zero + rng.uniform(-0.5, 0.5, zero.shape)).astype(np.float32)  # a float zero point need not be whole
    return codes, scale.astype(np.float32), zero


def _matmul_nbits_model(n, k, bits, block, zero_kind, bias=False, rows=(2, 5), g_idx=None, seed=0):
    """A MatMulNBits model of random weights, and the bytes of its quantized data."""
    rng = np.random.default_rng(seed)
    w = rng.normal(0, 0.2, [n, k]).astype(np.float32)
    codes, scale, zero = _quantize_blocks(w, bits, block, zero_kind, rng)
    packed = _pack(codes.reshape(n, -1), bits).reshape(n, codes.shape[1], block * bits // 8)
    inputs, initializers = ['a', 'b', 'scales'], {'b': packed, 'scales': scale}
    if zero_kind == 'packed':
        initializers['zero_points'] = _pack(zero.astype(np.uint8), bits)
    elif zero_kind == 'float':
        initializers['zero_points'] = zero
    inputs.append('zero_points' if zero_kind else '')
    if g_idx is not None:
        initializers['g_idx'] = g_idx.astype(np.int32)
    inputs.append('g_idx' if g_idx is not None else '')
    if bias:
        initializers['bias'] = rng.normal(0, 1, [n]).astype(np.float32)
        inputs.append('bias')
    node = helper.make_node('MatMulNBits', inputs, ['y'], domain='com.microsoft', K=k, N=n, bits=bits,
                            block_size=block, accuracy_level=1)  # fp32: exact
    model = make_model([node], [('a', TensorProto.FLOAT, list(rows) + [k])],
                       [('y', TensorProto.FLOAT, list(rows) + [n])], initializers, opset=21, domains=_MS)
    quantized_bytes = sum(v.nbytes for name, v in initializers.items() if name != 'bias')
    return model, quantized_bytes, rng.normal(0, 1, list(rows) + [k]).astype(np.float32)


def _check_size(result, quantized_bytes, widening=1, slack=2048):
    """The ``.bin`` is about the ONNX model's quantized bytes (``widening`` times them where codes are held wider): a
    few small constants and the blobs' alignment beyond them."""
    size = _bin_size(result)
    assert size <= quantized_bytes * widening * 1.1 + slack, (size, quantized_bytes)
    return size


MATMUL_NBITS = [  # n, k, bits, block, zero points, bias
    (64, 256, 4, 32, 'packed', False),
    (64, 256, 4, 32, None, True),
    (48, 256, 4, 128, 'float', False),
    (64, 272, 4, 32, 'packed', True),   # K not a multiple of block_size: a short last block
    (32, 200, 4, 16, None, False),      # ... and an odd count of zero points a row
    (64, 256, 8, 32, 'packed', False),
    (64, 256, 8, 64, None, True),
    (40, 160, 8, 128, 'packed', False),  # (onnxruntime's CPU takes no float zero points with 8 bits)
    (40, 160, 2, 32, 'float', True),
    (64, 256, 2, 32, 'packed', False),
    (64, 256, 2, 16, None, False),
]


@pytest.mark.parametrize('n,k,bits,block,zero_kind,bias', MATMUL_NBITS)
def test_matmul_nbits(n, k, bits, block, zero_kind, bias, tmp_path):
    """MatMulNBits with 2/4/8-bit codes, block sizes 16-128, packed, float or no zero points, with and without bias:
    matches onnxruntime; the IR keeps the codes as u2/u4/i4/u8/i8 and its .bin about the model's quantized bytes."""
    model, quantized_bytes, a = _matmul_nbits_model(n, k, bits, block, zero_kind, bias)
    result, worst = _compare(model, {'a': a}, tmp_path, rtol=1e-4, atol=1e-4)
    wanted = {(8, False): 'u8', (8, True): 'i8'}.get((bits, zero_kind is None), 'i4' if zero_kind is None else 'u4')
    wanted = 'u2' if bits == 2 else wanted
    assert wanted in _const_types(result.xml_path), _const_types(result.xml_path)
    assert _runs_compressed(result.xml_path)  # u2 codes too
    assert 'f32' not in {layer.find('data').get('element_type') for layer in _layers(result.xml_path)
                         if layer.get('type') == 'Const' and layer.find('data').get('shape', '').count(',') >= 2
                         and np.prod([int(d) for d in layer.find('data').get('shape').split(',')]) >= n * k}
    _check_size(result, quantized_bytes)  # 2-bit codes too: u2, four a byte


def _act_order(k, block, rng):
    """An act-order g_idx: the columns of each group of ``block`` scattered over K (a random permutation)."""
    g_idx = np.empty(k, np.int32)
    g_idx[rng.permutation(k)] = np.arange(k) // block
    return g_idx


def _nbits_reference(model, a):
    """MatMulNBits computed by numpy from the model's initializers (4-bit, float zero points), g_idx honoured: column
    k dequantized with the scale and zero point of group g_idx[k]."""
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    attrs = {a.name: a.i for a in model.graph.node[0].attribute}
    n, k, block = attrs['N'], attrs['K'], attrs['block_size']
    packed = init['b'].reshape(n, -1)
    codes = np.stack([packed & 15, packed >> 4], -1).reshape(n, -1)[:, :k].astype(np.float64)
    g_idx = init['g_idx'] if 'g_idx' in init else np.arange(k) // block
    w = (codes - init['zero_points'].reshape(n, -1)[:, g_idx]) * init['scales'].reshape(n, -1)[:, g_idx]
    return (a.astype(np.float64) @ w.T).astype(np.float32)


@pytest.mark.parametrize('order', ['blocks', 'act_order'])
def test_matmul_nbits_g_idx(order, tmp_path):
    """MatMulNBits with g_idx: the trivial one (column k in block k // block_size) and an act-order one (each group's
    block_size columns scattered over K): the same numbers as onnxruntime and as numpy. Float zero points: with
    g_idx, onnxruntime's CPU ignores packed uint8 ones (it computes with the default 8, against its own spec)."""
    rng = np.random.default_rng(7)
    n, k, block = 32, 128, 32
    g_idx = np.arange(k) // block if order == 'blocks' else _act_order(k, block, rng)
    model, quantized_bytes, a = _matmul_nbits_model(n, k, 4, block, 'float', g_idx=g_idx, seed=3)
    result, worst = _compare(model, {'a': a}, tmp_path)
    np.testing.assert_allclose(_run_ir(result.xml_path, {'a': a})[0], _nbits_reference(model, a), rtol=1e-4,
                               atol=1e-4)
    assert 'u4' in _const_types(result.xml_path) and _runs_compressed(result.xml_path)
    _check_size(result, quantized_bytes + k * 8)  # g_idx: an int64 order


def test_matmul_nbits_g_idx_uneven_groups_refused(tmp_path):
    """A g_idx whose groups are not block_size columns each cannot be blocks: one clear Error."""
    from mo.utils.error import Error
    rng = np.random.default_rng(8)
    g_idx = _act_order(128, 32, rng)
    g_idx[g_idx == 1] = 0  # group 0 with 64 columns, group 1 with none
    model, _, _ = _matmul_nbits_model(32, 128, 4, 32, 'packed', g_idx=g_idx)
    with pytest.raises(Error, match='g_idx'):
        _convert(model, tmp_path)


def test_matmul_nbits_from_onnxruntime_quantizer(tmp_path):
    """A MatMul model quantized by onnxruntime's own MatMulNBitsQuantizer (4 bits, blocks of 32, asymmetric):
    matches onnxruntime; u4 codes in the IR, .bin about the quantized bytes."""
    from onnxruntime.quantization.matmul_nbits_quantizer import DefaultWeightOnlyQuantConfig, MatMulNBitsQuantizer
    rng = np.random.default_rng(9)
    w1 = rng.normal(0, 0.2, [128, 96]).astype(np.float32)
    w2 = rng.normal(0, 0.2, [96, 64]).astype(np.float32)
    nodes = [helper.make_node('MatMul', ['x', 'w1'], ['h']), helper.make_node('Relu', ['h'], ['r']),
             helper.make_node('MatMul', ['r', 'w2'], ['y'])]
    model = make_model(nodes, [('x', TensorProto.FLOAT, [2, 3, 128])], [('y', TensorProto.FLOAT, [2, 3, 64])],
                       {'w1': w1, 'w2': w2}, opset=21)
    config = DefaultWeightOnlyQuantConfig(block_size=32, is_symmetric=False, accuracy_level=0)
    quantizer = MatMulNBitsQuantizer(model, algo_config=config)
    quantizer.process()
    model = quantizer.model.model
    assert [node.op_type for node in model.graph.node].count('MatMulNBits') == 2
    quantized_bytes = sum(numpy_helper.to_array(t).nbytes for t in model.graph.initializer)
    x = rng.normal(0, 1, [2, 3, 128]).astype(np.float32)
    result, worst = _compare(model, {'x': x}, tmp_path)
    assert 'u4' in _const_types(result.xml_path)
    _check_size(result, quantized_bytes)


# ----- blocked DequantizeLinear -----------------------------------------------------------------------------------

_INT_TYPES = {'int4': TensorProto.INT4, 'uint4': TensorProto.UINT4, 'int8': TensorProto.INT8,
              'uint8': TensorProto.UINT8}
_IR_TYPES = {'int4': 'i4', 'uint4': 'u4', 'int8': 'i8', 'uint8': 'u8'}


def _tensor(name, values, kind):
    """An initializer of integer ``kind`` (int4/uint4 packed two a byte by onnx)."""
    return helper.make_tensor(name, _INT_TYPES[kind], list(values.shape), values.reshape(-1).astype(int).tolist())


def _quantized_bytes(values, kind):
    return (values.size + 1) // 2 if kind.endswith('int4') else values.size


def _blocked_codes(shape, axis, block, kind, with_zero, rng):
    """Random codes of ``kind`` and their blocked scale (and zero point) along ``axis``, as ONNX's blocked
    DequantizeLinear (opset 21) reads them."""
    signed = not kind.startswith('u')
    bits = 4 if kind.endswith('int4') else 8
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    codes = rng.integers(low, high + 1, shape)
    scale_shape = list(shape)
    scale_shape[axis] = -(-shape[axis] // block)
    scale = rng.uniform(0.002, 0.02, scale_shape).astype(np.float32)
    zero = rng.integers(low, high + 1, scale_shape) if with_zero else None
    return codes, scale, zero


BLOCKED_DQ = [  # kind, [K, N], block, zero point
    ('int4', [128, 48], 32, False),
    ('uint4', [128, 48], 32, True),
    ('int4', [160, 40], 64, True),    # K not a multiple of the block
    ('uint4', [96, 33], 16, False),   # an odd element count: the last byte half used
    ('int8', [128, 48], 32, True),
    ('uint8', [128, 48], 128, False),
]


@pytest.mark.parametrize('kind,shape,block,with_zero', BLOCKED_DQ)
def test_blocked_dequantize_matmul(kind, shape, block, with_zero, tmp_path):
    """MatMul(x, DequantizeLinear(w [K, N], axis 0, block_size)) of int4/uint4/int8/uint8 weights, with and without
    zero point: matches onnxruntime; the IR keeps the codes at their width and the .bin about the quantized bytes
    (no full-size scale)."""
    rng = np.random.default_rng(11)
    codes, scale, zero = _blocked_codes(shape, 0, block, kind, with_zero, rng)
    initializers = [_tensor('w', codes, kind), numpy_helper.from_array(scale, 'scale')]
    inputs = ['w', 'scale']
    if with_zero:
        initializers.append(_tensor('zero', zero, kind))
        inputs.append('zero')
    nodes = [helper.make_node('DequantizeLinear', inputs, ['w_float'], axis=0, block_size=block),
             helper.make_node('MatMul', ['x', 'w_float'], ['y'])]
    model = make_model(nodes, [('x', TensorProto.FLOAT, [3, shape[0]])], [('y', TensorProto.FLOAT, [3, shape[1]])],
                       initializers, opset=21)
    x = rng.normal(0, 1, [3, shape[0]]).astype(np.float32)
    result, worst = _compare(model, {'x': x}, tmp_path)
    assert _IR_TYPES[kind] in _const_types(result.xml_path), _const_types(result.xml_path)
    assert _runs_compressed(result.xml_path)
    quantized_bytes = _quantized_bytes(codes, kind) + scale.nbytes + (_quantized_bytes(zero, kind) if with_zero else 0)
    _check_size(result, quantized_bytes)


@pytest.mark.parametrize('kind', ['int4', 'uint8'])
def test_blocked_dequantize_gather(kind, tmp_path):
    """Gather(DequantizeLinear(table [V, H], axis 1, block_size), ids): an embedding table quantized along its rows
    stays compressed and matches onnxruntime."""
    rng = np.random.default_rng(12)
    codes, scale, zero = _blocked_codes([50, 64], 1, 16, kind, True, rng)
    initializers = [_tensor('table', codes, kind), numpy_helper.from_array(scale, 'scale'), _tensor('zero', zero, kind)]
    nodes = [helper.make_node('DequantizeLinear', ['table', 'scale', 'zero'], ['table_float'], axis=1, block_size=16),
             helper.make_node('Gather', ['table_float', 'ids'], ['y'], axis=0)]
    model = make_model(nodes, [('ids', TensorProto.INT64, [2, 5])], [('y', TensorProto.FLOAT, [2, 5, 64])],
                       initializers, opset=21)
    ids = rng.integers(0, 50, [2, 5]).astype(np.int64)
    result, worst = _compare(model, {'ids': ids}, tmp_path)
    assert _IR_TYPES[kind] in _const_types(result.xml_path)
    assert _runs_compressed(result.xml_path, 'Gather')
    _check_size(result, _quantized_bytes(codes, kind) + scale.nbytes + _quantized_bytes(zero, kind))


# ----- GatherBlockQuantized ---------------------------------------------------------------------------------------

GATHER_BLOCK_QUANTIZED = [  # data kind, bits, [V, H], block, zero points, gather_axis, quantize_axis
    ('int4', 4, [50, 64], 16, False, 0, 1),
    ('uint4', 4, [50, 64], 32, True, 0, 1),
    ('uint4', 4, [50, 72], 16, True, 0, -1),   # 72 = 4 blocks of 16 and a short one
    ('int4', 4, [64, 20], 16, True, 1, 0),     # gathered along the columns, quantized along the rows
    ('uint8', 8, [40, 64], 32, True, 0, 1),
    ('uint8', 8, [40, 64], 16, False, 0, 1),
    ('uint8', 4, [40, 64], 32, True, 0, 1),    # two 4-bit codes a byte along the last axis
    ('uint8', 4, [40, 64], 16, False, 0, 1),
    ('uint8', 2, [40, 64], 16, True, 0, 1),
]


@pytest.mark.parametrize('kind,bits,shape,block,with_zero,gather_axis,quantize_axis', GATHER_BLOCK_QUANTIZED)
def test_gather_block_quantized(kind, bits, shape, block, with_zero, gather_axis, quantize_axis, tmp_path):
    """GatherBlockQuantized of int4/uint4 data, or uint8 data holding 2/4/8-bit codes, with and without zero points,
    along either axis, negative and out-of-range indices: matches onnxruntime; the IR keeps the codes at their width,
    the .bin about the quantized bytes."""
    rng = np.random.default_rng(21)
    axis = quantize_axis % len(shape)
    top = (1 << bits) - 1
    signed = kind == 'int4'
    low, high = (-8, 7) if signed else (0, top)
    codes = rng.integers(low, high + 1, shape)
    scale_shape = list(shape)
    scale_shape[axis] = -(-shape[axis] // block)
    scale = rng.uniform(0.002, 0.02, scale_shape).astype(np.float32)
    zero = rng.integers(low, high + 1, scale_shape) if with_zero else None
    if kind == 'uint8':
        data = _pack(codes.astype(np.uint8), bits)
        initializers = [numpy_helper.from_array(data, 'data')]
        quantized_bytes = data.nbytes
        if with_zero:
            packed_zero = _pack(zero.astype(np.uint8), bits)
            initializers.append(numpy_helper.from_array(packed_zero, 'zero'))
            quantized_bytes += packed_zero.nbytes
    else:
        initializers = [_tensor('data', codes, kind)] + ([_tensor('zero', zero, kind)] if with_zero else [])
        quantized_bytes = _quantized_bytes(codes, kind) + (_quantized_bytes(zero, kind) if with_zero else 0)
    initializers.append(numpy_helper.from_array(scale, 'scale'))
    quantized_bytes += scale.nbytes
    node = helper.make_node('GatherBlockQuantized', ['data', 'ids', 'scale'] + (['zero'] if with_zero else []),
                            ['y'], domain='com.microsoft', bits=bits, block_size=block, gather_axis=gather_axis,
                            quantize_axis=quantize_axis)
    out_shape = [2, 3, shape[1]] if gather_axis == 0 else [shape[0], 2, 3]
    model = make_model([node], [('ids', TensorProto.INT64, [2, 3])], [('y', TensorProto.FLOAT, out_shape)],
                       initializers, opset=21, domains=_MS)
    ids = rng.integers(-shape[gather_axis], shape[gather_axis], [2, 3]).astype(np.int64)  # negative ones too
    ids[1, 2] = shape[gather_axis] + 3  # out of range: zeros, in onnxruntime as in OpenVINO's Gather
    result, worst = _compare(model, {'ids': ids}, tmp_path)
    if kind != 'uint8':
        wanted = _IR_TYPES[kind]
    elif with_zero:
        wanted = 'u8' if bits == 8 else 'u4'
    else:
        wanted = 'i8' if bits == 8 else 'i4'  # the default zero point 2^(bits-1) taken into signed codes
    assert wanted in _const_types(result.xml_path), _const_types(result.xml_path)
    if gather_axis == 0:  # (OpenVINO's CPU gathers compressed rows only)
        assert _runs_compressed(result.xml_path, 'Gather')
    _check_size(result, quantized_bytes, 2 if bits == 2 else 1)  # 2-bit codes held as 4-bit ones


def test_matmul_nbits_float16(tmp_path):
    """A float16 MatMulNBits (A, scales, float zero points and bias in float16): the codes are converted to f16 and
    the result matches onnxruntime within float16's precision."""
    rng = np.random.default_rng(13)
    n, k, block = 48, 128, 32
    w = rng.normal(0, 0.2, [n, k]).astype(np.float32)
    codes, scale, zero = _quantize_blocks(w, 4, block, 'packed', rng)
    packed = _pack(codes.reshape(n, -1), 4).reshape(n, -1, block // 2)
    initializers = {'b': packed, 'scales': scale.astype(np.float16), 'zero_points': zero.astype(np.float16),
                    'bias': rng.normal(0, 1, [n]).astype(np.float16)}
    node = helper.make_node('MatMulNBits', ['a', 'b', 'scales', 'zero_points', '', 'bias'], ['y'],
                            domain='com.microsoft', K=k, N=n, bits=4, block_size=block)
    model = make_model([node], [('a', TensorProto.FLOAT16, [3, k])], [('y', TensorProto.FLOAT16, [3, n])],
                       initializers, opset=21, domains=_MS)
    a = rng.normal(0, 1, [3, k]).astype(np.float16)
    result, worst = _compare(model, {'a': a}, tmp_path, rtol=1e-2, atol=2e-2)
    assert 'u4' in _const_types(result.xml_path)


@pytest.mark.parametrize('case', ['weight_prepacked', 'B not constant', 'bits 3', 'GatherBlockQuantized float8'])
def test_refused_forms(case, tmp_path):
    """Forms mo cannot express: one clear Error each."""
    from mo.utils.error import Error
    if case == 'GatherBlockQuantized float8':
        import ml_dtypes
        data = numpy_helper.from_array(np.ones([8, 32], ml_dtypes.float8_e4m3fn), 'data')
        node = helper.make_node('GatherBlockQuantized', ['data', 'ids', 'scale'], ['y'], domain='com.microsoft',
                                block_size=16)
        model = make_model([node], [('ids', TensorProto.INT64, [2])], [('y', TensorProto.FLOAT, [2, 32])],
                           [data, numpy_helper.from_array(np.ones([8, 2], np.float32), 'scale')], opset=21,
                           domains=_MS)
        with pytest.raises(Error, match='GatherBlockQuantized.*float8'):
            _convert(model, tmp_path)
        return
    model, _, _ = _matmul_nbits_model(16, 64, 4, 32, 'packed')
    node = model.graph.node[0]
    if case == 'weight_prepacked':
        node.attribute.append(helper.make_attribute('weight_prepacked', 1))
    elif case == 'bits 3':
        next(a for a in node.attribute if a.name == 'bits').i = 3
    else:
        b = next(t for t in model.graph.initializer if t.name == 'b')
        model.graph.initializer.remove(b)
        model.graph.input.append(helper.make_tensor_value_info('b', TensorProto.UINT8, list(b.dims)))
    with pytest.raises(Error, match='MatMulNBits'):
        _convert(model, tmp_path)
