"""The public API of mo.front.tf.kernels: registry, errors, and robustness against bad inputs."""
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from mo.front.tf import kernels, dtypes
from mo.front.tf.kernels.registry import _KERNELS
from mo.utils.error import Error

REQUIRED_OPS = """Identity IdentityN StopGradient Snapshot PreventGradient Add AddV2 AddN Sub Mul MulNoNan RealDiv
Div DivNoNan FloorDiv FloorMod Mod TruncateDiv Maximum Minimum Pow SquaredDifference BiasAdd Neg Abs Sign
Reciprocal Inv Square Sqrt Rsqrt Exp Expm1 Log Log1p Sin Cos Tan Tanh Sigmoid Erf Erfc Floor Ceil Round Rint
Relu Relu6 Elu Selu LeakyRelu Softplus Softsign Softmax LogSoftmax Equal NotEqual Less LessEqual Greater
GreaterEqual LogicalAnd LogicalOr LogicalNot Select SelectV2 Cast Shape ShapeN Size Rank Reshape ExpandDims
Squeeze Transpose ConjugateTranspose ConcatV2 Concat Pack Unpack Split SplitV StridedSlice Slice GatherV2
Gather GatherNd Fill Range Tile Pad PadV2 MirrorPad ZerosLike OnesLike BroadcastTo BroadcastArgs
BroadcastGradientArgs Mean Sum Max Min Prod All Any ArgMax ArgMin Cumsum Cumprod OneHot MatMul BatchMatMul
BatchMatMulV2 BatchMatMulV3 Einsum Reverse ReverseV2 Where Unique InvertPermutation TopKV2 Conv2D
DepthwiseConv2dNative MaxPool AvgPool FusedBatchNorm FusedBatchNormV3""".split()


def test_supported_ops():
    ops = kernels.supported_ops()
    assert ops == sorted(ops)
    missing = [op for op in REQUIRED_OPS if op not in ops]
    assert not missing
    assert all(kernels.is_supported(op) for op in ops)
    assert not kernels.is_supported('Const') and not kernels.is_supported('Placeholder')
    assert not kernels.is_supported('NoSuchOp')


def test_unsupported_op():
    with pytest.raises(kernels.UnsupportedOp, match='NoSuchOp') as info:
        kernels.evaluate('NoSuchOp', {}, [])
    assert isinstance(info.value, Exception) and isinstance(info.value, Error)
    assert info.value.op_type == 'NoSuchOp'


def test_kernel_error_names_op_and_problem():
    with pytest.raises(kernels.KernelError) as info:
        kernels.evaluate('Reshape', {}, [np.zeros(6, np.float32), np.array([4, -1], np.int32)])
    err = info.value
    assert isinstance(err, Error) and err.op_type == 'Reshape'
    assert str(err).startswith('Reshape: ') and '6 values' in str(err)


def test_input_count_is_checked():
    with pytest.raises(kernels.KernelError, match='expects 2 inputs, got 1'):
        kernels.evaluate('AddV2', {}, [np.ones(2)])
    with pytest.raises(kernels.KernelError, match='at least'):
        kernels.evaluate('ConcatV2', {}, [np.ones(2)])


def test_ragged_input_is_a_kernel_error():
    with pytest.raises(kernels.KernelError):
        kernels.evaluate('Identity', {}, [[[1, 2], [3]]])


def test_outputs_are_arrays_even_for_scalars():
    [out] = kernels.evaluate('AddV2', {'T': dtypes.DT_FLOAT}, [np.float32(1), np.float32(2)])
    assert isinstance(out, np.ndarray) and out.shape == () and out.dtype == np.float32
    [out] = kernels.evaluate('Sum', {}, [np.ones(3, np.int32), np.array(0, np.int32)])
    assert isinstance(out, np.ndarray) and out.dtype == np.int32


def test_every_kernel_is_documented():
    for op, spec in _KERNELS.items():
        assert spec.fn.__doc__ and spec.fn.__doc__.strip(), op
    for fn in (kernels.evaluate, kernels.is_supported, kernels.supported_ops):
        assert fn.__doc__


def test_no_tensorflow_import():
    code = ('import sys, numpy as np; import mo.front.tf.kernels as k; '
            'k.evaluate("Erf", {}, [np.ones(2, np.float32)]); '
            'bad = [m for m in sys.modules if m.split(".")[0] in ("tensorflow", "scipy")]; '
            'assert not bad, bad')
    subprocess.run([sys.executable, '-c', code], check=True)


def test_bfloat16_attr_round_trip():
    a = kernels.float32_to_bf16(np.array([1.5, 2.0, -3.25], np.float32))
    [out] = kernels.evaluate('AddV2', {'T': dtypes.DT_BFLOAT16}, [a, a])
    assert out.dtype == np.uint16
    np.testing.assert_array_equal(kernels.bf16_to_float32(out), [3.0, 4.0, -6.5])
    # data-movement kernels keep the bits as they are
    [moved] = kernels.evaluate('Transpose', {'T': dtypes.DT_BFLOAT16}, [a.reshape(1, 3), np.array([1, 0])])
    np.testing.assert_array_equal(moved.ravel(), a)


def test_bfloat16_rounding():
    x = np.array([1.0, 1.00390625, 1.01171875, 1.0078125 + 2 ** -20, np.inf, -np.inf, np.nan, 3.4e38], np.float32)
    bits = kernels.float32_to_bf16(x)
    back = kernels.bf16_to_float32(bits)
    assert back[0] == 1.0 and back[1] == 1.0  # tie -> even
    assert back[2] == 1.015625  # tie -> even (up)
    assert back[3] == 1.0078125
    assert back[4] == np.inf and back[5] == -np.inf and np.isnan(back[6]) and np.isinf(back[7])


# -- fuzzing: any op, any junk inputs: a result or a KernelError, never a raw numpy exception -------

_DTYPES = [np.float32, np.int32, np.int64, np.bool_, np.float16, np.uint8, np.float64]
_ATTRS = st.fixed_dictionaries({}, optional={
    'T': st.sampled_from([dtypes.DT_FLOAT, dtypes.DT_INT32, dtypes.DT_BFLOAT16]),
    'axis': st.integers(-3, 3), 'keep_dims': st.booleans(), 'num_split': st.integers(-1, 3),
    'N': st.integers(0, 3), 'num': st.integers(-1, 3), 'DstT': st.sampled_from([1, 3, 9, 10, 14, 19, 99]),
    'out_type': st.sampled_from([3, 9]), 'strides': st.lists(st.integers(-1, 2), max_size=5),
    'ksize': st.lists(st.integers(-1, 3), max_size=5), 'padding': st.sampled_from([b'SAME', b'VALID', b'X']),
    'data_format': st.sampled_from([b'NHWC', b'NCHW', b'NDHWC']), 'equation': st.sampled_from(
        ['ij,jk->ik', 'ii->i', 'bad', '->', 'i->']), 'mode': st.sampled_from([b'REFLECT', b'SYMMETRIC', b'X']),
    'squeeze_dims': st.lists(st.integers(-3, 3), max_size=3), 'begin_mask': st.integers(0, 7),
    'shrink_axis_mask': st.integers(0, 7), 'new_axis_mask': st.integers(0, 7), 'ellipsis_mask': st.integers(0, 7),
    'is_training': st.booleans(), 'batch_dims': st.integers(-2, 2), 'index_type': st.sampled_from([3, 9]),
})


@st.composite
def _tensor(draw):
    dtype = draw(st.sampled_from(_DTYPES))
    shape = tuple(draw(st.lists(st.integers(0, 3), max_size=4)))
    values = draw(st.lists(st.integers(-4, 4), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    return np.array(values).astype(dtype).reshape(shape)


# FUZZ_EXAMPLES=30000 for a longer hunt
@settings(max_examples=int(os.environ.get('FUZZ_EXAMPLES', 1500)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(op=st.sampled_from(sorted(_KERNELS)), inputs=st.lists(_tensor(), max_size=5), attrs=_ATTRS)
def test_fuzz_only_kernel_errors(op, inputs, attrs):
    before = [x.copy() for x in inputs]
    try:
        outputs = kernels.evaluate(op, attrs, inputs)
    except kernels.KernelError as e:
        assert str(e).startswith(op + ':')
    else:
        assert isinstance(outputs, list) and all(isinstance(o, np.ndarray) for o in outputs)
    for x, b in zip(inputs, before):
        assert np.array_equal(x, b, equal_nan=True)
