#!/usr/bin/env python
"""The IR mo writes against the IR ``ovc`` writes for the same model: how fast each compiles and runs.

    python tools/bench_ir.py [--models a,b] [--seconds 6] [--torch_python PY] [--work DIR]
    python tools/bench_ir.py --models onnx_llama --diff      also the op-type histograms (IR and compiled)

For every model both converters write an f32 IR (``mo convert`` and ``ovc --compress_to_fp16=False``); then, in this
one process, OpenVINO's CPU plugin compiles the two IRs alternately (``PERFORMANCE_HINT=LATENCY``,
``INFERENCE_PRECISION_HINT=f32``, ten compilations each (``COMPILE_ROUNDS``), the median kept) and runs them
alternately in short batches on the same inputs until each has had ``--seconds`` of inference; the median latency of
a single inference is reported. Before timing, each IR's outputs are compared with the framework's (TensorFlow on
the frozen graph, onnxruntime on the ONNX file). The table gives per model the latency and compile time of both IRs
and their ratios (mo / ovc), the op count of each IR (Parameter, Result and Constant not counted) and of the graph
the plugin compiled, and the geometric means of the ratios. Targets (issue 44): latency geometric mean at most
1.00x, no model above 1.05x, compile time geometric mean at most 1.0x.

Models:

- ``tf_mobilenet_v2``, ``tf_resnet50``, ``tf_efficientnet_b0``: keras.applications at 224x224 with random weights,
  frozen (tools/bench_convert.py builds and caches them);
- ``tf_transformer``: the Keras transformer block of tests/support at 1x128x256 (tools/bench_convert.py);
- ``onnx_resnet18``: ResNet-18 (BasicBlock [2,2,2,2], widths 64..512), 1x3x224x224;
- ``onnx_bert``: transformers' ``BertModel`` (4 layers, width 256, 4 heads), ids and mask 1x128;
- ``onnx_gpt2``: transformers' ``GPT2LMHeadModel`` (4 layers, width 256, 4 heads, vocabulary 8000) with past:
  one new token after 128 cached ones;
- ``onnx_llama``: transformers' ``LlamaForCausalLM`` (4 layers, width 256, 8 query / 4 key-value heads, RMSNorm,
  rotary embeddings, SiLU-gated MLP, vocabulary 8000) with past, one token after 128.

The ONNX models are exported (TorchScript exporter, opset 17, seeded random weights) by a Python with torch and
transformers (``--torch_python``, default ``/tmp/gpt2env/bin/python``) and cached under ``--work``.
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT, ROOT / 'tools'):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

CONFIG = {'PERFORMANCE_HINT': 'LATENCY', 'INFERENCE_PRECISION_HINT': 'f32'}
TF_MODELS = {'tf_mobilenet_v2': 'mobilenet_v2', 'tf_resnet50': 'resnet50', 'tf_efficientnet_b0': 'efficientnet_b0',
             'tf_transformer': 'transformer_encoder'}
ONNX_MODELS = ('onnx_resnet18', 'onnx_bert', 'onnx_gpt2', 'onnx_llama')
MODELS = tuple(TF_MODELS) + ONNX_MODELS
PAST = 128          # cached tokens fed to the decoders
EXPORT_VERSION = 1  # bump when _EXPORT changes

_EXPORT = r'''
import sys, torch, transformers
from torch import nn
kind, path, past_len = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.manual_seed(0)


def export(module, args, names, outputs, dynamic):
    with torch.no_grad():
        torch.onnx.export(module, args, path, dynamo=False, opset_version=17, input_names=names,
                          output_names=outputs, dynamic_axes=dynamic, do_constant_folding=True)


if kind == 'onnx_resnet18':
    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
            self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
            self.down = None if stride == 1 and cin == cout else nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            y = self.b2(self.c2(torch.relu(self.b1(self.c1(x)))))
            return torch.relu(y + (x if self.down is None else self.down(x)))

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)]
    model = nn.Sequential(*layers).eval()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.uniform_(-0.5, 0.5); m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5); m.bias.uniform_(-0.5, 0.5)
    export(model, (torch.randn(1, 3, 224, 224),), ['input'], ['logits'], {'input': {0: 'batch'}})
elif kind == 'onnx_bert':
    config = transformers.BertConfig(num_hidden_layers=4, hidden_size=256, intermediate_size=1024,
                                     num_attention_heads=4, vocab_size=8000)
    bert = transformers.BertModel(config).eval()

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, ids, mask):
            return self.bert(input_ids=ids, attention_mask=mask).last_hidden_state

    ids, mask = torch.randint(0, 8000, (1, 128)), torch.ones(1, 128, dtype=torch.int64)
    export(Encoder(), (ids, mask), ['input_ids', 'attention_mask'], ['hidden'],
           {'input_ids': {0: 'batch', 1: 'sequence'}, 'attention_mask': {0: 'batch', 1: 'sequence'}})
else:
    if kind == 'onnx_gpt2':
        config = transformers.GPT2Config(n_layer=4, n_embd=256, n_head=4, vocab_size=8000, n_positions=512)
        lm, layers, kv_heads, head = transformers.GPT2LMHeadModel(config).eval(), 4, 4, 64
    else:
        config = transformers.LlamaConfig(num_hidden_layers=4, hidden_size=256, intermediate_size=688,
                                          num_attention_heads=8, num_key_value_heads=4, vocab_size=8000,
                                          max_position_embeddings=512)
        lm, layers, kv_heads, head = transformers.LlamaForCausalLM(config).eval(), 4, 4, 32

    class Decoder(nn.Module):
        """input_ids, attention_mask and the flat past keys/values in; logits and the presents out."""
        def __init__(self):
            super().__init__()
            self.lm = lm

        def forward(self, ids, mask, *past):
            cache = transformers.DynamicCache()
            for i in range(layers):
                cache.update(past[2 * i], past[2 * i + 1], i)
            out = self.lm(input_ids=ids, attention_mask=mask, past_key_values=cache, use_cache=True)
            result = [out.logits]
            for layer in out.past_key_values.layers[:layers]:
                result += [layer.keys, layer.values]
            return tuple(result)

    names = ['input_ids', 'attention_mask'] + ['past_%d_%s' % (i, kv) for i in range(layers) for kv in 'kv']
    outputs = ['logits'] + ['present_%d_%s' % (i, kv) for i in range(layers) for kv in 'kv']
    dynamic = {'input_ids': {0: 'batch', 1: 'sequence'}, 'attention_mask': {0: 'batch', 1: 'total'}}
    dynamic.update({n: {0: 'batch', 2: 'past'} for n in names[2:]})
    past = [torch.randn(1, kv_heads, past_len, head) for _ in range(2 * layers)]
    export(Decoder(), (torch.randint(0, 8000, (1, 1)), torch.ones(1, past_len + 1, dtype=torch.int64), *past),
           names, outputs, dynamic)
'''


# --------------------------------------------------------------------------------------------------------------------
# Models and their inputs
# --------------------------------------------------------------------------------------------------------------------

class Model:
    """One benchmark model: its source file, the feeds (by input name) and the framework's outputs on them."""

    def __init__(self, name: str, path: Path, feeds: Dict[str, np.ndarray], reference):
        self.name, self.path, self.feeds, self._reference = name, path, feeds, reference

    def reference(self) -> Dict[str, np.ndarray]:
        return self._reference()


def _tf_model(name: str, work: Path) -> Model:
    import bench_convert
    from tests.support import oracles
    rec = bench_convert.load_or_build(bench_convert.SPECS[TF_MODELS[name]], work)
    feeds = rec.random_feeds(0)
    pb = work / 'models' / (rec.name + '.pb')
    return Model(name, pb, feeds,
                 lambda: dict(zip(rec.outputs, oracles.run_tf(rec.graph_def, feeds, list(rec.outputs)))))


def _onnx_feeds(name: str, path: Path) -> Dict[str, np.ndarray]:
    import onnx
    rng = np.random.default_rng(0)
    model = onnx.load(str(path), load_external_data=False)
    feeds = {}
    for value in model.graph.input:
        dims = [d.dim_value if d.dim_value else 0 for d in value.type.tensor_type.shape.dim]
        n = value.name
        if n == 'input_ids':
            feeds[n] = rng.integers(0, 8000, (1, 1 if name in ('onnx_gpt2', 'onnx_llama') else 128), dtype=np.int64)
        elif n == 'attention_mask':
            feeds[n] = np.ones((1, PAST + 1 if name in ('onnx_gpt2', 'onnx_llama') else 128), np.int64)
        elif n.startswith('past_'):
            feeds[n] = rng.standard_normal((1, dims[1], PAST, dims[3])).astype(np.float32)
        else:
            feeds[n] = rng.standard_normal([d or 1 for d in dims]).astype(np.float32)
    return feeds


def _onnx_model(name: str, work: Path, torch_python: str) -> Model:
    directory = work / 'onnx'
    directory.mkdir(parents=True, exist_ok=True)
    path, key_file = directory / (name + '.onnx'), directory / (name + '.key')
    key = json.dumps({'version': EXPORT_VERSION, 'past': PAST})
    if not path.exists() or not key_file.exists() or key_file.read_text() != key:
        print('exporting %s ...' % name, flush=True)
        subprocess.run([torch_python, '-c', _EXPORT, name, str(path), str(PAST)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        key_file.write_text(key)
    feeds = _onnx_feeds(name, path)

    def reference():
        import onnxruntime
        session = onnxruntime.InferenceSession(str(path), providers=['CPUExecutionProvider'])
        names = [o.name for o in session.get_outputs()]
        return dict(zip(names, session.run(None, feeds)))
    return Model(name, path, feeds, reference)


# --------------------------------------------------------------------------------------------------------------------
# Converting, compiling, running
# --------------------------------------------------------------------------------------------------------------------

def convert(tool: str, model: Model, out: Path) -> Path:
    """Write ``model``'s f32 IR with ``tool`` ('mo' or 'ovc') into ``out``; returns the .xml path."""
    out.mkdir(parents=True, exist_ok=True)
    xml = out / 'model.xml'
    if tool == 'mo':
        cmd = [sys.executable, '-m', 'mo', 'convert', '--input_model', str(model.path), '--output_dir', str(out),
               '--model_name', 'model', '--silent']
    else:
        cmd = [str(Path(sys.executable).parent / 'ovc'), str(model.path), '--output_model', str(xml),
               '--compress_to_fp16=False']
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT))
    if done.returncode or not xml.exists():
        raise RuntimeError('%s failed: %s' % (tool, (done.stderr or done.stdout).strip()[-500:]))
    return xml


def op_types(model, skip=('Parameter', 'Result', 'Constant')) -> collections.Counter:
    return collections.Counter(op.get_type_name() for op in model.get_ops() if op.get_type_name() not in skip)


def runtime_types(compiled) -> collections.Counter:
    """The layer types of the graph the plugin compiled (its execution graph)."""
    counts = collections.Counter()
    for op in compiled.get_runtime_model().get_ops():
        layer = op.get_rt_info()['layerType'].astype(str) if 'layerType' in op.get_rt_info() else op.get_type_name()
        if layer not in ('Input', 'Output', 'Parameter', 'Result', 'Constant'):
            counts[layer] += 1
    return counts


def _inputs_for(compiled, feeds: Dict[str, np.ndarray]) -> List[np.ndarray]:
    ordered = []
    for port in compiled.inputs:
        names = {n.split(':')[0] for n in port.get_names()}
        match = [feeds[n] for n in names if n in feeds]
        if not match:
            raise KeyError('no feed for input %s' % sorted(names))
        ordered.append(match[0])
    return ordered


def _error_against(compiled, outputs, expected: Dict[str, np.ndarray]) -> float:
    """The largest relative error of an output against the framework's output of the same name (by position
    when the names do not match)."""
    errors = []
    for i, port in enumerate(compiled.outputs):
        names = [n.split(':')[0] for n in port.get_names()] + list(port.get_names())
        match = [expected[n] for n in names if n in expected]
        reference = match[0] if match else list(expected.values())[i]
        errors.append(rel_error(outputs[port], reference))
    return max(errors)


def rel_error(actual, expected) -> float:
    actual, expected = np.asarray(actual, np.float64), np.asarray(expected, np.float64)
    if actual.shape != expected.shape:
        return float('inf')
    scale = np.max(np.abs(expected)) if expected.size else 0.0
    diff = np.max(np.abs(actual - expected)) if expected.size else 0.0
    return float(diff / scale) if scale else float(diff)


#: compilations of each IR per model, alternating: the median of four moved by up to 20% between runs on IRs with the
#: same compiled graph (a compilation of a CNN takes 0.1-0.2 s, and a slow moment of the machine hits a few)
COMPILE_ROUNDS = 10


def bench_model(core, model: Model, xmls: Dict[str, Path], seconds: float, diff: bool) -> Dict[str, dict]:
    """Compile both IRs ``COMPILE_ROUNDS`` times alternately (each tool first in half of the rounds: the plugin's
    kernel caches are the process's), check them against the framework, then time them alternately."""
    tools = list(xmls)
    compile_s = {t: [] for t in tools}
    compiled = {}
    for round_index in range(COMPILE_ROUNDS):
        for tool in (tools if round_index % 2 == 0 else tools[::-1]):
            start = time.perf_counter()
            compiled[tool] = core.compile_model(str(xmls[tool]), 'CPU', CONFIG)
            compile_s[tool].append(time.perf_counter() - start)
    expected = model.reference()
    requests, inputs, result = {}, {}, {}
    for tool in tools:
        inputs[tool] = _inputs_for(compiled[tool], model.feeds)
        requests[tool] = compiled[tool].create_infer_request()
        out = requests[tool].infer(inputs[tool])
        error = _error_against(compiled[tool], out, expected)
        ir = core.read_model(str(xmls[tool]))
        result[tool] = {'compile': statistics.median(compile_s[tool]), 'error': error, 'ops': op_types(ir),
                        'runtime': runtime_types(compiled[tool]), 'times': []}
    # calibrate a batch of about 0.25 s, then alternate batches until each tool has had `seconds`
    start = time.perf_counter()
    requests[tools[0]].infer(inputs[tools[0]])
    one = max(time.perf_counter() - start, 1e-5)
    batch = max(1, int(0.25 / one))
    spent = {t: 0.0 for t in tools}
    while min(spent.values()) < seconds:
        for tool in tools:
            request, feed, times = requests[tool], inputs[tool], result[tool]['times']
            for _ in range(batch):
                t0 = time.perf_counter()
                request.infer(feed)
                times.append(time.perf_counter() - t0)
                spent[tool] += times[-1]
        tools.reverse()  # neither IR always runs first
    for tool in result:
        result[tool]['latency'] = statistics.median(result[tool]['times'])
    if diff:
        print(histogram_diff(model.name, result))
    return result


def histogram_diff(name: str, result: Dict[str, dict]) -> str:
    lines = ['--- %s: op types mo / ovc (IR; compiled)' % name]
    for what in ('ops', 'runtime'):
        a, b = result['mo'][what], result['ovc'][what]
        rows = ['  %-32s %5d %5d' % (k, a[k], b[k]) for k in sorted(set(a) | set(b)) if a[k] != b[k]]
        lines.append(' %s: %d / %d ops; differing types:' % ('IR' if what == 'ops' else 'compiled',
                                                                sum(a.values()), sum(b.values())))
        lines.extend(rows or ['  (none)'])
    return '\n'.join(lines)


def geomean(values: List[float]) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float('nan')


def table(rows: List[tuple]) -> str:
    out = ['| model | latency mo / ovc (ms) | ratio | compile mo / ovc (s) | ratio | IR ops mo / ovc '
           '| compiled ops mo / ovc | max rel. error mo / ovc |', '|---|---|---|---|---|---|---|---|']
    lat, comp = [], []
    for name, r in rows:
        if isinstance(r, str):
            out.append('| %s | %s | | | | | | |' % (name, r))
            continue
        mo, ovc = r['mo'], r['ovc']
        lr, cr = mo['latency'] / ovc['latency'], mo['compile'] / ovc['compile']
        lat.append(lr)
        comp.append(cr)
        out.append('| %s | %.3f / %.3f | %.3f | %.3f / %.3f | %.2f | %d / %d | %d / %d | %.1e / %.1e |' % (
            name, mo['latency'] * 1e3, ovc['latency'] * 1e3, lr, mo['compile'], ovc['compile'], cr,
            sum(mo['ops'].values()), sum(ovc['ops'].values()), sum(mo['runtime'].values()),
            sum(ovc['runtime'].values()), mo['error'], ovc['error']))
    out.append('| geometric mean | | %.3f | | %.2f | | | |' % (geomean(lat), geomean(comp)))
    worst = max(lat) if lat else float('nan')
    out.append('\ntargets: latency geomean <= 1.00 (%.3f), every model <= 1.05 (worst %.3f), compile geomean <= 1.0'
               ' (%.2f)' % (geomean(lat), worst, geomean(comp)))
    return '\n'.join(out)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--models', default=','.join(MODELS), help='comma-separated, of: ' + ', '.join(MODELS))
    p.add_argument('--seconds', type=float, default=6.0, help='inference time per IR and model (default 6)')
    p.add_argument('--torch_python', default='/tmp/gpt2env/bin/python',
                   help='a Python with torch and transformers, to export the ONNX models once')
    p.add_argument('--work', type=Path, default=Path.home() / '.cache' / 'mo-bench' / 'work')
    p.add_argument('--diff', action='store_true', help='print the op-type histograms where mo and ovc differ')
    args = p.parse_args(argv)
    args.names = [m.strip() for m in args.models.split(',') if m.strip()]
    unknown = [m for m in args.names if m not in MODELS]
    if unknown:
        p.error('unknown model(s): %s' % ', '.join(unknown))
    return args


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import openvino as ov
    core = ov.Core()
    rows = []
    start = time.perf_counter()
    for name in args.names:
        try:
            model = _tf_model(name, args.work) if name in TF_MODELS else \
                _onnx_model(name, args.work, args.torch_python)
            xmls = {tool: convert(tool, model, args.work / 'ir-bench' / name / tool) for tool in ('mo', 'ovc')}
            result = bench_model(core, model, xmls, args.seconds, args.diff)
        except Exception as e:  # one model's failure is reported in its row, the others still run
            rows.append((name, 'failed: %s' % str(e).strip().splitlines()[-1][:200]))
            print('%s: failed: %s' % (name, e), flush=True)
            continue
        rows.append((name, result))
        print('%-20s latency %.3f ms / %.3f ms, compile %.2f s / %.2f s' % (
            name, result['mo']['latency'] * 1e3, result['ovc']['latency'] * 1e3, result['mo']['compile'],
            result['ovc']['compile']), flush=True)
    print()
    print('OpenVINO %s, %d CPU(s), load average %s, %.0f s in all' % (
        ov.get_version(), os.cpu_count(), ' '.join('%.1f' % x for x in os.getloadavg()), time.perf_counter() - start))
    print(table(rows))
    return 0


if __name__ == '__main__':
    sys.exit(main())
