"""Memory-mapped input files whose pages a conversion hands back once it has read them.

A checkpoint's weights stay numpy views of its mapped shards all the way to the IR writer. Every
page read through a mapping counts in the process's resident memory until it is unmapped, so
writing 3 GB of weights would make 3 GB resident although each byte is needed only once. The
writer calls ``release(array)`` after an array's bytes are in the ``.bin``: if they lie in a
registered mapping, those pages are dropped from the process (``madvise(MADV_DONTNEED)``). They
stay in the page cache and are read again from the file if anything touches them later, so
releasing is always safe.
"""
import mmap
import threading
import weakref

import numpy as np

_lock = threading.Lock()
#: (first address, end address, weak reference to the mmap) of every registered mapping: a mapping
#: no longer in use drops out, so that callers converting many models in one process leak nothing
_mappings = []
_PAGE = mmap.PAGESIZE
_MIN_RELEASE = 1 << 20  # smaller arrays are not worth a system call


def register(mapped: mmap.mmap) -> None:
    """Let ``release`` drop pages of ``mapped`` (a read-only mapping of a file)."""
    if not hasattr(mapped, 'madvise') or not hasattr(mmap, 'MADV_DONTNEED') or not len(mapped):
        return
    start = np.frombuffer(mapped, dtype=np.uint8).__array_interface__['data'][0]
    with _lock:
        _mappings[:] = [m for m in _mappings if m[2]() is not None]
        _mappings.append((start, start + len(mapped), weakref.ref(mapped)))


def release_range(mapped, offset: int, size: int) -> None:
    """Drop the whole pages of ``mapped[offset:offset + size]`` from the resident set."""
    if size < _MIN_RELEASE or not hasattr(mapped, 'madvise') or not hasattr(mmap, 'MADV_DONTNEED'):
        return
    first = offset - offset % _PAGE
    try:
        mapped.madvise(mmap.MADV_DONTNEED, first, offset + size - first)
    except (OSError, ValueError):
        pass


def release(array) -> None:
    """Drop the pages holding ``array`` if it is a view of a registered mapping."""
    if not isinstance(array, np.ndarray) or array.nbytes < _MIN_RELEASE or not _mappings:
        return
    low, high = np.lib.array_utils.byte_bounds(array) if hasattr(np.lib, 'array_utils') else np.byte_bounds(array)
    with _lock:
        for start, end, ref in _mappings:
            mapped = ref()
            if mapped is not None and start <= low and high <= end:
                release_range(mapped, low - start, high - low)
                return
