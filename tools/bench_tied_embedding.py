#!/usr/bin/env python
"""GPT-2's tied embedding: the `.bin` mo and ovc write for the same dynamo-exported model, side by side.

    python tools/bench_tied_embedding.py --torch_python /path/to/venv/bin/python [--layers 12] [--work DIR]

GPT-2's token embedding is also its output layer (the logits are ``h @ wte.T``); ``torch.onnx.export(dynamo=True)``
writes that as a Transpose of the embedding. The model is GPT-2 small's configuration (vocab 50257, width 768, so
the embedding alone is 154 MB in f32) with random weights, exported by a Python that has torch and transformers
(``--torch_python``; the test environment has neither). Both converters write f32 IRs; the script prints each
``.bin``'s size, the embedding's size, and the largest difference of either IR's logits from onnxruntime's.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

EXPORT = r'''
import sys, torch, transformers
config = transformers.GPT2Config(n_layer=int(sys.argv[2]))
torch.manual_seed(0)
model = transformers.GPT2LMHeadModel(config).eval()
model.config.use_cache = False
ids = torch.randint(0, config.vocab_size, (1, 8))
torch.onnx.export(model, (ids,), sys.argv[1], dynamo=True, input_names=['input_ids'], output_names=['logits'])
'''


def _export(python: str, path: Path, layers: int):
    subprocess.run([python, '-c', EXPORT, str(path), str(layers)], check=True)


def _run_ir(xml: Path, ids: np.ndarray) -> np.ndarray:
    import openvino as ov
    compiled = ov.Core().compile_model(str(xml), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32'})
    return compiled([ids])[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--torch_python', required=True, help='a Python with torch and transformers')
    parser.add_argument('--layers', type=int, default=12, help='transformer blocks (12: GPT-2 small)')
    parser.add_argument('--work', type=Path, default=None, help='keep the files here (default: a temp dir)')
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix='mo-tied-'))
    work.mkdir(parents=True, exist_ok=True)
    model = work / 'gpt2.onnx'
    if not model.exists():
        _export(args.torch_python, model, args.layers)
    mo_dir, ovc_xml = work / 'mo', work / 'ovc' / 'gpt2.xml'
    subprocess.run([sys.executable, '-m', 'mo', 'convert', str(model), '--output_dir', str(mo_dir), '--model_name',
                    'gpt2', '--silent'], check=True)
    ovc = Path(sys.executable).parent / 'ovc'
    subprocess.run([str(ovc), str(model), '--output_model', str(ovc_xml), '--compress_to_fp16=False'], check=True,
                   capture_output=True)
    import onnxruntime
    ids = np.random.default_rng(0).integers(0, 50257, (1, 8), dtype=np.int64)
    expected = onnxruntime.InferenceSession(str(model)).run(None, {'input_ids': ids})[0]
    embedding = 50257 * 768 * 4
    print('| IR | .bin MB | embedding MB | max abs diff of logits vs onnxruntime |')
    print('|---|---|---|---|')
    for name, xml in (('mo', mo_dir / 'gpt2.xml'), ('ovc', ovc_xml)):
        size = xml.with_suffix('.bin').stat().st_size
        diff = float(np.max(np.abs(_run_ir(xml, ids) - expected)))
        print('| {} | {:.1f} | {:.1f} | {:.2e} |'.format(name, size / 1e6, embedding / 1e6, diff))
    return 0


if __name__ == '__main__':
    sys.exit(main())
