"""CRC-32C (Castagnoli), the checksum TensorFlow's checkpoints store, in numpy.

TensorFlow's tensor bundles (``variables.index`` blocks and every tensor in the data shards)
carry *masked* CRC-32C values (``mask``/``unmask`` below, as LevelDB defines them).

Small inputs go byte by byte through a 256-entry table. Large ones are read as rows of 65536
little-endian words; lane k takes word k of every row, so numpy updates all lanes at once, a
row per step, through two 65536-entry tables and without copying the data. The lanes are then
joined with the CRC's linearity: for the raw (zero-initialised, un-inverted) CRC, each word
contributes ``shift(word, n)``, where ``shift(c, n)`` is the effect of the ``n`` bytes after it
as zeros, a linear map of 32-bit values (``_raw_lanes`` has the algebra). About 1.6 s per GB on
one core (the byte loop alone: ~40 s per GB).
"""
import functools

import numpy as np

_POLY = 0x82F63B78  # the Castagnoli polynomial, bit-reversed
_MASK_DELTA = 0xA282EAD8
_LANES = 1 << 16          # CRCs computed side by side
_SMALL = 1 << 18          # below this many bytes the plain table loop is faster


@functools.lru_cache(maxsize=1)
def _table() -> np.ndarray:
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(_POLY), table >> 1).astype(np.uint32)
    return table


def _raw_small(data, crc: int) -> int:
    table = _table().tolist()
    for byte in bytes(data):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def _gf2_apply(matrix, vector: int) -> int:
    """``matrix`` (32 column ints) times the bit vector ``vector``, over GF(2)."""
    result, i = 0, 0
    while vector:
        if vector & 1:
            result ^= matrix[i]
        vector >>= 1
        i += 1
    return result


def _gf2_square(matrix):
    return [_gf2_apply(matrix, column) for column in matrix]


@functools.lru_cache(maxsize=64)
def _zeros_operator(nbytes: int) -> tuple:
    """The linear map ``c -> raw CRC after nbytes zero bytes, starting from c``, as 32 columns."""
    # one zero bit: shift right, folding in the polynomial when the low bit falls off
    one_bit = [_POLY] + [1 << (i - 1) for i in range(1, 32)]
    operator = [1 << i for i in range(32)]  # identity
    power = one_bit
    for _ in range(3):  # 8 bits = one byte
        power = _gf2_square(power)
    n = nbytes
    while n:
        if n & 1:
            operator = [_gf2_apply(power, column) for column in operator]
        n >>= 1
        if n:
            power = _gf2_square(power)
    return tuple(operator)


@functools.lru_cache(maxsize=64)
def _shift_tables(nbytes: int) -> np.ndarray:
    """``_zeros_operator(nbytes)`` as four 256-entry tables, one per byte of the CRC."""
    operator = _zeros_operator(nbytes)
    tables = np.zeros((4, 256), dtype=np.uint32)
    for k in range(4):
        for value in range(256):
            tables[k, value] = _gf2_apply(operator, value << (8 * k))
    return tables


def _shift(crc: int, nbytes: int) -> int:
    return _gf2_apply(_zeros_operator(nbytes), crc)


@functools.lru_cache(maxsize=4)
def _word_tables(nbytes: int):
    """``_zeros_operator(nbytes)`` as two 65536-entry tables, by the low and the high half of its
    32-bit argument."""
    operator = _zeros_operator(nbytes)
    halves = []
    for shift in (0, 16):
        values = np.zeros(1 << 16, dtype=np.uint32)
        for bit in range(16):  # linear: the image of v is the XOR of the images of its bits
            values[(np.arange(1 << 16) >> bit) & 1 == 1] ^= np.uint32(operator[bit + shift])
        halves.append(values)
    return halves


def _raw_lanes(data: np.ndarray) -> int:
    """Raw CRC (zero start) of ``data`` (uint8, length a multiple of 4 * ``_LANES``).

    The data is read as rows of ``_LANES`` little-endian words, and lane k takes word k of every
    row: rows are contiguous, so no copy is made. With Z(n) the effect of n zero bytes and w_j the
    j-th word, raw = XOR_j Z(4 (N - j)) w_j; lane k computes s_k = XOR_r Z(4 L (R-1-r)) w_{rL+k}
    row by row (s = Z(4L) s ^ row), and raw = Z(4) XOR_k Z(4 (L-1-k)) s_k, a fold of the lanes.
    """
    rows = data.view('<u4').reshape(-1, _LANES)
    low, high = _word_tables(4 * _LANES)
    state = rows[0].copy()
    for row in rows[1:]:
        state = low[state & 0xFFFF] ^ high[state >> 16] ^ row
    # fold: each pair joins with the left part shifted by the right part's length
    length = 4
    while len(state) > 1:
        tables = _shift_tables(length)
        left, right = state[0::2], state[1::2]
        state = (tables[0][left & 0xFF] ^ tables[1][(left >> 8) & 0xFF] ^
                 tables[2][(left >> 16) & 0xFF] ^ tables[3][left >> 24]) ^ right
        length *= 2
    return _shift(int(state[0]), 4)


def crc32c(data, crc: int = 0) -> int:
    """The CRC-32C of ``data`` (bytes-like or uint8 array), continuing from ``crc``."""
    buf = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data.reshape(-1).view(np.uint8)
    raw = crc ^ 0xFFFFFFFF
    size = len(buf)
    bulk = size - size % (4 * _LANES) if size >= _SMALL else 0
    if bulk:
        raw = _shift(raw, bulk) ^ _raw_lanes(buf[:bulk])
    if bulk < size:
        raw = _raw_small(buf[bulk:], raw)
    return raw ^ 0xFFFFFFFF


def mask(crc: int) -> int:
    """LevelDB's masking of a stored CRC (a CRC of data holding CRCs is then no weak spot)."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    rotated = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rotated >> 17) | (rotated << 15)) & 0xFFFFFFFF
