"""A projection written on flattened rows (HuggingFace GPT-2's ``Conv1D``: ``x.view(-1, x.size(-1))``, addmm,
``.view(x.size()[:-1] + (nf,))``, as the TorchScript exporter writes it) converts to the MatMul on x as it is
(extensions/back/matmul_reshape_sinking.py): no Reshape and no shape computation in the IR, onnxruntime's numbers at
every batch and sequence length. Targets that are not x's leading dimensions keep their Reshapes and still match."""
import collections
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto as T, helper  # noqa: E402

import mo  # noqa: E402
from tests.onnx.onnx_oracle import assert_close, make_model, run_ir, run_onnxruntime  # noqa: E402

RNG = np.random.default_rng(4404)
K, N = 8, 6


def _f(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _i64(value):
    return np.array(value, np.int64)


def ir_types(result) -> collections.Counter:
    root = ET.parse(str(result.xml_path)).getroot()
    return collections.Counter(layer.get('type') for layer in root.iter('layer'))


def convert_and_compare(model, feeds_list, tmp_path):
    """Convert ``model`` once and compare every output with onnxruntime's on each feed dict; the result."""
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    names = [o.name for o in model.graph.output]
    for feeds in feeds_list:
        expected = run_onnxruntime(model, feeds)
        actual = run_ir(result.xml_path, feeds, names)
        for name, a, e in zip(names, actual, expected):
            assert_close(a, e, what='output "{}" at {}'.format(name, {k: v.shape for k, v in feeds.items()}))
    return result


def _flatten_rows(x='x'):
    """t = x.view(-1, x.size(-1)): the target Concat([-1], Unsqueeze(Squeeze(Slice(Shape(x), -1, MAX))))."""
    return [helper.make_node('Shape', [x], ['rows_shape']),
            helper.make_node('Slice', ['rows_shape', 'minus1', 'max'], ['last_1']),
            helper.make_node('Squeeze', ['last_1', 'axes0'], ['last']),
            helper.make_node('Unsqueeze', ['last', 'axes0'], ['last_u']),
            helper.make_node('Concat', ['minus1', 'last_u'], ['rows_target'], axis=0),
            helper.make_node('Reshape', [x, 'rows_target'], ['rows'])]


def _restore_by_gathers(picks, of='x'):
    """target = Concat(Unsqueeze(Gather(Shape(of), i)) for i in picks, [N]): ``.view(of.size(i), ..., nf)``."""
    nodes = [helper.make_node('Shape', [of], ['out_shape'])]
    parts = []
    for i in picks:
        nodes += [helper.make_node('Gather', ['out_shape', 'i%d' % i], ['d%d' % i], axis=0),
                  helper.make_node('Unsqueeze', ['d%d' % i, 'axes0'], ['u%d' % i])]
        parts.append('u%d' % i)
    return nodes + [helper.make_node('Concat', parts + ['nf'], ['out_target'], axis=0)]


def _restore_by_slice(of='x'):
    """target = Concat(Slice(Shape(of), 0, -1), [N]): ``.view(of.size()[:-1] + (nf,))``."""
    return [helper.make_node('Shape', [of], ['out_shape']),
            helper.make_node('Slice', ['out_shape', 'zero', 'minus1'], ['leading']),
            helper.make_node('Concat', ['leading', 'nf'], ['out_target'], axis=0)]


CONSTS = {'minus1': _i64([-1]), 'max': _i64([np.iinfo(np.int64).max]), 'axes0': _i64([0]), 'zero': _i64([0]),
          'nf': _i64([N]), 'i0': _i64(0), 'i1': _i64(1), 'i2': _i64(2)}


def _projection(form):
    """The rows' projection ``rows -> projected`` and its initializers, as exporters write a Linear/Conv1D."""
    if form == 'gemm':            # addmm: Gemm with the bias as C
        return [helper.make_node('Gemm', ['rows', 'w', 'b'], ['projected'])], {'w': _f(K, N), 'b': _f(N)}
    if form == 'gemm_trans_b':    # nn.Linear's [out, in] weight read transposed
        return [helper.make_node('Gemm', ['rows', 'w', 'b'], ['projected'], transB=1)], {'w': _f(N, K), 'b': _f(N)}
    if form == 'matmul':          # no bias
        return [helper.make_node('MatMul', ['rows', 'w'], ['projected'])], {'w': _f(K, N)}
    if form == 'bias_first':      # b + rows @ w
        return [helper.make_node('MatMul', ['rows', 'w'], ['mm']),
                helper.make_node('Add', ['b', 'mm'], ['projected'])], {'w': _f(K, N), 'b': _f(1, N)}
    if form == 'bias_rank_3':     # a [1, 1, N] bias: the sum has a leading 1 before the rows
        return [helper.make_node('MatMul', ['rows', 'w'], ['mm']),
                helper.make_node('Add', ['mm', 'b'], ['projected'])], {'w': _f(K, N), 'b': _f(1, 1, N)}
    raise ValueError(form)


def _conv1d_model(form='gemm', shape=('batch', 'seq', K), restore=None, extra_inputs=(), outputs=('y',),
                  weights_input=False):
    nodes, weights = _projection(form)
    restore = restore if restore is not None else \
        (_restore_by_gathers(range(len(shape) - 1)) if len(shape) == 3 else _restore_by_slice())
    nodes = _flatten_rows() + nodes + restore + [helper.make_node('Reshape', ['projected', 'out_target'], ['y'])]
    inputs = [('x', T.FLOAT, list(shape))] + list(extra_inputs)
    if weights_input:
        w_shape = list(weights.pop('w').shape)
        inputs.append(('w', T.FLOAT, [shape[-1] if d == K else d for d in w_shape]))
    return make_model(nodes, inputs, [(name, T.FLOAT, None) for name in outputs], dict(CONSTS, **weights))


def _x(*leading):
    return {'x': _f(*leading, K)}


SHAPES = [(2, 5), (1, 1), (3, 9)]


@pytest.mark.parametrize('form', ['gemm', 'gemm_trans_b', 'matmul', 'bias_first', 'bias_rank_3'])
def test_conv1d_projection_is_one_matmul(tmp_path, form):
    result = convert_and_compare(_conv1d_model(form), [_x(*s) for s in SHAPES], tmp_path)
    types = ir_types(result)
    assert types['Reshape'] == 0 and types['ShapeOf'] == 0 and types['MatMul'] == 1, types
    assert types['Add'] == (0 if form == 'matmul' else 1)


def test_conv1d_projection_with_an_empty_batch(tmp_path):
    result = convert_and_compare(_conv1d_model(), [_x(0, 4), _x(2, 3)], tmp_path)
    assert ir_types(result)['Reshape'] == 0


@pytest.mark.parametrize('form, width', [('matmul', K), ('gemm_trans_b', K), ('matmul', 'k'), ('gemm_trans_b', 'k')])
def test_weights_from_an_input(tmp_path, form, width):
    # not a constant: the MatMul keeps reading it as it is (transpose_b for Gemm's transB); a width only the run
    # time knows ('k') is proven kept by the flattening target, read from x's own last dimension
    model = _conv1d_model(form, shape=('batch', 'seq', width), weights_input=True)
    feeds = [dict(_x(*s), w=_f(*((N, K) if form == 'gemm_trans_b' else (K, N)))) for s in SHAPES]
    assert ir_types(convert_and_compare(model, feeds, tmp_path))['Reshape'] == 0


def test_rank_4_rows_by_the_slice_of_the_shape(tmp_path):
    # .view(x.size()[:-1] + (nf,)) of x [batch, heads, seq, K]
    model = _conv1d_model('gemm', shape=('batch', 4, 'seq', K))
    result = convert_and_compare(model, [_x(2, 4, 3), _x(1, 4, 1)], tmp_path)
    assert ir_types(result)['Reshape'] == 0


def test_static_shapes(tmp_path):
    result = convert_and_compare(_conv1d_model('gemm', shape=(2, 3, K)), [_x(2, 3)], tmp_path)
    assert ir_types(result)['Reshape'] == 0


def test_rank_2_rows_left_as_they_are(tmp_path):
    # x already rows: nothing flattened, the Reshapes are no-ops others may drop; the numbers are onnxruntime's
    model = _conv1d_model('gemm', shape=('rows', K), restore=_restore_by_gathers([0]))
    convert_and_compare(model, [_x(5), _x(1)], tmp_path)


def test_flattened_rows_read_elsewhere_stay_for_that_reader(tmp_path):
    model = _conv1d_model('gemm', outputs=('y', 'rows'))
    result = convert_and_compare(model, [_x(*s) for s in SHAPES], tmp_path)
    assert ir_types(result)['Reshape'] == 1  # the flattening, for the graph output 'rows'


def test_projected_rows_read_elsewhere_left_alone(tmp_path):
    # the MatMul's rows are a graph output too: a second MatMul on x would compute them twice
    model = _conv1d_model('gemm', outputs=('y', 'projected'))
    result = convert_and_compare(model, [_x(*s) for s in SHAPES], tmp_path)
    assert ir_types(result)['MatMul'] == 1


def test_swapped_dimensions_left_alone(tmp_path):
    # .view(x.size(1), x.size(0), nf): the same elements in another shape, not the MatMul on x
    model = _conv1d_model('gemm', restore=_restore_by_gathers([1, 0]))
    result = convert_and_compare(model, [_x(2, 5), _x(3, 4)], tmp_path)
    assert ir_types(result)['Reshape'] == 2


def test_target_from_another_tensor_left_alone(tmp_path):
    # .view(z.size(0), z.size(1), nf) for z of another shape (the same number of rows in the feeds)
    model = _conv1d_model('gemm', restore=_restore_by_gathers([0, 1], of='z'),
                          extra_inputs=[('z', T.FLOAT, ['b2', 's2', 3])])
    feeds = [dict(_x(2, 6), z=_f(3, 4, 3)), dict(_x(4, 1), z=_f(1, 4, 3))]
    result = convert_and_compare(model, feeds, tmp_path)
    assert ir_types(result)['Reshape'] == 2


def test_bias_over_rows_left_alone(tmp_path):
    # a [rows, N] term added to the rows is no bias of the last axis: it has the flattened dimension
    _, weights = _projection('matmul')
    nodes = _flatten_rows() + [helper.make_node('MatMul', ['rows', 'w'], ['mm']),
                               helper.make_node('Add', ['mm', 'r'], ['projected'])] + _restore_by_gathers([0, 1]) + \
        [helper.make_node('Reshape', ['projected', 'out_target'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, ['batch', 'seq', K]), ('r', T.FLOAT, ['rows', N])],
                       [('y', T.FLOAT, None)], dict(CONSTS, **weights))
    feeds = [dict(_x(2, 3), r=_f(6, N)), dict(_x(1, 4), r=_f(4, N))]
    result = convert_and_compare(model, feeds, tmp_path)
    assert ir_types(result)['Reshape'] == 2


def test_rows_of_another_width_left_alone(tmp_path):
    # x.view(-1, 4) of x [batch, seq, 8]: rows of half x's last axis
    nodes, weights = [helper.make_node('MatMul', ['rows', 'w'], ['projected'])], {'w': _f(4, N)}
    nodes = [helper.make_node('Reshape', ['x', 'half_rows'], ['rows'])] + nodes + _restore_by_gathers([0, 1]) + \
        [helper.make_node('Concat', ['u0', 'u1', 'two', 'nf'], ['out_target4'], axis=0),
         helper.make_node('Reshape', ['projected', 'out_target4'], ['y'])]
    model = make_model(nodes, [('x', T.FLOAT, ['batch', 'seq', K])], [('y', T.FLOAT, None)],
                       dict(CONSTS, half_rows=_i64([-1, 4]), two=_i64([2]), **weights))
    result = convert_and_compare(model, [_x(2, 3), _x(1, 5)], tmp_path)
    assert ir_types(result)['MatMul'] == 1 and ir_types(result)['Reshape'] == 2


def test_output_keeps_its_tensor_name(tmp_path):
    model = _conv1d_model('gemm')
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    from tests.support.oracles import compile_openvino
    compiled = compile_openvino(result.xml_path)
    assert [sorted(p.get_names()) for p in compiled.outputs] == [['y']]
