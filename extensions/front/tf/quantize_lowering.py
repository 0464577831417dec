"""TensorFlow's fake quantization as the opset's FakeQuantize with TF's nudged range.

TF moves [min, max] so that zero is exactly representable (all in float):
``scale = (max - min) / (qmax - qmin)``, ``zero = qmin - min / scale`` clamped to [qmin, qmax] and rounded half
away from zero, ``nudged_min = (qmin - zero) * scale``, ``nudged_max = (qmax - zero) * scale``, with
``qmin = narrow_range ? 1 : 0`` and ``qmax = 2^num_bits - 1``. The formula is built from opset ops, so constant
min and max (the usual case, and always for FakeQuantWithMinMaxArgs) fold to constant bounds. TF rounds
``(clamp(x) - nudged_min) * (1 / scale) + 0.5`` down, FakeQuantize rounds its own ratio: an input within a float
rounding of a half step may land on the other neighbour.

Where OpenVINO's CPU plugin does not compute FakeQuantize as the opset defines it, TF's formula is written out
instead (exact): more than 8 bits (the plugin strips or re-quantizes FakeQuantize of 2^15 levels and more), and
per-channel ranges of an odd number of levels (narrow_range) on a tensor that is not constant (weights are fine).
"""
from mo.front.common.formula_kit import F32
from extensions.front.tf.tensor_ext import constant_input
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Floor
from mo.ops.elementwise import Add, Div, Greater, Less, Maximum, Minimum, Mul, Sub
from mo.ops.math_ops import Round
from mo.ops.quantize import FakeQuantize
from mo.ops.select import Select


def nudged_range(b, low, high, narrow_range: bool, num_bits: int):
    """TF's (nudged_min, nudged_max, scale) of ``[low, high]`` as opset formulas."""
    qmin, qmax = (1.0 if narrow_range else 0.0), float(2 ** num_bits - 1)
    qmin_c, qmax_c = b.const(qmin, 'qmin', F32), b.const(qmax, 'qmax', F32)
    scale = b.op(Div, [b.op(Sub, [high, low], 'range'), b.const(qmax - qmin, 'level_count', F32)], 'scale')
    zero_from_min = b.op(Sub, [qmin_c, b.op(Div, [low, scale], 'min_steps')], 'zero_from_min')
    rounded = b.op(Round, [zero_from_min], 'zero_rounded', mode='half_away_from_zero')
    zero = b.op(Select, [b.op(Less, [zero_from_min, qmin_c], 'below'), qmin_c,
                         b.op(Select, [b.op(Greater, [zero_from_min, qmax_c], 'above'), qmax_c, rounded],
                              'zero_upper')], 'zero_point')
    nudged_min = b.op(Mul, [b.op(Sub, [qmin_c, zero], 'min_offset'), scale], 'nudged_min')
    nudged_max = b.op(Mul, [b.op(Sub, [qmax_c, zero], 'max_offset'), scale], 'nudged_max')
    return nudged_min, nudged_max, scale


def tf_fake_quant(b, x, nudged_min, nudged_max, scale):
    """TF's own arithmetic: floor((clamp(x) - nudged_min) * (1 / scale) + 0.5) * scale + nudged_min."""
    clamped = b.op(Minimum, [b.op(Maximum, [x, nudged_min], 'at_least_min'), nudged_max], 'clamped')
    inverse = b.op(Div, [b.const(1.0, 'one', F32), scale], 'inverse_scale')
    steps = b.op(Add, [b.op(Mul, [b.op(Sub, [clamped, nudged_min], 'shifted'), inverse], 'steps_exact'),
                       b.const(0.5, 'half', F32)], 'steps_half_up')
    return b.op(Add, [b.op(Mul, [b.op(Floor, [steps], 'steps'), scale], 'quantized'), nudged_min], 'fake_quantized')


class FakeQuantLowering(OpRule):
    """FakeQuantWithMinMaxArgs/Vars/VarsPerChannel(x, [min, max]) = FakeQuantize(x, nudged_min, nudged_max,
    nudged_min, nudged_max, levels = 2^num_bits - narrow_range)."""
    op = 'FakeQuantWithMinMaxArgs'

    def rewrite(self, node: Node, b: Builder):
        if node.op == 'FakeQuantWithMinMaxArgs':
            low, high = b.const(node.min, 'min', F32), b.const(node.max, 'max', F32)
        else:
            low, high = node.in_port(1), node.in_port(2)
        nudged_min, nudged_max, scale = nudged_range(b, low, high, node.narrow_range, node.num_bits)
        levels = 2 ** node.num_bits - (1 if node.narrow_range else 0)
        per_channel_odd = node.op == 'FakeQuantWithMinMaxVarsPerChannel' and levels % 2 == 1 and \
            constant_input(node, 0) is None
        if node.num_bits > 8 or per_channel_odd:
            return tf_fake_quant(b, node.in_port(0), nudged_min, nudged_max, scale)
        return b.op(FakeQuantize, [node.in_port(0), nudged_min, nudged_max, nudged_min, nudged_max], 'quantize',
                    levels=levels)


class FakeQuantVarsLowering(FakeQuantLowering):
    op = 'FakeQuantWithMinMaxVars'


class FakeQuantPerChannelLowering(FakeQuantLowering):
    op = 'FakeQuantWithMinMaxVarsPerChannel'
