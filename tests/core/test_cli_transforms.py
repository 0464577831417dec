"""`mo transforms` and extension loading, through the command line entry point."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from mo.main import main

SEED_EXT = os.path.join(os.path.dirname(__file__), 'seed_ext')


def run_mo(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_builtin_order_is_printed(capsys):
    code, out, err = run_mo(capsys, 'transforms')
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:4] == ['#', 'id', 'phase', 'enabled']
    ids = [line.split()[1] for line in lines[1:]]
    assert ids.index('FrontStart') < ids.index('SoftplusFusion') < ids.index('MishFusion') < ids.index('FrontFinish')
    assert ids.index('FrontFinish') < ids.index('PartialInfer') < ids.index('MiddleStart') < ids.index('BackFinish')


def test_json_phase_filter_and_takeover_reason(capsys):
    code, out, err = run_mo(capsys, 'transforms', '--json', '--phase', 'front', '--extensions', SEED_EXT)
    assert code == 0, err
    rows = json.loads(out)
    assert {r['phase'] for r in rows} == {'front'}
    packs = [r for r in rows if r['id'] == 'Pack']
    builtin = [r for r in packs if r['class'] == 'extensions.front.Pack.Pack'][0]
    assert builtin['enabled'] is False and builtin['why'].startswith('replaced by mo_user_ext_')
    assert [r['enabled'] for r in packs if r is not builtin] == [True]


def test_dot_file(capsys, tmp_path):
    dot = tmp_path / 'order.dot'
    code, _, err = run_mo(capsys, 'transforms', '--dot', str(dot))
    assert code == 0, err
    text = dot.read_text()
    assert text.startswith('digraph transforms {')
    assert '"mo.utils.anchors.FrontStart" -> "mo.utils.anchors.FrontFinish";' in text
    assert '"extensions.front.Softplus_fusion.SoftplusFusion" -> "extensions.front.Mish_fusion.MishFusion";' in text


def test_env_variable_shows_in_listing(capsys, monkeypatch):
    monkeypatch.setenv('MO_DISABLED_TRANSFORMS', 'extensions.front.Mish_fusion.MishFusion')
    code, out, _ = run_mo(capsys, 'transforms')
    line = [l for l in out.splitlines() if ' MishFusion ' in l][0]
    assert ' no ' in line and 'MO_DISABLED_TRANSFORMS' in line


def write_ext(tmp_path, relative, source):
    path = tmp_path / 'ext' / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return tmp_path / 'ext'


def test_broken_extension_names_its_file(capsys, tmp_path):
    ext = write_ext(tmp_path, 'front/broken.py', 'import no_such_module_here\n')
    code, out, err = run_mo(capsys, 'transforms', '--extensions', str(ext))
    assert code == 1
    assert err.count('[ ERROR ]') >= 1 and 'broken.py' in err and 'no_such_module_here' in err
    assert 'Traceback' not in err


def test_syntax_error_in_extension_gives_the_line(capsys, tmp_path):
    ext = write_ext(tmp_path, 'middle/bad.py', 'x = 1\ndef (:\n')
    code, _, err = run_mo(capsys, 'transforms', '--extensions', str(ext))
    assert code == 1 and 'bad.py' in err and 'line 2' in err


def test_cycle_between_extension_classes_is_an_error(capsys, tmp_path):
    ext = write_ext(tmp_path, 'front/cyc.py', '''
        from mo.front.common.replacement import FrontReplacementPattern

        class LoopA(FrontReplacementPattern):
            def run_after(self):
                return [LoopB]

        class LoopB(FrontReplacementPattern):
            def run_after(self):
                return [LoopA]
        ''')
    code, _, err = run_mo(capsys, 'transforms', '--extensions', str(ext))
    assert code == 1 and 'cycle' in err and 'LoopA' in err and 'LoopB' in err


def test_missing_extensions_dir_and_bad_usage(capsys, tmp_path):
    code, _, err = run_mo(capsys, 'transforms', '--extensions', str(tmp_path / 'nope'))
    assert code == 1 and 'does not exist' in err
    code, _, err = run_mo(capsys, 'transforms', '--no-such-flag')
    assert code == 2 and err.startswith('[ ERROR ]')


def test_console_script_runs():
    result = subprocess.run([sys.executable, '-m', 'mo.main', 'transforms', '--phase', 'back'],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert 'BackFinish' in result.stdout and 'FrontStart' not in result.stdout


def test_main_leaves_the_garbage_collector_as_it_found_it(capsys):
    import gc
    assert gc.isenabled()
    assert main(['transforms']) == 0
    assert gc.isenabled()
    gc.disable()
    try:
        main(['transforms'])
        assert not gc.isenabled()
    finally:
        gc.enable()
