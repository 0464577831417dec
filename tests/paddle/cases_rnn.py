"""Cases for the recurrent family (``test_paddle_rnn.py``): ``paddle.nn.LSTM``/``GRU``/``SimpleRNN`` (Paddle's
``rnn`` op), one and two layers, forward and bidirectional, batch- and time-major, with and without initial
states and sequence lengths."""
import numpy as np

_CLASSES = {'lstm': 'LSTM', 'gru': 'GRU', 'rnn_tanh': 'SimpleRNN', 'rnn_relu': 'SimpleRNN'}
INPUT, HIDDEN, BATCH, TIME = 5, 6, 3, 7


def setup():
    """Defines the layer classes (paddle is imported here, in the exporting process only)."""
    global Recurrent, Recurrent1, Recurrent2, Recurrent3, Recurrent4
    import paddle

    class Recurrent(paddle.nn.Layer):
        def __init__(self, kind, layers=1, direction='forward', time_major=False, states=False, lengths=False):
            super().__init__()
            extra = {'activation': 'relu'} if kind == 'rnn_relu' else {}
            self.rnn = getattr(paddle.nn, _CLASSES[kind])(INPUT, HIDDEN, num_layers=layers, direction=direction,
                                                          time_major=time_major, **extra)
            self.states, self.lengths = states, lengths

        def run(self, x, extra):
            states = None
            if self.states:
                states = (extra.pop(0), extra.pop(0)) if isinstance(self.rnn, paddle.nn.LSTM) else extra.pop(0)
            lengths = extra.pop(0) if self.lengths else None
            out, final = self.rnn(x, states, lengths)
            finals = list(final) if isinstance(final, (tuple, list)) else [final]
            return [out] + finals

    class Recurrent1(Recurrent):
        """paddle.jit.to_static needs a forward with one named parameter per input spec."""
        def forward(self, x):
            return self.run(x, [])

    class Recurrent2(Recurrent):
        def forward(self, x, a):
            return self.run(x, [a])

    class Recurrent3(Recurrent):
        def forward(self, x, a, b):
            return self.run(x, [a, b])

    class Recurrent4(Recurrent):
        def forward(self, x, a, b, c):
            return self.run(x, [a, b, c])


def _case(kind, layers=1, direction='forward', time_major=False, states=False, lengths=False, dynamic=False):
    def make():
        inputs = 1 + (((2 if kind == 'lstm' else 1) if states else 0) + (1 if lengths else 0))
        arity = [Recurrent1, Recurrent2, Recurrent3, Recurrent4][inputs - 1]
        layer = arity(kind, layers, direction, time_major, states, lengths)
        shape = [TIME, BATCH, INPUT] if time_major else [BATCH, TIME, INPUT]
        spec_shape = list(shape)
        if dynamic:
            spec_shape[1 if time_major else 0] = -1
        specs = [('x', spec_shape, 'float32')]
        feeds = [np.random.randn(*shape).astype(np.float32)]
        directions = 2 if direction == 'bidirect' else 1
        if states:
            for k in range(2 if kind == 'lstm' else 1):
                specs.append(('h{}'.format(k), [layers * directions, BATCH, HIDDEN], 'float32'))
                feeds.append(np.random.randn(layers * directions, BATCH, HIDDEN).astype(np.float32))
        if lengths:
            specs.append(('lengths', [BATCH], 'int32'))
            feeds.append(np.array([TIME, 2, 5], np.int32))
        return layer, specs, feeds
    return make


CASES = {}
for _kind in _CLASSES:
    CASES[_kind] = _case(_kind)
    CASES[_kind + '_bidirect'] = _case(_kind, direction='bidirect')
    CASES[_kind + '_2layers_bidirect_states'] = _case(_kind, layers=2, direction='bidirect', states=True)
CASES['lstm_time_major_dynamic'] = _case('lstm', time_major=True, dynamic=True)
CASES['gru_2layers_dynamic'] = _case('gru', layers=2, dynamic=True)
CASES['lstm_lengths'] = _case('lstm', lengths=True)
CASES['gru_bidirect_lengths'] = _case('gru', direction='bidirect', lengths=True)
CASES['rnn_tanh_3layers_states'] = _case('rnn_tanh', layers=3, states=True)
