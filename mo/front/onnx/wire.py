"""Where an ONNX file keeps its weights: the ``raw_data`` of the main graph's initializers, found on the wire.

Parsing a ModelProto copies every ``raw_data`` into the message, so a model's weights would be held twice.
``split_weights`` walks the protobuf wire format instead and returns the model's bytes without the
initializers' ``raw_data`` (what is left is small: the nodes and names) together with a view of each
``raw_data`` in the file's own buffer, in initializer order. A memory-mapped file thus stays the only copy
of the weights until the IR writer reads them.
"""
from mo.utils.error import Error
from mo.utils.proto_wire import encode_varint as _encode_varint, fields

_MODEL_GRAPH, _GRAPH_INITIALIZER, _TENSOR_RAW_DATA = 7, 5, 9
#: smaller raw_data stays in the message: a view saves nothing there
_MIN_VIEW_BYTES = 64


def _tensor_without_raw_data(data, start, end):
    """``(the TensorProto's bytes without raw_data, a view of raw_data or None)``."""
    for number, wire_type, field_start, value_start, value_end in fields(data, start, end):
        if number == _TENSOR_RAW_DATA and wire_type == 2 and value_end - value_start >= _MIN_VIEW_BYTES:
            rest = bytes(data[start:field_start]) + bytes(data[value_end:end])
            return rest, memoryview(data)[value_start:value_end]
    return None, None


def _graph_without_weights(data, start, end, views):
    parts, changed = [], False
    for number, wire_type, field_start, value_start, value_end in fields(data, start, end):
        if number == _GRAPH_INITIALIZER and wire_type == 2:
            rest, view = _tensor_without_raw_data(data, value_start, value_end)
            views.append(view)
            if view is not None:
                parts.append(_encode_varint(number << 3 | wire_type))
                parts.append(_encode_varint(len(rest)))
                parts.append(rest)
                changed = True
                continue
        parts.append(data[field_start:value_end])
    return parts, changed


def split_weights(data, path: str = 'the model'):
    """``(model bytes without the initializers' raw_data, [view of raw_data or None per initializer])``.

    ``data`` is the whole file (bytes or an mmap). A malformed file is reported as not an ONNX model;
    a model whose weights cannot be found this way is returned whole (the parser then reads it all).
    """
    views = []
    try:
        pieces = []
        for number, wire_type, field_start, value_start, value_end in fields(data, 0, len(data)):
            if number == _MODEL_GRAPH and wire_type == 2:
                parts, changed = _graph_without_weights(data, value_start, value_end, views)
                if changed:
                    body = b''.join(bytes(p) for p in parts)
                    pieces.append(_encode_varint(number << 3 | wire_type))
                    pieces.append(_encode_varint(len(body)))
                    pieces.append(body)
                    continue
            pieces.append(data[field_start:value_end])
    except (ValueError, IndexError) as exc:
        raise Error('"{}" is not a valid ONNX model (it is truncated or corrupt: {})', path, exc) from None
    if not any(view is not None for view in views):
        return bytes(data), views
    return b''.join(bytes(p) for p in pieces), views
