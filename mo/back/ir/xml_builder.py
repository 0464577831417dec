"""The IR's ``.xml``: plain records of layers, ports and edges rendered as IR v11 text.

The writer decides *what* goes into the IR (``writer.py``); this module only knows the XML
shape OpenVINO reads: ``<net version="11">`` with ``<layers>``, ``<edges>`` and ``<rt_info>``.
Attribute order is the order of the records, so equal records give byte-identical text.

A layer is rendered (``layer_text``) as soon as the writer has finished its record, and the record
is dropped: on a network of a million layers the records would cost more memory than the text.
"""
import re
from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional, Tuple

IR_VERSION = '11'

_XML_NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_.-]*$')


@dataclass
class PortRecord:
    """One ``<port>``: ``names`` are tensor names (already unescaped; joined here)."""
    id: int
    precision: str
    dims: Tuple[int, ...]
    names: List[str] = field(default_factory=list)


@dataclass
class LayerRecord:
    """One ``<layer>``; ``data`` and ``rt_info`` hold ``(name, text)`` pairs in output order."""
    id: int
    name: str
    type: str
    version: str
    data: List[Tuple[str, str]] = field(default_factory=list)
    inputs: List[PortRecord] = field(default_factory=list)
    outputs: List[PortRecord] = field(default_factory=list)
    rt_info: List[Tuple[str, str]] = field(default_factory=list)
    #: what follows the ports, in order: ``ElementList`` (a port map, back edges) and ``BodyRecord`` items
    sections: list = field(default_factory=list)


@dataclass
class ElementList:
    """``<tag>`` holding one empty element per ``(element tag, attrs)`` item: a port map or back edges."""
    tag: str
    items: List[Tuple[str, List[Tuple[str, str]]]] = field(default_factory=list)


@dataclass
class BodyRecord:
    """A sub-graph of a layer (``<body>``, ``<then_body>``, ``<else_body>``): layers and edges of its own.
    ``layers`` holds each layer's text, rendered by ``layer_text`` at the body's depth (the depth of
    the owning layer plus ``BODY_LAYER_DEPTH``)."""
    tag: str
    layers: List[str] = field(default_factory=list)
    edges: list = field(default_factory=list)


#: how much deeper than its layer a body's layers are: <layer> <body> <layers> <layer>
BODY_LAYER_DEPTH = 3
#: the depth of a network's own layers: <net> <layers> <layer>
NET_LAYER_DEPTH = 2


class EdgeRecord(NamedTuple):
    """One ``<edge>`` (a tuple: a network keeps one per connection until its text is rendered)."""
    from_layer: int
    from_port: int
    to_layer: int
    to_port: int


def escape_tensor_name(name: str) -> str:
    """A tensor name as the ``names`` list needs it: OpenVINO splits on commas not after a backslash."""
    return name.replace(',', '\\,')


def join_tensor_names(names) -> str:
    return ','.join(escape_tensor_name(n) for n in names)


def xml_tag(name: str) -> str:
    """``name`` made into a valid XML element name (rt_info keys become element names)."""
    if _XML_NAME.match(name):
        return name
    tag = re.sub(r'[^A-Za-z0-9_.-]', '_', name)
    return tag if _XML_NAME.match(tag) else '_' + tag


_ATTR_ESCAPES = (('&', '&amp;'), ('<', '&lt;'), ('>', '&gt;'), ('"', '&quot;'),
                 ('\r', '&#13;'), ('\n', '&#10;'), ('\t', '&#09;'))
_ATTR_SPECIAL = re.compile('[&<>"\r\n\t]')


def _attr_value(text: str) -> str:
    if not _ATTR_SPECIAL.search(text):  # the common case: names and numbers
        return text
    for char, entity in _ATTR_ESCAPES:
        text = text.replace(char, entity)
    return text


class _Lines:
    """Indented XML text, one element or tag per line, tabs for depth (what OpenVINO writes too).

    Written out directly rather than through ElementTree: on a model of a few thousand layers,
    building and serializing the element tree took longer than the rest of the IR writer.
    """

    def __init__(self):
        self.lines = []

    def empty(self, depth: int, tag: str, attrs):
        self.lines.append('{}<{}{} />'.format('\t' * depth, tag, _attr_text(attrs)))

    def open(self, depth: int, tag: str, attrs=()):
        self.lines.append('{}<{}{}>'.format('\t' * depth, tag, _attr_text(attrs)))

    def close(self, depth: int, tag: str):
        self.lines.append('{}</{}>'.format('\t' * depth, tag))

    def text(self, depth: int, tag: str, text: str):
        self.lines.append('{0}<{1}>{2}</{1}>'.format('\t' * depth, tag, text))


def _attr_text(attrs) -> str:
    return ''.join([' {}="{}"'.format(key, _attr_value(value)) for key, value in attrs])


def _port(out: _Lines, depth: int, port: PortRecord):
    # formatted in place rather than through _Lines: a network has a port and a few dims per tensor end
    tabs = '\t' * depth
    head = '{}<port id="{}" precision="{}"'.format(tabs, port.id, _attr_value(port.precision))
    if port.names:
        head += ' names="{}"'.format(_attr_value(join_tensor_names(port.names)))
    if not port.dims:
        out.lines.append(head + ' />')
        return
    lines = out.lines
    lines.append(head + '>')
    lines.extend(['{}\t<dim>{}</dim>'.format(tabs, int(dim)) for dim in port.dims])
    lines.append(tabs + '</port>')


def layer_text(layer: LayerRecord, depth: int = NET_LAYER_DEPTH) -> str:
    """The ``<layer>`` element of ``layer`` at ``depth`` tabs, without a final newline."""
    out = _Lines()
    _layer(out, layer, depth)
    return '\n'.join(out.lines)


def _layer(out: _Lines, layer: LayerRecord, depth: int):
    # the tags every layer has are formatted in place (what _Lines.open/empty/close would write): a network
    # has one layer per op, and the helpers' calls cost as much as the text
    lines = out.lines
    tabs = '\t' * depth
    head = '{}<layer id="{}" name="{}" type="{}" version="{}"'.format(
        tabs, layer.id, _attr_value(layer.name), _attr_value(layer.type), _attr_value(layer.version))
    if not (layer.data or layer.rt_info or layer.inputs or layer.outputs or layer.sections):
        lines.append(head + ' />')
        return
    lines.append(head + '>')
    inner = tabs + '\t'
    if layer.data:
        lines.append('{}<data{} />'.format(inner, _attr_text(layer.data)))
    if layer.rt_info:
        out.open(depth + 1, 'rt_info')
        for name, version in layer.rt_info:
            out.empty(depth + 2, 'attribute', (('name', name), ('version', version)))
        out.close(depth + 1, 'rt_info')
    for tag, ports in (('input', layer.inputs), ('output', layer.outputs)):
        if ports:
            lines.append('{}<{}>'.format(inner, tag))
            for port in ports:
                _port(out, depth + 2, port)
            lines.append('{}</{}>'.format(inner, tag))
    for section in layer.sections:
        if isinstance(section, BodyRecord):
            out.open(depth + 1, section.tag)
            _layers_and_edges(out, depth + 2, section.layers, section.edges)
            out.close(depth + 1, section.tag)
        else:
            out.open(depth + 1, section.tag)
            for tag, item_attrs in section.items:
                out.empty(depth + 2, tag, item_attrs)
            out.close(depth + 1, section.tag)
    lines.append(tabs + '</layer>')


def _layers_and_edges(out: _Lines, depth: int, layers, edges):
    """``<layers>`` and ``<edges>`` of a network or of a body, at ``depth``; ``layers`` are the layers' texts."""
    indent = '\t' * (depth + 1)
    for tag, count in (('layers', len(layers)), ('edges', len(edges))):
        if not count:
            out.empty(depth, tag, ())
            continue
        out.open(depth, tag)
        if tag == 'layers':
            out.lines.extend(layers)
        else:
            out.lines.extend('{}<edge from-layer="{}" from-port="{}" to-layer="{}" to-port="{}" />'.format(
                indent, e.from_layer, e.from_port, e.to_layer, e.to_port) for e in edges)
        out.close(depth, tag)


def xml_lines(net_name: str, layers: List[str], edges: List[EdgeRecord],
              rt_info: Optional[List[Tuple[str, object]]] = None) -> List[str]:
    """The ``.xml`` text of an IR v11 network as lines (to be joined by newlines, with one at the end).

    ``layers`` are the layers' texts (``layer_text`` at ``NET_LAYER_DEPTH``). ``rt_info`` is a list of
    ``(key, value)``: a string value becomes ``<key value="..."/>``, a list of pairs becomes a ``<key>``
    element holding one such element per pair.
    """
    out = _Lines()
    out.lines.append('<?xml version="1.0"?>')
    out.open(0, 'net', (('name', net_name), ('version', IR_VERSION)))
    _layers_and_edges(out, 1, layers, edges)
    _rt_info_items(out, 1, 'rt_info', rt_info or [])
    out.close(0, 'net')
    return out.lines


def xml_bytes(lines) -> bytes:
    """``lines`` of ``xml_lines`` (all of them, or a run of them) as UTF-8 bytes, each line ending in a newline."""
    return ('\n'.join(lines) + '\n').encode('utf-8')


def _rt_info_items(out: _Lines, depth: int, tag: str, items):
    if not items:
        out.empty(depth, tag, ())
        return
    out.open(depth, tag)
    for key, value in items:
        if isinstance(value, (list, tuple)):
            _rt_info_items(out, depth + 1, xml_tag(key), value)
        else:
            out.empty(depth + 1, xml_tag(key), (('value', str(value)),))
    out.close(depth, tag)
