"""The IR's ``.bin``: constant tensors stored back to back, each once, each aligned.

OpenVINO maps the ``.bin`` into memory and lets a Const point straight at its bytes, so every
blob starts at a multiple of ``ALIGNMENT`` (64: a cache line, and more than any element type
needs); the gaps are zero bytes. Identical blobs (same element type and bytes) share one copy,
which is what tied weights and repeated small constants (axes, shapes) give.
"""

import numpy as np

from mo.back.ir.ir_types import element_type, is_nibble_type, packed_bytes

#: every blob starts at a multiple of this many bytes
ALIGNMENT = 64
#: blobs smaller than this are copied into a batch at once, and a batch goes out when it reaches
#: _BATCH_BYTES: a model's many small constants (axes, shapes, scalars) would otherwise cost a chunk and
#: a padding chunk each, queued, converted and written one by one
_SMALL_BLOB = 1 << 16
_BATCH_BYTES = 1 << 20


def tensor_bytes(value: np.ndarray) -> np.ndarray:
    """The IR's binary form of ``value`` as a flat uint8 array: C order, little-endian, bools 0/1, int4/uint4
    two per byte.

    A C-contiguous little-endian array is viewed, not copied: weights stay views of the bytes
    they were read from until the ``.bin`` is written.
    """
    value = _storable(value)
    return c_order(value).reshape(-1).view(np.uint8)


def _storable(value) -> np.ndarray:
    """``value`` with the element encoding of the IR (little-endian, bools as 0/1 bytes), not yet
    in C order: a transposed view stays a view until its bytes are written. int4/uint4 become their packed
    bytes (flat uint8) at once: numpy has no view that packs."""
    value = np.asarray(value)
    if is_nibble_type(value.dtype):
        return packed_bytes(value)
    if value.dtype == np.bool_:
        # a bool array built by a view may hold bytes other than 0/1; the IR wants exactly 0/1
        return value.astype(np.uint8)
    if value.dtype.byteorder == '>' or (value.dtype.byteorder == '=' and np.little_endian is False):
        return value.astype(value.dtype.newbyteorder('<'))
    return value


#: smaller arrays are copied in one go (a tiled copy's Python-level loop costs more than it saves)
_TILED_MIN = 1 << 16
#: a tile of a tiled copy reads at least this many rows of its source ...
_TILE_ROWS = 16
#: ... and at least this many bytes
_TILE_BYTES = 1 << 14


def c_order(value: np.ndarray) -> np.ndarray:
    """``value`` in C order: itself if it is already, else a copy.

    Most big weights reach the writer as transposed views of a checkpoint (HWIO seen as OIHW). numpy
    copies such a view in the order it writes, reading one element from each source row in turn: rows
    a power of two of bytes apart compete for the same cache sets and defeat the prefetcher, and the copy
    takes two to four times as long as this one, which copies a few source rows at a time (a tile that
    stays in the cache), in slices along the axis that holds the source's rows.
    """
    if value.flags.c_contiguous:
        return value
    axes = sorted((stride, axis) for axis, (size, stride) in enumerate(zip(value.shape, value.strides))
                  if size > 1)
    last = max(axis for _, axis in axes) if axes else 0
    if value.nbytes < _TILED_MIN or len(axes) < 2 or axes[0][0] != value.itemsize or axes[0][1] == last:
        # nothing to gain: a vector, not a view of contiguous rows, or one that reads them in order already
        return np.ascontiguousarray(value)
    rows_axis = axes[1][1]
    rows = value.shape[rows_axis]
    step = max(_TILE_ROWS, _TILE_BYTES * rows // value.nbytes)
    result = np.empty(value.shape, value.dtype)
    for start in range(0, rows, step):
        tile = (slice(None),) * rows_axis + (slice(start, start + step),)
        result[tile] = value[tile]
    return result


#: how many elements at each end of a blob its deduplication key holds
_END_ELEMENTS = 16


def _ends(value: np.ndarray, count: int = _END_ELEMENTS):
    """The first and last ``count`` elements' bytes in C order, without copying the rest."""
    flat = value.flat
    size = value.size
    return flat[:count].tobytes(), flat[max(size - count, 0):size].tobytes()


class BinPacker:
    """Lays out blobs; ``add(array)`` gives ``(offset, size)``, ``write_to``/``getvalue`` the ``.bin``.

    Large blobs are kept as the arrays given (often transposed views of the weights) and turned into
    bytes only when written, so that ``sink`` -- if given, called with every chunk as it is laid
    out, and then the packer keeps none -- can write them on another thread while the rest of the IR
    is built; small ones are copied into batches. ``flush()`` hands over the last batch.
    """

    def __init__(self, alignment: int = ALIGNMENT, sink=None):
        self.alignment = alignment
        self._chunks = []
        self._batch = bytearray()
        self._length = 0
        self._sink = sink
        #: (element type, size, head, tail) -> [(offset, array)]: a cheap key, then a full comparison
        self._seen = {}
        #: (element type, size, bytes) -> offset, for the blobs whose ends are all of them
        self._small_seen = {}
        self.deduplicated = 0

    def add(self, value: np.ndarray):
        """Store ``value`` (or find an identical stored copy); return its ``(offset, size)``."""
        value = _storable(value)
        size = int(value.nbytes)
        whole = value.size <= 2 * _END_ELEMENTS
        if whole:
            # the key holds every byte: an equal key is an equal blob
            blob = value.tobytes()
            key = (element_type(value.dtype), size, blob)
            offset = self._small_seen.get(key)
            if offset is not None:
                self.deduplicated += 1
                return offset, size
        else:
            # hashing every weight costs more than it saves: blobs that share type, size and their first
            # and last elements are rare, and those few are compared in full
            key = (element_type(value.dtype), size) + _ends(value)
            for offset, stored in self._seen.get(key, ()):
                if np.array_equal(tensor_bytes(stored), tensor_bytes(value)):  # bytes: 0.0 is not -0.0
                    self.deduplicated += 1
                    return offset, size
        padding = -self._length % self.alignment
        offset = self._length + padding
        self._batch += bytes(padding)
        if size < _SMALL_BLOB:
            self._batch += blob if whole else value.tobytes()  # tobytes: C order, as tensor_bytes
            if len(self._batch) >= _BATCH_BYTES:
                self.flush()
        else:
            self.flush()
            self._append(value)
        self._length = offset + size
        if whole:
            self._small_seen[key] = offset
        else:
            self._seen.setdefault(key, []).append((offset, value))
        return offset, size

    def flush(self):
        """Hand the batch of small blobs laid out so far to the sink (or the chunks)."""
        if self._batch:
            self._append(self._batch)
            self._batch = bytearray()

    def _append(self, chunk):
        if self._sink is not None:
            self._sink(chunk)
        else:
            self._chunks.append(chunk)

    def __len__(self):
        return self._length

    def getvalue(self) -> bytes:
        self.flush()
        return b''.join(chunk_bytes(chunk) for chunk in self._chunks)

    def write_to(self, handle):
        """Write the ``.bin`` to an open binary file without assembling it in memory first."""
        self.flush()
        for chunk in self._chunks:
            handle.write(chunk_bytes(chunk))


def chunk_bytes(chunk):
    """A laid-out chunk (padding bytes or an array from ``BinPacker.add``) as a bytes-like object."""
    return tensor_bytes(chunk) if isinstance(chunk, np.ndarray) else chunk
