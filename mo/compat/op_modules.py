"""The Model Optimizer's ``ops/`` modules, declared: every module path of that folder imports under mo, with the
classes its extractors use, each creating what mo's own extractor creates for that op.

Authors' extractors take op classes from the Model Optimizer's op modules (``mo.ops.roialign.ROIAlign``,
``mo.ops.LSTM.LSTM``, ``mo.ops.ONNXResize11.ONNXResize11Op``...). mo's op classes are its own and its front ends
often build a different op for the same framework op, so these classes are not re-exports but stand-ins
(``LegacyOp``), built from ``OP_MODULES`` when their module is first imported:

* ``X.update_node_stat(node, attrs)`` on a node read from a framework's graph whose op type is one the Model
  Optimizer's own extractors made an ``X`` of (``ONNX`` and ``TF`` columns below) runs mo's built-in extractor for
  that op type on the node: the node gets exactly what mo's conversion gives it (the attributes the author read
  are the ones that extractor reads from the same node).
* Otherwise (a custom op type, a hand-built graph, ``X(graph, attrs)``) the node gets mo's op class registered
  under the Model Optimizer's op name, with ``attrs`` as given; an op mo has no class for is an Error naming it.

A stand-in never registers (its ``op`` is set after the class is made), so importing these modules adds nothing
to a conversion. A module with a file of its own, live (``mo.ops.pad``) or in the wing's tree (``mo.ops.MatMul``,
a re-export of mo's class), keeps its classes and gets only the names it lacks from here, through its module
``__getattr__`` (``mo.compat.ops_hook``).

The table was read from the Model Optimizer's ``ops/`` folder (release 2023.3, plus the modules other releases
had: ``batch_dot``, ``fake_convert``, ``TFIRFFT``, ``TFRFFT``, ``TFScatterND``) and from the classes its
``front/onnx`` and ``front/tf`` extractors used for each op type.
"""
import importlib.abc
import importlib.machinery
import os

from mo.compat.legacy_op import make_class

#: module path -> {class name: the Model Optimizer's op name, or (op name, ONNX op types, TF op types) for the
#: classes its extractors made of those framework op types}; a module with a file (live, or in the wing's tree) lists
#: only the names that file lacks
OP_MODULES = {
    'mo.ops.activation': {'Activation': 'Activation'},
    'mo.ops.activation_ops': {
        'Acos': ('Acos', 'Acos', 'Acos'), 'Acosh': ('Acosh', 'Acosh', 'Acosh'), 'Asin': ('Asin', 'Asin', 'Asin'),
        'Asinh': ('Asinh', 'Asinh', 'Asinh'), 'Atan': ('Atan', 'Atan', 'Atan'), 'Atanh': ('Atanh', 'Atanh', 'Atanh'),
        'Cos': ('Cos', 'Cos', 'Cos'), 'Cosh': ('Cosh', 'Cosh', 'Cosh'), 'HSigmoid': 'HSigmoid',
        'LeakyReLU': ('LeakyReLU', 'LeakyRelu', 'LeakyRelu'), 'LogicalNot': ('LogicalNot', 'Not', 'LogicalNot'),
        'ReLU6': (None, '', 'Relu6'), 'Sign': ('Sign', 'Sign', 'Sign'), 'Sin': ('Sin', 'Sin', 'Sin'),
        'Sinh': ('Sinh', 'Sinh', 'Sinh'), 'SoftSign': ('SoftSign', 'Softsign', 'Softsign'),
        'Tan': ('Tan', 'Tan', 'Tan'), 'ThresholdedRelu': ('ThresholdedRelu', 'ThresholdedRelu', ''),
    },
    'mo.ops.adaptive_avg_pooling': {'AdaptiveAvgPooling': 'AdaptiveAvgPooling'},
    'mo.ops.arange_like': {'ArangeLikeOp': 'arange_like'},
    'mo.ops.argmin': {'ArgMinOp': ('ArgMin', 'ArgMin', 'ArgMin')},
    'mo.ops.assert_op': {'Assert': 'Assert'},
    'mo.ops.assign': {'Assign': 'Assign'},
    'mo.ops.aten': {'ATen': ('ATen', 'ATen', '')},
    'mo.ops.axpy': {'AxpyOp': 'Axpy'},
    'mo.ops.batch_dot': {'MXNetBatchDot': 'batch_dot'},
    'mo.ops.BatchNormInference': {'BatchNormInference': ('batchNormInference', 'BatchNormalization', '')},
    'mo.ops.binarization': {'Binarization': 'Binarization'},
    'mo.ops.BlockLSTM': {'BlockLSTM': ('BlockLSTM', '', 'BlockLSTM')},
    'mo.ops.BN': {'BN': 'BN'},
    'mo.ops.box_nms': {'BoxNms': '_contrib_box_nms'},
    'mo.ops.bucketize': {'Bucketize': ('Bucketize', '', 'Bucketize')},
    'mo.ops.ClipByValueTF': {'ClibByValueTF': ('ClipByValueTF', '', 'ClipByValue')},
    'mo.ops.Complex': {'Complex': ('Complex', '', 'Complex')},
    'mo.ops.constant_fill': {'ConstantFill': ('ConstantFill', 'ConstantFill', '')},
    'mo.ops.constant_of_shape': {'ConstantOfShape': ('ConstantOfShape', 'ConstantOfShape', '')},
    'mo.ops.ConvertLike': {'ConvertLike': 'ConvertLike'},
    'mo.ops.copyop': {'CopyOp': 'copy'},
    'mo.ops.crop': {'Crop': ('Crop', 'Crop', '')},
    'mo.ops.ctc_greedy_decoder': {'CTCGreedyDecoderOp': 'CTCGreedyDecoder'},
    'mo.ops.ctc_greedy_decoder_seq_len': {
        'CTCGreedyDecoderSeqLenOp': ('CTCGreedyDecoderSeqLen', 'CTCGreedyDecoder', 'CTCGreedyDecoder'),
    },
    'mo.ops.ctc_loss': {'CTCLoss': ('CTCLoss', '', 'CTCLoss')},
    'mo.ops.cumsum': {'CumSum': ('CumSum', 'CumSum', 'Cumsum'), 'MXNetCumSum': 'MXNetCumSum'},
    'mo.ops.deconvolution': {'Deconvolution': ('Deconvolution', '', 'Conv2DBackpropInput Conv3DBackpropInputV2')},
    'mo.ops.deformable_convolution': {'DeformableConvolution': ('DeformableConvolution', 'DeformableConv2D', '')},
    'mo.ops.depth_to_space': {'DepthToSpaceOp': ('DepthToSpace', 'DepthToSpace', 'DepthToSpace')},
    'mo.ops.dequantize_linear': {'DequantizeLinear': ('DequantizeLinear', 'DequantizeLinear', '')},
    'mo.ops.detection_output_onnx': {
        'ExperimentalDetectronDetectionOutput': ('ExperimentalDetectronDetectionOutput',
                                                 'ExperimentalDetectronDetectionOutput',
                                                 ''),
    },
    'mo.ops.dft': {'DFT': 'DFT', 'FFTBase': None, 'IDFT': 'IDFT', 'IRDFT': 'IRDFT', 'RDFT': 'RDFT'},
    'mo.ops.div_sqrt_dim': {'DivSqrtDimOp': '_contrib_div_sqrt_dim'},
    'mo.ops.dropoutmask': {'DropoutMask': 'dropoutmaskcomponent'},
    'mo.ops.elementwise': {
        'BiasAdd': (None, '', 'BiasAdd'), 'BitwiseAnd': 'BitwiseAnd', 'BitwiseNot': 'BitwiseNot',
        'BitwiseOr': 'BitwiseOr', 'BitwiseXor': 'BitwiseXor', 'LogicalElementwise': None, 'Negative': 'Negative',
        'Round': ('Round', 'Round', 'Round'), 'Sqrt': 'Sqrt', 'UnaryElementwise': None,
    },
    'mo.ops.eltwise_n': {
        'EltwiseN': 'EltwiseN', 'EltwiseNAdd': (None, 'Sum', 'AddN'), 'EltwiseNMax': (None, 'Max', ''),
        'EltwiseNMin': (None, 'Min', ''), 'EltwiseNMul': None,
    },
    'mo.ops.eltwise_ninputs_in_1': {'EltwiseNin1': 'EltwiseNin1'},
    'mo.ops.embedding_bag': {
        'EmbeddingBagBase': None, 'EmbeddingBagOffsetsSum': 'EmbeddingBagOffsetsSum',
        'EmbeddingBagPackedSum': 'EmbeddingBagPackedSum', 'EmbeddingSegmentsMean': 'EmbeddingSegmentsMean',
        'EmbeddingSegmentsSum': 'EmbeddingSegmentsSum',
    },
    'mo.ops.Enter': {'Enter': 'Enter'},
    'mo.ops.Exit': {'Exit': 'Exit'},
    'mo.ops.expand_dims': {'ExpandDims': ('ExpandDims', 'Unsqueeze', '')},
    'mo.ops.ExtractImagePatches': {'ExtractImagePatches': ('ExtractImagePatches', '', 'ExtractImagePatches')},
    'mo.ops.eye': {'Eye': 'Eye', 'MXEye': 'MXEye', 'TFEye': ('TFEye', '', 'Eye')},
    'mo.ops.fake_convert': {'FakeConvert': 'FakeConvert'},
    'mo.ops.fake_output': {'FakeOutput': 'FakeOutput'},
    'mo.ops.fakequantize': {'FakeQuantize': ('FakeQuantize', 'FakeQuantize', '')},
    'mo.ops.fill': {'Fill': ('Fill', '', 'Fill')},
    'mo.ops.flatten': {'Flatten': 'Flatten', 'FlattenONNX': ('FlattenONNX', 'Flatten LogSoftmaxONNX SoftMaxONNX', '')},
    'mo.ops.gather': {'AttributedGather': ('AttributedGather', 'Gather', 'Gather ResourceGather')},
    'mo.ops.gatherelements': {'GatherElements': ('GatherElements', 'GatherElements', '')},
    'mo.ops.gathernd': {'GatherND': ('GatherND', 'GatherND', 'GatherNd')},
    'mo.ops.GatherTree': {'GatherTree': ('GatherTree', '', 'GatherTree')},
    'mo.ops.gelu': {'GeLUOP': 'Gelu'},
    'mo.ops.grn': {'GRNOp': 'GRN'},
    'mo.ops.group_norm': {
        'GroupNorm': ('GroupNorm', 'ExperimentalDetectronGroupNorm GroupNorm', ''),
        'GroupNormalization': 'GroupNormalization',
    },
    'mo.ops.GRU': {'GRU': ('GRU', 'GRU', '')},
    'mo.ops.GRUBlockCell': {'GRUBlockCell': ('GRUBlockCell', '', 'GRUBlockCell')},
    'mo.ops.GRUCell': {'GRUCell': 'GRUCell'},
    'mo.ops.hard_sigmoid': {'HardSigmoid': ('HardSigmoid', 'HardSigmoid', '')},
    'mo.ops.identity': {'IdentityN': ('IdentityN', '', 'IdentityN')},
    'mo.ops.If': {'If': 'If'},
    'mo.ops.instance_normalization': {'InstanceNormalization': ('InstanceNormalization', 'InstanceNormalization', '')},
    'mo.ops.interp': {'InterpOp': 'Interp'},
    'mo.ops.layer_norm': {'LayerNorm': 'LayerNorm'},
    'mo.ops.log_softmax': {
        'LogSoftmax': ('LogSoftmax', 'LogSoftmaxONNX', 'LogSoftmax'),
        'LogSoftmaxONNX': ('LogSoftmaxONNX', 'LogSoftmax', ''),
    },
    'mo.ops.LookupTableInsert': {
        'LookupTableInsert': ('LookupTableInsert', '', 'LookupTableInsert LookupTableInsertV2'),
    },
    'mo.ops.lrn': {'AttributedLRN': ('AttributedLRN', 'LRN', 'LRN'), 'LRN': 'LRN'},
    'mo.ops.LSTM': {'LSTM': ('LSTM', 'LSTM', '')},
    'mo.ops.lstm_sequence': {'LSTMSequence': 'LSTMSequence'},
    'mo.ops.lstmnonlinearity': {'LstmNonLinearity': 'LstmNonLinearity'},
    'mo.ops.MatMul': {'FullyConnected': 'FullyConnected', 'Gemm': 'GEMM', 'GemmONNX': ('Gemm', 'Gemm', '')},
    'mo.ops.memory': {'Memory': 'Memory'},
    'mo.ops.memoryoffset': {'MemoryOffset': 'MemoryOffset'},
    'mo.ops.merge': {'Merge': 'Merge'},
    'mo.ops.multinomial': {'Multinomial': 'Multinomial'},
    'mo.ops.mvn': {'MVNCaffe': 'MVNCaffe', 'MVNOnnx': ('MVNOnnx', 'MeanVarianceNormalization', '')},
    'mo.ops.mxfft': {'MXFFT': 'MXFFT'},
    'mo.ops.mxrepeat': {'MXRepeat': 'MXRepeat'},
    'mo.ops.mxreshape': {'MXReshape': 'MXReshape'},
    'mo.ops.NextIteration': {'NextIteration': 'NextIteration'},
    'mo.ops.nms_rotated': {'NMSRotated': 'NMSRotated'},
    'mo.ops.non_zero': {'NonZero': ('NonZero', 'NonZero', 'Where')},
    'mo.ops.normalize': {'NormalizeOp': ('Normalize', 'Normalize', '')},
    'mo.ops.normalize_l2': {'NormalizeL2Op': ('NormalizeL2', 'LpNormalization', '')},
    'mo.ops.one_hot': {'OneHot': ('OneHot', 'OneHot', 'OneHot')},
    'mo.ops.ONNXResize10': {'ONNXResize10': ('ONNXResize10', 'Resize Upsample', '')},
    'mo.ops.ONNXResize11': {'ONNXResize11Op': ('ONNXResize11', 'Resize', '')},
    'mo.ops.pack': {'PackOp': 'Pack'},
    'mo.ops.pad': {
        'AttributedPad': ('AttributedPad', 'Pad', ''), 'ONNXPad': ('ONNXPad', 'Pad', ''),
        'TFPad': ('TFPad', '', 'MirrorPad Pad PadV2'),
    },
    'mo.ops.permute': {'Permute': 'Permute'},
    'mo.ops.pnorm': {'PNormOp': 'pnorm'},
    'mo.ops.pooling': {
        'Pooling': ('Pooling',
                    'AveragePool GlobalAveragePool GlobalMaxPool MaxPool',
                    'AvgPool AvgPool3D MaxPool MaxPool3D'),
        'PoolingV2': ('PoolingV2', '', 'AvgPoolV2 MaxPoolV2'),
    },
    'mo.ops.power': {'AttributedPower': ('AttributedPower', 'Neg Scale Sqrt', 'Neg Rsqrt Sqrt Square ZerosLike')},
    'mo.ops.priorbox': {'PriorBoxOp': ('PriorBox', 'PriorBox', '')},
    'mo.ops.priorbox_clustered': {'PriorBoxClusteredOp': ('PriorBoxClustered', 'PriorBoxClustered', '')},
    'mo.ops.priorgridgenerator_onnx': {
        'ExperimentalDetectronPriorGridGenerator': ('ExperimentalDetectronPriorGridGenerator',
                                                    'ExperimentalDetectronPriorGridGenerator',
                                                    ''),
    },
    'mo.ops.proposal': {'ProposalOp': 'Proposal'},
    'mo.ops.proposal_onnx': {
        'ExperimentalDetectronGenerateProposalsSingleImage': ('ExperimentalDetectronGenerateProposalsSingleImage',
                                                              'ExperimentalDetectronGenerateProposalsSingleImage',
                                                              ''),
    },
    'mo.ops.proposal_python_example': {'ProposalPythonExampleOp': 'Proposal'},
    'mo.ops.psroipooling': {'DeformablePSROIPoolingOp': 'DeformablePSROIPooling', 'PSROIPoolingOp': 'PSROIPooling'},
    'mo.ops.quantize_linear': {'QuantizeLinear': ('QuantizeLinear', 'QuantizeLinear', '')},
    'mo.ops.random_uniform': {
        'AttributedRandomUniform': ('AttributedRandomUniform', 'RandomUniform', 'RandomUniform'),
        'RandomUniform': ('RandomUniform', '', 'RandomUniformInt'),
    },
    'mo.ops.rank': {'Rank': ('Rank', '', 'Rank')},
    'mo.ops.read_value': {'ReadValue': 'ReadValue'},
    'mo.ops.ReduceOps': {
        'ReduceL1': ('ReduceL1', 'ReduceL1', ''), 'ReduceL2': ('ReduceL2', 'ReduceL2', 'EuclideanNorm'),
        'ReduceOp': None,
    },
    'mo.ops.reorgyolo': {'ReorgYoloOp': 'ReorgYolo'},
    'mo.ops.resize': {'ResizeOp': 'Resize'},
    'mo.ops.resize_factor_utils': {},
    'mo.ops.restrictedattentioncomponent': {'RestrictedAttentionComponent': 'restrictedattentioncomponent'},
    'mo.ops.Reverse': {'Reverse': ('Reverse', '', 'ReverseV2')},
    'mo.ops.reverse_sequence': {'ReverseSequence': ('ReverseSequence', 'ReverseSequence', 'ReverseSequence')},
    'mo.ops.RNN': {'RNN': ('RNN', 'RNN', '')},
    'mo.ops.RNNCell': {'RNNCell': 'RNNCell'},
    'mo.ops.roialign': {'ROIAlign': ('ROIAlign', 'ROIAlign RoiAlign', '')},
    'mo.ops.roifeatureextractor_onnx': {
        'ExperimentalDetectronROIFeatureExtractor': ('ExperimentalDetectronROIFeatureExtractor',
                                                     'ExperimentalDetectronROIFeatureExtractor',
                                                     ''),
    },
    'mo.ops.roipooling': {'ROIPooling': ('ROIPooling', '', 'CropAndResize')},
    'mo.ops.roll': {'AttributedRoll': 'AttributedRoll', 'Roll': ('Roll', '', 'Roll')},
    'mo.ops.scale_shift': {'ScaleShiftOp': 'ScaleShift'},
    'mo.ops.scatter': {
        'Scatter': None, 'ScatterAdd': 'ScatterAdd', 'ScatterDiv': 'ScatterDiv',
        'ScatterElementsAdd': 'ScatterElementsAdd', 'ScatterElementsDiv': 'ScatterElementsDiv',
        'ScatterElementsMax': 'ScatterElementsMax', 'ScatterElementsMin': 'ScatterElementsMin',
        'ScatterElementsMul': 'ScatterElementsMul', 'ScatterElementsSub': 'ScatterElementsSub',
        'ScatterElementsUpdate': ('ScatterElementsUpdate', 'Scatter ScatterElements', ''), 'ScatterMax': 'ScatterMax',
        'ScatterMin': 'ScatterMin', 'ScatterMul': 'ScatterMul', 'ScatterSub': 'ScatterSub',
        'ScatterUpdate': 'ScatterUpdate',
    },
    'mo.ops.scatternd': {
        'ScatterNDBase': None, 'ScatterNDUpdate': ('ScatterNDUpdate', 'ScatterND', 'SparseToDense'),
        'TFScatterND': ('TFScatterND', '', 'ScatterNd'),
    },
    'mo.ops.shufflechannel': {'ShuffleChannels': 'ShuffleChannels'},
    'mo.ops.size': {'Size': ('Size', 'Size', 'Size')},
    'mo.ops.slice': {
        'AttributedSlice': ('AttributedSlice', 'Slice', ''), 'CaffeSlice': 'CaffeSlice', 'MXSlice': 'MXSlice',
        'OvSlice': 'OvSlice', 'TFSlice': ('TFSlice', '', 'Slice'),
    },
    'mo.ops.slice_like': {'SliceLike': 'slice_like'},
    'mo.ops.softmax': {'SoftmaxONNX': ('SoftMaxONNX', 'Softmax', '')},
    'mo.ops.space_to_batch': {
        'BatchToSpace': ('BatchToSpace', '', 'BatchToSpaceND'), 'SpaceToBatch': ('SpaceToBatch', '', 'SpaceToBatchND'),
    },
    'mo.ops.space_to_depth': {'SpaceToDepth': ('SpaceToDepth', 'SpaceToDepth', 'SpaceToDepth')},
    'mo.ops.sparse_fill_empty_rows': {'SparseFillEmptyRows': ('SparseFillEmptyRows', '', 'SparseFillEmptyRows')},
    'mo.ops.sparse_reshape': {'SparseReshape': 'SparseReshape'},
    'mo.ops.sparse_segment_mean': {'SparseSegmentMean': ('SparseSegmentMean', '', 'SparseSegmentMean')},
    'mo.ops.sparse_segment_sqrtn': {'SparseSegmentSqrtN': ('SparseSegmentSqrtN', '', 'SparseSegmentSqrtN')},
    'mo.ops.sparse_segment_sum': {'SparseSegmentSum': ('SparseSegmentSum', '', 'SparseSegmentSum')},
    'mo.ops.splice': {'Splice': 'Splice'},
    'mo.ops.split': {
        'AttributedSplit': ('AttributedSplit', 'Split', 'Unpack'),
        'AttributedVariadicSplit': ('AttributedVariadicSplit', 'Split', ''), 'SplitBase': None,
        'VariadicSplitBase': None,
    },
    'mo.ops.stop_gradient': {'StopGradientOp': 'StopGradient'},
    'mo.ops.swapaxis': {'SwapAxis': 'SwapAxis'},
    'mo.ops.switch': {'Switch': 'Switch'},
    'mo.ops.tdnncomponent': {'TdnnComponent': 'tdnncomponent'},
    'mo.ops.tensor_iterator': {'TensorIterator': 'TensorIterator'},
    'mo.ops.TensorArray': {'TensorArray': ('TensorArrayV3', '', 'TensorArrayV3')},
    'mo.ops.TensorArrayGather': {'TensorArrayGather': ('TensorArrayGatherV3', '', 'TensorArrayGatherV3')},
    'mo.ops.TensorArrayRead': {'TensorArrayReader': 'TensorArrayReadV3'},
    'mo.ops.TensorArrayScatter': {'TensorArrayScatter': 'TensorArrayScatterV3'},
    'mo.ops.TensorArraySize': {'TensorArraySize': 'TensorArraySizeV3'},
    'mo.ops.TensorArrayWrite': {'TensorArrayWriter': 'TensorArrayWriteV3'},
    'mo.ops.TensorIterator_ops': {
        'TensorIteratorBackEdge': 'TensorIteratorBackEdge', 'TensorIteratorCondition': 'TensorIteratorCondition',
        'TensorIteratorInput': 'TensorIteratorInput', 'TensorIteratorOutput': 'TensorIteratorOutput',
    },
    'mo.ops.TFFFT': {
        'TFFFT': ('TFFFT', '', 'FFT FFT2D FFT3D IFFT IFFT2D IFFT3D IRFFT IRFFT2D IRFFT3D RFFT RFFT2D RFFT3D'),
    },
    'mo.ops.TFIRFFT': {'TFIRFFT': 'TFIRFFT'},
    'mo.ops.TFResize': {'TFResize': ('TFResize', '', 'ResizeBilinear ResizeNearestNeighbor')},
    'mo.ops.TFRFFT': {'TFRFFT': 'TFRFFT'},
    'mo.ops.TFScatterND': {'TFScatterND': 'TFScatterND'},
    'mo.ops.tile': {'AttributedTile': 'AttributedTile'},
    'mo.ops.timeheightconvolution': {'TimeHeightConvolutionComponent': 'timeheightconvolutioncomponent'},
    'mo.ops.topkrois_onnx': {
        'ExperimentalDetectronTopKROIs': ('ExperimentalDetectronTopKROIs', 'ExperimentalDetectronTopKROIs', ''),
    },
    'mo.ops.unique': {'Unique': ('Unique', '', 'Unique')},
    'mo.ops.upsample': {'UpsampleOp': ('Upsample', 'Upsample', '')},
}

#: the directory that holds the ``mo`` package, and the wing's tree of legacy paths
_WING = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_WING))


def _has_file(fullname: str) -> bool:
    """True for a module with a file of its own: a live one (``mo/ops/pad.py``) or one of the wing's tree
    (``mo/compat/mo/ops/MatMul.py``), which takes its missing names from this table through ``ops_hook``."""
    parts = fullname.split('.')
    return any(os.path.isfile(os.path.join(root, *parts) + '.py') for root in (_ROOT, _WING))


class _DeclaredModuleLoader(importlib.abc.Loader):
    """Fills a declared op module with its stand-ins."""

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        module.__doc__ = "The Model Optimizer's ``{}``, declared in ``mo.compat.op_modules``.".format(module.__name__)
        names = sorted(OP_MODULES[module.__name__])
        for name in names:
            setattr(module, name, make_class(module.__name__, name, OP_MODULES[module.__name__][name]))
        module.__all__ = names


def find_spec(fullname: str):
    """The spec of a declared op module that mo has no file for, else None."""
    if fullname not in OP_MODULES or _has_file(fullname):
        return None
    return importlib.machinery.ModuleSpec(fullname, _DeclaredModuleLoader(), origin=__file__)


def declared_modules() -> list:
    """The Model Optimizer's op module paths that only this table serves (no file, live or in the wing)."""
    return sorted(name for name in OP_MODULES if not _has_file(name))


_made = {}


def legacy_attribute(module: str, name: str):
    """``module.name`` for a live op module that lacks it: its stand-in of ``OP_MODULES``, made once; AttributeError
    otherwise (as a module's ``__getattr__`` must)."""
    key = (module, name)
    if key not in _made:
        if name not in OP_MODULES.get(module, {}):
            raise AttributeError('module {!r} has no attribute {!r}'.format(module, name))
        _made[key] = make_class(module, name, OP_MODULES[module][name])
    return _made[key]
