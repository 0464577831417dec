"""The decoder building blocks of ``decoder_ops_ext.py`` as opset ops: CausalConvWithState (a depthwise convolution
over the past state and the input), SwiGLU (a Swish gate times the value) and TensorScatter (the KV-cache write).
All of them work on run-time shapes: only the attributes need to be known."""
import numpy as np

from mo.front.common.nn_formulas import I64, like
from extensions.front.onnx.nn_lowering import add_bias
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.activation_ops import Sigmoid, Swish
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convolution import GroupConvolution
from mo.ops.elementwise import Add, FloorMod, GreaterEqual, Less, LogicalAnd, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from mo.ops.unsqueeze import Unsqueeze

_END = np.iinfo(np.int64).max


def _as_1d(b: Builder, scalar, tag: str):
    return b.op(Unsqueeze, [scalar, b.const([0], tag + '/axis', I64)], tag)


def _tail(b: Builder, x, begin_1d, axis: int, tag: str):
    """``x`` from ``begin_1d`` (a 1-D int64 tensor) to the end along ``axis``."""
    return b.op(Slice, [x, begin_1d, b.const([_END], tag + '/end', I64), b.const([1], tag + '/step', I64),
                        b.const([axis], tag + '/axes', I64)], tag)


class ONNXCausalConvWithStateLowering(OpRule):
    """CausalConvWithState(X [B, C, L], W [C, 1, k], bias, past [B, C, k - 1]):

        padded = Concat(past or zeros [B, C, k - 1], X) along axis 2
        output = act(GroupConvolution(padded, W as [C, 1, 1, k]) + bias)     (no padding: L outputs)
        present_state = padded[:, :, L:]                                    (its last k - 1 positions)
    """
    op = 'ONNXCausalConvWithState'

    def rewrite(self, node: Node, b: Builder):
        x, weights = node.in_port(0), node.in_port(1)
        if node.is_in_port_connected(3):
            state = node.in_port(3)
        else:
            # zeros [B, C, k - 1]: k from the weights' shape, B and C from the input's
            shape = b.op(ShapeOf, [x], 'zeros/input_shape')
            batch_channels = b.op(Slice, [shape, b.const([0], 'zeros/begin', I64), b.const([2], 'zeros/end', I64),
                                          b.const([1], 'zeros/step', I64)], 'zeros/batch_channels')
            kernel = _as_1d(b, b.dim_of(weights, 2, 'zeros/kernel'), 'zeros/kernel_1d')
            length = b.op(Sub, [kernel, b.const([1], 'zeros/one', I64)], 'zeros/length')
            state = b.op(Broadcast, [like(b, 0, x, 'zeros/zero'), b.concat([batch_channels, length], 'zeros/shape')],
                         'zeros')
        padded = b.op(Concat, [state, x], 'padded', axis=2, in_ports_count=2)
        # [C, 1, k] is [GROUPS, C_OUT/GROUPS, k] of a depthwise convolution: C_IN/GROUPS = 1 goes in between
        grouped = b.op(Unsqueeze, [weights, b.const([1], 'weights/axis', I64)], 'weights')
        conv = b.op(GroupConvolution, [padded, grouped], 'conv', layout='NCHW', auto_pad='explicit',
                    strides=np.array([1], I64), dilations=np.array([1], I64), pads_begin=np.array([0], I64),
                    pads_end=np.array([0], I64))
        output = add_bias(b, node, conv, 2)
        if node.fused_swish:
            output = b.op(Swish, [output], 'swish')
        present = None
        if node.is_out_port_connected(1):
            length = _as_1d(b, b.dim_of(x, 2, 'present/input_length'), 'present/begin')
            present = _tail(b, padded, length, 2, 'present_state')
        return [output, present]


class ONNXSwiGLULowering(OpRule):
    """SwiGLU(A, B) = Swish(A) * B, with Swish(A) = A * Sigmoid(alpha * A) for alpha other than 1 (the opset's
    Swish has a beta input, but a Multiply and Sigmoid say the same with opset1 ops)."""
    op = 'ONNXSwiGLU'

    def rewrite(self, node: Node, b: Builder):
        a = node.in_port(0)
        if node.alpha == 1.0:
            gate = b.op(Swish, [a], 'gate')
        else:
            scaled = b.op(Mul, [a, like(b, node.alpha, a, 'alpha')], 'scaled')
            gate = b.op(Mul, [a, b.op(Sigmoid, [scaled], 'sigmoid')], 'gate')
        return b.op(Mul, [gate, node.in_port(1)], 'swiglu')


class ONNXTensorScatterLowering(OpRule):
    """TensorScatter(past [.., M, ..], update [.., S, ..], write_indices [B]) along ``axis``: cache position j of
    batch b takes update position r = j - w[b] (mod M in circular mode) when 0 <= r < S, else keeps past's j. As
    one Gather with batch_dims 1 from Concat(past, update): index M + r where written, j elsewhere. Without
    write_indices (all zero) that is Concat(update, past[S:])."""
    op = 'ONNXTensorScatter'

    def rewrite(self, node: Node, b: Builder):
        past, update, axis = node.in_port(0), node.in_port(1), node.axis
        if not node.is_in_port_connected(2):
            written = _as_1d(b, b.dim_of(update, axis, 'update_length'), 'update_length_1d')
            kept = _tail(b, past, written, axis, 'kept')
            return b.op(Concat, [update, kept], 'present', axis=axis, in_ports_count=2)
        size = b.dim_of(past, axis, 'cache_length')
        count = b.dim_of(update, axis, 'update_length')
        positions = b.op(Range, [b.const(0, 'positions/start', I64), size, b.const(1, 'positions/step', I64)],
                         'positions', output_type=np.dtype(I64))
        starts = b.op(Unsqueeze, [node.in_port(2), b.const([1], 'starts/axis', I64)], 'starts')
        offsets = b.op(Sub, [positions, starts], 'offsets')  # [B, M]
        if node.circular:
            offsets = b.op(FloorMod, [offsets, size], 'wrapped')
            written = b.op(Less, [offsets, count], 'written')
        else:
            written = b.op(LogicalAnd, [b.op(GreaterEqual, [offsets, b.const(0, 'zero', I64)], 'after_start'),
                                        b.op(Less, [offsets, count], 'before_end')], 'written')
        indices = b.op(Select, [written, b.op(Add, [offsets, size], 'update_indices'), positions], 'indices')
        both = b.op(Concat, [past, update], 'past_and_update', axis=axis, in_ports_count=2)
        return b.op(Gather, [both, indices, b.const(axis, 'axis', I64)], 'present', batch_dims=1)
