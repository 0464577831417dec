"""Extractors for the common ``com.microsoft`` ops that onnxruntime's transformer optimizer writes.

Each becomes an internal op named ``ONNXMS<op>`` carrying the attributes read here; ``microsoft_lowering`` builds it
from opset ops. The contrib ``Gelu`` (no attributes: the erf form) shares its op_type with ONNX's Gelu, whose
extractor in ``math_ext`` already reads it correctly (``approximate`` defaults to ``none``).
"""
from extensions.front.onnx.math_ext import internal_op
from extensions.front.onnx.nn_ext import window_attrs
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import onnx_attr
from mo.utils.error import Error

_DOMAIN = 'com.microsoft'

#: FusedConv's activations and the number of activation_params each takes (with onnxruntime's defaults)
FUSED_CONV_ACTIVATIONS = {'': (), 'Relu': (), 'Tanh': (), 'Sigmoid': (), 'LeakyRelu': (0.01,),
                          'Clip': (float('-inf'), float('inf')), 'HardSigmoid': (0.2, 0.5)}

#: FusedGemm's activations (onnxruntime's element-wise activation functors) and the activation_* attributes each needs
#: (onnxruntime gives none of them a default)
FUSED_GEMM_ACTIVATIONS = {'Relu': (), 'Tanh': (), 'Sigmoid': (), 'Softplus': (), 'Softsign': (),
                          'LeakyRelu': ('alpha',), 'Elu': ('alpha',), 'Celu': ('alpha',), 'ThresholdedRelu': ('alpha',),
                          'HardSigmoid': ('alpha', 'beta'), 'Selu': ('alpha', 'gamma'),
                          'ParametricSoftplus': ('alpha', 'beta'), 'ScaledTanh': ('alpha', 'beta')}


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _epsilon(node, op: str, default: float) -> float:
    epsilon = float(onnx_attr(node, 'epsilon', 'f', default))
    if not epsilon >= 0:  # a negative one takes the root of a negative number where the input is near zero
        raise Error('{} "{}": epsilon {} must not be negative', op, _name(node), epsilon)
    return epsilon


class FastGeluExtractor(FrontExtractorOp):
    """com.microsoft FastGelu(X, bias) -> the tanh approximation of Gelu of X + bias (bias optional)."""
    op = 'FastGelu'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSGelu', approximate='tanh')


class BiasGeluExtractor(FrontExtractorOp):
    """com.microsoft BiasGelu(A, B) -> Gelu (erf form) of A + B."""
    op = 'BiasGelu'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSGelu', approximate='none')


class QuickGeluExtractor(FrontExtractorOp):
    """com.microsoft QuickGelu(X) -> X * Sigmoid(alpha * X) (alpha 1.702 by default)."""
    op = 'QuickGelu'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSQuickGelu', alpha=float(onnx_attr(node, 'alpha', 'f', 1.702)))


class SkipLayerNormalizationExtractor(FrontExtractorOp):
    """com.microsoft SkipLayerNormalization(input, skip, gamma, beta, bias) -> s = input + skip (+ bias), MVN of s
    over the last axis * gamma (+ beta); outputs mean, inv_std_var (kept last axis) and the sum s when read."""
    op = 'SkipLayerNormalization'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSSkipLayerNormalization', epsilon=float(onnx_attr(node, 'epsilon', 'f', 1e-12)))


class SkipSimplifiedLayerNormalizationExtractor(FrontExtractorOp):
    """com.microsoft SkipSimplifiedLayerNormalization(input, skip, gamma, bias) -> s = input + skip (+ bias), RMS
    normalization of s over the last axis * gamma; outputs mean (zeros: no centering), inv_std_var (kept last axis,
    float32) and the sum s when read."""
    op = 'SkipSimplifiedLayerNormalization'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSSkipSimplifiedLayerNormalization',
                           epsilon=_epsilon(node, 'SkipSimplifiedLayerNormalization', 1e-12))


class SimplifiedLayerNormalizationExtractor(FrontExtractorOp):
    """SimplifiedLayerNormalization(X, scale) (onnxruntime writes it in the default domain; com.microsoft too) -> RMS
    normalization of X over the axes from ``axis`` on * scale; inv_std_var (float32, those axes kept) when read."""
    op = 'SimplifiedLayerNormalization'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        stash_type = onnx_attr(node, 'stash_type', 'i', 1)
        if stash_type != 1:
            # onnxruntime's kernels keep the statistics in float32 only (element type 1)
            raise Error('SimplifiedLayerNormalization "{}": stash_type {} is not supported (only 1, float32)',
                        _name(node), stash_type)
        return internal_op(node, 'ONNXMSSimplifiedLayerNormalization', axis=int(onnx_attr(node, 'axis', 'i', -1)),
                           epsilon=_epsilon(node, 'SimplifiedLayerNormalization', 1e-5))


class FusedMatMulExtractor(FrontExtractorOp):
    """com.microsoft FusedMatMul(A, B) -> alpha * MatMul(A, B) with transA/transB (swap the last two axes).
    transBatchA/transBatchB (batch axes moved behind the matrix axes) are not supported."""
    op = 'FusedMatMul'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        for attr in ('transBatchA', 'transBatchB'):
            if onnx_attr(node, attr, 'i', 0):
                raise Error('FusedMatMul "{}": {} = 1 is not supported', _name(node), attr)
        return internal_op(node, 'ONNXMSFusedMatMul', alpha=float(onnx_attr(node, 'alpha', 'f', 1.0)),
                         transpose_a=bool(onnx_attr(node, 'transA', 'i', 0)),
                         transpose_b=bool(onnx_attr(node, 'transB', 'i', 0)))


class FusedConvExtractor(FrontExtractorOp):
    """com.microsoft FusedConv(X, W, B, Z) -> activation(Conv(X, W, B) + Z): Conv's attributes, Z optional;
    activation one of Relu, Tanh, Sigmoid, LeakyRelu (alpha), Clip (min, max), HardSigmoid (alpha, beta), the
    numbers from activation_params."""
    op = 'FusedConv'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        name = _name(node)
        group = onnx_attr(node, 'group', 'i', 1)
        if group < 1:
            raise Error('FusedConv "{}": group {} must be positive', name, group)
        activation = onnx_attr(node, 'activation', 's', b'')
        activation = activation.decode() if isinstance(activation, bytes) else activation
        if activation not in FUSED_CONV_ACTIVATIONS:
            raise Error('FusedConv "{}": activation "{}" is not one of {}', name, activation,
                        sorted(a for a in FUSED_CONV_ACTIVATIONS if a))
        defaults = FUSED_CONV_ACTIVATIONS[activation]
        params = [float(v) for v in onnx_attr(node, 'activation_params', 'floats', [])]
        if params and len(params) != len(defaults):
            raise Error('FusedConv "{}": activation {} takes {} activation_params, got {}', name, activation,
                        len(defaults), len(params))
        node.attrs().update(dict(window_attrs(node), group=int(group)))
        return internal_op(node, 'ONNXMSFusedConv', activation=activation,
                         activation_params=tuple(params) if params else defaults)


class FusedGemmExtractor(FrontExtractorOp):
    """com.microsoft FusedGemm(A, B, C) -> activation(alpha * MatMul(A, B, transA, transB) + beta * C), activation
    one of FUSED_GEMM_ACTIVATIONS with its parameters from activation_alpha/beta/gamma (none: the Gemm alone)."""
    op = 'FusedGemm'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        name = _name(node)
        activation = onnx_attr(node, 'activation', 's', b'')
        activation = activation.decode() if isinstance(activation, bytes) else activation
        if activation and activation not in FUSED_GEMM_ACTIVATIONS:
            raise Error('FusedGemm "{}": activation "{}" is not one of {}', name, activation,
                        sorted(FUSED_GEMM_ACTIVATIONS))
        params = {}
        for param in FUSED_GEMM_ACTIVATIONS.get(activation, ()):
            value = onnx_attr(node, 'activation_' + param, 'f', None)
            if value is None:
                raise Error('FusedGemm "{}": activation {} needs the attribute activation_{}', name, activation, param)
            params[param] = float(value)
        return internal_op(node, 'ONNXMSFusedGemm', activation=activation, activation_params=params,
                           alpha=float(onnx_attr(node, 'alpha', 'f', 1.0)),
                           beta=float(onnx_attr(node, 'beta', 'f', 1.0)),
                           transpose_a=bool(onnx_attr(node, 'transA', 'i', 0)),
                           transpose_b=bool(onnx_attr(node, 'transB', 'i', 0)))


class BiasAddExtractor(FrontExtractorOp):
    """com.microsoft BiasAdd(X, bias, skip) -> X + bias + skip."""
    op = 'BiasAdd'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSBiasAdd')


class EmbedLayerNormalizationExtractor(FrontExtractorOp):
    """com.microsoft EmbedLayerNormalization(input_ids, segment_ids, word_embedding, position_embedding,
    segment_embedding, gamma, beta, mask, position_ids) -> the sum of the Gathered embeddings (positions 0..S-1 unless
    position_ids), MVN over the last axis * gamma + beta; mask_index = ReduceSum(mask, axis 1) as int32 (zeros
    without a mask); embedding_sum when read."""
    op = 'EmbedLayerNormalization'
    framework = 'onnx'

    @classmethod
    def extract(cls, node):
        return internal_op(node, 'ONNXMSEmbedLayerNormalization',
                         epsilon=float(onnx_attr(node, 'epsilon', 'f', 1e-12)))
