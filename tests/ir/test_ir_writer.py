"""The IR v11 writer: OpenVINO reads and runs what it writes, with the numbers numpy gives."""
import hashlib
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from mo.back.ir import ir_types
from mo.back.ir.bin_packer import ALIGNMENT
from mo.back.ir.writer import format_value, serialize_ir, write_ir
from mo.utils.error import Error
from tests.support.oracles import compile_openvino

sys.path.insert(0, os.path.dirname(__file__))
import ir_test_graphs as graphs  # noqa: E402

ov = pytest.importorskip('openvino')


@pytest.fixture(scope='module')
def core():
    return ov.Core()


def run_ir(core, xml_path, feeds):
    """Read, compile on CPU in f32, run; feeds by input index."""
    model = core.read_model(str(xml_path))
    compiled = compile_openvino(model)
    result = compiled(feeds)
    return model, [np.array(result[port]) for port in compiled.outputs]


def layers_of(xml_bytes):
    return ET.fromstring(xml_bytes).find('layers').findall('layer')


def layer_named(xml_bytes, name):
    return next(layer for layer in layers_of(xml_bytes) if layer.get('name') == name)


# ----- graphs that run ---------------------------------------------------------------------------

def test_add_relu_runs_and_keeps_names(core, tmp_path):
    graph = graphs.add_relu()
    xml_path, bin_path = write_ir(graph, str(tmp_path), 'model', {'cli_parameters': {'input_model': 'm.pb'}})
    x = np.random.RandomState(0).randn(4, 3).astype(np.float32)
    model, (out,) = run_ir(core, xml_path, {0: x})
    np.testing.assert_allclose(out, np.maximum(x + graphs.WEIGHTS, 0), rtol=1e-6)
    assert 'relu' in model.outputs[0].get_names()
    assert 'x' in model.inputs[0].get_names()
    assert str(model.inputs[0].get_partial_shape()) == '[?,3]'
    assert model.get_rt_info(['conversion_parameters', 'input_model']).astype(str) == 'm.pb'
    assert model.get_rt_info(['MO_version']).astype(str)

    root = ET.parse(xml_path).getroot()
    assert (root.tag, root.get('version')) == ('net', '11')
    assert [layer.get('id') for layer in layers_of(open(xml_path, 'rb').read())] == ['0', '1', '2', '3', '4']
    param = root.find("layers/layer[@name='x']")
    assert param.find('data').attrib == {'shape': '-1,3', 'element_type': 'f32'}
    add = root.find("layers/layer[@name='add']")
    assert [p.get('id') for p in add.find('input')] == ['0', '1']
    assert [p.get('id') for p in add.find('output')] == ['2']
    assert add.find('output/port').get('precision') == 'FP32'
    result = root.find("layers/layer[@name='out']")
    assert (result.get('type'), result.get('version')) == ('Result', 'opset1')
    assert result.find('output') is None
    assert not [f for f in os.listdir(tmp_path) if f.endswith('.tmp')]


def test_two_layers_given_one_name_get_distinct_names_and_run(core, tmp_path):
    """OpenVINO before 2024 refuses an IR that repeats a layer name; two rules may pick the same one."""
    graph = graphs.add_relu()
    for node in graph.get_op_nodes():
        if node.soft_get('name') in ('add', 'relu'):
            node['name'] = 'same'
    xml_path, _ = write_ir(graph, str(tmp_path), 'model', {})
    names = [layer.get('name') for layer in layers_of(open(xml_path, 'rb').read())]
    assert len(names) == len(set(names)) and {'same', 'same/1'} <= set(names)
    x = np.random.RandomState(1).randn(2, 3).astype(np.float32)
    _, (out,) = run_ir(core, xml_path, {0: x})
    np.testing.assert_allclose(out, np.maximum(x + graphs.WEIGHTS, 0), rtol=1e-6)


def test_concat_of_two_inputs(core, tmp_path):
    graph = graphs.back_graph(
        [('a', 'Parameter', {'shape': [2, 3]}), ('b', 'Parameter', {'shape': [2, 5]}),
         ('cat', 'Concat', {'axis': -1}), ('out', 'Result')],
        [('a', 'cat', 0), ('b', 'cat', 1), ('cat', 'out')])
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    a, b = np.ones((2, 3), np.float32), np.arange(10, dtype=np.float32).reshape(2, 5)
    model, (out,) = run_ir(core, xml_path, {0: a, 1: b})
    np.testing.assert_array_equal(out, np.concatenate([a, b], axis=-1))
    assert layer_named(open(xml_path, 'rb').read(), 'cat').find('data').get('axis') == '-1'


def test_unsqueeze_and_squeeze_with_const_axes(core, tmp_path):
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2, 3]}), ('ua', 'Const', {'value': np.array([0, 3], np.int64)}),
         ('unsq', 'Unsqueeze'), ('sa', 'Const', {'value': np.array([0], np.int32)}),
         ('sq', 'Squeeze'), ('out', 'Result')],
        [('x', 'unsq', 0), ('ua', 'unsq', 1), ('unsq', 'sq', 0), ('sa', 'sq', 1), ('sq', 'out')])
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    model, (out,) = run_ir(core, xml_path, {0: x})
    assert out.shape == (2, 3, 1)
    np.testing.assert_array_equal(out, x.reshape(2, 3, 1))
    xml = open(xml_path, 'rb').read()
    assert layer_named(xml, 'ua').find('data').attrib['element_type'] == 'i64'
    assert layer_named(xml, 'sa').find('data').attrib['element_type'] == 'i32'
    assert [d.text for d in layer_named(xml, 'sq').find('output/port')] == ['2', '3', '1']


def test_equal_and_shared_constants_are_stored_once(core, tmp_path):
    graph = graphs.shared_consts()
    xml_path, bin_path = write_ir(graph, str(tmp_path), 'model')
    xml = open(xml_path, 'rb').read()
    consts = [layer.find('data').attrib for layer in layers_of(xml) if layer.get('type') == 'Const']
    assert len(consts) == 3  # c (used twice) is one layer; c1 and c2 are layers of their own
    assert {(c['offset'], c['size']) for c in consts} == {('0', '24')}
    assert os.path.getsize(bin_path) == 24
    x = np.random.RandomState(1).randn(2, 3).astype(np.float32)
    c = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    _, (out,) = run_ir(core, xml_path, {0: x})
    np.testing.assert_allclose(out, (x + c) * c + c + c, rtol=1e-6)


def test_blobs_are_aligned_and_little_endian(tmp_path):
    big_endian = np.array([1, 2, 3], dtype='>i4')
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [3], 'data_type': np.int32}), ('flag', 'Const', {'value': np.array([True])}),
         ('k', 'Const', {'value': big_endian}), ('add', 'Add'), ('out', 'Result'), ('out2', 'Result')],
        [('x', 'add', 0), ('k', 'add', 1), ('add', 'out'), ('flag', 'out2')])
    xml, blob = serialize_ir(graph)
    k = layer_named(xml, 'k').find('data').attrib
    assert k['element_type'] == 'i32' and int(k['offset']) % ALIGNMENT == 0
    offset = int(k['offset'])
    assert blob[offset:offset + 12] == np.array([1, 2, 3], '<i4').tobytes()


def test_bool_constant(core, tmp_path):
    mask = np.array([[True, False, True, False]])
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2, 4], 'data_type': np.bool_}), ('mask', 'Const', {'value': mask}),
         ('and', 'LogicalAnd'), ('out', 'Result')],
        [('x', 'and', 0), ('mask', 'and', 1), ('and', 'out')])
    xml_path, bin_path = write_ir(graph, str(tmp_path), 'model')
    xml = open(xml_path, 'rb').read()
    data = layer_named(xml, 'mask').find('data').attrib
    assert (data['element_type'], data['shape'], data['size']) == ('boolean', '1,4', '4')
    assert layer_named(xml, 'mask').find('output/port').get('precision') == 'BOOL'
    assert open(bin_path, 'rb').read() == bytes([1, 0, 1, 0])
    x = np.array([[True, True, False, False], [True, True, True, True]])
    _, (out,) = run_ir(core, xml_path, {0: x})
    np.testing.assert_array_equal(out, np.logical_and(x, mask))


def test_compress_to_fp16(core, tmp_path):
    weights = np.random.RandomState(2).randn(3, 8).astype(np.float32)
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [3, 8]}), ('w', 'Const', {'value': weights}),
         ('s', 'Const', {'value': np.array(1.0009765625 + 2 ** -12, np.float32)}),
         ('mul', 'Mul'), ('add', 'Add'), ('out', 'Result')],
        [('x', 'mul', 0), ('w', 'mul', 1), ('mul', 'add', 0), ('s', 'add', 1), ('add', 'out')])
    xml_path, bin_path = write_ir(graph, str(tmp_path), 'model', {'compress_to_fp16': True})
    xml = open(xml_path, 'rb').read()
    const = layer_named(xml, 'w_compressed')
    assert const.find('data').attrib['element_type'] == 'f16' and const.find('data').attrib['size'] == '48'
    convert = layer_named(xml, 'w')
    assert (convert.get('type'), convert.find('data').get('destination_type')) == ('Convert', 'f32')
    assert convert.find("rt_info/attribute[@name='decompression']") is not None
    assert layer_named(xml, 's').find('data').attrib['element_type'] == 'f32'  # scalars stay f32
    x = np.random.RandomState(3).randn(3, 8).astype(np.float32)
    model, (out,) = run_ir(core, xml_path, {0: x})
    expected = x * weights.astype(np.float16).astype(np.float32) + np.float32(1.0009765625 + 2 ** -12)
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)
    assert 'w' in [op.get_friendly_name() for op in model.get_ordered_ops()]


def test_fp16_compression_keeps_out_of_range_constants_f32():
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2]}), ('w', 'Const', {'value': np.array([1e6, 1.0], np.float32)}),
         ('mul', 'Mul'), ('out', 'Result')],
        [('x', 'mul', 0), ('w', 'mul', 1), ('mul', 'out')])
    xml, _ = serialize_ir(graph, {'compress_to_fp16': True})
    assert layer_named(xml, 'w').get('type') == 'Const'
    assert layer_named(xml, 'w').find('data').attrib['element_type'] == 'f32'


# ----- names ------------------------------------------------------------------------------------

def test_tensor_names_are_escaped_and_found_by_openvino(core, tmp_path):
    graph = graphs.add_relu()
    relu_out = graph.nodes['relu/out']
    relu_out['tensor_names'] = ['model/relu:0', 'odd,name']
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    port = layer_named(open(xml_path, 'rb').read(), 'relu').find('output/port')
    assert port.get('names') == 'model/relu:0,odd\\,name,relu'
    model = core.read_model(xml_path)
    assert model.outputs[0].get_names() == {'model/relu:0', 'odd,name', 'relu'}
    assert model.output('odd,name').get_any_name()



def test_xml_special_characters_in_names_survive(core, tmp_path):
    graph = graphs.add_relu()
    odd = 'a&b <c> "d"\te\nf'
    graph.nodes['relu/out']['tensor_names'] = [odd]
    graph.nodes['relu']['name'] = 'relu & <co>'
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    model = core.read_model(xml_path)
    assert odd in model.outputs[0].get_names()
    assert 'relu & <co>' in {op.get_friendly_name() for op in model.get_ops()}


def test_derived_name_is_left_out_only_when_a_written_tensor_claims_it(core, tmp_path):
    """A tensor takes its op's name unless another tensor written to the IR holds that name explicitly; a name
    held only by a record nothing writes (a data node left unconnected) claims nothing."""
    graph = graphs.add_relu()
    graph.nodes['relu/out']['tensor_names'] = ['add']  # a later tensor claims the name of an earlier op
    graph.add_node('stale', kind='data', name='stale', shape=np.array([1]), value=None, tensor_names=['x'])
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    model = core.read_model(xml_path)
    assert model.inputs[0].get_names() == {'x'}  # 'x' of the unconnected record is no claim
    add, relu = (op for op in model.get_ordered_ops() if op.get_friendly_name() in ('add', 'relu'))
    assert add.output(0).get_names() == set()
    assert relu.output(0).get_names() == {'add', 'relu'}


def test_long_network_with_many_constants_runs(core, tmp_path):
    """Thousands of layers (their text goes to the file in several chunks) and constants small and large,
    contiguous and transposed (the small ones' bytes go out in batches): OpenVINO runs what numpy computes,
    and the file write_ir writes holds the bytes serialize_ir returns."""
    rng = np.random.RandomState(5)
    nodes, edges = [('x', 'Parameter', {'shape': [120, 125]}), ('y', 'Parameter', {'shape': [128, 160]})], []
    small = [rng.randn(120, 125).astype(np.float32) for _ in range(20)]  # 60 kB each: 1.2 MB of small blobs
    scalars = [np.array(k % 7 - 3, np.float32) for k in range(2100)]
    big = rng.randn(160, 128).astype(np.float32).T  # a transposed view of 80 kB
    previous = 'x'
    for k, value in enumerate(small + scalars):
        nodes += [('c{}'.format(k), 'Const', {'value': value}), ('add{}'.format(k), 'Add')]
        edges += [(previous, 'add{}'.format(k), 0), ('c{}'.format(k), 'add{}'.format(k), 1)]
        previous = 'add{}'.format(k)
    nodes += [('big', 'Const', {'value': big}), ('addbig', 'Add'), ('out', 'Result'), ('outbig', 'Result')]
    edges += [(previous, 'out'), ('y', 'addbig', 0), ('big', 'addbig', 1), ('addbig', 'outbig')]
    graph = graphs.back_graph(nodes, edges)
    xml_path, bin_path = write_ir(graph, str(tmp_path), 'model')
    assert (open(xml_path, 'rb').read(), open(bin_path, 'rb').read()) == serialize_ir(graph, {'model_name': 'model'})
    x = rng.randn(120, 125).astype(np.float32)
    y = rng.randn(128, 160).astype(np.float32)
    _, (out, outbig) = run_ir(core, xml_path, {0: x, 1: y})
    expected = x
    for value in small + scalars:
        expected = expected + value
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(outbig, y + big)


def test_edges_are_listed_by_destination_whatever_the_order_they_came_in():
    from mo.back.ir.xml_builder import EdgeList
    edges = EdgeList()
    for edge in [(0, 1, 2, 0), (1, 1, 3, 1), (4, 2, 3, 0), (5, 0, 2, 1)]:
        edges.append(*edge)
    assert len(edges) == 4
    assert [tuple(int(v) for v in re.findall(r'"(\d+)"', line)) for line in edges.lines(2)] == [
        (0, 1, 2, 0), (5, 0, 2, 1), (4, 2, 3, 0), (1, 1, 3, 1)]


def test_edge_blocks_hold_the_edge_lines_in_order():
    from mo.back.ir.xml_builder import EdgeList
    for edge_list in ([(k, 0, k + 1, 0) for k in range(10)], [(0, 1, 2, 0), (1, 1, 3, 1), (4, 2, 3, 0), (5, 0, 2, 1)]):
        edges = EdgeList()
        for edge in edge_list:
            edges.append(*edge)
        blocks = list(edges.blocks(3, block_edges=3))
        assert len(blocks) == (len(edge_list) + 2) // 3
        assert '\n'.join(blocks) == '\n'.join(edges.lines(3))


def test_tensor_read_by_many_inputs_and_a_port_with_two_data_nodes(core, tmp_path):
    """Where an output was written is kept until its last reader is written: a tensor read by several layers and
    twice by one, and an output port with a second data node (each read through its own), all find their source."""
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2, 3]}), ('sq', 'Mul'), ('add', 'Add'), ('relu', 'ReLU'),
         ('tanh', 'Tanh'), ('sig', 'Sigmoid'), ('out0', 'Result'), ('out1', 'Result'), ('out2', 'Result')],
        [('x', 'sq', 0), ('x', 'sq', 1), ('sq', 'add', 0), ('x', 'add', 1), ('x', 'relu'), ('add', 'tanh'),
         ('relu', 'out0'), ('tanh', 'out1'), ('add', 'sig'), ('sig', 'out2')])
    # the Sigmoid reads the Add through a second data node on the Add's output port
    [(first_data, _)] = [(d, k) for d, keyed in graph.out_adjacency('add').items() for k in keyed]
    [(sig_edge_key, sig_edge)] = graph.out_adjacency(first_data)['sig'].items()
    graph.add_node('add/second', **{k: v for k, v in graph.node_attrs(first_data).items() if k != 'tensor_names'})
    graph.add_edge('add', 'add/second', out=0)
    graph.add_edge('add/second', 'sig', **dict(sig_edge))
    graph.remove_edge(first_data, 'sig', sig_edge_key)
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    x = np.random.RandomState(3).randn(2, 3).astype(np.float32)
    model, outs = run_ir(core, xml_path, {0: x})
    by_name = dict(zip([out.get_node().get_friendly_name() for out in model.outputs], outs))
    np.testing.assert_allclose(by_name['out0'], np.maximum(x, 0), rtol=1e-6)
    np.testing.assert_allclose(by_name['out1'], np.tanh(x * x + x), rtol=1e-5)
    np.testing.assert_allclose(by_name['out2'], 1 / (1 + np.exp(-(x * x + x))), rtol=1e-5)


# ----- determinism ------------------------------------------------------------------------------

_DIGEST_SCRIPT = r'''
import hashlib, sys
sys.path.insert(0, sys.argv[1])
import ir_test_graphs
from mo.back.ir.writer import serialize_ir
xml, blob = serialize_ir(ir_test_graphs.mixed(), {'compress_to_fp16': True,
                         'cli_parameters': {'z_opt': '1', 'a_opt': 'x', 'input_model': 'm.pb'}})
print(hashlib.sha256(xml + b'|' + blob).hexdigest())
'''


def test_output_is_byte_identical_whatever_the_hash_seed():
    meta = {'compress_to_fp16': True, 'cli_parameters': {'z_opt': '1', 'a_opt': 'x', 'input_model': 'm.pb'}}
    first = serialize_ir(graphs.mixed(), meta)
    assert serialize_ir(graphs.mixed(), meta) == first
    digest = hashlib.sha256(first[0] + b'|' + first[1]).hexdigest()
    env = dict(os.environ, PYTHONHASHSEED='12345')
    child = subprocess.run([sys.executable, '-c', _DIGEST_SCRIPT, os.path.dirname(__file__)], env=env,
                           capture_output=True, text=True, check=True)
    assert child.stdout.strip() == digest
    params = ET.fromstring(first[0]).find('rt_info/conversion_parameters')
    assert [e.tag for e in params] == ['a_opt', 'input_model', 'z_opt']


def test_mixed_graph_runs(core, tmp_path):
    graph = graphs.mixed()
    w = graph.nodes['w/out']['value']
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    a, b = np.random.RandomState(4).randn(2, 1, 4).astype(np.float32)
    model, (out0, out1) = run_ir(core, xml_path, {0: a, 1: b})
    expected = np.concatenate([1 / (1 + np.exp(-(a * w))), b], axis=1)[None]
    np.testing.assert_allclose(out0, expected, rtol=1e-5)
    np.testing.assert_array_equal(out1, np.maximum(b, 0))


# ----- failures ---------------------------------------------------------------------------------

def _unlowered_graph():
    from mo.ops.eltwise import Eltwise  # noqa: F401  (registers the legacy op)
    return graphs.back_graph(
        [('x', 'Parameter', {'shape': [2]}), ('y', 'Parameter', {'shape': [2]}),
         ('legacy_sum', 'Eltwise', {'operation': 'sum'}), ('out', 'Result')],
        [('x', 'legacy_sum', 0), ('y', 'legacy_sum', 1), ('legacy_sum', 'out')])


def test_op_without_type_is_an_error_and_writes_nothing(tmp_path):
    with pytest.raises(Error, match=r'"legacy_sum" \(Eltwise\)'):
        write_ir(_unlowered_graph(), str(tmp_path), 'model')
    assert os.listdir(tmp_path) == []


def test_failure_leaves_existing_model_untouched(tmp_path):
    (tmp_path / 'model.xml').write_bytes(b'old xml')
    (tmp_path / 'model.bin').write_bytes(b'old bin')
    with pytest.raises(Error):
        write_ir(_unlowered_graph(), str(tmp_path), 'model')
    assert (tmp_path / 'model.xml').read_bytes() == b'old xml'
    assert (tmp_path / 'model.bin').read_bytes() == b'old bin'
    assert sorted(os.listdir(tmp_path)) == ['model.bin', 'model.xml']


def test_failure_while_writing_removes_temporaries(tmp_path, monkeypatch):
    import mo.back.ir.writer as writer
    (tmp_path / 'model.xml').write_bytes(b'old xml')
    real_replace = writer.replace_file

    def failing_replace(src, dst):
        if dst.endswith('.xml'):
            raise OSError('disk full')
        return real_replace(src, dst)

    monkeypatch.setattr(writer, 'replace_file', failing_replace)
    with pytest.raises(OSError):
        write_ir(graphs.add_relu(), str(tmp_path), 'model')
    assert (tmp_path / 'model.xml').read_bytes() == b'old xml'
    assert not [f for f in os.listdir(tmp_path) if f.endswith('.tmp')]


@pytest.mark.parametrize('exchange', [True, False], ids=['names exchanged', 'os.replace'])
def test_writing_over_an_existing_model_replaces_it_whole(core, tmp_path, monkeypatch, exchange):
    """A second conversion into the same directory replaces both files, as a rename would: a hard link to
    the old .bin keeps the old bytes, a symbolic link named model.xml becomes the new file and its target
    is left alone, no temporary file remains, and OpenVINO runs the new model."""
    import mo.utils.file_utils as file_utils
    if not exchange:  # a system without renameat2: plain os.replace
        monkeypatch.setattr(file_utils, '_renameat2', lambda: None)
    write_ir(graphs.mixed(), str(tmp_path), 'model')
    old_bin = (tmp_path / 'model.bin').read_bytes()
    os.link(tmp_path / 'model.bin', tmp_path / 'kept.bin')
    (tmp_path / 'elsewhere.xml').write_bytes(b'not an IR')
    os.replace(tmp_path / 'model.xml', tmp_path / 'old.xml')
    os.symlink('elsewhere.xml', tmp_path / 'model.xml')

    xml_path, _ = write_ir(graphs.add_relu(), str(tmp_path), 'model')
    assert sorted(os.listdir(tmp_path)) == ['elsewhere.xml', 'kept.bin', 'model.bin', 'model.xml', 'old.xml']
    assert (tmp_path / 'kept.bin').read_bytes() == old_bin != (tmp_path / 'model.bin').read_bytes()
    assert not os.path.islink(xml_path) and (tmp_path / 'elsewhere.xml').read_bytes() == b'not an IR'
    x = np.random.RandomState(1).randn(4, 3).astype(np.float32)
    _, (out,) = run_ir(core, xml_path, {0: x})
    np.testing.assert_allclose(out, np.maximum(x + graphs.WEIGHTS, 0), rtol=1e-6)


def test_a_directory_in_the_way_is_not_replaced(tmp_path):
    """Where the model's file name is a directory, the write fails as a rename would and changes nothing."""
    (tmp_path / 'model.bin').mkdir()
    (tmp_path / 'model.bin' / 'inside').write_bytes(b'x')
    with pytest.raises(OSError):
        write_ir(graphs.add_relu(), str(tmp_path), 'model')
    assert sorted(os.listdir(tmp_path)) == ['model.bin']
    assert os.listdir(tmp_path / 'model.bin') == ['inside']


def test_failure_of_the_bin_writing_thread_is_raised_and_leaves_nothing(tmp_path, monkeypatch):
    import mo.back.ir.background_writer as background
    (tmp_path / 'model.bin').write_bytes(b'old bin')

    def failing_bytes(chunk):
        raise OSError('disk full')

    monkeypatch.setattr(background, 'chunk_bytes', failing_bytes)
    with pytest.raises(OSError, match='disk full'):
        write_ir(graphs.mixed(), str(tmp_path), 'model')
    assert sorted(os.listdir(tmp_path)) == ['model.bin']
    assert (tmp_path / 'model.bin').read_bytes() == b'old bin'


def test_gap_in_inputs_is_an_error():
    graph = graphs.back_graph(
        [('a', 'Parameter', {'shape': [2]}), ('b', 'Parameter', {'shape': [2]}),
         ('cat', 'Concat', {'axis': 0, 'in_ports_count': 3}), ('out', 'Result')],
        [('a', 'cat', 0), ('b', 'cat', 2), ('cat', 'out')])
    with pytest.raises(Error, match='"cat"'):
        serialize_ir(graph)


def test_tensor_with_two_producers_is_an_error_naming_its_reader():
    graph = graphs.add_relu()
    graph.add_edge('w', 'add/out', out=1)  # a second op writes the tensor that relu reads
    with pytest.raises(Error, match=r'Input 0 of "relu" \(ReLU\) is not fed by exactly one op'):
        serialize_ir(graph)


def test_control_edges_are_no_inputs(core, tmp_path):
    """A control dependency (an edge marked ``control_flow_edge``) orders ops in TF; the IR has no such edge."""
    graph = graphs.add_relu()
    graph.add_edge('w/out', 'relu', **{'in': 1, 'control_flow_edge': True})
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    x = np.random.RandomState(1).randn(2, 3).astype(np.float32)
    _, (out,) = run_ir(core, xml_path, {0: x})
    np.testing.assert_allclose(out, np.maximum(x + graphs.WEIGHTS, 0), rtol=1e-6)
    assert len(layer_named(open(xml_path, 'rb').read(), 'relu').find('input')) == 1


# ----- formats ----------------------------------------------------------------------------------

@pytest.mark.parametrize('value, text', [
    (True, 'true'), (np.bool_(False), 'false'), (3, '3'), (np.int64(-1), '-1'),
    ([1, 2, 3], '1,2,3'), ((0.5, 2), '0.5,2'), (np.array([[1, 0], [0, 1]]), '1,0,0,1'), (np.array(7), '7'),
    (1e-5, '1e-05'), (0.1, '0.1'), (np.float32(0.1), '0.1'), (np.float32(1 / 3), '0.33333334'),
    (np.float32, 'f32'), (np.dtype(np.int64), 'i64'), (np.bool_, 'boolean'), ('same', 'same'), ([], ''),
])
def test_format_value(value, text):
    assert format_value(value) == text
    if isinstance(value, (float, np.floating)):
        assert type(value)(text) == value  # round-trips


def test_ir_types_round_trip():
    for dtype in (np.float32, np.float16, np.float64, np.int64, np.int32, np.int16, np.int8, np.uint8,
                  np.uint16, np.uint32, np.uint64, np.bool_):
        assert ir_types.dtype_from_element_type(ir_types.element_type(dtype)) == np.dtype(dtype)
        assert ir_types.dtype_from_precision(ir_types.precision(dtype)) == np.dtype(dtype)
    assert (ir_types.element_type(np.bool_), ir_types.precision(np.bool_)) == ('boolean', 'BOOL')
    assert ir_types.element_type(np.dtype('>f4')) == 'f32'
    with pytest.raises(Error, match='complex64'):
        ir_types.element_type(np.complex64)
    assert re.fullmatch(r'[a-z0-9]+', ir_types.element_type(np.uint64))


def test_attributes_are_read_back_by_openvino(core, tmp_path):
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2, 3]}), ('axes', 'Const', {'value': np.array([1], np.int64)}),
         ('mvn', 'MVN', {'eps': 1e-9}), ('clamp', 'Clamp', {'min': -0.5, 'max': np.float32(0.75)}),
         ('elu', 'Elu', {'alpha': 0.1}), ('out', 'Result')],
        [('x', 'mvn', 0), ('axes', 'mvn', 1), ('mvn', 'clamp'), ('clamp', 'elu'), ('elu', 'out')])
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    xml = open(xml_path, 'rb').read()
    assert layer_named(xml, 'mvn').find('data').attrib == {'eps': '1e-09', 'eps_mode': 'inside_sqrt',
                                                           'normalize_variance': '1'}
    assert layer_named(xml, 'clamp').find('data').attrib == {'min': '-0.5', 'max': '0.75'}
    x = np.random.RandomState(5).randn(2, 3).astype(np.float32)
    model, (out,) = run_ir(core, xml_path, {0: x})
    attrs = {op.get_type_name(): op.get_attributes() for op in model.get_ordered_ops()}
    assert attrs['Clamp'] == {'min': -0.5, 'max': 0.75} and attrs['MVN']['normalize_variance'] is True
    y = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-9)
    y = np.clip(y, -0.5, 0.75)
    np.testing.assert_allclose(out, np.where(y > 0, y, 0.1 * (np.exp(y) - 1)), rtol=1e-5, atol=1e-6)


def test_unused_input_keeps_its_port_after_clean_up(core, tmp_path):
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2, 3]}), ('unused', 'Parameter', {'shape': [4], 'data_type': np.int32}),
         ('relu', 'ReLU'), ('out', 'Result')],
        [('x', 'relu'), ('relu', 'out')])
    graph.clean_up()
    xml_path, _ = write_ir(graph, str(tmp_path), 'model')
    model, (out,) = run_ir(core, xml_path, {0: -np.ones((2, 3), np.float32), 1: np.ones(4, np.int32)})
    assert [sorted(i.get_names()) for i in model.inputs] == [['x'], ['unused']]
    assert model.inputs[1].get_element_type() == ov.Type.i32
    np.testing.assert_array_equal(out, np.zeros((2, 3), np.float32))


def test_layers_that_ask_for_one_name_get_numbers_in_writing_order(core, tmp_path):
    """Two ops named alike, an op whose own name is a number another layer took, and ops named like the
    ``_compressed`` layer of an FP16 constant, one written before that constant (a Parameter) and one after:
    the layer written first keeps the name, the later ones get ``/1``, ``/2``... (OpenVINO before 2024
    refused a repeated name)."""
    rng = np.random.RandomState(4)
    w, v = rng.randn(2, 3).astype(np.float32), rng.randn(2, 3).astype(np.float32)
    graph = graphs.back_graph(
        [('x', 'Parameter', {'shape': [2, 3], 'name': 'v_compressed'}), ('a', 'ReLU', {'name': 'dup'}),
         ('b', 'Tanh', {'name': 'dup'}), ('c', 'Sigmoid', {'name': 'dup/1'}), ('p', 'ReLU'), ('w', 'Const', {'value': w}),
         ('m', 'Mul', {'name': 'w_compressed'}), ('v', 'Const', {'value': v}), ('q', 'Add'), ('out', 'Result')],
        [('x', 'a'), ('a', 'b'), ('b', 'c'), ('c', 'p'), ('p', 'm', 0), ('w', 'm', 1), ('m', 'q', 0), ('v', 'q', 1),
         ('q', 'out')])
    xml_path, _ = write_ir(graph, str(tmp_path), 'model', {'compress_to_fp16': True})
    xml = open(xml_path, 'rb').read()
    layers = {layer.get('name'): (int(layer.get('id')), layer.get('type')) for layer in layers_of(xml)}
    assert len(layers) == len(layers_of(xml)), 'a layer name is repeated'

    def first_keeps_the_name(name, asking):
        """The layers of types ``asking`` asked for ``name``: the one written first (lowest id) has it."""
        got = sorted(layers[n] for n in (name, name + '/1'))
        assert sorted(t for _, t in got) == sorted(asking) and got[0] == layers[name]

    first_keeps_the_name('dup', ['Relu', 'Tanh'])
    assert layers['dup/1/1'][1] == 'Sigmoid'  # its own name, 'dup/1', was the Tanh's by then
    first_keeps_the_name('v_compressed', ['Parameter', 'Const'])
    first_keeps_the_name('w_compressed', ['Multiply', 'Const'])
    assert layers['v'][1] == layers['w'][1] == 'Convert'
    x = rng.randn(2, 3).astype(np.float32)
    _, (out,) = run_ir(core, xml_path, {0: x})
    half = lambda a: a.astype(np.float16).astype(np.float32)  # noqa: E731
    expected = np.maximum(1 / (1 + np.exp(-np.tanh(np.maximum(x, 0)))), 0) * half(w) + half(v)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
