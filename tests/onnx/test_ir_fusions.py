"""The back-phase fusions (extensions/back/activation_fusions.py, extensions/back/matmul_weights_layout.py): each
pattern, written the ways exporters write it, converts to an IR with the fused op (or the transposed weights) and
the same outputs as onnxruntime; near misses stay as they are and still match."""
import collections
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto as T, helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402

RNG = np.random.default_rng(44)


def ir_layers(result):
    """(type, data attributes) of every layer of the IR ``result`` wrote."""
    root = ET.parse(str(result.xml_path)).getroot()
    return [(layer.get('type'), dict(layer.find('data').attrib) if layer.find('data') is not None else {})
            for layer in root.iter('layer')]


def ir_types(result) -> collections.Counter:
    return collections.Counter(kind for kind, _ in ir_layers(result))


def _f(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ----- MatMul by constant weights ----------------------------------------------------------------------------------

def test_matmul_weights_stored_transposed(tmp_path):
    w = _f(16, 8)
    model = make_model([helper.make_node('MatMul', ['x', 'w'], ['y'])], [('x', T.FLOAT, [2, 3, 16])],
                       [('y', T.FLOAT, None)], {'w': w})
    result = check_model(model, {'x': _f(2, 3, 16)}, tmp_path)
    matmuls = [attrs for kind, attrs in ir_layers(result) if kind == 'MatMul']
    assert matmuls == [{'transpose_a': 'false', 'transpose_b': 'true'}]
    assert 'Transpose' not in ir_types(result)


def test_matmul_shared_weights_stored_once(tmp_path):
    # the same initializer read by two MatMuls: transposing it for one would store it twice
    w = _f(8, 8)
    nodes = [helper.make_node('MatMul', ['x', 'w'], ['h']), helper.make_node('MatMul', ['h', 'w'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, [3, 8])], [('y', T.FLOAT, None)], {'w': w})
    result = check_model(model, {'x': _f(3, 8)}, tmp_path)
    assert [a['transpose_b'] for k, a in ir_layers(result) if k == 'MatMul'] == ['false', 'false']


def test_matmul_batched_constant_weights(tmp_path):
    w = _f(2, 5, 4)
    model = make_model([helper.make_node('MatMul', ['x', 'w'], ['y'])], [('x', T.FLOAT, [2, 3, 5])],
                       [('y', T.FLOAT, None)], {'w': w})
    result = check_model(model, {'x': _f(2, 3, 5)}, tmp_path)
    assert [a['transpose_b'] for k, a in ir_layers(result) if k == 'MatMul'] == ['true']


# ----- Swish -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('form', ['mul_sigmoid', 'sigmoid_mul', 'beta_one'])
def test_swish_fused(tmp_path, form):
    if form == 'beta_one':  # Keras: x * sigmoid(x * 1.0)
        nodes = [helper.make_node('Mul', ['x', 'one'], ['scaled']), helper.make_node('Sigmoid', ['scaled'], ['s']),
                 helper.make_node('Mul', ['x', 's'], ['y'])]
    else:
        nodes = [helper.make_node('Sigmoid', ['x'], ['s']),
                 helper.make_node('Mul', ['x', 's'] if form == 'mul_sigmoid' else ['s', 'x'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, [2, 8, 5])], [('y', T.FLOAT, None)], {'one': np.float32(1.0)})
    result = check_model(model, {'x': _f(2, 8, 5) * 4}, tmp_path)
    types = ir_types(result)
    assert types['Swish'] == 1 and types['Sigmoid'] == 0 and types['Multiply'] == 0


@pytest.mark.parametrize('form', ['other_operand', 'beta_two', 'sigmoid_also_output'])
def test_swish_near_misses_left_alone(tmp_path, form):
    inputs = [('x', T.FLOAT, [4, 6]), ('z', T.FLOAT, [4, 6])]
    outputs = [('y', T.FLOAT, None)]
    if form == 'other_operand':  # z * sigmoid(x): a gate, not a swish
        nodes = [helper.make_node('Sigmoid', ['x'], ['s']), helper.make_node('Mul', ['z', 's'], ['y'])]
    elif form == 'beta_two':
        nodes = [helper.make_node('Mul', ['x', 'two'], ['scaled']), helper.make_node('Sigmoid', ['scaled'], ['s']),
                 helper.make_node('Mul', ['x', 's'], ['y'])]
    else:  # the sigmoid is needed on its own
        nodes = [helper.make_node('Sigmoid', ['x'], ['s']), helper.make_node('Mul', ['x', 's'], ['y'])]
        outputs.append(('s', T.FLOAT, None))
    feeds = {'x': _f(4, 6), 'z': _f(4, 6)}
    if form != 'other_operand':
        inputs, feeds = inputs[:1], {'x': feeds['x']}
    model = make_model(nodes, inputs, outputs, {'two': np.float32(2.0)})
    result = check_model(model, feeds, tmp_path)
    assert ir_types(result)['Swish'] == 0


# ----- Gelu --------------------------------------------------------------------------------------------------------

def _erf_gelu(form):
    """torch's exports: 'torch' (x * (1 + erf(x / sqrt2))) * 0.5; 'half_first' (x * 0.5) * (1 + erf(x * 1/sqrt2));
    'half_last' x * ((1 + erf(x / sqrt2)) * 0.5)."""
    arg = helper.make_node('Div', ['x', 'sqrt2'], ['a']) if form != 'half_first' else \
        helper.make_node('Mul', ['x', 'inv_sqrt2'], ['a'])
    nodes = [arg, helper.make_node('Erf', ['a'], ['e']), helper.make_node('Add', ['e', 'one'], ['p'])]
    if form == 'torch':
        nodes += [helper.make_node('Mul', ['x', 'p'], ['xp']), helper.make_node('Mul', ['xp', 'half'], ['y'])]
    elif form == 'half_first':
        nodes += [helper.make_node('Mul', ['half', 'x'], ['hx']), helper.make_node('Mul', ['hx', 'p'], ['y'])]
    else:
        nodes += [helper.make_node('Mul', ['p', 'half'], ['ph']), helper.make_node('Mul', ['x', 'ph'], ['y'])]
    return nodes


def _tanh_gelu(cube):
    """GPT-2's gelu_new: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), the cube a Pow or two Muls."""
    if cube == 'pow':
        nodes = [helper.make_node('Pow', ['x', 'three'], ['c'])]
    else:
        nodes = [helper.make_node('Mul', ['x', 'x'], ['sq']), helper.make_node('Mul', ['x', 'sq'], ['c'])]
    return nodes + [helper.make_node('Mul', ['k', 'c'], ['kc']), helper.make_node('Add', ['x', 'kc'], ['i']),
                    helper.make_node('Mul', ['i', 'scale'], ['si']), helper.make_node('Tanh', ['si'], ['t']),
                    helper.make_node('Add', ['one', 't'], ['p']), helper.make_node('Mul', ['half', 'x'], ['hx']),
                    helper.make_node('Mul', ['hx', 'p'], ['y'])]


GELU_CONSTANTS = {'sqrt2': np.float32(math.sqrt(2)), 'inv_sqrt2': np.float32(1 / math.sqrt(2)),
                  'one': np.float32(1), 'half': np.float32(0.5), 'three': np.float32(3),
                  'k': np.float32(0.044715), 'scale': np.float32(math.sqrt(2 / math.pi))}


@pytest.mark.parametrize('form', ['torch', 'half_first', 'half_last', 'tanh_pow', 'tanh_mul'])
def test_gelu_fused(tmp_path, form):
    nodes = _tanh_gelu(form[5:]) if form.startswith('tanh') else _erf_gelu(form)
    model = make_model(nodes, [('x', T.FLOAT, [2, 16, 8])], [('y', T.FLOAT, None)], GELU_CONSTANTS)
    result = check_model(model, {'x': _f(2, 16, 8) * 3}, tmp_path)
    gelus = [a for k, a in ir_layers(result) if k == 'Gelu']
    assert gelus == [{'approximation_mode': 'tanh' if form.startswith('tanh') else 'erf'}]
    assert sum(ir_types(result).values()) == 3  # Parameter, Gelu, Result


@pytest.mark.parametrize('approximate', ['none', 'tanh'])
def test_onnx_gelu_op_stays_one_op(tmp_path, approximate):
    # opset 20's Gelu is lowered at the front and comes back whole
    model = make_model([helper.make_node('Gelu', ['x'], ['y'], approximate=approximate)],
                       [('x', T.FLOAT, [3, 10])], [('y', T.FLOAT, None)], opset=20)
    result = check_model(model, {'x': _f(3, 10) * 3}, tmp_path)
    assert ir_types(result)['Gelu'] == 1


def test_gelu_with_other_constants_left_alone(tmp_path):
    constants = dict(GELU_CONSTANTS, half=np.float32(0.4))  # not a Gelu: 0.4 * x * (1 + erf(x / sqrt2))
    model = make_model(_erf_gelu('torch'), [('x', T.FLOAT, [2, 8])], [('y', T.FLOAT, None)], constants)
    result = check_model(model, {'x': _f(2, 8)}, tmp_path)
    assert ir_types(result)['Gelu'] == 0 and ir_types(result)['Erf'] == 1


def test_gelus_sharing_their_constants_all_fused(tmp_path):
    # two Gelus reading the same 0.5, 1 and sqrt 2 initializers (as deduplicated exports do)
    nodes = _erf_gelu('torch')
    renamed = [helper.make_node(n.op_type, [{'x': 'y'}.get(i, i + '2' if i in ('a', 'e', 'p', 'xp') else i)
                                            for i in n.input],
                                [o + '2' if o != 'y' else 'y2' for o in n.output]) for n in nodes]
    model = make_model(nodes + renamed, [('x', T.FLOAT, [2, 8])], [('y2', T.FLOAT, None)], GELU_CONSTANTS)
    result = check_model(model, {'x': _f(2, 8) * 2}, tmp_path)
    assert ir_types(result)['Gelu'] == 2 and ir_types(result)['Erf'] == 0


# ----- Converts to the type the input has --------------------------------------------------------------------------

def test_casts_to_the_same_type_removed(tmp_path):
    # RMSNorm's hidden.to(float32) of a float32 tensor and .long() of an int64 quotient: no Convert remains
    nodes = [helper.make_node('Cast', ['x'], ['xf'], to=T.FLOAT), helper.make_node('Mul', ['xf', 'xf'], ['sq']),
             helper.make_node('Div', ['n', 'two'], ['q']), helper.make_node('Cast', ['q'], ['ql'], to=T.INT64),
             helper.make_node('Cast', ['ql'], ['qf'], to=T.FLOAT), helper.make_node('Add', ['sq', 'qf'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, [2, 3]), ('n', T.INT64, [2, 3])], [('y', T.FLOAT, None)],
                       {'two': np.array(2, np.int64)})
    result = check_model(model, {'x': _f(2, 3), 'n': RNG.integers(-9, 9, (2, 3))}, tmp_path)
    assert ir_types(result)['Convert'] == 1  # int64 -> float32 only


def test_cast_that_is_a_graph_output_kept(tmp_path):
    model = make_model([helper.make_node('Cast', ['x'], ['y'], to=T.FLOAT)], [('x', T.FLOAT, [4])],
                       [('y', T.FLOAT, None)])
    check_model(model, {'x': _f(4)}, tmp_path)


# ----- zero Pad into the convolution -------------------------------------------------------------------------------

@pytest.mark.parametrize('mode,value,fused', [('constant', 0.0, True), ('constant', 1.5, False),
                                              ('reflect', None, False)])
@pytest.mark.parametrize('group', [1, 4])
def test_pad_before_convolution(tmp_path, mode, value, fused, group):
    pads = np.array([0, 0, 1, 2, 0, 0, 3, 1], np.int64)
    inputs = ['x', 'pads'] + (['value'] if value is not None else [])
    nodes = [helper.make_node('Pad', inputs, ['p'], mode=mode),
             helper.make_node('Conv', ['p', 'w'], ['y'], group=group, pads=[1, 0, 0, 1], strides=[2, 1])]
    model = make_model(nodes, [('x', T.FLOAT, [1, 8, 9, 10])], [('y', T.FLOAT, None)],
                       {'pads': pads, 'value': np.float32(value or 0), 'w': _f(8, 8 // group, 3, 3)})
    result = check_model(model, {'x': _f(1, 8, 9, 10)}, tmp_path)
    assert (ir_types(result)['Pad'] == 0) == fused


# ----- Reshape targets computed at run time --------------------------------------------------------------------------

def _flatten_model(shape, axis):
    return make_model([helper.make_node('Flatten', ['x'], ['y'], axis=axis)], [('x', T.FLOAT, shape)],
                      [('y', T.FLOAT, None)])


def _reshape_targets(result):
    """The target shape Const of every Reshape in the IR (None for a target computed at run time)."""
    root = ET.parse(str(result.xml_path)).getroot()
    layers = {layer.get('id'): layer for layer in root.iter('layer')}
    sources = {(e.get('to-layer'), e.get('to-port')): e.get('from-layer') for e in root.iter('edge')}
    targets = []
    for layer in layers.values():
        if layer.get('type') == 'Reshape':
            port = [p.get('id') for p in layer.find('input').iter('port')][1]
            source = layers[sources[(layer.get('id'), port)]]
            targets.append(source.find('data').get('shape') if source.get('type') == 'Const' else None)
    return targets


@pytest.mark.parametrize('shape, axis, feed', [
    (['batch', 8, 2, 3], 1, (5, 8, 2, 3)),   # [batch, 48]
    (['batch', 8, 2, 3], 2, (5, 8, 2, 3)),   # [batch * 8, 6]
    (['batch', 8, 2, 3], -1, (5, 8, 2, 3)),  # [batch * 16, 3]
    (['batch', 8, 2, 3], 1, (0, 8, 2, 3)),   # no rows: [0, 48]
    ([4, 'n', 3], 1, (4, 7, 3)),             # [4, n * 3]
    ([4, 'n', 3], 2, (4, 0, 3)),             # [4n, 3] of nothing
    ([4, 8, 2], 0, (4, 8, 2)),
    ([4, 8, 2], 2, (4, 8, 2)),
])
def test_flatten_with_one_dynamic_output_dimension_has_a_constant_target(tmp_path, shape, axis, feed):
    result = check_model(_flatten_model(shape, axis), {'x': _f(*feed)}, tmp_path)
    types = ir_types(result)
    assert types['ShapeOf'] == 0 and types['Reshape'] == 1
    assert None not in _reshape_targets(result)


@pytest.mark.parametrize('shape, axis, feed', [
    (['batch', 'c', 2], 1, (3, 4, 2)),   # [batch, c * 2]: two dimensions only the run time knows
    (['batch', 0, 2], 1, (3, 0, 2)),     # [batch, 0]: -1 beside a 0 would be ambiguous
])
def test_flatten_with_two_unknowns_keeps_its_computed_target(tmp_path, shape, axis, feed):
    result = check_model(_flatten_model(shape, axis), {'x': _f(*feed)}, tmp_path)
    assert ir_types(result)['ShapeOf'] == 1 and _reshape_targets(result) == [None]


def _view_model(keep, rest, shape):
    """x.view(x.size(keep[0]), ..., *rest) as TorchScript exports it: Shape, Gather, Unsqueeze, Concat, Reshape."""
    nodes, parts, consts = [helper.make_node('Shape', ['x'], ['shape'])], [], {'axes0': np.array([0], np.int64)}
    for i in keep:
        consts['i%d' % i] = np.array(i, np.int64)
        nodes += [helper.make_node('Gather', ['shape', 'i%d' % i], ['d%d' % i], axis=0),
                  helper.make_node('Unsqueeze', ['d%d' % i, 'axes0'], ['u%d' % i])]
        parts.append('u%d' % i)
    consts['rest'] = np.array(rest, np.int64)
    nodes += [helper.make_node('Concat', parts + ['rest'], ['target'], axis=0),
              helper.make_node('Reshape', ['x', 'target'], ['y'])]
    return make_model(nodes, [('x', T.FLOAT, shape)], [('y', T.FLOAT, None)], consts)


@pytest.mark.parametrize('keep, rest, shape, feed, constant', [
    ([0], [-1], ['batch', 6, 4], (3, 6, 4), True),        # [0, -1]: the batch copied, the -1 as exported
    ([1], [-1], ['batch', 6, 4], (3, 6, 4), True),        # [6, -1]
    ([1, 2], [2, 2], ['batch', 6, 4], (4, 6, 4), True),   # [6, 4, 2, 2]: the batch must be 4
    ([0, 1], [2, 2], ['batch', 6, 4], (3, 6, 4), True),   # [batch, 6, 2, 2]
    ([0, 1], [2, 2], ['batch', 'seq', 4], (3, 5, 4), True),   # [0, 0, 2, 2] (special_zero): x's own dims copied
    ([0, 1], [2, 2], ['batch', 'seq', 4], (0, 5, 4), True),   # copying an empty batch
    ([0, -2], [2, 2], ['batch', 'seq', 4], (3, 5, 4), True),  # the seq read by a negative index
    ([1, 0], [2, 2], ['batch', 'seq', 4], (3, 5, 4), False),  # [seq, batch, ...]: not at their own index
    ([0, 1], [-1, 2], ['batch', 'seq', 4], (3, 5, 4), True),  # [0, 0, -1, 2]: the exporter's -1 beside copies
    ([0], [-1, 2], ['batch', 'seq', 4], (3, 5, 4), True),     # [0, -1, 2]
])
def test_view_from_the_inputs_own_shape(tmp_path, keep, rest, shape, feed, constant):
    result = check_model(_view_model(keep, rest, shape), {'x': _f(*feed)}, tmp_path)
    assert _reshape_targets(result) != [None] if constant else _reshape_targets(result) == [None]
    assert (ir_types(result)['ShapeOf'] == 0) == constant


def _split_view_model(axis):
    """q, k = Split(x, axis); k.view(q.size(0), q.size(1), 2, -1) (axis 2) or k.view(q.size(0), q.size(1), -1), as
    exports of attention write it."""
    # on axis 1 in two equal halves of a dimension only the run time knows
    nodes = [helper.make_node('Split', ['x', 'halves'] if axis == 2 else ['x'], ['q', 'k'], axis=axis),
             helper.make_node('Shape', ['q'], ['shape']),
             helper.make_node('Gather', ['shape', 'i0'], ['d0'], axis=0),
             helper.make_node('Gather', ['shape', 'i1'], ['d1'], axis=0),
             helper.make_node('Unsqueeze', ['d0', 'axes0'], ['u0']),
             helper.make_node('Unsqueeze', ['d1', 'axes0'], ['u1']),
             helper.make_node('Concat', ['u0', 'u1', 'rest'], ['target'], axis=0),
             helper.make_node('Reshape', ['k', 'target'], ['y'])]
    consts = {'halves': np.array([4, 4], np.int64), 'i0': np.array(0, np.int64), 'i1': np.array(1, np.int64),
              'axes0': np.array([0], np.int64), 'rest': np.array([2, -1] if axis == 2 else [-1], np.int64)}
    shape = ['batch', 'seq', 8] if axis == 2 else ['batch', 'm', 5]
    return make_model(nodes, [('x', T.FLOAT, shape)], [('y', T.FLOAT, None)], consts)


def test_view_by_the_shape_of_a_sibling_split_output(tmp_path):
    # q and k split on the last axis: k's batch and seq are q's, so [0, 0, 2, -1] copies them
    result = check_model(_split_view_model(2), {'x': _f(3, 5, 8)}, tmp_path)
    assert _reshape_targets(result) != [None] and ir_types(result)['ShapeOf'] == 0


def test_view_by_a_sibling_split_outputs_split_axis_keeps_its_computed_target(tmp_path):
    # split on axis 1: that dimension of q says nothing of k's in the graph (equal here only by the halves' sizes)
    result = check_model(_split_view_model(1), {'x': _f(3, 8, 5)}, tmp_path)
    assert _reshape_targets(result) == [None]


def _projection_view_model(project):
    """``project``(h).view(h.size(0), h.size(1), 2, 4) for h [batch, seq, 8], as BERT exports split query heads."""
    nodes = project + [helper.make_node('Shape', ['h'], ['shape']),
                       helper.make_node('Gather', ['shape', 'i0'], ['d0'], axis=0),
                       helper.make_node('Gather', ['shape', 'i1'], ['d1'], axis=0),
                       helper.make_node('Unsqueeze', ['d0', 'axes0'], ['u0']),
                       helper.make_node('Unsqueeze', ['d1', 'axes0'], ['u1']),
                       helper.make_node('Concat', ['u0', 'u1', 'rest'], ['target'], axis=0),
                       helper.make_node('Reshape', ['q', 'target'], ['y'])]
    consts = {'w': _f(8, 8), 'bias': _f(8), 'i0': np.array(0, np.int64), 'i1': np.array(1, np.int64),
              'axes0': np.array([0], np.int64), 'rest': np.array([2, 4], np.int64)}
    return make_model(nodes, [('h', T.FLOAT, ['batch', 'seq', 8]), ('z', T.FLOAT, ['b', 's', 8])],
                      [('y', T.FLOAT, None)], consts)


def test_view_of_a_projection_by_its_inputs_shape(tmp_path):
    # q = gelu(bias + h @ w): q's batch and seq are h's, so [0, 0, 2, 4] copies them
    project = [helper.make_node('MatMul', ['h', 'w'], ['hw']), helper.make_node('Add', ['bias', 'hw'], ['hb']),
               helper.make_node('Gelu', ['hb'], ['q'], domain='com.microsoft'),
               helper.make_node('Add', ['q', 'z'], ['unused'])]
    model = _projection_view_model(project)
    model.graph.output.append(helper.make_tensor_value_info('unused', T.FLOAT, None))
    model.opset_import.append(helper.make_opsetid('com.microsoft', 1))
    result = check_model(model, {'h': _f(3, 5, 8), 'z': _f(3, 5, 8)}, tmp_path)
    assert _reshape_targets(result) != [None] and ir_types(result)['ShapeOf'] == 0


def test_view_of_a_sum_with_another_input_keeps_its_computed_target(tmp_path):
    # q = h + z: broadcasting could give q dims z has where h has 1, so h's shape says nothing of q's in the graph
    result = check_model(_projection_view_model([helper.make_node('Add', ['h', 'z'], ['q'])]),
                         {'h': _f(3, 5, 8), 'z': _f(3, 5, 8)}, tmp_path)
    assert _reshape_targets(result) == [None]


def test_view_from_another_tensors_shape_keeps_its_computed_target(tmp_path):
    # x reshaped to z's batch and seq: equal at run time here, but nothing in the graph says x's dims are z's
    nodes = [helper.make_node('Shape', ['z'], ['shape']),
             helper.make_node('Slice', ['shape', 'start', 'stop'], ['batch_seq']),
             helper.make_node('Concat', ['batch_seq', 'rest'], ['target'], axis=0),
             helper.make_node('Reshape', ['x', 'target'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, ['batch', 'seq', 4]), ('z', T.FLOAT, ['b', 's'])],
                       [('y', T.FLOAT, None)], {'start': np.array([0], np.int64), 'stop': np.array([2], np.int64),
                                                'rest': np.array([2, 2], np.int64)})
    result = check_model(model, {'x': _f(3, 5, 4), 'z': _f(3, 5)}, tmp_path)
    assert _reshape_targets(result) == [None]


# ----- shared sub-expressions ------------------------------------------------------------------------------------

def _split_heads(x, suffix, data=None):
    """Reshape ``data`` (x by default) [batch, seq, 16] to [batch, seq, 4, 4] from the Shape of x, as TorchScript
    exports write it."""
    return [helper.make_node('Shape', [x], ['shape' + suffix]),
            helper.make_node('Gather', ['shape' + suffix, 'zero'], ['b' + suffix], axis=0),
            helper.make_node('Gather', ['shape' + suffix, 'one_i'], ['s' + suffix], axis=0),
            helper.make_node('Unsqueeze', ['b' + suffix, 'axes0'], ['b1' + suffix]),
            helper.make_node('Unsqueeze', ['s' + suffix, 'axes0'], ['s1' + suffix]),
            helper.make_node('Concat', ['b1' + suffix, 's1' + suffix, 'heads'], ['target' + suffix], axis=0),
            helper.make_node('Reshape', [data or x, 'target' + suffix], ['heads' + suffix])]


SHAPE_CONSTANTS = {'zero': np.array(0, np.int64), 'one_i': np.array(1, np.int64), 'axes0': np.array([0], np.int64),
                   'heads': np.array([4, 4], np.int64)}


def test_repeated_shape_computations_computed_once(tmp_path):
    # two blocks each take the shape of x again: one ShapeOf, Gather, Unsqueeze and Concat remain (they reshape
    # Relu(x), whose dims StaticReshapeTarget does not know to be x's, so the targets stay computed)
    nodes = [helper.make_node('Relu', ['x'], ['xr'])] + _split_heads('x', '_a', 'xr') + \
        _split_heads('x', '_b', 'xr') + [helper.make_node('Add', ['heads_a', 'heads_b'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, ['batch', 'seq', 16])], [('y', T.FLOAT, None)], SHAPE_CONSTANTS)
    result = check_model(model, {'x': _f(2, 3, 16)}, tmp_path)
    types = ir_types(result)
    assert types['ShapeOf'] == 1 and types['Concat'] == 1 and types['Unsqueeze'] <= 2 and types['Reshape'] == 1


def test_equal_outputs_keep_their_names(tmp_path):
    # two identical Adds that are both graph outputs: one node, both outputs still there by name
    nodes = [helper.make_node('Add', ['x', 'c'], ['y1']), helper.make_node('Add', ['x', 'c'], ['y2']),
             helper.make_node('Mul', ['x', 'c'], ['y3'])]
    model = make_model(nodes, [('x', T.FLOAT, [2, 3])], [('y1', T.FLOAT, None), ('y2', T.FLOAT, None),
                                                          ('y3', T.FLOAT, None)], {'c': _f(3)})
    result = check_model(model, {'x': _f(2, 3)}, tmp_path)
    assert ir_types(result)['Add'] == 1 and ir_types(result)['Multiply'] == 1


def test_different_attributes_not_shared(tmp_path):
    # the same input gathered at different indices, and concatenated along different axes, stays apart
    nodes = [helper.make_node('Gather', ['x', 'zero'], ['g0'], axis=0), helper.make_node('Gather', ['x', 'zero'],
                                                                                          ['g1'], axis=1),
             helper.make_node('Concat', ['x', 'x'], ['c0'], axis=0), helper.make_node('Concat', ['x', 'x'], ['c1'],
                                                                                     axis=1)]
    outputs = [(n, T.FLOAT, None) for n in ('g0', 'g1', 'c0', 'c1')]
    model = make_model(nodes, [('x', T.FLOAT, [3, 3])], outputs, {'zero': np.array(0, np.int64)})
    result = check_model(model, {'x': _f(3, 3)}, tmp_path)
    assert ir_types(result)['Gather'] == 2 and ir_types(result)['Concat'] == 2


# ----- Reshapes in a row ---------------------------------------------------------------------------------------------

def _reshape_chain(targets, input_shape, extra_reader=False):
    """x -> Reshape(targets[0]) -> Reshape(targets[1]) ...; ``extra_reader``: the first Reshape's output is also a
    graph output (so that Reshape has a second reader)."""
    nodes, initializers, previous = [], {}, 'x'
    for k, target in enumerate(targets):
        initializers['t{}'.format(k)] = np.array(target, np.int64)
        out = 'y' if k == len(targets) - 1 else 'r{}'.format(k)
        nodes.append(helper.make_node('Reshape', [previous, 't{}'.format(k)], [out]))
        previous = out
    outputs = [('y', T.FLOAT, None)] + ([('r0', T.FLOAT, None)] if extra_reader else [])
    return make_model(nodes, [('x', T.FLOAT, input_shape)], outputs, initializers)


@pytest.mark.parametrize('targets, reshapes', [
    ([[6, 4], [4, 6]], 1),
    ([[1, 1, 1, 24], [1, 24, 1, 1]], 1),      # a squeeze-and-excite block's NHWC vector, then channels first
    ([[-1], [2, 12], [0, 4, -1]], 1),         # -1 and a special zero: the static shapes they give
    ([[3, 8], [2, 12], [24]], 1),
])
def test_reshapes_in_a_row_are_one(tmp_path, targets, reshapes):
    model = _reshape_chain(targets, [2, 3, 4])
    result = check_model(model, {'x': _f(2, 3, 4)}, tmp_path)
    assert ir_types(result)['Reshape'] == reshapes


def test_a_reshape_read_elsewhere_stays_for_that_reader(tmp_path):
    model = _reshape_chain([[6, 4], [4, 6]], [2, 3, 4], extra_reader=True)
    result = check_model(model, {'x': _f(2, 3, 4)}, tmp_path)
    assert ir_types(result)['Reshape'] == 2


def test_reshapes_of_a_dynamic_shape_stay(tmp_path):
    """Without a static output shape there is no constant target to give the single Reshape."""
    model = _reshape_chain([[0, -1], [-1, 4]], ['n', 3, 4])
    result = check_model(model, {'x': _f(5, 3, 4)}, tmp_path)
    assert ir_types(result)['Reshape'] == 2
