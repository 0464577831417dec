"""Damaged and unexpected Paddle files end in one clear ``Error`` naming the file, never a traceback; weights are
views of the memory-mapped params; content sniffing tells Paddle programs from other files."""
import json
import mmap
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest

from mo.front.paddle import params, sniff
from mo.front.paddle.load import read_model
from mo.front.paddle.messages import message_class
from mo.front.paddle.model import Op
from mo.front.paddle.pir import read_pir
from mo.front.paddle.program import read_program
from mo.utils.error import Error

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')


def _bytes(path):
    with open(os.path.join(FIXTURES, path), 'rb') as f:
        return f.read()


def _copy(tmp_path, *names):
    for name in names:
        shutil.copy(os.path.join(FIXTURES, name), tmp_path / os.path.basename(name))


# classic programs ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize('fraction', [0.001, 0.1, 1 / 3, 0.5, 0.8])
def test_truncated_program_is_an_error(fraction):
    data = _bytes('p26/net.pdmodel')
    with pytest.raises(Error, match=r'Paddle program "net.pdmodel" is not a valid ProgramDesc .*truncated'):
        read_program(data[:int(len(data) * fraction)], 'net.pdmodel')


def test_no_truncation_escapes_or_loses_blocks():
    """Every cut of a file fails with ``Error``, except the cuts between its blocks and its trailing version
    fields: those read the whole program (and lose only the version or the op version map). A cut between two
    blocks leaves a sub_block index pointing past the end, which is an ``Error`` too."""
    data = _bytes('p26/cf.pdmodel')
    whole = read_program(data, 'cf.pdmodel')
    for cut in range(0, len(data), 3):
        try:
            program = read_program(data[:cut], 'cf.pdmodel')
        except Error:
            continue
        assert program.blocks == whole.blocks and program.outputs == whole.outputs, cut


@pytest.mark.parametrize('data', [b'', b'\x00' * 64, b'hello, this is not a model',
                                  np.random.default_rng(11).integers(0, 256, 256, dtype=np.uint8).tobytes()],
                         ids=['empty', 'zeros', 'text', 'random'])
def test_garbage_program_is_an_error(data):
    with pytest.raises(Error, match='"junk.pdmodel"'):
        read_program(data, 'junk.pdmodel')


def _edited_program(edit):
    desc = message_class('ProgramDesc').FromString(_bytes('p26/net.pdmodel'))
    edit(desc)
    return desc.SerializeToString()


def test_program_from_a_newer_paddle_is_an_error():
    data = _edited_program(lambda d: d.version.__setattr__('version', 4_001_000))
    with pytest.raises(Error, match=r'written by Paddle 4\.1\.0; this reader knows programs up to Paddle 3\.999'):
        read_program(data, 'new.pdmodel')
    data = _edited_program(lambda d: d.version.__setattr__('version', 3_003_001))
    assert read_program(data, 'ok.pdmodel').version == 3_003_001


def test_unknown_attribute_type_is_an_error():
    # an Attr whose type number (99) framework.proto does not have: name "alpha" (field 1), type (field 2)
    attr = b'\x0a\x05alpha\x10\x63'
    op = b'\x1a\x04relu' + b'\x22' + bytes([len(attr)]) + attr
    data = _edited_program(lambda d: d.blocks[0].ops.add().MergeFromString(op))
    with pytest.raises(Error, match=r'attribute "alpha" of op relu has a type this reader does not know'):
        read_program(data, 'attr.pdmodel')


def test_unknown_var_type_is_an_error():
    var = b'\x0a\x01v\x12\x02\x08\x63'  # name "v", VarType{type: 99}
    data = _edited_program(lambda d: d.blocks[0].vars.add().MergeFromString(var))
    with pytest.raises(Error, match=r'var "v" has a variable type this reader does not know'):
        read_program(data, 'var.pdmodel')


def test_block_out_of_order_is_an_error():
    data = _edited_program(lambda d: d.blocks[0].__setattr__('idx', 3))
    with pytest.raises(Error, match='block 0 says it is block 3'):
        read_program(data, 'blocks.pdmodel')


# params ---------------------------------------------------------------------------------------------------------

def test_truncated_params_name_the_tensor_and_the_missing_bytes(tmp_path):
    _copy(tmp_path, 'p26/net.pdmodel', 'p26/net.pdiparams')
    path = tmp_path / 'net.pdiparams'
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(Error) as caught:
        read_model(str(tmp_path / 'net.pdmodel'))
    assert str(caught.value) == 'params file "{}" ends after 7 of 8 tensors (linear_0.w_0 needs 100 bytes more)'.format(
        path)
    path.write_bytes(_bytes('p26/net.pdiparams')[:2])
    with pytest.raises(Error, match=r'ends after 0 of 8 tensors \(batch_norm2d_0.b_0 needs 2 bytes more\)'):
        read_model(str(tmp_path / 'net.pdmodel'))
    path.write_bytes(b'')
    with pytest.raises(Error, match=r'params file ".*net.pdiparams" is empty, but the program has 8 persistable'):
        read_model(str(tmp_path / 'net.pdmodel'))


def test_params_with_extra_bytes_are_an_error(tmp_path):
    _copy(tmp_path, 'p3_pir/net.json', 'p3_pir/net.pdiparams')
    path = tmp_path / 'net.pdiparams'
    path.write_bytes(path.read_bytes() + b'\0' * 12)
    with pytest.raises(Error, match='has 12 bytes more than the 8 tensors the program declares'):
        read_model(str(tmp_path / 'net.json'))


def test_params_of_another_model_are_an_error(tmp_path):
    _copy(tmp_path, 'p26/net.pdmodel')
    shutil.copy(os.path.join(FIXTURES, 'p26/mixed.pdiparams'), tmp_path / 'net.pdiparams')
    with pytest.raises(Error, match=r'tensor 1 of 8 \(batch_norm2d_0.b_0\) in params file .* holds int64 \[2, 3\], '
                                    r'but the program declares float32 \[4\]'):
        read_model(str(tmp_path / 'net.pdmodel'))


def test_missing_params_are_an_error(tmp_path):
    _copy(tmp_path, 'p3_pir/cf.json')
    with pytest.raises(Error, match=r'params file ".*cf.pdiparams" does not exist'):
        read_model(str(tmp_path / 'cf.json'))
    program, weights = read_model(os.path.join(FIXTURES, 'p3_pir/ib.json'))  # no weights: no file needed
    assert weights == {} and program.inputs == ['a', 'b']


def test_paddle1_directory_errors(tmp_path):
    shutil.copytree(os.path.join(FIXTURES, 'p26_dir/net'), tmp_path / 'net')
    conv = tmp_path / 'net' / 'conv2d_0.w_0'
    conv.write_bytes(conv.read_bytes()[:-8])
    with pytest.raises(Error, match=r'parameter file ".*conv2d_0.w_0" is cut short '
                                    r'\(conv2d_0.w_0 needs 8 bytes more\)'):
        read_model(str(tmp_path / 'net'))
    conv.unlink()
    with pytest.raises(Error, match=r'Paddle model directory ".*net" has no file for parameter "conv2d_0.w_0"'):
        read_model(str(tmp_path / 'net'))
    (tmp_path / 'empty').mkdir()
    with pytest.raises(Error, match='has no __model__ file'):
        read_model(str(tmp_path / 'empty'))


def test_weights_are_read_only_views_of_the_mapped_file():
    _, weights = read_model(os.path.join(FIXTURES, 'p26/net.pdmodel'))
    for name, array in weights.items():
        base = array
        while isinstance(base, np.ndarray):
            assert not base.flags.owndata, name
            base = base.base
        assert isinstance(getattr(base, 'obj', base), mmap.mmap), name  # numpy 2 keeps a memoryview of it
        assert not array.flags.writeable


def _record(data_type, dims, payload):
    desc = message_class('VarType.TensorDesc')(data_type=data_type, dims=dims).SerializeToString()
    return struct.pack('<IQIi', 0, 0, 0, len(desc)) + desc + payload


def test_bfloat16_and_lod_records(tmp_path):
    import ml_dtypes
    values = np.array([1.5, -2.0, 3.25], ml_dtypes.bfloat16)
    lod = struct.pack('<Q', 16) + struct.pack('<QQ', 0, 3)  # one LoD level of two offsets, skipped
    bf16 = _record(22, [3], values.tobytes())
    with_lod = bf16[:4] + struct.pack('<Q', 1) + lod + bf16[12:]
    path = tmp_path / 'w.pdiparams'
    path.write_bytes(with_lod + _record(3, [2], np.array([7, 8], '<i8').tobytes()))
    found = params.read_combined(str(path), ['a', 'b'])
    assert found['a'].dtype == np.dtype(ml_dtypes.bfloat16) and found['a'].tolist() == values.tolist()
    assert found['b'].tolist() == [7, 8]


@pytest.mark.parametrize('number, name', [
    (0, 'bool'), (1, 'int16'), (2, 'int32'), (3, 'int64'), (4, 'float16'), (5, 'float32'), (6, 'float64'),
    (20, 'uint8'), (21, 'int8'), (22, 'bfloat16'), (23, 'complex64'), (24, 'complex128'), (32, 'float8_e4m3fn'),
    (33, 'float8_e5m2'), (36, 'uint16'), (37, 'uint32'), (38, 'uint64'),
])
def test_every_element_type_reads_as_its_numpy_dtype(tmp_path, number, name):
    import ml_dtypes
    dtype = np.dtype(getattr(ml_dtypes, name, name))  # bfloat16 and the float8 types are ml_dtypes'
    values = np.arange(6).astype(dtype).reshape(2, 3)
    path = tmp_path / 'one.pdiparams'
    path.write_bytes(_record(number, [2, 3], values.tobytes()))
    found = params.read_combined(str(path), ['t'])['t']
    assert found.dtype == dtype and found.shape == (2, 3) and found.tobytes() == values.tobytes()


def test_unknown_element_type_in_params_is_an_error(tmp_path):
    path = tmp_path / 'one.pdiparams'
    path.write_bytes(_record(7, [2], b'\0' * 8))  # 7 is DENSE_TENSOR: a var kind, no element type
    with pytest.raises(Error, match=r'tensor 1 of 1 \(t\) in params file .* has an element type this reader does not '
                                    r'know \(7\)'):
        params.read_combined(str(path), ['t'])


def test_paddle1_directory_with_combined_params(tmp_path):
    (tmp_path / 'model').mkdir()
    shutil.copy(os.path.join(FIXTURES, 'p26_dir/net/__model__'), tmp_path / 'model' / '__model__')
    shutil.copy(os.path.join(FIXTURES, 'p26/net.pdiparams'), tmp_path / 'model' / '__params__')
    program, weights = read_model(str(tmp_path / 'model'))
    _, separate = read_model(os.path.join(FIXTURES, 'p26_dir/net'))
    assert sorted(weights) == sorted(separate)
    assert all(weights[name].tobytes() == separate[name].tobytes() for name in weights)


def test_fp32_models_import_neither_ml_dtypes_nor_paddle():
    code = ('import sys; from mo.front.paddle.load import read_model; '
            'read_model({!r}); read_model({!r}); print("ml_dtypes" in sys.modules, "paddle" in sys.modules)').format(
                os.path.join(FIXTURES, 'p26/net.pdmodel'), os.path.join(FIXTURES, 'p3_pir/net.json'))
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          cwd=os.path.join(FIXTURES, '..', '..', '..'))
    assert done.stdout.strip() == 'False False', done.stderr  # neither ml_dtypes nor paddle


# PIR programs ---------------------------------------------------------------------------------------------------

def _pir(edit=None):
    loaded = json.loads(_bytes('p3_pir/cf.json'))
    if edit:
        edit(loaded)
    return json.dumps(loaded)


@pytest.mark.parametrize('text, message', [
    ('{"base_code": {"magic": "pir", "version": 4}, "program": {"regions": [', 'is not valid JSON'),
    ('not json at all', 'is not valid JSON'),
    ('{"base_code": {"magic": "onnx"}, "program": {}}', 'lacks "base_code" with magic "pir"'),
    ('[1, 2, 3]', 'lacks "base_code" with magic "pir"'),
    ('{"base_code": {"magic": "pir", "version": 4}, "program": {"regions": []}}', 'has no regions'),
])
def test_bad_json_is_an_error(text, message):
    with pytest.raises(Error, match=message):
        read_pir(text, 'model.json')


def test_truncated_and_non_utf8_json_are_errors():
    data = _bytes('p3_pir/net.json')
    with pytest.raises(Error, match=r'Paddle PIR program "net.json" is not valid JSON \(.* line 1 column'):
        read_pir(data[:len(data) // 2], 'net.json')
    with pytest.raises(Error, match='is not UTF-8 text'):
        read_pir(b'\xff\xfe{}', 'net.json')


def test_newer_pir_version_is_an_error():
    with pytest.raises(Error, match=r'has PIR version 5, written by a Paddle newer than this reader knows'):
        read_pir(_pir(lambda d: d['base_code'].__setitem__('version', 5)), 'new.json')


def _first_op(d):
    return d['program']['regions'][0]['blocks'][0]['ops'][4]  # pd_op.matmul


def test_unknown_pir_attribute_type_is_an_error():
    def edit(d):
        _first_op(d)['A'][0]['AT']['#'] = '1.a_quaternion'
    with pytest.raises(Error, match=r"op pd_op.matmul, attribute \"transpose_x\" has an attribute of type "
                                    r"'1.a_quaternion', which this reader does not know"):
        read_pir(_pir(edit), 'attr.json')


def test_unknown_pir_dialect_and_type_are_errors():
    with pytest.raises(Error, match=r"dialect '9' this reader does not know"):
        read_pir(_pir(lambda d: _first_op(d).__setitem__('#', '9.matmul')), 'dialect.json')

    def edit(d):
        _first_op(d)['O'][0]['TT']['D'][0]['#'] = '0.t_f128'
    with pytest.raises(Error, match=r"element type '0.t_f128', which this reader does not know"):
        read_pir(_pir(edit), 'type.json')


def test_undefined_operand_is_an_error():
    with pytest.raises(Error, match=r'op pd_op.matmul uses value %999, which is defined nowhere before it'):
        read_pir(_pir(lambda d: _first_op(d)['I'][0].__setitem__('%', 999)), 'operand.json')


def test_special_floats_and_scalars():
    def edit(d):
        op = _first_op(d)
        op['A'] += [{'N': 'nan', 'AT': {'#': '0.a_f32', 'VD': 'NaN'}},
                    {'N': 'inf', 'AT': {'#': '0.a_f64', 'VD': '-INF'}},
                    {'N': 'half', 'AT': {'#': '1.a_scalar', 'D': ['float16', 15360]}},
                    {'N': 'c', 'AT': {'#': '1.a_scalar', 'D': ['complex64', 1.0, -2.0]}},
                    {'N': 'i', 'AT': {'#': '1.a_scalar', 'D': ['int64', 7]}}]
    attrs = read_pir(_pir(edit), 'floats.json').blocks[0].ops[0].attrs
    assert np.isnan(attrs['nan']) and attrs['inf'] == -np.inf
    assert (attrs['half'], attrs['c'], attrs['i']) == (1.0, complex(1, -2), 7)


def test_op_named_with_too_few_names_is_an_error():
    op = Op('pd_op.add', operands=['a', 'b'], results=['c'])
    assert op.named(['x', 'y', 'z'], ['out']).inputs == {'x': ['a'], 'y': ['b']}
    with pytest.raises(Error, match=r'Paddle op pd_op.add has 2 operands, but only 1 names were given'):
        op.named(['x'], ['out'])
    classic = Op('elementwise_add', inputs={'X': ['a'], 'Y': ['b']}, outputs={'Out': ['c']})
    assert classic.named(['x', 'y'], ['out']) is classic


# sniffing -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('path, kind', [
    ('p26/net.pdmodel', 'program_desc'), ('p26/cf.pdmodel', 'program_desc'), ('p3_classic/net.pdmodel', 'program_desc'),
    ('p26_dir/net/__model__', 'program_desc'), ('p3_pir/net.json', 'pir'), ('p3_pir/cf.json', 'pir'),
    ('p26/net.pdiparams', None), ('p26_dir/net/conv2d_0.w_0', None),
    ('../../onnx/models/gru.onnx', None),
])
def test_sniff_file(path, kind):
    assert sniff.sniff_file(os.path.join(FIXTURES, path)) == kind


def test_sniff_bytes():
    head = _bytes('p26/net.pdmodel')[:sniff.HEAD_BYTES]
    assert sniff.is_paddle_program_bytes(head) and not sniff.is_pir_json(head)
    # a TensorFlow GraphDef: field 1 holds a NodeDef, which starts with its name (a string)
    graph_def = b'\x0a\x0e\x0a\x01x\x12\x0bPlaceholder'
    assert not sniff.is_paddle_program_bytes(graph_def)
    assert not sniff.is_paddle_program_bytes(b'') and not sniff.is_paddle_program_bytes(b'\x0a')
    assert sniff.is_pir_json(b'\xef\xbb\xbf \n{ "base_code" : {"version": 4, "magic": "pir"}, "program": {}}')
    assert not sniff.is_pir_json(b'{"program": {}, "base_code": {"magic": "pir"}}')  # Paddle writes base_code first
    assert not sniff.is_pir_json(b'{"base_code": {"magic": "other"}}')
    assert sniff.sniff_file('/nonexistent/model.json') is None


def test_describe():
    program, _ = read_model(os.path.join(FIXTURES, 'p26/cf.pdmodel'))
    assert sniff.describe(program) == (
        'Paddle model (ProgramDesc by Paddle 2.6.2): 4 blocks, 25 ops, 2 persistable tensors, inputs x, n, '
        'outputs save_infer_model/scale_0.tmp_2, save_infer_model/scale_1.tmp_1')
    program, _ = read_model(os.path.join(FIXTURES, 'p3_pir/net.json'))
    assert sniff.describe(program).startswith('Paddle model (PIR version 4): 1 block, 11 ops, 8 persistable tensors')


def test_not_a_paddle_file_is_an_error(tmp_path):
    junk = tmp_path / 'model.pdmodel'
    junk.write_bytes(b'\x08\x07junk')
    with pytest.raises(Error, match='is no Paddle model'):
        read_model(str(junk))
    with pytest.raises(Error, match='does not exist'):
        read_model(str(tmp_path / 'missing.pdmodel'))


# mutations ------------------------------------------------------------------------------------------------------

def _json_nodes(node, found):
    found.append(node)
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        _json_nodes(child, found)
    return found


def test_mutated_json_ends_in_error_or_a_program():
    """Seeded random damage to a PIR program (keys dropped, values of the wrong kind): never a traceback."""
    rng = np.random.default_rng(3)
    original = _bytes('p3_pir/cf.json')
    replacements = [None, 7, -1, 'x', [], {}, [1, 2], {'#': 'NULL'}, True, 1.5]
    outcomes = {'error': 0, 'read': 0}
    for _ in range(400):
        loaded = json.loads(original)
        containers = [n for n in _json_nodes(loaded, []) if isinstance(n, (dict, list)) and n]
        target = containers[rng.integers(len(containers))]
        key = list(target)[rng.integers(len(target))] if isinstance(target, dict) else rng.integers(len(target))
        if isinstance(target, dict) and rng.random() < 0.3:
            del target[key]
        else:
            target[key] = replacements[rng.integers(len(replacements))]
        try:
            read_pir(json.dumps(loaded), 'mutated.json')
            outcomes['read'] += 1
        except Error:
            outcomes['error'] += 1
    assert outcomes['error'] > 100


def test_flipped_bytes_end_in_error_or_a_program(tmp_path):
    """Seeded random byte damage to a ProgramDesc and to a params file: never a traceback."""
    rng = np.random.default_rng(5)
    program = _bytes('p26/cf.pdmodel')
    for _ in range(300):
        damaged = bytearray(program)
        for pos in rng.integers(len(damaged), size=3):
            damaged[pos] = rng.integers(256)
        try:
            read_program(bytes(damaged), 'damaged.pdmodel')
        except Error:
            pass
    _copy(tmp_path, 'p26/net.pdmodel')
    weights = _bytes('p26/net.pdiparams')
    for _ in range(300):
        damaged = bytearray(weights)
        pos = rng.integers(len(damaged))
        damaged[pos] = rng.integers(256)
        (tmp_path / 'net.pdiparams').write_bytes(bytes(damaged))
        try:
            read_model(str(tmp_path / 'net.pdmodel'))
        except Error:
            pass
