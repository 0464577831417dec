"""Reading and writing GraphDef files (binary ``.pb`` and text ``.pbtxt``).

Every problem with a file becomes one ``Error`` naming the file: missing or unreadable, empty,
truncated or corrupt binary, a protobuf that is not a GraphDef, text that does not parse (with
line and column). Writing is atomic: the file is either replaced whole or left untouched.
"""
import mmap
import os
from collections import namedtuple

from google.protobuf import message as pb_message

from mo.front.tf.proto import GraphDef, coerce
from mo.front.tf.wire import PARTS_MIN_NODES, graph_def_in_parts, many_small_nodes, weights_apart
from mo.utils import mapped_files
from mo.utils.error import Error
from mo.utils.file_utils import create_temporary

_TEXT_EXTENSIONS = ('.pbtxt', '.pbtext', '.txt', '.prototxt', '.textproto', '.txtpb')
_BINARY_EXTENSIONS = ('.pb', '.bin', '.binpb', '.graphdef')


def _unknown_field_counter():
    """A function: message -> how many fields of the message itself (not its sub-messages) were
    not in the schema."""
    try:
        from google.protobuf.unknown_fields import UnknownFieldSet  # protobuf >= 4.22
    except ImportError:  # pragma: no cover - depends on the protobuf version
        return lambda msg: len(msg.UnknownFields())
    return lambda msg: len(UnknownFieldSet(msg))


def _looks_like_text(data: bytes) -> bool:
    """True when ``data`` is plausibly protobuf text: UTF-8 without control bytes.

    Binary GraphDefs start with field tags and lengths, bytes below 0x20 that text never has.
    """
    sample = bytes(data[:4096])
    try:
        sample.decode('utf-8')
    except UnicodeDecodeError as e:
        # A multi-byte character cut at the sample's end is still text.
        if e.start < len(sample) - 4:
            return False
    return not any(b < 0x20 and b not in (0x09, 0x0A, 0x0D) for b in sample)


def _check_graph_def(graph_def, name):
    """Reject a binary protobuf that parsed but is not a GraphDef.

    Protobuf parsing is lenient: another message type (a SavedModel, a MetaGraphDef) or random
    bytes may well parse, landing in "unknown fields". A real GraphDef has none at the top level
    and none in its nodes, and every node has a name and an op.
    """
    unknown_fields = _unknown_field_counter()
    if unknown_fields(graph_def):
        return 'it is a protobuf message, but not a GraphDef'
    for index, node in enumerate(graph_def.node):
        if unknown_fields(node) or not node.name or not node.op:
            return 'it is a protobuf message, but not a GraphDef (node #{} is malformed)'.format(index)
    return None


def _parse_binary(data, name):
    graph_def = GraphDef()
    try:
        graph_def.ParseFromString(data)
    except (pb_message.DecodeError, RuntimeError, ValueError) as e:
        return None, ('it is not a valid binary GraphDef (truncated or corrupt data, or another kind of '
                      'file): {}'.format(e))
    problem = _check_graph_def(graph_def, name)
    if problem:
        return None, problem
    return graph_def, None


def _parse_text(data, name):
    try:
        text = bytes(data).decode('utf-8')
    except UnicodeDecodeError as e:
        return None, 'it is not a text GraphDef: byte {} is not UTF-8'.format(e.start)
    if text.startswith('\ufeff'):  # a byte order mark some editors write
        text = text[1:]
    from google.protobuf import text_format  # only text files need it (~5 ms of imports)
    graph_def = GraphDef()
    try:
        text_format.Parse(text, graph_def)
    except text_format.ParseError as e:
        line, column = e.GetLine(), e.GetColumn()
        detail = str(e)
        # The message starts with "line:column : "; we report the position ourselves.
        prefix = '{}:{} : '.format(line, column)
        if detail.startswith(prefix):
            detail = detail[len(prefix):]
        if line is not None:
            return None, 'the text GraphDef does not parse at line {}, column {}: {}'.format(line, column, detail)
        return None, 'the text GraphDef does not parse: {}'.format(detail)
    return graph_def, None


def parse_graph_def_bytes(data: bytes, name: str = '<bytes>', text: bool = None) -> GraphDef:
    """Parse the contents ``data`` of a GraphDef file called ``name`` (used in messages).

    ``text`` forces the format: True for protobuf text, False for binary; ``None`` tries the
    likelier one first (by content) and then the other.
    """
    return _parse_either(bytes(data), name, text)[0]


def _parse_either(data: bytes, name: str, text: bool = None):
    """``(graph_def, as_text)``: ``data`` parsed in the format it is in (see parse_graph_def_bytes)."""
    if _blank(data):
        raise Error('Cannot read the TensorFlow model "{}": the file is empty', name)
    if text is None:
        order = (True, False) if _looks_like_text(data) else (False, True)
    else:
        order = (text, not text)
    problems = {}
    for as_text in order:
        graph_def, problems[as_text] = (_parse_text if as_text else _parse_binary)(data, name)
        if graph_def is not None:
            return graph_def, as_text
    # Both failed: report the failure of the format the data most resembles.
    problem = problems[True] if _looks_like_text(data) else problems[False]
    raise Error('Cannot read the TensorFlow model "{}": {}', name, problem)


def _text_hint(path):
    lower = path.lower()
    if lower.endswith(_TEXT_EXTENSIONS):
        return True
    if lower.endswith(_BINARY_EXTENSIONS):
        return False
    return None


def _blank(data) -> bool:
    """Empty or only white space (``data``: bytes or a view of a mapped file), without copying a file of any size
    unless it starts with 4 KiB of white space."""
    head = bytes(data[:4096]).strip()
    return not head and (len(data) <= 4096 or not bytes(data).strip())


def read_graph_def(path) -> GraphDef:
    """Read a frozen GraphDef from ``path``, binary or text.

    The file extension is the first guess at the format (``.pbtxt`` and friends: text, ``.pb``:
    binary), the content decides when the guess fails. Any problem raises one ``Error``.
    """
    return read_graph_def_and_bytes(path)[0]


def read_graph_def_and_bytes(path):
    """``(graph_def, data, binary)``: the model as ``read_graph_def`` reads it, the file's bytes,
    and whether they parsed as the binary format (then ``mo.front.tf.wire`` can find weights in them)."""
    path, data = _read_file(path)
    return _parse_file(data, path)


def _parse_file(data: bytes, path: str):
    """``(graph_def, data, binary)`` of the bytes ``data`` of the file at ``path``."""
    hint = _text_hint(path)
    if hint is not None and not _blank(data):
        graph_def, problem = (_parse_text if hint else _parse_binary)(data, path)
        if graph_def is not None:
            return graph_def, data, not hint
    graph_def, as_text = _parse_either(data, path)
    return graph_def, data, not as_text


#: a GraphDef file read by ``read_graph_def_in_parts``
GraphDefFile = namedtuple('GraphDefFile', 'graph_def nodes data binary largest_node contents')


def read_graph_def_in_parts(path, min_nodes: int = PARTS_MIN_NODES, weights_apart_from: int = None) -> GraphDefFile:
    """The model as ``read_graph_def_and_bytes`` reads it (``graph_def``, ``data``, ``binary``), but the NodeDefs of
    a binary one of ``min_nodes`` small nodes or more (``mo.front.tf.wire.many_small_nodes``) parsed in parts (see
    ``mo.front.tf.wire.graph_def_in_parts``): ``nodes`` is their list, ``graph_def`` holds the GraphDef's other
    fields and ``largest_node`` is the size of the biggest serialized NodeDef. ``nodes`` and ``largest_node`` are
    None when the model was parsed whole (text, a smaller graph, or bytes the parts reader does not take): then
    ``graph_def`` has the nodes.

    ``weights_apart_from`` (a size in bytes): a binary model parsed whole is parsed without the ``tensor_content`` of
    its Const NodeDefs of that size or more (``mo.front.tf.wire.weights_apart``); ``contents`` is then
    ``{node name: memoryview of its tensor_content in data}``, the only place those values are. Else ``contents`` is
    None and the parsed nodes hold every value."""
    path, data = _read_file(path)
    if _text_hint(path) is not True and not _blank(data) and not _looks_like_text(data) and \
            many_small_nodes(data, min_nodes):
        parts = graph_def_in_parts(data)
        if parts is not None:
            rest, nodes, largest = parts
            unknown_fields = _unknown_field_counter()
            if not unknown_fields(rest) and all(node.name and node.op and not unknown_fields(node) for node in nodes):
                return GraphDefFile(rest, nodes, data, True, largest, None)
            # not a GraphDef: the whole parse below reports it
    if weights_apart_from is not None and _text_hint(path) is not True and not _blank(data) and \
            not _looks_like_text(data):
        apart = weights_apart(data, weights_apart_from)
        if apart is not None:
            graph_def, _ = _parse_binary(apart[0], path)
            if graph_def is not None:
                return GraphDefFile(graph_def, None, data, True, None, apart[1])
            # not a GraphDef: the whole parse below reports it
    graph_def, data, binary = _parse_file(data, path)
    return GraphDefFile(graph_def, None, data, binary, None, None)


#: a file of this size or more is memory-mapped, not read: its weights stay in the page cache, viewed, never copied
MAPPED_MIN_BYTES = 1 << 20


def _read_file(path):
    """``(path as str, the file's contents)``: its bytes, or for a file of ``MAPPED_MIN_BYTES`` or more a read-only
    memoryview of the file mapped into memory (registered with ``mo.utils.mapped_files``, so that the pages of
    weights written out can be handed back); an Error naming the file when it cannot be read."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise Error('Cannot read the TensorFlow model "{}": the file does not exist', path)
    if os.path.isdir(path):
        raise Error('Cannot read the TensorFlow model "{}": it is a directory, not a GraphDef file '
                    '(mo convert reads a SavedModel directory with --input_model DIR)', path)
    try:
        with open(path, 'rb') as f:
            if os.fstat(f.fileno()).st_size >= MAPPED_MIN_BYTES:
                try:
                    mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                except (OSError, ValueError):  # a file system without mappings: read it
                    pass
                else:
                    mapped_files.register(mapped)
                    return path, memoryview(mapped)
            return path, f.read()
    except OSError as e:
        raise Error('Cannot read the TensorFlow model "{}": {}', path, e.strerror or e) from None


def serialize_graph_def(graph_def, as_text: bool = False) -> bytes:
    """The bytes of ``graph_def``: deterministic binary, or protobuf text in UTF-8."""
    graph_def = coerce(graph_def, GraphDef)
    if as_text:
        from google.protobuf import text_format
        return text_format.MessageToString(graph_def, as_utf8=True).encode('utf-8')
    return graph_def.SerializeToString(deterministic=True)


def write_bytes_atomically(data: bytes, path) -> None:
    """Replace the file at ``path`` with ``data`` all at once.

    The bytes go to a temporary file in the same directory, are flushed to disk and then renamed
    over ``path``; on any failure the temporary file is removed and an existing ``path`` is left
    as it was. An OS failure raises ``Error`` naming the file.
    """
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        tmp, fd = create_temporary(path)
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise Error('Cannot write "{}": {}', path, e.strerror or e) from None
    finally:
        if tmp is not None:
            try:
                os.remove(tmp)
            except OSError:
                pass
    _fsync_directory(directory)


def _fsync_directory(directory):
    """Make the rename durable; not possible (nor needed) on every platform."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_graph_def(graph_def, path, as_text: bool = False) -> None:
    """Write ``graph_def`` to ``path`` atomically, as deterministic binary or as protobuf text."""
    try:
        data = serialize_graph_def(graph_def, as_text)
    except (ValueError, pb_message.EncodeError) as e:
        raise Error('Cannot write "{}": the graph cannot be serialized ({})', path, e) from None
    write_bytes_atomically(data, path)
