"""The tensor-bundle reader against TensorFlow's own checkpoint reader."""
import numpy as np


def test_every_tensor_of_a_multi_block_index(tmp_path):
    """6000 variables: the index has several data blocks, prefix-compressed keys and restart
    points; every key and every value (checksum checked) is what TensorFlow reads."""
    import tensorflow as tf
    from mo.front.tf import sstable
    from mo.front.tf.tensor_bundle import OBJECT_GRAPH_KEY, BundleReader

    rng = np.random.default_rng(10)
    variables = {'v%05d' % i: tf.Variable(rng.standard_normal((i % 5 + 1,)).astype(np.float32 if i % 3 else np.int32))
                 for i in range(6000)}
    prefix = tf.train.Checkpoint(**variables).write(str(tmp_path / 'ckpt'))
    data = open(prefix + '.index', 'rb').read()
    table = sstable.Table(prefix + '.index', data)
    assert len(list(table._entries(table._block(*table._footer(), 'index block'), 'index block'))) > 1

    ours = BundleReader(prefix)
    theirs = tf.train.load_checkpoint(prefix)
    assert sorted(ours.keys()) == sorted(theirs.get_variable_to_shape_map())
    for key in ours.keys():
        if key == OBJECT_GRAPH_KEY:
            assert ours.tensor(key).item() == theirs.get_tensor(key)
            continue
        expected = theirs.get_tensor(key)
        actual = ours.tensor(key)
        assert actual.dtype == expected.dtype and np.array_equal(actual, expected), key


def test_sliced_tensors_match_tensorflow(tmp_path):
    """MaxShardSizePolicy slices tensors that do not fit a shard; slice starts beyond 64 take
    multi-byte keys. Every tensor put together from its slices equals TensorFlow's."""
    import tensorflow as tf
    from mo.front.tf.tensor_bundle import OBJECT_GRAPH_KEY, BundleReader

    rng = np.random.default_rng(13)
    variables = {'a': tf.Variable(rng.standard_normal((1000,)).astype(np.float32)),
                 'b': tf.Variable(rng.standard_normal((300, 7)).astype(np.float32)),
                 'c': tf.Variable(rng.integers(0, 9, (40, 3, 5)).astype(np.int64))}
    policy = tf.train.experimental.MaxShardSizePolicy(max_shard_size=1000)
    prefix = tf.train.Checkpoint(**variables).write(
        str(tmp_path / 'ckpt'), options=tf.train.CheckpointOptions(experimental_sharding_callback=policy))
    ours = BundleReader(prefix)
    theirs = tf.train.load_checkpoint(prefix)
    sliced = [k for k in ours.keys() if len(ours.entries[k].slices)]
    assert len(sliced) == 3
    assert max(len(s.extent) and s.extent[0].start for k in sliced for s in ours.entries[k].slices) > 64
    for key in ours.keys():
        if key != OBJECT_GRAPH_KEY:
            assert np.array_equal(ours.tensor(key), theirs.get_tensor(key)), key


def _checkpoint_with_a_flipped_byte(tmp_path):
    """A checkpoint of variables 'a', 'b', 'c' (TensorFlow writes it) in which one byte of 'b' is flipped."""
    import tensorflow as tf
    from mo.front.tf.tensor_bundle import BundleReader

    rng = np.random.default_rng(14)
    variables = {name: tf.Variable(rng.standard_normal((300, 70)).astype(np.float32)) for name in 'abc'}
    prefix = tf.train.Checkpoint(**variables).write(str(tmp_path / 'ckpt'))
    key = 'b/.ATTRIBUTES/VARIABLE_VALUE'
    entry = BundleReader(prefix).entries[key]
    with open('{}.data-00000-of-00001'.format(prefix), 'r+b') as f:
        f.seek(int(entry.offset) + 5000)
        byte = f.read(1)
        f.seek(int(entry.offset) + 5000)
        f.write(bytes([byte[0] ^ 0x10]))
    return prefix, variables


def test_checks_in_background_give_the_values_and_raise_a_mismatch_on_leaving(tmp_path):
    """Within ``checks_in_background`` tensors come back at once (TensorFlow's values for the intact ones) and
    the checksum mismatch of the corrupt one is raised when the context is left, naming it."""
    import pytest
    from mo.front.tf.tensor_bundle import BundleReader
    from mo.utils.error import Error

    prefix, variables = _checkpoint_with_a_flipped_byte(tmp_path)
    reader = BundleReader(prefix)
    values = {}
    with pytest.raises(Error, match='checksum mismatch in variable "variable b"'):
        with reader.checks_in_background():
            for name in 'abc':
                values[name] = reader.tensor('{}/.ATTRIBUTES/VARIABLE_VALUE'.format(name), 'variable ' + name)
    for name in 'ac':
        assert np.array_equal(values[name], variables[name].numpy())
    # outside the context the check is at once again
    with pytest.raises(Error, match='checksum mismatch'):
        reader.tensor('b/.ATTRIBUTES/VARIABLE_VALUE')
    assert np.array_equal(reader.tensor('c/.ATTRIBUTES/VARIABLE_VALUE'), variables['c'].numpy())


def test_an_error_inside_checks_in_background_is_not_replaced_by_a_mismatch(tmp_path):
    import pytest
    from mo.front.tf.tensor_bundle import BundleReader
    from mo.utils.error import Error

    prefix, _ = _checkpoint_with_a_flipped_byte(tmp_path)
    reader = BundleReader(prefix)
    with pytest.raises(Error, match='"missing" is not in the checkpoint'):
        with reader.checks_in_background():
            reader.tensor('b/.ATTRIBUTES/VARIABLE_VALUE')
            reader.tensor('missing')
