"""GluonCV's ``export_block`` outputs converted by ``mo convert`` and run in OpenVINO, against MXNet's own run of
the exported files (tools/mxnet_fixture_files.py wrote them): with ``preprocess=True, layout='HWC'`` the graph
starts with GluonCV's normalisation and a transpose, and the IR keeps that NHWC image input and the normalisation
with no ``--layout`` or ``--mean_values``; with ``preprocess=None, layout='CHW'`` the input stays NCHW."""
import numpy as np
import openvino as ov
import pytest

from tests.mxnet.test_mxnet_convert import FIXTURES, _mo, head_names, reference, run_ir

#: GluonCV's default preprocessing (``gluoncv.utils.export_helper._DefaultPreprocess``, documented in
#: ``export_block``): RGB images in 0..255 minus this mean, divided by this std, per channel
GLUONCV_MEAN = [123.675, 116.28, 103.53]
GLUONCV_STD = [58.395, 57.12, 57.375]


def _convert(name: str, shape: str, folder):
    result = _mo('--input_model', FIXTURES / (name + '-0000.params'), '--input', 'data[{}]'.format(shape),
                 '--output_dir', folder)
    assert result.returncode == 0, result.stderr
    (xml,) = folder.glob('*.xml')
    return xml


def _assert_matches(xml, name: str, ref_file: str = None):
    if ref_file is None:
        inputs, expected = reference(name)
    else:
        ref = np.load(FIXTURES / ref_file)
        inputs, expected = {'data': ref['in:data']}, [ref['out:{}'.format(i)] for i in range(len(ref.files) - 1)]
    got = run_ir(xml, inputs, head_names(name))
    assert len(got) == len(expected)
    for index, (actual, want) in enumerate(zip(got, expected)):
        assert actual.shape == want.shape, (index, actual.shape, want.shape)
        np.testing.assert_allclose(actual, want, rtol=1e-4, atol=1e-5, err_msg='output {}'.format(index))


@pytest.mark.parametrize('name, shape', [('gluoncv_export_hwc', '1,32,32,3'), ('gluoncv_ssd_hwc', '1,64,64,3'),
                                         ('gluoncv_export_chw', '1,3,32,32')])
def test_export_block_output_keeps_its_input_layout_and_matches_mxnet(name, shape, tmp_path):
    xml = _convert(name, shape, tmp_path)
    model = ov.Core().read_model(xml)
    assert [(port.get_any_name(), port.get_partial_shape().to_shape()) for port in model.inputs] == \
        [('data', ov.Shape([int(d) for d in shape.split(',')]))]
    _assert_matches(xml, name)


def test_an_hwc_export_converts_with_batch_height_and_width_left_open(tmp_path):
    xml = _convert('gluoncv_export_hwc', '?,?,?,3', tmp_path)
    (port,) = ov.Core().read_model(xml).inputs
    assert str(port.get_partial_shape()) == '[?,?,?,3]'
    _assert_matches(xml, 'gluoncv_export_hwc')                                 # 1x32x32x3
    _assert_matches(xml, 'gluoncv_export_hwc', 'gluoncv_export_hwc.ref1.npz')  # 2x24x40x3


def _constant_operand(node):
    """The values of ``node``'s one Constant input (through a Convert of a compressed constant)."""
    values = []
    for port in node.inputs():
        source = port.get_source_output().get_node()
        if source.get_type_name() == 'Convert':
            source = source.input_value(0).get_node()
        if source.get_type_name() == 'Constant':
            values.append(source.get_data())
    assert len(values) == 1, node
    return values[0]


def _only_consumer(node):
    (target,) = [port.get_node() for port in node.output(0).get_target_inputs()]
    return target


@pytest.mark.parametrize('name, shape', [('gluoncv_export_hwc', '1,32,32,3'), ('gluoncv_ssd_hwc', '1,64,64,3')])
def test_the_hwc_input_is_normalised_then_transposed_inside_the_ir(name, shape, tmp_path):
    """No --mean_values/--scale_values/--layout given: GluonCV's mean and std, read from the .params, stay in the
    IR as the first ops on the image's channel axis, before the transpose to NCHW that feeds the network."""
    model = ov.Core().read_model(_convert(name, shape, tmp_path))
    (parameter,) = model.get_parameters()
    node = _only_consumer(parameter)
    assert node.get_type_name() == 'Subtract'
    np.testing.assert_allclose(_constant_operand(node).reshape(-1), GLUONCV_MEAN, rtol=1e-6)
    node = _only_consumer(node)
    assert node.get_type_name() in ('Divide', 'Multiply')
    scale = _constant_operand(node).reshape(-1)
    np.testing.assert_allclose(scale if node.get_type_name() == 'Divide' else 1 / scale, GLUONCV_STD, rtol=1e-6)
    node = _only_consumer(node)
    assert node.get_type_name() == 'Transpose'
    assert list(_constant_operand(node)) == [0, 3, 1, 2]
