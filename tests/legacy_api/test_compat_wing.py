"""The compatibility wing (``mo.compat``): the Model Optimizer's module paths are served from one place apart from the
live code, found by ``importlib`` like any module, and never listed among the live folders' modules."""
import importlib
import importlib.util
import json
import pkgutil
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import mo.compat
from mo.compat import WING, served_files, served_modules

ROOT = Path(__file__).resolve().parents[2]


def test_the_list_is_read_from_the_tree():
    files = served_files()
    assert 'extensions.front.sub' in files and 'mo.front.sub' in files and 'mo.front.Pack' in files
    assert 'mo.utils.ir_engine' in files and 'mo.utils.ir_engine.compare_graphs' in files
    assert set(files) <= set(served_modules())
    # every file of the tree is served, and nothing of it is a live module
    on_disk = {'.'.join(p.relative_to(WING).with_suffix('').parts).replace('.__init__', '')
               for root in mo.compat.ROOTS for p in (Path(WING) / root).rglob('*.py')}
    assert on_disk == set(files)
    for name in files:
        live = ROOT.joinpath(*name.split('.'))
        assert not live.with_suffix('.py').exists() and not (live / '__init__.py').exists(), name


def test_find_spec_finds_a_legacy_path_in_the_wing():
    spec = importlib.util.find_spec('extensions.front.sub')
    assert spec is not None and Path(spec.origin) == Path(WING, 'extensions', 'front', 'sub.py')
    package = importlib.util.find_spec('mo.utils.ir_engine')
    assert package.submodule_search_locations == [str(Path(WING, 'mo', 'utils', 'ir_engine'))]
    assert importlib.util.find_spec('extensions.front.no_such_module') is None


def test_a_live_module_wins_over_the_wing():
    spec = importlib.util.find_spec('extensions.front.Pack')
    assert Path(spec.origin) == ROOT / 'extensions' / 'front' / 'Pack.py'
    from mo.front.Pack import Pack
    assert Pack is importlib.import_module('extensions.front.Pack').Pack


def test_the_live_folders_list_no_legacy_module():
    import extensions.front
    live = {info.name for info in pkgutil.iter_modules(extensions.front.__path__)}
    assert 'sub' not in live and 'Pack' in live


def test_an_extensions_path_imports_without_importing_mo_first():
    code = textwrap.dedent('''
        import json, sys
        from extensions.front.sub import Sub
        from extensions.front.onnx.MvnOnnxToMvn import MvnOnnxToMvn
        print(json.dumps([Sub.__module__, MvnOnnxToMvn.__module__, 'mo.api' in sys.modules]))
    ''')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, cwd=str(ROOT))
    assert json.loads(out.stdout.strip().splitlines()[-1]) == \
        ['extensions.front.sub', 'extensions.front.onnx.MvnOnnxToMvn', False]


def test_the_readme_table_names_served_paths_only():
    """README's table of the Model Optimizer's replacer paths names modules the wing (or the live code) serves."""
    text = (ROOT / 'README.md').read_text()
    section = text[text.index("### Built-in replacers under the Model Optimizer's module paths"):]
    section = section[:section.index('\n### ', 10)]
    rows = [line for line in section.splitlines() if line.startswith('| `')]
    assert len(rows) > 30
    for row in rows:
        for path in re.findall(r'`((?:extensions|mo)\.[\w.{},]+)`', row.split('|')[1].split('(')[0]):
            match = re.match(r'(.*)\{(.*)\}(.*)', path)
            for name in ([match.group(1) + part + match.group(3) for part in match.group(2).split(',')]
                         if match else [path]):
                assert importlib.util.find_spec(name) is not None, name
