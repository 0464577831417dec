"""Writing files whole or not at all."""
import os
import tempfile
from contextlib import contextmanager


@contextmanager
def atomic_output(path: str, mode: str = 'wb'):
    """Yield a temporary file next to ``path``; on success it replaces ``path`` in one rename.

    On any failure the temporary file is removed and an existing ``path`` is left untouched.
    """
    directory = os.path.dirname(os.path.abspath(path)) or '.'
    fd, tmp_path = tempfile.mkstemp(prefix='.' + os.path.basename(path) + '.', suffix='.tmp', dir=directory)
    try:
        with os.fdopen(fd, mode) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        try:
            os.unlink(tmp_path)
        except OSError:
            pass
        raise


def write_bytes_atomically(path: str, data: bytes):
    with atomic_output(path, 'wb') as handle:
        handle.write(data)


def write_text_atomically(path: str, text: str):
    write_bytes_atomically(path, text.encode('utf-8'))
