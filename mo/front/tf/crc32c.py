"""CRC-32C (Castagnoli), the checksum TensorFlow's checkpoints store, in numpy.

TensorFlow's tensor bundles (``variables.index`` blocks and every tensor in the data shards)
carry *masked* CRC-32C values (``mask``/``unmask`` below, as LevelDB defines them).

``crc32c`` uses a compiled package when one is installed (``google-crc32c`` or ``crc32c``: never
required; ``MO_CRC32C=numpy`` in the environment ignores them) and ``numpy_crc32c`` otherwise, which works as follows. The CRC is linear over GF(2): with the *raw*
CRC (zero start, no final inversion), ``raw(A + B) = shift(raw(A), len(B)) ^ raw(B)``, where
``shift(c, n)``, the effect of ``n`` zero bytes on the register, is ``c`` times x^(8n) modulo the
polynomial (``_shift``). So the data is read as rows of L little-endian 32-bit words; lane k takes
word k of every row and all lanes advance together, a row per numpy step: ``state = Z(state) ^
row``, with Z the shift by one row (4L bytes) applied through two 65536-entry tables (by the low
and the high half of each register). The L registers are then, by the same algebra, the words of
a shorter input whose raw CRC is the answer (``_raw_rows``), taken with fewer lanes, down to a
few hundred words that a Python loop takes one at a time (and the last bytes, one at a time).
Inputs of several MB are split between threads (numpy's gathers run without the GIL) and joined
with ``shift``. On large inputs, 1.1-1.6 GB/s per core when the machine is quiet (a byte-at-a-time
loop: ~20 MB/s); the gathers are memory-bound, so a busy machine costs them more than it costs C code.
"""
import functools
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

_POLY = 0x82F63B78  # the Castagnoli polynomial, bit-reversed (bit 31 is x^0)
_MASK_DELTA = 0xA282EAD8
_MAX_LANES = 1 << 14      # lanes of a large input: rows of 64 KB (what a row step touches stays in the cache)
_MIN_LANES = 64           # fewer words than _MIN_ROWS rows of this many go a word at a time in Python
_MIN_ROWS = 4             # an input takes the widest power-of-two lanes that give it this many rows
_THREAD_MIN = 8 << 20     # inputs from this size on are split between threads
_THREADS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count() or 1))


# --- polynomial arithmetic on 32-bit values (bit-reversed: bit 31 is x^0) ---------------------------

def _multiply(a: int, b: int) -> int:
    """a(x) * b(x) modulo the polynomial."""
    product = 0
    bit = 1 << 31
    while a:
        if a & bit:
            product ^= b
            a ^= bit
        bit >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1   # b *= x
    return product


@functools.lru_cache(maxsize=None)
def _x_to_2_to(k: int) -> int:
    """x^(2^k) modulo the polynomial."""
    if k == 0:
        return 1 << 30
    half = _x_to_2_to(k - 1)
    return _multiply(half, half)


@functools.lru_cache(maxsize=64)
def _x_to_8_times(nbytes: int) -> int:
    """x^(8 nbytes) modulo the polynomial: the factor of ``nbytes`` zero bytes."""
    power, k, n = 1 << 31, 3, nbytes
    while n:
        if n & 1:
            power = _multiply(_x_to_2_to(k), power)
        n >>= 1
        k += 1
    return power


def _shift(raw: int, nbytes: int) -> int:
    """The raw register ``raw`` after ``nbytes`` zero bytes."""
    return _multiply(_x_to_8_times(nbytes), raw) if raw and nbytes else raw


# --- table forms of a shift, for numpy ----------------------------------------------------------------

def _images(nbytes: int, first_bit: int) -> np.ndarray:
    """``_shift(v << first_bit, nbytes)`` for every byte v: the XOR of the images of v's bits."""
    values = np.zeros(256, dtype=np.uint32)
    index = np.arange(256)
    for bit in range(8):
        values[(index >> bit) & 1 == 1] ^= np.uint32(_shift(1 << (bit + first_bit), nbytes))
    return values


@functools.lru_cache(maxsize=_MAX_LANES.bit_length())
def _byte_tables(nbytes: int) -> np.ndarray:
    """The shift by ``nbytes`` as four 256-entry tables, one per byte of the register (4 KB: they stay
    in the cache however many lane widths an input goes through)."""
    return np.stack([_images(nbytes, 8 * k) for k in range(4)])


@functools.lru_cache(maxsize=2)
def _word_tables(nbytes: int):
    """The shift by ``nbytes`` as two 65536-entry tables, by the low and the high half of the register
    (each the XOR of the tables of its two bytes): half the lookups of byte tables, for the widest lanes,
    whose hundreds of rows keep these 512 KB in the cache."""
    by_byte = _byte_tables(nbytes)
    return ((by_byte[1][:, None] ^ by_byte[0][None, :]).reshape(-1),
            (by_byte[3][:, None] ^ by_byte[2][None, :]).reshape(-1))


@functools.lru_cache(maxsize=1)
def _table() -> list:
    """The byte-at-a-time table: the register after one byte, by its low byte XOR the data byte."""
    return [_shift(value, 1) for value in range(256)]


@functools.lru_cache(maxsize=1)
def _word_lists():
    """``_word_tables(4)`` as Python lists: the word-at-a-time tables."""
    return tuple(table.tolist() for table in _word_tables(4))


# --- the numpy formulation ------------------------------------------------------------------------------

def _raw_bytes(data, raw: int) -> int:
    table = _table()
    for byte in bytes(data):
        raw = table[(raw ^ byte) & 0xFF] ^ (raw >> 8)
    return raw


def _raw_few_words(words: np.ndarray, raw: int) -> int:
    """A word at a time, in Python: faster than numpy's calls for a few hundred words."""
    low, high = _word_lists()
    for word in words.tolist():
        raw ^= word
        raw = low[raw & 0xFFFF] ^ high[raw >> 16]
    return raw


def _lanes(rows: np.ndarray, raw: int) -> np.ndarray:
    """The lanes' registers after the rows (R x L words): lane k holds ``XOR_r Z(4L(R-1-r)) w[r, k]``,
    with Z(n) the shift by n bytes, and the register ``raw`` the data starts from XORed into the first
    word (starting from it is the same as starting from zero with that first word)."""
    lanes = rows.shape[1]
    state = rows[0].astype('<u4')   # a copy
    state[0] ^= raw
    if lanes == _MAX_LANES:
        tables = _word_tables(4 * lanes)
        pieces = state.view('<u2')
        step = 2
    else:
        tables = _byte_tables(4 * lanes)
        pieces = state.view(np.uint8)
        step = 4
    # index views into the state, and the tables' images of each piece
    indices = [pieces[k::step] for k in range(step)]
    images = [np.empty(lanes, dtype=np.uint32) for _ in range(step)]
    for row in rows[1:]:
        for table, index, image in zip(tables, indices, images):
            table.take(index, out=image, mode='clip')
        np.bitwise_xor(images[0], images[1], out=state)
        for image in images[2:]:
            state ^= image
        state ^= row
    return state


def _raw_rows(words: np.ndarray, lanes: int, raw: int = 0) -> int:
    """The raw register after ``words`` (a multiple of ``lanes`` long), starting from ``raw``.

    The raw CRC of N words is ``XOR_j Z(4(N-j)) w[j]``. Grouping the words by lane, that is
    ``XOR_k Z(4(L-k)) s[k]`` with s the lanes' registers (``_lanes``): the raw CRC of the L registers
    read as words, which the narrower lane steps compute in turn.
    """
    return _raw_words(_lanes(words.reshape(-1, lanes), raw))


@functools.lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(_THREADS, thread_name_prefix='mo-crc32c')


def _raw_big(words: np.ndarray, raw: int) -> int:
    """``_raw_rows(words, _MAX_LANES, raw)``, split between threads when it is worth it."""
    rows = len(words) // _MAX_LANES
    parts = min(_THREADS, 4 * len(words) // _THREAD_MIN, rows)
    if parts <= 1:
        return _raw_rows(words, _MAX_LANES, raw)
    bounds = [_MAX_LANES * (rows * i // parts) for i in range(parts + 1)]
    pieces = [words[start:end] for start, end in zip(bounds, bounds[1:])]
    raws = list(_pool().map(lambda piece: _raw_rows(piece, _MAX_LANES), pieces))
    for piece, piece_raw in zip(pieces, raws):
        raw = _shift(raw, 4 * len(piece)) ^ piece_raw
    return raw


def _raw_words(words: np.ndarray, raw: int = 0) -> int:
    """The raw register after the little-endian uint32 ``words``, starting from ``raw``: the rows of the
    widest lanes that give at least ``_MIN_ROWS`` of them, then the same for the rest, and the last few
    words in Python."""
    while len(words) >= _MIN_ROWS * _MIN_LANES:
        lanes = min(_MAX_LANES, 1 << ((len(words) // _MIN_ROWS).bit_length() - 1))
        count = len(words) // lanes * lanes
        raw = _raw_big(words[:count], raw) if lanes == _MAX_LANES else _raw_rows(words[:count], lanes, raw)
        words = words[count:]
    return _raw_few_words(words, raw) if len(words) else raw


def _flat_bytes(data) -> np.ndarray:
    """``data`` (bytes-like or numpy array) as a flat uint8 array, a view when it is contiguous."""
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    return np.frombuffer(data, dtype=np.uint8)


def numpy_crc32c(data, crc: int = 0) -> int:
    """The CRC-32C of ``data`` (bytes-like or numpy array), continuing from ``crc``, in numpy."""
    buf = _flat_bytes(data)
    whole = len(buf) // 4 * 4
    raw = _raw_words(buf[:whole].view('<u4'), crc ^ 0xFFFFFFFF)
    return _raw_bytes(buf[whole:], raw) ^ 0xFFFFFFFF


def _compiled():
    """``crc32c(data, crc)`` of an installed compiled package (``data``: a uint8 array), or None."""
    try:
        import google_crc32c
        if getattr(google_crc32c, 'implementation', 'c') == 'c':
            return lambda data, crc: google_crc32c.extend(crc, data)
    except ImportError:
        pass
    try:
        import crc32c as package
    except ImportError:
        return None
    return (lambda data, crc: package.crc32c(data, crc)) if hasattr(package, 'crc32c') else None


_COMPILED = None if os.environ.get('MO_CRC32C') == 'numpy' else _compiled()


def crc32c(data, crc: int = 0) -> int:
    """The CRC-32C of ``data`` (bytes-like or numpy array), continuing from ``crc``."""
    if _COMPILED is not None:
        return _COMPILED(_flat_bytes(data), crc)
    return numpy_crc32c(data, crc)


def mask(crc: int) -> int:
    """LevelDB's masking of a stored CRC (a CRC of data holding CRCs is then no weak spot)."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    rotated = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rotated >> 17) | (rotated << 15)) & 0xFFFFFFFF
