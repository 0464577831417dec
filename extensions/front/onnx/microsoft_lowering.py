"""The ``com.microsoft`` ops as opset ops (the internal ``ONNXMS*`` ops ``microsoft_ext.py`` extracts).

Constants take the element type of the tensor they meet (ConvertLike, folded at inference), so float16 converts too.
"""
import numpy as np

from mo.front.common.nn_formulas import I64, gelu, like
from extensions.front.onnx.nn_lowering import add_bias, grouped_weights, window
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp, Elu, ReLU, Sigmoid, SoftPlus, Tanh
from mo.ops.convolution import Convolution, GroupConvolution
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Greater, Maximum, Minimum, Mul, Pow, Sub
from mo.ops.gather import Gather
from mo.ops.math_ops import SoftSign
from mo.ops.matmul import MatMul
from mo.ops.mvn import MVN
from mo.ops.nn_ops import PRelu, Selu
from mo.ops.range import Range
from mo.ops.reduce import ReduceMean, ReduceSum
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.utils.error import Error


class ONNXMSGeluLowering(OpRule):
    """FastGelu(X, bias) / BiasGelu(A, B) = Gelu(X + bias) (tanh form for FastGelu, erf form for BiasGelu)."""
    op = 'ONNXMSGelu'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        if node.is_in_port_connected(1):
            x = b.op(Add, [x, node.in_port(1)], 'bias_add')
        return gelu(b, x, node.approximate)


class ONNXMSQuickGeluLowering(OpRule):
    """QuickGelu(X) = X * Sigmoid(alpha * X)."""
    op = 'ONNXMSQuickGelu'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0).get_source()
        scaled = b.op(Mul, [x, like(b, node.alpha, x, 'alpha')], 'scaled')
        return b.op(Mul, [x, b.op(Sigmoid, [scaled], 'sigmoid')], 'quick_gelu')


class ONNXMSSkipLayerNormalizationLowering(OpRule):
    """SkipLayerNormalization(input, skip, gamma, beta, bias): s = input + skip (+ bias); output = MVN(s, last axis)
    * gamma (+ beta); mean = ReduceMean(s), inv_std_var = (ReduceMean((s - mean)^2) + epsilon)^-1/2 (last axis
    kept; float32 for every input type); input_skip_bias_sum = s."""
    op = 'ONNXMSSkipLayerNormalization'

    def rewrite(self, node: Node, b: Builder):
        for port, what in ((1, 'skip'), (2, 'gamma')):
            if not node.is_in_port_connected(port):
                raise Error('SkipLayerNormalization "{}" has no input {} ({})', b.name, port, what)
        s = b.op(Add, [node.in_port(0), node.in_port(1)], 'skip_add')
        if node.is_in_port_connected(4):
            s = b.op(Add, [s, node.in_port(4)], 'bias_add')
        axes = b.const([-1], 'axes', I64)
        normalized = b.op(MVN, [s, axes], 'mvn', eps=node.epsilon, eps_mode='inside_sqrt', normalize_variance=1)
        y = b.op(Mul, [normalized, node.in_port(2)], 'scale')
        if node.is_in_port_connected(3):
            y = b.op(Add, [y, node.in_port(3)], 'shift')
        mean = inv_std = None
        if node.is_out_port_connected(1) or node.is_out_port_connected(2):
            # onnxruntime's statistics are float32 whatever the input's type
            s32 = b.op(Convert, [s], 'sum_f32', dst_type=np.dtype(np.float32))
            mean = b.op(ReduceMean, [s32, axes], 'mean', keep_dims=True)
            centered = b.op(Sub, [s32, mean], 'centered')
            var = b.op(ReduceMean, [b.op(Mul, [centered, centered], 'squared'), axes], 'var', keep_dims=True)
            var_eps = b.op(Add, [var, like(b, node.epsilon, var, 'epsilon')], 'var_eps')
            inv_std = b.op(Pow, [var_eps, like(b, -0.5, var, 'minus_half')], 'inv_std_var')
        return [y, mean, inv_std, s if node.is_out_port_connected(3) else None]


class ONNXMSFusedMatMulLowering(OpRule):
    """FusedMatMul(A, B) = MatMul(A, B, transA, transB) * alpha."""
    op = 'ONNXMSFusedMatMul'

    def rewrite(self, node: Node, b: Builder):
        product = b.op(MatMul, [node.in_port(0), node.in_port(1)], 'matmul', transpose_a=node.transpose_a,
                       transpose_b=node.transpose_b)
        if node.alpha == 1.0:
            return product
        return b.op(Mul, [product, like(b, node.alpha, product, 'alpha')], 'scale')


class ONNXMSFusedConvLowering(OpRule):
    """FusedConv(X, W, B, Z) = activation(Conv(X, W) + B + Z) (GroupConvolution for group > 1)."""
    op = 'ONNXMSFusedConv'

    def rewrite(self, node: Node, b: Builder):
        if node.group == 1:
            y = b.op(Convolution, [node.in_port(0), node.in_port(1)], 'conv', **window(node))
        else:
            weights = grouped_weights(b, node.in_port(1), node.group, 'weights')
            y = b.op(GroupConvolution, [node.in_port(0), weights], 'conv', **window(node))
        y = add_bias(b, node, y, 2)
        if node.is_in_port_connected(3):
            y = b.op(Add, [y, node.in_port(3)], 'sum_add')
        return self._activation(b, y, node.activation, node.activation_params)

    @staticmethod
    def _activation(b: Builder, y, activation: str, params):
        if activation == 'Relu':
            return b.op(ReLU, [y], 'relu')
        if activation == 'Tanh':
            return b.op(Tanh, [y], 'tanh')
        if activation == 'Sigmoid':
            return b.op(Sigmoid, [y], 'sigmoid')
        if activation == 'LeakyRelu':
            return b.op(PRelu, [y, like(b, [params[0]], y, 'alpha')], 'leaky_relu')
        if activation == 'Clip':
            # Maximum/Minimum rather than Clamp: the bounds may be infinite
            low = b.op(Maximum, [y, like(b, params[0], y, 'min')], 'clip_min')
            return b.op(Minimum, [low, like(b, params[1], y, 'max')], 'clip')
        if activation == 'HardSigmoid':
            line = b.op(Add, [b.op(Mul, [y, like(b, params[0], y, 'alpha')], 'scaled'), like(b, params[1], y, 'beta')],
                        'line')
            return b.op(Clamp, [line], 'hard_sigmoid', min=0.0, max=1.0)
        return y


class ONNXMSFusedGemmLowering(OpRule):
    """FusedGemm(A, B, C) = activation(alpha * MatMul(A, B, transA, transB) + beta * C) (each factor only where it is
    not 1; no C, or beta 0: the product alone)."""
    op = 'ONNXMSFusedGemm'

    def rewrite(self, node: Node, b: Builder):
        a = node.in_port(0).get_source()
        y = b.op(MatMul, [a, node.in_port(1)], 'matmul', transpose_a=node.transpose_a, transpose_b=node.transpose_b)
        if node.alpha != 1.0:
            y = b.op(Mul, [y, like(b, node.alpha, a, 'alpha')], 'alpha_product')
        if node.is_in_port_connected(2) and node.beta != 0.0:
            c = node.in_port(2).get_source()
            if node.beta != 1.0:
                c = b.op(Mul, [c, like(b, node.beta, a, 'beta')], 'beta_c')
            y = b.op(Add, [y, c], 'gemm')
        return fused_gemm_activation(b, y, node.activation, node.activation_params)


def fused_gemm_activation(b: Builder, y, activation: str, params: dict):
    """``activation`` of ``y`` as onnxruntime's element-wise activation functors compute it (``params``: alpha, beta,
    gamma as FusedGemm's activation_* attributes give them)."""
    simple = {'Relu': ReLU, 'Tanh': Tanh, 'Sigmoid': Sigmoid, 'Softplus': SoftPlus, 'Softsign': SoftSign}
    if activation in simple:
        return b.op(simple[activation], [y], activation.lower())
    if not activation:
        return y
    alpha = params['alpha']
    if activation == 'LeakyRelu':
        return b.op(PRelu, [y, like(b, [alpha], y, 'alpha')], 'leaky_relu')
    if activation == 'Elu':
        return b.op(Elu, [y], 'elu', alpha=alpha)
    if activation == 'Celu':
        # Celu(x) = alpha * Elu(x / alpha)
        elu = b.op(Elu, [b.op(Div, [y, like(b, alpha, y, 'alpha')], 'scaled')], 'elu', alpha=1.0)
        return b.op(Mul, [elu, like(b, alpha, y, 'alpha_out')], 'celu')
    if activation == 'ThresholdedRelu':
        above = b.op(Greater, [y, like(b, alpha, y, 'alpha')], 'above')
        return b.op(Select, [above, y, like(b, 0, y, 'zero')], 'thresholded_relu')
    if activation == 'Selu':
        return b.op(Selu, [y, like(b, [alpha], y, 'alpha'), like(b, [params['gamma']], y, 'gamma')], 'selu')
    beta = params['beta']
    if activation == 'HardSigmoid':
        line = b.op(Add, [b.op(Mul, [y, like(b, alpha, y, 'alpha')], 'scaled'), like(b, beta, y, 'beta')], 'line')
        return b.op(Clamp, [line], 'hard_sigmoid', min=0.0, max=1.0)
    # ParametricSoftplus(x) = alpha * Softplus(beta * x), ScaledTanh(x) = alpha * Tanh(beta * x)
    scaled = b.op(Mul, [y, like(b, beta, y, 'beta')], 'scaled')
    inner = b.op(SoftPlus if activation == 'ParametricSoftplus' else Tanh, [scaled], 'inner')
    return b.op(Mul, [inner, like(b, alpha, y, 'alpha')], activation.lower())


class ONNXMSBiasAddLowering(OpRule):
    """BiasAdd(X, bias, skip) = X + bias + skip."""
    op = 'ONNXMSBiasAdd'

    def rewrite(self, node: Node, b: Builder):
        for port, what in ((1, 'bias'), (2, 'skip')):
            if not node.is_in_port_connected(port):
                raise Error('BiasAdd "{}" has no input {} ({})', b.name, port, what)
        return b.op(Add, [b.op(Add, [node.in_port(0), node.in_port(1)], 'bias_add'), node.in_port(2)], 'skip_add')


class ONNXMSEmbedLayerNormalizationLowering(OpRule):
    """EmbedLayerNormalization: e = word_embedding[input_ids] + position_embedding[position_ids or 0..S-1]
    (+ segment_embedding[segment_ids]); output = MVN(e, last axis) * gamma + beta; mask_index = ReduceSum(mask, 1)
    (int32; zeros [B] without a mask); embedding_sum = e."""
    op = 'ONNXMSEmbedLayerNormalization'

    def rewrite(self, node: Node, b: Builder):
        inputs = {port: node.in_port(port) for port in range(9) if node.is_in_port_connected(port)}
        return embed_layer_normalization(b, 'EmbedLayerNormalization', inputs, node.epsilon,
                                         [node.is_out_port_connected(port) for port in range(3)])


def embed_layer_normalization(b: Builder, op: str, inputs: dict, epsilon: float, wanted):
    """EmbedLayerNormalization's outputs (output, mask_index, embedding_sum; None for those not ``wanted``) from
    ``inputs``, the tensors by EmbedLayerNormalization's input port (input_ids 0, segment_ids 1, word_embedding 2,
    position_embedding 3, segment_embedding 4, gamma 5, beta 6, mask 7, position_ids 8; a missing port is absent)."""
    for port, what in ((2, 'word_embedding'), (3, 'position_embedding'), (5, 'gamma'), (6, 'beta')):
        if port not in inputs:
            raise Error('{} "{}" has no input {} ({})', op, b.name, port, what)
    if (1 in inputs) != (4 in inputs):
        raise Error('{} "{}": segment_ids and segment_embedding come together', op, b.name)
    axis0 = b.const(np.array(0, I64), 'axis0')
    ids = inputs[0]
    e = b.op(Gather, [inputs[2], ids, axis0], 'word')
    if 8 in inputs:
        positions = inputs[8]
    else:
        shape = b.op(ShapeOf, [ids], 'ids_shape', output_type=I64)
        length = b.op(Gather, [shape, b.const(np.array(1, I64), 'seq_axis'), axis0], 'seq_length')
        positions = b.op(Range, [b.const(np.array(0, I64), 'start'), length, b.const(np.array(1, I64), 'step')],
                         'positions', output_type=np.dtype(I64))
    e = b.op(Add, [e, b.op(Gather, [inputs[3], positions, axis0], 'position')], 'add_position')
    if 1 in inputs:
        e = b.op(Add, [e, b.op(Gather, [inputs[4], inputs[1], axis0], 'segment')], 'add_segment')
    normalized = b.op(MVN, [e, b.const([-1], 'axes', I64)], 'mvn', eps=epsilon, eps_mode='inside_sqrt',
                      normalize_variance=1)
    y = b.op(Add, [b.op(Mul, [normalized, inputs[5]], 'scale'), inputs[6]], 'shift')
    mask_index = None
    if wanted[1]:
        if 7 in inputs:
            total = b.op(ReduceSum, [inputs[7], b.const([1], 'mask_axis', I64)], 'mask_sum', keep_dims=False)
            mask_index = b.op(Convert, [total], 'mask_index', dst_type=np.dtype(np.int32))
        else:
            batch = b.op(Gather, [b.op(ShapeOf, [ids], 'batch_shape', output_type=I64),
                                  b.const([0], 'batch_axis', I64), axis0], 'batch')
            mask_index = b.op(Broadcast, [b.const(np.array(0, np.int32), 'zero'), batch], 'mask_index')
    return [y, mask_index, e if len(wanted) > 2 and wanted[2] else None]
