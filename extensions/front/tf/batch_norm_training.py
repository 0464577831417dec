"""FusedBatchNorm(V2/V3) in training mode (``is_training=true``) as opset ops: normalization by the batch's
own statistics.

tf_keras (Keras 2) builds ``LayerNormalization`` from such a node (channels-first, the rows to normalize as
the channels), so an inference model holds them too. Per channel ``c`` over every other axis of the
``data_format`` (N, H, W for NHWC; N, D, H, W for NDHWC; ...), with ``n`` elements per channel::

    mean     = ReduceMean(x)                       variance = ReduceMean((x - mean)^2)   (biased)
    y        = (x - mean) * scale / Sqrt(variance + epsilon) + offset

and the statistics outputs as TensorFlow's CPU kernel writes them (checked against TF by the harness):

    1 batch_mean      f * mean + (1 - f) * running_mean          (just ``mean`` when f == 1)
    2 batch_variance  f * variance * n / (n - 1) + (1 - f) * running_variance   (n / max(n - 1, 1))
    3 reserve_space_1 mean          4 reserve_space_2 variance (biased)

with ``f = exponential_avg_factor`` and the running statistics on inputs 3 and 4 (empty, and not read, when
f == 1). Half inputs are computed in float32, as TF computes them (its statistics are float32 anyway).
``reserve_space_3`` (V3's output 5, an empty tensor) is refused when read.
"""
import numpy as np

from mo.front.common.formula_kit import F32, I64, float_input
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.elementwise import Add, Div, Maximum, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.reduce import ReduceMean, ReduceProd
from mo.ops.shapeof import ShapeOf
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


def batch_norm_layout(node: Node) -> str:
    layout = node.soft_get('data_format', 'NHWC')
    return layout.decode() if isinstance(layout, bytes) else str(layout)


def _is_empty_constant(node: Node, port: int) -> bool:
    """Input ``port`` is a constant without elements (what TF feeds as running statistics when f == 1)."""
    if not node.is_in_port_connected(port):
        return True
    source = node.in_port(port).get_source().node
    return source.soft_get('op') == 'Const' and source.has_valid('value') and np.size(source.value) == 0


def training_batch_norm(node: Node, b: Builder) -> list:
    """The replacement of every output of a training-mode FusedBatchNorm ``node`` (see the module docstring)."""
    for port in (1, 2):
        if not node.is_in_port_connected(port):
            raise Error('FusedBatchNorm "{}" has no input {}', b.name, port)
    if node.is_out_port_connected(5):
        raise Error('FusedBatchNorm "{}": output 5 (reserve_space_3, an empty tensor TF keeps for its gradient) '
                    'is used; it is not converted', b.name)
    layout = batch_norm_layout(node)
    channel_axis = 1 if layout.startswith('NC') else len(layout) - 1
    axes = b.const(np.array([a for a in range(len(layout)) if a != channel_axis], np.int64), 'axes')
    # per-channel vectors [C] broadcast along the last axis; channels-first data needs them as [C, 1, ...]
    tail = np.arange(1, len(layout) - 1, dtype=np.int64) if layout.startswith('NC') else None

    def per_channel(vector, tag):
        return vector if tail is None else b.op(Unsqueeze, [vector, b.const(tail, tag + '/axes')], tag)

    x = float_input(b, node, 0, 'x_f32')
    mean = b.op(ReduceMean, [x, axes], 'batch_mean', keep_dims=False)
    centred = b.op(Sub, [x, per_channel(mean, 'mean_per_channel')], 'centred')
    variance = b.op(ReduceMean, [b.op(Mul, [centred, centred], 'squared'), axes], 'batch_variance',
                    keep_dims=False)
    std = b.op(Sqrt, [b.op(Add, [variance, b.const(node.eps, 'epsilon', F32)], 'variance_eps')], 'std')
    mul = b.op(Div, [node.in_port(1), std], 'mul')
    y = b.op(Add, [b.op(Mul, [centred, per_channel(mul, 'mul_per_channel')], 'scaled'),
                   per_channel(node.in_port(2), 'offset_per_channel')], 'shift_add')
    dtype = np.dtype(node.soft_get('data_type', None) or F32)
    if dtype != F32:
        y = b.cast(y, dtype, 'y')
    outputs = [y, None, None, mean, variance]
    if node.is_out_port_connected(1) or node.is_out_port_connected(2):
        outputs[1], outputs[2] = _running_statistics(node, b, x, axes, mean, variance)
    return outputs


def _running_statistics(node: Node, b: Builder, x, axes, mean, variance):
    """Outputs 1 and 2: the batch mean and the Bessel-corrected variance, blended with the running statistics
    by exponential_avg_factor."""
    # n elements per channel: the product of the other dimensions (a constant once the shape is known)
    dims = b.op(Gather, [b.op(ShapeOf, [x], 'shape', output_type=np.dtype(I64)), axes,
                         b.const(0, 'shape_axis', I64)], 'reduced_dims')
    count = b.cast(b.op(ReduceProd, [dims, b.const([0], 'count_axis', I64)], 'count_int', keep_dims=False),
                 F32, 'count')
    # n / (n - 1), and 1 for a single element (TF keeps the biased variance then: zero)
    bessel = b.op(Div, [count, b.op(Maximum, [b.op(Sub, [count, b.const(1.0, 'one', F32)], 'count_less_one'),
                                              b.const(1.0, 'at_least_one', F32)], 'bessel_denominator')],
                  'bessel')
    unbiased = b.op(Mul, [variance, bessel], 'unbiased_variance')
    factor = float(node.soft_get('exponential_avg_factor', 1.0))
    if factor == 1.0 or _is_empty_constant(node, 3) or _is_empty_constant(node, 4):
        return mean, unbiased
    keep = b.const(1.0 - factor, 'keep', F32)
    take = b.const(factor, 'factor', F32)
    out_mean = b.op(Add, [b.op(Mul, [node.in_port(3), keep], 'running_mean_kept'),
                          b.op(Mul, [mean, take], 'batch_mean_taken')], 'new_mean')
    out_var = b.op(Add, [b.op(Mul, [node.in_port(4), keep], 'running_variance_kept'),
                         b.op(Mul, [unbiased, take], 'batch_variance_taken')], 'new_variance')
    return out_mean, out_var
