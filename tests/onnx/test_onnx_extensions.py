"""Model Optimizer-style extensions on ONNX models (issue 25), end to end.

* ``ext_custom_op``: an extractor in ``front/onnx/`` (no ``framework`` attribute: the folder says ONNX, as in
  the Model Optimizer) for a custom-domain op, with its ``Op`` class in ``ops/``; the IR carries the layer.
* ``ext_custom_replace``: a ``FrontReplacementOp`` that rewrites that op into opset ops; numbers match
  onnxruntime running the same sub-graph written with standard ONNX ops.
* ``ext_relu_override``: a user's extractor for an op mo supports takes over, and the log says so.
* The framework-neutral seed replacers (``tests/core/seed_ext``) and the built-in SoftplusFusion/MishFusion
  run unchanged on ONNX graphs holding their patterns.
"""
import logging
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import mo
from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir, run_onnxruntime

onnx = pytest.importorskip('onnx')
from onnx import TensorProto, helper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CUSTOM_OP = os.path.join(HERE, 'ext_custom_op')
CUSTOM_REPLACE = os.path.join(HERE, 'ext_custom_replace')
RELU_OVERRIDE = os.path.join(HERE, 'ext_relu_override')
SEED_EXT = os.path.join(os.path.dirname(HERE), 'core', 'seed_ext')
F = TensorProto.FLOAT
SHAPE = [2, 3, 4]


def feed(*names, seed=0):
    rng = np.random.default_rng(seed)
    return {name: rng.uniform(-3, 3, SHAPE).astype(np.float32) for name in names}


def layers(xml_path, type_=None):
    root = ET.parse(str(xml_path)).getroot()
    return [layer for layer in root.iter('layer') if type_ is None or layer.get('type') == type_]


def layer_types(xml_path):
    return sorted(layer.get('type') for layer in layers(xml_path))


def my_op_model(alpha=0.5):
    node = helper.make_node('MyOp', ['x'], ['y'], name='my', domain='com.example', alpha=alpha)
    return make_model([node], [('x', F, SHAPE)], [('y', F, SHAPE)], domains={'com.example': 1})


# ----- 1. a custom-domain op: extractor + op class --------------------------------------------------------------
@pytest.mark.ir_not_compiled('MyOp is a custom layer (opset "extension"): OpenVINO reads it only with its extension')
def test_custom_domain_op_reaches_the_ir_with_its_attributes(tmp_path):
    result = mo.convert_model(my_op_model(0.5), output_dir=str(tmp_path), model_name='model', extensions=[CUSTOM_OP])
    [custom] = layers(result.xml_path, 'MyOp')
    assert custom.get('version') == 'extension' and custom.get('name') == 'my'
    assert float(custom.find('data').get('alpha')) == 0.5
    assert [int(d.text) for d in custom.find('output').iter('dim')] == SHAPE
    assert layer_types(result.xml_path) == ['MyOp', 'Parameter', 'Result']
    # OpenVINO refuses the IR only for the op it does not know
    ov = pytest.importorskip('openvino')
    with pytest.raises(RuntimeError, match='Cannot create MyOp layer my .*opset: extension'):
        ov.Core().read_model(str(result.xml_path))


def test_custom_domain_op_without_its_extension_is_one_clear_error(tmp_path):
    with pytest.raises(mo.Error, match='MyOp'):
        mo.convert_model(my_op_model(), output_dir=str(tmp_path), model_name='model')


@pytest.mark.parametrize('alpha', [0.5, 2.0])
def test_custom_op_replaced_by_opset_ops_matches_onnxruntime(tmp_path, alpha):
    result = mo.convert_model(my_op_model(alpha), output_dir=str(tmp_path), model_name='model',
                              extensions=[CUSTOM_OP, CUSTOM_REPLACE])
    assert 'MyOp' not in layer_types(result.xml_path)
    # the replacement's x * Sigmoid(x) reaches the IR as the Swish it is (the back phase's fusion), then times alpha
    assert {'Swish', 'Multiply'} <= set(layer_types(result.xml_path))
    # the same sub-graph written with standard ONNX ops: alpha * x * Sigmoid(x)
    reference = make_model([helper.make_node('Sigmoid', ['x'], ['s']), helper.make_node('Mul', ['x', 's'], ['xs']),
                            helper.make_node('Mul', ['xs', 'alpha'], ['y'])],
                           [('x', F, SHAPE)], [('y', F, SHAPE)], initializers={'alpha': np.float32(alpha)})
    feeds = feed('x')
    assert_close(run_ir(result.xml_path, feeds, ['y'])[0], run_onnxruntime(reference, feeds)[0])


# ----- 2. a user's extractor for an op mo supports takes over ---------------------------------------------------
def test_users_extractor_takes_over_a_builtin_one_and_the_log_says_so(tmp_path, caplog):
    model = make_model([helper.make_node('Relu', ['x'], ['y'])], [('x', F, SHAPE)], [('y', F, SHAPE)])
    with caplog.at_level(logging.INFO):
        check_model(model, feed('x'), tmp_path, extensions=[RELU_OVERRIDE])
    taking_over = [r for r in caplog.records if 'takes over "Relu"' in r.getMessage()]
    assert taking_over and taking_over[0].levelno == logging.INFO, caplog.text
    assert 'UserReluExtractor' in taking_over[0].getMessage()
    from mo.front.extractor import FrontExtractorOp
    assert FrontExtractorOp.registry['onnx']['Relu'].__name__ == 'UserReluExtractor'
    assert 'Relu' not in FrontExtractorOp.registry.get('tf', {}) or \
        FrontExtractorOp.registry['tf']['Relu'].__name__ != 'UserReluExtractor'  # the folder said onnx, not tf


# ----- 3. framework-neutral seed replacers on ONNX patterns -----------------------------------------------------
def mish_model(x_first=True):
    mul_inputs = ['x', 't'] if x_first else ['t', 'x']
    return make_model([helper.make_node('Softplus', ['x'], ['sp']), helper.make_node('Tanh', ['sp'], ['t']),
                       helper.make_node('Mul', mul_inputs, ['y'])], [('x', F, SHAPE)], [('y', F, SHAPE)])


def exp_log_softplus_model():
    return make_model([helper.make_node('Exp', ['x'], ['e']), helper.make_node('Add', ['e', 'one'], ['a']),
                       helper.make_node('Log', ['a'], ['y'])], [('x', F, SHAPE)], [('y', F, SHAPE)],
                      initializers={'one': np.array(1, np.float32)})


def exp_log_mish_model():
    """Mish spelled with Exp/Add/Log: SoftplusFusion must run first, then MishFusion."""
    return make_model([helper.make_node('Exp', ['x'], ['e']), helper.make_node('Add', ['one', 'e'], ['a']),
                       helper.make_node('Log', ['a'], ['sp']), helper.make_node('Tanh', ['sp'], ['t']),
                       helper.make_node('Mul', ['t', 'x'], ['y'])], [('x', F, SHAPE)], [('y', F, SHAPE)],
                      initializers={'one': np.array(1, np.float32)})


@pytest.mark.parametrize('build, fused', [
    (lambda: mish_model(True), 'Mish'),
    (lambda: mish_model(False), 'Mish'),
    (exp_log_softplus_model, 'SoftPlus'),
    (exp_log_mish_model, 'Mish'),
], ids=['mish', 'mish-swapped', 'softplus', 'mish-from-exp-log'])
@pytest.mark.parametrize('seed_ext', [False, True], ids=['builtin', 'seed-MishFusion'])
def test_softplus_and_mish_fusions_on_onnx(tmp_path, monkeypatch, build, fused, seed_ext):
    options = {}
    if seed_ext:
        # the seed's MishFusion (a FrontReplacementSubgraph) alone, not the built-in one (a PatternRule)
        monkeypatch.setenv('MO_DISABLED_TRANSFORMS', 'extensions.front.Mish_fusion.MishFusion')
        options['extensions'] = [SEED_EXT]
    result = check_model(build(), feed('x'), tmp_path, **options)
    assert layer_types(result.xml_path) == sorted(['Parameter', fused, 'Result'])


def test_seed_squeeze_normalize_on_an_onnx_squeeze_with_axes(tmp_path):
    model = make_model([helper.make_node('Squeeze', ['x'], ['y'], axes=[1])], [('x', F, [2, 1, 3])],
                       [('y', F, [2, 3])], opset=11)
    result = check_model(model, {'x': np.arange(6, dtype=np.float32).reshape(2, 1, 3)}, tmp_path,
                         extensions=[SEED_EXT])
    assert len(layers(result.xml_path, 'Squeeze')) == 1


def test_seed_squared_difference_on_an_onnx_sub_mul(tmp_path):
    """ONNX has no SquaredDifference: (a - b) * (a - b) stays Subtract/Multiply, and the seed's replacer (for the
    op SquaredDifference) finds nothing to do and leaves the numbers alone."""
    model = make_model([helper.make_node('Sub', ['a', 'b'], ['d']), helper.make_node('Mul', ['d', 'd'], ['y'])],
                       [('a', F, SHAPE), ('b', F, SHAPE)], [('y', F, SHAPE)])
    result = check_model(model, feed('a', 'b'), tmp_path, extensions=[SEED_EXT])
    assert {'Subtract', 'Multiply'} <= set(layer_types(result.xml_path))


def test_onnx_front_op_names_are_the_model_optimizers(tmp_path, capsys):
    """After the ONNX extractors, ``op`` holds the internal names the seeds' patterns match."""
    from mo.main import main
    model = make_model([helper.make_node('Softplus', ['x'], ['sp']), helper.make_node('Tanh', ['sp'], ['t']),
                        helper.make_node('Mul', ['x', 't'], ['m']), helper.make_node('Add', ['m', 'x'], ['a']),
                        helper.make_node('Sub', ['a', 'x'], ['s']), helper.make_node('Exp', ['s'], ['e']),
                        helper.make_node('Log', ['e'], ['y'])], [('x', F, SHAPE)], [('y', F, SHAPE)])
    path = tmp_path / 'names.onnx'
    path.write_bytes(model.SerializeToString())
    assert main(['convert', '--input_model', str(path), '--output_dir', str(tmp_path / 'ir'), '--dump_ops', 'front']) == 0
    out = capsys.readouterr()
    rows = [line.split('\t') for line in (out.out + out.err).splitlines() if line.count('\t') == 3]
    ops = {row[2]: row[0] for row in rows}
    assert [ops[n] for n in ('sp', 't', 'm', 'a', 's', 'e', 'y')] == ['SoftPlus', 'Tanh', 'Mul', 'Add', 'Sub', 'Exp', 'Log']
    # each input as source:port in port order, as a pattern's edges name them
    assert {row[2]: row[3] for row in rows}['m'] == 'inputs: x:0, t:0'


def test_without_either_mish_fusion_nothing_fuses(tmp_path, monkeypatch):
    """The control for the seed-MishFusion cases: with the built-in disabled and no seed, Mish stays three ops."""
    monkeypatch.setenv('MO_DISABLED_TRANSFORMS', 'extensions.front.Mish_fusion.MishFusion')
    result = check_model(mish_model(), feed('x'), tmp_path)
    assert layer_types(result.xml_path) == ['Multiply', 'Parameter', 'Result', 'SoftPlus', 'Tanh']


# ----- the Model Optimizer's ONNX extractor API -------------------------------------------------------------------
def load_graph(model):
    from mo.front.onnx.loader import load_onnx_model, protobuf2nx
    from mo.graph.graph import Graph, Node
    graph = Graph()
    protobuf2nx(graph, load_onnx_model(model.SerializeToString()))
    return {Node(graph, n).soft_get('name', n): Node(graph, n) for n in graph.nodes}


def test_model_optimizer_extractor_api_on_an_onnx_node():
    from onnx import numpy_helper
    from mo.front.onnx.extractors.utils import (get_backend_pad, get_onnx_autopad, get_onnx_datatype_as_numpy,
                                                 onnx_attr, onnx_get_num_outputs, onnx_node_has_attr)
    value = numpy_helper.from_array(np.array([2.5], np.float32))
    model = make_model([helper.make_node('ConstantOfShape', ['s'], ['y'], name='c', value=value),
                        helper.make_node('MaxPool', ['x'], ['p', 'i'], name='pool', kernel_shape=[2, 2],
                                         pads=[0, 1, 0, 1], auto_pad='NOTSET')],
                       [('s', TensorProto.INT64, [1]), ('x', F, [1, 1, 4, 4])],
                       [('y', F, None), ('p', F, None), ('i', TensorProto.INT64, None)])
    nodes = load_graph(model)
    const, pool = nodes['c'], nodes['pool']
    # the Model Optimizer's idiom: dst_type gets the TensorProto
    np.testing.assert_array_equal(onnx_attr(const, 'value', 't', dst_type=numpy_helper.to_array), [2.5])
    np.testing.assert_array_equal(onnx_attr(const, 'value', 't'), [2.5])  # mo's own: numpy directly
    assert onnx_attr(const, 'absent', 't', default='d', dst_type=numpy_helper.to_array) == 'd'
    assert onnx_attr(pool, 'kernel_shape', 'ints') == [2, 2] and onnx_attr(pool, 'auto_pad', 's') == b'NOTSET'
    assert onnx_node_has_attr(pool, 'pads') and not onnx_node_has_attr(pool, 'strides')
    assert onnx_get_num_outputs(pool) == 2
    assert get_onnx_autopad(onnx_attr(pool, 'auto_pad', 's')) is None and get_onnx_autopad(b'SAME_UPPER') == 'same_upper'
    pads = np.array(onnx_attr(pool, 'pads', 'ints')).reshape(2, -1).transpose()  # [[begin, end]] per spatial axis
    assert get_backend_pad(np.concatenate([[[0, 0], [0, 0]], pads]), [2, 3], 0) == [0, 1]
    assert get_onnx_datatype_as_numpy(TensorProto.FLOAT) == np.float32
    assert const.pb.op_type == 'ConstantOfShape' and {a.name for a in pool.pb.attribute} == {'kernel_shape', 'pads', 'auto_pad'}
