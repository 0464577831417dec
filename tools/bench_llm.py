#!/usr/bin/env python
"""Benchmark `mo convert` on a 0.5B-parameter decoder with past key-values against OpenVINO's `ovc` (issue 43).

    python tools/bench_llm.py [--layers 24] [--vocab 151936] [--repeat 1] [--torch_python /tmp/gpt2env/bin/python]

The model: transformers' ``Qwen2ForCausalLM`` from a Qwen2-0.5B-style config (hidden 896, 24 layers, 14 heads of
which 2 key-value heads, intermediate 4864, vocabulary 151936, tied embeddings; ``--layers``/``--vocab`` shrink
it), random weights seeded, exported by torch's TorchScript exporter at opset 17 with the cache as explicit inputs
and outputs in optimum's names (``input_ids``, ``attention_mask``, ``position_ids``, ``past_key_values.N.key/value``
-> ``logits``, ``present.N.key/value``), saved with its weights as external data (one ``model.onnx.data``). The
export runs in ``--torch_python`` (a Python with torch and transformers; this one needs neither). The 4-bit form is
onnxruntime's ``MatMulNBitsQuantizer`` (block 32, asymmetric: the form onnxruntime GenAI writes) on that model.

Each model is converted by ``mo`` (plain, and with ``--stateful``) and by ``ovc`` (``--compress_to_fp16=False``:
both write f32, and the int4 weights stay int4), each run a fresh process through ``bench_convert``'s launcher
(wall time and the ``os.wait4`` peak RSS of that very process), the tools interleaved run by run after an untimed
warm-up round; the best of ``--repeat`` is reported. The ``.bin`` sizes are compared with the ONNX model's weight
bytes (the initializers' data, external or not). Before the table, each IR is checked: the plain IRs' logits and
presents against onnxruntime on one prompt, and mo's stateful IR by greedy generation (prompt, then one token a
call, one infer request) against onnxruntime feeding present back as past.

Targets (reported, not enforced): mo faster than ovc, its peak memory below ovc's, the int4 ``.bin`` within 10% of
the ONNX model's weight bytes.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / 'tools'))

from bench_convert import child_env, measure, tool_command  # noqa: E402

BUILDER_VERSION = 1
#: the export, run by ``--torch_python``: argv[1] is a JSON of the config, the output path and the seed
EXPORT_SCRIPT = r'''
import json, sys, torch
from transformers import Qwen2Config, Qwen2ForCausalLM
from transformers.cache_utils import DynamicCache
args = json.loads(sys.argv[1])
layers, kv_heads, head = args['layers'], args['kv_heads'], args['hidden'] // args['heads']
config = Qwen2Config(hidden_size=args['hidden'], num_hidden_layers=layers, num_attention_heads=args['heads'],
                     num_key_value_heads=kv_heads, intermediate_size=args['intermediate'], vocab_size=args['vocab'],
                     max_position_embeddings=4096, tie_word_embeddings=True)
torch.manual_seed(args['seed'])
model = Qwen2ForCausalLM(config).eval()


class WithExplicitCache(torch.nn.Module):
    """The cache as flat tensors in and out, as optimum's export has it."""
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, position_ids, *past):
        cache = DynamicCache(config=config)
        for i in range(layers):
            cache.update(past[2 * i], past[2 * i + 1], i)
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                         past_key_values=cache, use_cache=True)
        present = []
        for layer in out.past_key_values.layers:
            present += [layer.keys, layer.values]
        return (out.logits, *present)


batch, seq, past_len = 1, 3, 2
ids = torch.randint(0, args['vocab'], (batch, seq))
mask = torch.ones(batch, past_len + seq, dtype=torch.int64)
positions = torch.arange(past_len, past_len + seq)[None]
past = [torch.randn(batch, kv_heads, past_len, head) for _ in range(2 * layers)]
kv = [('%d.%s' % (i, kind)) for i in range(layers) for kind in ('key', 'value')]
inputs = ['input_ids', 'attention_mask', 'position_ids'] + ['past_key_values.' + k for k in kv]
outputs = ['logits'] + ['present.' + k for k in kv]
axes = {'input_ids': {0: 'batch', 1: 'sequence'}, 'attention_mask': {0: 'batch', 1: 'total_sequence'},
        'position_ids': {0: 'batch', 1: 'sequence'}, 'logits': {0: 'batch', 1: 'sequence'}}
axes.update({'past_key_values.' + k: {0: 'batch', 2: 'past_sequence'} for k in kv})
axes.update({'present.' + k: {0: 'batch', 2: 'total_sequence'} for k in kv})
with torch.no_grad():
    torch.onnx.export(WithExplicitCache(model), (ids, mask, positions, *past), args['out'], input_names=inputs,
                      output_names=outputs, dynamic_axes=axes, opset_version=17, dynamo=False)
'''

QWEN2_05B = {'hidden': 896, 'layers': 24, 'heads': 14, 'kv_heads': 2, 'intermediate': 4864, 'vocab': 151936}


def _save_external(model, path: Path):
    import onnx
    data = path.name + '.data'
    if (path.parent / data).exists():
        (path.parent / data).unlink()
    onnx.save_model(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True, location=data,
                    size_threshold=1024)


def build(config: dict, work: Path, torch_python: str, seed: int = 0):
    """``(f32 model path, int4 model path)``, built unless ``work`` holds them for this config already."""
    import onnx
    key = dict(config, seed=seed, version=BUILDER_VERSION)
    key_path = work / 'key.json'
    f32, int4 = work / 'f32' / 'model.onnx', work / 'int4' / 'model.onnx'
    if key_path.exists() and json.loads(key_path.read_text()) == key and f32.exists() and int4.exists():
        return f32, int4
    shutil.rmtree(work, ignore_errors=True)
    (work / 'export').mkdir(parents=True)
    f32.parent.mkdir()
    int4.parent.mkdir()
    start = time.perf_counter()
    exported = work / 'export' / 'model.onnx'
    subprocess.run([torch_python, '-c', EXPORT_SCRIPT, json.dumps(dict(config, seed=seed, out=str(exported)))],
                   check=True)
    model = onnx.load(str(exported))  # whatever files the exporter wrote: one external data file here
    _save_external(model, f32)
    shutil.rmtree(work / 'export')
    print('[ bench ] exported f32 in %.0f s' % (time.perf_counter() - start), flush=True)
    start = time.perf_counter()
    import logging
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer
    logging.getLogger('onnxruntime.quantization.matmul_nbits_quantizer').setLevel(logging.WARNING)  # a line a node
    model = onnx.load(str(f32))  # saving made its tensors refer to the data file by a relative path
    quantizer = MatMulNBitsQuantizer(model, block_size=32, is_symmetric=False)
    quantizer.process()
    _save_external(quantizer.model.model, int4)
    print('[ bench ] quantized to 4 bits in %.0f s' % (time.perf_counter() - start), flush=True)
    key_path.write_text(json.dumps(key))
    return f32, int4


def weight_bytes(path: Path) -> int:
    """The bytes of the model's initializers (their data, external or in the file)."""
    import onnx
    from onnx.external_data_helper import uses_external_data
    model = onnx.load(str(path), load_external_data=False)
    total = 0
    for tensor in model.graph.initializer:
        if uses_external_data(tensor):
            total += int({e.key: e.value for e in tensor.external_data}['length'])
        else:
            total += len(tensor.raw_data) if tensor.raw_data else onnx.numpy_helper.to_array(tensor).nbytes
    return total


# ----- checks -----------------------------------------------------------------------------------------------------

def _session(path: Path):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(str(path), options, providers=['CPUExecutionProvider'])


def _compiled(xml: Path):
    import openvino as ov
    return ov.Core().compile_model(str(xml), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32',
                                                     'DYNAMIC_QUANTIZATION_GROUP_SIZE': '0'})


def _prompt_feeds(session, vocab: int, length: int = 5):
    ids = np.random.default_rng(0).integers(0, vocab, (1, length)).astype(np.int64)
    feeds = {'input_ids': ids, 'attention_mask': np.ones((1, length), np.int64),
             'position_ids': np.arange(length, dtype=np.int64)[None]}
    for info in session.get_inputs():
        if info.name.startswith('past_key_values.'):
            feeds[info.name] = np.zeros((1, info.shape[1], 0, info.shape[3]), np.float32)
    return feeds


def check_plain(model: Path, xml: Path, vocab: int) -> str:
    """'' when every output of the IR matches onnxruntime on one prompt; else the worst difference."""
    session = _session(model)
    feeds = _prompt_feeds(session, vocab)
    expected = dict(zip([o.name for o in session.get_outputs()], session.run(None, feeds)))
    request = _compiled(xml).create_infer_request()
    request.infer(feeds)
    worst, where = 0.0, ''
    for output in request.model_outputs:
        name = output.get_any_name()
        actual, ref = request.get_tensor(output).data, expected[name]
        error = float(np.max(np.abs(actual - ref)) / (np.max(np.abs(ref)) + 1e-12)) if ref.size else 0.0
        if error > worst:
            worst, where = error, name
    return '' if worst < 1e-3 else 'differs from onnxruntime: %s relative error %.2g' % (where, worst)


def check_stateful(model: Path, xml: Path, vocab: int, steps: int = 6) -> str:
    """'' when greedy generation with the stateful IR gives onnxruntime's tokens."""
    session = _session(model)
    feeds = _prompt_feeds(session, vocab)
    names = [o.name for o in session.get_outputs()]
    request = _compiled(xml).create_infer_request()
    stateful_feeds = {k: v for k, v in feeds.items() if not k.startswith('past_key_values.')}
    expected, actual = [], []
    done = feeds['input_ids'].shape[1]
    for _ in range(steps):
        outputs = dict(zip(names, session.run(None, feeds)))
        logits = request.infer(dict(stateful_feeds, beam_idx=np.zeros(1, np.int32)))['logits']
        expected.append(int(outputs['logits'][0, -1].argmax()))
        actual.append(int(logits[0, -1].argmax()))
        token = np.array([[actual[-1]]], np.int64)
        feeds = {'input_ids': token, 'attention_mask': np.ones((1, done + 1), np.int64),
                 'position_ids': np.array([[done]], np.int64)}
        feeds.update({n.replace('present.', 'past_key_values.'): v for n, v in outputs.items() if n != 'logits'})
        stateful_feeds = {k: v for k, v in feeds.items() if not k.startswith('past_key_values.')}
        done += 1
    return '' if actual == expected else 'tokens %s, onnxruntime %s' % (actual, expected)


# ----- the run ----------------------------------------------------------------------------------------------------

def commands(tool: str, model: Path, out_dir: Path):
    if tool == 'mo --stateful':
        return tool_command('mo', model, out_dir, Path('/nonexistent')) + ['--stateful']
    return tool_command(tool, model, out_dir, Path('/nonexistent'))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--layers', type=int, default=QWEN2_05B['layers'])
    parser.add_argument('--vocab', type=int, default=QWEN2_05B['vocab'])
    parser.add_argument('--repeat', type=int, default=1)
    parser.add_argument('--timeout', type=float, default=3600)
    parser.add_argument('--torch_python', default='/tmp/gpt2env/bin/python')
    parser.add_argument('--work', type=Path, default=Path.home() / '.cache' / 'mo-bench' / 'llm')
    parser.add_argument('--forms', default='f32,int4')
    args = parser.parse_args(argv)
    config = dict(QWEN2_05B, layers=args.layers, vocab=args.vocab)
    work = args.work / 'qwen2_L{layers}_V{vocab}'.format(**config)
    f32, int4 = build(config, work, args.torch_python)
    models = {'f32': f32, 'int4': int4}
    forms = [f.strip() for f in args.forms.split(',') if f.strip() in models]
    tools = ['mo', 'mo --stateful', 'ovc']
    import importlib.metadata as md
    params = sum(np.prod(t.dims, dtype=np.int64) for t in __import__('onnx').load(str(f32), load_external_data=False)
                 .graph.initializer)
    print('Qwen2-style decoder %s: %.0fM parameters in the f32 ONNX (embedding and LM head stored apart)' % (
        config, params / 1e6))
    print('Python %d.%d.%d; %d CPUs; openvino %s (ovc, checks); onnxruntime %s; load average %.2f' % (
        sys.version_info[:3] + (os.cpu_count(), md.version('openvino'), md.version('onnxruntime'), os.getloadavg()[0])),
        flush=True)
    head = ['form', 'ONNX weight MiB', 'mo s', 'ovc s', 'mo/ovc time', 'mo MiB', 'ovc MiB', 'mo/ovc mem',
            'mo --stateful s', 'mo --stateful MiB', 'mo .bin MiB', 'ovc .bin MiB', 'mo .bin / ONNX weights', 'checks']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    with tempfile.TemporaryDirectory(dir=str(args.work)) as scratch:
        env = child_env(Path(scratch) / 'pycache')
        for form in forms:
            model = models[form]
            best, bins, notes, xml = {}, {}, {}, {}
            for repeat in range(args.repeat + 1):  # the first round warms caches and is not counted
                for tool in tools:
                    out_dir = Path(scratch) / form / tool.replace(' --', '_') / str(repeat)
                    out_dir.mkdir(parents=True)
                    run = measure(commands(tool, model, out_dir), args.timeout, env)
                    ok = run.returncode == 0 and (out_dir / 'model.xml').is_file()
                    print('  %-5s %-14s %s: %s' % (form, tool, 'run %d' % repeat if repeat else 'warm-up',
                                                   '%.2f s, %.0f MiB' % (run.seconds, run.rss_mib) if ok else
                                                   'FAILED (exit %d): %s' % (run.returncode, run.output[-300:])),
                          flush=True)
                    if not ok:
                        notes[tool] = 'conversion failed'
                        continue
                    if tool in xml:
                        shutil.rmtree(xml[tool].parent, ignore_errors=True)
                    xml[tool] = out_dir / 'model.xml'
                    bins[tool] = (out_dir / 'model.bin').stat().st_size
                    if repeat and (tool not in best or run.seconds < best[tool].seconds):
                        best[tool] = run
            for tool in tools:
                if tool in xml and tool not in notes:
                    check = check_stateful if tool == 'mo --stateful' else check_plain
                    notes[tool] = check(model, xml[tool], config['vocab']) or 'ok'
            shutil.rmtree(Path(scratch) / form, ignore_errors=True)
            weights = weight_bytes(model)

            def cell(tool, attr, fmt):
                return fmt % getattr(best[tool], attr) if tool in best else 'failed'

            def ratio(attr):
                return '%.2fx' % (getattr(best['mo'], attr) / getattr(best['ovc'], attr)) \
                    if 'mo' in best and 'ovc' in best else '-'
            cells = [form, '%.0f' % (weights / 2 ** 20), cell('mo', 'seconds', '%.2f'), cell('ovc', 'seconds', '%.2f'),
                     ratio('seconds'), cell('mo', 'rss_mib', '%.0f'), cell('ovc', 'rss_mib', '%.0f'), ratio('rss_mib'),
                     cell('mo --stateful', 'seconds', '%.2f'), cell('mo --stateful', 'rss_mib', '%.0f'),
                     '%.0f' % (bins['mo'] / 2 ** 20) if 'mo' in bins else '-',
                     '%.0f' % (bins['ovc'] / 2 ** 20) if 'ovc' in bins else '-',
                     '%.3f' % (bins['mo'] / weights) if 'mo' in bins else '-',
                     '; '.join('%s: %s' % (t, notes.get(t, '?')) for t in tools)]
            lines.append('| ' + ' | '.join(cells) + ' |')
            print(lines[-1], flush=True)
    print()
    print('Best of %d fresh processes per tool after a warm-up round; peak RSS of the converting process; f32 IRs '
          '(ovc --compress_to_fp16=False); mo/ovc below 1 means mo is faster or smaller.' % args.repeat)
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
