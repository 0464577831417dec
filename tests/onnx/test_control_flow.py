"""ONNX If, Loop and Scan through mo into OpenVINO against onnxruntime: trip counts 0, 1 and several, early
exits, outer-scope reads, nested bodies, scan axes and directions; sequences and model-local functions."""
import numpy as np
import pytest

pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')

from onnx import TensorProto, helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5


def _graph(nodes, inputs, outputs, name='body', initializers=()):
    def vi(item):
        name_, elem, shape = item
        return helper.make_tensor_value_info(name_, elem, shape)
    return helper.make_graph(nodes, name, [vi(i) for i in inputs], [vi(o) for o in outputs],
                             initializer=list(initializers))


def _const(name, value):
    from onnx import numpy_helper
    return helper.make_node('Constant', [], [name], value=numpy_helper.from_array(np.asarray(value)))


@pytest.mark.parametrize('flag', [True, False])
def test_if_reads_outer_tensors(flag, tmp_path):
    then = _graph([helper.make_node('Add', ['x', 'y'], ['t'])], [], [('t', F, [2, 3])], 'then')
    other = _graph([helper.make_node('Relu', ['x'], ['e'])], [], [('e', F, [2, 3])], 'else')
    model = make_model([helper.make_node('If', ['c'], ['out'], then_branch=then, else_branch=other)],
                       [('c', B, []), ('x', F, [2, 3]), ('y', F, [2, 3])], [('out', F, [2, 3])], opset=13)
    check_model(model, {'c': np.array(flag), 'x': X, 'y': X * 3}, tmp_path)


def test_if_branch_passes_outer_tensor_through(tmp_path):
    then = _graph([helper.make_node('Identity', ['x'], ['t'])], [], [('t', F, [2, 3])], 'then')
    other = _graph([helper.make_node('Neg', ['x'], ['e'])], [], [('e', F, [2, 3])], 'else')
    model = make_model([helper.make_node('If', ['c'], ['out'], then_branch=then, else_branch=other)],
                       [('c', B, [1]), ('x', F, [2, 3])], [('out', F, [2, 3])], opset=13)
    for flag in (True, False):
        check_model(model, {'c': np.array([flag]), 'x': X}, tmp_path)



def _if_indices_model():
    """torchvision's detectors: ``keep = If(no boxes, [], batched_nms(...))``, ``boxes[keep[:1000]]`` and then a
    coordinate column, ``boxes[keep][:, 2]``; here the else branch keeps the rows of a score above 0.5."""
    then = _graph([_const('empty', np.zeros([0], np.int64))], [], [('empty', I64, [0])], 'then')
    other = _graph([helper.make_node('Greater', ['scores', 'half'], ['high']),
                    helper.make_node('NonZero', ['high'], ['where']),
                    helper.make_node('Squeeze', ['where', 'zero_axis'], ['kept'])], [], [('kept', I64, ['k'])], 'else')
    nodes = [helper.make_node('If', ['c'], ['keep'], then_branch=then, else_branch=other),
             helper.make_node('Slice', ['keep', 'start', 'stop', 'zero_axis', 'step'], ['first']),
             helper.make_node('Gather', ['boxes', 'first'], ['rows'], axis=0),
             helper.make_node('Gather', ['rows', 'two'], ['x2'], axis=1)]
    inits = {'half': np.float32(0.5), 'zero_axis': np.array([0], np.int64), 'start': np.array([0], np.int64),
             'stop': np.array([1000], np.int64), 'step': np.array([1], np.int64), 'two': np.int64(2)}
    return make_model(nodes, [('c', B, []), ('boxes', F, ['n', 4]), ('scores', F, ['n'])], [('x2', F, ['m'])],
                      initializers=inits, opset=13)


@pytest.mark.parametrize('flag', [False, True])
def test_if_output_of_runtime_shape_read_on_first_inference(flag, tmp_path):
    """The CPU plugin read stale memory for the Slice of an If output of a run-time shape on a compiled model's
    first inference (extensions/middle/if_output_copy.py); check_model runs the model once, just compiled."""
    rng = np.random.default_rng(0)
    boxes = (rng.random((70, 4)) * 320).astype(np.float32)
    scores = rng.random(70).astype(np.float32)
    check_model(_if_indices_model(), {'c': np.array(flag), 'boxes': boxes, 'scores': scores}, tmp_path)


def _loop_model(with_trip=True, with_cond=True, early_exit=False):
    """Loop: acc = acc * 2 + x (x from the outer graph), scan output acc + iteration number; with
    ``early_exit`` the body stops once acc's sum exceeds 50."""
    nodes = [helper.make_node('Mul', ['acc_in', 'two'], ['doubled']),
             helper.make_node('Add', ['doubled', 'x'], ['acc_out']),
             helper.make_node('Cast', ['i'], ['i_f'], to=F),
             helper.make_node('Add', ['acc_out', 'i_f'], ['scan_out'])]
    if early_exit:
        nodes += [helper.make_node('ReduceSum', ['acc_out'], ['total'], keepdims=0),
                  helper.make_node('Less', ['total', 'limit'], ['cond_out'])]
    else:
        nodes += [helper.make_node('Identity', ['cond_in'], ['cond_out'])]
    body = _graph(nodes, [('i', I64, []), ('cond_in', B, []), ('acc_in', F, [2, 3])],
                  [('cond_out', B, []), ('acc_out', F, [2, 3]), ('scan_out', F, [2, 3])])
    inputs = [('x', F, [2, 3]), ('acc0', F, [2, 3])]
    loop_inputs = ['M' if with_trip else '', 'c' if with_cond else '', 'acc0']
    if with_trip:
        inputs.append(('M', I64, []))
    if with_cond:
        inputs.append(('c', B, []))
    model = make_model([helper.make_node('Loop', loop_inputs, ['final', 'stacked'], body=body)], inputs,
                       [('final', F, [2, 3]), ('stacked', F, None)],
                       initializers={'two': np.float32(2), 'limit': np.float32(50)}, opset=13)
    return model


@pytest.mark.parametrize('trips', [0, 1, 4])
def test_loop_trip_counts(trips, tmp_path):
    feeds = {'x': X, 'acc0': X + 1, 'M': np.array(trips, np.int64), 'c': np.array(True)}
    check_model(_loop_model(), feeds, tmp_path)


def test_loop_first_condition_false(tmp_path):
    feeds = {'x': X, 'acc0': X + 1, 'M': np.array(3, np.int64), 'c': np.array(False)}
    check_model(_loop_model(), feeds, tmp_path)


@pytest.mark.parametrize('with_trip', [True, False])
def test_loop_early_exit(with_trip, tmp_path):
    feeds = {'x': X, 'acc0': X + 1, 'c': np.array(True)}
    if with_trip:
        feeds['M'] = np.array(10, np.int64)
    check_model(_loop_model(with_trip=with_trip, early_exit=True), feeds, tmp_path)


def test_loop_without_condition_input(tmp_path):
    feeds = {'x': X, 'acc0': X, 'M': np.array(3, np.int64)}
    check_model(_loop_model(with_cond=False), feeds, tmp_path)


def test_if_nested_in_loop(tmp_path):
    """Each iteration adds x (outer scope, read two bodies deep) when the iteration number is even, else
    subtracts y."""
    then = _graph([helper.make_node('Add', ['acc_in', 'x'], ['t'])], [], [('t', F, [2, 3])], 'then')
    other = _graph([helper.make_node('Sub', ['acc_in', 'y'], ['e'])], [], [('e', F, [2, 3])], 'else')
    body = _graph([helper.make_node('Mod', ['i', 'two'], ['parity']),
                   helper.make_node('Equal', ['parity', 'zero'], ['even']),
                   helper.make_node('If', ['even'], ['acc_out'], then_branch=then, else_branch=other),
                   helper.make_node('Identity', ['cond_in'], ['cond_out'])],
                  [('i', I64, []), ('cond_in', B, []), ('acc_in', F, [2, 3])],
                  [('cond_out', B, []), ('acc_out', F, [2, 3])])
    model = make_model([helper.make_node('Loop', ['M', '', 'acc0'], ['final'], body=body)],
                       [('x', F, [2, 3]), ('y', F, [2, 3]), ('acc0', F, [2, 3]), ('M', I64, [])],
                       [('final', F, [2, 3])], initializers={'two': np.int64(2), 'zero': np.int64(0)}, opset=13)
    for trips in (0, 1, 5):
        check_model(model, {'x': X, 'y': X * X, 'acc0': X, 'M': np.array(trips, np.int64)}, tmp_path)


def _scan_model(input_axis=0, input_direction=0, output_axis=0, output_direction=0, shape=(3, 2)):
    """Scan: running sum of the slices (state), each step's (sum * w) as the scan output; w from the outer
    graph."""
    step = [d for k, d in enumerate(shape) if k != (input_axis % len(shape))]
    body = _graph([helper.make_node('Add', ['sum_in', 'step'], ['sum_out']),
                   helper.make_node('Mul', ['sum_out', 'w'], ['scan_out'])],
                  [('sum_in', F, step), ('step', F, step)], [('sum_out', F, step), ('scan_out', F, step)])
    node = helper.make_node('Scan', ['init', 'seq'], ['final', 'stacked'], body=body, num_scan_inputs=1,
                            scan_input_axes=[input_axis], scan_input_directions=[input_direction],
                            scan_output_axes=[output_axis], scan_output_directions=[output_direction])
    return make_model([node], [('init', F, step), ('seq', F, list(shape)), ('w', F, step)],
                      [('final', F, step), ('stacked', F, None)], opset=16)


@pytest.mark.parametrize('input_axis,input_direction,output_axis,output_direction', [
    (0, 0, 0, 0), (0, 1, 0, 0), (1, 0, 0, 1), (-1, 1, 1, 0), (1, 1, -1, 1)])
def test_scan_axes_and_directions(input_axis, input_direction, output_axis, output_direction, tmp_path):
    shape = (3, 4)
    model = _scan_model(input_axis, input_direction, output_axis, output_direction, shape)
    step = [d for k, d in enumerate(shape) if k != input_axis % 2]
    rng = np.random.RandomState(0)
    feeds = {'init': rng.rand(*step).astype(np.float32), 'seq': rng.rand(*shape).astype(np.float32),
             'w': rng.rand(*step).astype(np.float32)}
    check_model(model, feeds, tmp_path)


def test_sequences_resolved_at_conversion(tmp_path):
    """SplitToSequence (keepdims 0), SequenceInsert/Erase at constant positions, SequenceAt,
    ConcatFromSequence with and without new_axis, SequenceLength."""
    nodes = [helper.make_node('SplitToSequence', ['x'], ['parts'], axis=1, keepdims=0),
             helper.make_node('SequenceInsert', ['parts', 'y', 'one'], ['inserted']),
             helper.make_node('SequenceErase', ['inserted', 'minus_one'], ['erased']),
             helper.make_node('SequenceAt', ['erased', 'one'], ['picked']),
             helper.make_node('ConcatFromSequence', ['erased'], ['stacked'], axis=-1, new_axis=1),
             helper.make_node('SequenceConstruct', ['x', 'x'], ['pair']),
             helper.make_node('ConcatFromSequence', ['pair'], ['joined'], axis=0),
             helper.make_node('SequenceLength', ['erased'], ['length'])]
    model = make_model(nodes, [('x', F, [2, 3]), ('y', F, [2])],
                       [('picked', F, None), ('stacked', F, None), ('joined', F, None), ('length', I64, None)],
                       initializers={'one': np.int64(1), 'minus_one': np.int64(-1)}, opset=13)
    check_model(model, {'x': X, 'y': np.array([7, 8], np.float32)}, tmp_path)


def test_sequence_output_is_an_error(tmp_path):
    import mo
    from mo.utils.error import Error
    seq = helper.make_tensor_sequence_value_info('s', F, [2, 3])
    model = make_model([helper.make_node('SequenceConstruct', ['x'], ['s'])], [('x', F, [2, 3])], [seq], opset=13)
    with pytest.raises(Error, match='sequence'):
        mo.convert_model(model, output_dir=str(tmp_path))


def test_model_local_function_inlined(tmp_path):
    """A function whose LeakyRelu's alpha refers to the call's attribute (default 0.3), called with and without
    it, and inside another function."""
    from onnx import AttributeProto
    leaky = helper.make_node('LeakyRelu', ['a'], ['r'])
    leaky.attribute.append(helper.make_attribute_ref('alpha', AttributeProto.FLOAT))
    inner = helper.make_function('local', 'Scaled', ['a'], ['b'], [
        helper.make_node('Constant', [], ['k'], value_float=1.0), leaky, helper.make_node('Add', ['r', 'k'], ['b'])],
        [helper.make_opsetid('', 13)], attribute_protos=[helper.make_attribute('alpha', 0.3)])
    outer = helper.make_function('local', 'Twice', ['a'], ['b'], [
        helper.make_node('Scaled', ['a'], ['m'], domain='local', alpha=0.5),
        helper.make_node('Scaled', ['m'], ['b'], domain='local')],
        [helper.make_opsetid('', 13), helper.make_opsetid('local', 1)])
    model = make_model([helper.make_node('Twice', ['x'], ['y'], domain='local'),
                        helper.make_node('Scaled', ['y'], ['z'], domain='local', alpha=0.1)],
                       [('x', F, [2, 3])], [('z', F, [2, 3])], opset=13, domains={'local': 1})
    model.functions.extend([inner, outer])
    check_model(model, {'x': X * 10}, tmp_path)
