"""Bad SavedModels and checkpoints: one clean [ ERROR ] line naming the file and the variable,
exit code 1 (2 for a wrong option value), nothing written, the input untouched."""
import os
import shutil

import pytest

from tests.saved_model import builders
from tests.saved_model.conftest import error_lines, run_mo


@pytest.fixture(scope='module')
def pristine(tmp_path_factory):
    root = tmp_path_factory.mktemp('pristine')
    return {'module': builders.module_two_signatures(root / 'module'),
            'checkpoint': builders.tf1_checkpoint(root / 'checkpoint')}


@pytest.fixture
def model(pristine, tmp_path):
    """A private copy of the tf.Module SavedModel, free to be damaged."""
    copy = tmp_path / 'model'
    shutil.copytree(pristine['module'], copy)
    return copy


def _variables(model):
    directory = model / 'variables'
    return directory / 'variables.index', sorted(directory.glob('variables.data-*'))


def _fails(tmp_path, *args, code=1):
    out = tmp_path / 'out'
    result, stdout, stderr = run_mo('convert', '--output_dir', out, *args)
    assert result == code, stderr
    assert 'Traceback' not in stderr
    errors = error_lines(stderr)
    assert len(errors) == 1, stderr
    assert not out.exists() or not os.listdir(out), os.listdir(out)
    return errors[0]


def _flip(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def _variable_offset(model, key):
    from mo.front.tf.tensor_bundle import BundleReader
    entry = BundleReader(str(model / 'variables' / 'variables')).entries[key]
    return entry.shard_id, int(entry.offset)


def test_unknown_tag_lists_the_available_ones(model, tmp_path):
    line = _fails(tmp_path, '--input_model', model, '--saved_model_tags', 'train', code=2)
    assert '"train"' in line and 'serve' in line and str(model) in line


def test_unknown_signature_lists_the_available_ones(model, tmp_path):
    line = _fails(tmp_path, '--input_model', model, '--signature', 'predict', code=2)
    assert '"predict"' in line and 'lookup' in line and 'serving_default' in line


def test_corrupt_shard_names_file_and_variable(model, tmp_path):
    shard, offset = _variable_offset(model, 'w/.ATTRIBUTES/VARIABLE_VALUE')
    data_file = _variables(model)[1][shard]
    _flip(data_file, offset + 8)
    before = data_file.read_bytes()
    line = _fails(tmp_path, '--input_model', model)
    assert 'checksum' in line and str(data_file) in line and '"w"' in line
    assert data_file.read_bytes() == before  # the input is left as it was


def test_corrupt_index_block(model, tmp_path):
    index = _variables(model)[0]
    _flip(index, 20)
    line = _fails(tmp_path, '--input_model', model)
    assert str(index) in line and 'corrupt' in line


def test_truncated_index(model, tmp_path):
    index = _variables(model)[0]
    index.write_bytes(index.read_bytes()[:-10])
    line = _fails(tmp_path, '--input_model', model)
    assert str(index) in line


def test_missing_index(model, tmp_path):
    index = _variables(model)[0]
    index.unlink()
    line = _fails(tmp_path, '--input_model', model)
    assert str(index) in line and 'does not exist' in line


def test_missing_shard(model, tmp_path):
    data_file = _variables(model)[1][0]
    data_file.unlink()
    line = _fails(tmp_path, '--input_model', model)
    assert str(data_file) in line and 'does not exist' in line


def test_truncated_shard_names_the_variable(model, tmp_path):
    data_file = _variables(model)[1][0]
    data_file.write_bytes(data_file.read_bytes()[:40])
    line = _fails(tmp_path, '--input_model', model)
    assert str(data_file) in line and 'truncated' in line and 'variable "' in line


def test_variable_missing_from_checkpoint(pristine, tmp_path):
    """A GraphDef whose variable the checkpoint does not have (another model's checkpoint)."""
    import tensorflow as tf
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 6], name='x')
        other = v1.Variable(tf.zeros([6, 2]), name='other', use_resource=False)
        tf.identity(tf.matmul(x, other), name='z')
    path = tmp_path / 'other.pb'
    path.write_bytes(graph.as_graph_def().SerializeToString())
    prefix = pristine['checkpoint']
    line = _fails(tmp_path, '--input_model', path, '--input_checkpoint', prefix, '--output', 'z')
    assert '"other"' in line and prefix + '.index' in line


def test_unfrozen_graph_without_checkpoint(pristine, tmp_path):
    graph_pb = os.path.join(os.path.dirname(pristine['checkpoint']), 'graph.pb')
    line = _fails(tmp_path, '--input_model', graph_pb, '--output', 'y', code=2)
    assert 'variable' in line and graph_pb in line


@pytest.mark.parametrize('kind', ['index', 'data'])
def test_checkpoint_as_input_model_says_which_flags(pristine, tmp_path, kind):
    prefix = pristine['checkpoint']
    path = prefix + '.index' if kind == 'index' else prefix + '.data-00000-of-00001'
    out = tmp_path / 'out'
    code, _, stderr = run_mo('convert', '--output_dir', out, '--input_model', path)
    assert code == 1 and 'checkpoint' in error_lines(stderr)[0]
    assert '--input_meta_graph' in stderr and '--input_checkpoint' in stderr


@pytest.mark.parametrize('suffix', ['.keras', '.h5'])
def test_keras_file_says_how_to_export(tmp_path, suffix):
    import keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    path = tmp_path / ('model' + suffix)
    model.save(str(path))
    code, _, stderr = run_mo('convert', '--output_dir', tmp_path / 'out', '--input_model', path)
    assert code == 1 and 'Keras' in error_lines(stderr)[0]
    assert '.export(' in stderr


def test_directory_without_saved_model(tmp_path):
    empty = tmp_path / 'empty'
    empty.mkdir()
    line = _fails(tmp_path, '--input_model', empty)
    assert 'not a SavedModel directory' in line


def test_saved_model_proto_under_another_name(pristine, tmp_path):
    """A saved_model.pb copied away from its variables is recognised by content."""
    copy = tmp_path / 'model.pb'
    shutil.copy(pristine['module'] / 'saved_model.pb', copy)
    line = _fails(tmp_path, '--input_model', copy)
    assert 'is a SavedModel' in line and '--saved_model_dir' in line


def test_wrong_kind_for_the_flag_names_kind_and_flag(pristine, tmp_path):
    graph_pb = os.path.join(os.path.dirname(pristine['checkpoint']), 'graph.pb')
    line = _fails(tmp_path, '--input_meta_graph', graph_pb, code=2)
    assert 'is a GraphDef' in line and '--input_model' in line
    line = _fails(tmp_path, '--saved_model_dir', pristine['checkpoint'] + '.meta', code=2)
    assert 'is a MetaGraphDef' in line and '--input_meta_graph' in line
    line = _fails(tmp_path, '--input_meta_graph', pristine['module'], code=2)
    assert 'is a SavedModel directory' in line and '--saved_model_dir' in line


def test_checksum_of_a_large_variable(tmp_path):
    """A variable of 1 MiB: its checksum is computed lane-wise (mo.front.tf.crc32c) and must equal
    TensorFlow's; one flipped byte deep inside it is found."""
    import numpy as np
    import tensorflow as tf
    from tests.saved_model.conftest import relative_error, run_ir, tf_signature_outputs

    class Big(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.random.default_rng(7).standard_normal((1024, 256)).astype(np.float32), name='w')

        @tf.function(input_signature=[tf.TensorSpec([None, 1024], tf.float32, name='x')])
        def serve(self, x):
            return {'y': tf.matmul(x, self.w)}

    module = Big()
    directory = tmp_path / 'big'
    tf.saved_model.save(module, str(directory), signatures={'serving_default': module.serve})
    code, _, err = run_mo('convert', '--input_model', directory, '--output_dir', tmp_path / 'ok', '--model_name', 'm')
    assert code == 0, err
    feeds = {'x': np.random.default_rng(8).standard_normal((2, 1024)).astype(np.float32)}
    expected = tf_signature_outputs(directory, 'serving_default', feeds)['y']
    assert relative_error(run_ir(tmp_path / 'ok' / 'm.xml', feeds)['y'], expected) < 1e-4
    shard, offset = _variable_offset(directory, 'w/.ATTRIBUTES/VARIABLE_VALUE')
    data_file = _variables(directory)[1][shard]
    _flip(data_file, offset + 700_001)
    line = _fails(tmp_path, '--input_model', directory)
    assert 'checksum mismatch in variable "w"' in line


def test_truncated_saved_model_proto(model, tmp_path):
    proto_file = model / 'saved_model.pb'
    proto_file.write_bytes(proto_file.read_bytes()[:1000])
    line = _fails(tmp_path, '--input_model', model)
    assert str(proto_file) in line and 'truncated or corrupt' in line


def test_checkpoint_directory_means_its_latest_checkpoint(pristine, tmp_path):
    """--input_checkpoint DIR reads the checkpoint DIR's state file names; without a state file, DIR's only
    checkpoint; with several and no state file, an error listing their prefixes."""
    source = os.path.dirname(pristine['checkpoint'])
    directory = tmp_path / 'checkpoints'
    shutil.copytree(source, directory)
    graph = directory / 'graph.pb'
    code, out, err = run_mo('convert', '--input_model', graph, '--input_checkpoint', directory,
                            '--output_dir', tmp_path / 'with_state')
    assert code == 0, err
    os.remove(directory / 'checkpoint')  # TF's state file: the latest checkpoint's prefix
    code, out, err = run_mo('convert', '--input_model', graph, '--input_checkpoint', directory,
                            '--output_dir', tmp_path / 'only_one')
    assert code == 0, err
    assert (tmp_path / 'with_state' / 'graph.xml').read_bytes() == (tmp_path / 'only_one' / 'graph.xml').read_bytes()
    for name in os.listdir(directory):
        if name.startswith('model.') and not name.endswith('.meta'):
            shutil.copy(directory / name, directory / name.replace('model.', 'other.'))
    code, out, err = run_mo('convert', '--input_model', graph, '--input_checkpoint', directory,
                            '--output_dir', tmp_path / 'two')
    assert code == 2
    assert error_lines(err) == ['[ ERROR ] --input_checkpoint "{}" is a directory of 2 checkpoints; name one'.format(
        directory)]
    assert not (tmp_path / 'two').exists() or not list((tmp_path / 'two').iterdir())
