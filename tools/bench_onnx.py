#!/usr/bin/env python
"""Benchmark `mo convert` on ONNX models against OpenVINO's `ovc`, side by side in one run.

    python tools/bench_onnx.py [--models a,b] [--repeat 3]

Models: the committed PyTorch exports in ``tests/onnx/models/*.onnx`` (``tools/make_onnx_models.py``) and
``mlp_external``: a synthetic MLP built here with ``onnx.helper`` (8 MatMul+Add+Relu layers of 2048x2048,
128 MiB of float32 weights) saved with its weights as external data, for the memory bound.

Each measurement is a fresh process (the launcher of ``bench_convert.py``: wall time and the ``os.wait4``
peak RSS of that very process); runs are interleaved tool by tool so that a slow moment of the machine hits
both alike, and the best of ``--repeat`` is reported. Before a ratio is printed, each tool's IR is run by
OpenVINO on seeded random inputs and compared with onnxruntime; a tool whose IR fails or disagrees gets the
reason instead of a number.
"""
import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / 'tools'))

from bench_convert import child_env, measure, tool_command  # noqa: E402

MODELS_DIR = ROOT / 'tests' / 'onnx' / 'models'


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
SYMBOLIC_SIZES = {'transformer_encoder': {'sequence': 7}}


def _inputs(model_path: Path, seed: int = 0):
    import onnxruntime as ort
    session = ort.InferenceSession(str(model_path), providers=['CPUExecutionProvider'])
    rng = np.random.default_rng(seed)
    sizes = SYMBOLIC_SIZES.get(model_path.stem, {})
    feeds = {}
    for arg in session.get_inputs():
        shape = [d if isinstance(d, int) else next((v for k, v in sizes.items() if k in str(d)), 2)
                 for d in arg.shape]
        if 'int' in arg.type:
            feeds[arg.name] = rng.integers(0, 10, shape).astype(np.int64 if 'int64' in arg.type else np.int32)
        else:
            feeds[arg.name] = rng.standard_normal(shape).astype(np.float32)
    return session, feeds


def check(model_path: Path, xml: Path, tol: float) -> str:
    """'' when the IR agrees with onnxruntime, else why not."""
    import openvino as ov
    if not xml.exists():
        return 'no IR'
    session, feeds = _inputs(model_path)
    expected = session.run(None, feeds)
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
        err = float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-12)) if want.size else 0.0
        if err > tol:
            return 'rel. error %.2g' % err
    return ''


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--models', help='comma-separated names (default: all)')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--timeout', type=float, default=600)
    parser.add_argument('--tol', type=float, default=1e-4)
    parser.add_argument('--work', type=Path, default=Path.home() / '.cache' / 'mo-bench' / 'onnx')
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    models = {p.stem: p for p in sorted(MODELS_DIR.glob('*.onnx'))}
    models['mlp_external'] = None
    if args.models:
        models = {k: v for k, v in models.items() if k in args.models.split(',')}
    tools = ('mo', 'ovc')
    with tempfile.TemporaryDirectory() as scratch:
        env = child_env(Path(scratch) / 'pycache')
        print('| model | mo s | ovc s | mo/ovc time | mo MiB | ovc MiB | mo/ovc memory | check |')
        print('|---|---|---|---|---|---|---|---|')
        for name, path in models.items():
            path = path or build_mlp_external(args.work)
            best = {}
            for repeat in range(args.repeat + 1):  # the first round warms caches and is not counted
                for tool in tools:
                    out_dir = Path(scratch) / tool / name
                    out_dir.mkdir(parents=True, exist_ok=True)
                    run = measure(tool_command(tool, path, out_dir, Path('/nonexistent')), args.timeout, env)
                    if run.returncode != 0:
                        best[tool] = None
                        print('%s failed on %s: %s' % (tool, name, run.output.strip().splitlines()[-1:]),
                              file=sys.stderr)
                        continue
                    if repeat and (best.get(tool) is None or run.seconds < best[tool].seconds):
                        best[tool] = run
            notes = {tool: check(path, Path(scratch) / tool / name / 'model.xml', args.tol) for tool in tools}
            mo_run, ovc_run = best.get('mo'), best.get('ovc')

            def cell(run, attr):
                return '%.2f' % getattr(run, attr) if run else 'failed'
            ratio_t = '%.2fx' % (mo_run.seconds / ovc_run.seconds) if mo_run and ovc_run else '-'
            ratio_m = '%.2fx' % (mo_run.rss_mib / ovc_run.rss_mib) if mo_run and ovc_run else '-'
            note = '; '.join('%s: %s' % (t, n) for t, n in notes.items() if n) or 'both match onnxruntime'
            print('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                name, cell(mo_run, 'seconds'), cell(ovc_run, 'seconds'), ratio_t, cell(mo_run, 'rss_mib'),
                cell(ovc_run, 'rss_mib'), ratio_m, note), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
