"""Ops of whole-sequence recurrent nets: CTCGreedyDecoderSeqLen (opset6) and the opset5 LSTMSequence, GRUSequence
and RNNSequence. (TensorFlow's StepLoop, a Loop running one TF cell per time step, is ``mo.front.tf.step_loop``.)
"""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.ops.op import Op, keep_outputs
from mo.utils.error import Error

class CTCGreedyDecoderSeqLen(Op):
    """opset6 CTCGreedyDecoderSeqLen: data ``[N, T, C]``, sequence_length ``[N]``, blank_index (scalar, optional).

    Output 0 ``[N, T]``: each sequence's classes of maximum score, repeats merged (``merge_repeated``) and blanks
    dropped, padded with -1; output 1 ``[N]``: how many there are.
    """
    op = type = 'CTCGreedyDecoderSeqLen'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'CTCGreedyDecoderSeqLen', 'op': 'CTCGreedyDecoderSeqLen', 'version': 'opset6',
            'merge_repeated': True, 'classes_index_type': np.int32, 'sequence_length_type': np.int32,
            'infer': CTCGreedyDecoderSeqLen.infer, 'type_infer': CTCGreedyDecoderSeqLen.type_infer,
            'in_ports_count': 3, 'out_ports_count': 2,
        }, attrs)

    def backend_attrs(self):
        return [('merge_repeated', lambda n: str(bool(n.merge_repeated)).lower()),
                ('classes_index_type', lambda n: ir_element_type(n.classes_index_type)),
                ('sequence_length_type', lambda n: ir_element_type(n.sequence_length_type))]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        if len(shape) != 3:
            raise Error('CTCGreedyDecoderSeqLen "{}": the data must be [N, T, C], got {}',
                        node.soft_get('name', node.id), [int(d) for d in shape])
        for port, out in ((0, [int(shape[0]), int(shape[1])]), (1, [int(shape[0])])):
            node.out_port(port)._data_node(create=True)['keep_output_port'] = True
            node.out_port(port).data.set_shape(out)

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(np.dtype(node.classes_index_type))
        node.out_port(1).data.set_data_type(np.dtype(node.sequence_length_type))


def _csv(name):
    """The IR form of a list attribute: comma-separated, or left out when the node has none."""
    return lambda node: None if not node.soft_get(name, None) else ','.join(str(v) for v in node[name])


class _Sequence(Op):
    """An opset5 recurrent sequence op: X ``[batch, time, input]``, the initial states ``[batch, directions,
    hidden]``, sequence_lengths ``[batch]``, W ``[directions, gates * hidden, input]``, R ``[directions,
    gates * hidden, hidden]``, B ``[directions, gates * hidden]``. Output 0 is Y ``[batch, directions, time,
    hidden]``, the others the last states ``[batch, directions, hidden]``. ``hidden_size`` is taken from R when
    the node has none."""
    states = 1  # how many states (H, and C for an LSTM) the op carries

    def __init__(self, graph, defaults: dict, attrs: dict):
        base = {'op': self.op, 'type': self.op, 'version': 'opset5', 'infer': type(self).infer,
                'hidden_size': None, 'direction': 'forward', 'activations': None, 'activations_alpha': None,
                'activations_beta': None, 'clip': 0.0,
                'in_ports_count': 5 + self.states, 'out_ports_count': 1 + self.states}
        base.update(defaults)
        super().__init__(graph, base, attrs)

    def backend_attrs(self):
        return ['direction', 'hidden_size', ('activations', _csv('activations')),
                ('activations_alpha', _csv('activations_alpha')), ('activations_beta', _csv('activations_beta')),
                ('clip', lambda node: str(float(node.clip)))]

    @classmethod
    def infer(cls, node):
        name = node.soft_get('name', node.id)
        x_shape = node.in_port(0).data.get_shape()
        r_shape = node.in_port(cls.states + 3).data.get_shape()  # after X, the states, lengths, W
        if x_shape is None or r_shape is None:
            return
        if len(x_shape) != 3 or len(r_shape) != 3:
            raise Error('{} "{}": X and R must be 3-D, got {} and {}', node.op, name, x_shape.tolist(),
                        r_shape.tolist())
        if node.soft_get('hidden_size', None) is None:
            if r_shape[2] < 0:
                raise Error('{} "{}": the hidden size is neither an attribute nor known from R', node.op, name)
            node['hidden_size'] = int(r_shape[2])
        hidden = int(node.hidden_size)
        directions = 2 if node.direction == 'bidirectional' else 1
        batch, time = int(x_shape[0]), int(x_shape[1])
        keep_outputs(node, range(1 + cls.states))
        node.out_port(0).data.set_shape(np.array([batch, directions, time, hidden], dtype=np.int64))
        for port in range(1, 1 + cls.states):
            node.out_port(port).data.set_shape(np.array([batch, directions, hidden], dtype=np.int64))


class LSTMSequence(_Sequence):
    """opset5 LSTMSequence: inputs X, H, C, sequence_lengths, W, R, B (gates f, i, c, o); outputs Y, H, C.
    Default activations sigmoid, tanh, tanh."""
    op = 'LSTMSequence'
    states = 2

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {}, attrs)


class GRUSequence(_Sequence):
    """opset5 GRUSequence: inputs X, H, sequence_lengths, W, R, B (gates z, r, h; B holds 4 * hidden values
    per direction with ``linear_before_reset``); outputs Y, H. Default activations sigmoid, tanh."""
    op = 'GRUSequence'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'linear_before_reset': False}, attrs)

    def backend_attrs(self):
        return super().backend_attrs() + [
            ('linear_before_reset', lambda node: str(bool(node.linear_before_reset)).lower())]


class RNNSequence(_Sequence):
    """opset5 RNNSequence: inputs X, H, sequence_lengths, W, R, B; outputs Y, H. Default activation tanh."""
    op = 'RNNSequence'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {}, attrs)
