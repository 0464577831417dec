"""A fresh virtual environment resolved from setup.cfg, for benchmarks that time what a new user's install runs.

A hand-kept environment hides what pip picks today: ml_dtypes 0.7 made every start-up 0.8 s slower on a fresh
install while the developers' environments still had 0.6. ``ensure()`` creates ``<cache>/fresh-<key>`` with
``pip install -e ROOT`` and the reference tools (``openvino`` for ``ovc``), where the key is a hash of setup.cfg
and the Python version, so a change of the declared dependencies builds a new one; ``--refresh`` builds it anew
anyway (pip resolves the newest releases again).
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: installed beside mo: the tools it is compared with
REFERENCE_PACKAGES = ('openvino',)


def _key() -> str:
    digest = hashlib.sha256((ROOT / 'setup.cfg').read_bytes())
    digest.update(sys.version.encode())
    digest.update(' '.join(REFERENCE_PACKAGES).encode())
    return digest.hexdigest()[:12]


def ensure(cache: Path, refresh: bool = False) -> Path:
    """The ``bin`` directory of the fresh environment under ``cache``, created (or re-created) when needed."""
    env = cache / ('fresh-' + _key())
    ready = env / '.mo-ready'
    if refresh and env.exists():
        shutil.rmtree(env)
    if not ready.exists():
        if env.exists():
            shutil.rmtree(env)
        print('creating a fresh environment from setup.cfg in %s ...' % env, flush=True)
        subprocess.run([sys.executable, '-m', 'venv', str(env)], check=True)
        pip = [str(env / 'bin' / 'python'), '-m', 'pip', 'install', '--disable-pip-version-check', '-q']
        subprocess.run(pip + ['--upgrade', 'pip'], check=True)
        subprocess.run(pip + ['-e', str(ROOT)] + list(REFERENCE_PACKAGES), check=True)
        ready.write_text(installed(env / 'bin'))
    return env / 'bin'


def installed(bin_dir: Path) -> str:
    """``name==version`` of every package in the environment, one a line (pip freeze)."""
    out = subprocess.run([str(bin_dir / 'python'), '-m', 'pip', 'freeze', '--disable-pip-version-check'],
                         capture_output=True, text=True, check=False)
    return out.stdout


def versions_line(bin_dir: Path, names=('numpy', 'ml_dtypes', 'networkx', 'protobuf', 'openvino')) -> str:
    """``numpy 2.4.6, ml_dtypes 0.7.0, ...``: the versions of ``names`` in the environment."""
    found = {}
    for line in installed(bin_dir).splitlines():
        name, sep, version = line.partition('==')
        if sep:
            found[name.lower().replace('-', '_')] = version
    return ', '.join('%s %s' % (n, found.get(n, '-')) for n in names)
