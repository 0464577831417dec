"""Col2Im, CenterCropPad, Unique and STFT converted by mo and run in OpenVINO, against onnxruntime.

Sizes are fed both as constants (initializers) and at run time (graph inputs), as the lowerings compute
them in the graph either way.
"""
import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir, run_onnxruntime

F, D, I32, I64 = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT32, TensorProto.INT64
_ONNX_TYPES = {np.float32: F, np.float64: D, np.int32: I32, np.int64: I64, np.int8: TensorProto.INT8,
               np.uint8: TensorProto.UINT8, np.float16: TensorProto.FLOAT16, ml_dtypes.bfloat16: TensorProto.BFLOAT16}


def _model(op, data, sizes, constant, outputs=('y',), opset=18, **attrs):
    """``op(data, *sizes)``: ``data`` a graph input, ``sizes`` (name -> array) initializers or graph inputs."""
    node = helper.make_node(op, ['x'] + list(sizes), list(outputs), **attrs)
    inputs = [('x', _ONNX_TYPES[data.dtype.type], list(data.shape))]
    if not constant:
        inputs += [(name, _ONNX_TYPES[v.dtype.type], list(v.shape)) for name, v in sizes.items()]
    model = make_model([node], inputs, [(name, _ONNX_TYPES[data.dtype.type], None) for name in outputs],
                       initializers=sizes if constant else {}, opset=opset)
    feeds = dict({'x': data}, **({} if constant else sizes))
    return model, feeds


def check_with_reference(model, feeds, tmp_path, rtol=1e-4, atol=1e-5):
    """Convert ``model``, run it in OpenVINO and compare with ONNX's reference evaluator, where onnxruntime is
    wrong or refuses the model."""
    import mo
    from onnx.reference import ReferenceEvaluator
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    expected = ReferenceEvaluator(model).run(None, feeds)
    for name, actual, want in zip(names, run_ir(result.xml_path, feeds, names), expected):
        assert_close(actual, want, rtol, atol, 'output "{}"'.format(name))


def _col2im_input(image, block, strides, dilations, pads, batch=2, channels=3):
    n = len(image)
    blocks = [(image[d] + pads[d] + pads[n + d] - dilations[d] * (block[d] - 1) - 1) // strides[d] + 1
              for d in range(n)]
    shape = [batch, channels * int(np.prod(block)), int(np.prod(blocks))]
    return np.random.RandomState(0).randn(*shape).astype(np.float32)


@pytest.mark.parametrize('constant', [True, False])
@pytest.mark.parametrize('image,block,strides,dilations,pads', [
    ([5, 6], [2, 3], [1, 1], [1, 1], [0, 0, 0, 0]),
    ([7, 6], [3, 2], [2, 1], [1, 2], [1, 0, 2, 1]),
    ([5, 5], [1, 5], [1, 1], [1, 1], [0, 1, 0, 1]),
    ([4, 5, 6], [2, 2, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0, 0, 0, 0]),
    ([6, 5, 7], [2, 3, 2], [2, 1, 3], [1, 2, 1], [1, 0, 2, 0, 1, 1]),
    ([3, 4, 3, 4], [2, 1, 2, 2], [1, 2, 1, 1], [1, 1, 1, 2], [0, 1, 0, 0, 1, 0, 0, 1]),
])
def test_col2im(image, block, strides, dilations, pads, constant, tmp_path):
    x = _col2im_input(image, block, strides, dilations, pads)
    sizes = {'image_shape': np.array(image, np.int64), 'block_shape': np.array(block, np.int64)}
    model, feeds = _model('Col2Im', x, sizes, constant, strides=strides, dilations=dilations, pads=pads)
    if len(image) == 2:
        check_model(model, feeds, tmp_path)
    else:  # onnxruntime (1.32 here) puts the blocks of more than two spatial dimensions wrongly once a stride,
        check_with_reference(model, feeds, tmp_path)  # dilation or pad is not 1, 1, 0 (a direct sum agrees with
        # ONNX's reference)


@pytest.mark.parametrize('constant', [True, False])
@pytest.mark.parametrize('shape_type', [np.int64, np.int32])
@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.uint8])
@pytest.mark.parametrize('x_shape,target,axes', [
    ([20, 10, 3], [10, 7, 3], None),            # crop
    ([10, 7, 3], [20, 10, 3], None),            # pad
    ([9, 8, 3], [4, 13, 2], None),              # crop and pad, odd differences
    ([3, 20, 8], [10, 9], [1, 2]),
    ([20, 8, 3], [11, 9], [-3, -2]),
    ([2, 3, 7, 6], [8, 3], [-1, 2]),            # axes out of order
    ([5, 4], [5], [0]),                         # unchanged
])
def test_center_crop_pad(x_shape, target, axes, dtype, shape_type, constant, tmp_path):
    x = (np.random.RandomState(1).rand(*x_shape) * 100).astype(dtype)
    attrs = {} if axes is None else {'axes': axes}
    model, feeds = _model('CenterCropPad', x, {'shape': np.array(target, shape_type)}, constant, **attrs)
    if shape_type == np.int64:
        check_model(model, feeds, tmp_path)
    else:  # onnxruntime (1.32) expands CenterCropPad into a function that fails on an int32 shape
        check_with_reference(model, feeds, tmp_path)


_UNIQUE_DATA = {
    'vector': np.array([2, 1, 1, 3, 4, 3, 0, 2], np.float32),
    'matrix': np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, 5, 1], [2, 3, 4]], np.float32),
    'cube': np.array([[[1, 1], [0, 1], [2, 1], [0, 1]], [[1, 1], [0, 1], [2, 1], [0, 1]]], np.float32),
}
_UNIQUE_ORACLE_TYPE = {np.int32: np.int64, np.uint8: np.int64, np.float16: np.float32, ml_dtypes.bfloat16: np.float32}


@pytest.mark.parametrize('sort', [0, 1])
@pytest.mark.parametrize('data,axis', [('vector', None), ('vector', 0), ('matrix', None), ('matrix', 0),
                                       ('matrix', 1), ('matrix', -2), ('cube', 1), ('cube', -1), ('cube', 2)])
@pytest.mark.parametrize('dtype', [np.float32, np.int64, np.int32, np.int8, np.uint8, np.float16, ml_dtypes.bfloat16])
def test_unique(data, axis, sort, dtype, tmp_path):
    x = _UNIQUE_DATA[data].astype(dtype)
    attrs = {'sorted': sort} if axis is None else {'sorted': sort, 'axis': axis}
    node = helper.make_node('Unique', ['x'], ['y', 'indices', 'inverse', 'counts'], **attrs)

    def model(element_type):
        indices = [(name, I64, None) for name in ('indices', 'inverse', 'counts')]
        return make_model([node], [('x', element_type, list(x.shape))], [('y', element_type, None)] + indices,
                          opset=11)
    if dtype not in _UNIQUE_ORACLE_TYPE:
        check_model(model(_ONNX_TYPES[dtype]), {'x': x}, tmp_path)
        return
    # onnxruntime (1.32) has no Unique of these types, and ONNX's reference gathers the unsorted values along axis 0
    # of the unflattened input: the oracle is onnxruntime on the same values in a wider type (exact)
    wide = _UNIQUE_ORACLE_TYPE[dtype]
    import mo
    result = mo.convert_model(model(_ONNX_TYPES[dtype]), output_dir=str(tmp_path), model_name='model')
    expected = run_onnxruntime(model(_ONNX_TYPES[wide]), {'x': x.astype(wide)})
    expected[0] = expected[0].astype(dtype)
    names = ['y', 'indices', 'inverse', 'counts']
    for name, actual, want in zip(names, run_ir(result.xml_path, {'x': x}, names), expected):
        assert_close(actual, want, what='output "{}"'.format(name))


def test_unique_values_only(tmp_path):
    """Only Y read: the other outputs are left unconnected."""
    x = np.array([[3, 1], [3, 1], [0, 2]], np.float32)
    node = helper.make_node('Unique', ['x'], ['y'], axis=0, sorted=0)
    model = make_model([node], [('x', F, [3, 2])], [('y', F, None)], opset=11)
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('constant', [True, False])
@pytest.mark.parametrize('onesided,parts', [(1, 1), (0, 1), (0, 2)])  # ONNX: onesided takes a real signal
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('step,window,frame_length', [
    (8, 16, None), (8, None, 16), (5, 12, 12), (3, None, None), (16, 15, None), (7, None, 10)])
def test_stft(step, window, frame_length, onesided, parts, dtype, constant, tmp_path):
    signal = np.random.RandomState(2).randn(2, 64 if frame_length or window else 20, parts).astype(dtype)
    sizes = {'step': np.array(step, np.int64)}
    if window:
        sizes['window'] = np.hanning(window).astype(dtype)
    if frame_length:
        sizes['length'] = np.array(frame_length, np.int64)
    node = helper.make_node('STFT', ['x', 'step', 'window' if window else '', 'length' if frame_length else ''],
                            ['y'], onesided=onesided)
    inputs = [('x', _ONNX_TYPES[dtype], list(signal.shape))]
    if not constant:
        inputs += [(name, _ONNX_TYPES[v.dtype.type], list(v.shape)) for name, v in sizes.items()]
    model = make_model([node], inputs, [('y', _ONNX_TYPES[dtype], None)], initializers=sizes if constant else {},
                       opset=17)
    feeds = dict({'x': signal}, **({} if constant else sizes))
    if window or frame_length:
        check_model(model, feeds, tmp_path, rtol=1e-4, atol=1e-4)
    else:  # onnxruntime (1.32) fails without both; ONNX's reference takes the whole signal as one frame
        check_with_reference(model, feeds, tmp_path, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize('op,attrs,inputs,message', [
    ('Col2Im', {'strides': [1, 1], 'pads': [0, 0, 0]}, [('i', I64, [2]), ('b', I64, [2])], 'do not fit'),
    ('Col2Im', {'strides': [0, 1]}, [('i', I64, [2]), ('b', I64, [2])], 'must be positive'),
    ('Col2Im', {}, [('i', I64, ['n']), ('b', I64, ['n'])], 'number of spatial dimensions is unknown'),
    ('CenterCropPad', {'axes': [1, -2]}, [('shape', I64, [2])], 'repeat an axis'),
    ('CenterCropPad', {'axes': [3]}, [('shape', I64, [1])], 'do not fit a rank-3 input'),
    ('Unique', {'sorted': 2}, [], 'must be 0 or 1'),
    ('STFT', {'onesided': 3}, [('step', I64, [])], 'must be 0 or 1'),
])
def test_bad_attributes_are_errors(op, attrs, inputs, message, tmp_path):
    import mo
    node = helper.make_node(op, ['x'] + [name for name, _, _ in inputs], ['y'], **attrs)
    model = make_model([node], [('x', F, [1, 4, 6])] + inputs, [('y', F, None)], opset=18)
    with pytest.raises(mo.Error, match=message):
        mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
