"""Weights of a Paddle params file are mapped and handed back once read: the mapping is registered with
``mo.utils.mapped_files``, and the batch-norm fusion fills the scaled weights in batches, releasing the pages of
the originals after each; the batches change nothing in the IR (peak memory itself is ``tools/bench_paddle.py``'s
to measure)."""
import os

import mo
from extensions.middle.fuse_scale_shift_into_conv import FuseScaleShiftIntoConv
from mo.front.paddle import params
from mo.utils import mapped_files
from tests.paddle.op_check import HERE

OCR_DET = os.path.join(HERE, 'fixtures', 'p26_models', 'ocr_det.pdmodel')


def test_params_mapping_is_registered():
    mapped = params.map_file(OCR_DET.replace('.pdmodel', '.pdiparams'))
    assert any(ref() is mapped for _, _, ref in mapped_files._mappings)


def _ir_bytes(out_dir):
    result = mo.convert_model(OCR_DET, output_dir=str(out_dir), model_name='model')
    xml_path = str(result.xml_path)
    with open(xml_path, 'rb') as xml, open(xml_path[:-4] + '.bin', 'rb') as weights:
        return xml.read(), weights.read()


def test_fusion_in_batches_writes_the_same_ir(tmp_path, monkeypatch):
    """A detector of convolutions and batch norms: each convolution its own batch (pages released after each)
    and all in one give the same IR bytes."""
    one_batch = _ir_bytes(tmp_path / 'one')
    monkeypatch.setattr(FuseScaleShiftIntoConv, 'BATCH_BYTES', 0)
    assert _ir_bytes(tmp_path / 'many') == one_batch
