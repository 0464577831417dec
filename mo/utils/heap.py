"""Give the C heap's free memory back to the operating system after a big structure is dropped.

The parsed GraphDef (or ONNX ModelProto) lives in protobuf's C arenas, allocated by ``malloc``: freed,
they stay in the C library's free lists, while everything the conversion allocates afterwards comes
from Python's own arenas (``mmap``) and never reuses them. On a model of 10^5 nodes that is 50 MB,
10^6 nodes 500 MB, of peak memory for nothing. ``malloc_trim(0)`` hands those pages back; it exists in
glibc only, and elsewhere this does nothing.
"""
import ctypes
import sys

_trim = None


def _malloc_trim():
    global _trim
    if _trim is None:
        _trim = False
        if sys.platform.startswith('linux'):
            try:
                trim = ctypes.CDLL(None).malloc_trim  # the C library the interpreter is linked with
            except (OSError, AttributeError):  # musl and others: no malloc_trim
                return False
            trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
            _trim = trim
    return _trim


def release_free_heap() -> None:
    """Return the C heap's free pages to the operating system (glibc), else nothing."""
    trim = _malloc_trim()
    if trim:
        trim(0)
