"""Paddle's parameter files, memory-mapped: every weight is a read-only numpy view of the file, never a copy.

A tensor is saved as one record (all integers little-endian):

    u32 version (0) | u64 lod levels, then per level: u64 byte count + that many bytes of offsets |
    u32 tensor version (0) | i32 n | n bytes of a serialized ``VarType.TensorDesc`` (dtype, dims) | the data

A ``.pdiparams`` file is the records of the program's persistable vars, one after another, in the order of
their names as Python's ``sorted`` orders them: that is how both the classic and the PIR savers write it, and
the file names no tensor, so the program alone tells which record is which. A Paddle 1.x model directory
holds one file per persistable var, named after it, with one record each.

Each record's dtype and element count are checked against the program's var: a params file of another model
(or another order) fails with an ``Error`` instead of giving wrong weights. The record's own dims are the
array's shape, as in Paddle.
"""
import mmap
import os
import struct

import numpy as np

from mo.front.paddle import dtypes
from mo.front.paddle.messages import message_class
from mo.utils import mapped_files
from mo.utils.error import Error

_U32, _U64, _I32 = struct.Struct('<I'), struct.Struct('<Q'), struct.Struct('<i')


class _Short(Exception):
    """The buffer ended inside a record: ``needed`` more bytes were wanted (None if unknown)."""

    def __init__(self, needed=None):
        super().__init__(needed)
        self.needed = needed


def map_file(path: str):
    """A read-only memory map of the file at ``path`` (an empty ``bytes`` for an empty file)."""
    try:
        with open(path, 'rb') as f:
            if os.fstat(f.fileno()).st_size == 0:
                return b''
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        raise Error('params file "{}" does not exist', path) from None
    except OSError as e:
        raise Error('params file "{}" cannot be read: {}', path, e.strerror or e) from None
    # the IR writer and the passes replacing weights hand the pages they are done with back to the system
    mapped_files.register(mapped)
    return mapped


def _take(buf, pos: int, size: int) -> int:
    if pos + size > len(buf):
        raise _Short(pos + size - len(buf))
    return pos + size


def read_record(buf, pos: int, describe):
    """``(array view, end position)`` of the tensor record at ``buf[pos:]``.

    ``describe`` names the record in messages (``'tensor 3 (conv1.w_0) of params file "x"'``). A buffer that
    ends inside the record raises ``_Short``; a malformed record raises ``Error``.
    """
    version, = _U32.unpack_from(buf, pos) if pos + 4 <= len(buf) else (None,)
    pos = _take(buf, pos, 4)
    if version != 0:
        raise Error('{} has version {}; Paddle writes 0: the file is damaged or holds no Paddle tensors',
                    describe(), version)
    pos = _take(buf, pos, 8)
    levels, = _U64.unpack_from(buf, pos - 8)
    if levels > 64:
        raise Error('{} claims {} LoD levels: the file is damaged', describe(), levels)
    for _ in range(levels):  # the LoD offsets: no use to inference, skipped
        pos = _take(buf, pos, 8)
        size, = _U64.unpack_from(buf, pos - 8)
        pos = _take(buf, pos, size)
    pos = _take(buf, pos, 8)
    tensor_version, desc_size = _U32.unpack_from(buf, pos - 8)[0], _I32.unpack_from(buf, pos - 4)[0]
    if tensor_version != 0 or desc_size < 0:
        raise Error('{} has tensor version {} and a description of {} bytes: the file is damaged', describe(),
                    tensor_version, desc_size)
    start = pos
    pos = _take(buf, pos, desc_size)
    try:
        desc = message_class('VarType.TensorDesc').FromString(bytes(buf[start:pos]))
    except Exception as e:  # protobuf's DecodeError differs between its backends
        raise Error('{} has a damaged description ({})', describe(), e) from None
    dtype = dtypes.from_var_type(desc.data_type) if desc.HasField('data_type') else None
    if dtype is None:
        raise Error('{} has an element type this reader does not know ({})', describe(),
                    desc.data_type if desc.HasField('data_type') else 'none')
    shape = [int(d) for d in desc.dims]
    if any(d < 0 for d in shape):
        raise Error('{} has dims {}: the file is damaged', describe(), shape)
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    start = pos
    pos = _take(buf, pos, count * dtype.itemsize)
    return np.frombuffer(buf, dtype, count, start).reshape(shape), pos


def _check(array, var, describe):
    """An ``Error`` when the record's tensor cannot be what the program declares for ``var``."""
    if var is None:
        return
    if var.dtype is not None and array.dtype != var.dtype:
        raise Error('{} holds {} {}, but the program declares {} {}: the params belong to another model or '
                    'another version of it', describe(), array.dtype.name, list(array.shape), var.dtype.name,
                    var.shape)
    if var.shape is not None and all(d >= 0 for d in var.shape):
        declared = int(np.prod(var.shape, dtype=np.int64)) if var.shape else 1
        if declared != array.size:
            raise Error('{} holds {} {}, but the program declares {} {}: the params belong to another model or '
                        'another version of it', describe(), array.dtype.name, list(array.shape),
                        var.dtype.name if var.dtype is not None else '?', var.shape)


def read_combined(path: str, names, expected=None) -> dict:
    """The tensors of the combined params file at ``path``: ``{name: read-only view}``, record i being
    ``names[i]`` (the caller gives the saved order: see the module's docstring). ``expected`` maps names to the
    program's ``Var``s to check each record against."""
    buf = map_file(path)
    names = list(names)
    expected = expected or {}
    found, pos = {}, 0
    for i, name in enumerate(names):
        def describe(i=i, name=name):
            return 'tensor {} of {} ({}) in params file "{}"'.format(i + 1, len(names), name, path)
        try:
            array, pos = read_record(buf, pos, describe)
        except _Short as short:
            needed = short.needed
            if i == 0 and pos >= len(buf):
                raise Error('params file "{}" is empty, but the program has {} persistable tensors', path,
                            len(names)) from None
            raise Error('params file "{}" ends after {} of {} tensors ({} needs {} bytes more)', path, i,
                        len(names), name, needed if needed is not None else 'some') from None
        _check(array, expected.get(name), describe)
        found[name] = array
    if pos != len(buf):
        raise Error('params file "{}" has {} bytes more than the {} tensors the program declares: the params '
                    'belong to another model or another version of it', path, len(buf) - pos, len(names))
    return found


def read_separate(directory: str, names, expected=None) -> dict:
    """The tensors of a Paddle 1.x model directory, one file per name: ``{name: read-only view}``."""
    expected = expected or {}
    found = {}
    for name in names:
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            raise Error('Paddle model directory "{}" has no file for parameter "{}"', directory, name)
        buf = map_file(path)

        def describe(path=path, name=name):
            return 'parameter file "{}" ({})'.format(path, name)
        try:
            array, end = read_record(buf, 0, describe)
        except _Short as short:
            raise Error('parameter file "{}" is cut short ({} needs {} bytes more)', path, name,
                        short.needed if short.needed is not None else 'some') from None
        if end != len(buf):
            raise Error('parameter file "{}" has {} bytes after its tensor: it is damaged or no Paddle '
                        'parameter', path, len(buf) - end)
        _check(array, expected.get(name), describe)
        found[name] = array
    return found


def saved_order(program) -> list:
    """The names of ``program``'s persistable vars in the order a combined params file holds them."""
    return sorted(program.persistable_vars())


def read_params(program, path: str) -> dict:
    """The weights of ``program`` (a ``model.Program``): from the combined file ``path``, or, when ``path`` is
    a directory, from its one-file-per-parameter layout. ``{name: read-only numpy view}``."""
    expected = program.persistable_vars()
    names = sorted(expected)
    if os.path.isdir(path):
        return read_separate(path, names, expected)
    if not names:
        return {}
    return read_combined(path, names, expected)
