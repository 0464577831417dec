"""Write the ``.bin`` on a second thread while the main thread builds the rest of the IR.

Turning weights into bytes (the C-order copy of a transposed view) and writing them are numpy
copies and file writes, which run without Python's global lock; the emitter meanwhile walks the
graph and renders the XML. The chunks arrive through a queue in layout order.
"""
import queue
import threading

from mo.back.ir.bin_packer import chunk_bytes
from mo.utils import mapped_files

_DONE = object()


class BackgroundFileWriter:
    """Writes the chunks given to ``put`` into ``handle`` on its own thread, in order."""

    def __init__(self, handle):
        self._handle = handle
        self._queue = queue.SimpleQueue()
        self._error = None
        self._thread = threading.Thread(target=self._run, name='mo-bin-writer', daemon=True)
        self._thread.start()

    def put(self, chunk):
        self._queue.put(chunk)

    def _run(self):
        while True:
            chunk = self._queue.get()
            if chunk is _DONE:
                return
            if self._error is None:  # after a failure, only drain the queue
                try:
                    self._handle.write(chunk_bytes(chunk))
                    mapped_files.release(chunk)  # weights viewing a checkpoint: their pages are done
                except BaseException as exc:  # re-raised on the main thread by finish()
                    self._error = exc

    def finish(self, raise_error: bool = True):
        """Wait until every chunk is written; raise what writing raised, if anything (and wanted)."""
        self._queue.put(_DONE)
        self._thread.join()
        if self._error is not None and raise_error:
            raise self._error
