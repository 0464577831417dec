"""Extractor for Paddle's ``rnn`` op (``paddle.nn.LSTM``, ``GRU`` and ``SimpleRNN`` when every cell has both
biases): the internal op ``PaddleRNN`` that ``rnn_lowering.py`` makes a chain of opset5 sequence ops.

The op's contract, as Paddle's ``RNNBase`` builds it and its CPU kernel runs it:

* ``Input`` is time-major ``[time, batch, input]``; ``Out`` is ``[time, batch, directions * hidden]``, the
  forward direction's features first;
* ``PreState`` holds one tensor (``h``; LSTM: ``h`` and ``c``) of ``[layers * directions, batch, hidden]``, layer
  by layer and within a layer forward then backward; ``State`` the final ones, the same way;
* ``WeightList`` holds, for each cell (layer by layer, forward then backward), ``weight_ih [gates * hidden, in]``
  and ``weight_hh [gates * hidden, hidden]``; then, in the same cell order, ``bias_ih`` and ``bias_hh``;
* the gates: LSTM ``i, f, c, o``; GRU ``r, z, c`` with the reset gate applied after the hidden matmul and its
  bias (``c = tanh(x_c + r * (W_hc h + b_hc))``, ``h = z * h_prev + (1 - z) * c``); ``mode`` ``RNN_TANH`` or
  ``RNN_RELU`` a simple RNN;
* ``SequenceLength`` (int32 ``[batch]``, optional) stops each batch element early; ``dropout_prob`` acts only in
  training (``is_test``).
"""
from mo.front.extractor import FrontExtractorOp
from mo.utils.error import Error

#: Paddle's mode -> (the gates per cell, the activation of a simple RNN)
MODES = {'LSTM': (4, None), 'GRU': (3, None), 'RNN_TANH': (1, 'tanh'), 'RNN_RELU': (1, 'relu')}


class PaddleRNNExtractor(FrontExtractorOp):
    """rnn -> PaddleRNN (then LSTMSequence/GRUSequence/RNNSequence per layer)."""
    op = 'rnn'
    framework = 'paddle'

    @classmethod
    def describe(cls, op):
        return 'LSTMSequence/GRUSequence/RNNSequence (opset5)'

    @classmethod
    def extract(cls, node):
        attrs = node['pb'].attrs
        name = node.soft_get('name', node.id)
        mode = attrs.get('mode', 'LSTM')
        mode = mode.decode() if isinstance(mode, bytes) else str(mode)
        if mode not in MODES:
            raise Error('rnn "{}": mode "{}" is not one of {}', name, mode, ', '.join(MODES))
        layers, hidden = int(attrs.get('num_layers', 1)), int(attrs.get('hidden_size', 0))
        if layers < 1 or hidden < 1:
            raise Error('rnn "{}": num_layers {} and hidden_size {} must be positive', name, layers, hidden)
        node.attrs().update({'mode': mode, 'num_layers': layers, 'hidden_size': hidden,
                             'directions': 2 if attrs.get('is_bidirec', False) else 1,
                             'paddle_op': node['op']})
        node['op'] = 'PaddleRNN'
        return True
