"""Paddle's ``rnn`` op (the internal op ``PaddleRNN`` of ``rnn_ext.py``) as one opset5 sequence op per layer.

Each layer runs both its directions in one LSTMSequence/GRUSequence/RNNSequence (``bidirectional``); its
``[batch, directions, time, hidden]`` output becomes the next layer's ``[batch, time, directions * hidden]``
input, the forward features first as Paddle concatenates them. What differs from Paddle, and is bridged:

* time-major in and out (Paddle) against batch-major (the opset): a Transpose at each end;
* the gate order: LSTM ``i, f, c, o`` -> ``f, i, c, o``, GRU ``r, z, c`` -> ``z, r, h``; Split and Concat that
  fold with the constant weights;
* the biases: the opset's B is ``bias_ih + bias_hh``; Paddle's GRU resets after the hidden matmul, which is
  the opset's ``linear_before_reset``, whose B keeps the candidate's two biases apart;
* the states: Paddle's ``[layers * directions, batch, hidden]`` is split into layers and each made
  ``[batch, directions, hidden]``;
* missing sequence lengths are the whole time for every batch element.
"""
import numpy as np

from mo.front.common.nn_formulas import I64
from mo.front.common.rnn_formulas import reorder_gates, split
from extensions.front.paddle.interp_lowering import slot_ports
from extensions.front.paddle.rnn_ext import MODES
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Add
from mo.ops.reshape import Reshape
from mo.ops.rnn_ops import GRUSequence, LSTMSequence, RNNSequence
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

#: where each of the opset's gate blocks comes from in Paddle's order
GATE_ORDER = {'LSTM': [1, 0, 2, 3], 'GRU': [1, 0, 2], 'RNN_TANH': None, 'RNN_RELU': None}
ACTIVATIONS = {'LSTM': ['sigmoid', 'tanh', 'tanh'], 'GRU': ['sigmoid', 'tanh']}
SEQUENCE_OPS = {'LSTM': LSTMSequence, 'GRU': GRUSequence, 'RNN_TANH': RNNSequence, 'RNN_RELU': RNNSequence}


def _stack(b: Builder, tensors, tag: str):
    """``tensors`` (each ``[...]``) stacked on a new axis 0."""
    parts = [b.op(Unsqueeze, [t, b.const([0], '{}/{}/axis'.format(tag, i), I64)], '{}/{}'.format(tag, i))
             for i, t in enumerate(tensors)]
    return parts[0] if len(parts) == 1 else b.op(Concat, parts, tag, axis=0, in_ports_count=len(parts))


class PaddleRNNLowering(OpRule):
    """PaddleRNN(Input, PreState..., WeightList..., SequenceLength) -> Out, State... (see the module docstring)."""
    op = 'PaddleRNN'

    def rewrite(self, node: Node, b: Builder):
        mode, layers, directions = node.mode, int(node.num_layers), int(node.directions)
        gates, activation = MODES[mode]
        cells = layers * directions
        x_ports, state_ports, weight_ports = (slot_ports(node, s) for s in ('Input', 'PreState', 'WeightList'))
        length_ports = slot_ports(node, 'SequenceLength')
        states = 2 if mode == 'LSTM' else 1
        if len(weight_ports) != 4 * cells:
            raise Error('rnn "{}": {} weights in WeightList, {} expected ({} cells with weight_ih, weight_hh, '
                        'bias_ih and bias_hh each)', b.name, len(weight_ports), 4 * cells, cells)
        if len(state_ports) != states:
            raise Error('rnn "{}": {} PreState tensors, {} expected for mode {}', b.name, len(state_ports), states,
                        mode)
        weights = [node.in_port(p) for p in weight_ports]
        x = b.transpose(node.in_port(x_ports[0]), [1, 0, 2], 'x_batch_major')
        if length_ports:
            lengths = b.op(Convert, [node.in_port(length_ports[0])], 'lengths', dst_type=np.dtype(np.int32))
        else:
            lengths = b.op(Convert, [b.op(Broadcast, [b.dims_of(x, [1], 'time'), b.dims_of(x, [0], 'batch')],
                                          'all_time')], 'lengths', dst_type=np.dtype(np.int32))
        initial = [split(b, node.in_port(p), layers, 0, 'state{}_layers'.format(s)) if layers > 1
                   else [node.in_port(p)] for s, p in enumerate(state_ports)]
        order = GATE_ORDER[mode]
        finals = [[] for _ in range(states)]
        sequence = None
        for layer in range(layers):
            tag = 'l{}'.format(layer)
            cell_ids = [layer * directions + d for d in range(directions)]
            w = _stack(b, [reorder_gates(b, weights[2 * k], order, 0, '{}/w{}'.format(tag, k)) for k in cell_ids],
                       tag + '/w')
            r = _stack(b, [reorder_gates(b, weights[2 * k + 1], order, 0, '{}/r{}'.format(tag, k))
                           for k in cell_ids], tag + '/r')
            biases = [self._bias(b, mode, weights[2 * cells + 2 * k], weights[2 * cells + 2 * k + 1], order,
                                 '{}/b{}'.format(tag, k)) for k in cell_ids]
            bias = _stack(b, biases, tag + '/b')
            h0 = [b.transpose(initial[s][layer], [1, 0, 2], '{}/state{}'.format(tag, s)) for s in range(states)]
            attrs = {'hidden_size': int(node.hidden_size),
                     'direction': 'bidirectional' if directions == 2 else 'forward'}
            # the runtime reads the activations from the IR even where the opset has defaults
            attrs['activations'] = [activation] if activation else ACTIVATIONS[mode]
            if mode == 'GRU':
                attrs['linear_before_reset'] = True
            sequence = b.op(SEQUENCE_OPS[mode], [x] + h0 + [lengths, w, r, bias], tag + '/sequence', **attrs)
            for s in range(states):  # [batch, directions, hidden] -> [directions, batch, hidden]
                finals[s].append(b.transpose(sequence.out_port(1 + s), [1, 0, 2], '{}/final{}'.format(tag, s)))
            # [batch, directions, time, hidden] -> [batch, time, directions * hidden]
            y = b.transpose(sequence.out_port(0), [0, 2, 1, 3], tag + '/y_bt')
            x = b.op(Reshape, [y, b.const([0, 0, -1], tag + '/y_shape', I64)], tag + '/y', special_zero=True)
        out = b.transpose(x, [1, 0, 2], 'out')
        final_states = [f[0] if len(f) == 1 else b.op(Concat, f, 'final_state{}'.format(s), axis=0,
                                                      in_ports_count=len(f))
                        for s, f in enumerate(finals)]
        return self._outputs(node, out, final_states)

    @staticmethod
    def _bias(b: Builder, mode: str, bias_ih, bias_hh, order, tag: str):
        """The opset's B of one cell: ``bias_ih + bias_hh`` in its gate order; GRU (linear_before_reset):
        ``[z_ih + z_hh, r_ih + r_hh, c_ih, c_hh]``."""
        if mode != 'GRU':
            return reorder_gates(b, b.op(Add, [bias_ih, bias_hh], tag + '/sum'), order, 0, tag)
        r_ih, z_ih, c_ih = split(b, bias_ih, 3, 0, tag + '/ih')
        r_hh, z_hh, c_hh = split(b, bias_hh, 3, 0, tag + '/hh')
        z = b.op(Add, [z_ih, z_hh], tag + '/z')
        r = b.op(Add, [r_ih, r_hh], tag + '/r')
        return b.op(Concat, [z, r, c_ih, c_hh], tag, axis=0, in_ports_count=4)

    @staticmethod
    def _outputs(node: Node, out, final_states):
        """One entry per output port of ``node``: ``Out``, the ``State`` tensors, None for the others."""
        slots = node.soft_get('out_slots', None) or {}
        count = max([p for ports in slots.values() for p in ports] + [0]) + 1
        result = [None] * count
        for port in slots.get('Out', [0]):
            result[port] = out
        for port, state in zip(slots.get('State', []), final_states):
            result[port] = state
        return [item if node.is_out_port_connected(k) else None for k, item in enumerate(result)]
