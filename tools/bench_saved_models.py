"""The SavedModel inputs of ``tools/bench_convert.py --saved_models``: directories built with TensorFlow (Keras
``model.export`` or ``tf.saved_model.save``) and cached under the benchmark's ``--work``, and the check of each
tool's IR against the SavedModel's serving signature run by TensorFlow.

- ``sm_resnet50``: keras.applications.ResNet50, random weights;
- ``sm_bert_encoder``: a BERT-style encoder of Keras layers (token and position embeddings, 4 x multi-head
  attention + GELU feed-forward + layer norms);
- ``sm_efficientnetb7`` (600x600, 540 MB) and ``sm_resnet152v2`` (490 MB): keras.applications, random weights;
- ``sm_synthetic_3gb`` (only when named): a tf.Module with 12 variables of 256 MiB, for the memory bound.

Run as a script, it measures the big SavedModels (``BIG_SAVED_MODELS``) with mo and ovc side by side, one
fresh process per tool and model (``bench_convert``'s launcher: wall time, CPU time, peak RSS), checks the IRs
against TensorFlow and prints the table with the targets (mo at most half of ovc's wall time, peak memory
below ovc's) and the load average before and after (the machine may be shared):

    python tools/bench_saved_models.py [--models sm_efficientnetb7,sm_resnet152v2] [--repeat 1]
    python tools/bench_saved_models.py --mo_root /tmp/old   # mo of another checkout (before/after)
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parent.parent

SAVED_MODELS = ('sm_resnet50', 'sm_bert_encoder', 'sm_efficientnetb7', 'sm_resnet152v2', 'sm_synthetic_3gb')
DEFAULT_SAVED_MODELS = ('sm_resnet50', 'sm_bert_encoder')
_SAVED_MODEL_VERSION = '1'   # bump when a builder below changes


def _export_resnet50(directory: str):
    import keras
    keras.utils.set_random_seed(12)
    keras.applications.ResNet50(weights=None, input_shape=(224, 224, 3), classes=1000).export(directory,
                                                                                               verbose=False)


def _export_efficientnetb7(directory: str):
    import keras
    keras.utils.set_random_seed(7)
    keras.applications.EfficientNetB7(weights=None, input_shape=(600, 600, 3), classes=1000).export(directory,
                                                                                                     verbose=False)


def _export_resnet152v2(directory: str):
    import keras
    keras.utils.set_random_seed(152)
    keras.applications.ResNet152V2(weights=None, input_shape=(224, 224, 3), classes=1000).export(directory,
                                                                                                  verbose=False)


def _export_bert_encoder(directory: str, vocab=8000, length=128, width=256, heads=4, layers=4):
    import keras
    keras.utils.set_random_seed(21)
    ids = keras.Input((length,), dtype='int32', name='token_ids')
    positions = keras.ops.arange(length)
    x = keras.layers.Embedding(vocab, width)(ids) + keras.layers.Embedding(length, width)(positions)
    x = keras.layers.LayerNormalization(epsilon=1e-6)(x)
    for _ in range(layers):
        attention = keras.layers.MultiHeadAttention(heads, width // heads)(x, x)
        x = keras.layers.LayerNormalization(epsilon=1e-6)(x + attention)
        hidden = keras.layers.Dense(4 * width, activation='gelu')(x)
        x = keras.layers.LayerNormalization(epsilon=1e-6)(x + keras.layers.Dense(width)(hidden))
    keras.Model(ids, x).export(directory, verbose=False)


def _save_synthetic(directory: str, count=12, size=8192):
    """~3 GB of weights: ``count`` float32 matrices of size x size, applied one after the other."""
    import numpy as np
    import tensorflow as tf

    class Synthetic(tf.Module):
        def __init__(self):
            super().__init__()
            self.weights = []
            for i in range(count):
                rng = np.random.default_rng(i)
                value = rng.standard_normal((size, size), dtype=np.float32)
                value *= np.float32(1.0 / np.sqrt(size))
                self.weights.append(tf.Variable(value, name='w%d' % i))
                del value

        @tf.function(input_signature=[tf.TensorSpec([None, size], tf.float32, name='x')])
        def serve(self, x):
            for w in self.weights:
                x = tf.tanh(tf.matmul(x, w))
            return {'y': x}

    module = Synthetic()
    tf.saved_model.save(module, directory, signatures={'serving_default': module.serve})


_SAVED_MODEL_BUILDERS = {'sm_resnet50': _export_resnet50, 'sm_bert_encoder': _export_bert_encoder,
                         'sm_efficientnetb7': _export_efficientnetb7, 'sm_resnet152v2': _export_resnet152v2,
                         'sm_synthetic_3gb': _save_synthetic}


@dataclasses.dataclass
class SavedModelRecord:
    """A SavedModel directory the benchmark built: what ``table`` and ``verify_saved_model`` need."""
    name: str
    directory: Path
    node_count: int
    size: int

    @property
    def largest_variable(self) -> int:
        from mo.front.tf.tensor_bundle import BundleReader
        reader = BundleReader(str(self.directory / 'variables' / 'variables'))
        return max(int(e.size) for e in reader.entries.values())


def _saved_model_nodes(directory: Path) -> int:
    from mo.front.tf.proto import SavedModel
    meta_graph = SavedModel.FromString((directory / 'saved_model.pb').read_bytes()).meta_graphs[0]
    return len(meta_graph.graph_def.node) + sum(len(f.node_def) for f in meta_graph.graph_def.library.function)


def load_or_build_saved_model(name: str, work: Path) -> SavedModelRecord:
    """The SavedModel ``name`` under ``work/saved_models``, built in a child process when missing."""
    import importlib.metadata as md
    directory = work / 'saved_models' / name
    stamp = directory / '.bench_key'
    key = '%s tf=%s keras=%s' % (_SAVED_MODEL_VERSION, md.version('tensorflow-cpu') if _has(md, 'tensorflow-cpu')
                                 else md.version('tensorflow'), md.version('keras'))
    if not (stamp.is_file() and stamp.read_text() == key):
        shutil.rmtree(directory, ignore_errors=True)
        directory.parent.mkdir(parents=True, exist_ok=True)
        print('building SavedModel %s ...' % name, end=' ', flush=True)
        start = time.perf_counter()
        code = ('import sys; sys.path[:0] = %r; import bench_saved_models; bench_saved_models._SAVED_MODEL_BUILDERS[%r](%r)'
                % ([str(ROOT / 'tools'), str(ROOT)], name, str(directory)))
        subprocess.run([sys.executable, '-c', code], check=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3'))
        stamp.write_text(key)
        print('%.1f s' % (time.perf_counter() - start), flush=True)
    size = sum(f.stat().st_size for f in directory.rglob('*') if f.is_file())
    return SavedModelRecord(name, directory, _saved_model_nodes(directory), size)


def verify_saved_model(rec: SavedModelRecord, results: Dict[str, object], tol: float, seed: int = 0) -> None:
    """Run each IR with OpenVINO and compare every signature output with TensorFlow's (``results``: tool ->
    bench_convert's Result, whose ``error``/``problem`` this sets)."""
    import numpy as np
    import openvino as ov
    import tensorflow as tf
    function = tf.saved_model.load(str(rec.directory)).signatures['serving_default']
    rng = np.random.default_rng(seed)
    feeds = {}
    for name, spec in function.structured_input_signature[1].items():
        shape = [1 if d is None else d for d in spec.shape.as_list()]
        if spec.dtype.is_integer:
            feeds[name] = rng.integers(0, 100, shape).astype(spec.dtype.as_numpy_dtype)
        else:
            feeds[name] = rng.uniform(-1, 1, shape).astype(spec.dtype.as_numpy_dtype)
    expected = {k: v.numpy() for k, v in function(**{k: tf.constant(v) for k, v in feeds.items()}).items()}
    del function
    core = ov.Core()
    for tool, res in results.items():
        if res.problem:
            continue
        try:
            compiled = core.compile_model(core.read_model(str(res.xml)), 'CPU', {'INFERENCE_PRECISION_HINT': 'f32'})
            inputs = {}
            for port in compiled.inputs:
                # by the signature's name (mo), or the graph's placeholder name (ovc)
                match = [k for k in feeds if k in port.get_names() or 'serving_default_' + k in port.get_names()]
                inputs[port] = feeds[match[0]] if match else feeds[next(iter(feeds))]
            outputs = compiled(inputs)
            errors = []
            for name, value in expected.items():
                port = [p for p in compiled.outputs if name in p.get_names()] or list(compiled.outputs)[:1]
                actual = outputs[port[0]]
                errors.append(float(np.abs(actual - value).max() / (np.abs(value).max() or 1.0)))
            res.error = max(errors)
        except Exception as e:  # noqa: B902 - any failure to load or run the IR disqualifies it
            res.problem = 'IR does not run: %s' % str(e).strip().splitlines()[0][:200]
            continue
        if not res.error <= tol:
            res.problem = 'outputs differ from TensorFlow: max rel. error %.3g > %g' % (res.error, tol)


def _has(md, dist) -> bool:
    try:
        md.version(dist)
        return True
    except md.PackageNotFoundError:
        return False


# --- the big SavedModels, side by side with ovc -----------------------------------------------------------

#: the SavedModels this script measures by default: the big Keras applications (hundreds of MB of weights)
BIG_SAVED_MODELS = ('sm_efficientnetb7', 'sm_resnet152v2')
#: targets: mo's wall time at most this fraction of ovc's, and mo's peak memory below ovc's
TARGET_TIME_RATIO = 0.5


def _load_average() -> str:
    try:
        return '%.2f %.2f %.2f' % os.getloadavg()
    except OSError:
        return 'unknown'


def _table(rows) -> str:
    head = ['model', 'MB', 'nodes', 'mo s', 'ovc s', 'mo/ovc time', 'mo cpu s', 'ovc cpu s', 'mo MiB', 'ovc MiB', 'mo/ovc mem',
            'max rel err (mo / ovc)', 'targets']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    notes = []
    for rec, res in rows:
        mo, ovc = res['mo'], res.get('ovc')
        cells = [rec.name, '%.0f' % (rec.size / 1e6), str(rec.node_count)]
        cells += ['%.2f' % r.seconds if r is not None and r.ok_runs else 'failed' for r in (mo, ovc)]
        comparable = mo.valid and ovc is not None and ovc.valid
        cells.append('%.2f' % (mo.seconds / ovc.seconds) if comparable else '–')
        cells += ['%.2f' % r.cpu if r is not None and r.ok_runs else '–' for r in (mo, ovc)]
        cells += ['%.0f' % r.rss if r is not None and r.ok_runs else '–' for r in (mo, ovc)]
        cells.append('%.2f' % (mo.rss / ovc.rss) if comparable else '–')
        cells.append(' / '.join('%.1e' % r.error if r is not None and r.error == r.error else '–' for r in (mo, ovc)))
        if comparable:
            time_ok, mem_ok = mo.seconds <= TARGET_TIME_RATIO * ovc.seconds, mo.rss < ovc.rss
            cells.append('%s time <= %gx ovc, %s mem < ovc' % ('✓' if time_ok else '✗', TARGET_TIME_RATIO,
                                                               '✓' if mem_ok else '✗'))
        else:
            cells.append('–')
        lines.append('| ' + ' | '.join(cells) + ' |')
        notes += ['- %s / %s: %s' % (rec.name, tool, r.problem) for tool, r in res.items() if r.problem]
    return '\n'.join(lines + ([''] + notes if notes else []))


def main(argv=None) -> int:
    """Convert the big SavedModels with mo and ovc, one fresh process each, and print the table."""
    import argparse
    sys.path.insert(0, str(ROOT / 'tools'))
    import bench_convert
    p = argparse.ArgumentParser(description='Convert big Keras SavedModels (random weights, built once and cached) '
                                            'with mo and ovc side by side: wall time and peak memory per process.')
    p.add_argument('--models', default=','.join(BIG_SAVED_MODELS),
                   help='comma-separated from %s (default: %s)' % (', '.join(SAVED_MODELS), ','.join(BIG_SAVED_MODELS)))
    p.add_argument('--tools', default='mo,ovc', help='mo, or mo,ovc')
    p.add_argument('--repeat', '-n', type=int, default=1, help='runs per tool and model (best of)')
    p.add_argument('--work', type=Path, default=bench_convert.legacy_mo_env.default_venv().parent / 'work',
                   help='cache of the SavedModels and scratch IRs')
    p.add_argument('--mo_root', type=Path, default=ROOT,
                   help='the checkout whose mo is measured (e.g. an export of an older commit, for before/after)')
    p.add_argument('--timeout', type=float, default=1800.0, help='seconds per run')
    p.add_argument('--tol', type=float, default=1e-3, help='max relative error of an IR against TensorFlow')
    p.add_argument('--no_verify', dest='verify', action='store_false', help='skip running the IRs')
    args = p.parse_args(argv)
    names = [n.strip() for n in args.models.split(',') if n.strip()]
    unknown = [n for n in names if n not in SAVED_MODELS]
    tools = [t.strip() for t in args.tools.split(',') if t.strip()]
    if unknown or not names or tools not in (['mo'], ['mo', 'ovc']):
        p.error('--models from %s; --tools mo or mo,ovc' % ', '.join(SAVED_MODELS))
    recs = [load_or_build_saved_model(n, args.work) for n in names]
    env = bench_convert.child_env(args.work / 'pycache')
    env['PYTHONPATH'] = os.pathsep.join([str(args.mo_root.resolve())] + [
        e for e in env['PYTHONPATH'].split(os.pathsep)[1:] if e])
    scratch = args.work / 'ir'
    print('load average before: %s; mo from %s' % (_load_average(), args.mo_root), flush=True)
    smallest = min(recs, key=lambda r: r.size)
    print('warming up on %s ...' % smallest.name, flush=True)
    bench_convert.warm_up(smallest.directory, tools, args.timeout, scratch, None, env)
    rows = []
    for rec in recs:
        print('%s: %d nodes, %.1f MB' % (rec.name, rec.node_count, rec.size / 1e6), flush=True)
        rows.append((rec, bench_convert.bench_model(rec, rec.directory, tools, args.repeat, args.timeout, scratch,
                                                    None, env)))
    print('load average after: %s' % _load_average(), flush=True)
    if args.verify:
        print('checking the IRs against TensorFlow ...', flush=True)
        for rec, res in rows:
            verify_saved_model(rec, res, args.tol)
    print()
    print(bench_convert.environment_line(tools, ''))
    print('SavedModel directories to float32 IR; best of %d fresh process(es) per tool; peak RSS of the converting '
          'process.' % args.repeat)
    print(_table(rows))
    for _, res in rows:
        for r in res.values():
            if r.xml is not None:
                shutil.rmtree(r.xml.parent, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
