"""Models shaped like the ones PaddleOCR, PaddleDetection, PaddleSeg and PaddleNLP export (issue 40's test list),
small and with random weights (``paddle_models.py``), convert and compute what Paddle Inference computes:

- ``ocr_det``: a PP-OCR text detector (conv backbone, FPN with nearest and bilinear resizing, DB head with
  transposed convs, sigmoid maps and the binarisation formula);
- ``ocr_rec_svtr``: an SVTR recogniser (conv backbone, reshape/transpose to a sequence, attention mixer with
  layer norm, matmul with transpose_y, softmax, GELU, a CTC head with softmax);
- ``ocr_rec_crnn``: a CRNN recogniser (conv backbone, squeeze/transpose, 2-layer bidirectional LSTM, CTC head);
- ``yolo_det``: a YOLOv3 detector of PaddleDetection (two heads, ``yolo_box``, ``multiclass_nms3``);
- ``ppyoloe_head``: PP-YOLOE/PicoDet decoding (sigmoid scores, softmax distributions integrated by a conv,
  anchor points from ``arange`` + ``meshgrid``);
- ``seg_net``: a DeepLabV3+ of PaddleSeg (dilated convs, image pooling, bilinear resizing with and without
  align_corners, argmax);
- ``bert_encoder``: a BERT encoder written out (embeddings, masked multi-head attention, GELU, layer norms,
  tanh pooler).

Each in Paddle 3's PIR format, exported at test time, and in the classic format as Paddle 2.6 wrote it
(``fixtures/p26_models``; Paddle 3.3's classic exporter fails on these models), whose reference is the Paddle
that runs the tests, fed the same inputs.
"""
import os
import shutil

import pytest

from tests.paddle.convert_support import FIXTURES, check_model, export, infer_models, rename_ops

APP_MODELS = ['ocr_det', 'ocr_rec_svtr', 'ocr_rec_crnn', 'yolo_det', 'ppyoloe_head', 'seg_net', 'bert_encoder']
CLASSIC_DIR = os.path.join(FIXTURES, 'p26_models')


@pytest.fixture(scope='module')
def pir_dir(tmp_path_factory):
    return export(tmp_path_factory.mktemp('pir_app_models'), 'pir', APP_MODELS)


@pytest.fixture(scope='module')
def classic_refs(tmp_path_factory):
    return infer_models(tmp_path_factory.mktemp('classic_app_refs'), CLASSIC_DIR, APP_MODELS)


@pytest.mark.parametrize('name', APP_MODELS)
def test_pir_app_model_matches_paddle(pir_dir, name, tmp_path):
    check_model(pir_dir, name, tmp_path)


@pytest.mark.parametrize('name', APP_MODELS)
def test_classic_app_model_matches_paddle(classic_refs, name, tmp_path):
    for ext in ('.pdmodel', '.pdiparams'):  # the reference and the program side by side, as check_model reads them
        shutil.copy(os.path.join(CLASSIC_DIR, name + ext), os.path.join(classic_refs, name + ext))
    check_model(classic_refs, name, tmp_path)


def test_detector_and_recogniser_keep_dynamic_sizes(pir_dir, tmp_path):
    """The text detector's height and width and the recogniser's width stay dynamic in the IR (the FPN's
    resizing to a computed size and the sequence length follow the input)."""
    det = check_model(pir_dir, 'ocr_det', tmp_path)
    assert [list(i.shape) for i in det.inputs] == [[-1, 3, -1, -1]]
    rec = check_model(pir_dir, 'ocr_rec_svtr', tmp_path)
    assert [list(i.shape) for i in rec.inputs] == [[-1, 3, 32, -1]]


def test_sync_batch_norm_is_a_batch_norm_at_inference(classic_refs, tmp_path):
    """A model trained with synchronised batch norm keeps ``sync_batch_norm`` ops (PaddleDetection's sync_bn
    configs); the text detector with its batch norms so renamed computes what Paddle computed with them."""
    renamed = rename_ops(tmp_path / 'renamed', os.path.join(CLASSIC_DIR, 'ocr_det.pdmodel'),
                         ['batch_norm:sync_batch_norm'])
    shutil.copy(os.path.join(classic_refs, 'ocr_det.npz'), os.path.join(renamed, 'ocr_det.npz'))
    with open(os.path.join(renamed, 'ocr_det.pdmodel'), 'rb') as f:
        assert f.read().count(b'sync_batch_norm') >= 10
    check_model(renamed, 'ocr_det', tmp_path)


def test_memcpy_is_a_copy(classic_refs, tmp_path):
    """A program that went through Paddle's device placement holds ``memcpy`` ops; the segmentation net with its
    two identity ``scale`` ops (before the fetches) made memcpy computes what Paddle computed."""
    renamed = rename_ops(tmp_path / 'renamed', os.path.join(CLASSIC_DIR, 'seg_net.pdmodel'), ['scale:memcpy'])
    shutil.copy(os.path.join(classic_refs, 'seg_net.npz'), os.path.join(renamed, 'seg_net.npz'))
    with open(os.path.join(renamed, 'seg_net.pdmodel'), 'rb') as f:
        assert f.read().count(b'memcpy') == 2
    check_model(renamed, 'seg_net', tmp_path)
