"""GridSample and AffineGrid converted by mo and run in OpenVINO, against onnxruntime."""
import numpy as np
import pytest
from onnx import TensorProto, helper

import mo
from tests.onnx.onnx_oracle import assert_close, check_model, make_model, run_ir

F, H, D, I64 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.INT64
_NP = {F: np.float32, H: np.float16, D: np.float64}


def _grid(shape, seed=0):
    """Positions inside and beyond [-1, 1] (padding), none on a rounding tie."""
    return np.random.RandomState(seed).uniform(-1.4, 1.4, shape).astype(np.float32)


def _grid_sample_model(data_shape, grid_shape, elem, opset, **attrs):
    node = helper.make_node('GridSample', ['x', 'grid'], ['y'], **attrs)
    return make_model([node], [('x', elem, data_shape), ('grid', elem, grid_shape)], [('y', elem, None)], opset=opset)


@pytest.mark.parametrize('mode', ['linear', 'nearest', 'cubic'])
@pytest.mark.parametrize('padding_mode', ['zeros', 'border', 'reflection'])
@pytest.mark.parametrize('align_corners', [0, 1])
def test_grid_sample_2d(mode, padding_mode, align_corners, tmp_path):
    model = _grid_sample_model([2, 3, 5, 4], [2, 6, 7, 2], F, 20, mode=mode, padding_mode=padding_mode,
                               align_corners=align_corners)
    x = np.random.RandomState(1).randn(2, 3, 5, 4).astype(np.float32)
    check_model(model, {'x': x, 'grid': _grid([2, 6, 7, 2])}, tmp_path, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('mode', ['bilinear', 'nearest', 'bicubic'])
def test_grid_sample_opset16_names(mode, tmp_path):
    model = _grid_sample_model([1, 2, 4, 6], [1, 3, 5, 2], F, 16, mode=mode, padding_mode='border')
    x = np.random.RandomState(2).randn(1, 2, 4, 6).astype(np.float32)
    check_model(model, {'x': x, 'grid': _grid([1, 3, 5, 2], 3)}, tmp_path)


@pytest.mark.parametrize('elem', [H, D])
@pytest.mark.parametrize('data_shape,grid_shape', [([1, 2, 4, 5], [1, 3, 3, 2]), ([1, 2, 3, 4, 5], [1, 2, 3, 3, 3])])
def test_grid_sample_types(elem, data_shape, grid_shape, tmp_path):
    model = _grid_sample_model(data_shape, grid_shape, elem, 20, mode='linear', padding_mode='reflection')
    x = np.random.RandomState(4).randn(*data_shape).astype(_NP[elem])
    rtol, atol = (1e-2, 1e-2) if elem == H else (1e-5, 1e-6)
    check_model(model, {'x': x, 'grid': _grid(grid_shape, 5).astype(_NP[elem])}, tmp_path, rtol=rtol, atol=atol)


@pytest.mark.parametrize('mode', ['linear', 'nearest'])
@pytest.mark.parametrize('padding_mode', ['zeros', 'border', 'reflection'])
@pytest.mark.parametrize('align_corners', [0, 1])
def test_grid_sample_volumetric(mode, padding_mode, align_corners, tmp_path):
    """5-D data: OpenVINO's GridSample takes 4-D only, so mo computes it with gathers."""
    model = _grid_sample_model([2, 3, 4, 3, 5], [2, 2, 3, 4, 3], F, 20, mode=mode, padding_mode=padding_mode,
                               align_corners=align_corners)
    x = np.random.RandomState(6).randn(2, 3, 4, 3, 5).astype(np.float32)
    check_model(model, {'x': x, 'grid': _grid([2, 2, 3, 4, 3], 7)}, tmp_path, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('mode', ['linear', 'nearest'])
def test_grid_sample_volumetric_single_pixel_reflection(mode, tmp_path):
    """A dimension of one pixel with align_corners=1: both reflection borders are that pixel."""
    model = _grid_sample_model([1, 2, 1, 3, 2], [1, 2, 3, 2, 3], F, 20, mode=mode, align_corners=1,
                               padding_mode='reflection')
    x = np.random.RandomState(12).randn(1, 2, 1, 3, 2).astype(np.float32)
    check_model(model, {'x': x, 'grid': _grid([1, 2, 3, 2, 3], 13)}, tmp_path)


def test_grid_sample_volumetric_dynamic_sizes(tmp_path):
    """Sizes known at run time only: the gathers read them from the data's and the grid's shapes."""
    model = _grid_sample_model(['n', 2, 'd', 'h', 'w'], ['n', 'e', 'f', 'g', 3], F, 20, mode='linear',
                               padding_mode='border')
    x = np.random.RandomState(10).randn(2, 2, 3, 4, 5).astype(np.float32)
    check_model(model, {'x': x, 'grid': _grid([2, 3, 2, 4, 3], 11)}, tmp_path)


def _affine_grid_model(size, align_corners, constant_size):
    spatial = len(size) - 2
    node = helper.make_node('AffineGrid', ['theta', 'size'], ['grid'], align_corners=align_corners)
    theta = ('theta', F, [size[0], spatial, spatial + 1])
    if constant_size:
        return make_model([node], [theta], [('grid', F, None)], opset=20,
                          initializers={'size': np.array(size, np.int64)})
    return make_model([node], [theta, ('size', I64, [len(size)])], [('grid', F, None)], opset=20)


@pytest.mark.parametrize('size', [[2, 3, 5, 6], [1, 1, 4, 1], [2, 2, 3, 4, 5], [1, 1, 1, 3, 2]])
@pytest.mark.parametrize('align_corners', [0, 1])
@pytest.mark.parametrize('constant_size', [True, False])
def test_affine_grid(size, align_corners, constant_size, tmp_path):
    spatial = len(size) - 2
    theta = np.random.RandomState(8).randn(size[0], spatial, spatial + 1).astype(np.float32)
    feeds = {'theta': theta} if constant_size else {'theta': theta, 'size': np.array(size, np.int64)}
    model = _affine_grid_model(size, align_corners, constant_size)
    if not (align_corners and 1 in size[2:]):
        check_model(model, feeds, tmp_path, rtol=1e-5, atol=1e-5)
        return
    # a single step with align_corners=1: the spec leaves it open; ONNX's reference (and AffineGrid's function
    # body) puts it at -1, which mo follows; onnxruntime puts it at 1, PyTorch at 0
    from onnx.reference import ReferenceEvaluator
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    actual = run_ir(result.xml_path, feeds, ['grid'])[0]
    with np.errstate(divide='ignore'):  # the reference's step 2 / (1 - 1)
        expected = ReferenceEvaluator(model).run(None, feeds)[0]
    assert_close(actual, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('elem', [H, D])
def test_affine_grid_types(elem, tmp_path):
    node = helper.make_node('AffineGrid', ['theta', 'size'], ['grid'])
    model = make_model([node], [('theta', elem, [2, 2, 3])], [('grid', elem, None)], opset=20,
                       initializers={'size': np.array([2, 1, 3, 4], np.int64)})
    theta = np.random.RandomState(9).randn(2, 2, 3).astype(_NP[elem])
    rtol, atol = (1e-2, 1e-2) if elem == H else (1e-6, 1e-7)
    check_model(model, {'theta': theta}, tmp_path, rtol=rtol, atol=atol)


@pytest.mark.parametrize('build,message', [
    (lambda: _grid_sample_model([1, 1, 2, 2, 2], [1, 2, 2, 2, 3], F, 20, mode='cubic'), 'cubic interpolation of 5-D'),
    (lambda: _grid_sample_model([1, 1, 2, 2], [1, 2, 2, 2], F, 20, mode='area'), 'mode "area"'),
    (lambda: _grid_sample_model([1, 1, 2, 2], [1, 2, 2, 2], F, 20, padding_mode='wrap'), 'padding_mode "wrap"'),
    (lambda: _grid_sample_model([1, 1, 2, 2], [1, 2, 2, 3], F, 20), 'do not fit'),
    (lambda: make_model([helper.make_node('AffineGrid', ['theta', 'size'], ['grid'])], [('theta', F, [1, 3, 4])],
                        [('grid', F, None)], opset=20, initializers={'size': np.array([1, 1, 2, 2], np.int64)}),
     'does not fit'),
])
def test_errors(build, message, tmp_path):
    from mo.utils.error import Error
    with pytest.raises(Error, match=message):
        mo.convert_model(build(), output_dir=str(tmp_path))


@pytest.mark.parametrize('size', [4, 3])
def test_if_of_constant_condition_with_branches_of_two_ranks(size, tmp_path):
    """AffineGrid's function body branches on its size's length with an If whose branches differ in rank: a
    condition known at conversion gives the If the taken branch's shape (OpenVINO then infers that branch only)."""
    then = helper.make_graph([helper.make_node('Identity', ['x'], ['t'])], 'then', [],
                             [helper.make_tensor_value_info('t', F, None)])
    other = helper.make_graph([helper.make_node('Unsqueeze', ['x', 'axes'], ['e'])], 'else', [],
                              [helper.make_tensor_value_info('e', F, None)])
    nodes = [helper.make_node('Size', ['x'], ['n']), helper.make_node('Equal', ['n', 'four'], ['c']),
             helper.make_node('If', ['c'], ['y'], then_branch=then, else_branch=other),
             helper.make_node('Mul', ['y', 'x'], ['z'])]
    model = make_model(nodes, [('x', F, [size])], [('z', F, None)], opset=17,
                       initializers={'four': np.array(4, np.int64), 'axes': np.array([0], np.int64)})
    check_model(model, {'x': np.arange(size, dtype=np.float32) + 1}, tmp_path)
