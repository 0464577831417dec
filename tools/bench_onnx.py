#!/usr/bin/env python
"""Benchmark `mo convert` on ONNX models against OpenVINO's `ovc` and the legacy Model Optimizer, side by side in
one run.

    python tools/bench_onnx.py [--models a,b|small|large|all] [--repeat 3] [--tools mo,ovc,legacy]

Models:

- ``small``: the committed PyTorch exports in ``tests/onnx/models/*.onnx`` (``tools/make_onnx_models.py``) and
  ``mlp_external``: a synthetic MLP built here with ``onnx.helper`` (8 MatMul+Add+Relu layers of 2048x2048,
  128 MiB of float32 weights) saved with its weights as external data, for the memory bound;
- ``large`` (issue 24's benchmark): full-size exports built by ``tools/bench_onnx_models.py`` with torch from
  configs and random weights: ``resnet50``, ``vit_b16_external`` (ViT-Base/16, weights in external data),
  ``bert_base`` (a BERT-base encoder), ``fasterrcnn_mnv3_320`` (If, no Loop in torch 2.8's export) and
  ``maskrcnn_r50_320`` (Loop and If).

Tools: ``mo`` (this project's console script), ``ovc`` (the installed ``openvino``) and ``legacy``: ``mo
--input_model x.onnx`` of openvino-dev 2024.6.0 (its ONNX path, through OpenVINO's ONNX front end) from the venv of
``tools/legacy_mo_env.py`` (``python tools/legacy_mo_env.py --setup`` creates it; without it the column is skipped
with the reason). ``ovc`` and ``legacy`` are asked for float32 IRs (``--compress_to_fp16=False``).

Each measurement is a fresh process (the launcher of ``bench_convert.py``: wall time and the ``os.wait4``
peak RSS of that very process); runs are interleaved tool by tool so that a slow moment of the machine hits
all alike, the first round is an untimed warm-up, and the best of ``--repeat`` is reported. Before a ratio is
printed, each tool's IR is run by OpenVINO on seeded random inputs and compared with onnxruntime; a tool whose IR
fails or disagrees gets the reason instead of a number. Models are cached under ``--work`` (outside the
repository), the IRs are written to a temporary directory and removed after the check.
"""
import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / 'tools'))

import bench_onnx_models  # noqa: E402
import legacy_mo_env  # noqa: E402
from bench_convert import child_env, measure, tool_command  # noqa: E402

MODELS_DIR = ROOT / 'tests' / 'onnx' / 'models'
TOOLS = ('mo', 'ovc', 'legacy')


def build_mlp_external(work: Path) -> Path:
    """An 8-layer 2048-wide MLP whose weights live in ``weights.data`` beside the model."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    path = work / 'mlp_external' / 'model.onnx'
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    nodes, inits, current = [], [], 'x'
    for layer in range(8):
        w = (rng.standard_normal((2048, 2048)) / 45).astype(np.float32)
        b = rng.standard_normal(2048).astype(np.float32) * 0.01
        inits += [numpy_helper.from_array(w, 'w%d' % layer), numpy_helper.from_array(b, 'b%d' % layer)]
        nodes += [helper.make_node('MatMul', [current, 'w%d' % layer], ['mm%d' % layer]),
                  helper.make_node('Add', ['mm%d' % layer, 'b%d' % layer], ['add%d' % layer]),
                  helper.make_node('Relu', ['add%d' % layer], ['h%d' % layer])]
        current = 'h%d' % layer
    graph = helper.make_graph(nodes, 'mlp', [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['N', 2048])],
                              [helper.make_tensor_value_info(current, TensorProto.FLOAT, ['N', 2048])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)])
    model.ir_version = 8
    onnx.save(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True, location='weights.data')
    return path


#: symbolic dimensions the exports fix in their graphs anyway (torch bakes the transformer's length 7 into a Reshape)
SYMBOLIC_SIZES = dict({'transformer_encoder': {'sequence': 7}}, **bench_onnx_models.FEED_SIZES)


def _model_name(model_path: Path) -> str:
    return model_path.parent.name if model_path.stem == 'model' else model_path.stem


def _inputs(model_path: Path, seed: int = 0):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.log_severity_level = 3   # the detectors' Loop outputs warn on every iteration
    session = ort.InferenceSession(str(model_path), options, providers=['CPUExecutionProvider'])
    rng = np.random.default_rng(seed)
    sizes = SYMBOLIC_SIZES.get(_model_name(model_path), {})
    feeds = {}
    for arg in session.get_inputs():
        shape = [d if isinstance(d, int) else next((v for k, v in sizes.items() if k in str(d)), 2)
                 for d in arg.shape]
        if 'int' in arg.type:
            # token types and attention masks take 0/1 (a mask's first column 1), ids 0..9
            high = 2 if 'type' in arg.name or 'mask' in arg.name else 10
            value = rng.integers(0, high, shape)
            if 'mask' in arg.name and value.ndim == 2:
                value[:, 0] = 1
            feeds[arg.name] = value.astype(np.int64 if 'int64' in arg.type else np.int32)
        elif 'image' in arg.name:
            feeds[arg.name] = rng.random(shape).astype(np.float32)   # detectors normalise [0, 1] images
        else:
            feeds[arg.name] = rng.standard_normal(shape).astype(np.float32)
    return session, feeds


def check(model_path: Path, xml: Path, tol: float, reference=None) -> str:
    """'' when the IR agrees with onnxruntime, else why not. ``reference``: (session, feeds, expected) to reuse."""
    import openvino as ov
    if not xml.exists():
        return 'no IR'
    session, feeds, expected = reference or _reference(model_path)
    try:
        compiled = ov.Core().compile_model(str(xml), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32'})
        by_name = {n: p for p in compiled.inputs for n in p.get_names()}
        result = compiled({by_name[k]: v for k, v in feeds.items()})
    except Exception as exc:  # the point is to report it
        return 'OpenVINO: ' + str(exc).strip().splitlines()[-1][:120]
    for out, want in zip(session.get_outputs(), expected):
        port = next((p for p in compiled.outputs if out.name in p.get_names()), None)
        if port is None:
            return 'no output ' + out.name
        got = np.asarray(result[port]).astype(np.float64)
        if got.shape != want.shape:
            return '%s: shape %s, onnxruntime %s' % (out.name, list(got.shape), list(want.shape))
        err = float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-12)) if want.size else 0.0
        if err > tol:
            return '%s: rel. error %.2g' % (out.name, err)
    return ''


def _reference(model_path: Path):
    session, feeds = _inputs(model_path)
    return session, feeds, session.run(None, feeds)


def legacy_command(model: Path, out_dir: Path, venv: Path):
    """The legacy MO on ONNX: its default ONNX path (OpenVINO's ONNX front end; no ``--use_legacy_frontend``)."""
    return [str(legacy_mo_env.legacy_mo(venv)), '--input_model', str(model), '--output_dir', str(out_dir),
            '--model_name', 'model', '--compress_to_fp16=False']


def command(tool: str, model: Path, out_dir: Path, venv: Path):
    if tool == 'legacy':
        return legacy_command(model, out_dir, venv)
    return tool_command(tool, model, out_dir, Path('/nonexistent'))


def _failure(output: str) -> str:
    """The most telling line of a failed conversion's output."""
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    for marks in (('failed for',), ('Error:', 'Exception:'), ('ERROR', 'Error')):
        hits = [line for line in lines if any(m in line for m in marks)]
        if hits:
            return hits[0][:200]
    return lines[-1][:200] if lines else 'no output'


def _select(spec: str):
    small = [p.stem for p in sorted(MODELS_DIR.glob('*.onnx'))] + ['mlp_external']
    large = list(bench_onnx_models.BUILDERS)
    groups = {'small': small, 'large': large, 'all': small + large}
    names = []
    for item in (spec or 'all').split(','):
        for name in groups.get(item.strip(), [item.strip()]):
            if name and name not in names:
                names.append(name)
    unknown = [n for n in names if n not in groups['all']]
    if unknown:
        raise SystemExit('unknown model(s) %s; known: %s' % (', '.join(unknown), ', '.join(groups['all'])))
    return names


def _path(name: str, work: Path) -> Path:
    if name == 'mlp_external':
        return build_mlp_external(work)
    if name in bench_onnx_models.BUILDERS:
        return bench_onnx_models.load_or_build(name, work)
    return MODELS_DIR / (name + '.onnx')


def _size_mib(path: Path) -> float:
    if path.parent.name in ('models',):
        return path.stat().st_size / 2 ** 20
    return sum(f.stat().st_size for f in path.parent.iterdir() if f.name != 'key.json') / 2 ** 20


def _load_average() -> str:
    try:
        return '%.2f / %.2f / %.2f' % os.getloadavg()
    except OSError:
        return '?'


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--models', help='comma-separated names or groups small, large, all (default: all)')
    parser.add_argument('--tools', default=','.join(TOOLS), help='subset of %s' % ','.join(TOOLS))
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--timeout', type=float, default=1800)
    parser.add_argument('--tol', type=float, default=1e-4)
    parser.add_argument('--work', type=Path, default=legacy_mo_env.default_venv().parent / 'onnx')
    parser.add_argument('--legacy_venv', type=Path, default=None)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    names = _select(args.models)
    tools = [t.strip() for t in args.tools.split(',') if t.strip() in TOOLS]
    venv = args.legacy_venv or legacy_mo_env.default_venv()
    legacy_ok, legacy_msg = legacy_mo_env.status(venv)
    if 'legacy' in tools and not legacy_ok:
        print('[ SKIP ] legacy column: %s' % legacy_msg, file=sys.stderr)
        tools.remove('legacy')
    paths = {name: _path(name, args.work) for name in names}   # build (or find) every model before timing
    import importlib.metadata as md
    print('Python %d.%d.%d; %d CPUs; openvino %s (ovc, checks); onnxruntime %s; torch %s; %s' % (
        sys.version_info[:3] + (os.cpu_count(), md.version('openvino'), md.version('onnxruntime'),
                                md.version('torch'), legacy_msg if 'legacy' in tools else 'no legacy MO')))
    print('load average at start: %s' % _load_average(), flush=True)
    others = [t for t in tools if t != 'mo']
    head = ['model', 'MiB'] + ['%s s' % t for t in tools] + ['%s MiB' % t for t in tools]
    head += ['mo/%s time' % t for t in others] + ['mo/%s mem' % t for t in others] + ['check vs onnxruntime']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    with tempfile.TemporaryDirectory() as scratch:
        env = child_env(Path(scratch) / 'pycache')
        for name in names:
            path = paths[name]
            best, failed, failures, xml = {}, {}, {}, {}
            for repeat in range(args.repeat + 1):  # the first round warms caches and is not counted
                for tool in tools:
                    out_dir = Path(scratch) / tool / name / str(repeat)
                    out_dir.mkdir(parents=True)
                    run = measure(command(tool, path, out_dir, venv), args.timeout, env)
                    ok = run.returncode == 0 and (out_dir / 'model.xml').is_file()
                    print('  %-22s %-6s %s: %s' % (name, tool, 'run %d' % repeat if repeat else 'warm-up',
                                                    '%.2f s, %.0f MiB' % (run.seconds, run.rss_mib) if ok
                                                    else 'FAILED (exit %d)' % run.returncode), flush=True)
                    if not ok:
                        failed[tool] = _failure(run.output)
                        failures[tool] = failures.get(tool, 0) + 1
                        shutil.rmtree(out_dir, ignore_errors=True)
                        continue
                    if tool in xml:   # keep one IR per tool (the latest good one) for the check
                        shutil.rmtree(xml[tool].parent, ignore_errors=True)
                    xml[tool] = out_dir / 'model.xml'
                    if repeat and (tool not in best or run.seconds < best[tool].seconds):
                        best[tool] = run
            reference = _reference(path)
            tol = bench_onnx_models.TOLERANCE.get(name, args.tol)
            notes = {tool: check(path, xml[tool], tol, reference) if tool in best
                     else 'conversion failed: ' + failed.get(tool, '?') for tool in tools}
            # a tool that failed in some runs only is timed on its good runs; say so
            flaky = ['%s failed %d of %d runs (%s)' % (t, failures[t], args.repeat + 1, failed[t])
                     for t in tools if t in best and t in failed]
            for tool in tools:
                shutil.rmtree(Path(scratch) / tool / name, ignore_errors=True)

            def valid(tool):
                return best.get(tool) is not None and not notes[tool]

            cells = [name, '%.0f' % _size_mib(path)]
            cells += ['%.2f' % best[t].seconds if t in best else 'failed' for t in tools]
            cells += ['%.0f' % best[t].rss_mib if t in best else 'failed' for t in tools]
            for attr in ('seconds', 'rss_mib'):
                cells += ['%.2fx' % (getattr(best['mo'], attr) / getattr(best[t], attr))
                          if valid('mo') and valid(t) else '-' for t in others]
            cells.append('; '.join(['%s: %s' % (t, n) for t, n in notes.items() if n] + flaky) or
                         'all match (tol %g)' % tol)
            lines.append('| ' + ' | '.join(cells) + ' |')
            print(lines[-1], flush=True)
    print('load average at end: %s' % _load_average())
    print()
    print('Converting ONNX to float32 IR; best of %d fresh processes per tool after a warm-up round; peak RSS of '
          'the converting process; mo/X below 1 means mo is faster or smaller. MiB: model file(s) on disk.'
          % args.repeat)
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
