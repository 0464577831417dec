"""ONNX's LSTM, GRU and RNN over the grids the backend suite leaves out: direction x layout x the optional inputs
x which outputs are used, activations, clip, GRU's linear_before_reset, weights that are graph inputs (reordered at
run time), and dynamic batch and time (one IR run at two sizes). onnxruntime runs each model, OpenVINO the IR mo
wrote; onnxruntime refuses layout 1 ("batchwise recurrent operations are not supported"), so it runs those models'
time-major twins (the node at layout 0 between Transposes).
"""
import itertools

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto as T, helper  # noqa: E402

import mo  # noqa: E402
from tests.onnx.onnx_oracle import assert_close, make_model, run_ir, run_onnxruntime  # noqa: E402

RNG = np.random.default_rng(11)
GATES = {'LSTM': 4, 'GRU': 3, 'RNN': 1}
OUTPUTS = {'LSTM': ['y', 'y_h', 'y_c'], 'GRU': ['y', 'y_h'], 'RNN': ['y', 'y_h']}


def _rand(*shape):
    return (RNG.standard_normal(shape) * 0.5).astype(np.float32)


def _model(op, direction='forward', layout=0, time=5, batch=3, input_size=4, hidden=6, optional=(),
           used=None, attrs=None, opset=14, weights_as_inputs=False, dynamic=False):
    """A model of one recurrent node; ``optional`` names the optional inputs given (B, sequence_lens, initial_h,
    initial_c), ``used`` the outputs the graph reads (default: all). Returns the model and its feeds."""
    dirs = 2 if direction == 'bidirectional' else 1
    gates = GATES[op]
    x_shape = [time, batch, input_size] if layout == 0 else [batch, time, input_size]
    state_shape = [dirs, batch, hidden] if layout == 0 else [batch, dirs, hidden]
    values = {'w': _rand(dirs, gates * hidden, input_size), 'r': _rand(dirs, gates * hidden, hidden)}
    if 'B' in optional:
        values['b'] = _rand(dirs, 2 * gates * hidden)
    if 'sequence_lens' in optional:
        values['sequence_lens'] = RNG.integers(1, time + 1, batch).astype(np.int32)
    for state in ('initial_h', 'initial_c'):
        if state in optional and (state == 'initial_h' or op == 'LSTM'):
            values[state] = _rand(*state_shape)
    names = ['x', 'w', 'r', 'b', 'sequence_lens', 'initial_h', 'initial_c'][:7 if op == 'LSTM' else 6]
    node_inputs = [n if n in values or n == 'x' else '' for n in names]
    while node_inputs[-1] == '':
        node_inputs.pop()
    used = used or OUTPUTS[op]
    node = helper.make_node(op, node_inputs, [o if o in used else '' for o in OUTPUTS[op]], hidden_size=hidden,
                            direction=direction, **(attrs or {}))
    if opset >= 14:
        node.attribute.append(helper.make_attribute('layout', layout))
    feeds = {'x': _rand(*x_shape)}
    graph_inputs = [('x', T.FLOAT, ['d0', 'd1', input_size] if dynamic else x_shape)]
    initializers = {}
    for name, value in values.items():
        if weights_as_inputs or name in ('sequence_lens', 'initial_h', 'initial_c'):
            elem = T.INT32 if value.dtype == np.int32 else T.FLOAT
            shape = list(value.shape)
            if dynamic and name != 'w' and name != 'r' and name != 'b':
                shape = ['d1' if layout == 0 else 'd0'] if name == 'sequence_lens' else \
                    ([dirs, 'd1', hidden] if layout == 0 else ['d0', dirs, hidden])
            graph_inputs.append((name, elem, shape))
            feeds[name] = value
        else:
            initializers[name] = value
    outputs = [(o, T.FLOAT, None) for o in used]
    return make_model([node], graph_inputs, outputs, initializers, opset=opset), feeds


def _time_major_twin(model):
    """The same model with a layout-0 node between Transposes: onnxruntime runs it where it refuses layout 1."""
    node = model.graph.node[0]
    inputs, outputs, before, after = list(node.input), list(node.output), [], []
    for k in (0, 5, 6):  # X and the initial states: batch-major -> time-major
        if k < len(inputs) and inputs[k]:
            before.append(helper.make_node('Transpose', [inputs[k]], [inputs[k] + '_t'], perm=[1, 0, 2]))
            inputs[k] += '_t'
    for k, name in enumerate(outputs):  # Y [T, D, B, H] -> [B, T, D, H]; the states [D, B, H] -> [B, D, H]
        if name:
            perm = [2, 0, 1, 3] if k == 0 else [1, 0, 2]
            after.append(helper.make_node('Transpose', [name + '_t'], [name], perm=perm))
            outputs[k] += '_t'
    twin = helper.make_node(node.op_type, inputs, outputs)
    twin.attribute.extend([a for a in node.attribute if a.name != 'layout'])
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    del copy.graph.node[:]
    copy.graph.node.extend(before + [twin] + after)
    return copy


def _reference(model, feeds):
    """The model's outputs by onnxruntime (through its time-major twin for layout 1, which onnxruntime
    refuses)."""
    if any(a.name == 'layout' and a.i == 1 for a in model.graph.node[0].attribute):
        model = _time_major_twin(model)
    return run_onnxruntime(model, feeds)


def check_model(model, feeds, tmp_path):
    """Convert ``model``, run the IR on ``feeds`` and compare each graph output with the reference."""
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    for name, a, e in zip(names, run_ir(result.xml_path, feeds, names), _reference(model, feeds)):
        assert_close(a, e, what=name)


_OPTIONAL = [(), ('B',), ('B', 'sequence_lens', 'initial_h', 'initial_c'), ('initial_h', 'initial_c')]
_GRID = list(itertools.product(['LSTM', 'GRU', 'RNN'], ['forward', 'reverse', 'bidirectional'], [0, 1],
                               range(len(_OPTIONAL))))


@pytest.mark.parametrize('op,direction,layout,optional', _GRID)
def test_direction_layout_optional_inputs(op, direction, layout, optional, tmp_path):
    model, feeds = _model(op, direction, layout, optional=_OPTIONAL[optional])
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op,used', [(op, used) for op in GATES for used in
                                     itertools.chain.from_iterable(itertools.combinations(OUTPUTS[op], k)
                                                                   for k in (1, 2))])
def test_unused_outputs_left_out(op, used, tmp_path):
    model, feeds = _model(op, 'bidirectional', 0, optional=('B',), used=list(used))
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op,activations', [
    ('LSTM', ['Relu', 'Tanh', 'Sigmoid']), ('LSTM', ['Sigmoid', 'Relu', 'Relu']),
    ('GRU', ['Relu', 'Sigmoid']), ('GRU', ['Sigmoid', 'Relu']),
    ('RNN', ['Relu']), ('RNN', ['Sigmoid']),
])
@pytest.mark.parametrize('direction', ['forward', 'bidirectional'])
def test_activations(op, activations, direction, tmp_path):
    activations = activations * (2 if direction == 'bidirectional' else 1)
    model, feeds = _model(op, direction, 0, optional=('B',), attrs={'activations': activations})
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op', list(GATES))
def test_clip(op, tmp_path):
    model, feeds = _model(op, 'bidirectional', 1, optional=('B', 'initial_h'), attrs={'clip': 0.4})
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('optional', [(), ('B',), ('B', 'sequence_lens', 'initial_h')])
@pytest.mark.parametrize('direction', ['forward', 'reverse', 'bidirectional'])
def test_gru_linear_before_reset(optional, direction, tmp_path):
    model, feeds = _model('GRU', direction, 0, optional=optional, attrs={'linear_before_reset': 1})
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op', list(GATES))
@pytest.mark.parametrize('layout', [0, 1])
def test_weights_as_inputs(op, layout, tmp_path):
    """W, R and B read at run time: the gates are reordered in the IR, not at conversion."""
    model, feeds = _model(op, 'bidirectional', layout, optional=('B', 'initial_h'), weights_as_inputs=True)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op,sizes', [(op, s) for op in GATES for s in [(1, 7), (4, 10)]])
def test_hidden_and_input_sizes(op, sizes, tmp_path):
    hidden, input_size = sizes
    model, feeds = _model(op, 'bidirectional', 0, hidden=hidden, input_size=input_size, optional=('B',))
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('op', list(GATES))
@pytest.mark.parametrize('opset', [7, 22])
def test_opsets(op, opset, tmp_path):
    model, feeds = _model(op, 'reverse', 0, optional=('B', 'sequence_lens', 'initial_h'), opset=opset)
    check_model(model, feeds, tmp_path)


def _run_at_two_sizes(op, layout, full_lengths, tmp_path):
    """One IR with symbolic batch and time, run at two sizes against the reference."""
    model, _ = _model(op, 'bidirectional', layout, optional=('B', 'sequence_lens', 'initial_h'), dynamic=True)
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    for time, batch in ((5, 3), (8, 2)):
        x = _rand(time, batch, 4) if layout == 0 else _rand(batch, time, 4)
        h = _rand(2, batch, 6) if layout == 0 else _rand(batch, 2, 6)
        lengths = np.full(batch, time, np.int32) if full_lengths else np.arange(batch, dtype=np.int32) % time + 1
        feeds = {'x': x, 'initial_h': h, 'sequence_lens': lengths}
        for name, a, e in zip(names, run_ir(result.xml_path, feeds, names), _reference(model, feeds)):
            assert_close(a, e, what='{} at time {}, batch {}'.format(name, time, batch))


@pytest.mark.parametrize('op', list(GATES))
@pytest.mark.parametrize('layout', [0, 1])
def test_dynamic_batch_and_time(op, layout, tmp_path):
    _run_at_two_sizes(op, layout, True, tmp_path)


@pytest.mark.xfail(strict=True, reason='OpenVINO\'s CPU plugin ignores the sequence_lengths of a sequence op whose '
                                       'input has a dynamic dimension (it runs every sequence to the end)')
@pytest.mark.parametrize('op', list(GATES))
def test_dynamic_shapes_with_short_sequences(op, tmp_path):
    _run_at_two_sizes(op, 0, False, tmp_path)


def test_peepholes_are_refused(tmp_path):
    model, _ = _model('LSTM', optional=('B',))
    model.graph.node[0].input.extend(['', '', '', 'p'])
    model.graph.initializer.append(onnx.numpy_helper.from_array(_rand(1, 18), 'p'))
    with pytest.raises(mo.Error, match='LSTM ".*": peepholes'):
        mo.convert_model(model, output_dir=str(tmp_path))


@pytest.mark.parametrize('attrs,message', [
    ({'activations': ['HardSigmoid', 'Tanh', 'Tanh']}, 'activation HardSigmoid is not supported'),
    ({'activations': ['Sigmoid', 'Tanh']}, '2 activations given, 3 expected'),
    ({'input_forget': 1}, 'input_forget'),
    ({'direction': 'sideways'}, 'direction "sideways"'),
])
def test_bad_attributes(attrs, message, tmp_path):
    model, _ = _model('LSTM')
    node = model.graph.node[0]
    kept = [a for a in node.attribute if a.name not in attrs]
    del node.attribute[:]
    node.attribute.extend(kept + [helper.make_attribute(k, v) for k, v in attrs.items()])
    with pytest.raises(mo.Error, match=message):
        mo.convert_model(model, output_dir=str(tmp_path))
