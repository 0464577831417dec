#!/usr/bin/env python
"""Benchmark `mo convert` on MXNet models against the Model Optimizer 2023.3 (the last that reads MXNet), side by
side in one run.

    python tools/bench_mxnet.py [--models a,b|fixtures|zoo|all] [--repeat 3] [--mxnet_python PY]

Models:

- ``fixtures``: the committed fixtures of ``tests/mxnet/fixtures`` that the Model Optimizer also converts
  (``arcface_block``, ``gluon_lstm``, ``ssd_head``; ``gluoncv_yolo3`` with the YOLOv3 config, each tool its own
  ``yolo_v3_mobilenet1_voc.json`` set to the fixture's 3 classes; ``nd_split`` with ``--nd_prefix_name`` and
  ``--pretrained_model_name``). The other fixtures use ops the Model Optimizer lacks (selu, box_decode,
  BilinearResize2D, ROIAlign, _foreach, ...): they are listed with its error, not timed;
- ``zoo``: full-size Gluon model-zoo classifiers (``resnet50_v1``, ``mobilenetv2_1.0``) exported with seeded random
  weights by ``--mxnet_python`` (a Python with mxnet 1.9.1: ``/tmp/mxenv/bin/python`` by default), cached under
  ``--work`` with MXNet's outputs. Skipped with the reason without such a Python.

Tools: ``mo`` (this checkout) and ``legacy``: ``mo`` of openvino-dev 2023.3.0 with mxnet 1.9.1, from the venv of
``tools/legacy_mxnet_env.py`` (``python tools/legacy_mxnet_env.py --setup``), asked for a float32 IR.

Each measurement is a fresh process (``bench_convert.measure``: wall time and the ``os.wait4`` peak RSS of that very
process); the tools take turns, the first round is an untimed warm-up and the best of ``--repeat`` is reported.
Each tool's IR is run by OpenVINO and compared with MXNet's outputs (every MXNet output must be matched by an IR
output of its shape at 1e-4); a tool whose IR fails the check gets the reason instead of a ratio.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / 'tools'))

import legacy_mxnet_env  # noqa: E402
from bench_convert import child_env, measure  # noqa: E402

FIXTURES = ROOT / 'tests' / 'mxnet' / 'fixtures'
BIN = Path(sys.executable).parent
FIXTURE_MODELS = ('arcface_block', 'gluon_lstm', 'ssd_head', 'gluoncv_yolo3', 'nd_split')
ZOO_MODELS = ('resnet50_v1', 'mobilenetv2_1.0')
#: fixtures the Model Optimizer cannot convert (its error is printed once)
LEGACY_FAILS = ('convnet', 'reshape_slice', 'elementwise', 'legacy_v08', 'deconv_upsample', 'lstm', 'gru', 'box_ops',
                'gluoncv_ssd', 'gluoncv_faster_rcnn', 'rcnn_head', 'control_flow')

#: writes PREFIX-symbol.json, PREFIX-0000.params and PREFIX.ref.npz of a model-zoo classifier (run by mxnet's Python)
_ZOO_WRITER = r"""
import sys
import numpy as np
import mxnet as mx
from mxnet.gluon.model_zoo import vision
name, prefix = sys.argv[1], sys.argv[2]
mx.random.seed(0)
net = vision.get_model(name, pretrained=False)
net.initialize(mx.init.Xavier())
rng = np.random.default_rng(0)
x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
net(mx.nd.array(x))
for pname, param in sorted(net.collect_params().items()):
    if pname.endswith('running_var'):
        param.set_data(mx.nd.array(rng.uniform(0.5, 1.5, param.shape)))
    elif pname.endswith('running_mean'):
        param.set_data(mx.nd.array(0.1 * rng.standard_normal(param.shape)))
net.hybridize()
y = net(mx.nd.array(x)).asnumpy()
net.export(prefix, epoch=0)
np.savez(prefix + '.ref.npz', **{'in:data': x, 'out:0': y})
"""


class Model:
    """A model to time: its files, its inputs and MXNet's outputs, and the options each tool needs."""

    def __init__(self, name, prefix: Path, expected_key='out:'):
        self.name, self.prefix = name, prefix
        ref = np.load(str(prefix) + '.ref.npz')
        self.inputs = {k[3:]: ref[k] for k in ref.files if k.startswith('in:') and not k.endswith('_label')}
        self.expected = [ref[k] for k in sorted((k for k in ref.files if k.startswith(expected_key)),
                                                key=lambda k: int(k.split(':')[1]))]
        self.options = {'mo': [], 'legacy': []}
        self.files = ['--input_model', str(prefix) + '-0000.params']

    def input_option(self) -> str:
        return ','.join('{}[{}]'.format(k, ','.join(map(str, v.shape))) for k, v in self.inputs.items())


def _yolo_model(scratch: Path, venv: Path) -> Model:
    """The YOLOv3 fixture with each tool's own yolo_v3_mobilenet1_voc.json set to its 3 classes; MXNet's values inside
    its output layers are what the RegionYolo outputs must be."""
    model = Model('gluoncv_yolo3', FIXTURES / 'gluoncv_yolo3')
    heads = np.load(FIXTURES / 'gluoncv_yolo3.heads.npz')
    model.expected = [heads['region:{}'.format(k)] for k in range(3)]
    configs = {'mo': ROOT / 'configs' / 'yolo_v3_mobilenet1_voc.json', 'legacy': _legacy_yolo_config(venv)}
    for tool, config in configs.items():
        written = _with_classes(config, scratch / (tool + '_yolo.json'), 3)
        model.options[tool] = ['--transformations_config', str(written)]
    return model


def _with_classes(config: Path, out: Path, classes: int) -> Path:
    data = json.loads(config.read_text())
    data[0]['custom_attributes']['classes'] = classes
    out.write_text(json.dumps(data))
    return out


def _legacy_yolo_config(venv: Path) -> Path:
    found = sorted(Path(venv).glob('lib/python*/site-packages/openvino/tools/mo/front/mxnet/'
                                   'yolo_v3_mobilenet1_voc.json'))
    if not found:
        raise SystemExit('the legacy venv has no yolo_v3_mobilenet1_voc.json')
    return found[0]


def _nd_model() -> Model:
    model = Model('nd_split', FIXTURES / 'nd_split')
    model.files = ['--input_symbol', str(FIXTURES / 'nd_split-symbol.json'), '--nd_prefix_name', 'nd_split',
                   '--pretrained_model_name', str(FIXTURES / 'nd_split_vgg-0000.params')]
    # the Model Optimizer also wants --input_model there (it reads the pretrained checkpoint's symbol beside it)
    model.options['legacy'] = ['--input_model', str(FIXTURES / 'nd_split_vgg-0000.params')]
    return model


def _zoo_model(name: str, work: Path, python: str):
    prefix = work / name
    if not (work / (name + '.ref.npz')).is_file():
        if not python or not Path(python).is_file():
            return 'no Python with mxnet ({}) to export it'.format(python)
        run = subprocess.run([python, '-c', _ZOO_WRITER, name, str(prefix)], capture_output=True, text=True)
        if run.returncode:
            return 'export failed: ' + run.stderr.strip().splitlines()[-1][:200]
    return Model(name, prefix)


def command(tool: str, model: Model, out_dir: Path, venv: Path):
    head = [str(BIN / 'mo'), 'convert'] if tool == 'mo' else [str(legacy_mxnet_env.legacy_mo(venv)),
                                                               '--compress_to_fp16=False']
    return head + model.files + model.options[tool] + ['--input', model.input_option(), '--output_dir',
                                                       str(out_dir), '--model_name', 'model']


def check(model: Model, xml: Path) -> str:
    """'' when every MXNet output has an IR output of its shape within 1e-4, else what is wrong."""
    from tests.support.oracles import compile_openvino
    compiled = compile_openvino(str(xml))
    feed = {}
    for port in compiled.inputs:
        name = port.get_any_name()
        if name not in model.inputs:
            return 'the IR has an input "{}" MXNet does not'.format(name)
        feed[name] = model.inputs[name]
    got = [np.asarray(v) for v in compiled(feed).values()]
    for index, want in enumerate(model.expected):
        same = [g for g in got if g.shape == want.shape]
        if not any(np.allclose(g, want, rtol=1e-4, atol=1e-5) for g in same):
            worst = min((float(np.max(np.abs(g - want))) for g in same), default=None)
            return 'output {} {}'.format(index, 'has no IR output of shape {}'.format(list(want.shape))
                                         if worst is None else 'differs by {:.3g}'.format(worst))
    return ''


def _failure(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if 'ERROR' in line and line.strip()]
    return (lines[0] if lines else (output.strip().splitlines() or ['no output'])[-1])[:160]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--models', default='all', help='names, or the groups fixtures, zoo, all')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--timeout', type=float, default=900)
    parser.add_argument('--work', type=Path, default=legacy_mxnet_env.default_venv().parent / 'mxnet')
    parser.add_argument('--legacy_venv', type=Path, default=None)
    parser.add_argument('--mxnet_python', default='/tmp/mxenv/bin/python')
    args = parser.parse_args(argv)
    venv = args.legacy_venv or legacy_mxnet_env.default_venv()
    ok, legacy_msg = legacy_mxnet_env.status(venv)
    if not ok:
        print('[ ERROR ] no reference tool: {}'.format(legacy_msg), file=sys.stderr)
        return 1
    groups = {'fixtures': list(FIXTURE_MODELS), 'zoo': list(ZOO_MODELS)}
    groups['all'] = groups['fixtures'] + groups['zoo']
    names = [n for item in args.models.split(',') for n in groups.get(item, [item])]
    args.work.mkdir(parents=True, exist_ok=True)
    tools = ('mo', 'legacy')
    print('Python {}.{}.{}; {} CPUs; reference: {}'.format(*sys.version_info[:3], os.cpu_count(), legacy_msg))
    head = ['model', 'params MiB', 'mo s', 'MO 2023.3 s', 'mo CPU s', 'MO 2023.3 CPU s', 'mo MiB', 'MO 2023.3 MiB',
            'time ratio', 'CPU ratio', 'memory ratio', 'checks vs MXNet']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        env = child_env(scratch / 'pycache')
        for name in names:
            if name == 'gluoncv_yolo3':
                model = _yolo_model(scratch, venv)
            elif name == 'nd_split':
                model = _nd_model()
            elif name in ZOO_MODELS:
                model = _zoo_model(name, args.work, args.mxnet_python)
                if isinstance(model, str):
                    print('[ SKIP ] {}: {}'.format(name, model))
                    continue
            else:
                model = Model(name, FIXTURES / name)
            size = sum(Path(p).stat().st_size for p in model.files if Path(p).is_file()) / 2 ** 20
            best, failed, xml, cpu = {}, {}, {}, {}
            for repeat in range(args.repeat + 1):
                for tool in tools:
                    out_dir = scratch / tool / name / str(repeat)
                    out_dir.mkdir(parents=True)
                    run = measure(command(tool, model, out_dir, venv), args.timeout, env)
                    good = run.returncode == 0 and (out_dir / 'model.xml').is_file()
                    print('  {:18} {:6} {}: {}'.format(name, tool, 'run {}'.format(repeat) if repeat else 'warm-up',
                                                       '{:.2f} s, {:.0f} MiB'.format(run.seconds, run.rss_mib) if good
                                                       else 'FAILED'), flush=True)
                    if not good:
                        failed[tool] = _failure(run.output)
                        continue
                    xml[tool] = out_dir / 'model.xml'
                    if repeat and (tool not in best or run.seconds < best[tool].seconds):
                        best[tool] = run
                    if repeat and run.cpu < cpu.get(tool, float('inf')):
                        cpu[tool] = run.cpu
            notes = {tool: check(model, xml[tool]) if tool in xml else 'failed: ' + failed.get(tool, '?')
                     for tool in tools}
            mo, legacy = best.get('mo'), best.get('legacy')
            valid = mo is not None and legacy is not None and not any(notes.values())
            cells = [name, '{:.1f}'.format(size)]
            cells += ['{:.2f}'.format(r.seconds) if r else '-' for r in (mo, legacy)]
            cells += ['{:.2f}'.format(cpu[t]) if t in cpu else '-' for t in tools]
            cells += ['{:.0f}'.format(r.rss_mib) if r else '-' for r in (mo, legacy)]
            cells += (['{:.1f}x'.format(legacy.seconds / mo.seconds), '{:.1f}x'.format(cpu['legacy'] / cpu['mo']),
                       '{:.2f}'.format(mo.rss_mib / legacy.rss_mib)] if valid else ['-', '-', '-'])
            cells.append('; '.join('{}: {}'.format(t, notes[t] or 'ok') for t in tools))
            lines.append('| ' + ' | '.join(cells) + ' |')
            shutil.rmtree(scratch / 'mo' / name, ignore_errors=True)
            shutil.rmtree(scratch / 'legacy' / name, ignore_errors=True)
    print('\n'.join(lines))
    print('\ntime ratio: MO 2023.3 wall seconds / mo wall seconds (best of {}); CPU ratio: the same of user + system '
          'CPU seconds (less sensitive to a busy machine); memory ratio: mo peak RSS / MO 2023.3 peak RSS. Load '
          'average at the end: {}. Not timed, the Model Optimizer cannot convert them: {}'.format(
              args.repeat, ' / '.join('{:.2f}'.format(v) for v in os.getloadavg()), ', '.join(LEGACY_FAILS)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
