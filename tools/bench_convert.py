#!/usr/bin/env python
"""Benchmark `mo convert` against the legacy Model Optimizer and OpenVINO's `ovc`.

    python tools/bench_convert.py --setup                      create the legacy MO venv once
    python tools/bench_convert.py [--models a,b] [--repeat 3]  measure, print a markdown table
    python tools/bench_convert.py --models resnet50 --profile  also cProfile `mo convert`

The same frozen Keras models (tests/support, rebuilt at benchmark input sizes, e.g.
224x224 with 1000 classes; see ``SPECS``) are converted by three tools:

- ``mo``: this project, the ``mo convert`` console script;
- ``legacy``: ``mo --use_legacy_frontend`` of openvino-dev 2024.6.0, from its own venv
  (tools/legacy_mo_env.py; the column is skipped with the reason when the venv is missing);
- ``ovc``: the ``ovc`` console script of the installed ``openvino`` package.

All write float32 IRs (``--compress_to_fp16=False`` for the two OpenVINO tools, whose default
is f16).  Each measurement is a fresh process; the runs are interleaved (model by model, repeat
by repeat, tool by tool) so that a slow moment of the machine hits every tool alike, and the
best of ``--repeat`` runs is reported.  Wall time is measured around the process; peak memory
is the ``ru_maxrss`` that ``os.wait4`` reports for that very process (Linux: the larger of its
own peak RSS and that of any descendant it waited for).

Before a ratio is printed, every IR is run with the installed OpenVINO runtime on random
inputs and compared with TensorFlow on the frozen graph; a tool whose IR fails to convert or
disagrees (relative error above ``--tol``) gets no ratio, only the reason.

SavedModels (``--saved_models``): the same tools read SavedModel directories that this script
builds with TensorFlow (Keras ``model.export``): ``sm_resnet50`` (keras.applications.ResNet50,
random weights), ``sm_bert_encoder`` (a BERT-style encoder of Keras layers: token and position
embeddings, 4 x multi-head attention + GELU feed-forward + layer norms) and, only when asked for,
``sm_synthetic_3gb`` (a tf.Module with 12 variables of 256 MiB, ~3 GB of weights, for the
memory bound: peak RSS should stay near the largest tensor plus the graph). Each IR is checked
against the SavedModel's signature run by TensorFlow.

After the table, a breakdown of mo's best run per model (tools/bench_breakdown.py): the floor (fresh
``python -c pass``, ``import numpy``, ``import mo.main``) and the phases ``mo`` reports under ``MO_TIMING=1``
(to ``main()``, imports, load, pipeline, write, exit), next to ovc's time and the targets (mo at most 0.6x ovc's time as a geometric mean, none above 0.75x); mo and ovc run from a fresh environment resolved from setup.cfg (``--env``, tools/fresh_env.py).

Targets per model (reported, not enforced): at least 10x faster than legacy MO, not slower
than ovc, peak memory below both.  Frozen models are cached under ``--work``
(default ``~/.cache/mo-bench/work``) and rebuilt when the test-model builders or the
TensorFlow/Keras/NumPy versions change.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_saved_models import (DEFAULT_SAVED_MODELS, SAVED_MODELS, _has, load_or_build_saved_model,  # noqa: E402
                                verify_saved_model)
import bench_breakdown  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / 'tools'):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import legacy_mo_env  # noqa: E402  (tools/legacy_mo_env.py)

#: the directory of the console scripts the tools run from: a fresh environment resolved from setup.cfg
#: (tools/fresh_env.py), or with ``--env current`` this environment's (not pyenv shims); set by ``main``
BIN = Path(sys.executable).parent
TOOLS = ('mo', 'legacy', 'ovc')
TARGET_LEGACY_SPEEDUP = 10.0


# --------------------------------------------------------------------------------------------
# Models at benchmark sizes
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Spec:
    """How one benchmark model is built: ``kind`` is 'patched' (a tests/support builder with its
    module-level input shape replaced by ``shape``) or 'application' (a keras.applications
    constructor at ``shape`` with ``classes`` outputs)."""
    name: str
    kind: str
    shape: Tuple[int, ...]
    constant: str = ''          # 'patched': the module constant holding the input shape
    ctor: str = ''              # 'application': the keras.applications name
    classes: int = 1000
    seed: int = 0
    feed_range: Tuple[float, float] = (-1.0, 1.0)

    def key(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)


SPECS: Dict[str, Spec] = {s.name: s for s in (
    Spec('small_cnn_bn', 'patched', (1, 224, 224, 3), constant='SMALL_CNN_SHAPE'),
    Spec('mobilenet_v2', 'application', (1, 224, 224, 3), ctor='MobileNetV2', seed=11),
    Spec('resnet50', 'application', (1, 224, 224, 3), ctor='ResNet50', seed=12),
    Spec('inception_v3', 'application', (1, 299, 299, 3), ctor='InceptionV3', seed=13),
    Spec('efficientnet_b0', 'application', (1, 224, 224, 3), ctor='EfficientNetB0', seed=14,
         feed_range=(0.0, 255.0)),
    Spec('densenet121', 'application', (1, 224, 224, 3), ctor='DenseNet121', seed=15),
    Spec('transformer_encoder', 'patched', (1, 128, 256), constant='TRANSFORMER_SHAPE'),
    Spec('lstm_gru', 'patched', (1, 32, 64), constant='LSTM_SHAPE'),
    # control flow (tests/control_flow/lowered_models.py): ``ctor`` the builder, ``constant`` the form
    Spec('cf_keras_lstm', 'control_flow', (), ctor='keras_lstm', constant='functional'),
    Spec('cf_keras_bigru', 'control_flow', (), ctor='keras_bidirectional_gru', constant='functional'),
    Spec('cf_keras_masked_lstm', 'control_flow', (), ctor='keras_masked_lstm', constant='lowered'),
    Spec('cf_v1_dynamic_rnn_gru', 'control_flow', (), ctor='v1_dynamic_rnn_gru', constant='lowered'),
    Spec('cf_while_and_cond', 'control_flow', (), ctor='tf2_while_and_cond_lowered', constant='functional'),
    Spec('cf_map_fn', 'control_flow', (), ctor='map_fn_lowered', constant='functional'),
    Spec('cf_keras_bilstm_modes', 'control_flow', (), ctor='keras_bidirectional_lstm_merge_modes',
         constant='functional'),
    Spec('cf_keras_stacked_rnns', 'control_flow', (), ctor='keras_stacked_rnns_with_states', constant='lowered'),
    Spec('cf_v1_bidir_rnn_lstm', 'control_flow', (), ctor='v1_bidirectional_dynamic_rnn_lstm', constant='lowered'),
    Spec('cf_detection_postprocess', 'control_flow', (), ctor='detection_postprocess', constant='functional'),
)}
CONTROL_FLOW_MODELS = tuple(name for name, spec in SPECS.items() if spec.kind == 'control_flow')
DEFAULT_MODELS = ('small_cnn_bn', 'mobilenet_v2', 'resnet50')


@contextlib.contextmanager
def _patched(module, **values):
    old = {k: getattr(module, k) for k in values}
    for k, v in values.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def _build(spec: Spec):
    """Build ``spec`` with the helpers of tests/support (imports TensorFlow)."""
    from tests.support import keras_models as K, models as M
    keras = M._keras()
    if spec.kind == 'control_flow':
        return _build_control_flow(spec)
    if spec.kind == 'patched':
        with _patched(K, **{spec.constant: spec.shape}):  # the builders read their shapes from K
            return M.build_model(spec.name)
    start = time.perf_counter()
    K._seed(spec.seed)
    model = getattr(keras.applications, spec.ctor)(input_shape=spec.shape[1:], weights=None,
                                                   classes=spec.classes)
    # A small calibration batch: the BN statistics need only be plausible, and 32 images of
    # 224x224 through ResNet50 would take longer than the benchmark itself.
    calib = K._calib(spec.shape, *spec.feed_range, spec.seed, batch=4)
    K._randomize_keras_weights(model, calib, seed=spec.seed, tame_classifier=True)
    rec = K._keras_record(spec.name, model, [M.TensorInfo('input', spec.shape)],
                          feed_range=spec.feed_range,
                          notes='benchmark: keras.applications.%s(weights=None, classes=%d), '
                                'input %s' % (spec.ctor, spec.classes, spec.shape))
    return dataclasses.replace(rec, build_seconds=time.perf_counter() - start)


def _build_control_flow(spec: Spec):
    """A loop/conditional model of tests/control_flow, its inputs at the shapes of its first feed."""
    from tests.control_flow import lowered_models
    from tests.support import models as M
    start = time.perf_counter()
    builder = lowered_models.ALL[spec.ctor]
    if spec.constant == 'functional':
        with lowered_models.functional():
            model = builder()
    else:
        model = builder()
    feeds = model.feeds[0]
    inputs = [M.TensorInfo(name.split(':')[0], tuple(np.shape(value)), np.asarray(value).dtype.name)
              for name, value in feeds.items()]
    outputs = tuple(o[:-2] if o.endswith(':0') else o for o in model.outputs)
    from mo.front.tf.proto import GraphDef
    nodes = len(GraphDef.FromString(model.graph_def).node)
    return M.ModelRecord(name=spec.name, graph_def=model.graph_def, inputs=tuple(inputs), outputs=outputs,
                         feed_range=(0.0, 3.0), notes='control flow: %s (%s)' % (spec.ctor, spec.constant),
                         node_count=nodes, build_seconds=time.perf_counter() - start)


def load_or_build(spec: Spec, work: Path):
    """The frozen model of ``spec`` from ``work/models``, built (and stored) when missing or stale."""
    from tests.support import models as M
    directory = work / 'models'
    key = M.cache_key() + ':' + spec.key()
    try:
        data = json.loads((directory / (spec.name + '.json')).read_text())
        if data.get('bench_key') == key:
            return M.ModelRecord.load(directory, spec.name)
    except (OSError, ValueError, KeyError):
        pass
    print('building %s %s ...' % (spec.name, spec.shape), end=' ', flush=True)
    rec = _build(spec)
    rec.save(directory, extra={'bench_key': key})
    print('%.1f s, %d nodes, %.1f MB' % (rec.build_seconds, rec.node_count, rec.size / 1e6),
          flush=True)
    return rec


# --------------------------------------------------------------------------------------------
# Running the tools
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Run:
    """One process: wall seconds, peak RSS in MiB, exit code, the tail of its output and its
    CPU seconds (user + system, all threads: less sensitive than wall time to a busy machine)."""
    seconds: float
    rss_mib: float
    returncode: int
    output: str = ''
    cpu: float = float('nan')
    #: mo's phases from its MO_TIMING line (bench_breakdown.parse_timing), None for other tools
    timing: Optional[Dict[str, float]] = None


def tool_command(tool: str, pb: Path, out_dir: Path, legacy_venv: Path) -> List[str]:
    """The command line that converts ``pb`` into ``out_dir/model.xml`` with ``tool``."""
    if tool == 'mo':
        return [str(BIN / 'mo'), 'convert', '--input_model', str(pb), '--output_dir',
                str(out_dir), '--model_name', 'model']
    if tool == 'legacy':
        return [str(legacy_mo_env.legacy_mo(legacy_venv)), '--saved_model_dir' if pb.is_dir() else '--input_model',
                str(pb),
                '--output_dir', str(out_dir), '--model_name', 'model', '--use_legacy_frontend',
                '--compress_to_fp16=False']
    if tool == 'ovc':
        return [str(BIN / 'ovc'), str(pb), '--output_model', str(out_dir / 'model.xml'),
                '--compress_to_fp16=False']
    raise ValueError(tool)


# A tiny launcher process starts each tool: a fork of the benchmark process itself (which has
# TensorFlow loaded) would start the child's ru_maxrss at the parent's size.  The launcher
# (``python -S``, ~10 MiB) forks, execs the tool, kills it at the timeout, and writes the
# tool's own wall time and ``os.wait4`` rusage as JSON.
_LAUNCHER = r"""
import json, os, signal, sys, time
timeout, report, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
start_epoch = time.time()
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execv(cmd[0], cmd)
    finally:
        os._exit(127)
signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
signal.setitimer(signal.ITIMER_REAL, 0)
with open(report, "w") as f:
    json.dump({"seconds": seconds, "start_epoch": start_epoch, "maxrss_kib": usage.ru_maxrss,
               "cpu": usage.ru_utime + usage.ru_stime,
               "returncode": os.waitstatus_to_exitcode(status)}, f)
"""


def child_env(pycache: Path) -> Dict[str, str]:
    """The environment of every tool process.

    Installed packages come with bytecode (pip compiles on install), our editable checkout does
    not, and ``PYTHONDONTWRITEBYTECODE`` (set in some sandboxes) would make ``mo`` compile its
    ~150 modules from source on every run.  So bytecode may be written, into ``pycache``
    (``PYTHONPYCACHEPREFIX``, outside the repository), and the untimed warm-up run of each tool
    fills it; every tool is treated alike.
    """
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3', PYTHONHASHSEED='0',
               PYTHONPYCACHEPREFIX=str(pycache), MO_TIMING='1')  # MO_TIMING: mo's phases on stderr
    # the `mo` console script imports the mo of this checkout, not whichever one is installed
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in [env.get('PYTHONPATH')] if p])
    env.pop('PYTHONDONTWRITEBYTECODE', None)
    return env


def measure(cmd: Sequence[str], timeout: float, env: Optional[Dict[str, str]] = None) -> Run:
    """Run ``cmd`` once through the launcher: the tool's own wall time and peak RSS
    (``os.wait4`` of that very process, not a RUSAGE_CHILDREN delta, which only grows when a
    child beats every earlier child's peak)."""
    env = dict(env if env is not None else os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, 'run.json')
        log_path = os.path.join(tmp, 'run.log')
        with open(log_path, 'wb') as log:
            subprocess.run([sys.executable, '-S', '-c', _LAUNCHER, str(timeout), report, *cmd],
                           stdout=log, stderr=subprocess.STDOUT, env=env, check=False)
        text = Path(log_path).read_text(errors='replace')
        try:
            data = json.loads(Path(report).read_text())
        except (OSError, ValueError):
            return Run(float('nan'), float('nan'), -1, text[-3000:] + '\n[launcher failed]')
    if data['seconds'] >= timeout:
        text += '\n[killed after %.0f s]' % timeout
    return Run(data['seconds'], data['maxrss_kib'] / 1024.0, data['returncode'], text[-3000:],
               data['cpu'], bench_breakdown.parse_timing(text, data['start_epoch'], data['seconds']))


@dataclasses.dataclass
class Result:
    """All runs of one tool on one model, and the check of its IR against TensorFlow."""
    runs: List[Run] = dataclasses.field(default_factory=list)
    xml: Optional[Path] = None
    error: float = float('nan')
    problem: str = ''           # why there is no ratio: conversion failed, wrong outputs...

    @property
    def ok_runs(self) -> List[Run]:
        return [r for r in self.runs if r.returncode == 0]

    @property
    def seconds(self) -> float:
        return min(r.seconds for r in self.ok_runs)

    @property
    def cpu(self) -> float:
        return min(r.cpu for r in self.ok_runs)

    @property
    def rss(self) -> float:
        return min(r.rss_mib for r in self.ok_runs)

    @property
    def valid(self) -> bool:
        return bool(self.ok_runs) and not self.problem


def verify(rec, results: Dict[str, Result], tol: float, seed: int = 0) -> None:
    """Run each IR with OpenVINO and compare every output with TensorFlow's."""
    from tests.support import oracles
    feeds = rec.random_feeds(seed)
    expected = oracles.run_tf(rec.graph_def, feeds, list(rec.outputs))
    for tool, res in results.items():
        if res.problem:
            continue
        try:
            try:  # by name: the tools need not list the outputs in TensorFlow's order
                actual = oracles.run_openvino_by_name(res.xml, feeds, list(rec.outputs))
            except KeyError:
                actual = oracles.run_openvino(res.xml, feeds)
            if len(actual) != len(expected):
                raise ValueError('%d outputs, TensorFlow has %d' % (len(actual), len(expected)))
            res.error = max(oracles.compare(a, e) for a, e in zip(actual, expected))
        except Exception as e:  # any failure to load or run the IR disqualifies it
            res.problem = 'IR does not run: %s' % str(e).strip().splitlines()[0][:200]
            continue
        if not res.error <= tol:
            res.problem = 'outputs differ from TensorFlow: max rel. error %.3g > %g' % (res.error,
                                                                                      tol)


def warm_up(pb: Path, tools: Sequence[str], timeout: float, scratch: Path, legacy_venv: Path,
            env: Dict[str, str]) -> None:
    """One untimed run of each tool: writes bytecode and brings the libraries into the page
    cache, so that the first timed run is not a cold start for one tool only."""
    for tool in tools:
        out = scratch / ('warmup.%s' % tool)
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        run = measure(tool_command(tool, pb, out, legacy_venv), timeout, env)
        print('  warm-up %-6s %.2f s (cpu %.2f s)%s' % (tool, run.seconds, run.cpu,
                                                       '' if run.returncode == 0 else ' FAILED'),
              flush=True)
        shutil.rmtree(out, ignore_errors=True)


def bench_model(rec, pb: Path, tools: Sequence[str], repeat: int, timeout: float,
                scratch: Path, legacy_venv: Path, env: Dict[str, str]) -> Dict[str, Result]:
    results = {t: Result() for t in tools}
    for i in range(repeat):
        for tool in tools:
            out = scratch / ('%s.%s.%d' % (rec.name, tool, i))
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            run = measure(tool_command(tool, pb, out, legacy_venv), timeout, env)
            results[tool].runs.append(run)
            xml = out / 'model.xml'
            if run.returncode == 0 and not xml.is_file():
                run.returncode = -1
                run.output += '\n[exit code 0 but no %s]' % xml
            if run.returncode == 0 and results[tool].xml is None:
                results[tool].xml = xml          # keep the first IR for the check
            else:
                shutil.rmtree(out, ignore_errors=True)
            print('  %-20s %-6s run %d: %s' % (rec.name, tool, i + 1,
                                               '%.2f s (cpu %.2f s), %.0f MiB'
                                               % (run.seconds, run.cpu, run.rss_mib)
                                               if run.returncode == 0 else
                                               'FAILED (exit %d)' % run.returncode), flush=True)
    for tool, res in results.items():
        if not res.ok_runs:
            lines = [l for l in res.runs[-1].output.strip().splitlines() if l.strip()]
            errors = [l for l in lines if 'ERROR' in l or 'Error' in l] or lines[-1:]
            res.problem = 'conversion failed: %s' % (errors[0][:300] if errors else 'no output')
    return results


# --------------------------------------------------------------------------------------------
# SavedModels
# --------------------------------------------------------------------------------------------

# --------------------------------------------------------------------------------------------
# Profiling our converter
# --------------------------------------------------------------------------------------------

def profile_mo(pb: Path, scratch: Path, env: Dict[str, str], top: int = 25) -> str:
    """cProfile one `mo convert` run (in a fresh process): its slowest pipeline steps (from
    ``--report``, times inflated by the profiler) and the top functions by cumulative and by
    own time."""
    import io
    import pstats
    prof = scratch / (pb.stem + '.prof')
    report = scratch / (pb.stem + '.report.json')
    out = scratch / (pb.stem + '.profiled')
    out.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, '-m', 'cProfile', '-o', str(prof), '-m', 'mo.main', 'convert',
           '--input_model', str(pb), '--output_dir', str(out), '--model_name', 'model',
           '--report', str(report)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT), env=env)
        if proc.returncode:
            return 'profiled run failed:\n' + (proc.stdout + proc.stderr)[-2000:]
        buf = io.StringIO()
        try:
            steps = json.loads(report.read_text())['steps']
            steps = sorted(steps, key=lambda st: -st.get('seconds', 0.0))[:10]
            buf.write('slowest steps: %s\n\n' % ', '.join(
                '%s %.2f s' % (st['id'], st['seconds']) for st in steps))
        except (OSError, ValueError, KeyError):
            pass
        stats = pstats.Stats(str(prof), stream=buf).strip_dirs()
        stats.sort_stats('cumulative').print_stats(top)
        stats.sort_stats('tottime').print_stats(top)
        return buf.getvalue()
    finally:
        shutil.rmtree(out, ignore_errors=True)
        for f in (prof, report):
            if f.exists():
                f.unlink()


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------

def table(rows: List[Tuple[object, Dict[str, Result]]], tools: Sequence[str],
          judge: str = 'wall') -> str:
    """The markdown table: times, peak RSS, errors, our ratios and the targets.

    A ratio ``X/mo`` above 1 means we are faster (time) or smaller (memory: ``mo/X`` below 1).
    The targets are judged on ``judge`` time ('wall' or 'cpu').
    """
    others = [t for t in tools if t != 'mo']
    head = ['model', 'nodes']
    head += ['%s wall s' % t for t in tools] + ['%s cpu s' % t for t in tools]
    head += ['%s MiB' % t for t in tools]
    head += ['max rel err (%s)' % ' / '.join(tools)]
    head += ['%s/mo %s' % (t, kind) for t in others for kind in ('wall', 'cpu')]
    head += ['mo/%s mem' % t for t in others] + ['targets (%s time)' % judge]
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    notes = []
    for rec, res in rows:
        cells = [rec.name, str(rec.node_count)]
        for attr, spec in (('seconds', '.2f'), ('cpu', '.2f'), ('rss', '.0f')):
            cells += [format(getattr(res[t], attr), spec) if res[t].ok_runs else 'failed'
                      for t in tools]
        cells.append(' / '.join('%.1e' % res[t].error if res[t].error == res[t].error else '–'
                                for t in tools))
        ours = res['mo']
        checks = []
        for other in others:
            comparable = ours.valid and res[other].valid
            for attr in ('seconds', 'cpu'):
                if not comparable:
                    cells.append('–')
                    continue
                r = getattr(res[other], attr) / getattr(ours, attr)
                cells.append('%.1fx' % r)
                if attr == ('seconds' if judge == 'wall' else 'cpu'):
                    need = TARGET_LEGACY_SPEEDUP if other == 'legacy' else 1.0
                    checks.append('%s >=%gx vs %s' % ('✓' if r >= need else '✗', need, other))
        for other in others:
            if ours.valid and res[other].valid:
                r = ours.rss / res[other].rss
                cells.append('%.2f' % r)
                checks.append('%s mem<%s' % ('✓' if r < 1 else '✗', other))
            else:
                cells.append('–')
        cells.append(', '.join(checks) or '–')
        lines.append('| ' + ' | '.join(cells) + ' |')
        for t in tools:
            if res[t].problem:
                notes.append('- %s / %s: %s' % (rec.name, t, res[t].problem))
    return '\n'.join(lines + ([''] + notes if notes else []))


def environment_line(tools: Sequence[str], legacy_msg: str) -> str:
    import importlib.metadata as md
    import fresh_env
    parts = ['Python %d.%d.%d' % sys.version_info[:3], '%d CPUs' % os.cpu_count()]
    parts.append('mo and ovc from %s (%s)' % (BIN.parent, fresh_env.versions_line(BIN)))
    parts.append('openvino %s (ovc, verification)' % md.version('openvino'))
    parts.append('tensorflow %s (models)' % (md.version('tensorflow-cpu')
                                              if _has(md, 'tensorflow-cpu')
                                              else md.version('tensorflow')))
    if 'legacy' in tools:
        parts.append(legacy_msg)
    return '; '.join(parts)


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog='models: ' + ', '.join('%s %s' % (s.name, list(s.shape))
                                                              for s in SPECS.values()))
    p.add_argument('--setup', action='store_true',
                   help='create the legacy MO venv (openvino-dev 2024.6.0 + TensorFlow 2.17) '
                        'if needed, then benchmark; with no --models, only set up')
    p.add_argument('--models', default=None,
                   help='comma-separated, or "all" (default: %s)' % ','.join(DEFAULT_MODELS))
    p.add_argument('--saved_models', default=None,
                   help='SavedModel inputs, comma-separated from %s, or "all" (= %s; the 3 GB model only '
                        'when named)' % (','.join(SAVED_MODELS), ','.join(DEFAULT_SAVED_MODELS)))
    p.add_argument('--tools', default=','.join(TOOLS), help='subset of %s' % ','.join(TOOLS))
    p.add_argument('--repeat', '-n', type=int, default=3, help='runs per tool and model (best of)')
    p.add_argument('--env', choices=('fresh', 'current'), default='fresh',
                   help='run mo and ovc from a fresh environment resolved from setup.cfg (default; made once per '
                        'setup.cfg under --work, tools/fresh_env.py) or from this one')
    p.add_argument('--refresh_env', action='store_true', help='build the fresh environment anew (newest releases)')
    p.add_argument('--no_warmup', dest='warmup', action='store_false',
                   help='skip the untimed warm-up run of each tool')
    p.add_argument('--timeout', type=float, default=1800.0, help='seconds per run')
    p.add_argument('--tol', type=float, default=1e-3,
                   help='max relative error of an IR against TensorFlow')
    p.add_argument('--work', type=Path, default=legacy_mo_env.default_venv().parent / 'work',
                   help='cache of frozen models and scratch IRs')
    p.add_argument('--legacy_venv', type=Path, default=None,
                   help='legacy MO venv (default: %s)' % legacy_mo_env.default_venv())
    p.add_argument('--profile', action='store_true',
                   help='also run `mo convert` under cProfile for each model and print hot spots')
    p.add_argument('--judge', choices=('wall', 'cpu'), default='wall',
                   help='which time the targets are judged on (cpu: user+system seconds of the '
                        'process, steadier on a busy machine)')
    p.add_argument('--json', type=Path, default=None, help='also write all runs to this file')
    args = p.parse_args(argv)
    args.only_setup = args.setup and args.models is None
    saved = list(DEFAULT_SAVED_MODELS) if args.saved_models == 'all' else \
        [m.strip() for m in (args.saved_models or '').split(',') if m.strip()]
    if [m for m in saved if m not in SAVED_MODELS]:
        p.error('unknown SavedModel(s) %s; known: %s' % (', '.join(m for m in saved if m not in SAVED_MODELS),
                                                        ', '.join(SAVED_MODELS)))
    args.saved_names = saved
    names = list(SPECS) if args.models == 'all' else \
        [m.strip() for m in (args.models or ('' if saved else ','.join(DEFAULT_MODELS))).split(',') if m.strip()]
    unknown = [m for m in names if m not in SPECS]
    if unknown:
        p.error('unknown model(s) %s; known: %s' % (', '.join(unknown), ', '.join(SPECS)))
    args.names = names
    args.tool_list = [t.strip() for t in args.tools.split(',') if t.strip()]
    bad = [t for t in args.tool_list if t not in TOOLS]
    if bad or 'mo' not in args.tool_list:
        p.error('--tools must include mo and be a subset of %s' % ','.join(TOOLS))
    if args.repeat < 1:
        p.error('--repeat must be at least 1')
    return args


def main(argv=None) -> int:
    global BIN
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.env == 'fresh' and not args.only_setup:
        import fresh_env
        BIN = fresh_env.ensure(args.work, refresh=args.refresh_env)
    venv = args.legacy_venv or legacy_mo_env.default_venv()
    if args.setup and not legacy_mo_env.setup(venv) and args.only_setup:
        return 1
    if args.only_setup:
        return 0
    tools = list(args.tool_list)
    legacy_ok, legacy_msg = legacy_mo_env.status(venv)
    if 'legacy' in tools and not legacy_ok:
        print('[ SKIP ] legacy MO column: %s' % legacy_msg, file=sys.stderr)
        tools.remove('legacy')
    for tool in tools:
        if tool in ('mo', 'ovc') and not (BIN / tool).is_file():
            print('[ ERROR ] no %s console script in %s' % (tool, BIN), file=sys.stderr)
            return 1

    work = args.work
    scratch = work / 'ir'
    recs = [load_or_build(SPECS[n], work) for n in args.names]
    saved_recs = [load_or_build_saved_model(n, work) for n in args.saved_names]
    env = child_env(work / 'pycache')
    if args.warmup:
        if recs:
            smallest = min(recs, key=lambda r: r.size)
            model_path = work / 'models' / (smallest.name + '.pb')
        else:
            smallest = min(saved_recs, key=lambda r: r.size)
            model_path = smallest.directory
        print('warming up on %s ...' % smallest.name, flush=True)
        warm_up(model_path, tools, args.timeout, scratch, venv, env)
    floor = bench_breakdown.measure_floor(measure, env, args.repeat, args.timeout, str(BIN / 'python')) if recs else {}
    rows = []
    for rec in recs:
        pb = work / 'models' / (rec.name + '.pb')
        print('%s: %d nodes, %.1f MB' % (rec.name, rec.node_count, rec.size / 1e6), flush=True)
        rows.append((rec, bench_model(rec, pb, tools, args.repeat, args.timeout, scratch, venv,
                                      env)))
    saved_rows = []
    for rec in saved_recs:
        print('%s (SavedModel): %d nodes, %.1f MB, largest variable %.1f MB' % (
            rec.name, rec.node_count, rec.size / 1e6, rec.largest_variable / 1e6), flush=True)
        saved_rows.append((rec, bench_model(rec, rec.directory, tools, args.repeat, args.timeout, scratch,
                                            venv, env)))
    print('checking the IRs against TensorFlow ...', flush=True)
    for rec, res in rows:
        verify(rec, res, args.tol)
    for rec, res in saved_rows:
        verify_saved_model(rec, res, args.tol)
    rows_all = rows + saved_rows

    print()
    print(environment_line(tools, legacy_msg))
    if rows:
        print()
        print('Converting frozen Keras models to float32 IR; best of %d fresh processes per tool; '
              'peak RSS of the converting process.' % args.repeat)
        print(table(rows, tools, args.judge))
        print()
        print('Where mo\'s wall time goes (its best run, MO_TIMING phases):')
        print(bench_breakdown.breakdown_table(rows, floor))
    if saved_rows:
        print()
        print('Converting SavedModel directories to float32 IR; best of %d fresh processes per tool; '
              'peak RSS of the converting process.' % args.repeat)
        print(table(saved_rows, tools, args.judge))
    if args.profile:
        for rec, _ in rows:
            print('\n### cProfile of `mo convert` on %s\n```' % rec.name)
            print(profile_mo(work / 'models' / (rec.name + '.pb'), scratch, env).rstrip())
            print('```')
    if args.json:
        data = [{'model': rec.name, 'nodes': rec.node_count, 'tools': {
            t: {'runs': [dataclasses.asdict(r) | {'output': r.output[-500:]} for r in res[t].runs],
                'error': res[t].error, 'problem': res[t].problem} for t in tools}}
            for rec, res in rows_all]
        args.json.write_text(json.dumps(data, indent=2) + '\n')
    for rec, res in rows_all:
        for t in tools:
            if res[t].xml is not None:
                shutil.rmtree(res[t].xml.parent, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
