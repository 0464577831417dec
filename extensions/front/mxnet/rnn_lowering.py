"""MXNet's fused RNN op (LSTM, GRU, vanilla RNN; multi-layer, bidirectional) as the opset's sequence ops.

MXNet's RNN and the opset differ in these ways, each bridged here:

* layout: MXNet is time-major (data ``[T, N, I]``, output ``[T, N, D * H]``, states ``[L * D, N, H]``); the
  opset is batch-major (X ``[N, T, I]``, Y ``[N, D, T, H]``, states ``[N, D, H]``): Transposes and Reshapes;
* layers: the opset's ops are one layer each: one op per layer, the next reads the last one's Y with the
  directions' outputs side by side, as MXNet's layers do;
* weights: one flat vector (cuDNN's layout): every layer's and direction's ``W_i2h [G * H, in]`` and
  ``W_h2h [G * H, H]`` in turn, then every ``b_i2h [G * H]`` and ``b_h2h [G * H]``; the input size ``in`` of
  the first layer is read from the data (offsets are formulas of it, constants once shapes are known);
* gate order: MXNet's LSTM holds i, f, c, o (the opset f, i, c, o), its GRU r, z, n (the opset z, r, h);
  the GRU is cuDNN's, ``linear_before_reset`` in the opset, whose B is ``[Wb_z + Rb_z, Wb_r + Rb_r, Wb_h, Rb_h]``;
* begin states that Gluon makes with ``_zeros`` of an inferred batch (or leaves out) are zeros here.
"""

from extensions.front.mxnet.basic_ext import mxnet_attr
from extensions.front.mxnet.elementwise_lowering import like
from extensions.front.mxnet.formulas import concat, dims, ints
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Mul
from mo.ops.reshape import Reshape
from mo.ops.rnn_ops import GRUSequence, LSTMSequence, RNNSequence
from mo.ops.slice import Slice
from mo.ops.split import Split
from mo.ops.transpose import Transpose
from mo.utils.error import Error

#: mode -> (op class, gates, where each of the opset's gate blocks is in MXNet's order, activations)
_MODES = {'lstm': (LSTMSequence, 4, [1, 0, 2, 3], ['sigmoid', 'tanh', 'tanh']),
          'gru': (GRUSequence, 3, [1, 0, 2], ['sigmoid', 'tanh']),
          'rnn_tanh': (RNNSequence, 1, None, ['tanh']), 'rnn_relu': (RNNSequence, 1, None, ['relu'])}


def _transpose(b: Builder, tensor, order, tag: str):
    return b.op(Transpose, [tensor, ints(b, order, tag + '/order')], tag)


class _FlatParameters:
    """Slices of the flat parameter vector at offsets ``a * I + c`` (I: the first layer's input size)."""

    def __init__(self, b: Builder, flat, input_size):
        self.b, self.flat, self.input_size = b, flat, input_size
        self.offset = (0, 0)

    def _at(self, coefficient: int, constant: int, tag: str):
        if not coefficient:
            return ints(self.b, [constant], tag)
        scaled = self.b.op(Mul, [self.input_size, ints(self.b, [coefficient], tag + '/coefficient')], tag + '/scaled')
        return self.b.op(Add, [scaled, ints(self.b, [constant], tag + '/constant')], tag)

    def take(self, coefficient: int, constant: int, tag: str):
        """The next ``coefficient * I + constant`` values."""
        start = self.offset
        stop = (start[0] + coefficient, start[1] + constant)
        self.offset = stop
        b = self.b
        return b.op(Slice, [self.flat, self._at(*start, tag + '/start'), self._at(*stop, tag + '/stop'),
                            ints(b, [1], tag + '/step'), ints(b, [0], tag + '/axis')], tag)


def _gates(b: Builder, tensor, gates: int, order, axis: int, tag: str):
    """The gate blocks of ``tensor`` along ``axis`` in the opset's order."""
    if order is None:
        return tensor
    split = b.op(Split, [tensor, ints(b, axis, tag + '/axis')], tag + '/split', num_splits=gates)
    return b.op(Concat, [split.out_port(k) for k in order], tag, axis=axis, in_ports_count=gates)


def _zeros_state(node: Node, port: int) -> bool:
    """Whether begin state ``port`` is left out or is Gluon's ``_zeros`` (of a batch MXNet infers)."""
    if not node.is_in_port_connected(port):
        return True
    return node.in_port(port).get_source().node.soft_get('op') == 'MXzeros'


class RNNLowering(OpRule):
    """RNN(data, parameters, state[, state_cell]) = one LSTMSequence/GRUSequence/RNNSequence per layer on the
    batch-major data, weights sliced from the flat vector in the opset's gate order; output [T, N, D * H] and the
    last states [L * D, N, H]."""
    op = 'MXRNN'

    def rewrite(self, node: Node, b: Builder):
        attr = mxnet_attr(node)
        mode = attr.str('mode')
        if mode not in _MODES:
            raise Error('RNN "{}": mode "{}" is not one of {}', b.name, mode, ', '.join(_MODES))
        for unsupported in ('projection_size', 'lstm_state_clip_min', 'lstm_state_clip_max'):
            if attr.raw.get(unsupported, 'None') != 'None':
                raise Error('RNN "{}": {} is not converted', b.name, unsupported)
        if attr.bool('use_sequence_length', False):
            raise Error('RNN "{}": use_sequence_length is not converted', b.name)
        op_class, gates, order, activations = _MODES[mode]
        layers, hidden = attr.int('num_layers', 1), attr.int('state_size')
        directions = 2 if attr.bool('bidirectional', False) else 1
        states = 2 if mode == 'lstm' else 1
        data = node.in_port(0)
        x = _transpose(b, data, [1, 0, 2], 'batch_major')  # [N, T, I]
        batch, time = dims(b, data, [1], 'batch'), dims(b, data, [0], 'time')
        lengths = b.op(Broadcast, [time, batch], 'lengths')
        flat = _FlatParameters(b, node.in_port(1), dims(b, data, [2], 'input_size'))
        size = gates * hidden
        weights = []
        for layer in range(layers):
            per_direction = []
            for d in range(directions):
                tag = 'l{}d{}'.format(layer, d)
                w = flat.take(size if layer == 0 else 0, 0 if layer == 0 else size * directions * hidden, tag + '/W')
                r = flat.take(0, size * hidden, tag + '/R')
                per_direction.append((w, r))
            weights.append(per_direction)
        biases = [[(flat.take(0, size, 'l{}d{}/Wb'.format(l, d)), flat.take(0, size, 'l{}d{}/Rb'.format(l, d)))
                   for d in range(directions)] for l in range(layers)]

        begin = []
        for k in range(states):
            port = 2 + k
            if _zeros_state(node, port):
                shape = concat(b, [batch, ints(b, [directions, hidden], 'state{}/dims'.format(k))],
                               'state{}/shape'.format(k))
                begin.append(('zeros', b.op(Broadcast, [like(b, 0, data, 'state{}/zero'.format(k)), shape],
                                            'state{}/zeros'.format(k))))
            else:
                begin.append(('given', node.in_port(port)))

        outputs, last_states = x, [[] for _ in range(states)]
        for layer in range(layers):
            tag = 'layer{}'.format(layer)
            w = self._stack(b, [self._block(b, wi, gates, order, size, tag + '/W{}'.format(d))
                                for d, (wi, _) in enumerate(weights[layer])], tag + '/W', 0)
            r = self._stack(b, [self._block(b, ri, gates, order, size, tag + '/R{}'.format(d))
                                for d, (_, ri) in enumerate(weights[layer])], tag + '/R', 0)
            bias = self._stack(b, [self._bias(b, wb, rb, mode, gates, order, tag + '/B{}'.format(d))
                                   for d, (wb, rb) in enumerate(biases[layer])], tag + '/B', 0)
            layer_states = []
            for k, (kind, value) in enumerate(begin):
                if kind == 'zeros':
                    layer_states.append(value)
                else:  # [L * D, N, H] -> this layer's [N, D, H]
                    part = b.op(Slice, [value, ints(b, [layer * directions], tag + '/s{}/start'.format(k)),
                                        ints(b, [(layer + 1) * directions], tag + '/s{}/stop'.format(k)),
                                        ints(b, [1], tag + '/s{}/step'.format(k)),
                                        ints(b, [0], tag + '/s{}/axis'.format(k))], tag + '/s{}'.format(k))
                    layer_states.append(_transpose(b, part, [1, 0, 2], tag + '/state{}'.format(k)))
            # the activations are written out: the runtime reads no default for an IR that leaves them out
            attrs = {'hidden_size': hidden, 'direction': 'bidirectional' if directions == 2 else 'forward',
                     'out_ports_count': 1 + states, 'activations': activations}
            if mode == 'gru':
                attrs['linear_before_reset'] = True
            sequence = b.op(op_class, [outputs] + layer_states + [lengths, w, r, bias], tag + '/sequence', **attrs)
            # Y [N, D, T, H] -> [N, T, D * H], the directions side by side
            y = _transpose(b, sequence.out_port(0), [0, 2, 1, 3], tag + '/y_ntdh')
            outputs = b.op(Reshape, [y, ints(b, [0, 0, -1], tag + '/y_shape')], tag + '/y', special_zero=True)
            for k in range(states):
                last_states[k].append(_transpose(b, sequence.out_port(1 + k), [1, 0, 2], tag + '/last{}'.format(k)))
        result = [_transpose(b, outputs, [1, 0, 2], 'output')]
        for k in range(states):
            parts = last_states[k]
            result.append(parts[0] if len(parts) == 1 else
                          b.op(Concat, parts, 'state{}_out'.format(k), axis=0, in_ports_count=len(parts)))
        b.inherit_name(result[0])
        return result

    @staticmethod
    def _block(b: Builder, flat, gates, order, size, tag):
        """One direction's weight matrix [1, G * H, in] in the opset's gate order."""
        matrix = b.op(Reshape, [flat, ints(b, [1, size, -1], tag + '/shape')], tag + '/matrix')
        return _gates(b, matrix, gates, order, 1, tag)

    @staticmethod
    def _bias(b: Builder, wb, rb, mode, gates, order, tag):
        """One direction's B [1, G * H] (GRU: [1, 4 * H], the h gate's two biases apart)."""
        if mode != 'gru':
            total = b.op(Add, [wb, rb], tag + '/sum')
            return b.op(Reshape, [_gates(b, total, gates, order, 0, tag + '/gates'), ints(b, [1, -1], tag + '/shape')],
                        tag)
        wsplit = b.op(Split, [wb, ints(b, 0, tag + '/w_axis')], tag + '/w_gates', num_splits=3)
        rsplit = b.op(Split, [rb, ints(b, 0, tag + '/r_axis')], tag + '/r_gates', num_splits=3)
        z = b.op(Add, [wsplit.out_port(1), rsplit.out_port(1)], tag + '/z')
        r = b.op(Add, [wsplit.out_port(0), rsplit.out_port(0)], tag + '/r')
        joined = b.op(Concat, [z, r, wsplit.out_port(2), rsplit.out_port(2)], tag + '/joined', axis=0,
                      in_ports_count=4)
        return b.op(Reshape, [joined, ints(b, [1, -1], tag + '/shape')], tag)

    @staticmethod
    def _stack(b: Builder, parts, tag, axis):
        return parts[0] if len(parts) == 1 else b.op(Concat, parts, tag, axis=axis, in_ports_count=len(parts))


class RNNParamConcatLowering(OpRule):
    """_rnn_param_concat(a, b, ...) = Concat along dim (Gluon's flat RNN parameters)."""
    op = 'MXrnn_param_concat'

    def rewrite(self, node: Node, b: Builder):
        ports = [node.in_port(i) for i in sorted(node.in_ports()) if node.is_in_port_connected(i)]
        return b.op(Concat, ports, 'concat', axis=mxnet_attr(node).int('dim', 0), in_ports_count=len(ports))
