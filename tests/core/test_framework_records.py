"""A framework is a folder and a record: conversions ask the records, import only their own framework's modules,
and a model no record claims gets one line saying what it looks like and what mo reads."""
import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from mo.front.frameworks import framework_names, frameworks

ROOT = Path(__file__).resolve().parents[2]
SECRET = 'do-not-paste-me-into-an-error'


def _python(code: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code), *args], capture_output=True, text=True,
                          cwd=str(ROOT), env=dict(os.environ, PYTHONPATH=str(ROOT)))


def _mo(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'mo', *args], capture_output=True, text=True, cwd=str(ROOT),
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


def _onnx_model(path: Path):
    graph = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'g',
                              [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 3])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)]), str(path))


def _foreign_modules(model: Path, out: Path) -> list:
    """The modules of other frameworks' folders that converting ``model`` imported (their records excepted)."""
    result = _python('''
        import json, sys
        import mo
        from mo.front.frameworks import framework_names
        graph_source = mo.convert_model(sys.argv[1], output_dir=sys.argv[2])
        import mo.front.frameworks as f
        own = f.detect({'input_model': sys.argv[1]}).name
        foreign = []
        for name in sys.modules:
            parts = name.split('.')
            for other in framework_names():
                if other == own:
                    continue
                folder = any(a in ('front', 'load') and b == other for a, b in zip(parts, parts[1:]))
                record = name in ('mo.front.' + other, 'mo.front.{}.framework'.format(other))
                if folder and not record:
                    foreign.append(name)
        print(json.dumps(sorted(foreign)))
    ''', str(model), str(out))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_tensorflow_conversion_imports_no_other_frameworks_modules(tmp_path):
    assert _foreign_modules(ROOT / 'examples' / 'small_cnn.pb', tmp_path) == []


def test_an_onnx_conversion_imports_no_other_frameworks_modules(tmp_path):
    _onnx_model(tmp_path / 'relu.onnx')
    assert _foreign_modules(tmp_path / 'relu.onnx', tmp_path / 'out') == []


def test_an_mxnet_conversion_imports_no_other_frameworks_modules(tmp_path):
    fixtures = ROOT / 'tests' / 'mxnet' / 'fixtures'
    graph = json.loads((fixtures / 'legacy_v08-symbol.json').read_text())
    graph['nodes'][0]['attrs'] = {'__shape__': '(1, 3, 5, 5)'}  # the input's shape, so no option is needed
    (tmp_path / 'legacy_v08-symbol.json').write_text(json.dumps(graph))
    (tmp_path / 'legacy_v08-0000.params').write_bytes((fixtures / 'legacy_v08-0000.params').read_bytes())
    assert _foreign_modules(tmp_path / 'legacy_v08-0000.params', tmp_path / 'out') == []


def test_a_paddle_conversion_imports_no_other_frameworks_modules(tmp_path):
    fixture = ROOT / 'tests' / 'paddle' / 'fixtures' / 'p3_pir' / 'net.json'
    assert _foreign_modules(fixture, tmp_path) == []


def test_every_framework_folder_has_a_record_and_the_cli_offers_it():
    assert set(framework_names()) >= {'tf', 'onnx', 'paddle', 'mxnet'}
    assert [r.name for r in frameworks()] == sorted(framework_names(), key=lambda n: [
        r.order for r in frameworks() if r.name == n][0])
    help_text = _mo('convert', '--help').stdout
    for record in frameworks():
        assert record.formats.split('(')[0].strip()[:20] in ' '.join(help_text.split())
    listing = _mo('transforms', '--framework', 'onnx', '--phase', 'load', '--json')
    assert listing.returncode == 0
    ids = [row['id'] for row in json.loads(listing.stdout)]
    assert 'ONNXLoader' in ids and 'TFLoader' not in ids


def _tflite(path):
    path.write_bytes(b'\x1c\x00\x00\x00TFL3' + SECRET.encode() * 4)


def _torch_archive(path):
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('model/data.pkl', SECRET)
        archive.writestr('model/version', '3')


def _pickle(path):
    path.write_bytes(b'\x80\x04\x95' + SECRET.encode())


def _json(path):
    path.write_text(json.dumps({'layers': [SECRET], 'format': 'mystery'}))


def _empty(path):
    path.write_bytes(b'')


def _binary(path):
    path.write_bytes(bytes([0xFF, 0xFE, 0x00, 0x07]) + SECRET.encode())


@pytest.mark.parametrize('make, words', [
    (_tflite, 'TensorFlow Lite'), (_torch_archive, 'PyTorch archive'), (_pickle, 'pickle'),
    (_json, 'JSON of unknown kind (an object with the keys format, layers)'), (_empty, 'an empty file'),
    (_binary, 'a binary file of no known model format')])
def test_a_model_no_record_claims_gets_one_line_saying_what_it_looks_like(tmp_path, make, words):
    model = tmp_path / 'model.bin'
    make(model)
    result = _mo('convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'out'))
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith('[ ERROR ]')]
    assert len(errors) == 2 and words in errors[0] and 'Hint: mo reads' in errors[1], result.stderr
    for record in frameworks():
        assert record.title in errors[1]
    assert SECRET not in result.stderr and 'Traceback' not in result.stderr
    assert not (tmp_path / 'out').exists()


def test_an_explicit_framework_overrides_the_content(tmp_path):
    _onnx_model(tmp_path / 'relu.onnx')
    result = _mo('convert', '--input_model', str(tmp_path / 'relu.onnx'), '--framework', 'tf',
                 '--output_dir', str(tmp_path / 'out'))
    assert result.returncode == 1 and 'TensorFlow' in result.stderr and 'Traceback' not in result.stderr
