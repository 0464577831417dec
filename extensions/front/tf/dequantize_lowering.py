"""TensorFlow's Dequantize as Convert -> [Subtract zero point] -> Multiply scale, the dequantization OpenVINO's CPU
plugin runs as compressed weights: the quantized values stay 8 (or 16) bit integers in the IR.

Each of TF's modes is affine in the quantized value ``q`` (with ``T``'s limits ``lo_T``/``hi_T``, the range
``[min, max]`` per tensor or per channel of ``axis``):

* MIN_COMBINED: ``min + (q + half) * (max - min) / (hi_T - lo_T)``, ``half`` being ``(hi_T - lo_T + 1) / 2`` for
  signed types and 0 for unsigned ones;
* MIN_FIRST: ``(q - lo_T + round(min / s)) * s`` with ``s = (max - min) / (2^bits - 1)``: TF counts from ``min``
  rounded to a whole step (half away from zero), so the zero point is a whole number;
* SCALED: ``q * s``, ``s = max / hi_T`` for unsigned types, else ``max(min / (lo_T + narrow_range), max / hi_T)``.

So ``(Convert(q) - zero) * scale``, with ``zero`` and ``scale`` computed here in float64 from a constant range as TF
computes them (no Subtract when ``zero`` is 0). A range computed at run time is built from opset ops instead, in
the ``(Convert(q) + offset) * scale + shift`` form. TF has no MIN_FIRST per channel; neither has mo.

These are the formulas of TF's reference CPU kernels. Its oneDNN kernel departs from them for unsigned types in
SCALED mode with ``narrow_range`` and a positive ``min`` (it divides ``min`` by 1), and its SCALED kernel of qint32
overflows near 2^31; mo follows the reference.
"""
import numpy as np

from extensions.front.tf.tensor_ext import constant_input
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, Div, Maximum, Mul, Sub
from mo.ops.math_ops import Round
from mo.ops.reshape import Reshape
from mo.utils.error import Error

F32 = np.float32


def _convert_shape_only(node: Node):
    """Inference of the dequantization's Convert: the shape, never the value, so that the integer weights are not
    folded into float ones."""
    shape = node.in_port(0).data.get_shape()
    if shape is not None:
        node.out_port(0).data.set_shape(shape)


def zero_and_scale(mode: str, quantized_type, low, high, narrow_range: bool):
    """``(zero, scale)`` (float64 arrays shaped as ``low``) with ``Dequantize(q) = (q - zero) * scale``."""
    info = np.iinfo(quantized_type)
    low, high = np.asarray(low, np.float64), np.asarray(high, np.float64)
    levels = float(info.max) - float(info.min)
    if mode == 'MIN_COMBINED':
        scale = (high - low) / levels
        half = (levels + 1) / 2 if info.min < 0 else 0.0
        with np.errstate(divide='ignore', invalid='ignore'):
            zero = -half - low / scale
    elif mode == 'MIN_FIRST':
        scale = (high - low) / levels
        with np.errstate(divide='ignore', invalid='ignore'):
            steps = low / scale.astype(np.float32)  # TF divides by the step as a float
        zero = float(info.min) - np.sign(steps) * np.floor(np.abs(steps) + 0.5)
    else:
        if info.min == 0:
            scale = high / float(info.max)
        else:
            scale = np.maximum(low / float(info.min + (1 if narrow_range else 0)), high / float(info.max))
        zero = np.zeros_like(scale)
    return zero, scale


def _per_axis(value: np.ndarray, axis: int, rank: int) -> np.ndarray:
    """A per-channel vector shaped to broadcast against data of ``rank`` along ``axis``."""
    return value.reshape([-1] + [1] * (rank - axis - 1)) if axis >= 0 and value.ndim else value


class DequantizeLowering(OpRule):
    """Dequantize(q, min_range, max_range) = (Convert(q) - zero) * scale."""
    op = 'Dequantize'

    def rewrite(self, node: Node, b: Builder):
        name = node.soft_get('name', node.id)
        axis, mode = node.axis, node.mode
        data = constant_input(node, 0)
        rank = np.ndim(data) if data is not None else self._rank(node)
        if axis >= 0:
            if mode == 'MIN_FIRST':
                raise Error('Dequantize "{}": MIN_FIRST per channel (axis {}) is not implemented in TensorFlow, nor '
                            'in mo', name, axis)
            if rank is None:
                raise Error('Dequantize "{}": per-channel dequantization (axis {}) of a tensor of unknown rank',
                            name, axis)
            if axis >= rank:
                raise Error('Dequantize "{}": axis {} is out of the input\'s rank {}', name, axis, rank)
        # integers narrower than 32 bits stay integers in the IR (the plugin reads them as compressed weights)
        x = b.op(Convert, [node.in_port(0)], 'convert', dst_type=np.dtype(F32),
                 **({'infer': _convert_shape_only} if node.quantized_type.itemsize < 4 else {}))
        low, high = constant_input(node, 1), constant_input(node, 2)
        if low is not None and high is not None:
            value = self._constant_range(node, b, x, low, high, rank)
        else:
            value = self._runtime_range(node, b, x, rank)
        out_type = np.dtype(node.soft_get('out_type', F32))
        if out_type != F32:  # bfloat16: computed in float32, then rounded, as TF does
            value = b.op(Convert, [value], 'to_' + out_type.name, dst_type=out_type)
        return value

    @staticmethod
    def _rank(node: Node):
        source = node.in_port(0).get_source().node
        shape = source.soft_get('shape', None) if source.soft_get('op') == 'Parameter' else None
        return len(shape) if shape is not None else None

    @staticmethod
    def _constant_range(node: Node, b: Builder, x, low, high, rank):
        low, high = np.asarray(low, F32), np.asarray(high, F32)
        if node.axis < 0 and (low.size != 1 or high.size != 1):
            raise Error('Dequantize "{}": min_range and max_range hold {} and {} values for a per-tensor '
                        'dequantization', node.soft_get('name', node.id), low.size, high.size)
        if node.axis < 0:
            low, high = low.reshape(()), high.reshape(())
        zero, scale = zero_and_scale(node.mode, node.quantized_type, low, high, node.narrow_range)
        if not np.all(np.isfinite(zero)) or not np.all(scale != 0):
            raise Error('Dequantize "{}": the range [{}, {}] is empty', node.soft_get('name', node.id),
                        np.min(low), np.max(high))
        if np.any(zero):
            x = b.op(Sub, [x, b.const(_per_axis(zero.astype(F32), node.axis, rank), 'zero_point')],
                     'subtract_zero_point')
        return b.op(Mul, [x, b.const(_per_axis(scale.astype(F32), node.axis, rank), 'scale')], 'multiply_scale')

    @staticmethod
    def _runtime_range(node: Node, b: Builder, x, rank):
        """``(x + offset) * scale + shift`` from a range known only at run time (float32 arithmetic)."""
        info = np.iinfo(node.quantized_type)
        low, high = node.in_port(1), node.in_port(2)
        if node.axis >= 0:
            target = np.array([-1] + [1] * (rank - node.axis - 1), np.int64)
            low = b.op(Reshape, [low, b.const(target, 'low_shape')], 'low_per_channel')
            high = b.op(Reshape, [high, b.const(target, 'high_shape')], 'high_per_channel')
        levels = float(info.max) - float(info.min)
        mode = node.mode
        if mode == 'SCALED':
            scale = b.op(Div, [high, b.const(np.array(info.max, F32), 'type_max')], 'scale_of_max')
            if info.min < 0:
                low_level = b.const(np.array(info.min + (1 if node.narrow_range else 0), F32), 'type_min')
                scale = b.op(Maximum, [b.op(Div, [low, low_level], 'scale_of_min'), scale], 'scale')
            return b.op(Mul, [x, scale], 'multiply_scale')
        scale = b.op(Div, [b.op(Sub, [high, low], 'range'), b.const(np.array(levels, F32), 'levels')], 'scale')
        if mode == 'MIN_COMBINED':
            if info.min < 0:
                x = b.op(Add, [x, b.const(np.array((levels + 1) / 2, F32), 'half_range')], 'unsigned')
            return b.op(Add, [b.op(Mul, [x, scale], 'multiply_scale'), low], 'add_min')
        steps = b.op(Round, [b.op(Div, [low, scale], 'min_steps')], 'min_steps_rounded', mode='half_away_from_zero')
        offset = b.op(Sub, [steps, b.const(np.array(info.min, F32), 'type_min')], 'offset')
        return b.op(Mul, [b.op(Add, [x, offset], 'shifted'), scale], 'multiply_scale')
