"""Conversions with --transformations_config: shipped configs, op-only descriptions, the seeds'
examples as a user's extension directory; numbers checked against TensorFlow or numpy."""
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from mo.main import main
from mo.utils.config_update import update_config
from tests.config.conftest import EXT, convert_with, loaded_graph, shipped, write_json
from tests.support.oracles import compile_openvino, run_tf

SCOPES = ['.*InceptionV4/Mixed_5b', '.*InceptionV4/Mixed_5c', '.*InceptionV4/Mixed_5d']


def run_ov(xml_path, feeds):
    """OpenVINO's outputs by every name of each output tensor (a TF tensor's ``op:0`` also by ``op``); ``feeds``
    by TF op name."""
    compiled = compile_openvino(xml_path)
    names = {n for port in compiled.inputs for n in port.get_names()}
    feeds = {(k + ':0' if k not in names and k + ':0' in names else k): v for k, v in feeds.items()}
    result = compiled.create_infer_request().infer(feeds)
    return {alias: np.array(result[port]) for port in compiled.outputs for name in port.get_names()
            for alias in ((name, name[:-2]) if name.endswith(':0') else (name,))}, \
        [np.array(result[port]) for port in compiled.outputs]


def feed(record, seed=0):
    return {'input': np.random.default_rng(seed).uniform(-1, 1, record.inputs[0].shape).astype(np.float32)}


def layers(xml_path, type_=None):
    root = ET.parse(str(xml_path)).getroot()
    return [l for l in root.iter('layer') if type_ is None or l.get('type') == type_]


def dims(port):
    return [int(d.text) for d in port.iter('dim')]


# ----- scope + op: a custom layer ---------------------------------------------------------------
@pytest.mark.ir_not_compiled('a custom layer (opset "extension") OpenVINO runs only with its extension')
@pytest.mark.parametrize('with_seed_op', [False, True], ids=['op-only', 'seed-InceptionBlock-op'])
def test_inception_blocks_become_custom_layers(inception, tmp_path, with_seed_op):
    record, pb = inception
    path = write_json(tmp_path / 'inception.json', [{
        'custom_attributes': {'attr1_key': 'attr1_value', 'attr2_key': 123456}, 'id': 'InceptionBlockReplacer',
        'op': 'InceptionBlock', 'instances': SCOPES, 'match_kind': 'scope'}])
    update_config(loaded_graph(pb), path)
    args = ['convert', '--input_model', pb, '--output_dir', str(tmp_path / 'ir'), '--transformations_config', path]
    if with_seed_op:
        args += ['--extensions', EXT]
    assert main(args) == 0
    xml_path = tmp_path / 'ir' / 'inception_blocks.xml'
    blocks = layers(xml_path, 'InceptionBlock')
    assert [b.get('name') for b in blocks] == record.meta['scopes']
    for block in blocks:
        assert block.get('version') == 'extension'
        assert block.find('data').attrib == {'attr1_key': 'attr1_value', 'attr2_key': '123456'}
        (in_port,) = block.find('input').findall('port')
        (out_port,) = block.find('output').findall('port')
        # the shapes of the replaced sub-graph (NHWC, as the graph keeps TF's layout)
        assert dims(in_port) == [1, 9, 9, 32] and dims(out_port) == [1, 9, 9, 32]
        assert out_port.get('precision') == 'FP32'
    names = [l.get('name') for l in layers(xml_path)]
    assert not [n for n in names if any(n.startswith(s + '/') for s in record.meta['scopes'])]
    # the blocks are chained: 5b -> 5c -> 5d
    root = ET.parse(str(xml_path)).getroot()
    ids = {l.get('id'): l.get('name') for l in root.iter('layer')}
    edges = {(ids[e.get('from-layer')], ids[e.get('to-layer')]) for e in root.iter('edge')}
    assert ('InceptionV4/Mixed_5b', 'InceptionV4/Mixed_5c') in edges and ('InceptionV4/Mixed_5c',
                                                                          'InceptionV4/Mixed_5d') in edges


def test_op_replacement_removes_exactly_the_matched_nodes(inception, tmp_path):
    from mo.graph.graph import Graph
    from mo.utils.class_registration import pipeline
    from mo.pipeline.runner import apply_replacements
    record, pb = inception
    path = write_json(tmp_path / 'inception.json', [{'id': 'X', 'op': 'InceptionBlock', 'instances': SCOPES,
                                                     'match_kind': 'scope'}])
    graph = Graph(cmd_params={'input_model': pb, 'transformations_config': path}, source_format='tf', layout='NHWC')
    infos = pipeline(['load', 'front'])
    upto = [i.id for i in infos].index('ConfigOpReplacer')
    apply_replacements(graph, infos[:upto])
    before = {d['name'] for _, d in graph.nodes(data=True)}
    apply_replacements(graph, infos[upto:upto + 1])
    after = {d['name'] for _, d in graph.nodes(data=True)}
    in_scopes = {n for n in before if any(n.startswith(s + '/') for s in record.meta['scopes'])}
    assert before - after == in_scopes
    assert after - before == set(record.meta['scopes'])


def test_unknown_id_is_one_error_line(inception, tmp_path, capsys):
    _, pb = inception
    path = write_json(tmp_path / 'c.json', [{'id': 'NoSuchReplacer', 'match_kind': 'scope', 'instances': SCOPES}])
    assert main(['convert', '--input_model', pb, '--output_dir', str(tmp_path / 'ir'),
                 '--transformations_config', path]) == 1
    err = capsys.readouterr().err
    assert '[ ERROR ]' in err and 'no replacer has replacement_id "NoSuchReplacer"' in err and 'c.json [0]' in err
    assert 'Traceback' not in err and not (tmp_path / 'ir' / 'inception_blocks.xml').exists()


# ----- shipped configs --------------------------------------------------------------------------
def test_shipped_inception_branch_fusion_computes_the_same(inception, tmp_path):
    record, pb = inception
    _, plain = convert_with(pb, tmp_path / 'plain')
    _, fused = convert_with(pb, tmp_path / 'fused', shipped('inception_block.json', tmp_path))
    assert len(layers(fused, 'Convolution')) == len(layers(plain, 'Convolution')) - 6
    assert len(layers(fused, 'VariadicSplit')) == 3
    feeds = feed(record)
    expected = run_tf(record.graph_def, feeds, list(record.outputs))[0]
    np.testing.assert_allclose(run_ov(fused, feeds)[1][0], expected, rtol=1e-4, atol=1e-5)


def valid_rows(detections):
    """The rows before the first one with image_id -1 (the end marker)."""
    rows = detections.reshape(-1, 7)
    ends = np.flatnonzero(rows[:, 0] < 0)
    return rows[:ends[0]] if len(ends) else rows


def tf_ssd(record, feeds):
    boxes, scores, count = run_tf(record.graph_def, feeds, list(record.outputs))
    return boxes[0], scores[0], count


def candidates(boxes, scores):
    """Every (label, score, xmin, ymin, xmax, ymax) TF's post-processor leads to, background excluded."""
    rows = []
    for i, (ymin, xmin, ymax, xmax) in enumerate(boxes):
        for c, s in enumerate(scores[i]):
            rows.append((c + 1, s, xmin, ymin, xmax, ymax))
    return np.array(rows, np.float64)


def test_ssd_detection_output_decodes_like_tensorflow(ssd, tmp_path):
    """With NMS and thresholds off DetectionOutput returns every (box, class): exactly TF's set."""
    record, pb = ssd
    path = shipped('ssd_postprocessor.json', tmp_path)
    data = json.load(open(path))
    data[0]['custom_attributes'].update(nms_threshold=1.0, confidence_threshold=0.0, top_k=-1, keep_top_k=[-1],
                                        clip_after_nms=False)
    write_json(path, data)
    _, xml_path = convert_with(pb, tmp_path / 'ir', path)
    (detection,) = layers(xml_path, 'DetectionOutput')
    assert detection.get('version') == 'opset8'
    feeds = feed(record)
    out = run_ov(xml_path, feeds)[1]
    assert len(out) == 1  # the detections replace the three post-processor outputs
    assert out[0].shape == (1, 1, record.meta['num_boxes'] * (record.meta['num_classes'] + 1), 7)
    rows = valid_rows(out[0])
    boxes, scores, _ = tf_ssd(record, feeds)
    expected = candidates(boxes, scores)
    assert len(rows) == len(expected) == record.meta['num_boxes'] * record.meta['num_classes']
    key = lambda a: np.lexsort(np.round(a, 4).T[::-1])  # noqa: E731
    np.testing.assert_allclose(rows[key(rows[:, 1:])][:, 1:], expected[key(expected)], atol=2e-5)


def test_ssd_shipped_config_keeps_tensorflow_detections(ssd, tmp_path):
    record, pb = ssd
    _, xml_path = convert_with(pb, tmp_path / 'ir', shipped('ssd_postprocessor.json', tmp_path))
    feeds = feed(record, seed=1)
    named, out = run_ov(xml_path, feeds)
    assert 'detection_boxes' in named and out[0].shape == (1, 1, 100, 7)
    rows = valid_rows(out[0])
    boxes, scores, _ = tf_ssd(record, feeds)
    expected = candidates(np.clip(boxes, 0, 1), scores)
    assert 0 < len(rows) <= 100
    for row in rows:  # every detection is one of TF's (clipped) boxes with its class score
        close = np.all(np.abs(expected - row[1:]) < 2e-5, axis=1)
        assert close.any(), row
    assert np.isclose(rows[:, 2].max(), scores.max(), atol=1e-6)  # the best one survives NMS


def region_yolo_reference(nhwc, classes, coords, num):
    """RegionYolo-1 with do_softmax = 1 on NCHW data: sigmoid on x, y and the objectness, softmax
    over each region's class scores, w and h as they are; flattened from axis 1."""
    data = nhwc.transpose(0, 3, 1, 2).astype(np.float64)
    n, _, h, w = data.shape
    data = data.reshape(n, num, coords + 1 + classes, h, w).copy()
    sigmoid = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    data[:, :, 0:2] = sigmoid(data[:, :, 0:2])
    data[:, :, coords] = sigmoid(data[:, :, coords])
    scores = data[:, :, coords + 1:]
    e = np.exp(scores - scores.max(axis=2, keepdims=True))
    data[:, :, coords + 1:] = e / e.sum(axis=2, keepdims=True)
    return data.reshape(n, -1)


@pytest.mark.parametrize('seed_extension', [False, True], ids=['builtin', 'seed-YoloRegionAddon'])
def test_yolo_region(yolo, tmp_path, seed_extension):
    record, pb = yolo
    _, xml_path = convert_with(pb, tmp_path / 'ir', shipped('yolo_region.json', tmp_path),
                               extensions=EXT if seed_extension else None)
    (region,) = layers(xml_path, 'RegionYolo')
    attrs = region.find('data').attrib
    assert (attrs['classes'], attrs['coords'], attrs['num'], attrs['do_softmax']) == ('3', '4', '2', '1')
    assert attrs['anchors'] == '1.08,1.19,3.42,4.41'
    assert dims(region.find('input').find('port')) == [1, 16, 8, 8]  # channels first, as RegionYolo reads it
    if seed_extension:
        from mo.utils.class_registration import pipeline
        builtin = [i for i in pipeline() if i.cls.__name__ == 'YoloRegionReplacement'][0]
        assert not builtin.enabled and 'YoloRegionAddon' in builtin.reason
    feeds = feed(record)
    head = run_tf(record.graph_def, feeds, ['output'])[0]
    cfg = record.meta['region_yolo']
    expected = region_yolo_reference(head, cfg['classes'], cfg['coords'], cfg['num'])
    np.testing.assert_allclose(run_ov(xml_path, feeds)[1][0], expected, rtol=1e-4, atol=1e-5)


def test_seed_style_points_replacer_from_an_extension(ssd, tmp_path):
    record, pb = ssd
    path = write_json(tmp_path / 'scores.json', [{
        'id': 'ScoreConverterReplacement', 'match_kind': 'points', 'custom_attributes': {'logit_scale': 2.0},
        'instances': {'start_points': ['Postprocessor/scale_logits'], 'end_points': ['Postprocessor/convert_scores']},
        'include_inputs_to_sub_graph': True, 'include_outputs_to_sub_graph': True}])
    graph, xml_path = convert_with(pb, tmp_path / 'ir', path, extensions=EXT)
    names = [l.get('name') for l in layers(xml_path)]
    assert 'scores/sigmoid' in names and 'Postprocessor/convert_scores' not in names
    feeds = feed(record)
    named, _ = run_ov(xml_path, feeds)
    for name, expected in zip(record.outputs, run_tf(record.graph_def, feeds, list(record.outputs))):
        np.testing.assert_allclose(named[name], expected, rtol=1e-5, atol=1e-6)


@pytest.mark.ir_not_compiled('a custom layer (opset "extension") OpenVINO runs only with its extension')
def test_front_replacement_from_config_file_op_subclass(inception, tmp_path):
    """A FrontReplacementFromConfigFileOp subclass claims the id and builds the description's op."""
    from mo.front.tf.replacement import FrontReplacementFromConfigFileOp

    class InceptionBlockOpReplacer(FrontReplacementFromConfigFileOp):
        replacement_id = 'InceptionBlockReplacer'

    record, pb = inception
    path = write_json(tmp_path / 'c.json', [{'id': 'InceptionBlockReplacer', 'op': 'InceptionBlock',
                                             'instances': SCOPES[1:], 'match_kind': 'scope',
                                             'custom_attributes': {'flag': True}}])
    graph, xml_path = convert_with(pb, tmp_path / 'ir', path)
    blocks = layers(xml_path, 'InceptionBlock')
    assert [b.get('name') for b in blocks] == record.meta['scopes'][1:]
    assert blocks[0].find('data').attrib == {'flag': 'true'}
    assert dims(blocks[0].find('output').find('port')) == [1, 9, 9, 32]
