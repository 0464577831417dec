"""TensorFlow's fused recurrent cells from opset ops (the ops ``rnn_ext`` extracts), TF's formulas:

LSTMBlockCell: ``[i, ci, f, o] = [x, h_prev] @ w + b``; ``i = sigmoid(i + cs_prev * wci)``,
``f = sigmoid(f + forget_bias + cs_prev * wcf)``, ``ci = tanh(ci)``, ``cs = i * ci + f * cs_prev`` clipped to
[-cell_clip, cell_clip] when cell_clip > 0, ``co = tanh(cs)``, ``o = sigmoid(o + cs * wco)``, ``h = o * co``
(the peephole terms only with use_peephole).

GRUBlockCell: ``[r, u] = sigmoid([x, h_prev] @ w_ru + b_ru)``, ``c = tanh([x, h_prev * r] @ w_c + b_c)``,
``h = u * (h_prev - c) + c``.

BlockLSTM runs LSTMBlockCell over the time axis in an opset Loop (``mo.front.tf.step_loop.StepLoop``): the body is
the cell itself, converted by the whole pipeline.
"""
import numpy as np

from mo.front.common.formula_kit import I64, dim
from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.activation_ops import Clamp, Sigmoid, Tanh
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Maximum, Minimum, Mul, Sub
from mo.ops.matmul import MatMul
from mo.ops.pad import Pad
from mo.ops.slice import Slice
from mo.front.tf.step_loop import StepLoop
from mo.ops.split import Split


def _affine(b, x, h, weights, bias, tag: str):
    """[x, h] @ weights + bias."""
    joined = b.op(Concat, [x, h], tag + '/xh', axis=1)
    return b.op(Add, [b.op(MatMul, [joined, weights], tag + '/matmul'), bias], tag + '/gates')


class LSTMBlockCellLowering(OpRule):
    """LSTMBlockCell(x, cs_prev, h_prev, w, wci, wcf, wco, b) -> i, cs, f, o, ci, co, h (see the module
    docstring)."""
    op = 'LSTMBlockCell'

    def rewrite(self, node: Node, b: Builder):
        cs_prev = node.in_port(1)
        gates = b.op(Split, [_affine(b, node.in_port(0), node.in_port(2), node.in_port(3), node.in_port(7), 'cell'),
                             b.const(1, 'gates_axis', I64)], 'icfo', num_splits=4)
        i, ci, f, o = (gates.out_port(k) for k in range(4))
        if node.use_peephole:
            i = b.op(Add, [i, b.op(Mul, [cs_prev, node.in_port(4)], 'i_peep')], 'i_peeped')
        f = b.op(Add, [f, b.const(node.forget_bias, 'forget_bias')], 'f_biased')
        if node.use_peephole:
            f = b.op(Add, [f, b.op(Mul, [cs_prev, node.in_port(5)], 'f_peep')], 'f_peeped')
        i, f = b.op(Sigmoid, [i], 'i'), b.op(Sigmoid, [f], 'f')
        ci = b.op(Tanh, [ci], 'ci')
        cs = b.op(Add, [b.op(Mul, [i, ci], 'i_ci'), b.op(Mul, [f, cs_prev], 'f_cs')], 'cs')
        if node.cell_clip > 0:
            cs = b.op(Clamp, [cs], 'cs_clipped', min=-node.cell_clip, max=node.cell_clip)
        co = b.op(Tanh, [cs], 'co')
        if node.use_peephole:
            o = b.op(Add, [o, b.op(Mul, [cs, node.in_port(6)], 'o_peep')], 'o_peeped')
        o = b.op(Sigmoid, [o], 'o')
        h = b.op(Mul, [o, co], 'h')
        return [i, cs, f, o, ci, co, h]


class GRUBlockCellLowering(OpRule):
    """GRUBlockCell(x, h_prev, w_ru, w_c, b_ru, b_c) -> r, u, c, h (see the module docstring)."""
    op = 'GRUBlockCell'

    def rewrite(self, node: Node, b: Builder):
        x, h_prev = node.in_port(0), node.in_port(1)
        gates = b.op(Sigmoid, [_affine(b, x, h_prev, node.in_port(2), node.in_port(4), 'ru')], 'ru_sigmoid')
        ru = b.op(Split, [gates, b.const(1, 'ru_axis', I64)], 'ru', num_splits=2)
        r, u = ru.out_port(0), ru.out_port(1)
        c = b.op(Tanh, [_affine(b, x, b.op(Mul, [h_prev, r], 'h_r'), node.in_port(3), node.in_port(5), 'c')], 'c')
        h = b.op(Add, [b.op(Mul, [u, b.op(Sub, [h_prev, c], 'h_minus_c')], 'u_h'), c], 'h')
        return [r, u, c, h]


def _ifco_to_icfo(b, tensor, axis: int, tag: str):
    """Gate blocks i, f, c, o (BlockLSTMV2's layout) reordered to i, c, f, o along ``axis``."""
    gates = b.op(Split, [tensor, b.const(axis, tag + '/axis', I64)], tag + '/ifco', num_splits=4)
    return b.op(Concat, [gates.out_port(0), gates.out_port(2), gates.out_port(1), gates.out_port(3)], tag,
                axis=axis, in_ports_count=4)


class BlockLSTMLowering(OpRule):
    """BlockLSTM(seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b) = a Loop over t < min(seq_len_max, time)
    whose body is LSTMBlockCell(x[t], cs, h, ...) (cs and h carried), its seven outputs concatenated over time and
    padded with zeros to the whole time (TF zeroes cs and h past seq_len_max and leaves the others uninitialized;
    with seq_len_max 0 the Loop runs one step, cropped away)."""
    op = 'BlockLSTM'

    def rewrite(self, node: Node, b: Builder):
        dtype = node_dtype(node)
        x = node.in_port(1)
        weights, bias = node.in_port(4), node.in_port(8)
        if node.op == 'BlockLSTMV2':
            weights, bias = _ifco_to_icfo(b, weights, 1, 'w_icfo'), _ifco_to_icfo(b, bias, 0, 'b_icfo')
        time = dim(b, x, 0, 'time', I64)
        steps = b.op(Minimum, [b.cast(node.in_port(0), I64, 'seq_len_max'), time], 'steps')
        # at least one iteration: OpenVINO's CPU Loop fails on none (the surplus step is cropped below)
        trips = b.op(Maximum, [steps, b.const(1, 'one_step', I64)], 'trips')
        peepholes = [node.in_port(k) for k in (5, 6, 7)] if node.use_peephole else []
        inputs = [trips, b.const(True, 'run', np.bool_), x, node.in_port(2), node.in_port(3), weights] + \
            peepholes + [bias]
        cell = {'op': 'LSTMBlockCell', 'dtype': dtype,
                'attrs': {'forget_bias': node.forget_bias, 'cell_clip': node.cell_clip,
                          'use_peephole': node.use_peephole},
                # the cell's inputs: the step's slice, the carried states, the invariant inputs (None: unused)
                'inputs': ['slice', 'state0', 'state1', 'param0'] +
                          (['param1', 'param2', 'param3', 'param4'] if node.use_peephole else [None] * 3 + ['param1']),
                'states': [1, 6], 'outputs': 7}
        loop = b.op(StepLoop, inputs, 'loop', cell=cell, state_count=2, in_ports_count=len(inputs),
                    out_ports_count=cell['outputs'])
        # the steps past seq_len_max are zeros
        missing = b.unsqueeze(b.op(Sub, [time, steps], 'missing'), [0], 'missing_vector')
        pads_end = b.op(Concat, [missing, b.const([0, 0], 'pads_end_rest', I64)], 'pads_end', axis=0)
        pads_begin = b.const([0, 0, 0], 'pads_begin', I64)
        stop = b.unsqueeze(steps, [0], 'stop')
        outputs = []
        for k in range(cell['outputs']):
            ran = b.op(Slice, [loop.out_port(k), b.const([0], 'start{}'.format(k), I64), stop,
                               b.const([1], 'step{}'.format(k), I64), b.const([0], 'axis{}'.format(k), I64)],
                       'ran{}'.format(k))
            outputs.append(b.op(Pad, [ran, pads_begin, pads_end, b.const(0, 'zero{}'.format(k), dtype)],
                                'output{}'.format(k), pad_mode='constant'))
        return outputs


class BlockLSTMV2Lowering(BlockLSTMLowering):
    op = 'BlockLSTMV2'
