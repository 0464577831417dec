"""The built-in rules that lower TensorFlow's element-wise ops, checked without TensorFlow or OpenVINO.

Each case is one TF op on constant inputs, in a GraphDef built with mo's own protos. Load-phase folding (which
would compute the TF op itself with the numpy kernels) is switched off, so the op reaches the front phase, its
rule lowers it to opset ops, and the middle phase folds that formula with the opset ops' value inference. The
IR is then one constant, which must equal what ``mo.front.tf.kernels`` computes for the TF op: the kernels are
the numeric reference here (``tests/kernels`` checks them against TensorFlow), so a rule whose formula departs
from TF's definition (a sign, a rounding, a special value) fails where it lives, on any machine.

The inputs cover each op's special values: zeros, signed zeros, negative operands of integer division, ties of
rounding, infinities and NaN where TF defines a result for them.
"""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import mo
from mo.front.tf import dtypes, kernels
from mo.front.tf.attrs import encode_attr
from mo.front.tf.proto import GraphDef

FLOATS = np.array([-3.5, -2.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5, 2.5, 7.0], np.float32)
#: magnitudes where a formula's cancellation shows (Exp(x) - 1 and Log(1 + x) lose all digits of 1e-8)
TINY = np.array([-1e-3, -3e-5, -1e-8, 1e-8, 3e-5, 1e-3, 100.0, -100.0], np.float32)
SPECIAL = np.array([-np.inf, np.inf, np.nan], np.float32)
INTS = np.array([-7, -6, -5, -3, -1, 0, 1, 2, 3, 5, 6, 7], np.int32)
#: special values make numpy warn on both sides (log of a negative, inf - inf): expected here
pytestmark = pytest.mark.filterwarnings('ignore::RuntimeWarning')

NONZERO_INTS = np.array([-4, -3, -2, -1, 1, 2, 3, 4, -3, 3, -2, 2], np.int32)

#: TF op -> the inputs' dtypes, for unary ops of floats
UNARY_FLOAT = ['Abs', 'Acos', 'Acosh', 'Asin', 'Asinh', 'Atan', 'Atanh', 'Ceil', 'Cos', 'Cosh', 'Elu', 'Erf',
               'Erfc', 'Exp', 'Expm1', 'Floor', 'Inv', 'IsFinite', 'IsInf', 'IsNan', 'Log', 'Log1p', 'Neg',
               'Reciprocal', 'Relu', 'Relu6', 'Round', 'Rsqrt', 'Selu', 'Sigmoid', 'Sign', 'Sin', 'Sinh', 'Softplus',
               'Softsign', 'Sqrt', 'Square', 'Tan', 'Tanh', 'LeakyRelu']
UNARY_INT = ['Abs', 'Neg', 'Sign', 'Square']
BINARY_FLOAT = ['Add', 'AddV2', 'Atan2', 'Div', 'DivNoNan', 'Equal', 'FloorDiv', 'FloorMod', 'Greater',
                'GreaterEqual', 'Less', 'LessEqual', 'Maximum', 'Minimum', 'Mod', 'Mul', 'NotEqual', 'Pow', 'RealDiv',
                'SquaredDifference', 'Sub', 'TruncateMod', 'Xdivy', 'Xlog1py', 'Xlogy']
BINARY_INT = ['Add', 'AddV2', 'Div', 'Equal', 'FloorDiv', 'FloorMod', 'Greater', 'Maximum', 'Minimum',
              'Mod', 'Mul', 'NotEqual', 'SquaredDifference', 'Sub', 'TruncateDiv', 'TruncateMod']


def _const(graph_def, name, value: np.ndarray):
    node = graph_def.node.add()
    node.name, node.op = name, 'Const'
    node.attr['dtype'].type = dtypes.tf_dtype_from_numpy(value.dtype)
    tensor = node.attr['value'].tensor
    tensor.dtype = dtypes.tf_dtype_from_numpy(value.dtype)
    for size in value.shape:
        tensor.tensor_shape.dim.add().size = size
    tensor.tensor_content = np.ascontiguousarray(value).tobytes()
    return name


def _decoded(value):
    """The attribute as ``kernels.evaluate`` takes it (types as TF's DataType numbers)."""
    return dtypes.tf_dtype_from_numpy(value) if isinstance(value, np.dtype) else value


def _graph(op: str, inputs, attrs) -> GraphDef:
    graph_def = GraphDef()
    graph_def.versions.producer = 1000
    names = [_const(graph_def, 'in%d' % i, value) for i, value in enumerate(inputs)]
    node = graph_def.node.add()
    node.name, node.op = 'op', op
    node.input.extend(names)
    for key, value in attrs.items():
        node.attr[key].CopyFrom(encode_attr(value))
    return graph_def


_IR_TYPES = {'f32': np.float32, 'f64': np.float64, 'i32': np.int32, 'i64': np.int64, 'boolean': np.bool_,
             'u8': np.uint8, 'u16': np.uint16, 'i16': np.int16}


def _ir_constant(xml_path, bin_path) -> np.ndarray:
    """The value of the one Const the IR's Result reads (the IR of a model folded to a constant)."""
    root = ET.parse(xml_path).getroot()
    layers = {layer.get('id'): layer for layer in root.iter('layer')}
    assert sorted(layer.get('type') for layer in layers.values()) == ['Const', 'Result'], \
        'the formula did not fold: {}'.format(sorted(layer.get('type') for layer in layers.values()))
    const = next(layer for layer in layers.values() if layer.get('type') == 'Const')
    data = const.find('data')
    shape = [int(d) for d in data.get('shape').split(',') if d]
    raw = open(bin_path, 'rb').read()[int(data.get('offset')):int(data.get('offset')) + int(data.get('size'))]
    return np.frombuffer(raw, _IR_TYPES[data.get('element_type')]).reshape(shape)


def _check(op: str, inputs, monkeypatch, tmp_path, attrs=None, port=0):
    """TF op ``op`` on constant ``inputs`` (``attrs``: ``T`` is the first input's type unless given), converted with
    its rule and folded by mo, against the numpy kernel's output ``port``."""
    monkeypatch.setenv('MO_DISABLED_TRANSFORMS', 'TFConstantFolding')
    attrs = dict({'T': inputs[0].dtype}, **(attrs or {}))
    expected = kernels.evaluate(op, {key: _decoded(value) for key, value in attrs.items()}, inputs)[port]
    result = mo.convert_model(_graph(op, inputs, attrs).SerializeToString(), output_dir=str(tmp_path),
                              output=['op' if port == 0 else 'op:%d' % port])
    actual = _ir_constant(result.xml_path, result.bin_path)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape, (actual, expected)
    if np.issubdtype(expected.dtype, np.floating):
        # both sides are numpy in the same precision; the formula may round differently by an ulp or two
        np.testing.assert_allclose(actual, expected, rtol=2e-6, atol=1e-7, equal_nan=True)
        assert np.array_equal(np.signbit(actual[actual == 0]), np.signbit(expected[actual == 0])) or op in _ANY_ZERO
    else:
        np.testing.assert_array_equal(actual, expected)


#: ops whose zero results have either sign in TF itself: its vectorized and scalar kernels differ (Xdivy(-0, 3) is
#: -0 in a SIMD packet, +0 in the tail) or the sign comes from max/min/fmod order (Relu6, Elu, Selu of -0, FloorMod)
_ANY_ZERO = {'Xdivy', 'Xlogy', 'Xlog1py', 'Relu6', 'Elu', 'Selu', 'FloorMod'}


#: magnitudes where formulas overflow or underflow in between (x * x, Exp(x), 1 + x)
LARGE = np.array([1e30, -1e30, 3e38, -3e38, 1e-30, -1e-30, 88.5, -88.5], np.float32)


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('op', UNARY_FLOAT)
def test_unary_float_rule_computes_tfs_op(op, dtype, monkeypatch, tmp_path):
    _check(op, [np.concatenate([FLOATS, SPECIAL, TINY, LARGE]).astype(dtype)], monkeypatch, tmp_path)


@pytest.mark.parametrize('op', UNARY_INT)
def test_unary_int_rule_computes_tfs_op(op, monkeypatch, tmp_path):
    _check(op, [INTS], monkeypatch, tmp_path)


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('op', BINARY_FLOAT)
def test_binary_float_rule_computes_tfs_op(op, dtype, monkeypatch, tmp_path):
    x = np.concatenate([FLOATS, SPECIAL, [0.0, -0.0, 2.0, 1e30, -1e-30, 1e-8]]).astype(dtype)
    y = np.concatenate([FLOATS[::-1], [2.0, -3.0, 0.0], [0.0, 0.0, np.nan, 1e-30, 1e30, 1e-8]]).astype(dtype)
    _check(op, [x, y], monkeypatch, tmp_path)


@pytest.mark.parametrize('dtype', [np.int32, np.int64])
@pytest.mark.parametrize('op', BINARY_INT)
def test_binary_int_rule_computes_tfs_op(op, dtype, monkeypatch, tmp_path):
    _check(op, [INTS.astype(dtype), NONZERO_INTS.astype(dtype)], monkeypatch, tmp_path)


def test_broadcasting_rule_computes_tfs_op(monkeypatch, tmp_path):
    x = FLOATS.reshape(3, 1, 4)
    y = np.array([[-2.0, 0.5, 3.0, -0.25]], np.float32)
    _check('FloorMod', [x, y], monkeypatch, tmp_path)


_X = np.arange(-11, 13, dtype=np.float32).reshape(2, 3, 4) / 4
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)

#: TF op, its inputs, its attributes (beyond T): one case per rule of a non-element-wise op. Not here: the rules
#: whose formula ends in an opset op mo infers shapes for but does not compute (CumSum, Reverse, Roll, GatherND,
#: ScatterNDUpdate, OneHot, Bucketize: mo/ops/tensor_ops.py, sequence_ops.py): their IR is run by OpenVINO
#: against TensorFlow in tests/ops instead
OTHER_CASES = {
    'Sum_keep_dims': ('Sum', [_X, np.array([0, -1], np.int32)], {'keep_dims': True, 'Tidx': _I32}),
    'Mean': ('Mean', [_X, np.array([1], np.int32)], {'keep_dims': False, 'Tidx': _I32}),
    'Prod': ('Prod', [_X, np.array([2], np.int64)], {'keep_dims': False, 'Tidx': _I64}),
    'Max_empty_axes': ('Max', [_X, np.zeros(0, np.int32)], {'keep_dims': False, 'Tidx': _I32}),
    'EuclideanNorm': ('EuclideanNorm', [_X, np.array([0, 2], np.int32)], {'keep_dims': True, 'Tidx': _I32}),
    'L2Loss': ('L2Loss', [_X], {}),
    'Softmax': ('Softmax', [_X], {}),
    'LogSoftmax': ('LogSoftmax', [_X], {}),
    'ClipByValue': ('ClipByValue', [_X, np.float32(-1.0), np.float32(0.5)], {}),
    'Cumprod': ('Cumprod', [_X, np.int32(-1)], {'exclusive': False, 'reverse': False, 'Tidx': _I32}),
    'Transpose': ('Transpose', [_X, np.array([2, 0, 1], np.int32)], {'Tperm': _I32}),
    'Tile': ('Tile', [_X, np.array([1, 2, 1], np.int32)], {'Tmultiples': _I32}),
    'Pad': ('Pad', [_X, np.array([[0, 1], [2, 0], [1, 1]], np.int32)], {'Tpaddings': _I32}),
    'MirrorPad_reflect': ('MirrorPad', [_X, np.array([[1, 1], [2, 1], [0, 3]], np.int32)],
                          {'Tpaddings': _I32, 'mode': b'REFLECT'}),
    'MirrorPad_symmetric': ('MirrorPad', [_X, np.array([[1, 1], [2, 1], [0, 3]], np.int32)],
                            {'Tpaddings': _I32, 'mode': b'SYMMETRIC'}),
    'Slice_minus_one': ('Slice', [_X, np.array([1, 0, 1], np.int32), np.array([-1, 2, -1], np.int32)],
                        {'Index': _I32}),
    'StridedSlice_masks': ('StridedSlice', [_X, np.array([0, 2, 0], np.int32), np.array([0, 0, 3], np.int32),
                                            np.array([1, -1, 2], np.int32)],
                           {'Index': _I32, 'begin_mask': 1, 'end_mask': 3, 'ellipsis_mask': 0, 'new_axis_mask': 0,
                            'shrink_axis_mask': 0}),
    'StridedSlice_shrink_new_axis': ('StridedSlice', [_X, np.array([1, 0, 0], np.int32),
                                                      np.array([2, 0, 0], np.int32), np.array([1, 1, 1], np.int32)],
                                     {'Index': _I32, 'begin_mask': 0, 'end_mask': 0, 'ellipsis_mask': 4,
                                      'new_axis_mask': 2, 'shrink_axis_mask': 1}),
    'GatherV2_batch_dims': ('GatherV2', [_X, np.array([[2, 0], [1, 1]], np.int32), np.int32(2)],
                            {'Tparams': _F32, 'Tindices': _I32, 'Taxis': _I32, 'batch_dims': 1}),
    'Range': ('Range', [np.float32(-1.0), np.float32(2.0), np.float32(0.75)], {'Tidx': _F32}),
    'Fill': ('Fill', [np.array([2, 3], np.int32), np.float32(2.5)], {'index_type': _I32}),
    'ConcatV2': ('ConcatV2', [_X, _X[:, :1] * 3, np.int32(1)], {'N': 2, 'Tidx': _I32}),
    'Pack': ('Pack', [_X[0], _X[1]], {'N': 2, 'axis': -1}),
    'ExpandDims': ('ExpandDims', [_X, np.int32(-2)], {'Tdim': _I32}),
    'Squeeze': ('Squeeze', [_X[:, :1]], {'squeeze_dims': [1]}),
    'Reshape_minus_one': ('Reshape', [_X, np.array([4, -1], np.int32)], {'Tshape': _I32}),
    'SelectV2_broadcast': ('SelectV2', [np.array([True, False, True, False]), _X, np.float32(9.0)], {}),
    'MatMul_transposed': ('MatMul', [_X[0], _X[1]], {'transpose_a': False, 'transpose_b': True}),
    'BatchMatMulV2_adjoint': ('BatchMatMulV2', [_X, _X[:1]], {'adj_x': True, 'adj_y': False}),
    'ArgMax': ('ArgMax', [_X, np.int32(1)], {'Tidx': _I32, 'output_type': _I64}),
    'ArgMin': ('ArgMin', [_X[:, ::-1], np.int32(-1)], {'Tidx': _I32, 'output_type': _I32}),
    'MatrixBandPart': ('MatrixBandPart', [_X, np.int64(1), np.int64(0)], {'Tindex': _I64}),
    'BroadcastTo': ('BroadcastTo', [_X[:1], np.array([3, 3, 4], np.int32)], {'Tidx': _I32}),
    'BroadcastArgs': ('BroadcastArgs', [np.array([2, 1, 4], np.int32), np.array([3, 1], np.int32)], {}),
    'Shape': ('Shape', [_X], {'out_type': _I64}),
    'Size': ('Size', [_X], {'out_type': _I32}),
    'Rank': ('Rank', [_X], {}),
    'LinSpace': ('LinSpace', [np.float32(-1.0), np.float32(2.0), np.int32(7)], {'Tidx': _I32}),
    'LeakyRelu_alpha': ('LeakyRelu', [_X], {'alpha': 0.3}),
    'FusedBatchNormV3': ('FusedBatchNormV3', [_X[None], np.array([1.0, 2.0, 0.5, -1.0], np.float32),
                                              np.array([0.0, 0.1, -0.2, 0.3], np.float32),
                                              np.array([0.5, -0.5, 0.0, 1.0], np.float32),
                                              np.array([1.0, 0.25, 4.0, 2.0], np.float32)],
                         {'U': _F32, 'epsilon': 0.001, 'is_training': False, 'data_format': b'NHWC'}),
    'FusedBatchNormV3_training': ('FusedBatchNormV3', [_X[None], np.array([1.0, 2.0, 0.5, -1.0], np.float32),
                                                       np.array([0.0, 0.1, -0.2, 0.3], np.float32),
                                                       np.array([0.5, -0.5, 0.0, 1.0], np.float32),
                                                       np.array([1.0, 0.25, 4.0, 2.0], np.float32)],
                                  {'U': _F32, 'epsilon': 0.001, 'is_training': True, 'exponential_avg_factor': 0.25,
                                   'data_format': b'NHWC'}),
    'ArgMax_uint16': ('ArgMax', [_X, np.int32(1)], {'Tidx': _I32, 'output_type': dtypes.DT_UINT16}),
}


@pytest.mark.parametrize('case', sorted(OTHER_CASES))
def test_rule_computes_tfs_op(case, monkeypatch, tmp_path):
    op, inputs, attrs = OTHER_CASES[case]
    inputs = [np.asarray(value) for value in inputs]
    _check(op, inputs, monkeypatch, tmp_path, attrs)
