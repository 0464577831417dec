#!/usr/bin/env python
"""A private virtual environment with the legacy Model Optimizer, for benchmarks only.

    python tools/legacy_mo_env.py --setup [--venv DIR]    create it (downloads ~300 MB)
    python tools/legacy_mo_env.py [--venv DIR]            say whether it is usable

The legacy Model Optimizer is ``openvino-dev==2024.6.0`` (its ``mo`` console script with
``--use_legacy_frontend``).  Its TensorFlow loader imports TensorFlow, and its metadata asks
for ``tensorflow<2.18`` and ``numpy<1.27`` (the ``tensorflow2`` extra) while the project's own
environment has TensorFlow 2.21 and NumPy 2, so it lives in its own venv, by default
``~/.cache/mo-bench/legacy-venv`` (``$MO_BENCH_CACHE/legacy-venv`` when that is set).

The pins below are what the ``tensorflow2`` extra of openvino-dev 2024.6.0 accepts on Python
3.11, with ``tensorflow-cpu`` in place of ``tensorflow`` (the same code without the CUDA
libraries; the extra itself is therefore not requested, its other requirements are listed
explicitly).  The venv is never created by the test suite: only ``--setup`` creates it.
After a failed setup the reason is kept in ``setup-failed.txt`` next to the venv, so the
benchmark can print it instead of a column.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional, Tuple

#: What openvino-dev 2024.6.0[tensorflow2] accepts on CPython 3.11 (from its wheel metadata).
PINS = (
    'openvino-dev==2024.6.0',
    'openvino==2024.6.0',
    'tensorflow-cpu==2.17.1',      # extra: tensorflow>=2.5,<2.18
    'numpy>=1.23.5,<1.27',         # extra: numpy<1.27; TF 2.17 wants >=1.23.5 on 3.11
    'h5py>=3.1.0,<3.11.0',
    'networkx<=3.1.0',
    'fastjsonschema>=2.15.1,<2.18',
    'defusedxml>=0.7.1',
    'requests>=2.25.1',
)

MARKER = 'mo-bench-legacy.json'
FAILED = 'setup-failed.txt'


def default_venv() -> Path:
    """``$MO_BENCH_CACHE/legacy-venv``, or ``~/.cache/mo-bench/legacy-venv``."""
    base = os.environ.get('MO_BENCH_CACHE') or os.path.join(os.path.expanduser('~'), '.cache',
                                                            'mo-bench')
    return Path(base) / 'legacy-venv'


def venv_python(venv: Path) -> Path:
    return Path(venv) / 'bin' / 'python'


def legacy_mo(venv: Path) -> Path:
    """The ``mo`` console script of the venv."""
    return Path(venv) / 'bin' / 'mo'


def status(venv: Optional[Path] = None) -> Tuple[bool, str]:
    """(usable, message): the message names the versions, or says why the column is skipped."""
    venv = Path(venv or default_venv())
    failed = venv.parent / (venv.name + '.' + FAILED)
    marker = venv / MARKER
    if marker.is_file() and legacy_mo(venv).is_file():
        info = json.loads(marker.read_text())
        return True, 'legacy MO %s (TensorFlow %s, NumPy %s) in %s' % (
            info.get('openvino-dev'), info.get('tensorflow'), info.get('numpy'), venv)
    if failed.is_file():
        return False, 'legacy MO setup failed (%s):\n%s' % (failed, failed.read_text().strip())
    return False, ('no legacy MO venv at %s; create it with `python tools/bench_convert.py --setup` '
                   '(downloads openvino-dev 2024.6.0 and TensorFlow 2.17)' % venv)


def _run(cmd, log) -> None:
    log.write('$ %s\n' % ' '.join(map(str, cmd)))
    log.flush()
    proc = subprocess.run([str(c) for c in cmd], stdout=log, stderr=subprocess.STDOUT)
    if proc.returncode:
        raise RuntimeError('`%s` exited with %d' % (' '.join(map(str, cmd)), proc.returncode))


def setup(venv: Optional[Path] = None, python: str = sys.executable, quiet: bool = False) -> bool:
    """Create the venv (idempotent: a finished one is kept).  Returns whether it is usable.

    The pip output goes to ``<venv>.setup.log``; on failure the failing command and the last
    lines of pip's output are saved for :func:`status`.
    """
    venv = Path(venv or default_venv())
    ok, msg = status(venv)
    if ok:
        if not quiet:
            print(msg)
        return True
    venv.parent.mkdir(parents=True, exist_ok=True)
    log_path = venv.parent / (venv.name + '.setup.log')
    failed = venv.parent / (venv.name + '.' + FAILED)
    if failed.exists():
        failed.unlink()
    start = time.time()
    if not quiet:
        print('creating %s (pip log: %s) ...' % (venv, log_path), flush=True)
    with open(log_path, 'w') as log:
        try:
            if venv.exists():  # an unfinished earlier attempt
                shutil.rmtree(venv)
            _run([python, '-m', 'venv', venv], log)
            py = venv_python(venv)
            _run([py, '-m', 'pip', 'install', '--disable-pip-version-check', '--no-input',
                  *PINS], log)
            probe = ('import json, importlib.metadata as m, numpy, tensorflow, '
                     'openvino.tools.mo as mo; '
                     'print(json.dumps({d: m.version(d) for d in '
                     '("openvino-dev", "openvino", "numpy", "protobuf")} | '
                     '{"tensorflow": tensorflow.__version__}))')
            out = subprocess.run([str(py), '-c', probe], capture_output=True, text=True,
                                 env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3'))
            log.write(out.stdout + out.stderr)
            if out.returncode:
                raise RuntimeError('the venv does not import openvino.tools.mo and tensorflow:\n'
                                   + out.stderr.strip()[-2000:])
            info = json.loads(out.stdout.strip().splitlines()[-1])
            # Telemetry sends network requests from every run; it must not be timed.
            opt = venv / 'bin' / 'opt_in_out'
            if opt.is_file():
                subprocess.run([str(opt), '--opt_out'], stdout=log, stderr=subprocess.STDOUT)
            info['python'] = '%d.%d.%d' % sys.version_info[:3]
            info['setup_seconds'] = round(time.time() - start, 1)
            (venv / MARKER).write_text(json.dumps(info, indent=2, sort_keys=True) + '\n')
        except (RuntimeError, OSError) as e:
            log.flush()
            tail = log_path.read_text().strip().splitlines()[-25:]
            failed.write_text('%s\n--- last lines of %s ---\n%s\n' % (e, log_path, '\n'.join(tail)))
            if not quiet:
                print(status(venv)[1], file=sys.stderr)
            return False
    ok, msg = status(venv)
    if not quiet:
        print('%s (%.0f s)' % (msg, time.time() - start))
    return ok


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--setup', action='store_true', help='create the venv if it is not there')
    p.add_argument('--venv', type=Path, default=None, help='venv directory (default: %s)'
                   % default_venv())
    args = p.parse_args(argv)
    if args.setup:
        return 0 if setup(args.venv) else 1
    ok, msg = status(args.venv)
    print(msg)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
