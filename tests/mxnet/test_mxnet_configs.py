"""The shipped MXNet transformation config, configs/yolo_v3_mobilenet1_voc.json (the Model Optimizer's, id
TFYOLOV3), on GluonCV's YOLOv3 export: its three output layers become RegionYolo, whose outputs must be what MXNet
computes inside those layers (tools/mxnet_fixture_options.py wrote them, gluoncv_yolo3.heads.npz)."""
import json

import numpy as np
import openvino as ov

from tests.mxnet.test_mxnet_convert import FIXTURES, ROOT, _mo, _one_error, input_option, reference, run_ir

SHIPPED = ROOT / 'configs' / 'yolo_v3_mobilenet1_voc.json'


def _config_for_fixture(tmp_path, **changes):
    """The shipped config for the fixture's 3 classes (its anchors and masks are YOLOv3's, as the fixture's)."""
    config = json.loads(SHIPPED.read_text())
    config[0]['custom_attributes'].update(classes=3, **changes)
    path = tmp_path / 'yolo_v3.json'
    path.write_text(json.dumps(config))
    return path


def test_shipped_yolo_v3_config_gives_region_yolo_outputs_as_mxnet_computes_them(tmp_path):
    inputs, _ = reference('gluoncv_yolo3')
    heads = np.load(FIXTURES / 'gluoncv_yolo3.heads.npz')
    out = tmp_path / 'out'
    result = _mo('--input_model', FIXTURES / 'gluoncv_yolo3-0000.params', '--input', input_option(inputs),
                 '--transformations_config', _config_for_fixture(tmp_path), '--output_dir', out)
    assert result.returncode == 0, result.stderr
    xml = out / 'gluoncv_yolo3-0000.xml'
    model = ov.Core().read_model(str(xml))
    names = ['yolov30_yolooutputv3{}_conv0_fwd/YoloRegion'.format(k) for k in range(3)]
    producers = {name: output.get_node().input_value(0).get_node() for output in model.outputs
                 for name in output.get_names()}
    assert len(model.outputs) == 3 and all(producers[name].get_type_name() == 'RegionYolo' for name in names)
    # the masks go to the output layers in the entry points' order (stride 32 first: the largest anchors)
    assert [list(producers[name].get_attributes()['mask']) for name in names] == [[6, 7, 8], [3, 4, 5], [0, 1, 2]]
    got = run_ir(xml, inputs, names)
    for k, actual in enumerate(got):
        want = heads['region:{}'.format(k)]
        assert actual.shape == want.shape, (k, actual.shape, want.shape)
        np.testing.assert_allclose(actual, want, rtol=1e-4, atol=1e-5, err_msg='output layer {}'.format(k))


def test_entry_points_the_model_lacks_are_one_error(tmp_path):
    config = _config_for_fixture(tmp_path, entry_points=['yolov30_yolooutputv30_reshape0', 'no_such_node',
                                                         'yolov30_yolooutputv32_reshape0'])
    result = _mo('--input_model', FIXTURES / 'gluoncv_yolo3-0000.params', '--input', 'data[1,3,64,64]',
                 '--transformations_config', config, '--output_dir', tmp_path / 'out')
    _one_error(result, 'no_such_node', 'entry_points')
    assert not (tmp_path / 'out').exists()
