"""TensorFlow's sorted string table (``tensorflow/core/lib/io/table``, LevelDB's format): the
``.index`` file of a checkpoint.

A table is data blocks, an index block pointing at them and a 48-byte footer::

    footer = metaindex handle, index handle (varint64 offset + size each), zero padding to
             40 bytes, then the magic number 0xdb4775248b80fb57 (fixed64, little-endian)
    block  = entries, then restart offsets (fixed32 each) and their count (fixed32),
             followed on disk by a 5-byte trailer: compression type (0: none) and the masked
             CRC-32C of the block and that type byte
    entry  = shared key bytes, unshared key bytes, value length (varint32 each),
             the unshared key suffix, the value

Keys are prefix-compressed against the previous entry; a restart point stores its key whole.
Every problem is an ``Error`` naming the file.
"""
import struct

from mo.front.tf import crc32c
from mo.utils.error import Error
from mo.utils.proto_wire import read_varint

MAGIC = 0xdb4775248b80fb57
FOOTER_SIZE = 48
TRAILER_SIZE = 5
_NO_COMPRESSION = 0


class Table:
    """The entries of one table file, read whole (``items()``) after every block is checked."""

    def __init__(self, path: str, data: bytes):
        self.path = path
        self.data = data

    def _fail(self, what, *args):
        raise Error('Checkpoint index "{}" is corrupt: ' + what, self.path, *args)

    def _footer(self):
        data = self.data
        if len(data) < FOOTER_SIZE:
            self._fail('{} bytes, too short for a table (truncated?)', len(data))
        footer = len(data) - FOOTER_SIZE
        magic, = struct.unpack_from('<Q', data, len(data) - 8)
        if magic != MAGIC:
            self._fail('no table magic number at its end (truncated, or not a checkpoint index)')
        try:
            pos = footer
            handles = []
            for _ in range(2):
                offset, pos = read_varint(data, pos, len(data) - 8)
                size, pos = read_varint(data, pos, len(data) - 8)
                handles.append((offset, size))
        except ValueError:
            self._fail('its footer is malformed')
        return handles[1]  # the index block; the metaindex is empty in checkpoints

    def _block(self, offset: int, size: int, what: str) -> memoryview:
        """The contents of the block at ``offset`` after its trailer's checks."""
        end = offset + size
        if end + TRAILER_SIZE > len(self.data) - FOOTER_SIZE:
            self._fail('the {} at offset {} runs past the end of the file (truncated?)', what, offset)
        block = memoryview(self.data)[offset:end]
        compression = self.data[end]
        stored, = struct.unpack_from('<I', self.data, end + 1)
        actual = crc32c.crc32c(self.data[end:end + 1], crc32c.crc32c(block))
        if crc32c.unmask(stored) != actual:
            self._fail('checksum mismatch in the {} at offset {}', what, offset)
        if compression != _NO_COMPRESSION:
            self._fail('the {} at offset {} is compressed (type {}), which mo does not read', what, offset,
                       compression)
        return block

    def _entries(self, block: memoryview, what: str):
        """``(key bytes, value memoryview)`` of each entry of a block."""
        if len(block) < 4:
            self._fail('the {} is too short', what)
        restarts, = struct.unpack_from('<I', block, len(block) - 4)
        limit = len(block) - 4 - 4 * restarts
        if limit < 0:
            self._fail('the {} has a bad restart count', what)
        pos, key = 0, b''
        try:
            while pos < limit:
                shared, pos = read_varint(block, pos, limit)
                unshared, pos = read_varint(block, pos, limit)
                length, pos = read_varint(block, pos, limit)
                if shared > len(key) or pos + unshared + length > limit:
                    raise ValueError
                key = key[:shared] + bytes(block[pos:pos + unshared])
                pos += unshared
                yield key, block[pos:pos + length]
                pos += length
        except ValueError:
            self._fail('the {} has a malformed entry after key "{}"', what, key.decode('utf-8', 'replace'))

    def items(self):
        """Every ``(key bytes, value memoryview)`` of the table, in key order."""
        index_offset, index_size = self._footer()
        index = self._block(index_offset, index_size, 'index block')
        for _, handle in self._entries(index, 'index block'):
            try:
                offset, pos = read_varint(handle, 0, len(handle))
                size, _ = read_varint(handle, pos, len(handle))
            except ValueError:
                self._fail('the index block has a malformed block handle')
            block = self._block(offset, size, 'data block')
            yield from self._entries(block, 'data block at offset {}'.format(offset))
