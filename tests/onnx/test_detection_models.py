"""torchvision's detectors exported to ONNX (``tools/make_onnx_models.py``: Faster/Mask/Keypoint R-CNN, RetinaNet,
FCOS, SSD and SSDlite on tiny random backbones, committed in ``tests/onnx/models``): each converted once with
``mo.convert_model(path)``, its IR run by OpenVINO at several image sizes (the exports take any height and width:
the same size, one their transform scales down and one it scales up) and compared with onnxruntime running the file.

The exports keep torchvision's whole post-processing (If, Loop, NonMaxSuppression, RoiAlign, TopK, NonZero, Resize,
shapes computed at run time), so the number of detections is itself an output under test. Detections are compared
after sorting both sides by score (then by box): the order NMS leaves tied scores in is not part of its contract;
the committed exports score every detection differently at their export size. Two exports find nothing (a score
threshold no box reaches), so that every tensor after the score filter is empty and Mask R-CNN's Loop runs zero times.
"""
import os

import numpy as np
import pytest

pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from tests.onnx.onnx_oracle import assert_close, run_ir, run_onnxruntime  # noqa: E402

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'models')

#: image height x width the IRs run at: the export's, one larger than max_size (scaled down), one smaller than
#: min_size (scaled up), and a portrait one
SIZES = [(64, 80), (100, 150), (40, 50), (80, 64)]

#: model -> the ONNX ops its export holds (at any depth), so that the test says what it covers
OPS = {
    'faster_rcnn': {'If', 'NonMaxSuppression', 'NonZero', 'Resize', 'RoiAlign', 'TopK'},
    'mask_rcnn': {'If', 'Loop', 'NonMaxSuppression', 'NonZero', 'Resize', 'RoiAlign', 'TopK'},
    'keypoint_rcnn': {'If', 'Loop', 'NonMaxSuppression', 'NonZero', 'Resize', 'RoiAlign', 'TopK'},
    'retinanet': {'If', 'NonMaxSuppression', 'NonZero', 'Resize', 'TopK'},
    'fcos': {'If', 'NonMaxSuppression', 'NonZero', 'Resize', 'TopK'},
    'ssd': {'If', 'NonMaxSuppression', 'NonZero', 'Resize', 'TopK'},
    'ssdlite': {'If', 'NonMaxSuppression', 'NonZero', 'Resize', 'TopK'},
    # exports whose score threshold no box reaches: every tensor after the score filter is empty
    'retinanet_no_detections': {'If', 'NonMaxSuppression', 'NonZero', 'Resize', 'TopK'},
    'mask_rcnn_no_detections': {'If', 'Loop', 'NonMaxSuppression', 'NonZero', 'Resize', 'RoiAlign', 'TopK'},
}


def _op_types(graph):
    import onnx
    found = set()
    for node in graph.node:
        found.add(node.op_type)
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                found |= _op_types(attribute.g)
    return found


def _by_score(named):
    """``named`` (output name -> array, detections along axis 0) reordered by descending score, ties by box."""
    boxes = named['boxes'].astype(np.float64)
    order = np.lexsort([boxes[:, 3], boxes[:, 2], boxes[:, 1], boxes[:, 0], -named['scores'].astype(np.float64)])
    return {name: value[order] for name, value in named.items()}


def test_detection_models_are_small():
    """Each committed detector stays under 512 KB."""
    sizes = {name: os.path.getsize(os.path.join(MODELS_DIR, name + '.onnx')) for name in OPS}
    assert all(size < 512 * 1024 for size in sizes.values()), sizes


@pytest.mark.parametrize('name', sorted(OPS))
def test_detection_model(name, tmp_path):
    import mo
    import onnx
    path = os.path.join(MODELS_DIR, name + '.onnx')
    model = onnx.load(path)
    assert OPS[name] <= _op_types(model.graph), 'the export no longer holds {}'.format(OPS[name] - _op_types(
        model.graph))
    result = mo.convert_model(path, output_dir=str(tmp_path), model_name=name)
    outputs = [o.name for o in model.graph.output]
    rng = np.random.default_rng(0)
    for height, width in SIZES:
        feeds = {'image': rng.random((3, height, width), dtype=np.float32)}
        expected = dict(zip(outputs, run_onnxruntime(path, feeds)))
        actual = dict(zip(outputs, run_ir(result.xml_path, feeds, outputs)))
        where = '{} at {}x{}'.format(name, height, width)
        count = len(expected['scores'])
        if name.endswith('_no_detections'):
            assert count == 0, '{}: onnxruntime finds {} detections'.format(where, count)
        else:
            assert count > 0, '{}: onnxruntime finds nothing: the comparison would be empty'.format(where)
        assert len(actual['scores']) == count, '{}: {} detections, onnxruntime {}'.format(
            where, len(actual['scores']), count)
        expected, actual = _by_score(expected), _by_score(actual)
        for output in outputs:
            assert_close(actual[output], expected[output], rtol=1e-4, atol=1e-5,
                         what='{}: output "{}"'.format(where, output))
