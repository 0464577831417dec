"""Paddle's activations and unary math that are formulas of opset ops (``Paddle_*`` ops of ``activation_ext.py``)."""
import numpy as np

from extensions.front.paddle.formulas import out_dtype, port
from mo.ops.convert import ConvertLike
from mo.front.common.rule import Builder, OpRule
from mo.front.paddle.extractor_utils import input_rank, node_name
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs, Clamp, Erf, Exp, HSwish, Log, Mish, SoftPlus, Sqrt, Tanh
from mo.ops.elementwise import Add, Div, Less, Maximum, Minimum, Mul, Pow, Sub
from mo.ops.math_ops import Round
from mo.ops.nn_ops import PRelu
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.utils.error import Error


def _attr(node: Node, name: str, default):
    return node.paddle_attrs.get(name, default)


def _c(b: Builder, node: Node, value, tag: str):
    """A constant in the node's output type."""
    return b.const(np.array(value, out_dtype(node)), tag)


class GeluLowering(OpRule):
    """gelu(x) = x / 2 * (1 + Erf(x / sqrt 2)); approximate: x / 2 * (1 + Tanh(sqrt(2 / pi) (x + 0.044715 x^3)))."""
    op = 'Paddle_gelu'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        if _attr(node, 'approximate', False):
            cube = b.op(Mul, [x, b.op(Mul, [x, x], 'square')], 'cube')
            inner = b.op(Add, [x, b.op(Mul, [cube, _c(b, node, 0.044715, 'c')], 'cubic')], 'inner')
            curve = b.op(Tanh, [b.op(Mul, [inner, _c(b, node, np.sqrt(2 / np.pi), 'k')], 'scaled')], 'curve')
        else:
            curve = b.op(Erf, [b.op(Mul, [x, _c(b, node, 1 / np.sqrt(2), 'k')], 'scaled')], 'curve')
        half = b.op(Mul, [x, _c(b, node, 0.5, 'half')], 'half_x')
        return b.op(Mul, [half, b.op(Add, [curve, _c(b, node, 1, 'one')], 'one_plus')], 'gelu')


class LeakyReluLowering(OpRule):
    """leaky_relu(x) = PRelu(x, alpha) (classic ``alpha``, Paddle 3 ``negative_slope``; 0.02 by default)."""
    op = 'Paddle_leaky_relu'

    def rewrite(self, node: Node, b: Builder):
        alpha = float(_attr(node, 'negative_slope', _attr(node, 'alpha', 0.02)))
        return b.op(PRelu, [node.in_port(0), _c(b, node, [alpha], 'alpha')], 'leaky_relu')


class HardSigmoidLowering(OpRule):
    """hard_sigmoid(x) = Clamp(slope * x + offset, 0, 1) (slope 0.1666667 and offset 0.5 by default)."""
    op = 'Paddle_hard_sigmoid'

    def rewrite(self, node: Node, b: Builder):
        slope, offset = float(_attr(node, 'slope', 0.1666667)), float(_attr(node, 'offset', 0.5))
        line = b.op(Add, [b.op(Mul, [node.in_port(0), _c(b, node, slope, 'slope')], 'scaled'),
                          _c(b, node, offset, 'offset')], 'line')
        return b.op(Clamp, [line], 'clamp', min=0.0, max=1.0)


class HardSwishLowering(OpRule):
    """hard_swish(x) = x * Clamp(x + offset, 0, threshold) / scale: HSwish for the defaults (3, 6, 6)."""
    op = 'Paddle_hard_swish'

    def rewrite(self, node: Node, b: Builder):
        threshold = float(_attr(node, 'threshold', 6.0))
        scale, offset = float(_attr(node, 'scale', 6.0)), float(_attr(node, 'offset', 3.0))
        x = node.in_port(0)
        if (threshold, scale, offset) == (6.0, 6.0, 3.0):
            return b.op(HSwish, [x], 'hswish')
        gate = b.op(Clamp, [b.op(Add, [x, _c(b, node, offset, 'offset')], 'shifted')], 'gate', min=0.0,
                    max=threshold)
        return b.op(Div, [b.op(Mul, [x, gate], 'gated'), _c(b, node, scale, 'scale')], 'hard_swish')


class SeluLowering(OpRule):
    """selu(x) = scale * (x where positive, alpha * (exp(x) - 1) elsewhere)."""
    op = 'Paddle_selu'

    def rewrite(self, node: Node, b: Builder):
        scale = float(_attr(node, 'scale', 1.0507009873554805))
        alpha = float(_attr(node, 'alpha', 1.6732632423543772))
        x = node.in_port(0)
        negative = b.op(Mul, [b.op(Sub, [b.op(Exp, [x], 'exp'), _c(b, node, 1, 'one')], 'expm1'),
                              _c(b, node, alpha, 'alpha')], 'negative')
        chosen = b.op(Select, [b.op(Less, [x, _c(b, node, 0, 'zero')], 'is_negative'), negative, x], 'chosen')
        return b.op(Mul, [chosen, _c(b, node, scale, 'scale')], 'selu')


class SoftplusLowering(OpRule):
    """softplus(x) = log(1 + exp(beta x)) / beta, x itself where beta x > threshold: SoftPlus for beta 1."""
    op = 'Paddle_softplus'

    def rewrite(self, node: Node, b: Builder):
        beta, threshold = float(_attr(node, 'beta', 1.0)), float(_attr(node, 'threshold', 20.0))
        x = node.in_port(0)
        if beta == 1.0 and threshold >= 20.0:
            return b.op(SoftPlus, [x], 'softplus')
        bx = b.op(Mul, [x, _c(b, node, beta, 'beta')], 'beta_x')
        smooth = b.op(Div, [b.op(SoftPlus, [bx], 'softplus'), _c(b, node, beta, 'beta_div')], 'smooth')
        linear = b.op(Less, [_c(b, node, threshold, 'threshold'), bx], 'is_linear')
        return b.op(Select, [linear, x, smooth], 'select')


class MishLowering(OpRule):
    """mish(x) = x * tanh(softplus(x)): the opset's Mish (Paddle's threshold only guards its own overflow)."""
    op = 'Paddle_mish'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Mish, [node.in_port(0)], 'mish')


class RsqrtLowering(OpRule):
    """rsqrt(x) = 1 / Sqrt(x)."""
    op = 'Paddle_rsqrt'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Div, [_c(b, node, 1, 'one'), b.op(Sqrt, [node.in_port(0)], 'sqrt')], 'rsqrt')


class ReciprocalLowering(OpRule):
    """reciprocal(x) = 1 / x."""
    op = 'Paddle_reciprocal'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Div, [_c(b, node, 1, 'one'), node.in_port(0)], 'reciprocal')


class SquareLowering(OpRule):
    """square(x) = x * x."""
    op = 'Paddle_square'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Mul, [node.in_port(0), node.in_port(0)], 'square')


class LogVariantsLowering(OpRule):
    """log1p(x) = Log(1 + x); log2(x), log10(x) = Log(x) / Log(base)."""
    op = 'Paddle_log_n'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        if node.formula == 'log1p':
            return b.op(Log, [b.op(Add, [x, _c(b, node, 1, 'one')], 'one_plus')], 'log')
        base = 2.0 if node.formula == 'log2' else 10.0
        return b.op(Div, [b.op(Log, [x], 'log'), _c(b, node, np.log(base), 'log_base')], 'log_b')


class RoundLowering(OpRule):
    """round(x): halves away from zero, as Paddle rounds."""
    op = 'Paddle_round'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Round, [node.in_port(0)], 'round', mode='half_away_from_zero')


class HardTanhLowering(OpRule):
    """hardtanh / brelu(x) = Clamp(x, t_min, t_max)."""
    op = 'Paddle_hardtanh'

    def rewrite(self, node: Node, b: Builder):
        classic = node.formula == 'brelu'
        low = float(_attr(node, 't_min', _attr(node, 'min', 0.0 if classic else -1.0)))
        high = float(_attr(node, 't_max', _attr(node, 'max', 24.0 if classic else 1.0)))
        return b.op(Clamp, [node.in_port(0)], 'clamp', min=low, max=high)


class PowLowering(OpRule):
    """pow(x) = Pow(x, factor): the classic FactorTensor when given, else the attribute ``factor``/``y``."""
    op = 'Paddle_pow'

    def rewrite(self, node: Node, b: Builder):
        factor = port(node, 'FactorTensor')
        if factor is None:
            factor = _c(b, node, float(_attr(node, 'y', _attr(node, 'factor', 1.0))), 'factor')
        return b.op(Pow, [node.in_port(0), factor], 'pow')


class ClipLowering(OpRule):
    """clip(x) = Minimum(Maximum(x, min), max): the Min/Max tensors when given, else the attributes."""
    op = 'Paddle_clip'

    def rewrite(self, node: Node, b: Builder):
        low, high = port(node, 'Min'), port(node, 'Max')
        if low is None and high is None:
            return b.op(Clamp, [node.in_port(0)], 'clamp', min=float(_attr(node, 'min', -np.inf)),
                        max=float(_attr(node, 'max', np.inf)))
        low = low if low is not None else _c(b, node, float(_attr(node, 'min', -np.inf)), 'min')
        high = high if high is not None else _c(b, node, float(_attr(node, 'max', np.inf)), 'max')
        return b.op(Minimum, [b.op(Maximum, [node.in_port(0), low], 'at_least'), high], 'clip')


class ScaleLowering(OpRule):
    """scale(x) = x * scale + bias (bias_after_scale), else (x + bias) * scale, in x's type; ``scale`` is the
    ScaleTensor when given (PIR always gives one; a [1] tensor that scales as a scalar), else the attribute."""
    op = 'Paddle_scale'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)

        def like_x(value, tag):
            # the program may declare the output in another type than x's (a sum's int64 of int32): x's rules
            source = b.const(np.array(value, np.float64), tag + '/value') if not hasattr(value, 'out_port') else value
            return b.op(ConvertLike, [source, x], tag)

        factor = port(node, 'ScaleTensor')
        if factor is None:
            factor = like_x(float(_attr(node, 'scale', 1.0)), 'scale')
        else:  # a 0-D x must stay 0-D
            factor = like_x(b.op(Reshape, [factor, b.const(np.zeros([0], np.int64), 'scalar_shape')], 'scalar'),
                            'scale')
        bias = float(_attr(node, 'bias', 0.0))
        if _attr(node, 'bias_after_scale', True):
            scaled = b.op(Mul, [x, factor], 'scaled')
            return scaled if bias == 0 else b.op(Add, [scaled, like_x(bias, 'bias')], 'biased')
        shifted = x if bias == 0 else b.op(Add, [x, like_x(bias, 'bias')], 'biased')
        return b.op(Mul, [shifted, factor], 'scaled')


class PReluLowering(OpRule):
    """prelu(x, alpha): PRelu with alpha of one value (``all``), one per channel (``channel``, along the axis
    ``data_format`` says) or one per element (``element``) shaped to broadcast against x."""
    op = 'Paddle_prelu'

    def rewrite(self, node: Node, b: Builder):
        x, alpha = node.in_port(0), node.in_port(1)
        mode = _attr(node, 'mode', 'all')
        rank = input_rank(node, 'X')
        if mode == 'all':
            slope = b.op(Reshape, [alpha, b.const(np.array([1], np.int64), 'one')], 'slope')
        elif mode == 'channel':
            if rank is None:
                raise Error('prelu "{}": channel mode needs the input\'s rank', node_name(node))
            channels_last = _attr(node, 'data_format', 'NCHW') in ('NHWC', 'NDHWC', 'NLC')
            shape = [1] * (rank - 1) + [-1] if channels_last else [1, -1] + [1] * (rank - 2)
            slope = b.op(Reshape, [alpha, b.const(np.array(shape, np.int64), 'shape')], 'slope')
        else:  # element: alpha is [1, ...x.shape[1:]]
            slope = alpha
        return b.op(PRelu, [x, slope], 'prelu')


class ShrinkLowering(OpRule):
    """softshrink(x) = x - lambda above lambda, x + lambda below -lambda, else 0."""
    op = 'Paddle_softshrink'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        bound = float(_attr(node, 'lambda', _attr(node, 'threshold', 0.5)))  # classic: lambda; Paddle 3: threshold
        above = b.op(Less, [_c(b, node, bound, 'bound'), x], 'above')
        below = b.op(Less, [x, _c(b, node, -bound, 'neg_bound')], 'below')
        zero = _c(b, node, 0, 'zero')
        inner = b.op(Select, [below, b.op(Add, [x, _c(b, node, bound, 'shift_up')], 'up'), zero], 'inner')
        return b.op(Select, [above, b.op(Sub, [x, _c(b, node, bound, 'shift_down')], 'down'), inner], 'softshrink')


class HardShrinkLowering(OpRule):
    """hard_shrink(x) = x where |x| > threshold, else 0."""
    op = 'Paddle_hard_shrink'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        keep = b.op(Less, [_c(b, node, float(_attr(node, 'threshold', 0.5)), 'threshold'),
                           b.op(Abs, [x], 'abs')], 'keep')
        return b.op(Select, [keep, x, _c(b, node, 0, 'zero')], 'hard_shrink')


class TanhShrinkLowering(OpRule):
    """tanh_shrink(x) = x - tanh(x)."""
    op = 'Paddle_tanh_shrink'

    def rewrite(self, node: Node, b: Builder):
        return b.op(Sub, [node.in_port(0), b.op(Tanh, [node.in_port(0)], 'tanh')], 'tanh_shrink')


class ThresholdedReluLowering(OpRule):
    """thresholded_relu(x) = x where x > threshold, else 0 (Paddle 3: ``value`` there instead of 0)."""
    op = 'Paddle_thresholded_relu'

    def rewrite(self, node: Node, b: Builder):
        x = node.in_port(0)
        keep = b.op(Less, [_c(b, node, float(_attr(node, 'threshold', 1.0)), 'threshold'), x], 'keep')
        return b.op(Select, [keep, x, _c(b, node, float(_attr(node, 'value', 0.0)), 'value')], 'thresholded')


class LogSigmoidLowering(OpRule):
    """logsigmoid(x) = -softplus(-x)."""
    op = 'Paddle_logsigmoid'

    def rewrite(self, node: Node, b: Builder):
        negated = b.op(Mul, [node.in_port(0), _c(b, node, -1, 'minus_one')], 'negated')
        return b.op(Mul, [b.op(SoftPlus, [negated], 'softplus'), _c(b, node, -1, 'minus_one_out')], 'logsigmoid')
