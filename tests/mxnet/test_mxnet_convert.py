"""MXNet models converted by mo and run in OpenVINO, against the outputs MXNet 1.9.1 itself gave
(tools/make_mxnet_models.py wrote the fixtures; MXNet is not needed here): every fixture listed in ``CONVERTED``
matches at 1e-4 relative; the input forms (params, symbol, --input_symbol), the IR's names, the errors, and a
conversion that imports no other framework's modules."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import openvino as ov
import pytest

import mo
from mo.front.mxnet.symbol import read_symbol
from tests.support.oracles import compile_openvino

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / 'fixtures'

#: the fixtures mo converts and matches (the others are left out until their ops convert: see the report)
CONVERTED = ['convnet', 'arcface_block', 'reshape_slice', 'elementwise', 'legacy_v08', 'deconv_upsample', 'lstm', 'gru',
             'gluon_lstm', 'box_ops', 'gluoncv_ssd', 'gluoncv_yolo3', 'gluoncv_faster_rcnn', 'rcnn_head',
             'ssd_head', 'control_flow', 'ssd_batch', 'multi_proposal']


def reference(name: str):
    """``(inputs by name, outputs in head order)`` MXNet gave for fixture ``name``."""
    ref = np.load(FIXTURES / (name + '.ref.npz'))
    inputs = {key[3:]: ref[key] for key in ref.files if key.startswith('in:')}
    outputs = [ref['out:{}'.format(i)] for i in range(len([k for k in ref.files if k.startswith('out:')]))]
    return inputs, outputs


def head_names(name: str):
    """The IR output names of the symbol's heads: the node's name, ``NAME:k`` for its output k > 0."""
    symbol = read_symbol(FIXTURES / (name + '-symbol.json'))
    return [symbol.nodes[node].name + (':{}'.format(port) if port else '') for node, port in symbol.heads]


def input_option(inputs: dict) -> str:
    return ','.join('{}[{}]'.format(k, ','.join(map(str, v.shape))) for k, v in inputs.items()
                    if not k.endswith('_label'))


def run_ir(xml, inputs: dict, names):
    compiled = compile_openvino(xml)
    feed = {port.get_any_name(): inputs[port.get_any_name()] for port in compiled.inputs}
    results = compiled(feed)
    by_name = {tensor_name: port for port in compiled.outputs for tensor_name in port.get_names()}
    return [results[by_name[name]] for name in names]


@pytest.mark.parametrize('name', CONVERTED)
def test_fixture_converts_and_matches_mxnet(name, tmp_path):
    inputs, expected = reference(name)
    result = mo.convert_model(str(FIXTURES / (name + '-0000.params')), input=input_option(inputs),
                              output_dir=str(tmp_path))
    got = run_ir(result.xml_path, inputs, head_names(name))
    assert len(got) == len(expected)
    for index, (actual, want) in enumerate(zip(got, expected)):
        assert actual.shape == want.shape, (index, actual.shape, want.shape)
        np.testing.assert_allclose(actual, want, rtol=1e-4, atol=1e-5, err_msg='output {}'.format(index))


def _mo(*args, cwd=None):
    return subprocess.run([sys.executable, '-m', 'mo', 'convert', *map(str, args)], capture_output=True, text=True,
                          cwd=str(cwd or ROOT), env=dict(os.environ, PYTHONPATH=str(ROOT)))


def _copy(name: str, folder: Path, prefix: str = None, epochs=('0000',)):
    prefix = prefix or name
    shutil.copy(FIXTURES / (name + '-symbol.json'), folder / (prefix + '-symbol.json'))
    for epoch in epochs:
        shutil.copy(FIXTURES / (name + '-0000.params'), folder / '{}-{}.params'.format(prefix, epoch))


def test_symbol_file_as_model_reads_the_newest_params_and_names_the_ir_io(tmp_path):
    _copy('arcface_block', tmp_path, 'face', epochs=('0000', '0007'))
    inputs, expected = reference('arcface_block')
    out = tmp_path / 'out'
    result = _mo('--input_model', tmp_path / 'face-symbol.json', '--input_shape', '[1,3,16,16]', '--output_dir', out)
    assert result.returncode == 0, result.stderr
    xml = out / 'face-symbol.xml'
    model = ov.Core().read_model(str(xml))
    assert [p.get_any_name() for p in model.inputs] == ['data']
    assert head_names('arcface_block')[0] in model.outputs[0].get_names()
    np.testing.assert_allclose(run_ir(xml, inputs, head_names('arcface_block'))[0], expected[0], rtol=1e-4,
                               atol=1e-5)


def test_input_symbol_names_a_graph_elsewhere(tmp_path):
    shutil.copy(FIXTURES / 'legacy_v08-0000.params', tmp_path / 'weights-0003.params')
    shutil.copy(FIXTURES / 'legacy_v08-symbol.json', tmp_path / 'graph.json')
    result = _mo('--input_model', tmp_path / 'weights-0003.params', '--input_symbol', tmp_path / 'graph.json',
                 '--input', 'data[1,3,5,5]', '--output_dir', tmp_path / 'out')
    assert result.returncode == 0, result.stderr
    assert (tmp_path / 'out' / 'weights-0003.xml').is_file()


def test_label_inputs_are_dropped(tmp_path):
    result = mo.convert_model(str(FIXTURES / 'convnet-0000.params'), input='data[2,3,17,17]',
                              output_dir=str(tmp_path))
    assert [name for info in result.inputs for name in info.names] == ['data']


def _one_error(result, *words):
    errors = [line for line in result.stderr.splitlines() if line.startswith('[ ERROR ]')
              and not line.startswith('[ ERROR ] Hint')]
    assert result.returncode != 0
    assert len(errors) == 1, result.stderr
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


def _write_params(path: Path, arrays: dict):
    """A .params file in MXNet's NDArray list format (V2 arrays, float32, CPU)."""
    import struct
    chunks = [struct.pack('<QQQ', 0x112, 0, len(arrays))]
    for value in arrays.values():
        value = np.ascontiguousarray(value, np.float32)
        chunks.append(struct.pack('<Ii', 0xF993fac9, 0))
        chunks.append(struct.pack('<I', value.ndim) + struct.pack('<{}q'.format(value.ndim), *value.shape))
        chunks.append(struct.pack('<iii', 1, 0, 0) + value.tobytes())
    chunks.append(struct.pack('<Q', len(arrays)))
    for name in arrays:
        encoded = name.encode()
        chunks.append(struct.pack('<Q', len(encoded)) + encoded)
    path.write_bytes(b''.join(chunks))


def _params_of(name: str) -> dict:
    from mo.front.mxnet.params import read_params
    params = read_params(FIXTURES / (name + '-0000.params'))
    return {key: np.array(params[key]) for key in params.names}


@pytest.mark.parametrize('change, words', [
    (lambda a: a.pop('arg:conv_weight'), ('lack 1 of its weights', 'conv_weight')),
    (lambda a: a.update({'arg:stray_weight': np.zeros(3, np.float32)}), ('no variable of it', 'stray_weight')),
])
def test_params_that_do_not_belong_to_the_symbol_are_one_error(tmp_path, change, words):
    arrays = _params_of('legacy_v08')
    change(arrays)
    shutil.copy(FIXTURES / 'legacy_v08-symbol.json', tmp_path / 'm-symbol.json')
    _write_params(tmp_path / 'm-0000.params', arrays)
    result = _mo('--input_model', tmp_path / 'm-0000.params', '--input', 'data[1,3,5,5]', '--output_dir',
                 tmp_path / 'out')
    _one_error(result, *words)
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').iterdir())


def test_weights_of_the_wrong_shape_are_one_error(tmp_path):
    shutil.copy(FIXTURES / 'gluon_lstm-symbol.json', tmp_path / 'm-symbol.json')
    arrays = _params_of('gluon_lstm')
    key = next(k for k in arrays if k.endswith('i2h_weight'))
    arrays[key] = np.zeros((3, 3), np.float32)
    _write_params(tmp_path / 'm-0000.params', arrays)
    result = _mo('--input_model', tmp_path / 'm-0000.params', '--input', 'data[2,5,4]', '--output_dir',
                 tmp_path / 'out')
    _one_error(result, 'has shape [3, 3]', key.split(':', 1)[-1])


def test_unknown_ops_are_listed_with_counts_names_and_the_extension_hint(tmp_path):
    graph = json.loads((FIXTURES / 'legacy_v08-symbol.json').read_text())
    for node in graph['nodes']:
        if node['name'] in ('am', 'flat'):
            node['op'] = 'MyCustomOp'
    (tmp_path / 'm-symbol.json').write_text(json.dumps(graph))
    shutil.copy(FIXTURES / 'legacy_v08-0000.params', tmp_path / 'm-0000.params')
    result = _mo('--input_model', tmp_path / 'm-0000.params', '--input', 'data[1,3,5,5]', '--output_dir',
                 tmp_path / 'out')
    _one_error(result, 'MyCustomOp (2 nodes: am, flat)')
    assert "op = 'MyCustomOp'" in result.stderr and 'front/mxnet/' in result.stderr
    assert not (tmp_path / 'out').exists() or not list((tmp_path / 'out').iterdir())


def test_a_missing_symbol_file_is_one_error(tmp_path):
    shutil.copy(FIXTURES / 'legacy_v08-0000.params', tmp_path / 'lonely-0000.params')
    result = _mo('--input_model', tmp_path / 'lonely-0000.params', '--output_dir', tmp_path / 'out')
    _one_error(result, 'lonely-symbol.json')
    assert '--input_symbol' in result.stderr


def test_an_mxnet_conversion_imports_no_other_frameworks_modules(tmp_path):
    code = '''
import json, sys
import mo
mo.convert_model(sys.argv[1], input='data[1,3,5,5]', output_dir=sys.argv[2])
from mo.front.frameworks import framework_names
foreign = [name for name in sys.modules for other in framework_names() if other != 'mxnet'
           and any(a in ('front', 'load') and b == other for a, b in zip(name.split('.'), name.split('.')[1:]))
           and name not in ('mo.front.' + other, 'mo.front.{}.framework'.format(other))]
print(json.dumps(sorted(foreign)))
'''
    result = subprocess.run([sys.executable, '-c', code, str(FIXTURES / 'legacy_v08-0000.params'), str(tmp_path)],
                            capture_output=True, text=True, cwd=str(ROOT), env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


def test_a_weight_its_op_does_not_take_is_one_error(tmp_path):
    arrays = _params_of('legacy_v08')
    arrays['arg:conv_weight'] = np.zeros((5, 3, 3, 3), np.float32)  # num_filter is 4
    shutil.copy(FIXTURES / 'legacy_v08-symbol.json', tmp_path / 'm-symbol.json')
    _write_params(tmp_path / 'm-0000.params', arrays)
    result = _mo('--input_model', tmp_path / 'm-0000.params', '--input', 'data[1,3,5,5]', '--output_dir',
                 tmp_path / 'out')
    _one_error(result, 'conv_weight', '[5, 3, 3, 3]', 'Convolution "conv"')


def test_sparse_params_are_one_error(tmp_path):
    shutil.copy(FIXTURES / 'sparse.params', tmp_path / 'm-0000.params')
    shutil.copy(FIXTURES / 'legacy_v08-symbol.json', tmp_path / 'm-symbol.json')
    result = _mo('--input_model', tmp_path / 'm-0000.params', '--output_dir', tmp_path / 'out')
    _one_error(result, 'sparse', 'row_sparse')


def test_input_shape_without_names_output_cut_and_framework_flag(tmp_path):
    inputs, expected = reference('convnet')
    result = mo.convert_model(str(FIXTURES / 'convnet-0000.params'), input_shape='[2,3,17,17]', output='fc1',
                              framework='mxnet', output_dir=str(tmp_path))
    assert [name for info in result.outputs for name in info.names][:1] == ['fc1']
    (got,) = run_ir(result.xml_path, inputs, ['fc1'])
    np.testing.assert_allclose(got, expected[head_names('convnet').index('fc1')], rtol=1e-4, atol=1e-5)


def test_outputs_after_the_first_are_named_node_colon_index(tmp_path):
    inputs, _ = reference('lstm')
    result = mo.convert_model(str(FIXTURES / 'lstm-0000.params'), input=input_option(inputs),
                              output_dir=str(tmp_path))
    names = [set(info.names) for info in result.outputs]
    for wanted in ('lstm', 'lstm:1', 'lstm:2'):
        assert any(wanted in group for group in names), (wanted, names)


def test_control_flow_becomes_if_loop_and_tensor_iterator(tmp_path):
    """_cond, _while_loop and _foreach are OpenVINO's If, Loop and TensorIterator (their outputs are compared with
    MXNet's in test_fixture_converts_and_matches_mxnet); a _while_loop's final values only, cut by --output."""
    inputs, expected = reference('control_flow')
    result = mo.convert_model(str(FIXTURES / 'control_flow-0000.params'), input=input_option(inputs),
                              output_dir=str(tmp_path))
    xml = Path(result.xml_path).read_text()
    assert 'type="If"' in xml and 'type="Loop"' in xml and 'type="TensorIterator"' in xml
    names = head_names('control_flow')
    wanted = ['_while_loop0:2', '_cond0']
    result = mo.convert_model(str(FIXTURES / 'control_flow-0000.params'), input='init[2,4],i[1]',
                              output=','.join(wanted), output_dir=str(tmp_path / 'cut'))
    for name, got in zip(wanted, run_ir(result.xml_path, inputs, wanted)):
        np.testing.assert_allclose(got, expected[names.index(name)], rtol=1e-4, atol=1e-5, err_msg=name)
