"""ONNX's LSTM, GRU and RNN (the internal ops ``rnn_ext.py`` extracts) as OpenVINO's opset5 sequence ops.

ONNX and the opset differ in four ways, each bridged here:

* layout: ONNX's default layout 0 is time-major (X ``[time, batch, input]``, Y ``[time, directions, batch,
  hidden]``, the states ``[directions, batch, hidden]``); layout 1 and the opset are batch-major (X ``[batch,
  time, input]``, states ``[batch, directions, hidden]``), but the opset's Y is ``[batch, directions, time,
  hidden]`` where ONNX's layout 1 has ``[batch, time, directions, hidden]``: Transposes on the way in and out;
* gate order: ONNX's LSTM weights hold the gates i, o, f, c, the opset's f, i, c, o (GRU's z, r, h are the same
  in both): a Split and a Concat, which fold when the weights are constant;
* biases: ONNX's B is ``[Wb, Rb]``, the opset's their sum, except GRU with linear_before_reset, whose B is
  ``[Wb_z + Rb_z, Wb_r + Rb_r, Wb_h, Rb_h]``;
* optional inputs: the opset's are all required: a missing B and initial state are zeros, missing
  sequence_lens the whole time for every batch element.
"""
import numpy as np

from mo.front.common.nn_formulas import like
from mo.front.common.rnn_formulas import reorder_gates, split
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add
from mo.ops.rnn_ops import GRUSequence, LSTMSequence, RNNSequence
from mo.utils.error import Error

#: ONNX's inputs
X, W, R, B, SEQUENCE_LENS, INITIAL_H, INITIAL_C, P = range(8)
#: where each of ONNX's LSTM gate blocks (i, o, f, c) goes in the opset's order (f, i, c, o)
LSTM_GATE_ORDER = [2, 0, 3, 1]


def zeros(b: Builder, like_tensor, shape, tag: str):
    """Zeros of ``shape`` (an int64 vector) in the element type of ``like_tensor``."""
    return b.op(Broadcast, [like(b, 0, like_tensor, tag + '/zero'), shape], tag)


class _RecurrentLowering(OpRule):
    """ONNX's LSTM/GRU/RNN(X, W, R, B, sequence_lens, initial_h[, initial_c, P]) -> Y, Y_h[, Y_c] as the opset's
    sequence op (see the module docstring)."""
    sequence_op = None
    gates = 1
    gate_order = None  # None: ONNX's order is the opset's
    states = 1

    def biases(self, b: Builder, node: Node):
        """The opset's B ``[directions, gates * hidden]`` from ONNX's ``[directions, 2 * gates * hidden]``."""
        if not node.is_in_port_connected(B):
            return zeros(b, node.in_port(X), b.dims_of(node.in_port(W), [0, 1], 'bias_shape'), 'bias')
        wb, rb = split(b, node.in_port(B), 2, 1, 'wb_rb')
        return b.op(Add, [wb, rb], 'bias_sum')

    def rewrite(self, node: Node, b: Builder):
        name = node.soft_get('name', node.id)
        onnx_op = node.op[len('ONNX'):]
        if not node.is_in_port_connected(W) or not node.is_in_port_connected(R):
            raise Error('{} "{}": the inputs W and R are required', onnx_op, name)
        time_major = node.layout == 0
        x = b.transpose(node.in_port(X), [1, 0, 2], 'x_batch_major') if time_major else node.in_port(X)
        initial_states = []
        for port in (INITIAL_H, INITIAL_C)[:self.states]:
            if node.is_in_port_connected(port):
                state = node.in_port(port)
                initial_states.append(b.transpose(state, [1, 0, 2], 'state{}'.format(port)) if time_major
                                      else state)
            else:  # zeros [batch, directions, hidden]
                shape = b.concat([b.dims_of(x, [0], 'batch{}'.format(port)),
                                   b.dims_of(node.in_port(R), [0, 2], 'directions_hidden{}'.format(port))],
                               'state{}_shape'.format(port))
                initial_states.append(zeros(b, x, shape, 'state{}'.format(port)))
        if node.is_in_port_connected(SEQUENCE_LENS):
            lengths = node.in_port(SEQUENCE_LENS)
        else:  # the whole time, for each batch element
            lengths = b.op(Broadcast, [b.dims_of(x, [1], 'time'), b.dims_of(x, [0], 'batch')], 'lengths')
        lengths = b.op(Convert, [lengths], 'lengths_i32', dst_type=np.dtype(np.int32))
        weights = reorder_gates(b, node.in_port(W), self.gate_order, 1, 'w')
        recurrence = reorder_gates(b, node.in_port(R), self.gate_order, 1, 'r')
        biases = reorder_gates(b, self.biases(b, node), self.gate_order, 1, 'b')
        attrs = {attr: node[attr] for attr in ('direction', 'hidden_size', 'activations', 'clip')}
        attrs.update(self.extra_attrs(node))
        sequence = b.op(self.sequence_op, [x] + initial_states + [lengths, weights, recurrence, biases], 'sequence',
                        **attrs)
        # Y: the opset's [batch, directions, time, hidden] -> [time, directions, batch, hidden] or
        # [batch, time, directions, hidden]
        outputs = [b.transpose(sequence.out_port(0), [2, 1, 0, 3] if time_major else [0, 2, 1, 3], 'y')]
        for port in range(1, 1 + self.states):
            state = sequence.out_port(port)
            outputs.append(b.transpose(state, [1, 0, 2], 'state_out{}'.format(port)) if time_major else state)
        b.inherit_name(sequence)
        return [out if node.is_out_port_connected(k) else None for k, out in enumerate(outputs)]

    def extra_attrs(self, node: Node) -> dict:
        return {}


class ONNXLSTMLowering(_RecurrentLowering):
    """LSTM -> LSTMSequence (gates i, o, f, c reordered to f, i, c, o); peepholes are refused."""
    op = 'ONNXLSTM'
    sequence_op = LSTMSequence
    gate_order = LSTM_GATE_ORDER
    states = 2

    def rewrite(self, node: Node, b: Builder):
        if node.is_in_port_connected(P):
            raise Error('LSTM "{}": peepholes (input P) are not supported: OpenVINO\'s LSTMSequence has none',
                        node.soft_get('name', node.id))
        return super().rewrite(node, b)


class ONNXGRULowering(_RecurrentLowering):
    """GRU -> GRUSequence (gates z, r, h in both orders); with linear_before_reset B keeps Wb_h and Rb_h apart."""
    op = 'ONNXGRU'
    sequence_op = GRUSequence

    def biases(self, b: Builder, node: Node):
        if not node.linear_before_reset:
            return super().biases(b, node)
        if not node.is_in_port_connected(B):  # zeros [directions, 4 * hidden]
            return b.op(Concat, [super().biases(b, node),
                                 zeros(b, node.in_port(X), b.dims_of(node.in_port(R), [0, 2], 'rb_h_shape'), 'rb_h')],
                        'bias_lbr', axis=1)
        wb, rb = split(b, node.in_port(B), 2, 1, 'wb_rb')
        wz, wr, wh = split(b, wb, 3, 1, 'wb_zrh')
        rz, rr, rh = split(b, rb, 3, 1, 'rb_zrh')
        zr = [b.op(Add, [w, r], 'bias_' + gate) for w, r, gate in ((wz, rz, 'z'), (wr, rr, 'r'))]
        return b.op(Concat, zr + [wh, rh], 'bias_lbr', axis=1, in_ports_count=4)

    def extra_attrs(self, node: Node) -> dict:
        return {'linear_before_reset': node.linear_before_reset}


class ONNXRNNLowering(_RecurrentLowering):
    """RNN -> RNNSequence."""
    op = 'ONNXRNN'
    sequence_op = RNNSequence
