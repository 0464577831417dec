"""JSON transformation configs on ONNX models (issue 25): ``scope`` (a PyTorch export's ``/``-separated node-name
prefixes), ``points`` (ONNX node and tensor names), ``general``, and ``--tensorflow_custom_operations_config_update``
on an ONNX model; and README's ONNX extension examples (``tests/onnx/readme_ext``), run as the README shows them.

The test model is a small "detector" named as PyTorch names nodes (``/backbone/conv/Conv``,
``/head/cls_act/Exp``, initializers ``head.cls.weight``); its heads end in hand-written softmaxes, which the
configs replace by one SoftMax: the numbers must stay onnxruntime's.
"""
import json
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import mo
from mo.main import main
from mo.utils.custom_replacement_config import load_config
from mo.utils.error import Error
from tests.onnx.onnx_oracle import assert_close, make_model, run_ir, run_onnxruntime

onnx = pytest.importorskip('onnx')
from onnx import TensorProto, helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
README_EXT = os.path.join(HERE, 'readme_ext')
ROOT = os.path.dirname(os.path.dirname(HERE))
F = TensorProto.FLOAT
OUTPUTS = ['scores', 'objectness', 'boxes']
HEADS = ['/head/cls_act', '/head/obj_act']


def softmax_scope(scope, src, out):
    """A softmax over channels as a hand-written PyTorch module ``scope`` exports it."""
    t = '{}/{{}}_output_0'.format(scope).format
    return [
        helper.make_node('ReduceMax', [src], [t('ReduceMax')], name=scope + '/ReduceMax', axes=[1], keepdims=1),
        helper.make_node('Sub', [src, t('ReduceMax')], [t('Sub')], name=scope + '/Sub'),
        helper.make_node('Exp', [t('Sub')], [t('Exp')], name=scope + '/Exp'),
        helper.make_node('Constant', [], [t('Constant')], name=scope + '/Constant',
                         value=helper.make_tensor('axes', TensorProto.INT64, [1], [1])),
        helper.make_node('ReduceSum', [t('Exp'), t('Constant')], [t('ReduceSum')], name=scope + '/ReduceSum',
                         keepdims=1),
        helper.make_node('Div', [t('Exp'), t('ReduceSum')], [out], name=scope + '/Div'),
    ]


def detector():
    rng = np.random.default_rng(0)

    def weight(*shape):
        return (rng.standard_normal(shape) * 0.5).astype(np.float32)
    initializers = {'backbone.conv.weight': weight(4, 3, 3, 3), 'backbone.conv.bias': weight(4),
                    'head.cls.weight': weight(5, 4, 1, 1), 'head.cls.bias': weight(5),
                    'head.obj.weight': weight(2, 4, 1, 1), 'head.box.weight': weight(4, 4, 1, 1)}
    feature = '/backbone/relu/Relu_output_0'
    nodes = [
        helper.make_node('Conv', ['x', 'backbone.conv.weight', 'backbone.conv.bias'], ['/backbone/conv/Conv_output_0'],
                         name='/backbone/conv/Conv', pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node('Relu', ['/backbone/conv/Conv_output_0'], [feature], name='/backbone/relu/Relu'),
        helper.make_node('Conv', [feature, 'head.cls.weight', 'head.cls.bias'], ['/head/cls/Conv_output_0'],
                         name='/head/cls/Conv', kernel_shape=[1, 1]),
        helper.make_node('Conv', [feature, 'head.obj.weight'], ['/head/obj/Conv_output_0'], name='/head/obj/Conv',
                         kernel_shape=[1, 1]),
        helper.make_node('Conv', [feature, 'head.box.weight'], ['boxes'], name='/head/box/Conv', kernel_shape=[1, 1]),
    ] + softmax_scope(HEADS[0], '/head/cls/Conv_output_0', 'scores') \
        + softmax_scope(HEADS[1], '/head/obj/Conv_output_0', 'objectness')
    return make_model(nodes, [('x', F, [1, 3, 8, 8])],
                      [('scores', F, [1, 5, 8, 8]), ('objectness', F, [1, 2, 8, 8]), ('boxes', F, [1, 4, 8, 8])],
                      initializers=initializers)


@pytest.fixture
def model_path(tmp_path):
    path = str(tmp_path / 'detector.onnx')
    onnx.save(detector(), path)
    return path


def write_json(path, data):
    with open(str(path), 'w') as handle:
        json.dump(data, handle, indent=2)
    return str(path)


def x_feed():
    return {'x': np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype(np.float32)}


def layer_types(xml_path):
    return sorted(layer.get('type') for layer in ET.parse(str(xml_path)).getroot().iter('layer'))


def assert_like_onnxruntime(xml_path, reference_model=None, outputs=OUTPUTS):
    feeds = x_feed()
    expected = run_onnxruntime(reference_model or detector(), feeds)
    for got, want in zip(run_ir(xml_path, feeds, outputs), expected):
        assert_close(got, want)


def convert(model_path, tmp_path, config, extensions=(README_EXT,)):
    return mo.convert_model(model_path, output_dir=str(tmp_path / 'ir'), transformations_config=config,
                            extensions=list(extensions))


def loaded_graph(model_path):
    """The model as --tensorflow_custom_operations_config_update sees it: read, not extracted."""
    from mo.graph.graph import Graph
    from mo.pipeline.runner import apply_replacements
    from mo.utils.class_registration import pipeline
    graph = Graph(cmd_params={'input_model': model_path, 'framework': 'onnx'}, source_format='onnx', layout='NCHW')
    apply_replacements(graph, [i for i in pipeline(['load']) if i.id in ('ONNXLoader', 'ONNXInputsOutputs')])
    return graph


def names(graph, node_ids):
    return sorted(graph.nodes[n]['name'] for n in node_ids)


# ----- scope ------------------------------------------------------------------------------------------------------
def test_scope_matches_a_pytorch_module_with_its_weights(model_path, tmp_path):
    config = write_json(tmp_path / 'c.json', [
        {'id': 'S', 'match_kind': 'scope', 'instances': ['/head/cls_act', '.*/box']}])
    graph = loaded_graph(model_path)
    act, box = load_config(config)[0].matches(graph)
    assert act.scope == '/head/cls_act'
    assert names(graph, act.matched_nodes_names()) == sorted('/head/cls_act/' + op for op in (
        'ReduceMax', 'Sub', 'Exp', 'Constant', 'ReduceSum', 'Div'))
    # one input tensor (the class logits) read by ReduceMax and Sub; one output
    assert sorted((n.name, port) for n, port in act.input_nodes(0)) == [('/head/cls_act/ReduceMax', 0),
                                                                         ('/head/cls_act/Sub', 0)]
    assert act.inputs_count() == 1 and act.output_node(0)[0].name == '/head/cls_act/Div'
    assert act.node_by_pattern('Exp$').name == '/head/cls_act/Exp'
    # an initializer only the scope reads is the module's weight: inside, not an input
    assert box.scope == '/head/box'
    assert names(graph, box.matched_nodes_names()) == ['/head/box/Conv', 'head.box.weight']
    assert box.inputs_count() == 1 and box.outputs_count() == 1


def test_scope_config_replacer_matches_onnxruntime(model_path, tmp_path):
    config = write_json(tmp_path / 'c.json', [
        {'id': 'SoftmaxSubgraph', 'match_kind': 'scope', 'instances': HEADS, 'custom_attributes': {'axis': 1}}])
    result = convert(model_path, tmp_path, config)
    types = layer_types(result.xml_path)
    assert types.count('SoftMax') == 2 and not {'Exp', 'ReduceMax', 'ReduceSum', 'Divide'} & set(types)
    assert_like_onnxruntime(result.xml_path)


def test_scope_config_with_op_and_custom_attributes(model_path, tmp_path):
    """No replacer class: each scope becomes one node of ``op``, custom_attributes in the IR's <data>."""
    config = write_json(tmp_path / 'c.json', [
        {'id': 'Heads', 'match_kind': 'scope', 'op': 'SoftMax', 'instances': HEADS, 'custom_attributes': {'axis': 1}}])
    result = convert(model_path, tmp_path, config, extensions=())
    softmaxes = [layer for layer in ET.parse(str(result.xml_path)).getroot().iter('layer')
                 if layer.get('type') == 'SoftMax']
    assert sorted(layer.get('name') for layer in softmaxes) == HEADS
    assert all(layer.find('data').get('axis') == '1' for layer in softmaxes)
    assert_like_onnxruntime(result.xml_path)


@pytest.mark.ir_not_compiled('BoxDecoder is a custom layer (opset "extension")')
def test_scope_config_with_a_custom_op(model_path, tmp_path):
    config = write_json(tmp_path / 'c.json', [
        {'id': 'Box', 'match_kind': 'scope', 'op': 'BoxDecoder', 'instances': ['/head/box'],
         'custom_attributes': {'variance': [0.1, 0.2], 'clip': True}}])
    result = convert(model_path, tmp_path, config, extensions=())
    [layer] = [lay for lay in ET.parse(str(result.xml_path)).getroot().iter('layer') if lay.get('type') == 'BoxDecoder']
    assert layer.get('name') == '/head/box' and layer.get('version') == 'extension'
    assert layer.find('data').attrib == {'variance': '0.1,0.2', 'clip': 'true'}
    # the sub-graph's input is the backbone feature (the weights went with the scope); shape from the sub-graph
    assert [int(d.text) for d in layer.find('output').iter('dim')] == [1, 4, 8, 8]
    assert len(layer.find('input')) == 1


# ----- points -----------------------------------------------------------------------------------------------------
def points(start, end, **extra):
    item = {'id': 'SoftmaxSubgraph', 'match_kind': 'points', 'custom_attributes': {'axis': 1},
            'instances': {'start_points': start, 'end_points': end}}
    item.update(extra)
    return [item]


def test_points_by_node_and_tensor_names(model_path, tmp_path):
    # a tensor name stands for the node producing it: '/head/cls_act/ReduceMax_output_0' is ReduceMax's output,
    # 'scores' the Div's
    config = write_json(tmp_path / 'c.json', points(['/head/cls_act/ReduceMax_output_0', '/head/cls_act/Sub'],
                                                    ['scores']))
    graph = loaded_graph(model_path)
    [match] = load_config(config)[0].matches(graph)
    assert names(graph, match.matched_nodes_names()) == sorted('/head/cls_act/' + op for op in (
        'ReduceMax', 'Sub', 'Exp', 'Constant', 'ReduceSum', 'Div'))
    assert [match.single_input_node(i)[0].name for i in range(2)] == ['/head/cls_act/ReduceMax', '/head/cls_act/Sub']
    assert match.output_node(0)[0].name == '/head/cls_act/Div'
    result = convert(model_path, tmp_path, config)
    types = layer_types(result.xml_path)
    assert types.count('SoftMax') == 1 and types.count('Exp') == 1  # the other head is as it was
    assert_like_onnxruntime(result.xml_path)


def test_points_name_nothing_in_the_model(model_path, tmp_path):
    config = write_json(tmp_path / 'c.json', points(['/head/cls_act/Nope'], ['scores']))
    with pytest.raises(Error, match=r'instances.start_points\[0\] names node "/head/cls_act/Nope", which is not in'):
        convert(model_path, tmp_path, config)


def test_points_pulling_in_a_model_input_is_an_error(model_path, tmp_path):
    config = write_json(tmp_path / 'c.json', points(['/head/cls_act/ReduceSum'], ['scores']))
    with pytest.raises(Error, match='reaches the model input "x"'):
        convert(model_path, tmp_path, config)


# ----- general ----------------------------------------------------------------------------------------------------
def test_general_config_custom_attributes_reach_the_replacer(model_path, tmp_path):
    config = os.path.join(README_EXT, 'output_sigmoid.json')
    result = convert(model_path, tmp_path, config)
    assert layer_types(result.xml_path).count('Sigmoid') == 1
    # the reference: the same model with a Sigmoid on "boxes", which keeps its name
    model = detector()
    [box] = [n for n in model.graph.node if n.output[0] == 'boxes']
    box.output[0] = 'boxes_logits'
    model.graph.node.append(helper.make_node('Sigmoid', ['boxes_logits'], ['boxes'], name='/head/box/Sigmoid'))
    assert_like_onnxruntime(result.xml_path, model)


def test_general_config_error_from_the_replacer(model_path, tmp_path):
    config = write_json(tmp_path / 'c.json', [{'id': 'OutputSigmoid', 'match_kind': 'general',
                                               'custom_attributes': {'outputs': ['nope']}}])
    with pytest.raises(Error, match=r"no outputs \['nope'\]"):
        convert(model_path, tmp_path, config)


# ----- --tensorflow_custom_operations_config_update ----------------------------------------------------------------
def test_config_update_on_an_onnx_model(model_path, tmp_path):
    template = [{'id': 'SoftmaxSubgraph', 'match_kind': 'scope', 'instances': HEADS,
                 'custom_attributes': {'axis': 1}},
                {'id': 'Box', 'match_kind': 'scope', 'op': 'BoxDecoder', 'instances': ['/head/box']}]
    config = write_json(tmp_path / 'c.json', template)
    out = tmp_path / 'no_ir'
    assert main(['convert', '--input_model', model_path, '--output_dir', str(out),
                 '--tensorflow_custom_operations_config_update', config]) == 0
    assert not out.exists() or not os.listdir(str(out))
    data = json.load(open(config))
    assert [list(item) for item in data] == [list(t) + ['inputs', 'outputs'] for t in template]  # keys kept
    assert data[0]['inputs'] == [[{'node': 'ReduceMax$', 'port': 0}, {'node': 'Sub$', 'port': 0}]]
    assert data[0]['outputs'] == [{'node': 'Div$', 'port': 0}]
    assert data[1]['inputs'] == [[{'node': 'Conv$', 'port': 0}]] and data[1]['outputs'] == [{'node': 'Conv$',
                                                                                            'port': 0}]
    load_config(config)  # still a valid config
    # and it drives the conversion: the configured inputs/outputs, both heads
    del data[1]
    write_json(config, data)
    result = convert(model_path, tmp_path, config)
    assert layer_types(result.xml_path).count('SoftMax') == 2
    assert_like_onnxruntime(result.xml_path)


@pytest.mark.parametrize('instances', [['/head/cls_act', '/head/nowhere'], ['/neck']])
def test_a_failed_update_leaves_the_config_untouched(model_path, tmp_path, capsys, instances):
    config = write_json(tmp_path / 'c.json', [{'id': 'SoftmaxSubgraph', 'match_kind': 'scope',
                                               'instances': instances}])
    before = open(config, 'rb').read()
    assert main(['convert', '--input_model', model_path, '--tensorflow_custom_operations_config_update',
                 config]) == 1
    err = capsys.readouterr().err
    assert '[ ERROR ]' in err and 'matches no node' in err and 'was not changed' in err and 'Traceback' not in err
    assert open(config, 'rb').read() == before
    assert sorted(os.listdir(str(tmp_path))) == ['c.json', 'detector.onnx']  # no temporary file left behind


# ----- README's ONNX extension examples ---------------------------------------------------------------------------
def readme_blocks(kind):
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as handle:
        return re.findall(r'```{}\n(.*?)```'.format(kind), handle.read(), re.S)


def test_readme_shows_the_example_files_as_they_are():
    """README's ONNX examples are the files of tests/onnx/readme_ext (a block starts with ``# <its path>:``)."""
    shown = {}
    for block in readme_blocks('python'):
        match = re.match(r'# ((?:ops|front/onnx)/\w+\.py):', block)
        if match and os.path.exists(os.path.join(README_EXT, match.group(1))):
            shown[match.group(1)] = block
    assert set(shown) == {'ops/scaled_tanh.py', 'front/onnx/scaled_tanh_ext.py', 'front/onnx/hswish_fusion.py',
                          'front/onnx/output_activation.py'}
    for path, block in shown.items():
        with open(os.path.join(README_EXT, path), encoding='utf-8') as handle:
            assert block == handle.read(), path
    with open(os.path.join(README_EXT, 'output_sigmoid.json'), encoding='utf-8') as handle:
        config = json.load(handle)
    assert any(json.loads(block) == config for block in readme_blocks('json') if 'OutputSigmoid' in block)


@pytest.mark.ir_not_compiled('ScaledTanh is a custom layer (opset "extension")')
def test_readme_custom_domain_op(tmp_path):
    model = make_model([helper.make_node('ScaledTanh', ['x'], ['y'], name='/act/ScaledTanh', domain='com.example',
                                         alpha=1.7159, beta=0.6667)],
                       [('x', F, [1, 3, 4])], [('y', F, [1, 3, 4])], domains={'com.example': 1})
    result = mo.convert_model(model, output_dir=str(tmp_path), extensions=[README_EXT])
    [layer] = [lay for lay in ET.parse(str(result.xml_path)).getroot().iter('layer') if lay.get('type') == 'ScaledTanh']
    assert layer.get('version') == 'extension' and layer.get('name') == '/act/ScaledTanh'
    assert {k: round(float(v), 4) for k, v in layer.find('data').attrib.items()} == {'alpha': 1.7159, 'beta': 0.6667}
    assert [int(d.text) for d in layer.find('output').iter('dim')] == [1, 3, 4]


def hardswish_model():
    """x * Clip(x + 3, 0, 6) / 6, as PyTorch exports F.hardswish below opset 14."""
    def const(name, value):
        return helper.make_node('Constant', [], [name + '_output_0'], name=name,
                                value=helper.make_tensor('v', F, [], [value]))
    nodes = [const('/act/Constant', 3.0), const('/act/Constant_1', 0.0), const('/act/Constant_2', 6.0),
             const('/act/Constant_3', 6.0),
             helper.make_node('Add', ['x', '/act/Constant_output_0'], ['/act/Add_output_0'], name='/act/Add'),
             helper.make_node('Clip', ['/act/Add_output_0', '/act/Constant_1_output_0', '/act/Constant_2_output_0'],
                              ['/act/Clip_output_0'], name='/act/Clip'),
             helper.make_node('Mul', ['x', '/act/Clip_output_0'], ['/act/Mul_output_0'], name='/act/Mul'),
             helper.make_node('Div', ['/act/Mul_output_0', '/act/Constant_3_output_0'], ['y'], name='/act/Div')]
    return make_model(nodes, [('x', F, [1, 3, 4, 4])], [('y', F, [1, 3, 4, 4])], opset=13)


def test_readme_hswish_fusion_on_a_pytorch_export(tmp_path):
    model = hardswish_model()
    result = mo.convert_model(model, output_dir=str(tmp_path), extensions=[README_EXT])
    assert layer_types(result.xml_path) == ['HSwish', 'Parameter', 'Result']
    feeds = {'x': np.linspace(-5, 5, 48, dtype=np.float32).reshape(1, 3, 4, 4)}
    assert_close(run_ir(result.xml_path, feeds, ['y'])[0], run_onnxruntime(model, feeds)[0])


def test_without_the_extension_hardswish_stays_four_ops(tmp_path):
    plain = mo.convert_model(hardswish_model(), output_dir=str(tmp_path))
    assert 'HSwish' not in layer_types(plain.xml_path)
