"""mo convert on SavedModels, meta graphs and checkpoints that TensorFlow writes; OpenVINO runs the
IR and TensorFlow (loading the same files) gives the reference."""
import glob
import os

import numpy as np
import pytest

from tests.saved_model import builders
from tests.saved_model.conftest import (TOLERANCE, random_feeds, relative_error, run_ir, run_mo, signature_specs,
                                        tf_signature_outputs)


@pytest.fixture(scope='module')
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp('saved_models')
    return {
        'cnn': builders.keras_cnn(root / 'cnn'),
        'two_inputs': builders.keras_two_inputs(root / 'two_inputs'),
        'module': builders.module_two_signatures(root / 'module'),
        'sharded': builders.module_two_signatures(root / 'sharded', sharded=True),
        'tf1': builders.tf1_saved_model(root / 'tf1'),
        'checkpoint': builders.tf1_checkpoint(root / 'checkpoint'),
        'custom_keys': builders.tf1_checkpoint(root / 'custom_keys', custom_keys=True),
    }


def _convert(tmp_path, *args):
    code, out, err = run_mo('convert', '--output_dir', tmp_path, '--model_name', 'model', *args)
    assert code == 0, err
    return tmp_path / 'model.xml'


def _check_signature(xml, directory, signature='serving_default', seed=0):
    """Every output of the signature, found in the IR by its signature name, matches TensorFlow."""
    feeds = random_feeds(signature_specs(directory, signature), seed)
    expected = tf_signature_outputs(directory, signature, feeds)
    actual = run_ir(xml, feeds)  # inputs are found by their signature names
    assert set(expected) <= set(actual), (sorted(expected), sorted(actual))
    for name, value in expected.items():
        assert actual[name].shape == value.shape, name
        assert relative_error(actual[name], value) < TOLERANCE, name
    return actual


def test_keras_cnn_export(models, tmp_path):
    """A Keras 3 model.export() directory converts as --input_model DIR and matches TensorFlow."""
    xml = _convert(tmp_path, '--input_model', models['cnn'])
    _check_signature(xml, models['cnn'])
    import openvino as ov
    model = ov.Core().read_model(str(xml))
    # the signature's keys only, as ovc names them: get_any_name() is the key users know
    signature_name, = signature_specs(models['cnn'], 'serving_default')
    assert model.inputs[0].get_names() == {signature_name}
    assert model.outputs[0].get_names() == {'output_0', 'output_0:0'}
    assert model.inputs[0].get_any_name() == signature_name and model.outputs[0].get_any_name() == 'output_0'


def test_names_on_saved_models_are_the_signature_names(models, tmp_path):
    """What a user sees of a SavedModel's inputs and outputs is the signature's keys: the printed summary, and
    the hints of --input/--output errors (did-you-mean among the keys, the keys themselves, a Keras layer's
    scope)."""
    code, out, err = run_mo('convert', '--input_model', models['module'], '--output_dir', tmp_path / 'ok')
    assert code == 0, err
    assert '[ INFO ] Input:  x [?,5] float32' in out.splitlines()
    assert {line.split()[4] for line in out.splitlines() if line.startswith('[ INFO ] Output:')} == {'hidden', 'scores'}
    for args, hint in [(('--input', 'y'), 'Hint: the signature\'s inputs are "x"'),
                       (('--output', 'score'), 'Hint: did you mean "scores"?'),
                       (('--output', 'logits'), 'Hint: the signature\'s outputs are "hidden", "scores"')]:
        code, out, err = run_mo('convert', '--input_model', models['module'], '--output_dir', tmp_path / 'bad', *args)
        assert code == 2 and err.splitlines()[-1] == '[ ERROR ] ' + hint, err
    code, out, err = run_mo('convert', '--input_model', models['two_inputs'], '--output_dir', tmp_path / 'bad',
                            '--output', 'concatenate')
    assert code == 2
    assert err.splitlines()[-1].startswith('[ ERROR ] Hint: the ops of scope "concatenate" (a Keras layer?) give '
                                           'their result at "'), err
    layer_output = err.splitlines()[-1].split('"')[3]
    code, out, err = run_mo('convert', '--input_model', models['two_inputs'], '--output_dir', tmp_path / 'cut',
                            '--output', layer_output)
    assert code == 0, err


def test_keras_two_inputs_with_legacy_flag(models, tmp_path):
    """--saved_model_dir reads the same; two named inputs are told apart by their signature names."""
    xml = _convert(tmp_path, '--saved_model_dir', models['two_inputs'])
    _check_signature(xml, models['two_inputs'], seed=1)


def test_module_default_and_second_signature(models, tmp_path):
    """tf.saved_model.save of a tf.Module: serving_default (two outputs) and --signature lookup
    (an embedding gather on a variable)."""
    xml = _convert(tmp_path / 'a', '--input_model', models['module'])
    actual = _check_signature(xml, models['module'])
    assert {'hidden', 'scores'} <= set(actual)
    xml = _convert(tmp_path / 'b', '--input_model', models['module'], '--signature', 'lookup')
    specs = signature_specs(models['module'], 'lookup')
    feeds = {'ids': np.random.default_rng(5).integers(0, 10, (3, 4)).astype(np.int32)}
    assert set(specs) == set(feeds)
    expected = tf_signature_outputs(models['module'], 'lookup', feeds)
    assert relative_error(run_ir(xml, feeds)['vectors'], expected['vectors']) < TOLERANCE


def test_sharded_and_sliced_variables(models, tmp_path):
    """Variables spread over several data shards, some split into slices across them, are each
    read and put together; both signatures match TensorFlow."""
    from mo.front.tf.tensor_bundle import BundleReader
    shards = glob.glob(os.path.join(str(models['sharded']), 'variables', 'variables.data-*'))
    assert len(shards) > 1
    reader = BundleReader(os.path.join(str(models['sharded']), 'variables', 'variables'))
    assert any(len(reader.entries[k].slices) for k in reader.keys())
    xml = _convert(tmp_path / 'a', '--input_model', models['sharded'])
    _check_signature(xml, models['sharded'])
    xml = _convert(tmp_path / 'b', '--input_model', models['sharded'], '--signature', 'lookup')
    feeds = {'ids': np.random.default_rng(12).integers(0, 10, (3, 4)).astype(np.int32)}
    expected = tf_signature_outputs(models['sharded'], 'lookup', feeds)
    assert relative_error(run_ir(xml, feeds)['vectors'], expected['vectors']) < TOLERANCE


def test_tf1_saved_model_with_variable_v2(models, tmp_path):
    """A TF1 SavedModel (saved_model.Builder) whose weights are VariableV2 nodes; saved_model.pb
    itself may be given too."""
    for i, path in enumerate((models['tf1'], models['tf1'] / 'saved_model.pb')):
        xml = _convert(tmp_path / str(i), '--input_model', path)
        _check_signature(xml, models['tf1'])


def test_tf1_meta_graph_and_checkpoint(models, tmp_path):
    """--input_meta_graph with the checkpoint beside it, and explicitly; a meta graph under another
    name; --input_model graph.pb with --input_checkpoint; the outputs chosen with --output."""
    prefix = models['checkpoint']
    feeds = {'x': np.random.default_rng(6).standard_normal((3, 6)).astype(np.float32)}
    expected = builders.tf1_reference(prefix, feeds)
    renamed = os.path.join(str(tmp_path), 'graph.bin')  # a MetaGraphDef told by content, not by name
    with open(prefix + '.meta', 'rb') as src, open(renamed, 'wb') as dst:
        dst.write(src.read())
    runs = [('--input_meta_graph', prefix + '.meta', '--output', 'y'),
            ('--input_model', renamed, '--input_checkpoint', prefix, '--output', 'y'),
            ('--input_meta_graph', prefix + '.meta', '--input_checkpoint', prefix, '--output', 'y'),
            ('--input_model', prefix + '.meta', '--output', 'y'),
            ('--input_model', os.path.join(os.path.dirname(prefix), 'graph.pb'), '--input_checkpoint', prefix,
             '--output', 'y')]
    for i, args in enumerate(runs):
        xml = _convert(tmp_path / str(i), *args)
        assert relative_error(run_ir(xml, feeds)['y'], expected) < TOLERANCE, args


def test_signature_names_in_input_option(models, tmp_path):
    """--input takes a signature input name (with a shape) like a node name."""
    name, = signature_specs(models['cnn'], 'serving_default')
    xml = _convert(tmp_path, '--input_model', models['cnn'], '--input', '{}[2,16,16,3]'.format(name))
    import openvino as ov
    assert list(ov.Core().read_model(str(xml)).inputs[0].get_partial_shape().to_shape()) == [2, 16, 16, 3]
    _check_signature(xml, models['cnn'])


def test_variables_stay_views_of_the_mapped_shard(models):
    """Loaded variables are read-only numpy views whose memory is the mapped shard file."""
    import mmap
    from mo.front.tf.loader import graph_def_to_graph
    from mo.front.tf.saved_model import load_saved_model
    frozen = load_saved_model(str(models['module']))
    graph = graph_def_to_graph(frozen.graph_def, const_contents=frozen.contents)
    variables = [graph.nodes[name]['value'] for name in frozen.contents]
    assert len(variables) == 3  # w, b and v: the table belongs to the other signature
    for value in variables:
        assert not value.flags.writeable and not value.flags.owndata
        base = value
        while isinstance(base, (np.ndarray, memoryview)):  # views of views, down to the memory
            base = base.base if isinstance(base, np.ndarray) else base.obj
        assert isinstance(base, mmap.mmap), type(base)



def test_tf1_saver_with_its_own_keys(models, tmp_path):
    """A Saver with var_list={key: variable}: the keys come from the graph's restore ops."""
    prefix = models['custom_keys']
    from mo.front.tf.tensor_bundle import BundleReader
    assert 'layer/kernel_w' in BundleReader(prefix) and 'w' not in BundleReader(prefix)
    feeds = {'x': np.random.default_rng(11).standard_normal((2, 6)).astype(np.float32)}
    xml = _convert(tmp_path, '--input_meta_graph', prefix + '.meta', '--output', 'y')
    assert relative_error(run_ir(xml, feeds)['y'], builders.tf1_reference(prefix, feeds)) < TOLERANCE


def test_tf1_partitioned_variable(tmp_path):
    """Three VariableV2 parts of one variable: each restores its slice of the saved tensor."""
    prefix = builders.tf1_partitioned(tmp_path / 'partitioned')
    feeds = {'x': np.random.default_rng(14).standard_normal((2, 10)).astype(np.float32)}
    xml = _convert(tmp_path / 'out', '--input_meta_graph', prefix + '.meta', '--output', 'y')
    assert relative_error(run_ir(xml, feeds)['y'], builders.tf1_reference(prefix, feeds)) < TOLERANCE


def test_tf1_signature_input_inside_the_graph(tmp_path):
    """A signature may feed an inner tensor: it becomes the IR's input, what computed it is cut off."""
    directory = builders.tf1_saved_model(tmp_path / 'inner', inner_input=True)
    xml = _convert(tmp_path / 'out', '--input_model', directory)
    import openvino as ov
    model = ov.Core().read_model(str(xml))
    assert len(model.inputs) == 1 and model.inputs[0].get_names() == {'product', 'product:0'}  # the key only
    _check_signature(xml, directory)


def test_static_shape_says_what_stays_dynamic_and_why(tmp_path):
    """--static_shape blames the inputs only when one of them is dynamic; with every input static, it names the op
    mo infers no further through (a Keras LSTM's loop, whose stacked outputs grow per iteration)."""
    import keras
    keras.utils.set_random_seed(3)
    model = keras.Sequential([keras.Input((10, 8)), keras.layers.LSTM(4, return_sequences=True),
                              keras.layers.Dense(2)])
    model.export(str(tmp_path / 'lstm'), verbose=False)
    name, = signature_specs(tmp_path / 'lstm', 'serving_default')
    code, out, err = run_mo('convert', '--input_model', tmp_path / 'lstm', '--output_dir', tmp_path / 'a',
                            '--static_shape')
    assert code == 1
    assert err.splitlines()[0].endswith('has a dynamic shape [-1, 10, 8]: input "{}" has the shape [-1, 10, 8]'.format(
        name)), err
    code, out, err = run_mo('convert', '--input_model', tmp_path / 'lstm', '--output_dir', tmp_path / 'b',
                            '--input', '{}[1,10,8]'.format(name), '--static_shape')
    assert code == 1  # mo does not infer how far the loop's stacked outputs grow (OpenVINO does, when it compiles)
    assert 'although every input is static' in err and '(Loop) makes it from static shapes' in err, err
    assert 'give input shapes' not in err
