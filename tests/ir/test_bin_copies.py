"""How the ``.bin`` gets its bytes: big transposed weights copied to C order tile by tile, and chunks written
at their places by the writing thread and the main thread together. numpy's own copy is the reference."""
import os

import numpy as np
import pytest

from mo.back.ir import background_writer
from mo.back.ir.background_writer import BackgroundFileWriter
from mo.back.ir.bin_packer import BinPacker, c_order, tensor_bytes

_DTYPES = [np.float32, np.float16, np.float64, np.int8, np.uint8, np.int64, np.bool_, np.dtype('>f4')]
_SHAPES = [(3, 3, 128, 256), (1, 1, 256, 1024), (1, 1, 1024, 2048), (5, 5, 96, 1), (2, 3, 4, 16, 32), (17, 640),
           (640, 17), (32, 32, 32), (3, 3, 64, 1000)]


@pytest.mark.parametrize('dtype', _DTYPES, ids=str)
@pytest.mark.parametrize('shape', _SHAPES, ids=str)
def test_c_order_of_views_is_numpys_copy(dtype, shape):
    rng = np.random.default_rng(len(shape))
    base = (rng.standard_normal(shape) * 50).astype(dtype)
    axes = list(range(len(shape)))
    permutations = [axes[::-1], axes[1:] + axes[:1], list(rng.permutation(axes))]
    for permutation in permutations:
        view = base.transpose(permutation)
        for sub in (view, view[::2], view[..., :max(view.shape[-1] // 2, 1)], view[::-1]):
            copied = c_order(sub)
            assert copied.flags.c_contiguous and copied.shape == sub.shape and copied.dtype == sub.dtype
            assert copied.tobytes() == np.ascontiguousarray(sub).tobytes()
            stored_as = np.uint8 if dtype == np.bool_ else np.dtype(dtype).newbyteorder('<')
            expected = np.ascontiguousarray(sub).astype(stored_as)
            assert tensor_bytes(sub).tobytes() == expected.tobytes()


def test_c_order_keeps_a_contiguous_array():
    array = np.arange(100000, dtype=np.float32).reshape(100, 1000)
    assert c_order(array) is array


def _chunks():
    rng = np.random.default_rng(3)
    chunks = []
    for i in range(60):
        weights = rng.standard_normal((3, 3, 64, 32 + i)).astype(np.float32)
        chunks.append(weights.transpose(3, 2, 0, 1))
        chunks.append(bytearray(rng.integers(0, 256, i * 7 + 1, dtype=np.uint8).tobytes()))
    return chunks


def test_background_writer_puts_every_chunk_in_its_place(tmp_path):
    chunks = _chunks()
    path = tmp_path / 'model.bin'
    with open(path, 'wb') as handle:
        writer = BackgroundFileWriter(handle)
        for chunk in chunks:
            writer.put(chunk)
        writer.finish()
    expected = b''.join(np.ascontiguousarray(c).tobytes() if isinstance(c, np.ndarray) else bytes(c) for c in chunks)
    assert path.read_bytes() == expected


def test_bin_packer_through_the_background_writer_gives_the_packed_bytes(tmp_path):
    """The same blobs laid out by a packer that keeps them in memory and by one that streams them to the file."""
    chunks = [c for c in _chunks() if isinstance(c, np.ndarray)] + [np.arange(10, dtype=np.int64)]
    in_memory = BinPacker()
    path = tmp_path / 'model.bin'
    with open(path, 'wb') as handle:
        writer = BackgroundFileWriter(handle)
        streamed = BinPacker(sink=writer.put)
        for chunk in chunks:
            assert streamed.add(chunk) == in_memory.add(chunk)
        streamed.flush()
        writer.finish()
    assert path.read_bytes() == in_memory.getvalue()


def test_a_failure_on_either_thread_is_raised_by_finish(tmp_path, monkeypatch):
    calls = []
    real = background_writer.chunk_bytes

    def failing_late(chunk):
        calls.append(1)
        if len(calls) == 50:
            raise OSError('disk full')
        return real(chunk)

    monkeypatch.setattr(background_writer, 'chunk_bytes', failing_late)
    with open(tmp_path / 'model.bin', 'wb') as handle:
        writer = BackgroundFileWriter(handle)
        for chunk in _chunks():
            writer.put(chunk)
        with pytest.raises(OSError, match='disk full'):
            writer.finish()
    assert os.path.getsize(tmp_path / 'model.bin') < sum(np.asarray(c).nbytes for c in _chunks())
