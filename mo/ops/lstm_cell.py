"""LSTMCell (opset4): one step of an LSTM, as the Model Optimizer's ``mo.ops.lstm_cell.LSTMCell``.

Inputs: X ``[batch, input_size]``, initial hidden state H and cell state C ``[batch, hidden_size]``,
W ``[4 * hidden_size, input_size]``, R ``[4 * hidden_size, hidden_size]``, B ``[4 * hidden_size]``
(gates in the order f, i, c, o). Outputs: the new H and C. Attributes: ``hidden_size``,
``activations`` (default sigmoid, tanh, tanh), ``activations_alpha``/``beta``, ``clip``.
"""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error


class LSTMCell(Op):
    op = 'LSTMCell'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'LSTMCell', 'op': 'LSTMCell', 'version': 'opset4', 'infer': LSTMCell.infer,
            'activations': None, 'activations_alpha': None, 'activations_beta': None, 'clip': None,
            'in_ports_count': 6, 'out_ports_count': 2,
        }, attrs)

    def backend_attrs(self):
        def csv(name):
            return lambda node: None if node.soft_get(name, None) is None else \
                ','.join(str(v) for v in np.ravel(node[name]))
        return ['hidden_size', ('activations', csv('activations')), ('activations_alpha', csv('activations_alpha')),
                ('activations_beta', csv('activations_beta')), 'clip']

    @staticmethod
    def infer(node):
        name = node.soft_get('name', node.id)
        x_shape = node.in_port(0).data.get_shape()
        h_shape = node.in_port(1).data.get_shape()
        if x_shape is None or h_shape is None:
            return
        if len(x_shape) != 2 or len(h_shape) != 2:
            raise Error('LSTMCell "{}": X and H must be 2-D, got {} and {}', name, x_shape.tolist(), h_shape.tolist())
        hidden = node.soft_get('hidden_size', None)
        if hidden is None:
            hidden = int(h_shape[1])
            node['hidden_size'] = hidden
        out = np.array([x_shape[0], hidden], dtype=np.int64)
        for port in (0, 1):
            if node.is_out_port_connected(port) or port in node.out_ports():
                node.out_port(port).data.set_shape(out)
