"""Building TensorFlow op nodes in the framework's graph.

The conventions (shared by the loader, the GraphDef writer and every transform):

* node id = TF node name; attrs ``kind='op'``, ``name``, ``op`` (TF op type), ``device`` and
  ``pb`` (the ``NodeDef``; TF attributes live in ``pb.attr``, ``pb.input`` is not authoritative);
* data input ``"u:k"`` at data position i: edge u -> v with ``{'out': k, 'in': i}``;
* control input ``"^u"`` at control position j: edge u -> v with
  ``{'control_flow_edge': True, 'control_index': j}``;
* ``Const`` nodes also carry ``value`` (numpy view of the tensor) and ``pb_value`` (the same
  object, so the writer knows whether ``value`` was replaced), and ``pb_value_in_file``: whether
  ``value`` views the ``tensor_content`` bytes of the file the graph was read from.
"""
import sys

from mo.front.tf import dtypes
from mo.front.tf.attrs import encode_attr
from mo.front.tf.proto import NodeDef, coerce
from mo.front.tf.tensor import tensor_to_numpy
from mo.utils.error import Error


def parse_input(text: str, node_name: str = '?'):
    """Split a NodeDef input string: ``"u"`` -> ("u", 0), ``"u:k"`` -> ("u", k), ``"^u"`` -> ("u", None).

    ``None`` as the port marks a control input. A malformed string is an ``Error`` naming ``node_name``.
    """
    if text.startswith('^'):
        source = text[1:]
        if not source:
            raise Error('Node "{}" has an empty control input', node_name)
        return source, None
    source, sep, port = text.rpartition(':')
    if not sep:
        source, port = text, '0'
    if not source or not port.isdigit():
        raise Error('Node "{}" has a malformed input "{}"', node_name, text)
    return source, int(port)


def format_input(source_name: str, port) -> str:
    """The NodeDef input string for output ``port`` of ``source_name`` (``None`` = control input)."""
    if port is None:
        return '^' + source_name
    return source_name if port == 0 else '{}:{}'.format(source_name, port)


def op_node_attrs(pb, content=None, name: str = None) -> dict:
    """The framework attributes of an op node made from NodeDef ``pb`` (no edges); ``content``:
    a Const's tensor_content bytes as found in the file, if known; ``name``: ``pb.name`` as the caller read it
    (its node id: then the id and the ``name`` attribute are one string object)."""
    # Each read of a protobuf string field makes a new str object: a model's thousands of nodes would hold
    # thousands of copies of 'Const' (kept as ``op``, then ``tf_op``) and of their device; one interned copy each.
    op = sys.intern(pb.op)
    attrs = {'kind': 'op', 'name': pb.name if name is None else name, 'op': op, 'device': sys.intern(pb.device),
             'pb': pb}
    if op == 'Const':
        attach_const_value(attrs, pb, content)
    return attrs


def attach_const_value(attrs: dict, pb, content=None) -> None:
    """Set ``value`` and ``pb_value`` of a Const node from its ``value`` attr.

    Checked with ``in`` first: indexing a protobuf map inserts a missing key. A tensor of a dtype
    numpy cannot hold (resource, variant) leaves both ``None``; the writer then keeps the tensor.
    """
    attr_map = pb.attr  # every read of a message field is a look-up (~0.5 us): each is read once
    if 'value' not in attr_map:
        raise Error('Const node "{}" has no "value" attribute', pb.name)
    attr = attr_map['value']
    if attr.WhichOneof('value') != 'tensor':
        raise Error('Const node "{}" has a "value" attribute that is not a tensor', pb.name)
    tensor = attr.tensor
    if not dtypes.is_known(tensor.dtype):
        attrs['value'] = attrs['pb_value'] = None
        return
    try:
        value = tensor_to_numpy(tensor, content=content)
    except Error as e:
        raise Error('Const node "{}": {}', pb.name, e) from None
    attrs['value'] = value
    attrs['pb_value'] = value
    # the tensor's bytes are the file's, in tensor_content: the writer may send them on as they are
    attrs['pb_value_in_file'] = content is not None


def data_edge_attrs(port: int, position: int) -> dict:
    """The attributes of the edge for data input ``position`` from output ``port`` of its source."""
    return {'out': port, 'in': position}


def control_edge_attrs(position: int) -> dict:
    """The attributes of the edge for control input ``position``."""
    return {'control_flow_edge': True, 'control_index': position}


def add_input_edge(graph, source, target, port, position):
    """Add the edge for input ``position`` of ``target`` from output ``port`` of ``source``.

    ``port`` ``None`` makes a control edge and ``position`` is then the control index.
    """
    if port is None:
        return graph.add_edge(source, target, **control_edge_attrs(position))
    return graph.add_edge(source, target, **data_edge_attrs(port, position))


def _normalize_inputs(inputs, name):
    """``inputs`` of add_tf_node as a list of (source, port-or-None)."""
    result = []
    for item in inputs:
        if isinstance(item, str):
            result.append(parse_input(item, name))
        else:
            source, port = item
            result.append((source, None if port is None else int(port)))
    return result


def set_tf_attr(node_attrs: dict, name: str, value, kind: str = None) -> None:
    """Set TF attribute ``name`` of a node, given the node's attribute dict (``graph.nodes[n]``).

    ``value`` is a Python value (encoded with ``encode_attr(value, kind)``) or an ``AttrValue``.
    It goes into ``pb.attr`` when the node has a NodeDef, into the ``tf_attrs`` dict otherwise.
    Setting ``value`` of a Const also updates its numpy ``value``/``pb_value`` and ``dtype``.
    """
    where = 'attribute "{}" of node "{}"'.format(name, node_attrs.get('name', '?'))
    try:
        attr = encode_attr(value, kind)
    except (ValueError, TypeError) as e:
        raise Error('Cannot set {}: {}', where, e) from None
    pb = node_attrs.get('pb')
    if pb is None:
        node_attrs.setdefault('tf_attrs', {})[name] = attr
        return
    pb.attr[name].CopyFrom(attr)
    if name == 'value' and node_attrs.get('op') == 'Const' and attr.WhichOneof('value') == 'tensor':
        pb.attr['dtype'].type = attr.tensor.dtype
        attach_const_value(node_attrs, pb)


def make_node_def(name: str, op_type: str, attrs: dict = None, device: str = '', inputs=()) -> NodeDef:
    """A NodeDef with the given name, op, device, input strings and attrs (Python values or AttrValues)."""
    pb = NodeDef()
    pb.name = name
    pb.op = op_type
    if device:
        pb.device = device
    pb.input.extend(inputs)
    for attr_name in sorted(attrs or {}):
        value = attrs[attr_name]
        try:
            pb.attr[attr_name].CopyFrom(encode_attr(value))
        except (ValueError, TypeError) as e:
            raise Error('Cannot set attribute "{}" of node "{}": {}', attr_name, name, e) from None
    return pb


def add_tf_node(graph, name: str, op_type: str, inputs=(), attrs: dict = None, device: str = '') -> str:
    """Add op node ``name`` of TF type ``op_type`` to ``graph`` and connect its inputs; returns its id.

    ``inputs`` are ``(source_id, out_port)`` pairs (port ``None`` = control input) or NodeDef
    input strings (``"a"``, ``"a:1"``, ``"^a"``), data inputs first. ``attrs`` maps attribute
    names to Python values or ``AttrValue`` messages; a Python int is encoded as ``i``, so give
    dtypes as numpy dtypes or ready ``AttrValue`` s (``encode_attr(3, 'type')``). A ``Const``
    gets ``value``/``pb_value`` from its ``value`` attr (an ndarray is fine there).
    """
    if name in graph:
        raise Error('Cannot add node "{}": a node with that name already exists', name)
    parsed = _normalize_inputs(inputs, name)
    for source, _ in parsed:
        if source not in graph:
            raise Error('Cannot add node "{}": its input node "{}" does not exist', name, source)
    input_strings = [format_input(graph.nodes[source].get('name', source), port) for source, port in parsed]
    pb = make_node_def(name, op_type, attrs, device, input_strings)
    if op_type == 'Const' and 'value' in pb.attr and 'dtype' not in pb.attr:
        pb.attr['dtype'].type = pb.attr['value'].tensor.dtype
    graph.add_node(name, **op_node_attrs(pb))
    data_position = control_position = 0
    for source, port in parsed:
        if port is None:
            add_input_edge(graph, source, name, None, control_position)
            control_position += 1
        else:
            add_input_edge(graph, source, name, port, data_position)
            data_position += 1
    return name


def as_node_def(pb) -> NodeDef:
    """``pb`` as our NodeDef class (TensorFlow's NodeDef messages are converted through bytes)."""
    return coerce(pb, NodeDef)


__all__ = ['add_tf_node', 'set_tf_attr', 'make_node_def', 'parse_input', 'format_input', 'op_node_attrs',
           'attach_const_value', 'add_input_edge', 'as_node_def']
