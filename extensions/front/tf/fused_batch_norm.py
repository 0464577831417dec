"""FusedBatchNorm (inference form) -> ``x * mul + shift`` with per-channel constants.

``mul = scale / sqrt(variance + epsilon)`` and ``shift = offset - mean * mul`` are built from the
node's own inputs, so they fold to constants during inference when those inputs are constant (as in
a frozen Keras model); the middle pass ``fuse_scale_shift_into_conv`` then folds ``mul`` into a
preceding convolution's weights. For channels-first data the per-channel vectors get trailing 1s.
Training mode (``is_training=true``, tf_keras's LayerNormalization) normalizes with the batch's statistics:
``batch_norm_training.py``.
"""
import numpy as np

from extensions.front.tf.batch_norm_training import batch_norm_layout, training_batch_norm
from mo.front.common.formula_kit import float_input
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Sqrt
from mo.ops.elementwise import Add, Div, Mul, Sub
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.anchors import FrontFinish, FrontStart
from mo.utils.class_registration import steps_before
from mo.utils.error import Error


class FusedBatchNormToScaleShift(OpRule):
    """Inference-form FusedBatchNorm(x, scale, offset, mean, variance) = x * mul + shift, with
    mul = scale / sqrt(variance + epsilon) and shift = offset - mean * mul.

    It runs at the end of the front phase, so users' pattern replacers that match a whole
    FusedBatchNorm sub-graph (the MVN example of the guide) see it first.
    """
    op = 'FusedBatchNorm'

    def run_after(self):
        # last in the front phase: after every other front step, users' included (a user's may match FusedBatchNorm)
        return [FrontStart] + steps_before(FrontFinish, 'front', exclude=[type(self)])

    def run_before(self):
        return [FrontFinish]

    def rewrite(self, node: Node, b: Builder):
        if node.soft_get('is_training', False):
            return training_batch_norm(node, b)
        for port in (1, 2, 3, 4):
            if not node.is_in_port_connected(port):
                raise Error('FusedBatchNorm "{}" has no input {}', b.name, port)
        if node.is_out_port_connected(5):
            raise Error('FusedBatchNorm "{}": output 5 (reserve_space_3, an empty tensor) is used; it is not '
                        'converted', b.name)
        var_eps = b.op(Add, [node.in_port(4), b.const(node.eps, 'var_eps/port_1', np.float32)], 'var_eps')
        mul = b.op(Div, [node.in_port(1), b.op(Sqrt, [var_eps], 'std')], 'mul')
        shift = b.op(Sub, [node.in_port(2), b.op(Mul, [node.in_port(3), mul], 'mean_mul')], 'shift')
        layout = batch_norm_layout(node)
        if layout.startswith('NC'):  # per-channel vectors get trailing 1s for channels-first data
            tail = np.arange(1, len(layout) - 1, dtype=np.int64)
            mul = b.op(Unsqueeze, [mul, b.const(tail, 'mul_per_channel/port_1')], 'mul_per_channel')
            shift = b.op(Unsqueeze, [shift, b.const(tail, 'shift_per_channel/port_1')], 'shift_per_channel')
        # half data is computed in float32 (TF's scale, offset and statistics are float32)
        y = b.op(Add, [b.op(Mul, [float_input(b, node, 0, 'x_f32'), mul], 'scale'), shift], 'shift_add')
        dtype = np.dtype(node.soft_get('data_type', None) or np.float32)
        if dtype != np.float32:
            y = b.cast(y, dtype, 'y')
        # in inference batch_mean/variance are the given statistics; so are reserve_space_1/2 in TF's oneDNN kernel
        # (its Eigen kernel leaves them unset)
        return [y, node.in_port(3), node.in_port(4), node.in_port(3), node.in_port(4)]
