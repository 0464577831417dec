"""The Model Optimizer's op modules (issue 41 point 5): every module path of its ``ops/`` folder imports under mo
with the classes its extractors use, and an extractor written the Model Optimizer's way (``mo.ops.roialign.ROIAlign.
update_node_stat(node, attrs)``) gets what mo's own extractor gives the node, so the model converts and its IR
computes what onnxruntime does."""
import importlib
import logging
import os

import numpy as np
import pytest

import mo
from mo.graph.graph import Graph, Node
from mo.ops.op import Op
from tests.onnx.onnx_oracle import check_model, make_model

HERE = os.path.dirname(os.path.abspath(__file__))
#: extractors written as a team writes them for the Model Optimizer, imports renamed (``openvino.tools.mo.`` -> ``mo.``)
MO_STYLE_EXT = os.path.join(HERE, 'mo_onnx_ext')

#: the files of the Model Optimizer's ``ops/`` folder (releases 2021-2024), as module names under ``mo.ops``
MO_OPS_MODULES = """
    activation activation_ops adaptive_avg_pooling arange_like argmax argmin assert_op assign aten axpy batch_dot
    BatchNormInference binarization BlockLSTM BN box_nms broadcast bucketize Cast clamp ClipByValueTF Complex
    concat const constant_fill constant_of_shape ConvertLike convolution copyop crop ctc_greedy_decoder
    ctc_greedy_decoder_seq_len ctc_loss cumsum deconvolution deformable_convolution depth_to_space
    dequantize_linear detection_output_onnx DetectionOutput dft div_sqrt_dim dropoutmask einsum elementwise eltwise
    eltwise_n eltwise_ninputs_in_1 embedding_bag Enter Exit expand_dims ExtractImagePatches eye fake_convert
    fake_output fakequantize fill flatten gather gatherelements gathernd GatherTree gelu grn group_norm GRU
    GRUBlockCell GRUCell hard_sigmoid identity If instance_normalization interp interpolate layer_norm log_softmax
    LookupTableInsert loop lrn LSTM lstm_cell lstm_sequence lstmnonlinearity MatMul memory memoryoffset merge
    multinomial mvn mxfft mxrepeat mxreshape NextIteration nms_rotated non_max_suppression non_zero normalize
    normalize_l2 one_hot ONNXResize10 ONNXResize11 op pack pad parameter permute pnorm pooling power prelu priorbox
    priorbox_clustered priorgridgenerator_onnx proposal proposal_onnx proposal_python_example psroipooling
    quantize_linear random_uniform range rank read_value ReduceOps regionyolo reorgyolo reshape resize
    resize_factor_utils restrictedattentioncomponent result Reverse reverse_sequence RNN RNNCell roialign
    roifeatureextractor_onnx roipooling roll scale_shift scatter scatternd select shape shufflechannel size slice
    slice_like softmax space_to_batch space_to_depth sparse_fill_empty_rows sparse_reshape sparse_segment_mean
    sparse_segment_sqrtn sparse_segment_sum splice split squeeze stop_gradient strided_slice swapaxis switch
    tdnncomponent tensor_iterator TensorArray TensorArrayGather TensorArrayRead TensorArrayScatter TensorArraySize
    TensorArrayWrite TensorIterator_ops TFFFT TFIRFFT TFResize TFRFFT TFScatterND tile timeheightconvolution topk
    topkrois_onnx transpose unique unsqueeze upsample
""".split()

#: module of ``mo.ops`` -> the classes the Model Optimizer's ONNX extractors (``front/onnx/*_ext.py``) import from it
ONNX_EXTRACTOR_IMPORTS = {
    'activation_ops': 'Abs Acos Acosh Asin Asinh Atan Atanh Ceiling Cos Cosh Elu Erf Exp Floor LeakyReLU Log '
                      'LogicalNot ReLU Sigmoid Sign Sin Sinh SoftPlus SoftSign Tan Tanh ThresholdedRelu',
    'argmax': 'ArgMaxOp',
    'argmin': 'ArgMinOp',
    'aten': 'ATen',
    'BatchNormInference': 'BatchNormInference',
    'broadcast': 'Broadcast',
    'Cast': 'Cast',
    'clamp': 'AttributedClamp Clamp',
    'concat': 'Concat',
    'const': 'Const',
    'constant_fill': 'ConstantFill',
    'constant_of_shape': 'ConstantOfShape',
    'convolution': 'Convolution',
    'crop': 'Crop',
    'ctc_greedy_decoder_seq_len': 'CTCGreedyDecoderSeqLenOp',
    'cumsum': 'CumSum',
    'deformable_convolution': 'DeformableConvolution',
    'depth_to_space': 'DepthToSpaceOp',
    'dequantize_linear': 'DequantizeLinear',
    'detection_output_onnx': 'ExperimentalDetectronDetectionOutput',
    'DetectionOutput': 'DetectionOutput',
    'einsum': 'Einsum',
    'elementwise': 'Add Div Equal Greater GreaterEqual Less LessEqual LogicalAnd LogicalOr LogicalXor Mul Pow '
                   'Round Sub',
    'eltwise_n': 'EltwiseNAdd EltwiseNMax EltwiseNMin',
    'expand_dims': 'ExpandDims',
    'fakequantize': 'FakeQuantize',
    'flatten': 'FlattenONNX',
    'gather': 'AttributedGather',
    'gatherelements': 'GatherElements',
    'gathernd': 'GatherND',
    'group_norm': 'GroupNorm',
    'GRU': 'GRU',
    'hard_sigmoid': 'HardSigmoid',
    'identity': 'Identity',
    'instance_normalization': 'InstanceNormalization',
    'log_softmax': 'LogSoftmaxONNX',
    'loop': 'Loop',
    'lrn': 'AttributedLRN',
    'LSTM': 'LSTM',
    'MatMul': 'GemmONNX MatMul',
    'mvn': 'MVNOnnx',
    'non_max_suppression': 'NonMaxSuppression',
    'non_zero': 'NonZero',
    'normalize': 'NormalizeOp',
    'normalize_l2': 'NormalizeL2Op',
    'one_hot': 'OneHot',
    'ONNXResize10': 'ONNXResize10',
    'ONNXResize11': 'ONNXResize11Op',
    'pad': 'AttributedPad ONNXPad',
    'parameter': 'Parameter',
    'pooling': 'Pooling',
    'power': 'AttributedPower',
    'priorbox': 'PriorBoxOp',
    'priorbox_clustered': 'PriorBoxClusteredOp',
    'priorgridgenerator_onnx': 'ExperimentalDetectronPriorGridGenerator',
    'proposal_onnx': 'ExperimentalDetectronGenerateProposalsSingleImage',
    'quantize_linear': 'QuantizeLinear',
    'random_uniform': 'AttributedRandomUniform',
    'range': 'Range',
    'ReduceOps': 'ReduceL1 ReduceL2 ReduceMax ReduceMean ReduceMin ReduceProd ReduceSum',
    'reshape': 'Reshape',
    'reverse_sequence': 'ReverseSequence',
    'RNN': 'RNN',
    'roialign': 'ROIAlign',
    'roifeatureextractor_onnx': 'ExperimentalDetectronROIFeatureExtractor',
    'scatter': 'ScatterElementsUpdate',
    'scatternd': 'ScatterNDUpdate',
    'select': 'Select',
    'shape': 'Shape',
    'size': 'Size',
    'slice': 'AttributedSlice Slice',
    'softmax': 'SoftmaxONNX',
    'space_to_depth': 'SpaceToDepth',
    'split': 'AttributedSplit AttributedVariadicSplit',
    'squeeze': 'Squeeze',
    'topk': 'TopK',
    'topkrois_onnx': 'ExperimentalDetectronTopKROIs',
    'transpose': 'Transpose',
    'upsample': 'UpsampleOp',
}


def test_every_module_of_the_model_optimizers_ops_folder_imports():
    assert len(MO_OPS_MODULES) == 185
    failed = []
    for name in MO_OPS_MODULES:
        try:
            importlib.import_module('mo.ops.' + name)
        except Exception as exc:  # noqa: BLE001 - the list of failures is the message
            failed.append('{}: {}'.format(name, exc))
    assert not failed, failed


def test_find_spec_finds_a_declared_op_module():
    import importlib.util
    from mo.compat import served_modules
    spec = importlib.util.find_spec('mo.ops.roialign')
    assert spec is not None and spec.name == 'mo.ops.roialign'
    assert 'mo.ops.roialign' in served_modules() and 'mo.ops.MatMul' in served_modules()
    assert importlib.util.find_spec('mo.ops.no_such_op_module') is None


@pytest.mark.parametrize('module', sorted(ONNX_EXTRACTOR_IMPORTS, key=str.lower))
def test_the_classes_its_onnx_extractors_import_are_there(module):
    imported = importlib.import_module('mo.ops.' + module)
    missing = [name for name in ONNX_EXTRACTOR_IMPORTS[module].split() if not hasattr(imported, name)]
    assert not missing


def test_the_loader_helpers_its_extractors_import():
    from onnx import helper
    from mo.front.extractor import extract_node_attrs
    from mo.front.onnx.loader import node_id
    from mo.front.onnx.loader import _node_name
    for pb in (helper.make_node('Relu', ['x'], ['y'], name='act'), helper.make_node('Relu', ['x'], ['y']),
               helper.make_node('Relu', ['x'], [''])):
        assert node_id(pb) == _node_name(pb)  # the name mo's loader gives the node
    assert node_id(helper.make_node('Relu', ['x'], ['y'])) == 'y'
    graph = Graph()
    graph.add_node('a', kind='op', op='Relu')
    graph.add_node('r', kind='op', op='Result')
    extract_node_attrs(graph, lambda node: (True, {'seen': node.id}))
    assert graph.nodes['a']['seen'] == 'a' and 'seen' not in graph.nodes['r']


def test_importing_them_registers_no_op():
    before = dict(Op.registered_ops)
    for name in MO_OPS_MODULES:
        module = importlib.import_module('mo.ops.' + name)
        for attribute in ONNX_EXTRACTOR_IMPORTS.get(name, '').split():
            getattr(module, attribute)
    assert Op.registered_ops == before


def test_a_stand_in_builds_mos_op_on_a_hand_built_graph():
    from mo.ops.gathernd import GatherND
    from mo.ops.roialign import ROIAlign
    graph = Graph()
    node = GatherND(graph, {'name': 'g', 'batch_dims': 1}).create_node()
    assert node.op == 'GatherND' and node.batch_dims == 1 and node.soft_get('type') == 'GatherND'
    graph.add_node('r', kind='op', op='MyRoi', name='r')
    ROIAlign.update_node_stat(Node(graph, 'r'), {'pooled_h': 2, 'pooled_w': 3, 'mode': 'avg'})
    assert graph.nodes['r']['type'] == 'ROIAlign' and graph.nodes['r']['pooled_w'] == 3


def test_a_stand_in_mo_has_no_op_for_says_so():
    from mo.ops.ONNXResize11 import ONNXResize11Op
    with pytest.raises(mo.Error, match=r"ONNXResize11Op .*no counterpart in mo .*Resize"):
        ONNXResize11Op(Graph(), {'mode': 'nearest'})


def test_an_authors_subclass_is_an_op_class_of_its_own():
    from mo.ops.roialign import ROIAlign

    class MyRoi(ROIAlign):
        op = 'TeamRoiForTest'

        def __init__(self, graph, attrs):
            super().__init__(graph, {'op': self.op, 'type': None}, attrs)
    try:
        assert Op.registered_ops['TeamRoiForTest'] is MyRoi
        node = MyRoi(Graph(), {'name': 'm'}).create_node()
        assert node.op == 'TeamRoiForTest'
    finally:
        Op.registered_ops.pop('TeamRoiForTest', None)


# ----- Model Optimizer-style extractors converting real models ---------------------------------------------------
F = 1  # TensorProto.FLOAT
I64 = 7  # TensorProto.INT64


def _rng(seed=0):
    return np.random.default_rng(seed)


def roialign_model():
    from onnx import helper
    rois = np.array([[0, 0, 4, 4], [1, 1, 6, 7], [2.5, 0.5, 7, 5]], np.float32)
    node = helper.make_node('RoiAlign', ['x', 'rois', 'idx'], ['y'], output_height=2, output_width=3,
                            sampling_ratio=2, spatial_scale=1.0, mode='avg')
    model = make_model([node], [('x', F, [2, 3, 8, 8])], [('y', F, [3, 3, 2, 3])], opset=16,
                       initializers={'rois': rois, 'idx': np.array([0, 1, 1], np.int64)})
    return model, {'x': _rng().uniform(-1, 1, (2, 3, 8, 8)).astype(np.float32)}


def lstm_model():
    from onnx import helper
    rng = _rng(1)
    hidden, size = 5, 4
    weights = {'W': rng.uniform(-0.5, 0.5, (1, 4 * hidden, size)).astype(np.float32),
               'R': rng.uniform(-0.5, 0.5, (1, 4 * hidden, hidden)).astype(np.float32),
               'B': rng.uniform(-0.5, 0.5, (1, 8 * hidden)).astype(np.float32)}
    node = helper.make_node('LSTM', ['x', 'W', 'R', 'B'], ['y', 'y_h', 'y_c'], hidden_size=hidden)
    model = make_model([node], [('x', F, [3, 2, size])],
                       [('y', F, [3, 1, 2, hidden]), ('y_h', F, [1, 2, hidden]), ('y_c', F, [1, 2, hidden])],
                       initializers=weights)
    return model, {'x': rng.uniform(-1, 1, (3, 2, size)).astype(np.float32)}


def resize_model(mode='linear', opset=13):
    from onnx import helper
    scales = np.array([1, 1, 2, 1.5], np.float32)
    inputs = ['x', 'roi', 'scales'] if opset >= 11 else ['x', 'scales']
    initializers = {'scales': scales}
    if opset >= 11:
        initializers['roi'] = np.zeros(0, np.float32)
    node = helper.make_node('Resize', inputs, ['y'], mode=mode)
    model = make_model([node], [('x', F, [1, 2, 3, 4])], [('y', F, [1, 2, 6, 6])], opset=opset,
                       initializers=initializers)
    return model, {'x': _rng(2).uniform(-1, 1, (1, 2, 3, 4)).astype(np.float32)}


def gathernd_model():
    from onnx import helper
    node = helper.make_node('GatherND', ['x', 'i'], ['y'], batch_dims=1)
    model = make_model([node], [('x', F, [2, 3, 4])], [('y', F, [2, 4])],
                       initializers={'i': np.array([[2], [0]], np.int64)})
    return model, {'x': _rng(3).uniform(-1, 1, (2, 3, 4)).astype(np.float32)}


def nonzero_model():
    from onnx import helper
    node = helper.make_node('NonZero', ['x'], ['y'])
    model = make_model([node], [('x', F, [3, 4])], [('y', I64, [2, None])])
    x = _rng(4).uniform(-1, 1, (3, 4)).astype(np.float32)
    x[x < 0] = 0
    return model, {'x': x}


def upsample_model():
    from onnx import helper
    node = helper.make_node('Upsample', ['x', 'scales'], ['y'], mode='nearest')
    model = make_model([node], [('x', F, [1, 2, 3, 4])], [('y', F, [1, 2, 6, 8])], opset=9,
                       initializers={'scales': np.array([1, 1, 2, 2], np.float32)})
    return model, {'x': _rng(5).uniform(-1, 1, (1, 2, 3, 4)).astype(np.float32)}


MODELS = {
    'RoiAlign': roialign_model,
    'LSTM': lstm_model,
    'Resize': resize_model,
    'GatherND': gathernd_model,
    'NonZero': nonzero_model,
    'Upsample': upsample_model,
}


@pytest.mark.parametrize('op_type', sorted(MODELS))
def test_a_model_optimizer_style_extractor_converts_the_model(tmp_path, caplog, op_type):
    model, feeds = MODELS[op_type]()
    with caplog.at_level(logging.INFO):
        result = check_model(model, feeds, tmp_path / 'team', extensions=[MO_STYLE_EXT])
    # the team's extractor took over from mo's, and it reached mo's op through the Model Optimizer's op class
    assert any('takes over "{}"'.format(op_type) in record.getMessage() for record in caplog.records), caplog.text
    # ... which created what mo's own extractor creates: the IR is mo's, byte for byte (but for the rt_info line
    # that records the --extensions option)
    own = mo.convert_model(model, output_dir=str(tmp_path / 'own'), model_name='model')

    def xml(path):
        return [line for line in path.read_text().splitlines() if '<extensions value=' not in line]
    assert xml(result.xml_path) == xml(own.xml_path)
    assert result.bin_path.read_bytes() == own.bin_path.read_bytes()


def test_resize_of_opset_10_through_onnx_resize10(tmp_path):
    model, feeds = resize_model(mode='nearest', opset=10)
    check_model(model, feeds, tmp_path, extensions=[MO_STYLE_EXT])


def test_model_optimizer_style_tf_extractors_give_mos_ir(tmp_path, caplog):
    """The same for TensorFlow: GatherNd through ``GatherND``, one-input Where through ``NonZero``."""
    tf = pytest.importorskip('tensorflow')
    from tests.tensor_ops.tf_graphs import freeze

    def model(x):
        picked = tf.gather_nd(x, tf.constant([[1, 0], [0, 2]]))
        return picked, tf.where(x > 0.5)
    graph_def = freeze(model, tf.TensorSpec([2, 3], tf.float32))
    path = tmp_path / 'model.pb'
    path.write_bytes(graph_def.SerializeToString())
    with caplog.at_level(logging.INFO):
        team = mo.convert_model(str(path), output_dir=str(tmp_path / 'team'), model_name='model',
                                extensions=[os.path.join(HERE, 'mo_tf_ext')])
    for op_type in ('GatherNd', 'Where'):
        assert any('takes over "{}"'.format(op_type) in r.getMessage() for r in caplog.records), caplog.text
    own = mo.convert_model(str(path), output_dir=str(tmp_path / 'own'), model_name='model')

    def xml(result):
        return [line for line in result.xml_path.read_text().splitlines() if '<extensions value=' not in line]
    assert xml(team) == xml(own)
    assert team.bin_path.read_bytes() == own.bin_path.read_bytes()
