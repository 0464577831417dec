"""The framework's graph -> GraphDef.

The inverse of ``mo.front.tf.loader``: op nodes in ``graph.nodes`` order, each from its NodeDef
``pb`` (or, for nodes a transform created without one, from ``name``/``op``/``device`` and the
``tf_attrs`` dict), with inputs rebuilt from the edges: data inputs by ``in``, then control
inputs by ``control_index``. A Const whose ``value`` was replaced gets a fresh tensor. Writing an
unchanged loaded graph reproduces the original GraphDef byte for byte.

In the middle phase, data nodes (``kind='data'``) sit between ops; an input coming from one is
traced to the op that produces it.
"""
import os

import numpy as np
from google.protobuf.message import EncodeError

from mo.front.tf import dtypes as dt
from mo.front.tf.attrs import encode_attr
from mo.front.tf.node_def import format_input
from mo.front.tf.proto import (AttrValue, FunctionDefLibrary, GraphDebugInfo, GraphDef, NodeDef,
                               VersionDef, coerce)
from mo.front.tf.tensor import numpy_to_tensor, numpy_to_tensor_parts
from mo.utils.error import Error
from mo.front.tf.graphdef_io import serialize_graph_def
from mo.utils.file_utils import atomic_output
from mo.utils.proto_wire import encode_varint as _varint


def _node_name(graph, node_id):
    return graph.nodes[node_id].get('name', node_id)


def _source(graph, node_id, edge, consumer):
    """(TF name, output port) of the producer behind an input edge of ``consumer``."""
    attrs = graph.nodes[node_id]
    if attrs.get('kind') == 'data':
        producers = list(graph.in_edges(node_id, data=True))
        if len(producers) != 1:
            raise Error('Cannot write node "{}": its input data node "{}" has {} producers instead of one',
                        consumer, node_id, len(producers))
        producer, _, producer_edge = producers[0]
        return _node_name(graph, producer), int(producer_edge.get('out', 0))
    return attrs.get('name', node_id), int(edge.get('out', 0))


def _inputs(graph, node_id, name):
    """The NodeDef input strings of op ``node_id`` rebuilt from its in-edges."""
    data, control = [], []
    # graph.pred[v] maps source -> {key: edge attrs}: cheaper than building an in_edges view per node.
    in_edges = [(source, edge) for source, keyed in graph.pred[node_id].items() for edge in keyed.values()]
    for source, edge in in_edges:
        if edge.get('control_flow_edge'):
            index = edge.get('control_index')
            # Control edges a transform added without an index go last, in a stable order.
            order = (0, index, '') if index is not None else (1, 0, str(source))
            control.append((order, _node_name(graph, source)))
            continue
        if 'in' not in edge:
            raise Error('Cannot write node "{}": the edge from "{}" has no input port ("in")', name, source)
        data.append((int(edge['in']), _source(graph, source, edge, name)))
    data.sort(key=lambda item: item[0])
    for (port, _), (next_port, _) in zip(data, data[1:]):
        if port == next_port:
            raise Error('Cannot write node "{}": input {} has more than one producer', name, port)
    expected = list(range(len(data)))
    if [port for port, _ in data] != expected:
        raise Error('Cannot write node "{}": its data inputs use ports {}, not 0..{}',
                    name, [port for port, _ in data], len(data) - 1)
    control.sort(key=lambda item: item[0])
    result = [format_input(src_name, port) for _, (src_name, port) in data]
    result.extend(format_input(src_name, None) for _, src_name in control)
    return result


def _const_dtype(attrs, pb, value):
    """The TF dtype to write a Const's new ``value`` as: the node's ``tf_dtype``, or the declared
    ``dtype`` when the value's numpy type stores it, or None (the natural one)."""
    tf_dtype = attrs.get('tf_dtype')
    if tf_dtype is None and pb is not None and 'dtype' in pb.attr:
        declared = pb.attr['dtype'].type
        if dt.is_known(declared) and dt.np_dtype(declared) == value.dtype:
            tf_dtype = declared
        elif declared == dt.DT_STRING and value.dtype.kind in 'SUO':
            tf_dtype = declared
    return tf_dtype


def _const_tensor(attrs, pb, name):
    """A fresh TensorProto for a Const whose ``value`` no longer is the one read from ``pb``."""
    value = np.asarray(attrs['value'])
    try:
        return numpy_to_tensor(value, _const_dtype(attrs, pb, value))
    except Error as e:
        raise Error('Cannot write the value of Const node "{}": {}', name, e) from None


def _value_replaced(attrs) -> bool:
    return attrs.get('op') == 'Const' and attrs.get('value') is not None and \
        attrs.get('value') is not attrs.get('pb_value')


def _copy_without_value(pb, out):
    """``out`` = NodeDef ``pb`` but for its ``value`` attribute (a tensor not worth copying)."""
    out.name, out.op, out.device = pb.name, pb.op, pb.device
    for key in pb.attr:
        if key != 'value':
            out.attr[key].CopyFrom(pb.attr[key])
    for field in ('experimental_debug_info', 'experimental_type'):
        if pb.HasField(field):
            getattr(out, field).CopyFrom(getattr(pb, field))


def _set_attr(pb, attr_name, value, name):
    if isinstance(value, AttrValue) or getattr(getattr(value, 'DESCRIPTOR', None), 'full_name', '') == \
            AttrValue.DESCRIPTOR.full_name:
        pb.attr[attr_name].CopyFrom(coerce(value, AttrValue))
        return
    try:
        pb.attr[attr_name].CopyFrom(encode_attr(value))
    except (ValueError, TypeError) as e:
        raise Error('Cannot write attribute "{}" of node "{}": {}', attr_name, name, e) from None


def _node_def(graph, node_id, attrs, out, with_value: bool = True):
    """Fill NodeDef ``out`` for op node ``node_id`` (a Const without its ``value`` if not ``with_value``)."""
    name = attrs.get('name', node_id)
    pb = attrs.get('pb')
    if pb is not None:
        pb = coerce(pb, NodeDef)
        if attrs.get('op') == 'Const' and (not with_value or _value_replaced(attrs)) and 'value' in pb.attr:
            _copy_without_value(pb, out)
        else:
            out.CopyFrom(pb)
    op = attrs.get('op', out.op)
    if not op:
        raise Error('Cannot write node "{}": it has no TensorFlow op type', name)
    # Node attrs win over the NodeDef's own fields: transforms rename and retype through them.
    if out.name != name:
        out.name = name
    if out.op != op:
        out.op = op
    device = attrs.get('device', out.device) or ''
    if out.device != device:
        out.device = device
    for attr_name in sorted(attrs.get('tf_attrs') or {}):
        _set_attr(out, attr_name, attrs['tf_attrs'][attr_name], name)
    if with_value and _value_replaced(attrs):
        tensor = _const_tensor(attrs, pb, name)
        out.attr['value'].tensor.CopyFrom(tensor)
        out.attr['dtype'].type = tensor.dtype
    del out.input[:]
    out.input.extend(_inputs(graph, node_id, name))


def _set_graph_records(graph, graph_def) -> None:
    """The versions, function library, debug info and deprecated version the loader recorded."""
    meta = graph.graph
    for key, field, cls in (('tf_versions', 'versions', VersionDef),
                            ('tf_library', 'library', FunctionDefLibrary),
                            ('tf_debug_info', 'debug_info', GraphDebugInfo)):
        value = meta.get(key)
        if value is not None:
            getattr(graph_def, field).CopyFrom(coerce(value, cls))
    if meta.get('tf_graph_version'):
        graph_def.version = int(meta['tf_graph_version'])


def graph_to_graph_def(graph) -> GraphDef:
    """The GraphDef of ``graph``: its op nodes in ``graph.nodes`` order with inputs from its edges,
    plus the versions, function library and debug info recorded by the loader."""
    graph_def = GraphDef()
    for node_id, attrs in graph.nodes(data=True):
        if attrs.get('kind') != 'op':
            continue
        _node_def(graph, node_id, attrs, graph_def.node.add())
    _set_graph_records(graph, graph_def)
    return graph_def


# ----- the binary file, streamed ------------------------------------------------------------

#: Const tensors of at least this many bytes go from their numpy array to the file as they are
STREAMED_BYTES = 4096


def _field(number: int, length: int) -> bytes:
    """The tag and length of length-delimited field ``number``."""
    return _varint(number << 3 | 2) + _varint(length)


def _streamed_tensor(attrs, pb, name):
    """``(TensorProto without tensor_content, content array)`` of a Const whose tensor is written
    straight from its numpy array; None when it is small or not in the tensor_content layout."""
    value = attrs.get('value')
    if attrs.get('op') != 'Const' or value is None or getattr(value, 'nbytes', 0) < STREAMED_BYTES:
        return None
    if not _value_replaced(attrs):
        if not attrs.get('pb_value_in_file') or pb is None or 'value' not in pb.attr:
            return None  # as read: the typed-field layout (or text) is kept
        tf_dtype = pb.attr['value'].tensor.dtype
    else:
        tf_dtype = _const_dtype(attrs, pb, np.asarray(value))
    try:
        header, content = numpy_to_tensor_parts(value, tf_dtype)
    except Error as e:
        raise Error('Cannot write the value of Const node "{}": {}', name, e) from None
    return None if content is None else (header, content)


def _canonical_with_value_last(node_def) -> bool:
    """Whether the ``value`` attribute written after the rest of ``node_def`` is where deterministic
    serialization puts it (attribute entries sort by key; fields 6 and 7 come after them)."""
    return all(key < 'value' for key in node_def.attr) and not node_def.HasField('experimental_debug_info') \
        and not node_def.HasField('experimental_type')


def graph_def_chunks(graph):
    """The binary GraphDef ``graph_to_graph_def`` makes, as a sequence of buffers to write one after
    another; the same bytes as its deterministic serialization. The tensors of large Consts are not
    copied into messages: their bytes come straight from the numpy arrays (for weights read from a
    file and left alone, from that file's bytes)."""
    for node_id, attrs in graph.nodes(data=True):
        if attrs.get('kind') != 'op':
            continue
        name = attrs.get('name', node_id)
        streamed = _streamed_tensor(attrs, attrs.get('pb'), name)
        out = NodeDef()
        _node_def(graph, node_id, attrs, out, with_value=streamed is None)
        if streamed is not None and not _canonical_with_value_last(out):
            out.attr['value'].tensor.CopyFrom(_const_tensor(attrs, attrs.get('pb'), name))
            streamed = None
        body = out.SerializeToString(deterministic=True)
        if streamed is None:
            yield _field(1, len(body)) + body
            continue
        header, content = streamed
        head = header.SerializeToString(deterministic=True)
        tensor = head + _field(4, content.nbytes)  # TensorProto.tensor_content
        attr_value = _field(8, len(tensor) + content.nbytes) + tensor  # AttrValue.tensor
        entry = b'\x0a\x05value' + _field(2, len(attr_value) + content.nbytes) + attr_value  # map entry
        node_tail = _field(5, len(entry) + content.nbytes) + entry  # NodeDef.attr
        yield _field(1, len(body) + len(node_tail) + content.nbytes) + body + node_tail
        yield memoryview(content.reshape(-1)).cast('B')
    records = GraphDef()
    _set_graph_records(graph, records)
    yield records.SerializeToString(deterministic=True)


def write_graph(graph, path, as_text: bool = False) -> None:
    """Write ``graph`` as a GraphDef file, atomically (a temporary file renamed over ``path``).

    Binary files are streamed (``graph_def_chunks``). No fsync, as for the IR: the rename makes the
    replacement atomic for every reader and against a crash of this process; only an OS crash right
    after it could leave a short file.
    """
    path = os.fspath(path)
    if as_text:
        chunks = [serialize_graph_def(graph_to_graph_def(graph), as_text=True)]
    else:
        chunks = graph_def_chunks(graph)
    try:
        with atomic_output(path, 'wb', durable=False) as f:
            for chunk in chunks:
                f.write(chunk)
    except OSError as e:
        raise Error('Cannot write "{}": {}', path, e.strerror or e) from None
    except (ValueError, EncodeError) as e:
        raise Error('Cannot write "{}": the graph cannot be serialized ({})', path, e) from None
