"""TensorFlow checkpoints (tensor bundles, format V2) read without TensorFlow.

A checkpoint ``PREFIX`` is ``PREFIX.index``, a sorted string table (``mo.front.tf.sstable``)
whose entry ``""`` is a ``BundleHeaderProto`` (number of shards, endianness) and whose other
entries map each tensor's key to a ``BundleEntryProto`` (dtype, shape, shard, offset, size,
masked CRC-32C), and the shards ``PREFIX.data-00000-of-0000N`` holding the bytes.

The shards are memory-mapped: a numeric tensor is a read-only numpy view of its shard, so a
model's weights are never copied on the way to the IR. Each tensor's checksum is checked when
it is first read (and only then: tensors a model does not use cost nothing; within
``BundleReader.checks_in_background`` on a second thread, while the reader goes on); after the check
its pages are handed back to the page cache (``madvise(MADV_DONTNEED)``), so that checking
gigabytes does not make them all resident at once. A tensor that was saved in slices (a
sharding policy splits what does not fit a shard) is the one exception: its slices are entries
of their own, keyed by ``slice_key``, and are copied into one array. Strings (the object graph of a TF2
checkpoint) are stored as varint64 lengths, the masked CRC-32C of the lengths taken as fixed32
values, then the bytes.
"""
import contextlib
import mmap
import os
import queue
import struct
import sys
import threading

import numpy as np

from mo.front.tf import crc32c, dtypes
from mo.front.tf.proto import BundleEntryProto, BundleHeaderProto
from mo.front.tf.sstable import Table
from mo.utils.proto_wire import read_varint
from mo.utils import mapped_files
from mo.utils.error import Error

#: the TF2 checkpoint's object graph (a TrackableObjectGraph) is stored under this key
OBJECT_GRAPH_KEY = '_CHECKPOINTABLE_OBJECT_GRAPH'

#: ``madvise(MADV_POPULATE_READ)`` (Linux 5.14 on): maps a range's pages in one call, where reading them
#: would take a page fault each (the checksum of big tensors ran 20-45% faster with it, measured in
#: isolation on a busy machine); older kernels refuse it
_MADV_POPULATE_READ = getattr(mmap, 'MADV_POPULATE_READ', 22 if sys.platform.startswith('linux') else None)
_POPULATE_MIN = 1 << 20



def _ordered_unsigned(value: int) -> bytes:
    """TensorFlow's OrderedCode for a non-negative number: its byte count, then its bytes, big-endian."""
    body = value.to_bytes((value.bit_length() + 7) // 8, 'big')
    return bytes([len(body)]) + body


#: OrderedCode's header bits of a signed number, by its encoded length
_SIGNED_HEADER = {1: (0x80, 0), 2: (0xc0, 0), 3: (0xe0, 0), 4: (0xf0, 0), 5: (0xf8, 0), 6: (0xfc, 0), 7: (0xfe, 0),
                  8: (0xff, 0), 9: (0xff, 0x80), 10: (0xff, 0xc0)}


def _ordered_signed(value: int) -> bytes:
    """OrderedCode for a signed number: 7 payload bits per byte, the length in leading header bits."""
    magnitude = ~value if value < 0 else value
    length = min(magnitude.bit_length() // 7 + 1, 10)
    body = bytearray((value & ((1 << (8 * length)) - 1)).to_bytes(length, 'big'))
    first, second = _SIGNED_HEADER[length]
    body[0] ^= first
    if length > 1:
        body[1] ^= second
    return bytes(body)


def slice_key(name: str, extents) -> str:
    """The index key of one slice of tensor ``name``: ``extents`` is ``[(start, length)]`` per
    dimension (length -1: all of it), encoded as TensorFlow's ``EncodeTensorNameSlice`` does."""
    escaped = name.encode('utf-8').replace(b'\xff', b'\xff\x00').replace(b'\x00', b'\x00\xff')
    key = _ordered_unsigned(0) + escaped + b'\x00\x01' + _ordered_unsigned(len(extents))
    for start, length in extents:
        key += _ordered_signed(start) + _ordered_signed(length)
    return key.decode('latin-1')


def shard_path(prefix: str, shard: int, num_shards: int) -> str:
    return '{}.data-{:05d}-of-{:05d}'.format(prefix, shard, num_shards)


def is_checkpoint(prefix: str) -> bool:
    """True when ``PREFIX.index`` exists."""
    return os.path.isfile(prefix + '.index')


class BundleReader:
    """The tensors of the checkpoint ``prefix`` by key; ``tensor(key)`` reads one.

    ``what`` describes the checkpoint in messages (e.g. the SavedModel it belongs to).
    """

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.index_path = prefix + '.index'
        try:
            with open(self.index_path, 'rb') as f:
                data = f.read()
        except FileNotFoundError:
            raise Error('Cannot read the checkpoint "{}": its index file "{}" does not exist', prefix,
                        self.index_path) from None
        except OSError as e:
            raise Error('Cannot read the checkpoint index "{}": {}', self.index_path, e.strerror or e) from None
        self.entries = {}
        header = None
        for key, value in Table(self.index_path, data).items():
            try:
                if key == b'':
                    header = BundleHeaderProto.FromString(bytes(value))
                else:  # slices of a tensor have binary keys (``slice_key``): kept byte for byte
                    name = key.decode('latin-1') if key.startswith(b'\x00') else key.decode('utf-8')
                    self.entries[name] = BundleEntryProto.FromString(bytes(value))
            except Exception:  # noqa: B902 - protobuf's DecodeError, or bad UTF-8 in a key
                raise Error('Checkpoint index "{}" is corrupt: the entry "{}" does not parse', self.index_path,
                            key.decode('utf-8', 'replace')) from None
        if header is None:
            raise Error('Checkpoint index "{}" is corrupt: it has no bundle header', self.index_path)
        if header.endianness != 0:
            raise Error('Checkpoint "{}" is big-endian, which mo does not read', prefix)
        self.num_shards = header.num_shards
        self._shards = {}
        #: the thread checking tensors in ``checks_in_background``, else None
        self._checker = None

    def __contains__(self, key):
        return key in self.entries

    def keys(self):
        """The tensors' keys, without those of their slices."""
        return sorted(k for k in self.entries if not k.startswith('\x00'))

    def _shard(self, shard_id: int, key: str):
        """The mapped bytes of a shard (``b''`` for an empty one)."""
        if shard_id in self._shards:
            return self._shards[shard_id]
        if not 0 <= shard_id < self.num_shards:
            raise Error('Checkpoint index "{}" is corrupt: variable "{}" is in shard {} of {}', self.index_path,
                        key, shard_id, self.num_shards)
        path = shard_path(self.prefix, shard_id, self.num_shards)
        try:
            with open(path, 'rb') as f:
                size = os.fstat(f.fileno()).st_size
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b''
        except FileNotFoundError:
            raise Error('Cannot read variable "{}": the checkpoint shard "{}" does not exist', key, path) from None
        except OSError as e:
            raise Error('Cannot read the checkpoint shard "{}": {}', path, e.strerror or e) from None
        if size:
            mapped_files.register(mapped)
        self._shards[shard_id] = (path, mapped)
        return path, mapped

    def entry(self, key: str, what: str = None):
        """The ``BundleEntryProto`` of ``key``; an Error naming ``what`` (default: the key) if absent."""
        entry = self.entries.get(key)
        if entry is None:
            raise Error('Variable "{}" is not in the checkpoint index "{}"{}', what or key, self.index_path,
                        '' if what is None else ' (no key "{}")'.format(key))
        return entry

    def tensor(self, key: str, what: str = None) -> np.ndarray:
        """The tensor stored under ``key``: a read-only view of its shard (strings: an object array).

        ``what`` names the variable in messages. A missing key, shard or byte, or a checksum
        mismatch, is an Error naming the file and the variable.
        """
        what = what or key
        entry = self.entry(key, what)
        if len(entry.slices):
            return self._assemble(key, entry, what)
        return self._read(entry, what)

    def _read(self, entry, what: str) -> np.ndarray:
        path, mapped = self._shard(entry.shard_id, what)
        start, size = int(entry.offset), int(entry.size)
        if start < 0 or size < 0 or start + size > len(mapped):
            raise Error('Checkpoint shard "{}" is truncated: variable "{}" needs bytes {}..{}, the file has {}',
                        path, what, start, start + size, len(mapped))
        shape = tuple(int(d.size) for d in entry.shape.dim)
        if entry.dtype == dtypes.DT_STRING:
            return self._strings(path, mapped, start, size, shape, entry, what)
        if not dtypes.is_known(entry.dtype) or entry.dtype in (dtypes.DT_RESOURCE, dtypes.DT_VARIANT):
            raise Error('Variable "{}" of checkpoint "{}" has a type mo does not read ({})', what, self.prefix,
                        entry.dtype)
        storage = np.dtype(dtypes.np_dtype(entry.dtype))
        count = int(np.prod(shape, dtype=np.int64))
        if count * storage.itemsize != size:
            raise Error('Checkpoint index "{}" is corrupt: variable "{}" of shape {} takes {} bytes, not {}',
                        self.index_path, what, list(shape), count * storage.itemsize, size)
        view = memoryview(mapped)[start:start + size] if size else b''
        if self._checker is not None:
            self._checker.put((mapped, start, size, view, entry, path, what))
        else:
            self._check_and_release(mapped, start, size, view, entry, path, what)
        return np.frombuffer(view, dtype=storage, count=count).reshape(shape)

    @contextlib.contextmanager
    def checks_in_background(self):
        """A context in which ``tensor`` returns numeric tensors at once and their checksums are
        verified on a second thread (the check reads every byte: a model's weights take a tenth of a
        second, time the caller spends building the graph meanwhile). Leaving the context waits for
        the checks and raises the Error of the first tensor, in reading order, that failed its check."""
        if self._checker is not None:  # nested: the outer context waits
            yield self
            return
        checker = self._checker = _BackgroundChecks(self._check_and_release)
        try:
            yield self
        except BaseException:
            self._checker = None
            checker.finish()
            raise
        self._checker = None
        checker.finish(raise_error=True)

    def _check_and_release(self, mapped, start, size, view, entry, path, what):
        _populate(mapped, start, size)
        self._check(view, entry, path, what)
        self._release(mapped, start, size)

    def _assemble(self, key: str, entry, what: str) -> np.ndarray:
        """A tensor saved in slices (a sharding policy split it, or a partitioned variable): each
        slice is an entry of its own, keyed by ``slice_key``; the tensor is their copy, put together."""
        shape = tuple(int(d.size) for d in entry.shape.dim)
        if not dtypes.is_known(entry.dtype) or entry.dtype in (dtypes.DT_STRING, dtypes.DT_RESOURCE,
                                                                dtypes.DT_VARIANT):
            raise Error('Variable "{}" of checkpoint "{}" is sliced and of a type mo does not read ({})', what,
                        self.prefix, entry.dtype)
        result = np.empty(shape, dtype=dtypes.np_dtype(entry.dtype))
        covered = 0
        for piece in entry.slices:
            if len(piece.extent) not in (0, len(shape)):
                raise Error('Checkpoint index "{}" is corrupt: a slice of variable "{}" has {} dimensions, the '
                            'variable {}', self.index_path, what, len(piece.extent), len(shape))
            extents = [(int(e.start), int(e.length) if e.HasField('length') else -1) for e in piece.extent]
            region = tuple(slice(0, size) if length < 0 else slice(start, start + length)
                           for (start, length), size in zip(extents, shape))
            slice_entry = self.entries.get(slice_key(key, extents))
            if slice_entry is None:
                raise Error('Checkpoint index "{}" is corrupt: variable "{}" lacks its slice {}', self.index_path,
                            what, extents)
            value = self._read(slice_entry, what)
            target = result[region]
            if value.shape != target.shape:
                raise Error('Checkpoint index "{}" is corrupt: slice {} of variable "{}" has shape {}', self.index_path,
                            extents, what, list(value.shape))
            target[...] = value
            covered += value.size
        if covered != result.size:
            raise Error('Checkpoint index "{}" is corrupt: the slices of variable "{}" cover {} of its {} elements',
                        self.index_path, what, covered, result.size)
        result.flags.writeable = False
        return result

    @staticmethod
    def _check(data, entry, path, what):
        if crc32c.crc32c(data) != crc32c.unmask(entry.crc32c):
            raise Error('Checkpoint shard "{}" is corrupt: checksum mismatch in variable "{}"', path, what)

    @staticmethod
    def _release(mapped, start: int, size: int):
        """Drop the pages just checked from this process's resident set (they stay in the page cache)."""
        mapped_files.release_range(mapped, start, size)

    def _strings(self, path, mapped, start, size, shape, entry, what):
        buf = memoryview(mapped)[start:start + size]
        count = int(np.prod(shape, dtype=np.int64))
        try:
            lengths, pos = [], 0
            for _ in range(count):
                length, pos = read_varint(buf, pos, size)
                lengths.append(length)
            if pos + 4 + sum(lengths) != size:
                raise ValueError
        except ValueError:
            raise Error('Checkpoint shard "{}" is corrupt: string variable "{}" is malformed', path, what) from None
        lengths_crc = crc32c.crc32c(struct.pack('<{}I'.format(count), *lengths))
        stored_lengths_crc, = struct.unpack_from('<I', buf, pos)
        if crc32c.unmask(stored_lengths_crc) != lengths_crc:
            raise Error('Checkpoint shard "{}" is corrupt: checksum mismatch in variable "{}"', path, what)
        # the tensor's checksum runs over the lengths as fixed32 values (not the varints), the
        # stored length checksum, then the strings
        crc = crc32c.crc32c(buf[pos:pos + 4], lengths_crc)
        pos += 4
        if crc32c.crc32c(buf[pos:], crc) != crc32c.unmask(entry.crc32c):
            raise Error('Checkpoint shard "{}" is corrupt: checksum mismatch in variable "{}"', path, what)
        values = np.empty(count, dtype=object)
        for i, length in enumerate(lengths):
            values[i] = bytes(buf[pos:pos + length])
            pos += length
        return values.reshape(shape)


def _populate(mapped, start: int, size: int):
    """Map the pages of ``mapped[start:start + size]`` ahead of reading them all (a hint: errors are ignored)."""
    if _MADV_POPULATE_READ is None or size < _POPULATE_MIN or not hasattr(mapped, 'madvise'):
        return
    first = start - start % mmap.PAGESIZE
    try:
        mapped.madvise(_MADV_POPULATE_READ, first, start + size - first)
    except (OSError, ValueError):
        pass


class _BackgroundChecks:
    """Runs ``check(*item)`` for each item ``put``, in order, on its own thread; keeps the first Error."""

    _DONE = object()

    def __init__(self, check):
        self._check = check
        self._queue = queue.SimpleQueue()
        self._error = None
        self._thread = threading.Thread(target=self._run, name='mo-checksums', daemon=True)
        self._thread.start()

    def put(self, item):
        self._queue.put(item)

    def _run(self):
        while True:
            item = self._queue.get()
            if item is self._DONE:
                return
            if self._error is None:  # after a failure, only drain the queue
                try:
                    self._check(*item)
                except BaseException as exc:  # re-raised by finish() on the reading thread
                    self._error = exc

    def finish(self, raise_error: bool = False):
        """Wait for the checks queued so far; raise the first one's error if ``raise_error``."""
        self._queue.put(self._DONE)
        self._thread.join()
        if raise_error and self._error is not None:
            raise self._error
