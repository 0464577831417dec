"""The IR's ``.bin``: constant tensors stored back to back, each once, each aligned.

OpenVINO maps the ``.bin`` into memory and lets a Const point straight at its bytes, so every
blob starts at a multiple of ``ALIGNMENT`` (64: a cache line, and more than any element type
needs); the gaps are zero bytes. Identical blobs (same element type and bytes) share one copy,
which is what tied weights and repeated small constants (axes, shapes) give.
"""

import numpy as np

from mo.back.ir.ir_types import element_type

#: every blob starts at a multiple of this many bytes
ALIGNMENT = 64


def tensor_bytes(value: np.ndarray) -> np.ndarray:
    """The IR's binary form of ``value`` as a flat uint8 array: C order, little-endian, bools 0/1.

    A C-contiguous little-endian array is viewed, not copied: weights stay views of the bytes
    they were read from until the ``.bin`` is joined.
    """
    value = np.asarray(value)
    if value.dtype == np.bool_:
        # a bool array built by a view may hold bytes other than 0/1; the IR wants exactly 0/1
        return np.ascontiguousarray(value.astype(np.uint8)).reshape(-1)
    little = value.dtype.newbyteorder('<')
    return np.ascontiguousarray(value, dtype=little).reshape(-1).view(np.uint8)


class BinPacker:
    """Collects blobs; ``add(array)`` gives ``(offset, size)``, ``getvalue()`` the finished ``.bin``."""

    def __init__(self, alignment: int = ALIGNMENT):
        self.alignment = alignment
        self._chunks = []
        self._length = 0
        #: (element type, size, head, tail) -> [(offset, bytes)]: a cheap key, then a full comparison
        self._seen = {}
        self.deduplicated = 0

    def add(self, value: np.ndarray):
        """Store ``value`` (or find an identical stored copy); return its ``(offset, size)``."""
        data = tensor_bytes(value)
        size = int(data.size)
        # hashing every weight costs more than it saves: blobs that share type, size and their first
        # and last bytes are rare, and those few are compared in full
        key = (element_type(np.asarray(value).dtype), size, data[:64].tobytes(), data[-64:].tobytes())
        for offset, stored in self._seen.get(key, ()):
            if np.array_equal(stored, data):
                self.deduplicated += 1
                return offset, size
        padding = -self._length % self.alignment
        if padding:
            self._chunks.append(bytes(padding))
            self._length += padding
        offset = self._length
        self._chunks.append(data)
        self._length += size
        self._seen.setdefault(key, []).append((offset, data))
        return offset, size

    def __len__(self):
        return self._length

    def getvalue(self) -> bytes:
        return b''.join(self._chunks)

    def write_to(self, handle):
        """Write the ``.bin`` to an open binary file without assembling it in memory first."""
        for chunk in self._chunks:
            handle.write(chunk)
