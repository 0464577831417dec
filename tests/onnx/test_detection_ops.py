"""Detection ops (NonMaxSuppression, RoiAlign, MaxUnpool, DeformConv) converted by mo and run in OpenVINO, against
onnxruntime (ONNX's reference evaluator where onnxruntime departs from ONNX's reference and backend cases)."""
import numpy as np
import pytest
from onnx import TensorProto, helper

import mo
from mo.utils.error import Error
from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir

F, I64 = TensorProto.FLOAT, TensorProto.INT64


# --- NonMaxSuppression --------------------------------------------------------------------------------------------

def _boxes(rng, batches, count, center):
    """Boxes in clusters (so that suppression happens), corners in any diagonal order, or centre form."""
    anchors = rng.uniform(0, 10, size=(batches, count // 4 + 1, 1, 2)).repeat(4, axis=2).reshape(batches, -1, 2)
    start = anchors[:, :count] + rng.uniform(-0.5, 0.5, size=(batches, count, 2))
    size = rng.uniform(0.5, 3, size=(batches, count, 2))
    if center:
        return np.concatenate([start, size], axis=2).astype(np.float32)
    end = start + size
    flip = rng.rand(batches, count, 1) < 0.3  # ONNX takes any diagonal pair of corners
    first, second = np.where(flip, end, start), np.where(flip, start, end)
    return np.concatenate([first, second], axis=2).astype(np.float32)


_NMS_INPUTS = {  # which optional inputs the node has: max_output_boxes_per_class, iou_threshold, score_threshold
    'all': ('max', 'iou', 'score'),
    'no_score_threshold': ('max', 'iou'),
    'max_only': ('max',),
    'iou_gap': ('max', '', 'score'),  # an empty name: iou_threshold left out, score_threshold given
}


@pytest.mark.parametrize('center', [0, 1])
@pytest.mark.parametrize('inputs', sorted(_NMS_INPUTS))
@pytest.mark.parametrize('constant', [True, False])
@pytest.mark.parametrize('opset', [10, 11])
def test_non_max_suppression(center, inputs, constant, opset, tmp_path):
    rng = np.random.RandomState(center + 2 * opset)
    boxes = _boxes(rng, 2, 24, center)
    scores = rng.uniform(-0.5, 1, size=(2, 3, 24)).astype(np.float32)  # some negative: kept without a threshold
    values = {'max': np.array([5], np.int64), 'iou': np.array([0.3], np.float32),
              'score': np.array([0.2], np.float32)}
    names = list(_NMS_INPUTS[inputs])
    used = [n for n in names if n]
    node = helper.make_node('NonMaxSuppression', ['boxes', 'scores'] + names, ['selected'], center_point_box=center)
    graph_inputs = [('boxes', F, list(boxes.shape)), ('scores', F, list(scores.shape))]
    feeds = {'boxes': boxes, 'scores': scores}
    if constant:
        inits = {n: values[n] for n in used}
    else:
        inits = {}
        graph_inputs += [(n, I64 if n == 'max' else F, [1]) for n in used]
        feeds.update({n: values[n] for n in used})
    model = make_model([node], graph_inputs, [('selected', I64, None)], initializers=inits, opset=opset)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('iou', [0.0, 1.0 / 7, 0.25])
def test_non_max_suppression_threshold_edges(iou, tmp_path):
    """ONNX suppresses an IoU above the threshold, not at it: disjoint boxes survive a threshold of 0, and boxes
    whose IoU is exactly the threshold both survive."""
    boxes = np.array([[[0, 0, 1, 1], [0.5, 0.5, 1.5, 1.5], [2, 2, 3, 3], [2, 2, 3, 3.5], [5, 5, 6, 6]]], np.float32)
    scores = np.array([[[0.9, 0.8, 0.7, 0.6, 0.5]]], np.float32)
    node = helper.make_node('NonMaxSuppression', ['boxes', 'scores', 'max', 'iou'], ['selected'])
    model = make_model([node], [('boxes', F, [1, 5, 4]), ('scores', F, [1, 1, 5]), ('iou', F, [1])],
                       [('selected', I64, None)], initializers={'max': np.array([10], np.int64)}, opset=11)
    check_model(model, {'boxes': boxes, 'scores': scores, 'iou': np.array([iou], np.float32)}, tmp_path)


@pytest.mark.parametrize('max_output', ['absent', 'constant', 'input'])
def test_non_max_suppression_nothing_selected(max_output, tmp_path):
    """A max_output_boxes_per_class of 0 (its default) selects nothing: an empty [0, 3]."""
    boxes = _boxes(np.random.RandomState(3), 1, 6, 0)
    feeds = {'boxes': boxes, 'scores': np.random.RandomState(4).rand(1, 2, 6).astype(np.float32)}
    inputs = [('boxes', F, [1, 6, 4]), ('scores', F, [1, 2, 6])]
    inits = {}
    if max_output == 'constant':
        inits['max'] = np.array([0], np.int64)
    elif max_output == 'input':
        inputs.append(('max', I64, [1]))
        feeds['max'] = np.array([0], np.int64)
    names = ['boxes', 'scores'] + ([] if max_output == 'absent' else ['max'])
    node = helper.make_node('NonMaxSuppression', names, ['selected'])
    model = make_model([node], inputs, [('selected', I64, None)], initializers=inits, opset=11)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('count', [0, 12])
def test_non_max_suppression_boxes_of_run_time_shape(count, tmp_path):
    """Boxes reshaped to a shape computed at run time (as torchvision's detection exports make them): OpenVINO does
    not know their last dimension is 4, which its CPU plugin's NonMaxSuppression requires; zero boxes too."""
    boxes = _boxes(np.random.RandomState(5), 1, count, 0)
    scores = np.random.RandomState(6).rand(1, 2, count).astype(np.float32)
    nodes = [helper.make_node('Reshape', ['flat', 'shape'], ['boxes'], allowzero=1),
             helper.make_node('NonMaxSuppression', ['boxes', 'scores', 'max', 'iou'], ['selected'])]
    model = make_model(nodes, [('flat', F, ['n']), ('shape', I64, [3]), ('scores', F, [1, 2, 'k'])],
                       [('selected', I64, None)],
                       initializers={'max': np.array([4], np.int64), 'iou': np.array([0.3], np.float32)}, opset=14)
    feeds = {'flat': boxes.reshape(-1), 'shape': np.array(boxes.shape, np.int64), 'scores': scores}
    check_model(model, feeds, tmp_path)


# --- RoiAlign -----------------------------------------------------------------------------------------------------

def _rois(rng, count, size):
    """ROIs (x1, y1, x2, y2) of every size: some under a pixel, some partly outside the image."""
    corner = rng.uniform(-2, size, size=(count, 2))
    extent = np.concatenate([rng.uniform(0.2, 1.0, size=(count // 3, 2)),
                             rng.uniform(1.0, size, size=(count - count // 3, 2))])
    return np.concatenate([corner, corner + extent], axis=1).astype(np.float32)


@pytest.mark.parametrize('mode', ['avg', 'max'])
@pytest.mark.parametrize('transform', ['half_pixel', 'output_half_pixel'])
@pytest.mark.parametrize('sampling_ratio', [0, 1, 2])
@pytest.mark.parametrize('opset', [10, 16, 22])
def test_roi_align(mode, transform, sampling_ratio, opset, tmp_path):
    if opset == 10 and transform == 'half_pixel':
        pytest.skip('opset 10 has no coordinate_transformation_mode: it is output_half_pixel')
    if mode == 'max' and sampling_ratio == 0:
        pytest.skip('max mode with an adaptive grid is refused (test_roi_align_max_adaptive_refused)')
    rng = np.random.RandomState(sampling_ratio + opset)
    x = rng.randn(2, 3, 12, 10).astype(np.float32)
    rois = _rois(rng, 9, 10)
    batch = rng.randint(0, 2, size=9).astype(np.int64)
    attrs = {'mode': mode, 'output_height': 3, 'output_width': 4, 'sampling_ratio': sampling_ratio,
             'spatial_scale': 0.75}
    if opset >= 16:
        attrs['coordinate_transformation_mode'] = transform
    node = helper.make_node('RoiAlign', ['x', 'rois', 'batch'], ['y'], **attrs)
    model = make_model([node], [('x', F, list(x.shape)), ('rois', F, [9, 4]), ('batch', I64, [9])],
                       [('y', F, None)], opset=opset)
    feeds = {'x': x, 'rois': rois, 'batch': batch}
    if opset < 22:
        check_model(model, feeds, tmp_path, rtol=1e-4, atol=1e-5)
        return
    # onnxruntime has no RoiAlign-22 (RoiAlign-16 with more types): ONNX's reference evaluator instead
    from onnx.reference import ReferenceEvaluator
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    expected = ReferenceEvaluator(model).run(None, feeds)[0]
    assert_close(run_ir(result.xml_path, feeds, ['y'])[0], expected, rtol=1e-4, atol=1e-5)


def test_roi_align_max_adaptive_refused(tmp_path):
    node = helper.make_node('RoiAlign', ['x', 'rois', 'batch'], ['y'], mode='max', sampling_ratio=0)
    model = make_model([node], [('x', F, [1, 1, 4, 4]), ('rois', F, [2, 4]), ('batch', I64, [2])], [('y', F, None)],
                       opset=16)
    with pytest.raises(Error, match='RoiAlign'):
        mo.convert_model(model, output_dir=str(tmp_path), model_name='model')


# --- MaxUnpool ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('kernel,strides,pads,shape', [
    ([2], [2], [0, 0], [2, 3, 10]),
    ([2, 2], [2, 2], [0, 0, 0, 0], [2, 3, 8, 6]),
    ([3, 3], [2, 2], [1, 1, 1, 1], [1, 2, 7, 9]),
    ([3, 2], [1, 2], [1, 0, 1, 0], [1, 2, 6, 6]),
    ([2, 2, 2], [2, 2, 2], [0, 0, 0, 0, 0, 0], [1, 2, 4, 6, 4]),
])
@pytest.mark.parametrize('dtype', [np.float32, np.float16])
def test_max_unpool(kernel, strides, pads, shape, dtype, tmp_path):
    """MaxPool's values and indices unpooled: the maxima back in place, zeros elsewhere (shapes the default output
    shape gives back)."""
    rng = np.random.RandomState(len(shape))
    x = rng.permutation(np.prod(shape)).reshape(shape).astype(dtype)  # distinct: one maximum per window
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    pool = helper.make_node('MaxPool', ['x'], ['pooled', 'indices'], kernel_shape=kernel, strides=strides, pads=pads)
    unpool = helper.make_node('MaxUnpool', ['pooled', 'indices'], ['y'], kernel_shape=kernel, strides=strides,
                              pads=pads)
    model = make_model([pool, unpool], [('x', elem, shape)], [('y', elem, None)], opset=11)
    check_model(model, {'x': x}, tmp_path)


def test_max_unpool_output_shape(tmp_path):
    """With output_shape the unpooled tensor is padded with zeros at the end of each axis, as ONNX's reference and
    backend cases have it (onnxruntime reads the indices as offsets into the output_shape tensor instead)."""
    from onnx.reference import ReferenceEvaluator
    x = np.random.RandomState(5).randn(1, 2, 3, 3).astype(np.float32)
    indices = np.array([0, 3, 5, 12, 14, 17, 30, 33, 35], np.int64)
    indices = np.concatenate([indices, indices + 36]).reshape(1, 2, 3, 3)
    node = helper.make_node('MaxUnpool', ['x', 'indices', 'shape'], ['y'], kernel_shape=[2, 2], strides=[2, 2])
    model = make_model([node], [('x', F, [1, 2, 3, 3]), ('indices', I64, [1, 2, 3, 3]), ('shape', I64, [4])],
                       [('y', F, None)], opset=11)
    feeds = {'x': x, 'indices': indices, 'shape': np.array([1, 2, 7, 8], np.int64)}
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    expected = ReferenceEvaluator(model).run(None, feeds)[0]
    assert_close(run_ir(result.xml_path, feeds, ['y'])[0], expected)


# --- DeformConv ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('group,offset_group', [(1, 1), (2, 1), (1, 2), (2, 2)])
@pytest.mark.parametrize('strides,dilations,pads', [([1, 1], [1, 1], [0, 0, 0, 0]), ([2, 1], [1, 2], [1, 2, 0, 1])])
@pytest.mark.parametrize('mask,bias', [(False, False), (True, False), (True, True), (False, True)])
def test_deform_conv(group, offset_group, strides, dilations, pads, mask, bias, tmp_path):
    rng = np.random.RandomState(group + 2 * offset_group)
    n, c, h, w, out_c, k = 2, 4, 7, 6, 6, (3, 2)
    x = rng.randn(n, c, h, w).astype(np.float32)
    weights = rng.randn(out_c, c // group, *k).astype(np.float32)
    out_h = (h + pads[0] + pads[2] - (k[0] - 1) * dilations[0] - 1) // strides[0] + 1
    out_w = (w + pads[1] + pads[3] - (k[1] - 1) * dilations[1] - 1) // strides[1] + 1
    points = offset_group * k[0] * k[1]
    # offsets of up to 2 pixels: points land between pixels and up to a pixel outside the image
    offsets = rng.uniform(-2, 2, size=(n, 2 * points, out_h, out_w)).astype(np.float32)
    names = ['x', 'w', 'offset', 'b' if bias else '', 'mask' if mask else '']
    while names[-1] == '':
        names.pop()
    feeds = {'x': x, 'offset': offsets}
    inputs = [('x', F, list(x.shape)), ('offset', F, list(offsets.shape))]
    inits = {'w': weights}
    if bias:
        inits['b'] = rng.randn(out_c).astype(np.float32)
    if mask:
        feeds['mask'] = rng.uniform(0, 1, size=(n, points, out_h, out_w)).astype(np.float32)
        inputs.append(('mask', F, list(feeds['mask'].shape)))
    node = helper.make_node('DeformConv', names, ['y'], group=group, offset_group=offset_group, strides=strides,
                            dilations=dilations, pads=pads, kernel_shape=list(k))
    model = make_model([node], inputs, [('y', F, None)], initializers=inits, opset=19)
    check_model(model, feeds, tmp_path, rtol=1e-4, atol=1e-4)


# --- refused inputs -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize('case', ['nms_center_point_box', 'roi_align_mode', 'roi_align_transform', 'deform_conv_1d'])
def test_refused(case, tmp_path):
    """Attribute values the ops cannot take, and a deformable convolution the opset lacks: one Error naming the
    node."""
    if case == 'nms_center_point_box':
        node = helper.make_node('NonMaxSuppression', ['boxes', 'scores'], ['y'], center_point_box=2, name='bad')
        inputs, opset = [('boxes', F, [1, 4, 4]), ('scores', F, [1, 1, 4])], 11
    elif case.startswith('roi_align'):
        attrs = {'mode': 'min'} if case == 'roi_align_mode' else {'coordinate_transformation_mode': 'asymmetric'}
        node = helper.make_node('RoiAlign', ['x', 'rois', 'batch'], ['y'], name='bad', **attrs)
        inputs, opset = [('x', F, [1, 1, 4, 4]), ('rois', F, [2, 4]), ('batch', I64, [2])], 16
    else:
        node = helper.make_node('DeformConv', ['x', 'w', 'offset'], ['y'], name='bad')
        inputs, opset = [('x', F, [1, 2, 8]), ('w', F, [3, 2, 3]), ('offset', F, [1, 6, 6])], 19
    model = make_model([node], inputs, [('y', I64 if case.startswith('nms') else F, None)], opset=opset)
    with pytest.raises(Error, match='"bad"'):
        mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
