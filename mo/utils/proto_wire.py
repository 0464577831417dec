"""The protobuf wire format, walked by hand: varints and the fields of a message, keys and spans only.

The readers parse whole messages with protobuf and our own schemas (``mo.utils.proto_schema``); this is for what
parsing cannot do cheaply: telling a file's kind by its first fields, and finding where a big payload (a weight)
lies in the file so that it stays a view of the file's bytes.
"""

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5


def read_varint(data, pos: int, end: int = None):
    """``(value, position after it)`` of the varint at ``data[pos]``; ValueError when it runs past ``end`` (the
    data's end) or is over-long."""
    if end is None:
        end = len(data)
    if pos < end:
        byte = data[pos]
        if byte < 0x80:  # most tags and lengths: one byte
            return byte, pos + 1
    result = shift = 0
    while True:
        if pos >= end:
            raise ValueError('truncated varint')
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError('varint too long')


#: the one-byte varints: most tags, lengths and numbers of a schema (the descriptors built at import are thousands)
_ONE_BYTE = tuple(bytes((i,)) for i in range(0x80))


def encode_varint(value: int) -> bytes:
    """The varint bytes of ``value`` (negative int32/int64 as ten-byte two's complement, as protobuf writes them)."""
    if 0 <= value < 0x80:
        return _ONE_BYTE[value]
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def fields(data, start: int, end: int):
    """``(field number, wire type, field start, value start, value end)`` for each field in ``data[start:end]``;
    ValueError at a malformed or truncated field (after the fields before it were given)."""
    pos = start
    while pos < end:
        field_start = pos
        key, pos = read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if wire_type == VARINT:
            _, pos = read_varint(data, pos)
            yield number, wire_type, field_start, field_start, pos
            continue
        if wire_type == FIXED64:
            value_start, pos = pos, pos + 8
        elif wire_type == FIXED32:
            value_start, pos = pos, pos + 4
        elif wire_type == LENGTH_DELIMITED:
            length, value_start = read_varint(data, pos)
            pos = value_start + length
        else:
            raise ValueError('wire type {} at byte {}'.format(wire_type, field_start))
        if pos > end:
            raise ValueError('field {} runs past its message (byte {})'.format(number, field_start))
        yield number, wire_type, field_start, value_start, pos


def top_level_fields(data, limit: int = None) -> list:
    """``[(field number, wire type)]`` of the top-level fields of ``data`` (at most ``limit``), stopping quietly
    where the bytes stop making sense (a file's first KiB ends inside a field)."""
    found = []
    try:
        for number, wire_type, _, _, _ in fields(data, 0, len(data)):
            found.append((number, wire_type))
            if limit is not None and len(found) >= limit:
                break
    except ValueError:
        pass
    return found
