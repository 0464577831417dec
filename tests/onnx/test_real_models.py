"""Real PyTorch exports (``tools/make_onnx_models.py``, committed in ``tests/onnx/models``): each converted with
``mo.convert_model(path)``, run by OpenVINO and compared with onnxruntime on seeded random inputs at 1e-4 relative;
the models with dynamic axes are run by one IR at two batch/sequence sizes.

A case mo cannot convert yet is marked ``xfail(strict=True)`` with the reason, so the test says when it starts
passing.
"""
import os

import numpy as np
import pytest

pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from tests.onnx.onnx_oracle import run_ir, run_onnxruntime  # noqa: E402

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'models')


def _float(*shape):
    return lambda rng: rng.standard_normal(shape).astype(np.float32)


def _ids(*shape):
    return lambda rng: rng.integers(0, 1000, shape).astype(np.int64)


#: model -> its input feeds at each size the IR is run at (one size for static models)
CASES = {
    'resnet18_w8': [{'input': _float(1, 3, 64, 64)}, {'input': _float(3, 3, 64, 64)}],
    'mobilenet_v3_small': [{'input': _float(1, 3, 64, 64)}],
    # torch's TorchScript exporter bakes nn.MultiheadAttention's target length (7) into a Reshape although the
    # sequence axis is declared dynamic: onnxruntime cannot run other lengths either, so the batch alone changes
    'transformer_encoder': [{'input': _float(2, 7, 64)}, {'input': _float(3, 7, 64)}],
    'lstm': [{'input': _float(2, 5, 16)}, {'input': _float(4, 9, 16)}],
    'gru': [{'input': _float(2, 5, 16)}, {'input': _float(4, 9, 16)}],
    'unet': [{'input': _float(1, 3, 32, 32)}, {'input': _float(2, 3, 32, 32)}],
    'text_classifier': [{'ids': _ids(2, 9)}, {'ids': _ids(5, 3)}],
}

#: model -> why it does not convert or match yet (the exact missing op or error)
XFAIL = {}


def _params():
    for name in sorted(CASES):
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[name])] if name in XFAIL else []
        yield pytest.param(name, marks=marks, id=name)


def test_models_are_small():
    """Each committed model stays under 1.5 MB and all of them under 5 MB."""
    sizes = {name: os.path.getsize(os.path.join(MODELS_DIR, name + '.onnx')) for name in CASES}
    assert all(size < 1.5 * 1024 * 1024 for size in sizes.values()), sizes
    assert sum(sizes.values()) < 5 * 1024 * 1024, sizes


@pytest.mark.parametrize('name', _params())
def test_real_model(name, tmp_path):
    import mo
    import onnx
    path = os.path.join(MODELS_DIR, name + '.onnx')
    result = mo.convert_model(path, output_dir=str(tmp_path), model_name=name)
    model = onnx.load(path)
    outputs = [o.name for o in model.graph.output]
    rng = np.random.default_rng(0)
    for size, feeds_at_size in enumerate(CASES[name]):
        feeds = {input_name: make(rng) for input_name, make in feeds_at_size.items()}
        expected = run_onnxruntime(path, feeds)
        actual = run_ir(result.xml_path, feeds, outputs)
        for output, a, e in zip(outputs, actual, expected):
            assert a.shape == e.shape, '{} at size {}: shape {} != {}'.format(output, size, a.shape, e.shape)
            np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5,
                                       err_msg='output "{}" at input size {}'.format(output, size))
