"""ONNX tensor and shape ops through mo and OpenVINO against onnxruntime, for the attribute and opset
combinations the backend suite does not cover (constant axes and pads, old opsets' attributes, reductions)."""
import numpy as np
import pytest

pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import TensorProto, helper  # noqa: E402

import mo  # noqa: E402
from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir, run_onnxruntime  # noqa: E402

F = TensorProto.FLOAT
RNG = np.random.default_rng(7)
X = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)


def _one_node(op, attrs, opset, initializers=None, extra_inputs=(), out_type=F, outputs=('y',), x=X):
    node = helper.make_node(op, ['x'] + [name for name in extra_inputs], list(outputs), **attrs)
    return make_model([node], [('x', F if x.dtype == np.float32 else TensorProto.INT64, list(x.shape))],
                      [(name, out_type, None) for name in outputs], initializers or {}, opset=opset)


@pytest.mark.parametrize('opset', [11, 13])
@pytest.mark.parametrize('axes', [[1], [-1, 0], [4, 2]])
def test_unsqueeze(tmp_path, opset, axes):
    if opset < 13:
        model = _one_node('Unsqueeze', {'axes': axes}, opset)
    else:
        model = _one_node('Unsqueeze', {}, opset, {'axes': np.array(axes, np.int64)}, ['axes'])
    check_model(model, {'x': X}, tmp_path)


@pytest.mark.parametrize('opset', [11, 13])
@pytest.mark.parametrize('axes', [None, [0], [-2]])
def test_squeeze(tmp_path, opset, axes):
    x = RNG.standard_normal((1, 3, 1, 5)).astype(np.float32)
    if axes is None:
        model = _one_node('Squeeze', {}, opset, x=x)
    elif opset < 13:
        model = _one_node('Squeeze', {'axes': axes}, opset, x=x)
    else:
        model = _one_node('Squeeze', {}, opset, {'axes': np.array(axes, np.int64)}, ['axes'], x=x)
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('perm', [None, [0, 2, 3, 1], [3, 2, 1, 0]])
def test_transpose(tmp_path, perm):
    check_model(_one_node('Transpose', {} if perm is None else {'perm': perm}, 13), {'x': X}, tmp_path)


@pytest.mark.parametrize('axis', [0, 1, 3, 4, -1, -3])
def test_flatten(tmp_path, axis):
    check_model(_one_node('Flatten', {'axis': axis}, 13), {'x': X}, tmp_path)


@pytest.mark.parametrize('axis', [0, 1, 2, -1, 3])
def test_flatten_empty_dynamic(tmp_path, axis):
    """An empty x of a shape known only at run time keeps its trailing size ([0, 12] at axis 1, not [0, 0])."""
    node = helper.make_node('Flatten', ['x'], ['y'], axis=axis)
    model = make_model([node], [('x', F, ['n', 3, 4])], [('y', F, None)], opset=13)
    for rows in (0, 2):
        check_model(model, {'x': np.ones((rows, 3, 4), np.float32)}, tmp_path / str(rows))


@pytest.mark.parametrize('start,end', [(0, None), (1, None), (-2, None), (1, 3), (0, -1), (-10, 10), (3, 1)])
def test_shape_start_end(tmp_path, start, end):
    attrs = {'start': start} if end is None else {'start': start, 'end': end}
    check_model(_one_node('Shape', attrs, 15, out_type=TensorProto.INT64), {'x': X}, tmp_path)


def test_size(tmp_path):
    check_model(_one_node('Size', {}, 13, out_type=TensorProto.INT64), {'x': X}, tmp_path)


@pytest.mark.parametrize('count,axis', [(2, 1), (3, 2), (3, 3), (2, -1)])
def test_split_num_outputs(tmp_path, count, axis):
    outputs = ['y{}'.format(i) for i in range(count)]
    check_model(_one_node('Split', {'axis': axis, 'num_outputs': count}, 18, outputs=outputs), {'x': X}, tmp_path)


@pytest.mark.parametrize('opset', [11, 13])
def test_split_sizes(tmp_path, opset):
    outputs = ['y0', 'y1']
    if opset < 13:
        model = _one_node('Split', {'axis': 3, 'split': [2, 3]}, opset, outputs=outputs)
    else:
        model = _one_node('Split', {'axis': 3}, opset, {'split': np.array([2, 3], np.int64)}, ['split'],
                          outputs=outputs)
    check_model(model, {'x': X}, tmp_path)


@pytest.mark.parametrize('opset', [9, 13])
@pytest.mark.parametrize('case', [([0, 1], [2, 3], [1, 3]), ([-1], [-100], [2]), ([1], [1000], None)])
def test_slice(tmp_path, opset, case):
    starts, ends, axes = case
    if opset < 10:
        attrs = {'starts': starts, 'ends': ends}
        if axes is not None:
            attrs['axes'] = axes
        model = _one_node('Slice', attrs, opset)
    else:
        inits = {'starts': np.array(starts, np.int64), 'ends': np.array(ends, np.int64)}
        names = ['starts', 'ends']
        if axes is not None:
            inits['axes'] = np.array(axes, np.int64)
            names.append('axes')
        model = _one_node('Slice', {}, opset, inits, names)
    check_model(model, {'x': X}, tmp_path)


def test_slice_negative_steps(tmp_path):
    inits = {'starts': np.array([-1, 4], np.int64), 'ends': np.array([-1000, 0], np.int64),
             'axes': np.array([1, 3], np.int64), 'steps': np.array([-1, -2], np.int64)}
    check_model(_one_node('Slice', {}, 13, inits, ['starts', 'ends', 'axes', 'steps']), {'x': X}, tmp_path)


@pytest.mark.parametrize('mode', ['constant', 'reflect', 'edge', 'wrap'])
@pytest.mark.parametrize('opset', [2, 13, 19])
def test_pad(tmp_path, mode, opset):
    pads = [0, 1, 2, 0, 0, 2, 1, 3]
    if mode == 'wrap' and opset < 19:
        pytest.skip('wrap is opset 19')
    if opset < 11:
        model = _one_node('Pad', {'mode': mode, 'pads': pads, 'value': 1.5}, opset)
    else:
        model = _one_node('Pad', {'mode': mode}, opset, {'pads': np.array(pads, np.int64)}, ['pads'])
    check_model(model, {'x': X}, tmp_path)


@pytest.mark.parametrize('mode', ['constant', 'wrap'])
def test_pad_axes(tmp_path, mode):
    inits = {'pads': np.array([1, 2, 3, 1], np.int64), 'value': np.array(2.0, np.float32),
             'axes': np.array([-1, 1], np.int64)}
    check_model(_one_node('Pad', {'mode': mode}, 19, inits, ['pads', 'value', 'axes']), {'x': X}, tmp_path)


@pytest.mark.parametrize('exclusive', [0, 1])
@pytest.mark.parametrize('reverse', [0, 1])
@pytest.mark.parametrize('axis', [0, 2, -1])
def test_cumprod(tmp_path, exclusive, reverse, axis):
    x = np.round(RNG.standard_normal((2, 3, 4)) * 2).astype(np.float32)  # zeros and negatives included
    model = _one_node('CumProd', {'exclusive': exclusive, 'reverse': reverse}, 23,
                      {'axis': np.array(axis, np.int64)}, ['axis'], x=x)
    # onnxruntime has no CumProd: numpy is the reference
    y = np.flip(x, axis) if reverse else x
    y = np.cumprod(y, axis=axis)
    if exclusive:
        y = np.concatenate([np.ones_like(np.take(y, [0], axis)), np.delete(y, -1, axis)], axis)
    y = np.flip(y, axis) if reverse else y
    result = mo.convert_model(model, output_dir=tmp_path)
    assert_close(run_ir(result.xml_path, {'x': x}, ['y'])[0], y.astype(np.float32))


@pytest.mark.parametrize('exclusive', [0, 1])
@pytest.mark.parametrize('reverse', [0, 1])
def test_cumsum(tmp_path, exclusive, reverse):
    model = _one_node('CumSum', {'exclusive': exclusive, 'reverse': reverse}, 14, {'axis': np.array(2, np.int64)},
                      ['axis'])
    check_model(model, {'x': X}, tmp_path)


@pytest.mark.parametrize('reduction', ['none', 'add', 'mul', 'max', 'min'])
def test_scatter_elements(tmp_path, reduction):
    inits = {'indices': np.array([[1, 0, 2], [0, 2, 1]], np.int64),
             'updates': RNG.standard_normal((2, 3)).astype(np.float32)}
    x = RNG.standard_normal((3, 3)).astype(np.float32)
    model = _one_node('ScatterElements', {'axis': 1, 'reduction': reduction}, 18, inits, ['indices', 'updates'], x=x)
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('reduction', ['none', 'add', 'mul', 'max', 'min'])
def test_scatter_nd(tmp_path, reduction):
    inits = {'indices': np.array([[1], [3]], np.int64), 'updates': RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)}
    x = RNG.standard_normal((4, 3, 4, 5)).astype(np.float32)
    model = _one_node('ScatterND', {'reduction': reduction}, 18, inits, ['indices', 'updates'], x=x)
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('largest', [0, 1])
def test_topk_old_opset(tmp_path, largest):
    outputs = ['values', 'indices']
    model = make_model([helper.make_node('TopK', ['x'], outputs, axis=2, k=3)] if largest else
                       [helper.make_node('TopK', ['x'], outputs, axis=2, k=3)], [('x', F, list(X.shape))],
                       [('values', F, None), ('indices', TensorProto.INT64, None)], opset=9)
    check_model(model, {'x': X}, tmp_path)


@pytest.mark.parametrize('upper', [0, 1])
@pytest.mark.parametrize('k', [None, -1, 2])
def test_trilu(tmp_path, upper, k):
    inits, names = ({}, []) if k is None else ({'k': np.array(k, np.int64)}, ['k'])
    check_model(_one_node('Trilu', {'upper': upper}, 14, inits, names), {'x': X}, tmp_path)


@pytest.mark.parametrize('attrs', [{}, {'k': 1}, {'k': -2, 'dtype': TensorProto.INT32}])
def test_eye_like(tmp_path, attrs):
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    out_type = attrs.get('dtype', F)
    check_model(_one_node('EyeLike', attrs, 9, out_type=out_type, x=x), {'x': x}, tmp_path)


@pytest.mark.parametrize('outputs', [['a', 'b'], ['a', 'b', 'c'], ['c', 'a']])
def test_output_cut_at_tensors_computed_from_each_other(tmp_path, outputs):
    """--output naming a tensor and one computed from it keeps what the later one needs (it used to cut the
    edges after every chosen tensor, leaving the Flatten without its input)."""
    nodes = [helper.make_node('Relu', ['x'], ['a']), helper.make_node('Flatten', ['a'], ['b'], axis=1),
             helper.make_node('Sigmoid', ['b'], ['c']), helper.make_node('Tanh', ['c'], ['d'])]
    model = make_model(nodes, [('x', F, ['n', 3, 4])], [(name, F, None) for name in outputs], opset=13)
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    mo.convert_model(model, output_dir=tmp_path, output=outputs)
    expected = run_onnxruntime(model, {'x': x})
    for name, actual, wanted in zip(outputs, run_ir(tmp_path / 'model.xml', {'x': x}, outputs), expected):
        assert_close(actual, wanted, what=name)
