"""Write the ``.bin`` on a second thread while the main thread builds the rest of the IR.

Turning weights into bytes (the C-order copy of a transposed view) and writing them are numpy
copies and file writes, which run without Python's global lock; the emitter meanwhile walks the
graph and renders the XML. The chunks arrive through a queue in layout order, each with its place in
the file, so that they can be written in any order: once the XML is done, the main thread, which
would only wait, takes chunks from the queue too (the weights of a big model take longer to copy
than the XML takes to render).
"""
import os
import queue
import threading

import numpy as np

from mo.back.ir.bin_packer import chunk_bytes
from mo.utils import mapped_files

_DONE = object()

#: a view not in C order (a transposed weight) is copied and written in parts of about this many bytes, not whole:
#: two threads each holding a whole copy of a big weight would add twice its size to the peak
_PART_BYTES = 4 << 20


def _parts(offset: int, chunk):
    """``(offset, piece)`` pairs that write ``chunk``: itself, or a view not in C order as slices along its first
    axis (each a contiguous run of the C-order bytes)."""
    if not isinstance(chunk, np.ndarray) or chunk.flags.c_contiguous or chunk.ndim < 2 or \
            chunk.nbytes <= 2 * _PART_BYTES:
        return [(offset, chunk)]
    row_bytes = chunk.nbytes // chunk.shape[0]
    step = max(1, _PART_BYTES // max(row_bytes, 1))
    return [(offset + start * row_bytes, chunk[start:start + step]) for start in range(0, chunk.shape[0], step)]


class BackgroundFileWriter:
    """Writes the chunks given to ``put`` into ``handle`` (a regular file, written from offset 0 with
    ``os.pwrite``, not through the handle's buffer) on its own thread, and on the caller's in ``finish``."""

    def __init__(self, handle):
        self._handle = handle
        self._fd = handle.fileno()
        self._seek_lock = threading.Lock()  # where there is no os.pwrite
        self._offset = 0
        self._queue = queue.SimpleQueue()
        self._error = None
        self._thread = threading.Thread(target=self._run, name='mo-bin-writer', daemon=True)
        self._thread.start()

    def put(self, chunk):
        """Queue ``chunk`` (bytes-like, or an array laid out by ``BinPacker``) to follow the chunks put before."""
        self._queue.put((self._offset, chunk))
        self._offset += chunk.nbytes if isinstance(chunk, np.ndarray) else len(chunk)

    def _run(self):
        while True:
            item = self._queue.get()
            if item is _DONE:
                return
            self._write(*item)

    def _help(self):
        """Write queued chunks on the calling thread until the queue is empty."""
        while self._error is None:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            self._write(*item)

    def _write(self, offset: int, chunk):
        if self._error is not None:  # after a failure, only drain the queue
            return
        try:
            for part_offset, part in _parts(offset, chunk):
                self._write_at(part_offset, memoryview(chunk_bytes(part)).cast('B'))
            mapped_files.release(chunk)  # weights viewing a checkpoint: their pages are done
        except BaseException as exc:  # re-raised on the main thread by finish()
            if self._error is None:
                self._error = exc

    def _write_at(self, offset: int, data: memoryview):
        if not hasattr(os, 'pwrite'):
            with self._seek_lock:
                self._handle.seek(offset)
                self._handle.write(data)
            return
        while data:
            written = os.pwrite(self._fd, data, offset)
            if not written:
                raise OSError('no byte of the .bin written at offset {}'.format(offset))
            data, offset = data[written:], offset + written

    def finish(self, raise_error: bool = True):
        """Wait until every chunk is written, writing some on this thread; raise what writing raised, if
        anything (and wanted: ``raise_error=False`` only stops the thread after a failure elsewhere)."""
        if raise_error:
            self._help()
        self._queue.put(_DONE)
        self._thread.join()
        if self._error is not None and raise_error:
            raise self._error
