"""Extractors for ONNX's recurrent ops LSTM, GRU and RNN (opsets 7, 14, 22).

Each becomes an internal op (``ONNXLSTM``, ``ONNXGRU``, ``ONNXRNN``) with its attributes checked here;
``rnn_lowering.py`` makes it the opset5 LSTMSequence/GRUSequence/RNNSequence with the layout Transposes, the
gate reordering and the defaults of the optional inputs.
"""
from mo.front.extractor import FrontExtractorOp
from mo.front.onnx.extractors.utils import get_onnx_opset_version, onnx_attr
from mo.utils.error import Error

#: ONNX activation name -> the opset's name, for the activations OpenVINO's sequence ops run
ACTIVATIONS = {'Sigmoid': 'sigmoid', 'Tanh': 'tanh', 'Relu': 'relu'}
#: the other activations ONNX lists (they take alpha and/or beta): refused with a clear error
OTHER_ACTIVATIONS = ('Affine', 'LeakyRelu', 'ThresholdedRelu', 'ScaledTanh', 'HardSigmoid', 'Elu', 'Softsign',
                     'Softplus')
DEFAULT_ACTIVATIONS = {'LSTM': ['Sigmoid', 'Tanh', 'Tanh'], 'GRU': ['Sigmoid', 'Tanh'], 'RNN': ['Tanh']}
DIRECTIONS = ('forward', 'reverse', 'bidirectional')


def _decode(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def recurrent_attrs(node) -> dict:
    """The attributes ONNX's LSTM, GRU and RNN share, checked: direction, hidden_size, layout, clip and the
    activations as the opset names them (one list for both directions)."""
    name, op = node.soft_get('name', node.id), node.op
    direction = _decode(onnx_attr(node, 'direction', 's', b'forward'))
    if direction not in DIRECTIONS:
        raise Error('{} "{}": direction "{}" is not one of {}', op, name, direction, ', '.join(DIRECTIONS))
    directions = 2 if direction == 'bidirectional' else 1
    layout = onnx_attr(node, 'layout', 'i', 0) if get_onnx_opset_version(node) >= 14 else 0
    if layout not in (0, 1):
        raise Error('{} "{}": layout {} is not 0 or 1', op, name, layout)
    hidden = onnx_attr(node, 'hidden_size', 'i', None)
    if hidden is not None and hidden < 1:
        raise Error('{} "{}": hidden_size {} must be positive', op, name, hidden)
    clip = onnx_attr(node, 'clip', 'f', None)
    if clip is not None and clip <= 0:
        raise Error('{} "{}": clip {} must be positive', op, name, clip)

    defaults = DEFAULT_ACTIVATIONS[op]
    activations = [_decode(a) for a in onnx_attr(node, 'activations', 'strings', [])] or defaults * directions
    if len(activations) != len(defaults) * directions:
        raise Error('{} "{}": {} activations given, {} expected for direction {}', op, name, len(activations),
                    len(defaults) * directions, direction)
    for activation in activations:
        if activation in OTHER_ACTIVATIONS:
            raise Error('{} "{}": activation {} is not supported: OpenVINO\'s {}Sequence runs only {}', op, name,
                        activation, op, ', '.join(ACTIVATIONS))
        if activation not in ACTIVATIONS:
            raise Error('{} "{}": "{}" is not an activation ONNX defines', op, name, activation)
    if activations[:len(defaults)] != activations[len(defaults):] and directions == 2:
        raise Error('{} "{}": activations {} differ between the directions, which OpenVINO\'s {}Sequence cannot '
                    'take', op, name, activations, op)
    # Sigmoid, Tanh and Relu take no alpha or beta: activation_alpha/beta have nothing to scale
    return {'direction': direction, 'hidden_size': hidden, 'layout': int(layout), 'clip': float(clip or 0.0),
            'activations': [ACTIVATIONS[a] for a in activations[:len(defaults)]]}


class LSTMExtractor(FrontExtractorOp):
    """LSTM -> LSTMSequence (opset5), gates reordered from ONNX's i, o, f, c to f, i, c, o and the biases
    Wb + Rb summed; layout 0 is transposed to and from the opset's batch-first layout. Peepholes (a connected P)
    and input_forget are refused: LSTMSequence has neither."""
    op = 'LSTM'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'LSTMSequence (opset5)'

    @classmethod
    def extract(cls, node):
        name = node.soft_get('name', node.id)
        attrs = recurrent_attrs(node)
        if onnx_attr(node, 'input_forget', 'i', 0):
            raise Error('LSTM "{}": input_forget=1 (coupled input and forget gates) is not supported: OpenVINO\'s '
                        'LSTMSequence has no such mode', name)
        node.attrs().update(attrs)
        node['op'] = 'ONNXLSTM'
        return True


class GRUExtractor(FrontExtractorOp):
    """GRU -> GRUSequence (opset5) with linear_before_reset (its B then holds Wb_z + Rb_z, Wb_r + Rb_r, Wb_h,
    Rb_h); layout 0 is transposed to and from the opset's batch-first layout."""
    op = 'GRU'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'GRUSequence (opset5)'

    @classmethod
    def extract(cls, node):
        attrs = recurrent_attrs(node)
        attrs['linear_before_reset'] = bool(onnx_attr(node, 'linear_before_reset', 'i', 0))
        node.attrs().update(attrs)
        node['op'] = 'ONNXGRU'
        return True


class RNNExtractor(FrontExtractorOp):
    """RNN -> RNNSequence (opset5), biases Wb + Rb summed; layout 0 is transposed to and from the opset's
    batch-first layout."""
    op = 'RNN'
    framework = 'onnx'

    @classmethod
    def describe(cls, op):
        return 'RNNSequence (opset5)'

    @classmethod
    def extract(cls, node):
        node.attrs().update(recurrent_attrs(node))
        node['op'] = 'ONNXRNN'
        return True
