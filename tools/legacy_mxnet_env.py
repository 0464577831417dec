#!/usr/bin/env python
"""A private virtual environment with the last Model Optimizer that reads MXNet, for benchmarks only.

    python tools/legacy_mxnet_env.py --setup [--venv DIR]    create it (downloads ~250 MB)
    python tools/legacy_mxnet_env.py [--venv DIR]            say whether it is usable

OpenVINO removed the MXNet front end in 2024.0, so this is ``openvino-dev==2023.3.0`` with its ``mxnet`` extra
(its ``mo`` reads ``.params`` through ``mxnet`` itself). It installs on CPython 3.11: openvino 2023.3.0 has cp311
wheels, the extra asks for ``mxnet`` 1.9.1 (the last release, whose wheel is ``py3-none``), and mxnet 1.9.1 needs
``numpy<1.24`` (it uses ``np.bool``), so numpy is pinned to 1.23.5, the last numpy with cp311 wheels that mxnet
runs on. That is why it lives in its own venv (the project's has numpy 2): by default
``~/.cache/mo-bench/legacy-mxnet-venv`` (``$MO_BENCH_CACHE/legacy-mxnet-venv``). The test suite never creates it.
After a failed setup the reason is kept in ``legacy-mxnet-venv.setup-failed.txt`` beside it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional, Tuple

PINS = ('openvino-dev[mxnet]==2023.3.0', 'openvino==2023.3.0', 'mxnet==1.9.1', 'numpy==1.23.5')
MARKER = 'mo-bench-legacy-mxnet.json'
FAILED = 'setup-failed.txt'


def default_venv() -> Path:
    base = os.environ.get('MO_BENCH_CACHE') or os.path.join(os.path.expanduser('~'), '.cache', 'mo-bench')
    return Path(base) / 'legacy-mxnet-venv'


def legacy_mo(venv: Path) -> Path:
    """The venv's ``mo`` console script."""
    return Path(venv) / 'bin' / 'mo'


def status(venv: Optional[Path] = None) -> Tuple[bool, str]:
    """(usable, message naming the versions or why not)."""
    venv = Path(venv or default_venv())
    failed = venv.parent / (venv.name + '.' + FAILED)
    if (venv / MARKER).is_file() and legacy_mo(venv).is_file():
        info = json.loads((venv / MARKER).read_text())
        return True, 'Model Optimizer {} (mxnet {}, numpy {}) in {}'.format(
            info.get('openvino-dev'), info.get('mxnet'), info.get('numpy'), venv)
    if failed.is_file():
        return False, 'legacy MXNet MO setup failed ({}):\n{}'.format(failed, failed.read_text().strip())
    return False, 'no legacy MXNet MO venv at {}; create it with `python tools/legacy_mxnet_env.py --setup`'.format(
        venv)


def setup(venv: Optional[Path] = None, python: str = sys.executable) -> bool:
    """Create the venv (a finished one is kept); whether it is usable."""
    venv = Path(venv or default_venv())
    if status(venv)[0]:
        return True
    venv.parent.mkdir(parents=True, exist_ok=True)
    log_path = venv.parent / (venv.name + '.setup.log')
    failed = venv.parent / (venv.name + '.' + FAILED)
    if failed.exists():
        failed.unlink()
    with open(log_path, 'w') as log:
        try:
            if venv.exists():
                shutil.rmtree(venv)
            for cmd in ([python, '-m', 'venv', str(venv)],
                        [str(venv / 'bin' / 'python'), '-m', 'pip', 'install', '--disable-pip-version-check',
                         '--no-input', *PINS]):
                log.write('$ {}\n'.format(' '.join(cmd)))
                log.flush()
                if subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode:
                    raise RuntimeError('`{}` failed'.format(' '.join(cmd)))
            probe = ('import json, importlib.metadata as m, mxnet, openvino.tools.mo; print(json.dumps({d: '
                     'm.version(d) for d in ("openvino-dev", "openvino", "mxnet", "numpy")}))')
            out = subprocess.run([str(venv / 'bin' / 'python'), '-c', probe], capture_output=True, text=True)
            if out.returncode:
                raise RuntimeError('the venv does not import mxnet and openvino.tools.mo:\n' + out.stderr[-2000:])
            info = json.loads(out.stdout.strip().splitlines()[-1])
            opt = venv / 'bin' / 'opt_in_out'  # telemetry sends requests from every run: not to be timed
            if opt.is_file():
                subprocess.run([str(opt), '--opt_out'], stdout=log, stderr=subprocess.STDOUT)
            info['python'] = '{}.{}.{}'.format(*sys.version_info[:3])
            (venv / MARKER).write_text(json.dumps(info, indent=2, sort_keys=True) + '\n')
        except (RuntimeError, OSError) as exc:
            failed.write_text('{}\n(see {})\n'.format(exc, log_path))
            return False
    return status(venv)[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--setup', action='store_true', help='create the venv if it is not there')
    parser.add_argument('--venv', type=Path, default=None, help='venv directory (default: {})'.format(default_venv()))
    args = parser.parse_args(argv)
    if args.setup:
        setup(args.venv)
    ok, message = status(args.venv)
    print(message)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
