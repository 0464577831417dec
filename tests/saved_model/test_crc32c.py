"""CRC-32C in numpy (mo.front.tf.crc32c) against references it does not share code with: the check
value of the CRC catalogue, a slow table formulation written here, and the masked CRCs TensorFlow
itself writes (TFRecord framing and checkpoint bundles)."""
import struct

import numpy as np
import pytest

from mo.front.tf import crc32c

#: the odd lengths that reach every lane step of the numpy formulation and its byte-by-byte rest
LENGTHS = (0, 1, 2, 3, 5, 63, 255, 511, 513, 2047, 2049, 4099, 16381, 65537, 131075, 262147, 524301,
           1048579, 2097155 + 8)


def _bitwise(data, crc=0) -> int:
    """The CRC-32C as its definition reads: one bit at a time, reflected polynomial 0x82F63B78."""
    crc ^= 0xFFFFFFFF
    for byte in bytes(data):
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _table_reference():
    table = []
    for value in range(256):
        for _ in range(8):
            value = (value >> 1) ^ (0x82F63B78 if value & 1 else 0)
        table.append(value)
    return table


_TABLE = _table_reference()


def _slow(data, crc=0) -> int:
    """A byte at a time through a 256-entry table (checked against ``_bitwise`` below)."""
    crc ^= 0xFFFFFFFF
    table = _TABLE
    for byte in bytes(data):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _random(n, seed=0) -> bytes:
    return np.random.default_rng(seed + n).integers(0, 256, n, dtype=np.uint8).tobytes()


def test_check_value():
    assert crc32c.numpy_crc32c(b'123456789') == 0xE3069283
    assert crc32c.crc32c(b'123456789') == 0xE3069283
    assert crc32c.numpy_crc32c(b'') == 0


def test_slow_reference_is_the_definition():
    for n in (0, 1, 7, 64, 300):
        data = _random(n, 1)
        assert _slow(data) == _bitwise(data)
        assert _slow(data, 0x12345678) == _bitwise(data, 0x12345678)


@pytest.mark.parametrize('n', LENGTHS)
def test_odd_lengths_match_the_reference(n):
    data = _random(n)
    assert crc32c.numpy_crc32c(data) == _slow(data)


@pytest.mark.parametrize('n', (13, 4099, 262147, 1048579))
def test_continuing_from_a_crc(n):
    """``crc`` continues a checksum: any split of the data gives the same value, also at odd offsets
    (the words are then read unaligned)."""
    data = _random(n, 2)
    whole = _slow(data)
    for cut in (1, n // 3, n - 3):
        assert crc32c.numpy_crc32c(data[cut:], crc32c.numpy_crc32c(data[:cut])) == whole
    assert crc32c.numpy_crc32c(memoryview(data)[1:]) == _slow(data[1:])


def test_numpy_arrays_are_read_as_their_bytes():
    values = np.random.default_rng(3).standard_normal((129, 67)).astype(np.float32)
    assert crc32c.numpy_crc32c(values) == _slow(values.tobytes())
    assert crc32c.crc32c(values) == _slow(values.tobytes())


def test_threads_join_like_one_pass(monkeypatch):
    """A large input is split between threads; the pieces' CRCs join into the CRC of the whole."""
    monkeypatch.setattr(crc32c, '_THREAD_MIN', 1 << 20)
    monkeypatch.setattr(crc32c, '_THREADS', 3)
    data = _random(5 * (1 << 20) + 1021, 4)
    assert crc32c.numpy_crc32c(data) == _slow(data)


def test_shift_is_the_effect_of_zero_bytes():
    for n in (1, 3, 4, 1000, 65536):
        prefix = _random(11, n)
        raw = _slow(prefix) ^ 0xFFFFFFFF
        expected = _slow(prefix + bytes(n)) ^ 0xFFFFFFFF
        assert crc32c._shift(raw, n) == expected


def test_mask_round_trip():
    for value in (0, 1, 0xE3069283, 0xFFFFFFFF):
        assert crc32c.unmask(crc32c.mask(value)) == value


def test_masked_crcs_of_tensorflow_records(tmp_path):
    """TFRecord framing: length (uint64), masked CRC-32C of the length, data, masked CRC-32C of the
    data, all written by TensorFlow's C++ code."""
    tf = pytest.importorskip('tensorflow')
    path = str(tmp_path / 'records')
    payloads = [_random(n, 5) for n in (0, 1, 3, 1021, 70001, 300007, 1048583)]
    with tf.io.TFRecordWriter(path) as writer:
        for payload in payloads:
            writer.write(payload)
    data = open(path, 'rb').read()
    pos = 0
    for payload in payloads:
        length_bytes = data[pos:pos + 8]
        length, length_crc = struct.unpack_from('<QI', data, pos)
        assert length == len(payload)
        assert crc32c.unmask(length_crc) == crc32c.numpy_crc32c(length_bytes)
        pos += 12
        assert data[pos:pos + length] == payload
        stored, = struct.unpack_from('<I', data, pos + length)
        assert crc32c.unmask(stored) == crc32c.numpy_crc32c(memoryview(data)[pos:pos + length])
        pos += length + 4
    assert pos == len(data)


def test_checkpoint_written_by_tensorflow_reads_with_numpy_crcs(tmp_path, monkeypatch):
    """Variables of odd sizes up to 9 MB (every lane step, and the threads): the bundle reader
    checks TensorFlow's stored checksums with the numpy formulation and returns the values."""
    tf = pytest.importorskip('tensorflow')
    from mo.front.tf.tensor_bundle import BundleReader
    monkeypatch.setattr(crc32c, '_COMPILED', None)
    rng = np.random.default_rng(6)
    values = {'v%d' % i: rng.integers(0, 250, n, dtype=np.uint8)
              for i, n in enumerate((1, 7, 2051, 65539, 1048573, 9 * (1 << 20) + 3))}
    checkpoint = tf.train.Checkpoint(**{k: tf.Variable(v) for k, v in values.items()})
    prefix = checkpoint.write(str(tmp_path / 'ckpt'))
    reader = BundleReader(prefix)
    for name, value in values.items():
        np.testing.assert_array_equal(reader.tensor(name + '/.ATTRIBUTES/VARIABLE_VALUE'), value)


def test_an_installed_compiled_package_agrees():
    """``crc32c`` takes a compiled package when one is installed: same values, same inputs accepted."""
    if crc32c._COMPILED is None:
        pytest.skip('no compiled CRC-32C package installed (google-crc32c or crc32c)')
    values = np.random.default_rng(9).standard_normal((333, 77)).astype(np.float32)
    for data in (b'123456789', values, values[::2], memoryview(values.tobytes())[3:], b''):
        assert crc32c.crc32c(data) == crc32c.numpy_crc32c(data)
        assert crc32c.crc32c(data, 0x1234) == crc32c.numpy_crc32c(data, 0x1234)
