"""ONNX math ops built from opset ops (the internal ``ONNX*`` ops that ``math_ext``, ``reduce_ext`` and
``elementwise_ext`` leave).

ONNX states no element types for intermediate tensors, so a formula's constants take their operand's type at run
time through ConvertLike (folded to a plain constant once inference knows the type). Each rule's docstring gives
its formula.
"""
import numpy as np

from mo.front.common.nn_formulas import gelu, like
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Clamp, Elu, Exp, Log, Sigmoid, Swish
from mo.ops.concat import Concat
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Add, Div, Equal, Greater, Less, Maximum, Minimum, Mul, Pow, Sub
from mo.ops.math_ops import IsFinite, IsInf
from mo.ops.nn_ops import LogSoftmax, PRelu, Selu, Softmax, TopK
from mo.ops.range import Range
from mo.ops.reduce import ReduceAnd, ReduceL2, ReduceMax, ReduceMean, ReduceMin, ReduceOr, ReduceProd, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.squeeze import Squeeze
from mo.ops.matmul import MatMul
from mo.ops.tensor_ops import OneHot, Reverse

I64 = np.int64
#: the suffixes of ``b.dim_of``'s constants in these rules (and the spectral and image ones), as they have always
#: been: with a dynamic shape they are in the IR
DIM_NAMES = ('axis', 'axis0')


def all_axes(b: Builder, x, suffix: str):
    """``[0, 1, ..., rank(x) - 1]`` (int64)."""
    rank = b.op(ShapeOf, [b.op(ShapeOf, [x], suffix + '/shape', output_type=I64)], suffix + '/rank', output_type=I64)
    rank = b.op(Squeeze, [rank, b.const(np.array([0], I64), suffix + '/rank_axis')], suffix + '/rank_scalar')
    return b.op(Range, [b.const(np.array(0, I64), suffix + '/start'), rank, b.const(np.array(1, I64), suffix + '/step')],
                suffix, output_type=I64)


def static_shape(port):
    """The shape of what feeds input ``port`` where the model states it (a constant, a graph input), else None."""
    source = port.get_source().node
    if source.soft_get('op') == 'Const' and source.has_valid('value'):
        return list(np.shape(source.value))
    if source.soft_get('op') == 'Parameter' and source.has_valid('shape'):
        return [int(d) for d in source.shape]
    return None


def _source(port):
    return port.get_source()


# ----- reductions -------------------------------------------------------------------------------------------------

_DIRECT = {'ReduceSum': ReduceSum, 'ReduceMean': ReduceMean, 'ReduceMax': ReduceMax, 'ReduceMin': ReduceMin,
           'ReduceProd': ReduceProd, 'ReduceL2': ReduceL2}
#: bool data: ReduceMax is "any", ReduceMin "all" (the opset's ReduceMax/Min take numbers only)
_BOOLEAN = {'ReduceMax': ReduceOr, 'ReduceMin': ReduceAnd}


class ReduceLowering(OpRule):
    """ONNXReduce(x, axes) with the reductions' formulas: Sum, Mean, Max, Min, Prod, L2 are the opset ops;
    L1 = ReduceSum(|x|), SumSquare = ReduceSum(x * x), LogSum = Log(ReduceSum(x)), LogSumExp = Log(ReduceSum(
    Exp(x - m))) + m with m the finite part of ReduceMax(x) (no overflow). No axes (absent or empty): every axis,
    or with ``noop_with_empty_axes`` no reduction (the formula's element-wise part: |x|, x * x, Log(x), x). Axes known only at run time and possibly empty reduce every
    axis when empty: Concat(axes, Range(0, rank if |axes| == 0 else 0))."""
    op = 'ONNXReduce'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        axes = self._axes(node, b, x)
        reduction, keep = node.reduction, node.keep_dims
        if axes is None:  # no reduction, but the element-wise part of the formula stays
            return self._unreduced(reduction, b, x)

        def reduce(op_class, data, suffix, keep_dims=keep):
            return b.op(op_class, [data, axes], suffix, keep_dims=keep_dims)

        if reduction in _BOOLEAN and node.soft_get('data_type', None) == np.bool_:
            return reduce(_BOOLEAN[reduction], x, 'reduce')
        if reduction in ('ReduceMax', 'ReduceMin'):
            # ONNX's max/min of an empty set (-inf/+inf for floats) is not always OpenVINO's: middle.reduce_empty_set
            return b.op(_DIRECT[reduction], [x, axes], 'reduce', keep_dims=keep, onnx_empty_set=True)
        if reduction in _DIRECT:
            return reduce(_DIRECT[reduction], x, 'reduce')
        if reduction == 'ReduceL1':
            return reduce(ReduceSum, b.op(Abs, [x], 'abs'), 'reduce')
        if reduction == 'ReduceSumSquare':
            return reduce(ReduceSum, b.op(Mul, [x, x], 'square'), 'reduce')
        if reduction == 'ReduceLogSum':
            return b.op(Log, [reduce(ReduceSum, x, 'sum')], 'log')
        # ReduceLogSumExp: shifted by the maximum where it is finite (all -inf, an empty set: no shift)
        zero = like(b, 0, x, 'zero')

        def finite_max(keep_dims, suffix):
            m = reduce(ReduceMax, x, suffix + '/max', keep_dims)
            return b.op(Select, [b.op(IsFinite, [m], suffix + '/finite'), m, zero], suffix)

        shifted = b.op(Exp, [b.op(Sub, [x, finite_max(True, 'shift')], 'shifted')], 'exp')
        log = b.op(Log, [reduce(ReduceSum, shifted, 'sum')], 'log')
        return b.op(Add, [log, finite_max(keep, 'shift_out')], 'log_sum_exp')

    @staticmethod
    def _unreduced(reduction, b: Builder, x):
        """The reduction over no axis: |x| (L1, L2), x * x (SumSquare), Log(x) (LogSum), else x."""
        if reduction in ('ReduceL1', 'ReduceL2'):
            return b.op(Abs, [x], 'abs')
        if reduction == 'ReduceSumSquare':
            return b.op(Mul, [x, x], 'square')
        if reduction == 'ReduceLogSum':
            return b.op(Log, [x], 'log')
        return x

    @staticmethod
    def _axes(node: Node, b: Builder, x):
        """The axes to reduce (an output port or node), or None for "no reduction"."""
        if node.axes is not None:
            return b.const(np.array(node.axes, I64), 'axes') if len(node.axes) else all_axes(b, x, 'axes')
        if not node.is_in_port_connected(1):
            return None if node.noop_with_empty_axes else all_axes(b, x, 'axes')
        port = node.in_port(1)
        shape = static_shape(port)
        if shape is not None and int(np.prod(shape)) == 0:
            return None if node.noop_with_empty_axes else all_axes(b, x, 'axes')
        if shape is not None or node.noop_with_empty_axes:
            return _source(port)  # the opset reduces nothing over empty axes, as noop_with_empty_axes means
        count = b.op(ShapeOf, [port], 'axes/count', output_type=I64)
        count = b.op(Squeeze, [count, b.const(np.array([0], I64), 'axes/count_axis')], 'axes/count_scalar')
        rank = b.op(ShapeOf, [b.op(ShapeOf, [x], 'axes/shape', output_type=I64)], 'axes/rank', output_type=I64)
        rank = b.op(Squeeze, [rank, b.const(np.array([0], I64), 'axes/rank_axis')], 'axes/rank_scalar')
        stop = b.op(Select, [b.op(Equal, [count, b.const(np.array(0, I64), 'axes/zero')], 'axes/empty'), rank,
                             b.const(np.array(0, I64), 'axes/none')], 'axes/stop')
        every = b.op(Range, [b.const(np.array(0, I64), 'axes/start'), stop, b.const(np.array(1, I64), 'axes/step')],
                     'axes/every', output_type=I64)
        return b.op(Concat, [b.op(Convert, [port], 'axes/i64', dst_type=np.dtype(I64)), every], 'axes/or_every',
                    axis=0)


# ----- element-wise -----------------------------------------------------------------------------------------------

class PowLowering(OpRule):
    """ONNXPow(x, y) = Power(x, y) in the base's type: an integer base with a float exponent is raised in the
    exponent's type and converted back; otherwise the exponent is converted to the base's type (ConvertLike where
    the model does not state the types)."""
    op = 'ONNXPow'

    def rewrite(self, node: Node, b: Builder):
        x, y = _source(node.in_port(0)), _source(node.in_port(1))
        base, exponent = node.soft_get('base_type', None), node.soft_get('exponent_type', None)
        if base is None or exponent is None:
            return b.op(Pow, [x, b.op(ConvertLike, [y, x], 'exponent')], 'pow')
        if base == exponent:
            return b.op(Pow, [x, y], 'pow')
        if base.kind in 'iub' and exponent.kind == 'f':
            power = b.op(Pow, [b.op(Convert, [x], 'base', dst_type=exponent), y], 'pow_float')
            return b.op(Convert, [power], 'pow', dst_type=base)
        return b.op(Pow, [x, b.op(Convert, [y], 'exponent', dst_type=base)], 'pow')


class ClipLowering(OpRule):
    """ONNXClip: Clamp(x, min, max) from the attributes (opset < 11); else Minimum(Maximum(x, min), max) with
    the optional inputs (where min > max the result is max, as ONNX says)."""
    op = 'ONNXClip'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        if node.clip_min is not None:
            return b.op(Clamp, [x], 'clamp', min=node.clip_min, max=node.clip_max)
        result = x
        if node.is_in_port_connected(1):
            result = b.op(Maximum, [result, node.in_port(1)], 'at_least_min')
        if node.is_in_port_connected(2):
            result = b.op(Minimum, [result, node.in_port(2)], 'at_most_max')
        return result


_COMBINE = {'Max': Maximum, 'Min': Minimum, 'Sum': Add, 'Mean': Add}


class VariadicLowering(OpRule):
    """ONNXVariadic: Max/Min/Sum of x0..xn-1 = a chain of Maximum/Minimum/Add (numpy broadcasting);
    Mean = the Sum divided by n; one input is that input."""
    op = 'ONNXVariadic'

    def rewrite(self, node: Node, b: Builder):
        ports = [p for _, p in sorted(node.in_ports().items()) if p.is_connected()]
        result = _source(ports[0])
        for index, port in enumerate(ports[1:]):
            result = b.op(_COMBINE[node.combine], [result, port], 'combine_{}'.format(index))
        if node.combine == 'Mean' and len(ports) > 1:
            result = b.op(Div, [result, like(b, len(ports), ports[0], 'count')], 'mean')
        return result


# ----- normalizations and arg-reductions --------------------------------------------------------------------------

def _hardmax(b: Builder, data, axis: int):
    """OneHot(Squeeze(TopK(data, 1, axis).indices), size along axis, 1, 0, axis): 1 at the first maximum."""
    topk = b.op(TopK, [data, b.const(np.array(1, I64), 'k')], 'topk', axis=axis, mode='max', sort='value',
                stable=True, index_element_type='i64')
    index = b.op(Squeeze, [topk.out_port(1), b.const(np.array([axis], I64), 'index_axis')], 'index')
    depth = b.dim_of(data, axis, 'depth', const_names=DIM_NAMES)
    return b.op(OneHot, [index, depth, like(b, 1, data, 'on'), like(b, 0, data, 'off')],
                'one_hot', axis=axis)


class SoftmaxLowering(OpRule):
    """ONNXSoftmax: SoftMax / LogSoftmax / Hardmax (a one-hot of the first maximum) along ``axis``; before opset
    13, of x reshaped to [d0, ..., d(axis-1), -1] along its last axis, reshaped back to x's shape."""
    op = 'ONNXSoftmax'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        if not node.flatten:
            return self._normalize(node.normalization, b, x, node.axis)
        axis = node.axis
        if axis >= 0:
            target = b.const(np.array([0] * axis + [-1], I64), 'flat_shape')
        else:
            shape = b.op(ShapeOf, [x], 'shape', output_type=I64)
            head = b.op(Slice, [shape, b.const(np.array([0], I64), 'head/start'),
                                b.const(np.array([axis], I64), 'head/stop'), b.const(np.array([1], I64), 'head/step'),
                                b.const(np.array([0], I64), 'head/axes')], 'head')
            target = b.op(Concat, [head, b.const(np.array([-1], I64), 'tail')], 'flat_shape', axis=0)
        flat = b.op(Reshape, [x, target], 'flat', special_zero=True)
        result = self._normalize(node.normalization, b, flat, -1)
        return b.op(Reshape, [result, b.op(ShapeOf, [x], 'out_shape', output_type=I64)], 'unflat')

    @staticmethod
    def _normalize(kind, b: Builder, data, axis: int):
        if kind == 'Softmax':
            return b.op(Softmax, [data], 'softmax', axis=axis)
        if kind == 'LogSoftmax':
            return b.op(LogSoftmax, [data], 'log_softmax', axis=axis)
        return _hardmax(b, data, axis)


class ArgMaxLowering(OpRule):
    """ONNXArgMax = TopK(x, 1, axis, stable).indices (int64: the first extreme element), squeezed at ``axis``
    unless ``keep_dims``; ``select_last_index``: size - 1 - the index found in x reversed along ``axis``."""
    op = 'ONNXArgMax'

    def rewrite(self, node: Node, b: Builder):
        x, axis = _source(node.in_port(0)), node.axis
        data = x
        if node.select_last_index:
            data = b.op(Reverse, [x, b.const(np.array([axis], I64), 'reverse_axis')], 'reversed', mode='index')
        topk = b.op(TopK, [data, b.const(np.array(1, I64), 'k')], 'topk', axis=axis, mode=node.mode, sort='value',
                    stable=True, index_element_type='i64')
        index = topk.out_port(1)
        if node.select_last_index:
            size = b.dim_of(x, axis, 'size', const_names=DIM_NAMES)
            last = b.op(Sub, [size, b.const(np.array(1, I64), 'one')], 'last')
            index = b.op(Sub, [last, index], 'last_index')
        if not node.keep_dims:
            index = b.op(Squeeze, [index, b.const(np.array([axis], I64), 'squeeze_axis')], 'squeeze')
        return index


# ----- activations ------------------------------------------------------------------------------------------------

class SeluLowering(OpRule):
    """ONNXSelu = Selu(x, alpha, gamma), the constants in x's type."""
    op = 'ONNXSelu'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        return b.op(Selu, [x, like(b, [node.alpha], x, 'alpha'), like(b, [node.gamma], x, 'lambda')], 'selu')


class LeakyReluLowering(OpRule):
    """ONNXLeakyRelu = PRelu(x, [alpha])."""
    op = 'ONNXLeakyRelu'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        return b.op(PRelu, [x, like(b, [node.alpha], x, 'slope')], 'prelu')


class PReluLowering(OpRule):
    """ONNXPRelu(x, slope): PRelu where the slope is one constant number or runs along the channel axis (opset < 7);
    else Select(x < 0, x * slope, x), as the
    slope broadcasts numpy's way (from the last axis), which the opset's PRelu does not for a 1-D slope."""
    op = 'ONNXPRelu'

    def rewrite(self, node: Node, b: Builder):
        x, slope = _source(node.in_port(0)), _source(node.in_port(1))
        if node.soft_get('channel_slope', False):
            return b.op(PRelu, [x, slope], 'prelu')
        shape = static_shape(node.in_port(1))
        if shape is not None and int(np.prod(shape)) == 1 and slope.node.soft_get('op') == 'Const':
            flat = b.op(Reshape, [slope, b.const(np.array([1], I64), 'slope_shape')], 'slope')
            return b.op(PRelu, [x, flat], 'prelu')
        negative = b.op(Less, [x, like(b, 0, x, 'zero')], 'negative')
        return b.op(Select, [negative, b.op(Mul, [x, slope], 'scaled'), x], 'prelu')


class HardSigmoidLowering(OpRule):
    """ONNXHardSigmoid = Clamp(alpha * x + beta, 0, 1)."""
    op = 'ONNXHardSigmoid'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        linear = b.op(Add, [b.op(Mul, [x, like(b, node.alpha, x, 'alpha')], 'scaled'), like(b, node.beta, x, 'beta')],
                      'linear')
        return b.op(Clamp, [linear], 'clamp', min=0.0, max=1.0)


class CeluLowering(OpRule):
    """ONNXCelu = alpha * Elu(x / alpha) (Elu(x) for alpha 1)."""
    op = 'ONNXCelu'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        if node.alpha == 1.0:
            return b.op(Elu, [x], 'elu', alpha=1.0)
        elu = b.op(Elu, [b.op(Div, [x, like(b, node.alpha, x, 'alpha')], 'scaled')], 'elu', alpha=1.0)
        return b.op(Mul, [elu, like(b, node.alpha, x, 'alpha_out')], 'celu')


class ShrinkLowering(OpRule):
    """ONNXShrink = x - bias where x > lambd, x + bias where x < -lambd, else 0."""
    op = 'ONNXShrink'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        bias = like(b, node.bias, x, 'bias')
        below = b.op(Select, [b.op(Less, [x, like(b, -node.lambd, x, 'low')], 'below_low'),
                              b.op(Add, [x, bias], 'raised'), like(b, 0, x, 'zero')], 'below')
        return b.op(Select, [b.op(Greater, [x, like(b, node.lambd, x, 'high')], 'above_high'),
                             b.op(Sub, [x, bias], 'lowered'), below], 'shrink')


class ThresholdedReluLowering(OpRule):
    """ONNXThresholdedRelu = Select(x > alpha, x, 0)."""
    op = 'ONNXThresholdedRelu'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        above = b.op(Greater, [x, like(b, node.alpha, x, 'alpha')], 'above')
        return b.op(Select, [above, x, like(b, 0, x, 'zero')], 'thresholded')


class SwishLowering(OpRule):
    """ONNXSwish = x * Sigmoid(alpha * x): Swish for alpha 1."""
    op = 'ONNXSwish'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        if node.alpha == 1.0:
            return b.op(Swish, [x], 'swish')
        gate = b.op(Sigmoid, [b.op(Mul, [x, like(b, node.alpha, x, 'alpha')], 'scaled')], 'gate')
        return b.op(Mul, [x, gate], 'swish')


class GeluLowering(OpRule):
    """ONNXGelu = x / 2 * (1 + Erf(x / sqrt 2)); ``tanh``: x / 2 * (1 + Tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))."""
    op = 'ONNXGelu'

    def rewrite(self, node: Node, b: Builder):
        return gelu(b, _source(node.in_port(0)), node.approximate)


class IsInfLowering(OpRule):
    """ONNXIsInf = IsInf(x) (both infinities), x == +inf, x == -inf, or false everywhere (x == NaN)."""
    op = 'ONNXIsInf'

    def rewrite(self, node: Node, b: Builder):
        x = _source(node.in_port(0))
        if node.detect_positive and node.detect_negative:
            return b.op(IsInf, [x], 'is_inf')
        target = np.inf if node.detect_positive else -np.inf if node.detect_negative else np.nan
        return b.op(Equal, [x, like(b, target, x, 'infinity')], 'is_inf')


class GemmLowering(OpRule):
    """ONNXGemm = alpha * MatMul(A, B, transA, transB) + beta * C (each factor only where it is not 1; no C,
    or beta 0: the product alone)."""
    op = 'ONNXGemm'

    def rewrite(self, node: Node, b: Builder):
        a = _source(node.in_port(0))
        result = b.op(MatMul, [a, node.in_port(1)], 'matmul', transpose_a=node.transpose_a,
                      transpose_b=node.transpose_b)
        if node.alpha != 1.0:
            result = b.op(Mul, [result, like(b, node.alpha, a, 'alpha')], 'alpha_product')
        if node.is_in_port_connected(2) and node.beta != 0.0:
            c = _source(node.in_port(2))
            if node.beta != 1.0:
                c = b.op(Mul, [c, like(b, node.beta, a, 'beta')], 'beta_c')
            result = b.op(Add, [result, c], 'gemm')
        return result
