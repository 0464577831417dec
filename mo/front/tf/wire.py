"""Where the weights are in a binary GraphDef: ``tensor_content`` spans of Const nodes.

Reading a tensor's ``tensor_content`` from a parsed message copies it; for a model of 100 MB that
copy (and the page faults of its fresh memory) costs as much as parsing. The bytes are already
in the file we read, so the loader wraps them there instead: this module walks the protobuf wire
format of the serialized GraphDef just far enough to find, for every ``Const`` node, the span of
``attr["value"].tensor.tensor_content``.

Field numbers (tensorflow/core/framework/*.proto): GraphDef.node = 1; NodeDef.name = 1, op = 2,
attr = 5 (map entries: key = 1, value = 2); AttrValue.tensor = 8; TensorProto.tensor_content = 4.
Anything this walk does not fully understand (a repeated field where protobuf would merge, a
malformed length) yields no span for that node, and the loader reads the parsed message as before.
"""
from google.protobuf import message as pb_message

from mo.front.tf.proto import GraphDef
from mo.utils.proto_schema import dsl, pool
from mo.utils.proto_wire import encode_varint, fields as wire_fields, read_varint as _varint

_LENGTH_DELIMITED = 2


class _Malformed(ValueError):
    pass


def _fields(buf, start: int, end: int):
    """``(field number, wire type, value start, value end)`` of each field of ``buf[start:end]``."""
    pos = start
    while pos < end:
        tag, pos = _varint(buf, pos)
        wire_type = tag & 7
        if wire_type == _LENGTH_DELIMITED:
            length, pos = _varint(buf, pos)
            value_end = pos + length
        elif wire_type == 0:
            _, value_end = _varint(buf, pos)
        elif wire_type == 1:
            value_end = pos + 8
        elif wire_type == 5:
            value_end = pos + 4
        else:
            raise _Malformed()  # groups: not in any message read here
        if value_end > end:
            raise _Malformed()
        yield tag >> 3, wire_type, pos, value_end
        pos = value_end
    if pos != end:
        raise _Malformed()


def _only(buf, start, end, field):
    """The single length-delimited ``field`` of a message, as (field start, value start, value end); None if absent."""
    found = None
    for number, wire_type, field_start, value_start, value_end in wire_fields(buf, start, end):
        if number == field:
            if found is not None or wire_type != _LENGTH_DELIMITED:
                raise _Malformed()  # protobuf would merge repeats: leave it to the real parser
            found = (field_start, value_start, value_end)
    return found


def _const_path(buf, start, end):
    """``(name, path)`` of one NodeDef: its name, and if it is a Const with a tensor_content, the nested fields that
    lead to it, outermost first, each as ``(field start, value start, value end)``: the ``value`` attr entry, its
    AttrValue, the AttrValue's tensor and the tensor's tensor_content (else ``path`` is None)."""
    name = op = value_entry = None
    for number, wire_type, field_start, value_start, value_end in wire_fields(buf, start, end):
        if wire_type != _LENGTH_DELIMITED:
            continue
        if number == 1:
            name = bytes(buf[value_start:value_end])
        elif number == 2:
            op = bytes(buf[value_start:value_end])
            if op != b'Const':
                return None, None
        elif number == 5:
            key = _only(buf, value_start, value_end, 1)
            if key is not None and bytes(buf[key[1]:key[2]]) == b'value':
                if value_entry is not None:
                    raise _Malformed()
                value_entry = (field_start, value_start, value_end)
    if op != b'Const' or value_entry is None:
        return name, None
    path = [value_entry]
    for field in (2, 8, 4):  # MapEntry.value -> AttrValue.tensor -> TensorProto.tensor_content
        inner = _only(buf, path[-1][1], path[-1][2], field)
        if inner is None:
            return name, None
        path.append(inner)
    return name, path


def _const_content(buf, start, end):
    """The tensor_content span of one NodeDef if it is a Const with one; else None."""
    name, path = _const_path(buf, start, end)
    return name, None if path is None else path[-1][1:]


def _may_be_const(buf, pos: int, end: int) -> bool:
    """False if the NodeDef in ``buf[pos:end]`` surely is no Const: a quick look at its leading
    name and op fields (where serializers put them), so that other nodes cost next to nothing."""
    while pos < end:
        tag, pos = _varint(buf, pos)
        if tag & 7 != _LENGTH_DELIMITED or tag >> 3 not in (1, 2):
            return True  # an unusual layout: the full walk decides
        length, pos = _varint(buf, pos)
        if tag >> 3 == 2:
            return buf[pos:pos + length] == b'Const'
        pos += length
    return False


def const_contents(data, min_node_bytes: int = 0) -> dict:
    """``{node name: memoryview of its tensor_content}`` for the Const nodes of GraphDef bytes ``data``.

    The views share ``data``'s memory. Nodes whose encoding is unusual are left out; so is
    everything when ``data`` is not a well-formed binary GraphDef. So are NodeDefs shorter than
    ``min_node_bytes``: a loader that only needs to spare copying big weights skips the walk of the
    many small constants (a model's scalars and shapes), whose contents the parser copies cheaply.
    """
    buf = memoryview(data)
    result = {}
    try:  # reading past the end (IndexError) is malformed data too
        for number, wire_type, start, end in _fields(buf, 0, len(buf)):
            if number != 1 or wire_type != _LENGTH_DELIMITED or end - start < min_node_bytes or \
                    not _may_be_const(buf, start, end):
                continue
            try:
                name, content = _const_content(buf, start, end)
            except (ValueError, IndexError):
                continue
            if name is None or content is None:
                continue
            try:
                key = name.decode('utf-8')
            except UnicodeDecodeError:
                continue
            # a duplicate name is the loader's error to report: no span for it
            result[key] = None if key in result else buf[content[0]:content[1]]
    except (ValueError, IndexError):
        return {}
    return {name: view for name, view in result.items() if view is not None}


def _without_innermost(buf, start: int, end: int, path) -> bytes:
    """The bytes of the message ``buf[start:end]`` without the innermost field of ``path`` (nested length-delimited
    fields, outermost first, as ``_const_path`` gives them): every enclosing field gets its new length."""
    field_start, value_start, value_end = path[0]
    if len(path) == 1:
        return b''.join((buf[start:field_start], buf[value_end:end]))
    inner = _without_innermost(buf, value_start, value_end, path[1:])
    tag, _ = _varint(buf, field_start)
    return b''.join((buf[start:field_start], encode_varint(tag), encode_varint(len(inner)), inner, buf[value_end:end]))


def weights_apart(data, min_node_bytes: int = 0):
    """``(rest, contents)``: binary GraphDef bytes ``data`` without the ``tensor_content`` of its Const nodes, and
    ``{node name: memoryview of that content in data}``; None when there is none to take out or ``data`` does not walk.

    Parsing ``rest`` instead of ``data`` spares protobuf a copy of every weight (for ResNet-50, 100 MB copied into
    fresh memory: a fifth of a conversion); the loader takes the values from ``contents``. The Consts are those
    ``const_contents`` finds: nodes whose encoding is unusual, or that share a name, keep their content in ``rest``.
    """
    buf = memoryview(data)
    found = {}
    try:
        nodes = [(field_start, start, end) for number, wire_type, field_start, start, end in
                 wire_fields(buf, 0, len(buf)) if number == 1 and wire_type == _LENGTH_DELIMITED]
    except ValueError:
        return None
    for field_start, start, end in nodes:
        if end - start < min_node_bytes:
            continue
        try:
            if not _may_be_const(buf, start, end):
                continue
            name, path = _const_path(buf, start, end)
            key = None if name is None or path is None else name.decode('utf-8')
        except (ValueError, IndexError):  # UnicodeDecodeError is a ValueError
            continue
        if key is not None:
            found[key] = None if key in found else (field_start, start, end, path)
    taken = {name: where for name, where in found.items() if where is not None}
    if not taken:
        return None
    pieces, position, contents = [], 0, {}
    for name, (field_start, start, end, path) in sorted(taken.items(), key=lambda item: item[1][0]):
        node = _without_innermost(buf, start, end, path)
        tag, _ = _varint(buf, field_start)
        pieces += [buf[position:field_start], encode_varint(tag), encode_varint(len(node)), node]
        position = end
        contents[name] = buf[path[-1][1]:path[-1][2]]
    pieces.append(buf[position:])
    return b''.join(pieces), contents


#: a GraphDef is read in parts from this many NodeDefs up (see ``many_small_nodes``)
PARTS_MIN_NODES = 1 << 15
#: ... when its NodeDefs take at most this many bytes each on average: weights in the nodes would be copied
#: three more times by the parts reader, for no gain (a typical model has a thousand nodes and 100 MB of weights)
PARTS_MAX_MEAN_NODE_BYTES = 1024


def many_small_nodes(data, min_nodes: int = PARTS_MIN_NODES, max_mean_bytes: int = PARTS_MAX_MEAN_NODE_BYTES) -> bool:
    """Whether binary GraphDef bytes ``data`` hold ``min_nodes`` NodeDefs or more, the first ``min_nodes`` of them
    ``max_mean_bytes`` long or less on average: the graphs worth reading in parts (``graph_def_in_parts``). A walk
    over the lengths of the first ``min_nodes`` top-level fields; False for bytes that do not walk."""
    buf = memoryview(data)
    count = 0
    try:
        for number, wire_type, _, end in _fields(buf, 0, len(buf)):
            if number == 1 and wire_type == _LENGTH_DELIMITED:
                count += 1
                if count >= min_nodes:
                    return end <= min_nodes * max_mean_bytes
    except (ValueError, IndexError):
        return False
    return False


#: NodeDefs per part of a GraphDef read in parts: each part is one protobuf arena, given back once the loaded graph
#: holds none of its nodes (a few MB; bigger parts save little parse time, smaller ones free memory sooner)
PART_NODES = 4096

_node_bytes_class = None


def _node_bytes():
    """A message wire-compatible with GraphDef whose ``node`` field (1) is ``repeated bytes``: parsing the file with
    it slices the serialized NodeDefs without parsing them, and keeps the other fields as unknown ones."""
    global _node_bytes_class
    if _node_bytes_class is None:
        schema = dsl.proto_file('mo/graph_def_parts.proto', [],
                                dsl.message('GraphDefNodeBytes', dsl.repeated('node', 1, 'bytes')))
        _node_bytes_class = pool.MessageClasses(pool.build_pool('mo_wire', [schema]))('mo_wire.GraphDefNodeBytes')
    return _node_bytes_class


def graph_def_in_parts(data, part_nodes: int = PART_NODES):
    """``(rest, nodes, largest)`` of binary GraphDef bytes ``data``: a GraphDef holding every field but the nodes, the
    list of its NodeDefs, parsed ``part_nodes`` at a time so that each part's memory is freed when no NodeDef of it is
    referenced any more (one parse of the whole file keeps every node's memory until the last one goes), and the
    size of the biggest serialized NodeDef (``const_contents(data, min_node_bytes)`` finds nothing above it).

    None when ``data`` does not parse this way (the caller parses it whole, and reports what is wrong with it).
    """
    parts_class = _node_bytes()
    try:
        everything = parts_class.FromString(data)
        serialized = everything.node
        largest = max(map(len, serialized), default=0)
        nodes = []
        for start in range(0, len(serialized), part_nodes):
            part = parts_class(node=serialized[start:start + part_nodes]).SerializeToString()
            nodes.extend(GraphDef.FromString(part).node)
        del serialized, everything.node[:]
        rest = GraphDef.FromString(everything.SerializeToString())  # the fields that were unknown to parts_class
    except (pb_message.DecodeError, RuntimeError, ValueError):
        return None
    return rest, nodes, largest
