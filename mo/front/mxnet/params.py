"""MXNet ``.params`` files (``mx.nd.save``'s NDArray lists) read with numpy alone.

The layout, all little-endian:

* the list: u64 magic ``0x112``, u64 reserved, u64 array count, the arrays, u64 name count (0, or one name
  per array), and each name as u64 length + UTF-8 bytes. Module checkpoints name arrays ``arg:NAME`` and
  ``aux:NAME``; Gluon's ``save_parameters`` writes bare names.
* an array, by its first u32:

  - ``NDARRAY_V2_MAGIC`` (MXNet >= 0.11) or ``NDARRAY_V3_MAGIC`` (saved under NumPy shape semantics):
    i32 storage type, [storage shape if sparse], shape, context, i32 type flag, [sparse: per aux array an
    i32 type flag and a shape], the data, [sparse: the aux arrays' data];
  - ``NDARRAY_V1_MAGIC``: shape, context, type flag, data (no storage type);
  - anything small: the oldest form, where that u32 is already the shape's ndim, followed by that many u32
    dims, then context, type flag and data.

  A shape is i32 ndim + ndim i64 dims; a context is i32 device type + i32 device id (ignored: MXNet loads
  every array to the CPU too). An array with no shape (ndim 0 before V3; ndim -1 or an unknown dim in V3,
  where ndim 0 is a scalar) stops right after its shape: ``mx.nd.load`` gives an empty NDArray, this reader
  ``None``.

The file is memory-mapped and every array is a read-only numpy view of its bytes, never a copy.
"""
import mmap
import os
import struct
from dataclasses import dataclass
from typing import Dict, List, Optional

import numpy as np

from mo.front.mxnet.dtypes import np_dtype
from mo.utils.error import Error

LIST_MAGIC = 0x112
NDARRAY_V1_MAGIC = 0xF993FAC8
NDARRAY_V2_MAGIC = 0xF993FAC9
NDARRAY_V3_MAGIC = 0xF993FACA

#: MXNet's storage types; the sparse ones carry this many aux arrays (row indices; CSR's indptr and indices)
STORAGE_TYPES = {0: 'default', 1: 'row_sparse', 2: 'csr'}
_AUX_ARRAYS = {1: 1, 2: 2}

#: in the oldest form the first u32 is ndim where newer arrays have a magic; no MXNet shape had more dims
#: than this, so a larger value is a corrupt file rather than a legacy array
_LEGACY_MAX_NDIM = 32

_HEAD = struct.pack('<Q', LIST_MAGIC)


@dataclass
class Params:
    """The arrays of one ``.params`` file in file order, with their names (empty when saved unnamed).

    An array is a read-only numpy view of the memory-mapped file, or ``None`` for an array saved without a
    shape. ``arg_params``/``aux_params`` strip the ``arg:``/``aux:`` prefixes of module checkpoints;
    ``unprefixed`` holds the names without either (Gluon's files), which only the graph can place.
    """
    path: str
    names: List[str]
    arrays: List[Optional[np.ndarray]]

    def items(self):
        """(name, array) pairs in file order; an unnamed file's names are ``''``."""
        names = self.names or [''] * len(self.arrays)
        return list(zip(names, self.arrays))

    def __post_init__(self):
        self._index = {name: index for index, name in enumerate(self.names)}

    def __getitem__(self, name: str) -> Optional[np.ndarray]:
        """The array saved under ``name`` (with its prefix, as in the file); KeyError without one."""
        return self.arrays[self._index[name]]

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def __len__(self):
        return len(self.arrays)

    def _with_prefix(self, prefix: str) -> Dict[str, Optional[np.ndarray]]:
        return {name[len(prefix):]: array for name, array in self.items() if name.startswith(prefix)}

    @property
    def arg_params(self) -> Dict[str, Optional[np.ndarray]]:
        """The ``arg:`` arrays (weights) by their name without the prefix."""
        return self._with_prefix('arg:')

    @property
    def aux_params(self) -> Dict[str, Optional[np.ndarray]]:
        """The ``aux:`` arrays (auxiliary states: BatchNorm's running mean and variance) without the prefix."""
        return self._with_prefix('aux:')

    @property
    def unprefixed(self) -> Dict[str, Optional[np.ndarray]]:
        """The named arrays with neither prefix (a Gluon ``save_parameters`` file has only these)."""
        return {name: array for name, array in self.items()
                if name and not name.startswith(('arg:', 'aux:'))}


class _Cursor:
    """Reads fields off the file's bytes in order; running past the end is the file's truncation."""

    def __init__(self, data, path: str):
        self.data = data
        self.size = len(data)
        self.pos = 0
        self.path = path

    def take(self, size: int, what: str) -> int:
        """Advance over ``size`` bytes of ``what``; their offset."""
        start = self.pos
        if size < 0 or start + size > self.size:
            raise Error('"{}" is truncated: {} needs {} bytes at offset {}, the file has {}', self.path, what,
                        size, start, self.size)
        self.pos = start + size
        return start

    def unpack(self, fmt: str, what: str) -> tuple:
        return struct.unpack_from(fmt, self.data, self.take(struct.calcsize(fmt), what))

    def values(self, code: str, count: int, what: str) -> tuple:
        """``count`` values of struct ``code`` (the count is checked against the file before it is used)."""
        start = self.take(count * struct.calcsize('<' + code), what)
        return struct.unpack_from('<{}{}'.format(count, code), self.data, start)

    def shape(self, what: str) -> Optional[tuple]:
        """A shape: i32 ndim, then i64 dims; ``None`` for ndim -1 (NumPy semantics' unknown shape)."""
        ndim, = self.unpack('<i', what)
        if ndim == -1:
            return None
        if ndim < -1:
            raise Error('"{}" is corrupt: {} has {} dimensions', self.path, what, ndim)
        return self.values('q', ndim, what)


def _elements(shape, path: str, what: str) -> int:
    count = 1
    for dim in shape:
        if dim < 0:
            raise Error('"{}" is corrupt: {} has the negative dimension {}', path, what, dim)
        count *= dim
    return count


def _read_array(cur: _Cursor, index: int):
    """One array at the cursor: (a view or None, and the storage type name when it is sparse)."""
    what = 'array {}'.format(index)
    magic, = cur.unpack('<I', what)
    stype, aux_count = 0, 0
    if magic in (NDARRAY_V2_MAGIC, NDARRAY_V3_MAGIC):
        stype, = cur.unpack('<i', what)
        if stype not in STORAGE_TYPES:
            raise Error('"{}" is corrupt: {} has storage type {}, which MXNet does not define', cur.path, what,
                        stype)
        aux_count = _AUX_ARRAYS.get(stype, 0)
        if aux_count:
            cur.shape(what)  # the storage shape (see below)
        shape = cur.shape(what)
        if magic == NDARRAY_V3_MAGIC:
            if shape is None or any(dim < 0 for dim in shape):
                return None, None
        elif not shape:
            return None, None
    elif magic == NDARRAY_V1_MAGIC:
        shape = cur.shape(what)
        if not shape:
            return None, None
    elif magic <= _LEGACY_MAX_NDIM:
        # the oldest form: the "magic" is ndim, and the dims are u32
        if magic == 0:
            return None, None
        shape = cur.values('I', magic, what)
    else:
        raise Error('"{}" is not a valid MXNet .params file: {} starts with 0x{:08X}, which is no NDArray '
                    'format magic', cur.path, what, magic)
    cur.unpack('<ii', what)  # the context it was saved from
    flag, = cur.unpack('<i', what)
    dtype = np_dtype(flag, '"{}": {}'.format(cur.path, what))
    count = _elements(shape, cur.path, what)
    if aux_count:
        # skip the sparse array whole so that the names, read last, can say which one it is
        aux = [(cur.unpack('<i', what)[0], cur.shape(what) or ()) for _ in range(aux_count)]
        # the values' count follows from the aux shapes (row indices; CSR's column indices), not from the
        # storage shape: MXNet 1.9 writes that before it waits for the array, so it can be stale
        # (a csr_matrix saved at once after it is made has storage shape (0,) but all its values)
        if stype == 1:
            values = _elements(aux[0][1], cur.path, what) * _elements(shape[1:], cur.path, what)
        else:
            values = _elements(aux[1][1], cur.path, what)
        cur.take(values * dtype.itemsize, what + ' data')
        for aux_flag, aux_shape in aux:
            aux_dtype = np_dtype(aux_flag, '"{}": {}\'s aux data'.format(cur.path, what))
            cur.take(_elements(aux_shape, cur.path, what) * aux_dtype.itemsize, what + ' aux data')
        return None, STORAGE_TYPES[stype]
    offset = cur.take(count * dtype.itemsize, what + ' data')
    return np.frombuffer(cur.data, dtype, count, offset).reshape(shape), None


def parse_params(data, path: str = '<bytes>') -> Params:
    """The arrays of a ``.params`` file's bytes ``data`` (bytes, mmap or memoryview; arrays are views of it).

    ``path`` names the file in Errors: for a bad list magic, a truncated file, an unknown type flag or
    storage type, names that do not match the arrays, and sparse arrays, which mo does not convert.
    """
    cur = _Cursor(data, path)
    if cur.size < 8 or bytes(data[:8]) != _HEAD:
        raise Error('"{}" is not an MXNet .params file: it does not start with the NDArray list magic 0x112',
                    path)
    cur.unpack('<QQ', 'the header')
    count, = cur.unpack('<Q', 'the array count')
    arrays, sparse = [], []
    for index in range(count):
        array, stype = _read_array(cur, index)
        arrays.append(array)
        if stype:
            sparse.append((index, stype))
    name_count, = cur.unpack('<Q', 'the name count')
    if name_count not in (0, count):
        raise Error('"{}" is corrupt: it has {} arrays but {} names', path, count, name_count)
    names = []
    for index in range(name_count):
        what = 'the name of array {}'.format(index)
        length, = cur.unpack('<Q', what)
        start = cur.take(length, what)
        try:
            names.append(bytes(data[start:start + length]).decode('utf-8'))
        except UnicodeDecodeError:
            raise Error('"{}" is corrupt: {} is not UTF-8', path, what) from None
    if sparse:
        index, stype = sparse[0]
        name = names[index] if names else 'array {}'.format(index)
        raise Error('"{}": sparse arrays are not supported: "{}" is {}', path, name, stype)
    if len(set(names)) != len(names):
        seen = set()
        twice = next(name for name in names if name in seen or seen.add(name))
        raise Error('"{}" is corrupt: it has two arrays named "{}"', path, twice)
    return Params(path, names, arrays)


def read_params(path) -> Params:
    """The arrays of the ``.params`` file at ``path``, as views of the memory-mapped file (see ``Params``)."""
    path = os.fspath(path)
    try:
        with open(path, 'rb') as f:
            if os.fstat(f.fileno()).st_size == 0:
                raise Error('"{}" is empty, not an MXNet .params file', path)
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as exc:
        raise Error('Cannot read the MXNet parameters "{}": {}', path, exc.strerror or exc) from None
    # the views keep the mmap alive; it is unmapped when the last of them goes
    return parse_params(data, path)


def sniff_bytes(head) -> bool:
    """True when ``head``, a file's first bytes (8 are enough), starts as an MXNet NDArray list does."""
    return bytes(head[:8]) == _HEAD


def sniff(path) -> bool:
    """True when the file at ``path`` starts as an MXNet ``.params`` file (only its first 8 bytes are read)."""
    try:
        with open(path, 'rb') as f:
            return sniff_bytes(f.read(8))
    except OSError:
        return False
