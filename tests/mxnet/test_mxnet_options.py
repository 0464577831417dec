"""The Model Optimizer's MXNet options through ``mo convert``: --nd_prefix_name with --pretrained_model_name (the
weights merged from a pretrained checkpoint and PREFIX_args.nd/PREFIX_auxs.nd, matched against MXNet's output with
those weights), --legacy_mxnet_model and --enable_ssd_gluoncv (accepted: old graphs are upgraded by content,
GluonCV's SSD post-processing converts as MXNet computes it; the conversions match MXNet either way)."""
import shutil

import numpy as np
import pytest

from tests.mxnet.test_mxnet_convert import (FIXTURES, _mo, _one_error, _write_params, head_names, input_option,
                                            reference, run_ir)


def _nd_split_copy(folder):
    for name in ('nd_split-symbol.json', 'nd_split_args.nd', 'nd_split_auxs.nd', 'nd_split_vgg-0000.params',
                 'nd_split_vgg-symbol.json'):
        shutil.copy(FIXTURES / name, folder / name)


def test_nd_files_and_pretrained_checkpoint_merge_into_the_weights_mxnet_used(tmp_path):
    _nd_split_copy(tmp_path)
    inputs, expected = reference('nd_split')
    out = tmp_path / 'out'
    result = _mo('--input_symbol', tmp_path / 'nd_split-symbol.json', '--nd_prefix_name', 'nd_split',
                 '--pretrained_model_name', tmp_path / 'nd_split_vgg-0000.params', '--input', input_option(inputs),
                 '--output_dir', out)
    assert result.returncode == 0, result.stderr
    (got,) = run_ir(out / 'nd_split.xml', inputs, head_names('nd_split'))
    np.testing.assert_allclose(got, expected[0], rtol=1e-4, atol=1e-5)


def test_the_nd_files_win_over_a_pretrained_array_of_the_same_name(tmp_path):
    from mo.front.mxnet.params import read_params
    _nd_split_copy(tmp_path)
    pretrained = {name: np.array(value) for name, value in read_params(tmp_path / 'nd_split_vgg-0000.params').items()}
    own = read_params(tmp_path / 'nd_split_args.nd')
    pretrained['arg:style_conv1_weight'] = np.zeros(own['style_conv1_weight'].shape, np.float32)
    _write_params(tmp_path / 'nd_split_vgg-0000.params', pretrained)
    inputs, expected = reference('nd_split')
    result = _mo('--input_symbol', tmp_path / 'nd_split-symbol.json', '--nd_prefix_name', 'nd_split',
                 '--pretrained_model_name', tmp_path / 'nd_split_vgg-0000.params', '--input', input_option(inputs),
                 '--output_dir', tmp_path / 'out')
    assert result.returncode == 0, result.stderr
    (got,) = run_ir(tmp_path / 'out' / 'nd_split.xml', inputs, head_names('nd_split'))
    np.testing.assert_allclose(got, expected[0], rtol=1e-4, atol=1e-5)


def test_nd_prefix_with_a_folder_is_read_there(tmp_path):
    _nd_split_copy(tmp_path)
    (tmp_path / 'nd').mkdir()
    for name in ('nd_split_args.nd', 'nd_split_auxs.nd'):
        shutil.move(str(tmp_path / name), str(tmp_path / 'nd' / name))
    inputs, expected = reference('nd_split')
    result = _mo('--input_symbol', tmp_path / 'nd_split-symbol.json', '--nd_prefix_name', tmp_path / 'nd' / 'nd_split',
                 '--pretrained_model_name', tmp_path / 'nd_split_vgg-0000.params', '--input', input_option(inputs),
                 '--output_dir', tmp_path / 'out')
    assert result.returncode == 0, result.stderr
    (got,) = run_ir(tmp_path / 'out' / 'nd_split.xml', inputs, head_names('nd_split'))
    np.testing.assert_allclose(got, expected[0], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('drop', ['--pretrained_model_name', '--input_symbol'])
def test_the_merge_options_go_together(tmp_path, drop):
    _nd_split_copy(tmp_path)
    options = {'--input_symbol': tmp_path / 'nd_split-symbol.json', '--nd_prefix_name': 'nd_split',
               '--pretrained_model_name': tmp_path / 'nd_split_vgg-0000.params'}
    options.pop(drop)
    args = [item for pair in options.items() for item in pair]
    if drop == '--input_symbol':
        args = ['--input_model', tmp_path / 'nd_split_vgg-0000.params'] + args
    result = _mo(*args, '--output_dir', tmp_path / 'out')
    _one_error(result, drop, 'missing')
    assert not (tmp_path / 'out').exists()


def test_a_missing_nd_file_is_one_error(tmp_path):
    _nd_split_copy(tmp_path)
    (tmp_path / 'nd_split_auxs.nd').unlink()
    result = _mo('--input_symbol', tmp_path / 'nd_split-symbol.json', '--nd_prefix_name', 'nd_split',
                 '--pretrained_model_name', tmp_path / 'nd_split_vgg-0000.params', '--output_dir', tmp_path / 'out')
    _one_error(result, 'nd_split_auxs.nd', 'does not exist')


def test_an_nd_array_the_graph_lacks_is_one_error(tmp_path):
    from mo.front.mxnet.params import read_params
    _nd_split_copy(tmp_path)
    arrays = {name: np.array(value) for name, value in read_params(tmp_path / 'nd_split_args.nd').items()}
    arrays['style_conv9_weight'] = np.zeros((2, 2), np.float32)
    _write_params(tmp_path / 'nd_split_args.nd', arrays)
    result = _mo('--input_symbol', tmp_path / 'nd_split-symbol.json', '--nd_prefix_name', 'nd_split',
                 '--pretrained_model_name', tmp_path / 'nd_split_vgg-0000.params', '--input', 'data[1,3,6,6]',
                 '--output_dir', tmp_path / 'out')
    _one_error(result, 'style_conv9_weight', 'no variable')


@pytest.mark.parametrize('name, flag', [('legacy_v08', '--legacy_mxnet_model'), ('convnet', '--legacy_mxnet_model'),
                                        ('gluoncv_ssd', '--enable_ssd_gluoncv')])
def test_accepted_flags_convert_as_mxnet_computes(tmp_path, name, flag):
    inputs, expected = reference(name)
    result = _mo('--input_model', FIXTURES / (name + '-0000.params'), flag, '--input', input_option(inputs),
                 '--output_dir', tmp_path)
    assert result.returncode == 0, result.stderr
    got = run_ir(tmp_path / (name + '-0000.xml'), inputs, head_names(name))
    assert len(got) == len(expected)
    for actual, want in zip(got, expected):
        np.testing.assert_allclose(actual, want, rtol=1e-4, atol=1e-5)


def test_help_says_why_the_accepted_flags_change_nothing():
    result = _mo('--help')
    text = ' '.join(result.stdout.split())
    assert 'told by their content and upgraded as MXNet upgrades them' in text
    assert 'mo does not replace it by a DetectionOutput' in text
