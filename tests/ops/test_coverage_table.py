"""README's operator tables are what the extractor registry says today, one per framework."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

import op_coverage  # noqa: E402  (tools/op_coverage.py)


@pytest.mark.parametrize('framework', [r.name for r in op_coverage.frameworks() if op_coverage.builtin_extractors(r.name)])
def test_readme_operator_table_is_current(framework):
    generated = subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'op_coverage.py'), '--framework', framework],
                               capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    start, end = op_coverage.markers(framework)
    table = re.search(re.escape(start) + r'\n(.*?)\n' + re.escape(end), readme, re.S)
    assert table, 'README.md has no op-coverage section for ' + framework
    assert table.group(1).strip() == generated, 'README.md is stale: run python tools/op_coverage.py --write'
