"""ONNX ops whose axes or split lengths are graph inputs (known at run time only), and reductions over empty sets,
through mo and OpenVINO against onnxruntime: Unsqueeze, Split, the reductions with and without keepdims, bool
ReduceMax/Min, ReduceMax of an empty set."""
import numpy as np
import pytest

pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import TensorProto, helper  # noqa: E402

from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir  # noqa: E402

I64 = TensorProto.INT64
RNG = np.random.default_rng(11)
ONNX_TYPE = {np.dtype(np.float16): TensorProto.FLOAT16, np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float64): TensorProto.DOUBLE,
             np.dtype(np.int32): TensorProto.INT32, np.dtype(np.int64): TensorProto.INT64,
             np.dtype(np.bool_): TensorProto.BOOL}


def _data(shape, dtype=np.float32):
    if np.dtype(dtype) == np.bool_:
        return np.asarray(RNG.random(shape) < 0.5)
    return np.asarray(RNG.standard_normal(shape) * 10).astype(dtype)


def _model(op, x, second, outputs=('y',), opset=18, x_shape=None, **attrs):
    """``op(x, second)`` with both as graph inputs (``second`` an int64 vector); ``x_shape`` may name dims."""
    node = helper.make_node(op, ['x', 'second'], list(outputs), **attrs)
    return make_model([node], [('x', ONNX_TYPE[x.dtype], list(x.shape) if x_shape is None else x_shape),
                               ('second', I64, [len(second)])],
                      [(name, ONNX_TYPE[x.dtype], None) for name in outputs], opset=opset)


@pytest.mark.parametrize('shape,axes', [((), [0]), ((), [1, -2]), ((5,), [0]), ((5,), [-1]), ((3, 4, 5), [1, 3]),
                                        ((3, 4, 5), [-1, 0]), ((3, 4, 5), [4, 0, 2]), ((2, 0, 3), [1]),
                                        ((2, 1, 3), [-2, -5])])
def test_unsqueeze_runtime_axes(tmp_path, shape, axes):
    x, axes = _data(shape), np.array(axes, np.int64)
    check_model(_model('Unsqueeze', x, axes, opset=13), {'x': x, 'second': axes}, tmp_path)


def test_unsqueeze_runtime_axes_dynamic_dims(tmp_path):
    """Symbolic input dims: the IR keeps running at other sizes."""
    x, axes = _data((3, 4)), np.array([0, 2], np.int64)
    model = _model('Unsqueeze', x, axes, opset=13, x_shape=['n', 'm'])
    check_model(model, {'x': x, 'second': axes}, tmp_path)
    other = _data((2, 7))
    check_model(model, {'x': other, 'second': np.array([-1, 1], np.int64)}, tmp_path / 'other')


@pytest.mark.parametrize('opset', [13, 18])
@pytest.mark.parametrize('shape,axis,split', [((6,), 0, [2, 4]), ((6,), 0, [0, 6, 0]), ((2, 6), 1, [1, 2, 3]),
                                              ((2, 6), -1, [6, 0]), ((4, 3), 0, [3, 1]), ((4, 0), 0, [1, 3])])
def test_split_runtime_lengths(tmp_path, opset, shape, axis, split):
    x, split = _data(shape), np.array(split, np.int64)
    outputs = ['y{}'.format(i) for i in range(len(split))]
    model = _model('Split', x, split, outputs=outputs, opset=opset, axis=axis)
    check_model(model, {'x': x, 'second': split}, tmp_path)


REDUCTIONS = ['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2',
              'ReduceLogSumExp', 'ReduceSumSquare']


@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('axes', [[0], [2, 0], [-1], [1, -3], [0, 1, 2]])
@pytest.mark.parametrize('op', REDUCTIONS)
def test_reduce_runtime_axes(tmp_path, op, axes, keepdims):
    x, axes = _data((3, 4, 5)) / 10, np.array(axes, np.int64)
    check_model(_model(op, x, axes, keepdims=keepdims), {'x': x, 'second': axes}, tmp_path)


@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('axes', [[1], [0, -1], [2, 1, 0]])
def test_reduce_log_sum_runtime_axes(tmp_path, axes, keepdims):
    x, axes = np.abs(_data((3, 4, 5))) + 0.5, np.array(axes, np.int64)
    check_model(_model('ReduceLogSum', x, axes, keepdims=keepdims), {'x': x, 'second': axes}, tmp_path)


@pytest.mark.parametrize('runtime_axes', [False, True])
@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('shape,axes', [((4, 3), [1]), ((4, 3), [0, 1]), ((2, 3, 4), [-1, 0]), ((5,), [0])])
@pytest.mark.parametrize('op', ['ReduceMax', 'ReduceMin'])
def test_reduce_bool(tmp_path, op, shape, axes, keepdims, runtime_axes):
    x, axes = _data(shape, np.bool_), np.array(axes, np.int64)
    model, feeds = _bool_reduction(op, x, axes, keepdims, runtime_axes)
    check_model(model, feeds, tmp_path)


def _bool_reduction(op, x, axes, keepdims, runtime_axes):
    if runtime_axes:
        return _model(op, x, axes, opset=20, keepdims=keepdims), {'x': x, 'second': axes}
    node = helper.make_node(op, ['x', 'axes'], ['y'], keepdims=keepdims)
    model = make_model([node], [('x', TensorProto.BOOL, list(x.shape))], [('y', TensorProto.BOOL, None)],
                       {'axes': axes}, opset=20)
    return model, {'x': x}


@pytest.mark.parametrize('runtime_axes', [False, True])
@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('op', ['ReduceMax', 'ReduceMin'])
def test_reduce_bool_empty_set(tmp_path, op, keepdims, runtime_axes):
    """False (Max) and true (Min) over nothing; onnxruntime refuses empty bool sets, so ONNX's reference
    evaluator is the oracle."""
    import mo
    from onnx.reference import ReferenceEvaluator
    x, axes = np.zeros((2, 0, 4), np.bool_), np.array([1], np.int64)
    model, feeds = _bool_reduction(op, x, axes, keepdims, runtime_axes)
    expected = ReferenceEvaluator(model).run(None, feeds)[0]
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    assert_close(run_ir(result.xml_path, feeds, ['y'])[0], expected)


@pytest.mark.parametrize('runtime_axes', [False, True])
@pytest.mark.parametrize('keepdims', [0, 1])
@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.int32])
@pytest.mark.parametrize('op', ['ReduceMax', 'ReduceMin'])
def test_reduce_empty_set(tmp_path, op, dtype, keepdims, runtime_axes):
    """Max of nothing: -inf for floats, the type's lowest value for integers (Min: +inf, the highest). Not float64
    and int64: OpenVINO's CPU plugin computes those in 32 bits and saturates -inf and int64's bounds."""
    x, axes = np.zeros((2, 0, 4), dtype), np.array([1], np.int64)
    if runtime_axes:
        model, feeds = _model(op, x, axes, keepdims=keepdims), {'x': x, 'second': axes}
    else:
        node = helper.make_node(op, ['x', 'axes'], ['y'], keepdims=keepdims)
        model = make_model([node], [('x', ONNX_TYPE[x.dtype], [2, 0, 4])], [('y', ONNX_TYPE[x.dtype], None)],
                           {'axes': axes}, opset=18)
        feeds = {'x': x}
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op', ['ReduceMax', 'ReduceMin'])
def test_reduce_max_dynamic_dims(tmp_path, op):
    """Symbolic dims: the same IR reduces a non-empty set, and an empty one."""
    axes = np.array([1], np.int64)
    node = helper.make_node(op, ['x', 'axes'], ['y'], keepdims=0)
    model = make_model([node], [('x', TensorProto.FLOAT, ['n', 'm'])], [('y', TensorProto.FLOAT, None)],
                       {'axes': axes}, opset=18)
    check_model(model, {'x': _data((3, 4))}, tmp_path)
    check_model(model, {'x': np.zeros((3, 0), np.float32)}, tmp_path / 'empty')
