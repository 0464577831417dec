"""ONNX's neural-network ops over the attribute grids the backend suite leaves out: convolutions, pools,
normalizations, Dropout, Resize/Upsample and the losses. onnxruntime runs each model, OpenVINO runs the IR mo wrote.
"""
import itertools

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto as T, helper  # noqa: E402

import mo  # noqa: E402
from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402

RNG = np.random.default_rng(7)
_NP = {T.FLOAT: np.float32, T.FLOAT16: np.float16, T.DOUBLE: np.float64}


def _rand(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def _single(op, inputs, outputs, attrs=None, initializers=None, opset=17, node_inputs=None, node_outputs=None):
    """A model of one node ``op``; ``inputs``/``outputs`` ``(name, type, shape)``."""
    node = helper.make_node(op, node_inputs or [i[0] for i in inputs] + list(initializers or {}),
                            node_outputs or [o[0] for o in outputs], **(attrs or {}))
    return make_model([node], inputs, outputs, initializers=initializers or {}, opset=opset)


# ----- convolutions ----------------------------------------------------------------------------------------------

# onnxruntime (the reference) rejects dilations with SAME padding
_CONV_GRID = [(r, pad, g, sd) for r, pad, g, sd in itertools.product(
    [1, 2, 3],                                          # spatial rank
    ['NOTSET', 'SAME_UPPER', 'SAME_LOWER', 'VALID'],    # auto_pad
    [1, 2, 4],                                          # group (4: depthwise)
    [(1, 1), (2, 1), (1, 2)],                           # (stride, dilation)
) if not (pad.startswith('SAME') and sd[1] > 1)]


@pytest.mark.parametrize('rank,auto_pad,group,stride_dilation', _CONV_GRID)
def test_conv(tmp_path, rank, auto_pad, group, stride_dilation):
    stride, dilation = stride_dilation
    channels, out_channels = 4, 8
    kernel = [3] * rank
    spatial = [7, 6, 5][:rank]
    attrs = {'group': group, 'strides': [stride] * rank, 'dilations': [dilation] * rank, 'kernel_shape': kernel,
             'auto_pad': auto_pad}
    if auto_pad == 'NOTSET':
        attrs['pads'] = [1] * rank + [2] * rank  # asymmetric
    weights = {'W': _rand(out_channels, channels // group, *kernel), 'B': _rand(out_channels)}
    model = _single('Conv', [('x', T.FLOAT, [2, channels] + spatial)], [('y', T.FLOAT, None)], attrs, weights)
    check_model(model, {'x': _rand(2, channels, *spatial)}, tmp_path)


def test_conv_dynamic_spatial_same_and_no_bias(tmp_path):
    """SAME padding worked out by the runtime: the spatial sizes are symbolic."""
    model = _single('Conv', [('x', T.FLOAT, ['N', 3, 'H', 'W'])], [('y', T.FLOAT, None)],
                    {'auto_pad': 'SAME_LOWER', 'strides': [2, 2]}, {'W': _rand(6, 3, 3, 3)})
    for shape in ((1, 3, 9, 8), (2, 3, 5, 6)):
        check_model(model, {'x': _rand(*shape)}, tmp_path / str(shape[2]))


@pytest.mark.parametrize('dtype', [T.FLOAT16])  # onnxruntime has no double Conv
def test_conv_types(tmp_path, dtype):
    np_type = _NP[dtype]
    model = _single('Conv', [('x', dtype, [1, 2, 6, 6])], [('y', dtype, None)], {'pads': [1, 1, 1, 1]},
                    {'W': _rand(3, 2, 3, 3, dtype=np_type), 'B': _rand(3, dtype=np_type)})
    check_model(model, {'x': _rand(1, 2, 6, 6, dtype=np_type)}, tmp_path, rtol=1e-2, atol=1e-2)


def test_conv_batchnorm_fuses_into_weights(tmp_path):
    """Conv -> BatchNormalization (NCHW): the middle phase folds the batch norm's scale into the weights; the
    result still matches."""
    c = 4
    conv = helper.make_node('Conv', ['x', 'W', 'B'], ['c'], pads=[1, 1, 1, 1])
    bn = helper.make_node('BatchNormalization', ['c', 'scale', 'bias', 'mean', 'var'], ['y'], epsilon=1e-3)
    weights = {'W': _rand(c, 3, 3, 3), 'B': _rand(c), 'scale': _rand(c), 'bias': _rand(c), 'mean': _rand(c),
               'var': np.abs(_rand(c)) + 0.5}
    model = make_model([conv, bn], [('x', T.FLOAT, [1, 3, 8, 8])], [('y', T.FLOAT, None)], weights)
    result = check_model(model, {'x': _rand(1, 3, 8, 8)}, tmp_path)
    xml = open(str(result.xml_path)).read()
    assert 'type="Multiply"' not in xml, 'the batch norm scale was not folded into the convolution'


_DECONV_GRID = [
    # (attrs, spatial rank)
    ({'strides': [2, 2]}, 2),
    ({'strides': [2, 2], 'pads': [1, 0, 0, 1], 'output_padding': [1, 1]}, 2),
    ({'strides': [3, 2], 'dilations': [2, 1], 'output_padding': [2, 1]}, 2),
    ({'strides': [2, 2], 'output_shape': [10, 9]}, 2),
    ({'strides': [2, 2], 'output_shape': [10, 9], 'auto_pad': 'SAME_UPPER'}, 2),
    ({'strides': [2, 2], 'auto_pad': 'SAME_UPPER'}, 2),
    ({'strides': [2, 2], 'auto_pad': 'SAME_LOWER'}, 2),
    ({'strides': [2, 2], 'auto_pad': 'VALID'}, 2),
    ({'strides': [2], 'pads': [1, 2]}, 1),
    ({'strides': [1, 2, 2]}, 3),
]


@pytest.mark.parametrize('group', [1, 2])
@pytest.mark.parametrize('attrs,rank', _DECONV_GRID)
def test_conv_transpose(tmp_path, attrs, rank, group):
    spatial = [4, 5, 3][:rank]
    model = _single('ConvTranspose', [('x', T.FLOAT, [1, 4] + spatial)], [('y', T.FLOAT, None)], attrs,
                    {'W': _rand(4, 6 // group, *([3] * rank)), 'B': _rand(6)}, opset=17)
    model.graph.node[0].attribute.extend([helper.make_attribute('group', group)])
    check_model(model, {'x': _rand(1, 4, *spatial)}, tmp_path)


# ----- pools -----------------------------------------------------------------------------------------------------

_POOL_GRID = list(itertools.product(
    [{'pads': [1, 0, 1, 1]}, {'auto_pad': 'SAME_UPPER'}, {'auto_pad': 'SAME_LOWER'}, {'auto_pad': 'VALID'}, {}],
    [0, 1],             # ceil_mode
    [[1, 1], [2, 3]],   # strides
))


@pytest.mark.parametrize('padding,ceil_mode,strides', _POOL_GRID)
@pytest.mark.parametrize('storage_order', [0, 1])
def test_max_pool_with_indices(tmp_path, padding, ceil_mode, strides, storage_order):
    attrs = dict(padding, kernel_shape=[3, 2], strides=strides, ceil_mode=ceil_mode, storage_order=storage_order)
    model = _single('MaxPool', [('x', T.FLOAT, [2, 3, 8, 7])], [('y', T.FLOAT, None), ('i', T.INT64, None)], attrs,
                    opset=12)
    check_model(model, {'x': _rand(2, 3, 8, 7)}, tmp_path)


@pytest.mark.parametrize('dilations', [[2, 2], [1, 3]])
def test_max_pool_dilations_uint8(tmp_path, dilations):
    model = _single('MaxPool', [('x', T.UINT8, [1, 2, 9, 9])], [('y', T.UINT8, None)],
                    {'kernel_shape': [2, 2], 'dilations': dilations, 'pads': [1, 1, 0, 0]}, opset=12)
    check_model(model, {'x': RNG.integers(0, 255, (1, 2, 9, 9)).astype(np.uint8)}, tmp_path)


@pytest.mark.parametrize('padding,ceil_mode,strides', _POOL_GRID)
@pytest.mark.parametrize('count_include_pad', [0, 1])
def test_average_pool(tmp_path, padding, ceil_mode, strides, count_include_pad):
    attrs = dict(padding, kernel_shape=[3, 2], strides=strides, ceil_mode=ceil_mode,
                 count_include_pad=count_include_pad)
    model = _single('AveragePool', [('x', T.FLOAT, [2, 3, 8, 7])], [('y', T.FLOAT, None)], attrs, opset=12)
    check_model(model, {'x': _rand(2, 3, 8, 7)}, tmp_path)


@pytest.mark.parametrize('count_include_pad', [0, 1])
@pytest.mark.parametrize('padding', [{'pads': [1, 1, 1, 0]}, {}])  # onnxruntime's dilated SAME pools are off
@pytest.mark.parametrize('ceil_mode', [0, 1])
@pytest.mark.parametrize('strides', [[1, 2], [2, 3]])
def test_average_pool_dilations(tmp_path, count_include_pad, padding, ceil_mode, strides):
    attrs = dict(padding, kernel_shape=[2, 3], dilations=[2, 2], strides=strides, count_include_pad=count_include_pad,
                 ceil_mode=ceil_mode)
    model = _single('AveragePool', [('x', T.FLOAT, [1, 3, 9, 10])], [('y', T.FLOAT, None)], attrs, opset=19)
    check_model(model, {'x': _rand(1, 3, 9, 10)}, tmp_path)


@pytest.mark.parametrize('p', [1, 2, 3])
@pytest.mark.parametrize('attrs', [{'pads': [1, 0, 0, 1]}, {'auto_pad': 'SAME_UPPER', 'strides': [2, 2]},
                                   {'dilations': [2, 1]}])
def test_lp_pool(tmp_path, p, attrs):
    model = _single('LpPool', [('x', T.FLOAT, [1, 3, 7, 6])], [('y', T.FLOAT, None)],
                    dict(attrs, kernel_shape=[2, 2], p=p), opset=18)
    check_model(model, {'x': _rand(1, 3, 7, 6)}, tmp_path)


@pytest.mark.parametrize('op,attrs', [('GlobalAveragePool', {}), ('GlobalMaxPool', {}), ('GlobalLpPool', {'p': 3}),
                                      ('GlobalLpPool', {})])
@pytest.mark.parametrize('shape', [[2, 3, 5], [1, 4, 3, 5], [1, 2, 3, 4, 2]])
def test_global_pools(tmp_path, op, attrs, shape):
    model = _single(op, [('x', T.FLOAT, shape)], [('y', T.FLOAT, None)], attrs)
    check_model(model, {'x': _rand(*shape)}, tmp_path)


# ----- normalizations --------------------------------------------------------------------------------------------

@pytest.mark.parametrize('shape', [[2, 3], [2, 3, 4], [1, 3, 4, 5], [1, 3, 2, 2, 2]])
@pytest.mark.parametrize('opset', [9, 15])
def test_batch_normalization(tmp_path, shape, opset):
    c = shape[1]
    weights = {'s': _rand(c), 'b': _rand(c), 'm': _rand(c), 'v': np.abs(_rand(c)) + 0.1}
    model = _single('BatchNormalization', [('x', T.FLOAT, shape)], [('y', T.FLOAT, None)], {'epsilon': 1e-2},
                    weights, opset=opset)
    check_model(model, {'x': _rand(*shape)}, tmp_path)


def test_batch_normalization_float16(tmp_path):
    weights = {k: v.astype(np.float16) for k, v in
               {'s': _rand(3), 'b': _rand(3), 'm': _rand(3), 'v': np.abs(_rand(3)) + 0.1}.items()}
    model = _single('BatchNormalization', [('x', T.FLOAT16, [1, 3, 4, 4])], [('y', T.FLOAT16, None)], {}, weights,
                    opset=15)
    check_model(model, {'x': _rand(1, 3, 4, 4, dtype=np.float16)}, tmp_path, rtol=1e-2, atol=1e-2)


def test_instance_normalization(tmp_path):
    model = _single('InstanceNormalization', [('x', T.FLOAT, [2, 3, 4, 5])], [('y', T.FLOAT, None)],
                    {'epsilon': 1e-3}, {'s': _rand(3), 'b': _rand(3)})
    check_model(model, {'x': _rand(2, 3, 4, 5)}, tmp_path)


@pytest.mark.parametrize('axis', [-1, -2, 1, 0])
@pytest.mark.parametrize('with_bias', [True, False])
def test_layer_normalization_with_mean_and_inv_std(tmp_path, axis, with_bias):
    shape = [2, 3, 4]
    norm = shape[axis:] if axis != 0 else shape
    weights = {'s': _rand(*norm)}
    if with_bias:
        weights['b'] = _rand(*norm)
    model = _single('LayerNormalization', [('x', T.FLOAT, shape)],
                    [('y', T.FLOAT, None), ('mean', T.FLOAT, None), ('inv_std', T.FLOAT, None)],
                    {'axis': axis, 'epsilon': 1e-3}, weights)
    check_model(model, {'x': _rand(*shape)}, tmp_path)


@pytest.mark.parametrize('opset', [18, 21])
@pytest.mark.parametrize('groups', [1, 2, 4])
def test_group_normalization(tmp_path, opset, groups):
    c = 4
    affine = groups if opset == 18 else c
    model = _single('GroupNormalization', [('x', T.FLOAT, [2, c, 3, 3])], [('y', T.FLOAT, None)],
                    {'num_groups': groups, 'epsilon': 1e-3}, {'s': _rand(affine), 'b': _rand(affine)}, opset=opset)
    check_model(model, {'x': _rand(2, c, 3, 3)}, tmp_path)


@pytest.mark.parametrize('p,axis', [(1, 1), (2, 0), (2, -1), (1, -1)])
def test_lp_normalization_with_zero_rows(tmp_path, p, axis):
    x = _rand(3, 4)
    x[1, :] = 0
    x[:, 2] = 0
    model = _single('LpNormalization', [('x', T.FLOAT, [3, 4])], [('y', T.FLOAT, None)], {'p': p, 'axis': axis})
    check_model(model, {'x': x}, tmp_path)


@pytest.mark.parametrize('axes', [None, [1], [2, 3], [0, 1, 2, 3]])
def test_mean_variance_normalization(tmp_path, axes):
    model = _single('MeanVarianceNormalization', [('x', T.FLOAT, [2, 3, 4, 5])], [('y', T.FLOAT, None)],
                    {} if axes is None else {'axes': axes})
    check_model(model, {'x': _rand(2, 3, 4, 5)}, tmp_path)


@pytest.mark.parametrize('size', [1, 3, 5])  # onnxruntime takes odd sizes only
def test_lrn(tmp_path, size):
    model = _single('LRN', [('x', T.FLOAT, [1, 6, 3, 3])], [('y', T.FLOAT, None)],
                    {'size': size, 'alpha': 1e-2, 'beta': 0.6, 'bias': 2.0})
    check_model(model, {'x': _rand(1, 6, 3, 3)}, tmp_path)


# ----- Dropout ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('opset', [12, 13])
def test_dropout_mask(tmp_path, opset):
    outputs = [('y', T.FLOAT, None), ('mask', T.BOOL, None)]
    model = _single('Dropout', [('x', T.FLOAT, [2, 3])], outputs, opset=opset)
    check_model(model, {'x': _rand(2, 3)}, tmp_path)


@pytest.mark.parametrize('opset,mask_type', [(7, T.FLOAT), (10, T.BOOL), (12, T.BOOL)])
def test_dropout_mask_is_all_kept(tmp_path, opset, mask_type):
    """The spec's inference mask: all kept (onnxruntime gives all false before opset 12, the reference all true);
    ones of the data's type before opset 10."""
    from tests.onnx.onnx_oracle import run_ir
    node = helper.make_node('Dropout', ['x', 'r', 't'] if opset >= 12 else ['x'], ['y', 'mask'],
                            **({'ratio': 0.3} if opset < 12 else {}))
    weights = {'r': np.array(0.0, np.float32), 't': np.array(True)} if opset >= 12 else {}
    model = make_model([node], [('x', T.FLOAT, [2, 3])], [('y', T.FLOAT, None), ('mask', mask_type, None)], weights,
                       opset=opset)
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model')
    x = _rand(2, 3)
    y, mask = run_ir(result.xml_path, {'x': x}, ['y', 'mask'])
    np.testing.assert_array_equal(y, x)
    expected = np.ones((2, 3), np.float32 if mask_type == T.FLOAT else np.bool_)
    assert mask.dtype == expected.dtype
    np.testing.assert_array_equal(mask, expected)


def test_dropout_training_mode_is_an_error(tmp_path):
    node = helper.make_node('Dropout', ['x', 'r', 't'], ['y'])
    model = make_model([node], [('x', T.FLOAT, [2, 3])], [('y', T.FLOAT, None)],
                       {'r': np.array(0.5, np.float32), 't': np.array(True)}, opset=13)
    with pytest.raises(mo.Error, match='Dropout "y".*training_mode'):
        mo.convert_model(model, output_dir=str(tmp_path))


# ----- Resize ----------------------------------------------------------------------------------------------------

_RESIZE_GRID = [
    # (opset, attrs, scales or None, sizes or None)
    (10, {'mode': 'nearest'}, [1, 1, 2, 3], None),
    (10, {'mode': 'linear'}, [1, 1, 2, 1.5], None),
    (11, {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric', 'nearest_mode': 'ceil'}, [1, 1, 1.5, 2],
     None),
    (11, {'mode': 'linear', 'coordinate_transformation_mode': 'pytorch_half_pixel'}, None, [1, 2, 7, 1]),
    (11, {'mode': 'linear', 'coordinate_transformation_mode': 'align_corners'}, None, [1, 2, 7, 9]),
    (13, {'mode': 'cubic', 'cubic_coeff_a': -0.5}, [1, 1, 0.5, 2], None),
    (13, {'mode': 'nearest', 'coordinate_transformation_mode': 'tf_half_pixel_for_nn'}, [1, 1, 1.7, 0.6], None),
    (18, {'mode': 'linear', 'axes': [3, 2]}, [2, 0.5], None),
    (18, {'mode': 'nearest', 'axes': [2, 3], 'keep_aspect_ratio_policy': 'not_larger'}, None, [9, 9]),
    # not_smaller: 4x6 -> scale 2 -> 8x12 (where the kept size is not the input's times the scale, OpenVINO maps the
    # coordinates with the size ratio rather than ONNX's common scale)
    (18, {'mode': 'nearest', 'axes': [2, 3], 'keep_aspect_ratio_policy': 'not_smaller'}, None, [8, 9]),
    (18, {'mode': 'linear', 'antialias': 1}, [1, 1, 2, 3], None),
    (19, {'mode': 'linear', 'coordinate_transformation_mode': 'half_pixel_symmetric'}, None, [1, 2, 5, 3]),
    (19, {'mode': 'linear', 'coordinate_transformation_mode': 'half_pixel_symmetric'}, [1, 1, 0.6, 1.7], None),
    (19, {'mode': 'nearest', 'coordinate_transformation_mode': 'half_pixel_symmetric'}, [1, 1, 1.3, 0.4], None),
    (19, {'mode': 'cubic', 'coordinate_transformation_mode': 'half_pixel_symmetric'}, [1, 1, 2, 3], None),
]


@pytest.mark.parametrize('opset,attrs,scales,sizes', _RESIZE_GRID)
def test_resize(tmp_path, opset, attrs, scales, sizes):
    weights = {}
    if opset == 10:
        names = ['x', 'scales']
        weights['scales'] = np.array(scales, np.float32)
    else:
        names = ['x', 'roi' if opset == 11 else '', 'scales' if scales is not None else '',
                 'sizes' if sizes is not None else '']
        if opset == 11:  # roi is required in opset 11; an empty scales input means "sizes"
            weights['roi'] = np.zeros(0, np.float32)
            names[2] = 'scales'
            weights['scales'] = np.array(scales if scales is not None else [], np.float32)
        if scales is not None and opset != 11:
            weights['scales'] = np.array(scales, np.float32)
        if sizes is not None:
            weights['sizes'] = np.array(sizes, np.int64)
    node = helper.make_node('Resize', [n for n in names], ['y'], **attrs)
    model = make_model([node], [('x', T.FLOAT, [1, 2, 4, 6])], [('y', T.FLOAT, None)], weights, opset=opset)
    check_model(model, {'x': _rand(1, 2, 4, 6)}, tmp_path)


@pytest.mark.parametrize('mode,nearest_mode', [('linear', 'round_prefer_floor'), ('nearest', 'round_prefer_floor'),
                                               ('nearest', 'round_prefer_ceil'), ('nearest', 'floor'),
                                               ('nearest', 'ceil')])
@pytest.mark.parametrize('axes,roi,target', [
    (None, [0, 0, 0.2, 0.1, 1, 1, 0.9, 1.4], ('sizes', [1, 2, 5, 4])),
    ([3, 2], [-0.2, 0.3, 0.8, 0.7], ('sizes', [1, 3])),
    (None, [0, 0, 0.1, 0.2, 1, 1, 0.6, 0.9], ('scales', [1, 1, 1.5, 0.5])),
])
def test_resize_tf_crop_and_resize(tmp_path, mode, nearest_mode, axes, roi, target):
    kind, values = target
    names = ['x', 'roi', 'scales' if kind == 'scales' else '', 'sizes' if kind == 'sizes' else '']
    attrs = dict(mode=mode, nearest_mode=nearest_mode, coordinate_transformation_mode='tf_crop_and_resize',
                 extrapolation_value=-3.0)
    if axes is not None:
        attrs['axes'] = axes
    node = helper.make_node('Resize', names, ['y'], **attrs)
    weights = {'roi': np.array(roi, np.float32), kind: np.array(values, np.float32 if kind == 'scales' else np.int64)}
    model = make_model([node], [('x', T.FLOAT, [1, 2, 4, 6])], [('y', T.FLOAT, None)], weights, opset=18)
    check_model(model, {'x': _rand(1, 2, 4, 6)}, tmp_path)


def test_resize_opset11_empty_scales_uses_sizes(tmp_path):
    node = helper.make_node('Resize', ['x', 'roi', 'scales', 'sizes'], ['y'], mode='nearest')
    weights = {'roi': np.zeros(0, np.float32), 'scales': np.zeros(0, np.float32),
               'sizes': np.array([1, 2, 8, 3], np.int64)}
    model = make_model([node], [('x', T.FLOAT, [1, 2, 4, 6])], [('y', T.FLOAT, None)], weights, opset=11)
    check_model(model, {'x': _rand(1, 2, 4, 6)}, tmp_path)


@pytest.mark.parametrize('mode', ['nearest', 'linear'])
def test_upsample(tmp_path, mode):
    node = helper.make_node('Upsample', ['x', 'scales'], ['y'], mode=mode)
    model = make_model([node], [('x', T.FLOAT, [1, 2, 3, 4])], [('y', T.FLOAT, None)],
                       {'scales': np.array([1, 1, 2, 2.5], np.float32)}, opset=9)
    check_model(model, {'x': _rand(1, 2, 3, 4)}, tmp_path)


@pytest.mark.parametrize('attrs,message', [({'mode': 'cubic', 'exclude_outside': 1}, 'exclude_outside'),
                                           ({'mode': 'linear', 'antialias': 1}, 'antialias')])
def test_resize_unsupported_is_an_error(tmp_path, attrs, message):
    node = helper.make_node('Resize', ['x', '', 'scales'], ['y'], **attrs)
    model = make_model([node], [('x', T.FLOAT, [1, 1, 4, 4])], [('y', T.FLOAT, None)],
                       {'scales': np.array([1, 1, 0.5, 2], np.float32)}, opset=18)
    with pytest.raises(mo.Error, match=message):
        mo.convert_model(model, output_dir=str(tmp_path))


# ----- losses ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('op', ['NegativeLogLikelihoodLoss', 'SoftmaxCrossEntropyLoss'])
@pytest.mark.parametrize('reduction', ['none', 'sum', 'mean'])
@pytest.mark.parametrize('weighted', [False, True])
@pytest.mark.parametrize('ignore_index', [None, 1, -1])
@pytest.mark.parametrize('dtype', [T.FLOAT, T.DOUBLE])
def test_losses(tmp_path, op, reduction, weighted, ignore_index, dtype):
    np_type = _NP[dtype]
    attrs = {'reduction': reduction}
    if ignore_index is not None:
        attrs['ignore_index'] = ignore_index
    target = RNG.integers(0, 4, (2, 3)).astype(np.int64)
    if ignore_index is not None:
        target[0, 1] = ignore_index
    inputs = [('x', dtype, [2, 4, 3]), ('t', T.INT64, [2, 3])]
    weights = {'w': np.abs(_rand(4, dtype=np_type)) + 0.1} if weighted else {}
    model = _single(op, inputs, [('y', dtype, None)], attrs, weights, opset=13)
    check_model(model, {'x': _rand(2, 4, 3, dtype=np_type), 't': target}, tmp_path)


# ----- transformer ops -------------------------------------------------------------------------------------------

_ATTENTION_GRID = [
    # (rank, q heads, kv heads, attrs, mask: None / 'bool' / 'float' / 'computed', with past)
    (3, 4, 2, {}, None, False),
    (3, 4, 4, {'is_causal': 1}, None, True),
    (3, 4, 1, {'scale': 0.3, 'softcap': 2.0}, 'float', True),
    (4, 4, 2, {'is_causal': 1}, 'bool', True),
    # (onnxruntime writes a boolean mask's -inf as the lowest float in the mode-2 output: compare mode 3)
    (4, 2, 2, {'qk_matmul_output_mode': 3}, 'computed', False),
    (4, 2, 2, {'qk_matmul_output_mode': 2}, 'float', False),
    (4, 2, 2, {'qk_matmul_output_mode': 3, 'is_causal': 1}, 'float', False),
]


@pytest.mark.parametrize('rank,q_heads,kv_heads,attrs,mask,past', _ATTENTION_GRID)
def test_attention(tmp_path, rank, q_heads, kv_heads, attrs, mask, past):
    batch, q_len, kv_len, past_len, head = 2, 3, 5, 2, 4
    total = kv_len + past_len if past else kv_len

    def info(name, heads, length):
        return (name, T.FLOAT, [batch, length, heads * head] if rank == 3 else [batch, heads, length, head])
    inputs = [info('q', q_heads, q_len), info('k', kv_heads, kv_len), info('v', kv_heads, kv_len)]
    feeds = {name: _rand(*shape) for name, _, shape in inputs}
    nodes, names = [], ['q', 'k', 'v', '', '', '']
    if mask == 'computed':  # a boolean mask computed by the graph: Less(m, 0.5)
        inputs.append(('m', T.FLOAT, [q_len, total]))
        feeds['m'] = RNG.random((q_len, total)).astype(np.float32)
        nodes.append(helper.make_node('Less', ['m', 'half'], ['mask']))
        names[3] = 'mask'
    elif mask is not None:
        inputs.append(('mask', T.BOOL if mask == 'bool' else T.FLOAT, [q_len, total]))
        feeds['mask'] = RNG.random((q_len, total)) < 0.7 if mask == 'bool' else _rand(q_len, total)
        names[3] = 'mask'
    if past:
        for name in ('past_k', 'past_v'):
            inputs.append((name, T.FLOAT, [batch, kv_heads, past_len, head]))
            feeds[name] = _rand(batch, kv_heads, past_len, head)
        names[4:6] = ['past_k', 'past_v']
    if rank == 3:
        attrs = dict(attrs, q_num_heads=q_heads, kv_num_heads=kv_heads)
    # with softcap, ONNX's reference (the backend suite's expected outputs, which mo follows) soft-caps the mode-0
    # scores and onnxruntime does not: leave that output out
    outputs = ['y', 'present_k' if past else '', 'present_v' if past else '', '' if 'softcap' in attrs else 'qk']
    node = helper.make_node('Attention', [n for n in names], outputs, **attrs)
    model = make_model(nodes + [node], inputs, [(o, T.FLOAT, None) for o in outputs if o],
                       {'half': np.array(0.5, np.float32)} if mask == 'computed' else {}, opset=23)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('rank', [3, 4])
@pytest.mark.parametrize('interleaved', [0, 1])
@pytest.mark.parametrize('rotary_dim', [0, 4])
@pytest.mark.parametrize('with_positions', [True, False])
def test_rotary_embedding(tmp_path, rank, interleaved, rotary_dim, with_positions):
    batch, seq, heads, head = 2, 3, 2, 8
    half = (rotary_dim or head) // 2
    shape = [batch, seq, heads * head] if rank == 3 else [batch, heads, seq, head]
    cache = [10, half] if with_positions else [batch, seq, half]
    inputs = [('x', T.FLOAT, shape), ('c', T.FLOAT, cache), ('s', T.FLOAT, cache)]
    feeds = {'x': _rand(*shape), 'c': _rand(*cache), 's': _rand(*cache)}
    if with_positions:
        inputs.append(('p', T.INT64, [batch, seq]))
        feeds['p'] = RNG.integers(0, 10, (batch, seq)).astype(np.int64)
    attrs = {'interleaved': interleaved, 'rotary_embedding_dim': rotary_dim}
    if rank == 3:
        attrs['num_heads'] = heads
    model = _single('RotaryEmbedding', inputs, [('y', T.FLOAT, None)], attrs, opset=23)
    check_model(model, feeds, tmp_path)


@pytest.mark.parametrize('case', ['test_batchnorm_example_training_mode', 'test_batchnorm_epsilon_training_mode'])
def test_batch_normalization_training_mode(tmp_path, case):
    """training_mode=1 (batch statistics, running mean and variance) against the backend suite's expected outputs
    (the suite excludes these cases as training-only; they are deterministic, and mo converts them)."""
    from tests.onnx.backend_suite import load_cases, run_case
    run_case(load_cases(('node',))[case], str(tmp_path))
