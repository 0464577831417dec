"""README's Python examples run as written (in a fresh interpreter, so their classes do not leak)."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_readme_python_blocks_run():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        blocks = re.findall(r'```python\n(.*?)```', f.read(), re.S)
    assert blocks
    for block in blocks:
        subprocess.run([sys.executable, '-c', block], check=True, cwd=ROOT)
