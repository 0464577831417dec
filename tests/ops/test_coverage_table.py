"""README's operator table is what the extractor registry says today."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_readme_operator_table_is_current():
    generated = subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'op_coverage.py')], capture_output=True,
                               text=True, check=True, cwd=ROOT).stdout.strip()
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    table = re.search(r'<!-- op-coverage:start -->\n(.*?)\n<!-- op-coverage:end -->', readme, re.S)
    assert table, 'README.md has no op-coverage section'
    assert table.group(1).strip() == generated, 'README.md is stale: run python tools/op_coverage.py --write'
