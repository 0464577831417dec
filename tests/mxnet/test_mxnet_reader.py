"""mo's MXNet readers on the fixtures tools/make_mxnet_models.py wrote with MXNet 1.9.1 (which these tests do
not need): ``.params`` arrays against ``mx.nd.load``'s, every fixture graph against its weights and outputs,
the older formats (NDArray V1 and the oldest form, built here from the documented layout; 0.8 graph JSON
against MXNet's own upgrade of it) and broken files."""
import json
import mmap
import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from mo.front.mxnet import params as mxparams
from mo.front.mxnet.attrs import Attrs, parse_value
from mo.front.mxnet.params import parse_params, read_params
from mo.front.mxnet import symbol as mxsymbol
from mo.front.mxnet.symbol import parse_symbol, read_symbol
from mo.utils.error import Error

FIXTURES = Path(__file__).parent / 'fixtures'
#: the checkpoint fixtures (a symbol, its -0000.params and MXNet's outputs); nd_split's weights are .nd files and a
#: pretrained checkpoint (tests/mxnet/test_mxnet_options.py reads those)
MODELS = sorted(path.name[:-len('-symbol.json')] for path in FIXTURES.glob('*-symbol.json')
                if (FIXTURES / path.name.replace('-symbol.json', '-0000.params')).is_file()
                and (FIXTURES / path.name.replace('-symbol.json', '.ref.npz')).is_file())

#: ops each fixture must contain (what it was made to cover)
EXPECTED_OPS = {
    'convnet': {'Convolution', 'BatchNorm', 'Activation', 'LeakyReLU', 'add_n', 'Pooling', 'Flatten',
                'FullyConnected', 'SoftmaxOutput'},
    'arcface_block': {'_minus_scalar', '_mul_scalar', 'BatchNorm', 'LeakyReLU', 'elemwise_add', 'Dropout',
                      'FullyConnected', 'L2Normalization'},
    'reshape_slice': {'Reshape', 'slice', 'slice_axis', 'slice_like', 'Concat'},
    'elementwise': {'broadcast_add', 'broadcast_power', '_rminus_scalar', '_rdiv_scalar', '_power_scalar', 'mean',
                    'sum', 'sqrt', 'square', 'rsqrt', 'log', 'abs', 'norm', 'log_softmax', 'argmax',
                    'broadcast_to', 'broadcast_axis', 'reshape_like', 'hard_sigmoid', 'reverse'},
    'lstm': {'RNN'}, 'gru': {'RNN'}, 'gluon_lstm': {'RNN', '_rnn_param_concat', '_zeros', 'SwapAxis'},
    'deconv_upsample': {'Deconvolution', 'UpSampling', '_contrib_BilinearResize2D'},
    'ssd_head': {'_contrib_MultiBoxPrior', '_contrib_MultiBoxDetection', 'SoftmaxActivation'},
    'rcnn_head': {'_contrib_Proposal', 'ROIPooling', '_contrib_ROIAlign'},
    'box_ops': {'_contrib_box_nms', '_contrib_box_decode'},
    'legacy_v08': {'Convolution', 'BatchNorm', 'argmax', 'Flatten'},
    'control_flow': {'_foreach', '_while_loop', '_cond'},
    'while_stacked': {'_while_loop'},
    'ssd_batch': {'_contrib_MultiBoxPrior', '_contrib_MultiBoxDetection', 'SoftmaxActivation'},
    'multi_proposal': {'_contrib_MultiProposal', 'ROIPooling', '_contrib_ROIAlign'},
    'gluoncv_faster_rcnn': {'_contrib_ROIAlign', '_contrib_box_decode', '_contrib_box_nms', 'shape_array', 'Cast',
                            'stack', 'SliceChannel', '_contrib_AdaptiveAvgPooling2D', 'BlockGrad'},
    'gluoncv_ssd': {'_arange', '_contrib_box_decode', '_contrib_box_nms', 'where', 'slice_like', 'zeros_like'},
    'gluoncv_yolo3': {'_contrib_box_nms', 'repeat', 'tile', 'sigmoid', 'exp', 'LeakyReLU', 'slice_like'},
    'gluoncv_export_hwc': {'broadcast_sub', 'broadcast_div', 'transpose', 'Convolution', 'BatchNorm', 'Pooling',
                           'FullyConnected'},
    'gluoncv_export_chw': {'Convolution', 'BatchNorm', 'Pooling', 'FullyConnected'},
    'gluoncv_ssd_hwc': {'broadcast_sub', 'broadcast_div', 'transpose', '_contrib_box_decode', '_contrib_box_nms'},
}


def _model(name):
    return read_symbol(FIXTURES / (name + '-symbol.json')), read_params(FIXTURES / (name + '-0000.params'))


# -- .params -----------------------------------------------------------------------------------------------

def test_every_dtype_matches_mxnet_load():
    params = read_params(FIXTURES / 'dtypes.params')
    ref = np.load(FIXTURES / 'dtypes.ref.npz')
    names = [name for name in ref.files if not name.endswith(':as_float32')]
    assert sorted(params.names) == sorted(names)
    seen = set()
    for name in names:
        array = params[name]
        if name == 'arg:bfloat16':
            assert array.dtype == np.dtype(ml_dtypes.bfloat16)
            np.testing.assert_array_equal(array.view(np.uint16), ref[name])
            np.testing.assert_array_equal(array.astype(np.float32), ref['arg:bfloat16:as_float32'])
        else:
            assert array.dtype == ref[name].dtype, name
            np.testing.assert_array_equal(array, ref[name])
        assert array.shape == ref[name].shape
        seen.add(array.dtype)
    assert len(seen) == 9  # f32 f64 f16 u8 i32 i8 i64 bool bf16


def test_arrays_are_read_only_views_of_the_mapped_file():
    params = read_params(FIXTURES / 'dtypes.params')
    for array in params.arrays:
        assert not array.flags.owndata and not array.flags.writeable
        base = array
        while isinstance(base, np.ndarray):
            base = base.base
        assert isinstance(getattr(base, 'obj', base), mmap.mmap)


def test_prefixes_split_args_aux_and_bare_names():
    params = read_params(FIXTURES / 'dtypes.params')
    assert set(params.arg_params) == {'float64', 'uint8', 'int8', 'bool', 'bfloat16'}
    assert set(params.aux_params) == {'float32', 'float16', 'int32', 'int64'}
    assert list(params.unprefixed) == ['unprefixed_weight']
    assert params.unprefixed['unprefixed_weight'].shape == (1, 2, 3, 1)


def test_numpy_shape_semantics_arrays_v3():
    params = read_params(FIXTURES / 'np_shape.params')
    ref = np.load(FIXTURES / 'np_shape.ref.npz')
    assert sorted(params.names) == sorted(ref.files)
    for name in ref.files:
        assert params[name].shape == ref[name].shape
        np.testing.assert_array_equal(params[name], ref[name])
    assert params['arg:scalar'].shape == () and float(params['arg:scalar']) == 2.5


def _shape64(shape):
    return struct.pack('<i', len(shape)) + struct.pack('<{}q'.format(len(shape)), *shape)


def _file(arrays, names):
    body = struct.pack('<QQQ', 0x112, 0, len(arrays)) + b''.join(arrays) + struct.pack('<Q', len(names))
    return body + b''.join(struct.pack('<Q', len(n)) + n.encode() for n in names)


def _v2(array, flag=0, stype=0, magic=mxparams.NDARRAY_V2_MAGIC):
    return (struct.pack('<Ii', magic, stype) + _shape64(array.shape) + struct.pack('<iii', 1, 0, flag)
            + array.tobytes())


def test_legacy_v1_and_oldest_forms():
    a = np.arange(6, dtype='<f4').reshape(2, 3)
    b = np.array([[7, -8]], dtype='<i8')
    v1 = struct.pack('<I', mxparams.NDARRAY_V1_MAGIC) + _shape64(a.shape) + struct.pack('<iii', 1, 0, 0) + a.tobytes()
    # the oldest form: no magic, u32 ndim and u32 dims
    oldest = struct.pack('<III', 2, 1, 2) + struct.pack('<iii', 2, 0, 6) + b.tobytes()
    params = parse_params(_file([v1, oldest, _v2(a)], ['arg:a', 'aux:b', 'arg:c']), 'old.params')
    np.testing.assert_array_equal(params['arg:a'], a)
    np.testing.assert_array_equal(params['aux:b'], b)
    np.testing.assert_array_equal(params['arg:c'], a)
    assert params['aux:b'].dtype == np.int64


def test_unnamed_lists_and_shapeless_arrays():
    none_v2 = struct.pack('<Ii', mxparams.NDARRAY_V2_MAGIC, 0) + _shape64(())
    none_oldest = struct.pack('<I', 0)
    params = parse_params(_file([_v2(np.ones(3, '<f2'), flag=2), none_v2, none_oldest], []))
    assert params.names == [] and len(params) == 3
    assert params.arrays[1] is None and params.arrays[2] is None
    assert params.items()[0][0] == '' and params.arrays[0].dtype == np.float16
    assert 'arg:x' not in params
    with pytest.raises(KeyError):
        params['arg:x']


def test_type_flags_mxnet_1_9_cannot_save_but_mshadow_defines():
    values = [np.array([-3, 4], '<i2'), np.array([5, 65535], '<u2'), np.array([7, 2 ** 32 - 1], '<u4'),
              np.array([9, 2 ** 64 - 1], '<u8')]
    arrays = [_v2(value, flag=flag) for flag, value in zip((8, 9, 10, 11), values)]
    params = parse_params(_file(arrays, ['a', 'b', 'c', 'd']))
    for array, value in zip(params.arrays, values):
        assert array.dtype == value.dtype
        np.testing.assert_array_equal(array, value)


@pytest.mark.parametrize('name', MODELS)
def test_model_params_read(name):
    params = read_params(FIXTURES / (name + '-0000.params'))
    assert all(n.startswith(('arg:', 'aux:')) for n in params.names)
    assert all(a is not None and a.dtype == np.float32 for a in params.arrays)


# -- .params: broken files ---------------------------------------------------------------------------------

def _error(data, tmp_path, match):
    path = tmp_path / 'bad.params'
    path.write_bytes(data)
    with pytest.raises(Error, match=match) as info:
        read_params(path)
    message = str(info.value)
    assert '\n' not in message and str(path) in message
    return message


def test_truncated_files_say_so_wherever_they_end(tmp_path):
    data = (FIXTURES / 'convnet-0000.params').read_bytes()
    for end in sorted({9, 20, 24, 30, 60, 200, len(data) // 2, len(data) - 40, len(data) - 1}):
        _error(data[:end], tmp_path, 'is truncated')


def test_bad_magics_and_flags(tmp_path):
    good = _v2(np.ones(2, '<f4'))
    _error(b'\x13\x01' + bytes(30), tmp_path, 'not an MXNet .params file.*0x112')
    _error(_file([struct.pack('<I', 0xDEADBEEF) + good[4:]], ['arg:x']), tmp_path, 'starts with 0xDEADBEEF')
    _error(_file([_v2(np.ones(2, '<f4'), flag=99)], ['arg:x']), tmp_path, 'element type flag 99')
    _error(_file([_v2(np.ones(2, '<f4'), stype=7)], ['arg:x']), tmp_path, 'storage type 7')
    _error(_file([good, good], ['arg:x']), tmp_path, '2 arrays but 1 names')
    _error(_file([good, good], ['arg:x', 'arg:x']), tmp_path, 'two arrays named "arg:x"')
    _error(b'', tmp_path, 'is empty')


def test_sparse_arrays_are_named_in_the_error(tmp_path):
    message = _error((FIXTURES / 'sparse.params').read_bytes(), tmp_path, 'sparse arrays are not supported')
    assert message.endswith('sparse arrays are not supported: "arg:embed_weight" is row_sparse')


def test_missing_file_is_an_error(tmp_path):
    with pytest.raises(Error, match='Cannot read the MXNet parameters'):
        read_params(tmp_path / 'nope.params')


def test_params_sniffing(tmp_path):
    assert all(mxparams.sniff(path) for path in FIXTURES.glob('*.params'))
    assert not any(mxparams.sniff(path) for path in FIXTURES.glob('*.json'))
    assert not mxparams.sniff(tmp_path / 'missing')
    assert mxparams.sniff_bytes(struct.pack('<Q', 0x112)) and not mxparams.sniff_bytes(b'\x12\x01')


# -- symbol JSON -------------------------------------------------------------------------------------------

@pytest.mark.parametrize('name', MODELS)
def test_every_fixture_graph(name):
    symbol, params = _model(name)
    # an old graph gains the nodes MXNet's upgrade adds: count those of MXNet's own upgrade of it
    upgraded = FIXTURES / (name + '.upgraded.json')
    raw = json.loads((upgraded if upgraded.exists() else FIXTURES / (name + '-symbol.json')).read_text())
    ref = np.load(FIXTURES / (name + '.ref.npz'))
    assert len(symbol.nodes) == len(raw['nodes'])
    assert [node.op for node in symbol.nodes] == [node['op'] for node in raw['nodes']]
    assert EXPECTED_OPS[name] <= {node.op for node in symbol.nodes}
    # one head per output MXNet computed, each an output the node has
    assert len(symbol.heads) == len([key for key in ref.files if key.startswith('out:')])
    for node_id, out in symbol.heads:
        count = symbol.num_outputs(node_id)
        assert count is None or out < count
    # variables are the graph inputs MXNet was fed and the saved weights, nothing else
    inputs = {key[3:] for key in ref.files if key.startswith('in:')}
    variables = {node.name for node in symbol.variables}
    weights = set(params.arg_params) | set(params.aux_params)
    assert variables == inputs | weights and not inputs & weights
    assert all(symbol.nodes[i].is_variable for i in symbol.arg_nodes)
    assert {node.name for node in symbol.aux_variables} == set(params.aux_params)
    for node in symbol.nodes:
        assert all(entry.node < node.index for entry in node.inputs)


def test_typed_attributes_of_the_fixtures():
    convnet = read_symbol(FIXTURES / 'convnet-symbol.json')
    assert convnet.version == 10901
    assert convnet.find('conv1').attr.tuple('kernel') == (3, 3)
    assert convnet.find('conv2').attr.bool('no_bias') is True
    assert convnet.find('bn2').attr.bool('fix_gamma') is True and convnet.find('bn2').attr.float('eps') == 1e-3
    assert convnet.find('bn1').attr.bool('fix_gamma') is False
    assert convnet.find('pool_full').attr.str('pooling_convention') == 'full'
    assert convnet.find('fc3').attr.bool('flatten') is False
    shapes = read_symbol(FIXTURES / 'reshape_slice-symbol.json')
    assert shapes.find('r_0m43m1m2').attr.tuple('shape') == (0, -4, 3, -1, -2)
    assert shapes.find('sl').attr.tuple('begin') == (None, 1, None, 0)
    assert shapes.find('sla_none').attr.int('end') is None
    assert shapes.find('r_rev').attr.bool('reverse') is True
    ssd = read_symbol(FIXTURES / 'ssd_head-symbol.json')
    assert ssd.find('prior0').attr.tuple('sizes', item='float') == (0.2, 0.3)
    assert ssd.find('detection').attr.tuple('variances', item='float') == (0.1, 0.1, 0.2, 0.2)
    gluon = read_symbol(FIXTURES / 'gluon_lstm-symbol.json')
    weight = gluon.find('net_lstm0_l0_i2h_weight')
    assert weight.shape == (24, 4) and weight.dtype == np.float32 and weight.attrs['__lr_mult__'] == '1.0'
    assert gluon.find('data').shape is None and gluon.find('data').dtype is None


def test_0_8_graph_upgrades_as_mxnet_does():
    old = read_symbol(FIXTURES / 'legacy_v08-symbol.json')
    new = read_symbol(FIXTURES / 'legacy_v08.upgraded.json')
    assert old.version is None and new.version == 10901
    assert [(n.op, n.name) for n in old.nodes] == [(n.op, n.name) for n in new.nodes]
    assert [[e[:2] for e in n.inputs] for n in old.nodes] == [[e[:2] for e in n.inputs] for n in new.nodes]
    for a, b in zip(old.nodes, new.nodes):
        assert a.attrs == {k: v for k, v in b.attrs.items() if k != '__init__'}, a.name
    assert old.arg_nodes == new.arg_nodes and old.heads == new.heads
    assert [n.name for n in old.aux_variables] == ['bn_moving_mean', 'bn_moving_var']
    params = read_params(FIXTURES / 'legacy_v08-0000.params')
    assert set(params.aux_params) == {'bn_moving_mean', 'bn_moving_var'}


def _graph(nodes, heads, **extra):
    return json.dumps(dict({'nodes': nodes, 'arg_nodes': [i for i, n in enumerate(nodes) if n.get('op') == 'null'],
                            'heads': heads}, **extra))


_VAR = {'op': 'null', 'name': 'x', 'inputs': []}


def test_upgrades_follow_the_version():
    argmax = {'op': 'argmax', 'name': 'am', 'attrs': {'axis': '-1'}, 'inputs': [[0, 0, 0]]}
    new = parse_symbol(_graph([_VAR, argmax], [[1, 0, 0]], attrs={'mxnet_version': ['int', 10901]}))
    assert new.nodes[1].attrs == {'axis': '-1'}
    old = parse_symbol(_graph([_VAR, argmax], [[1, 0, 0]], attrs={'mxnet_version': ['int', 904]}))
    assert old.nodes[1].attrs == {}


def test_batchnorm_of_0_8_gets_its_aux_inputs_and_the_graph_is_renumbered():
    nodes = [_VAR, {'op': 'null', 'name': 'g', 'inputs': []}, {'op': 'null', 'name': 'b', 'inputs': []},
             {'op': 'BatchNorm', 'name': 'bn', 'param': {'eps': '0.01'}, 'inputs': [[0, 0], [1, 0], [2, 0]],
              'control_deps': [4]},
             {'op': 'relu', 'name': 'r', 'inputs': [[3, 0]]}]
    symbol = parse_symbol(_graph(nodes, [[4, 0], [3, 2]], node_row_ptr=[0, 1, 2, 3, 6, 7]))
    assert [n.name for n in symbol.nodes] == ['x', 'g', 'b', 'bn_moving_mean', 'bn_moving_var', 'bn', 'r']
    assert symbol.nodes[5].inputs[3:] == [(3, 0, 1), (4, 0, 1)] and symbol.nodes[5].control_deps == [6]
    assert symbol.nodes[3].attrs == {'eps': '0.01'}
    assert symbol.arg_nodes == [0, 1, 2, 3, 4] and symbol.heads == [(6, 0), (5, 2)]
    assert [symbol.num_outputs(i) for i in range(7)] == [1, 1, 1, 1, 1, 3, 1]
    assert [n.name for n in symbol.aux_variables] == ['bn_moving_mean', 'bn_moving_var']


def test_subgraphs_and_control_deps_are_read():
    body = json.loads(_graph([_VAR, {'op': 'relu', 'name': 'r', 'inputs': [[0, 0]]}], [[1, 0]]))
    loop = {'op': '_foreach', 'name': 'loop', 'attrs': {'num_args': '1'}, 'inputs': [[0, 0, 0]],
            'subgraphs': [body], 'control_deps': [0]}
    symbol = parse_symbol(_graph([_VAR, loop], [[1, 0, 0]]))
    assert symbol.nodes[1].control_deps == [0]
    assert [n.op for n in symbol.nodes[1].subgraphs[0].nodes] == ['null', 'relu']


def test_control_flow_bodies_are_subgraphs():
    symbol = read_symbol(FIXTURES / 'control_flow-symbol.json')
    by_op = {node.op: node for node in symbol.nodes}
    assert [len(by_op[op].subgraphs) for op in ('_foreach', '_while_loop', '_cond')] == [1, 2, 3]
    scan = by_op['_foreach'].subgraphs[0]
    assert {'tanh', 'broadcast_mul', '_mul_scalar'} <= {node.op for node in scan.nodes}
    assert 'w' in {node.name for node in scan.variables} and scan.version is None
    assert by_op['_foreach'].attr.int('num_outputs') == 2
    assert all(sub.heads for node in by_op.values() for sub in node.subgraphs)


@pytest.mark.parametrize('text, match', [
    ('{"nodes": [', 'is not valid JSON: Expecting value at line 1, column 12'),
    ('[1, 2]', 'no JSON object with a "nodes" list'),
    (_graph([_VAR], [[3, 0, 0]]), 'a head points to node 3, outside its 1 nodes'),
    (_graph([_VAR], [[0, 1, 0]], node_row_ptr=[0, 1]), 'reads output 1 of node 0 \\("x"\\), which has 1 outputs'),
    (_graph([_VAR, {'op': 'relu', 'name': 'r', 'inputs': [[0, 2]]}], [[1, 0]], node_row_ptr=[0, 1, 2]),
     'node 1 \\("r"\\) reads output 2 of node 0 \\("x"\\), which has 1 outputs'),
    (_graph([_VAR, {'op': 'relu', 'name': 'r', 'inputs': [[0, -1]]}], [[1, 0]]), 'which has no such output'),
    (_graph([{'op': 'relu', 'name': 'r', 'inputs': [[1, 0]]}, _VAR], [[0, 0]]), 'is not listed before it'),
    (_graph([{'op': 'relu', 'name': 'r', 'inputs': [[5, 0]]}], [[0, 0]]), 'which does not exist'),
    (_graph([{'op': 'relu', 'name': 'r', 'inputs': [['a', 0]]}], [[0, 0]]), 'inputs that are not'),
    (_graph([{'name': 'r', 'inputs': []}], [[0, 0]]), 'node 0 is not an object with string "op"'),
    (json.dumps({'nodes': [_VAR], 'arg_nodes': [1], 'heads': [[0, 0]]}), 'arg_nodes lists 1'),
    (_graph([_VAR], [[0, 0]], attrs={'mxnet_version': 10901}), 'mxnet_version is not'),
    (_graph([_VAR], [[0, 0]], node_row_ptr=[0, 1, 2]), 'node_row_ptr does not fit'),
])
def test_broken_symbols_are_one_line_errors(text, match, tmp_path):
    path = tmp_path / 'bad-symbol.json'
    path.write_text(text)
    with pytest.raises(Error, match=match) as info:
        read_symbol(path)
    message = str(info.value)
    assert '\n' not in message and str(path) in message and '"nodes": [' not in message


def test_a_truncated_fixture_reports_position_not_content(tmp_path):
    text = (FIXTURES / 'convnet-symbol.json').read_text()
    path = tmp_path / 'cut-symbol.json'
    path.write_text(text[:len(text) // 2])
    with pytest.raises(Error, match='is not valid JSON: .* at line [0-9]+, column [0-9]+$') as info:
        read_symbol(path)
    assert len(str(info.value)) < 200
    path.write_text('  ')
    with pytest.raises(Error, match='is empty'):
        read_symbol(path)


def test_symbol_sniffing(tmp_path):
    assert all(mxsymbol.sniff(path) for path in FIXTURES.glob('*.json'))
    assert not any(mxsymbol.sniff(path) for path in FIXTURES.glob('*.params'))
    assert mxsymbol.sniff_bytes(b'\xef\xbb\xbf\n {"nodes": [], "heads": []}')
    assert not mxsymbol.sniff_bytes(b'{"nodes": []}') and not mxsymbol.sniff_bytes(b'["nodes", "heads"]')
    assert not mxsymbol.sniff(tmp_path / 'missing.json')


# -- attribute strings -------------------------------------------------------------------------------------

@pytest.mark.parametrize('text, value', [
    ('(3, 3)', (3, 3)), ('(3,)', (3,)), ('()', ()), ('[1, 2]', (1, 2)), ('(None, 2)', (None, 2)),
    ('(1L, 3L)', (1, 3)), ('(0.5, 1.0)', (0.5, 1.0)), ('True', True), ('False', False), ('0.001', 0.001),
    ('1e-05', 1e-05), ('None', None), ('relu', 'relu'), ('-3', -3), ('["zero", {}]', '["zero", {}]'),
])
def test_parse_value(text, value):
    assert parse_value(text) == value and type(parse_value(text)) is type(value)


def test_typed_getters_and_their_errors():
    attrs = Attrs({'k': '3', 'b': '1', 'f': 'inf', 'n': 'None', 't': '(2, None)', 'x': 'abc'}, 'Pooling "p"')
    assert attrs.tuple('k') == (3,) and attrs.bool('b') is True and attrs.float('f') == float('inf')
    assert attrs.int('n') is None and attrs.tuple('t') == (2, None) and attrs.str('x') == 'abc'
    assert attrs.int('absent', 5) == 5 and attrs.tuple('absent', None) is None
    with pytest.raises(Error, match='^Pooling "p": attribute "x" is "abc", which is not an integer$'):
        attrs.int('x')
    with pytest.raises(Error, match='^Pooling "p": attribute "x" is "abc", which is not a tuple of floats$'):
        attrs.tuple('x', item='float')
    with pytest.raises(Error, match='^Pooling "p" has no attribute "kernel"$'):
        attrs.tuple('kernel')
