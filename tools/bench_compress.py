#!/usr/bin/env python
"""``--compress_weights`` measured: for each model and mode, the ``.bin`` size, OpenVINO CPU latency and the
output's error against mo's f32 IR, beside NNCF's ``compress_weights`` on that same f32 IR where a Python with
NNCF is given.

    python tools/bench_compress.py [--torch_python PY] [--nncf_python PY] [--work DIR] [--runs 30]

Models: a GPT-2 decoder (GPT-2 small's width and vocabulary, ``--layers`` blocks, random weights, exported by
``torch.onnx.export`` in ``--torch_python``, a Python with torch and transformers; skipped without it), TF
MobileNetV2 and ResNet50 (``tests/support/models.py``, random weights, 32x32 inputs). For each: mo's f32 IR, mo
with each ``--compress_weights`` mode (defaults: 4-bit in groups of 128, ratio 1, embeddings, convolutions and
last layers in int8_asym), and with ``--nncf_python`` NNCF's ``compress_weights`` with the same mode, group size and
ratio on mo's f32 IR (written by ``openvino.save_model`` without f16 compression). All IRs of a model are compiled
in one process (CPU, latency hint, f32 inference) and run in alternating rounds; latency is the median.

Error: max|y - y_f32| / max|y_f32| over the outputs for a fixed random input; for the decoder also the share of
positions whose arg-max token is the f32 IR's.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

MODES = ('int8_sym', 'int8_asym', 'int4_sym', 'int4_asym')
CONFIG = {'PERFORMANCE_HINT': 'LATENCY', 'INFERENCE_PRECISION_HINT': 'f32'}

EXPORT_GPT2 = r'''
import sys, torch, transformers
config = transformers.GPT2Config(n_layer=int(sys.argv[2]))
torch.manual_seed(0)
model = transformers.GPT2LMHeadModel(config).eval()
model.config.use_cache = False
ids = torch.randint(0, config.vocab_size, (1, 8))
torch.onnx.export(model, (ids,), sys.argv[1], dynamo=True, input_names=['input_ids'], output_names=['logits'])
'''

#: run in --nncf_python: NNCF's data-free compress_weights on an IR, saved without f16 compression
NNCF_COMPRESS = r'''
import sys, nncf, openvino as ov
source, target, mode = sys.argv[1:4]
model = ov.Core().read_model(source)
kwargs = {'mode': getattr(nncf.CompressWeightsMode, mode.upper())}
if mode.startswith('int4'):
    kwargs.update(group_size=128, ratio=1.0)
ov.save_model(nncf.compress_weights(model, **kwargs), target, compress_to_fp16=False)
'''


def _gpt2(work: Path, python: str, layers: int):
    path = work / 'gpt2_{}l.onnx'.format(layers)
    if not path.exists():
        subprocess.run([python, '-c', EXPORT_GPT2, str(path), str(layers)], check=True, capture_output=True)
    feeds = {'input_ids': np.random.default_rng(0).integers(0, 50257, (1, 8)).astype(np.int64)}
    return 'GPT-2 ({} blocks, ONNX)'.format(layers), str(path), feeds, True


def _tf_model(name: str):
    from tests.support import models
    record = models.get_model(name)
    return '{} (TF)'.format(name), record.graph_def, record.random_feeds(seed=0), False


def _convert(source, out: Path, **options) -> Path:
    import mo
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    result = mo.convert_model(source, output_dir=str(out), model_name='model', silent=True, **options)
    return Path(str(result.xml_path)), time.perf_counter() - start


def _nncf(python: str, f32_xml: Path, out: Path, mode: str):
    import openvino as ov
    out.mkdir(parents=True, exist_ok=True)
    plain = out / 'f32_ov.xml'
    if not plain.exists():  # NNCF reads the f32 IR; written by OpenVINO so both read the same model
        ov.save_model(ov.Core().read_model(str(f32_xml)), str(plain), compress_to_fp16=False)
    target = out / 'nncf_{}.xml'.format(mode)
    start = time.perf_counter()
    subprocess.run([python, '-c', NNCF_COMPRESS, str(plain), str(target), mode], check=True, capture_output=True)
    return target, time.perf_counter() - start


def _measure(irs: dict, feeds: dict, runs: int, is_lm: bool) -> dict:
    """name -> (bin MB, median ms, error, top-1 agreement) for the IRs of one model, run alternately."""
    import openvino as ov
    core = ov.Core()
    compiled = {name: core.compile_model(str(xml), 'CPU', CONFIG) for name, xml in irs.items()}
    outputs, times = {}, {name: [] for name in irs}
    for name, model in compiled.items():
        inputs = [feeds[n] if n in feeds else list(feeds.values())[i]
                  for i, n in enumerate(next(iter(p.get_names()), '') for p in model.inputs)]
        request = model.create_infer_request()
        result = request.infer(inputs)
        outputs[name] = [np.array(result[port]) for port in model.outputs]
        compiled[name] = (request, inputs)
    for _ in range(runs):
        for name, (request, inputs) in compiled.items():
            start = time.perf_counter()
            request.infer(inputs)
            times[name].append(time.perf_counter() - start)
    reference = outputs['f32']
    rows = {}
    for name, xml in irs.items():
        error = max(float(np.max(np.abs(a - e)) / max(float(np.max(np.abs(e))), 1e-30))
                    for a, e in zip(outputs[name], reference))
        agree = float(np.mean(np.argmax(outputs[name][0], -1) == np.argmax(reference[0], -1))) if is_lm else None
        rows[name] = (os.path.getsize(str(xml)[:-4] + '.bin') / 1e6, 1e3 * float(np.median(times[name])), error,
                      agree)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--torch_python', help='a Python with torch and transformers (for the GPT-2 decoder)')
    parser.add_argument('--nncf_python', help='a Python with nncf and openvino (for NNCF\'s compress_weights)')
    parser.add_argument('--layers', type=int, default=4, help='GPT-2 blocks (12: GPT-2 small)')
    parser.add_argument('--models', default='gpt2,mobilenet_v2,resnet50')
    parser.add_argument('--runs', type=int, default=30, help='timed rounds (each runs every IR once)')
    parser.add_argument('--work', type=Path, default=None, help='keep the files here (default: a temp dir)')
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix='mo-compress-'))
    work.mkdir(parents=True, exist_ok=True)
    print('| model | IR | .bin MB | size / f32 | latency ms | latency / f32 | max error / max|f32| | top-1 = f32 '
          '| convert s |')
    print('|---|---|---|---|---|---|---|---|---|')
    for key in [k.strip() for k in args.models.split(',') if k.strip()]:
        if key == 'gpt2':
            if not args.torch_python:
                print('(GPT-2 skipped: no --torch_python)', file=sys.stderr)
                continue
            title, source, feeds, is_lm = _gpt2(work, args.torch_python, args.layers)
        else:
            title, source, feeds, is_lm = _tf_model(key)
        base = work / key
        irs, seconds = {}, {}
        irs['f32'], seconds['f32'] = _convert(source, base / 'f32')
        for mode in MODES:
            name = 'mo ' + mode
            irs[name], seconds[name] = _convert(source, base / mode, compress_weights=mode)
            if args.nncf_python:
                irs['nncf ' + mode], seconds['nncf ' + mode] = _nncf(args.nncf_python, irs['f32'], base / 'nncf',
                                                                    mode)
        rows = _measure(irs, feeds, args.runs, is_lm)
        size0, ms0 = rows['f32'][0], rows['f32'][1]
        for name, (size, ms, error, agree) in rows.items():
            print('| {} | {} | {:.2f} | {:.3f} | {:.2f} | {:.2f} | {:.2e} | {} | {:.1f} |'.format(
                title, name, size, size / size0, ms, ms / ms0, error, '-' if agree is None else
                '{:.0%}'.format(agree), seconds[name]), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
