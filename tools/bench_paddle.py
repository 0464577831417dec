#!/usr/bin/env python
"""Benchmark `mo convert` against OpenVINO's `ovc` on Paddle models (issue 40).

    python tools/bench_paddle.py [--models resnet50,ocr_det,...] [--repeat 3] [--width 8]
    python tools/bench_paddle.py --bin ~/.cache/mo-bench/work/fresh-<key>/bin   # mo and ovc from that venv

The models are ``tests/paddle/paddle_models.py``'s, built with seeded random weights: ``resnet50``
(paddle.vision's, 224x224, 1000 classes), ``ocr_det`` (a PP-OCR DB text detector), ``ocr_rec_svtr`` and
``ocr_rec_crnn`` (PP-OCR recognisers: SVTR attention mixers, CRNN with a bidirectional LSTM) and
``bert_encoder`` (a transformer encoder: embeddings, masked multi-head attention, GELU, layer norms), the
last four at ``--width`` times the tests' channel counts (``PADDLE_MODELS_WIDTH``; 8 gives sizes of the real
mobile models). Each is exported twice, in a child process so that paddle stays out of this one:

- classic ``.pdmodel`` + ``.pdiparams`` (what ``ovc`` reads), by Paddle 2.6 from ``--paddle26`` (Paddle 3.3's
  classic exporter fails on most of these models); without that venv, by Paddle 3 with
  ``FLAGS_enable_pir_api=0``, and a model it cannot write is reported and left out;
- Paddle 3's PIR ``.json`` (which ``ovc`` cannot read): ``mo`` alone, its time shown beside the classic one.

``mo`` and ``ovc`` convert the classic program in fresh processes, interleaved (model by model, repeat by repeat,
tool by tool), both to f32 IR; the best of ``--repeat`` wall times is reported with the peak RSS of that very
process (``os.wait4``, through ``bench_convert.measure``'s launcher). Every IR is then run in OpenVINO on the
model's example inputs and compared with Paddle Inference (the Paddle of this environment, on the same program
files): the largest difference per tool, relative to each output's largest magnitude. A tool whose IR fails or
disagrees gets no ratio.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / 'tools'):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from bench_convert import child_env, measure  # noqa: E402  (tools/bench_convert.py)

MAKER = ROOT / 'tests' / 'paddle' / 'paddle_models.py'
MODELS = ('resnet50', 'ocr_det', 'ocr_rec_svtr', 'ocr_rec_crnn', 'bert_encoder')
PADDLE26 = Path('/tmp/paddle26/bin/python')
#: error above which an IR counts as disagreeing with Paddle: the largest difference over an output, relative to
#: that output's largest magnitude (a deep f32 encoder's values near 0 differ in their last bits, whichever tool)
TOL = 1e-3


def _paddle_env(width: int, pir: bool) -> Dict[str, str]:
    return dict(os.environ, GLOG_minloglevel='3', FLAGS_call_stack_level='0', PADDLE_MODELS_WIDTH=str(width),
                FLAGS_enable_pir_api='1' if pir else '0')


def export(names: List[str], work: Path, width: int, paddle26: Path) -> Dict[str, Dict[str, Optional[Path]]]:
    """``{name: {'classic': path or None, 'pir': path or None, 'problem': text}}``; references of Paddle Inference
    (this environment's Paddle) beside each program as ``<name>.npz`` in ``work/refs_<format>``."""
    found = {}
    pir_dir, classic_dir = work / 'pir', work / 'classic'
    for d in (pir_dir, classic_dir, work / 'refs_pir', work / 'refs_classic'):
        d.mkdir(parents=True, exist_ok=True)
    for name in names:
        entry = found.setdefault(name, {'classic': None, 'pir': None, 'problem': ''})
        done = subprocess.run([sys.executable, str(MAKER), str(pir_dir), 'pir', name], capture_output=True, text=True,
                              env=_paddle_env(width, True))
        if done.returncode == 0:
            entry['pir'] = pir_dir / (name + '.json')
        else:
            entry['problem'] += 'PIR export failed: ' + done.stderr.strip().splitlines()[-1][:200] + '; '
        python = paddle26 if paddle26.is_file() else Path(sys.executable)
        done = subprocess.run([str(python), str(MAKER), str(classic_dir), 'classic', name], capture_output=True,
                              text=True, env=_paddle_env(width, False))
        if done.returncode == 0:
            entry['classic'] = classic_dir / (name + '.pdmodel')
        else:
            entry['problem'] += 'classic export by {} failed: {}; '.format(
                python, done.stderr.strip().splitlines()[-1][:200])
    for fmt, directory in (('pir', pir_dir), ('classic', classic_dir)):
        ready = [n for n in names if found[n][fmt] is not None]
        if ready:  # this Paddle's Inference on the files the tools read, fed the models' example inputs
            subprocess.run([sys.executable, str(MAKER), str(work / ('refs_' + fmt)), 'infer_models', str(directory)]
                           + ready, check=True, capture_output=True, env=_paddle_env(width, True))
    return found


def command(tool: str, bin_dir: Path, model: Path, out_dir: Path) -> List[str]:
    if tool == 'mo':
        return [str(bin_dir / 'mo'), 'convert', '--input_model', str(model), '--output_dir', str(out_dir),
                '--model_name', 'model']
    return [str(bin_dir / 'ovc'), str(model), '--output_model', str(out_dir / 'model.xml'), '--compress_to_fp16=False']


def compare(xml: Path, ref: Path) -> float:
    """The largest error of the IR's outputs against Paddle's (matched by name, else by order): per output, the
    largest difference relative to the output's largest magnitude; a wrong shape or integer value is inf."""
    import openvino as ov
    data = np.load(str(ref))
    inputs = {k[3:]: data[k] for k in data.files if k.startswith('in:')}
    expected = [(k[4:], data[k]) for k in data.files if k.startswith('out:')]
    compiled = ov.Core().compile_model(str(xml), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32'})
    feed = {}
    for port in compiled.inputs:
        feed[port] = next(inputs[n] for n in port.get_names() if n in inputs)
    results = compiled.create_infer_request().infer(feed)
    by_name = {n: np.asarray(results[port]) for port in compiled.outputs for n in port.get_names()}
    ordered = [np.asarray(results[port]) for port in compiled.outputs]
    worst = 0.0
    for index, (name, want) in enumerate(expected):
        got = by_name.get(name, ordered[index] if index < len(ordered) else None)
        if got is None or got.shape != want.shape:
            return float('inf')
        if want.dtype.kind != 'f':
            worst = max(worst, 0.0 if np.array_equal(got.astype(want.dtype), want) else float('inf'))
            continue
        if want.size:
            scale = max(float(np.abs(want).max()), 1e-6)
            worst = max(worst, float(np.abs(got.astype(np.float64) - want).max()) / scale)
    return worst


def best(runs):
    ok = [r for r in runs if r.returncode == 0]
    return min(ok, key=lambda r: r.seconds) if ok else None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--models', default=','.join(MODELS))
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--width', type=int, default=8, help='channel multiplier of the OCR models and the encoder')
    parser.add_argument('--bin', type=Path, default=None,
                        help='directory of the mo and ovc console scripts (default: a fresh environment from '
                             'setup.cfg, tools/fresh_env.py)')
    parser.add_argument('--work', type=Path, default=Path.home() / '.cache' / 'mo-bench' / 'work')
    parser.add_argument('--paddle26', type=Path, default=PADDLE26, help='python of a Paddle 2.6 venv')
    parser.add_argument('--timeout', type=float, default=600)
    args = parser.parse_args(argv)
    names = [n for n in args.models.split(',') if n]
    if args.bin is None:
        import fresh_env
        args.bin = fresh_env.ensure(args.work)
    for tool in ('mo', 'ovc'):
        if not (args.bin / tool).is_file():
            print('[ ERROR ] no {} console script in {}'.format(tool, args.bin), file=sys.stderr)
            return 1
    work = Path(tempfile.mkdtemp(prefix='bench_paddle_'))
    print('exporting {} (width {}) to {} ...'.format(', '.join(names), args.width, work), flush=True)
    models = export(names, work, args.width, args.paddle26)
    env = child_env(args.work / 'pycache')
    env.pop('MO_TIMING', None)
    scratch = work / 'ir'
    # warm-up: bytecode caches of both tools filled, untimed
    first = next((m['classic'] for m in models.values() if m['classic']), None)
    if first is not None:
        for tool in ('mo', 'ovc'):
            measure(command(tool, args.bin, first, scratch / ('warm_' + tool)), args.timeout, env)
    rows = []
    for name in names:
        entry = models[name]
        runs = {'mo': [], 'ovc': [], 'mo_pir': []}
        for rep in range(args.repeat):
            for tool in ('mo', 'ovc'):
                if entry['classic'] is not None:
                    runs[tool].append(measure(command(tool, args.bin, entry['classic'],
                                                      scratch / '{}_{}'.format(name, tool)), args.timeout, env))
            if entry['pir'] is not None:
                runs['mo_pir'].append(measure(command('mo', args.bin, entry['pir'], scratch / (name + '_mo_pir')),
                                              args.timeout, env))
        row = {'name': name, 'problem': entry['problem']}
        for key, fmt in (('mo', 'classic'), ('ovc', 'classic'), ('mo_pir', 'pir')):
            run = best(runs[key])
            row[key] = run
            if run is None:
                tail = runs[key][-1].output.strip().splitlines()[-1:] if runs[key] else ['not run']
                row[key + '_error'] = 'failed: ' + (tail[0][:160] if tail else '?')
                continue
            out = scratch / '{}_{}'.format(name, key)
            try:
                row[key + '_error'] = compare(out / 'model.xml', work / ('refs_' + fmt) / (name + '.npz'))
            except Exception as exc:  # an IR OpenVINO cannot compile or run: reported, not fatal
                row[key + '_error'] = 'does not run: {}'.format(str(exc).splitlines()[0][:160])
        rows.append(row)
        print('{}: done'.format(name), flush=True)
    print_table(rows, args)
    return 0


def _cell(run, error):
    if run is None:
        return error if isinstance(error, str) else 'failed'
    text = '{:.2f} s, {:.0f} MiB'.format(run.seconds, run.rss_mib)
    if isinstance(error, str):
        return text + ' ({})'.format(error)
    return text + ', err {:.1e}'.format(error)


def _ok(row, key):
    error = row.get(key + '_error')
    return row.get(key) is not None and not isinstance(error, str) and error <= TOL


def print_table(rows, args):
    print()
    print('mo vs ovc on Paddle models: best of {} runs, f32 IR, peak RSS of the converting process; "err" is the '
          'largest difference of the IR run in OpenVINO from Paddle Inference, relative to the output\'s largest '
          'magnitude.'.format(args.repeat))
    print()
    print('| model | mo (classic) | ovc (classic) | time mo/ovc | memory mo/ovc | mo (PIR .json) |')
    print('|---|---|---|---|---|---|')
    for row in rows:
        if _ok(row, 'mo') and _ok(row, 'ovc'):
            ratio_t = '{:.2f}x'.format(row['mo'].seconds / row['ovc'].seconds)
            ratio_m = '{:.2f}x'.format(row['mo'].rss_mib / row['ovc'].rss_mib)
        else:
            ratio_t = ratio_m = 'n/a'
        print('| {} | {} | {} | {} | {} | {} |'.format(
            row['name'], _cell(row['mo'], row.get('mo_error')), _cell(row['ovc'], row.get('ovc_error')), ratio_t,
            ratio_m, _cell(row['mo_pir'], row.get('mo_pir_error'))))
    for row in rows:
        if row['problem']:
            print('{}: {}'.format(row['name'], row['problem']))


if __name__ == '__main__':
    sys.exit(main())
