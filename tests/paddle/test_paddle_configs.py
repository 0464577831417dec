"""``--transformations_config`` on Paddle models (issue 40): descriptions address Paddle's var names (the classic
program's ``tmp_3``, ``reciprocal_0.tmp_0``, ``yolo_box_0.tmp_0``; PIR's value ids ``%186``), a var standing for
the op that writes it, as an ONNX tensor name does. The replacers come from a user's ``--extensions`` directory
(``config_ext/front/paddle``):

- ``points`` + ``SteepSigmoid``: the DB text detector's binarisation ``1 / (1 + exp(-50 (P - T)))``, written
  out as scale/exp/scale/reciprocal, becomes ``Sigmoid(50 (P - T))``; Paddle Inference's numbers still hold;
- ``general`` + ``OutputSoftmax``: a segmentation net's logits output (named by its fetch var) gets a softmax;
  the reference is numpy's softmax of what Paddle computed;
- ``points`` + ``DistributionIntegral``: a PP-YOLOE head's box decoding (softmax over the distance bins, the
  integral as a 1x1 conv of fixed weights, squeeze) becomes SoftMax, Multiply, ReduceSum at both levels.
"""
import json
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tests.paddle.convert_support import (FIXTURES, HERE, assert_close, convert, export, infer_models, reference,
                                          run_ir)

EXT = os.path.join(HERE, 'config_ext')
CLASSIC = os.path.join(FIXTURES, 'p26_models')


@pytest.fixture(scope='module')
def classic_refs(tmp_path_factory):
    return infer_models(tmp_path_factory.mktemp('config_refs'), CLASSIC, ['ocr_det', 'seg_net', 'ppyoloe_head'])


@pytest.fixture(scope='module')
def pir_dir(tmp_path_factory):
    return export(tmp_path_factory.mktemp('config_pir'), 'pir', ['ocr_det'])


def write_config(path, items):
    with open(str(path), 'w') as f:
        json.dump(items, f)
    return str(path)


def layer_types(xml_path):
    return [layer.get('type') for layer in ET.parse(str(xml_path)).getroot().iter('layer')]


def steep_sigmoid(start, end):
    return [{'id': 'SteepSigmoid', 'match_kind': 'points', 'custom_attributes': {'k': 50},
             'instances': {'start_points': [start], 'end_points': [end]}}]


def test_points_replacer_by_classic_var_names(classic_refs, tmp_path):
    config = write_config(tmp_path / 'c.json', steep_sigmoid('tmp_3', 'reciprocal_0.tmp_0'))
    result = convert(os.path.join(CLASSIC, 'ocr_det.pdmodel'), tmp_path / 'ir', transformations_config=config,
                     extensions=[EXT])
    types = layer_types(result.xml_path)
    assert 'Exp' not in types and types.count('Sigmoid') == 3  # the two maps' and the binarisation's
    inputs, expected = reference(classic_refs, 'ocr_det')
    assert_close(run_ir(result.xml_path, inputs), expected, 'ocr_det')


def test_points_replacer_by_pir_value_ids(pir_dir, tmp_path):
    """In Paddle 3's program the same ops are pd_op.scale, pd_op.exp, pd_op.scale, pd_op.reciprocal, their values
    numbered: the description names the first scale's and the reciprocal's results."""
    from mo.front.paddle.load import read_model
    program = read_model(os.path.join(pir_dir, 'ocr_det.json'))[0]
    ops = program.blocks[0].ops
    writer = {result: op for op in ops for result in op.results}
    exp = next(op for op in ops if op.type == 'pd_op.exp')
    reciprocal = next(op for op in ops if op.type == 'pd_op.reciprocal')
    start = writer[exp.operands[0]].results[0]
    assert re.match(r'%\d+$', start) and writer[start].type == 'pd_op.scale'
    config = write_config(tmp_path / 'c.json', steep_sigmoid(start, reciprocal.results[0]))
    result = convert(os.path.join(pir_dir, 'ocr_det.json'), tmp_path / 'ir', transformations_config=config,
                     extensions=[EXT])
    assert 'Exp' not in layer_types(result.xml_path)
    inputs, expected = reference(pir_dir, 'ocr_det')
    assert_close(run_ir(result.xml_path, inputs), expected, 'ocr_det')


def test_general_replacer_by_fetch_var_name(classic_refs, tmp_path):
    inputs, expected = reference(classic_refs, 'seg_net')
    logits, labels = [name for name in expected]  # fetch order: the logits, their argmax
    config = write_config(tmp_path / 'c.json', [{'id': 'OutputSoftmax', 'match_kind': 'general',
                                                 'custom_attributes': {'outputs': [logits], 'axis': 1}}])
    result = convert(os.path.join(CLASSIC, 'seg_net.pdmodel'), tmp_path / 'ir', transformations_config=config,
                     extensions=[EXT])
    shifted = np.exp(expected[logits] - expected[logits].max(axis=1, keepdims=True))
    probabilities = shifted / shifted.sum(axis=1, keepdims=True)
    assert_close(run_ir(result.xml_path, inputs), {logits: probabilities, labels: expected[labels]}, 'seg_net')


def test_general_replacer_naming_no_output_is_one_error(tmp_path, capsys):
    from mo.main import main
    config = write_config(tmp_path / 'c.json', [{'id': 'OutputSoftmax', 'match_kind': 'general',
                                                 'custom_attributes': {'outputs': ['no_such_var']}}])
    code = main(['convert', '--input_model', os.path.join(CLASSIC, 'seg_net.pdmodel'), '--output_dir',
                 str(tmp_path / 'ir'), '--transformations_config', config, '--extensions', EXT])
    err = capsys.readouterr().err
    assert code != 0 and 'no_such_var' in err and 'Traceback' not in err
    assert not (tmp_path / 'ir').exists() or not list((tmp_path / 'ir').glob('*.xml'))


def test_points_replacer_of_a_detectors_box_decoding(classic_refs, tmp_path):
    """Both levels of the head in one sub-graph (they share the integral's conv weight): start point k is level
    k's softmax (a node of one input, as the points matcher requires), end point k its squeeze."""
    config = write_config(tmp_path / 'c.json', [
        {'id': 'DistributionIntegral', 'match_kind': 'points',
         'instances': {'start_points': ['softmax_0.tmp_0', 'softmax_1.tmp_0'],
                       'end_points': ['squeeze_0.tmp_0', 'squeeze_1.tmp_0']}}])
    result = convert(os.path.join(CLASSIC, 'ppyoloe_head.pdmodel'), tmp_path / 'ir', transformations_config=config,
                     extensions=[EXT])
    types = layer_types(result.xml_path)
    assert types.count('ReduceSum') == 2 and types.count('Convolution') == 8  # backbone 4, heads 4: the integrals' 2 are gone
    inputs, expected = reference(classic_refs, 'ppyoloe_head')
    assert_close(run_ir(result.xml_path, inputs), expected, 'ppyoloe_head')
