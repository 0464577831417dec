"""The IR's ``.xml``: layers, ports and edges rendered as IR v11 text.

The writer decides *what* goes into the IR (``writer.py``); this module only knows the XML
shape OpenVINO reads: ``<net version="11">`` with ``<layers>``, ``<edges>`` and ``<rt_info>``.
Attribute order is the order of the records, so equal records give byte-identical text.

A network of a million layers must not be held as text: a layer is rendered (``layer_text``) as
soon as the writer has finished it and goes straight to the file (``ChunkedTextWriter``); its ports
are text from the start (``PortCache``), and the edges wait, four integers each, in an ``EdgeList``
until the layers are written. The text is formatted directly, not through ElementTree: on a model of a
few thousand layers, building and serializing an element tree took longer than the rest of the writer.
"""
import functools
import re
from array import array
from typing import List, NamedTuple, Optional, Tuple

IR_VERSION = '11'

_XML_NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_.-]*$')


class LayerRecord:
    """One ``<layer>`` being built; ``data`` and ``rt_info`` hold ``(name, text)`` pairs in output order,
    ``inputs`` and ``outputs`` the ports' texts (``PortCache.text`` at the layer's depth + 2)."""
    __slots__ = ('id', 'name', 'type', 'version', 'data', 'inputs', 'outputs', 'rt_info', 'sections')

    def __init__(self, id: int, name: str, type: str, version: str, data=(), rt_info=()):
        self.id = id
        self.name = name
        self.type = type
        self.version = version
        self.data = data
        self.rt_info = rt_info
        self.inputs = []
        self.outputs = []
        #: what follows the ports, in order: ``ElementList`` (a port map, back edges) and ``BodyRecord`` items
        self.sections = ()


# plain classes, not dataclasses: a dataclass is generated code compiled at import, ~0.5 ms each of every start-up
class ElementList:
    """``<tag>`` holding one empty element per ``(element tag, attrs)`` item: a port map or back edges."""
    __slots__ = ('tag', 'items')

    def __init__(self, tag: str, items: Optional[List[Tuple[str, List[Tuple[str, str]]]]] = None):
        self.tag = tag
        self.items = [] if items is None else items

    def __repr__(self):
        return 'ElementList({!r}, {!r})'.format(self.tag, self.items)


class BodyRecord:
    """A sub-graph of a layer (``<body>``, ``<then_body>``, ``<else_body>``): layers and edges of its own.
    ``layers`` holds each layer's text, rendered by ``layer_text`` at the body's depth (the depth of
    the owning layer plus ``BODY_LAYER_DEPTH``); ``edges`` is an ``EdgeList``."""
    __slots__ = ('tag', 'layers', 'edges')

    def __init__(self, tag: str, layers: List[str], edges: 'EdgeList'):
        self.tag = tag
        self.layers = layers
        self.edges = edges


#: how much deeper than its layer a body's layers are: <layer> <body> <layers> <layer>
BODY_LAYER_DEPTH = 3
#: the depth of a network's own layers: <net> <layers> <layer>
NET_LAYER_DEPTH = 2


class EdgeList:
    """The ``<edge>`` elements of a network, kept as four 32-bit integers each (a tuple per edge would cost
    five objects: on a million layers, more memory than the rest of the writer)."""

    def __init__(self):
        self._ends = array('i')
        self._in_order = True
        self._last_to = (-1, -1)

    def append(self, from_layer: int, from_port: int, to_layer: int, to_port: int):
        to = (to_layer, to_port)
        if to < self._last_to:
            self._in_order = False
        self._last_to = to
        self._ends.extend((from_layer, from_port, to_layer, to_port))

    def __len__(self):
        return len(self._ends) // 4

    def tuples(self) -> list:
        """``[(from layer, from port, to layer, to port)]`` sorted by destination (as OpenVINO writes them)."""
        ends = self._ends
        edges = list(zip(ends[0::4], ends[1::4], ends[2::4], ends[3::4]))
        if not self._in_order:  # the writer emits layers in id order and inputs in port order: not expected
            edges.sort(key=lambda e: (e[2], e[3]))
        return edges

    def lines(self, depth: int):
        """The ``<edge>`` lines at ``depth`` tabs, one by one."""
        pattern = '\t' * depth + '<edge from-layer="{}" from-port="{}" to-layer="{}" to-port="{}" />'
        if not self._in_order:
            for edge in self.tuples():
                yield pattern.format(*edge)
            return
        ends = self._ends
        for start in range(0, len(ends), 4):
            yield pattern.format(ends[start], ends[start + 1], ends[start + 2], ends[start + 3])

    def blocks(self, depth: int, block_edges: int = 4096):
        """The ``<edge>`` lines at ``depth`` tabs, ``block_edges`` lines joined into one text at a time (one format
        call per edge in C, not a Python step per edge)."""
        if not self._in_order:
            lines = list(self.lines(depth))
            for start in range(0, len(lines), block_edges):
                yield '\n'.join(lines[start:start + block_edges])
            return
        pattern = '\t' * depth + '<edge from-layer="{}" from-port="{}" to-layer="{}" to-port="{}" />'
        ends = self._ends
        step = 4 * block_edges
        for start in range(0, len(ends), step):
            block = ends[start:start + step]
            yield '\n'.join(map(pattern.format, block[0::4], block[1::4], block[2::4], block[3::4]))


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


def _attr_text(attrs) -> str:
    """`` key="value"`` for each pair; keys are XML names, values are escaped."""
    text = ''.join([' ' + key + '="' + value + '"' for key, value in attrs])
    if _ATTR_SPECIAL.search(''.join([value for _, value in attrs])):  # rare: escape value by value
        text = ''.join([' ' + key + '="' + _attr_value(value) + '"' for key, value in attrs])
    return text


#: ``_attr_text`` of the ``<data>`` attributes of recent layers: most layers of a type have the same ones
_data_texts = {}
_DATA_TEXTS_LIMIT = 4096


def _data_attr_text(data) -> str:
    key = tuple(data)  # (name, text) pairs: values are formatted already, so equal keys mean equal texts
    try:
        text = _data_texts.get(key)
    except TypeError:  # pairs given as lists
        return _attr_text(data)
    if text is None:
        if len(_data_texts) >= _DATA_TEXTS_LIMIT:  # a Const's offsets vary: start over rather than grow
            _data_texts.clear()
        text = _data_texts[key] = _attr_text(key)
    return text


# ----- ports -----------------------------------------------------------------------------------

def port_parts(depth: int, port_id: int, precision: str, dims: tuple) -> tuple:
    """``<port>`` at ``depth`` without its ``names``: (the text before them, the text after them)."""
    tabs = '\t' * depth
    head = '{}<port id="{}" precision="{}"'.format(tabs, port_id, _attr_value(precision))
    if not dims:
        return head, ' />'
    return head, '>\n{}\n{}</port>'.format('\n'.join(['{}\t<dim>{}</dim>'.format(tabs, int(d)) for d in dims]), tabs)


def names_attr(names) -> str:
    """`` names="..."`` of a port with tensor ``names`` (unescaped)."""
    joined = ','.join(names)
    if joined.count(',') != len(names) - 1:  # some name holds a comma
        joined = join_tensor_names(names)
    return ' names="' + _attr_value(joined) + '"'


class PortCache:
    """``port_text`` for the ports of one network, remembering the text of each (port id, precision, dims)
    seen: a network's ports are few such combinations (most tensors share a handful of shapes), so the
    ``<dim>`` lines are formatted once rather than for every port. Starts over past ``limit`` entries."""

    def __init__(self, depth: int, limit: int = 4096):
        self.depth = depth
        self.limit = limit
        self.parts = {}

    def text(self, port_id: int, precision: str, dims: tuple, names=()) -> str:
        key = (port_id, precision, dims)
        parts = self.parts.get(key)
        if parts is None:
            if len(self.parts) >= self.limit:
                self.parts.clear()
            parts = self.parts[key] = port_parts(self.depth, port_id, precision, dims)
        return parts[0] + names_attr(names) + parts[1] if names else parts[0] + parts[1]


# ----- layers ----------------------------------------------------------------------------------

#: (type, version) -> their attributes' text: a network has few op types, and a layer each
_type_attrs = {}


def _layer_type_attrs(type_: str, version: str) -> str:
    text = _type_attrs.get((type_, version))
    if text is None:
        text = _type_attrs[(type_, version)] = _attr_text((('type', type_), ('version', version)))
    return text


class _LayerFrame(NamedTuple):
    """The fixed text around a layer's parts at one depth (most of a layer's text, made once per depth)."""
    tabs: str
    inner: str
    inputs: Tuple[str, str]
    outputs: Tuple[str, str]
    close: str


@functools.lru_cache(maxsize=None)
def _layer_frame(depth: int) -> _LayerFrame:
    tabs = '\t' * depth
    inner = tabs + '\t'
    return _LayerFrame(tabs, inner, ('\n' + inner + '<input>\n', '\n' + inner + '</input>'),
                       ('\n' + inner + '<output>\n', '\n' + inner + '</output>'), '\n' + tabs + '</layer>')


def layer_text(layer: LayerRecord, depth: int = NET_LAYER_DEPTH) -> str:
    """The ``<layer>`` element of ``layer`` at ``depth`` tabs, without a final newline."""
    frame = _layer_frame(depth)
    text = frame.tabs + '<layer id="' + str(layer.id) + '" name="' + _attr_value(layer.name) + '"' + \
        _layer_type_attrs(layer.type, layer.version)
    if not (layer.data or layer.rt_info or layer.inputs or layer.outputs or layer.sections):
        return text + ' />'
    inner = frame.inner
    text += '>'
    if layer.data:
        text += '\n' + inner + '<data' + _data_attr_text(layer.data) + ' />'
    if layer.rt_info:
        lines = [inner + '<rt_info>']
        lines.extend(['{}\t<attribute{} />'.format(inner, _attr_text((('name', name), ('version', version))))
                      for name, version in layer.rt_info])
        lines.append(inner + '</rt_info>')
        text += '\n' + '\n'.join(lines)
    if layer.inputs:
        text += frame.inputs[0] + '\n'.join(layer.inputs) + frame.inputs[1]
    if layer.outputs:
        text += frame.outputs[0] + '\n'.join(layer.outputs) + frame.outputs[1]
    for section in layer.sections:
        lines = ['{}<{}>'.format(inner, section.tag)]
        if isinstance(section, BodyRecord):
            lines.extend(_layers_and_edges(depth + 2, section.layers, section.edges))
        else:
            lines.extend(['{}\t<{}{} />'.format(inner, tag, _attr_text(item_attrs))
                          for tag, item_attrs in section.items])
        lines.append('{}</{}>'.format(inner, section.tag))
        text += '\n' + '\n'.join(lines)
    return text + frame.close


def _layers_and_edges(depth: int, layers, edges: EdgeList) -> list:
    """The lines of ``<layers>`` and ``<edges>`` of a body at ``depth``; ``layers`` are the layers' texts."""
    lines = []
    tabs = '\t' * depth
    for tag, items in (('layers', layers), ('edges', edges.lines(depth + 1) if len(edges) else ())):
        if not items:
            lines.append('{}<{} />'.format(tabs, tag))
            continue
        lines.append('{}<{}>'.format(tabs, tag))
        lines.extend(items)
        lines.append('{}</{}>'.format(tabs, tag))
    return lines


# ----- the network -----------------------------------------------------------------------------

class ChunkedTextWriter:
    """Lines of text written to a binary file as UTF-8, ``chunk_lines`` at a time: the file's text is never
    held whole, and the file is not written once per line. A "line" may be a whole layer's lines."""

    def __init__(self, write, chunk_lines: int = 4096):
        self._write = write
        self._chunk_lines = chunk_lines
        self._lines = []

    def line(self, text: str):
        """Add one line (without its newline)."""
        self._lines.append(text)
        if len(self._lines) >= self._chunk_lines:
            self.flush()

    def block(self, text: str):
        """Add many lines joined into one text (without a final newline), and write out what is pending: a block
        is as long as a chunk of lines."""
        self._lines.append(text)
        self.flush()

    def flush(self):
        if self._lines:
            self._lines.append('')  # each line ends in a newline
            self._write('\n'.join(self._lines).encode('utf-8'))
            self._lines = []


class NetworkText:
    """The ``.xml`` of an IR v11 network, written as it is produced: ``layer(text)`` for each layer in id
    order (``layer_text`` at ``NET_LAYER_DEPTH``; at least one if ``has_layers``, else none), then
    ``finish(edges, rt_info)``."""

    def __init__(self, out: ChunkedTextWriter, net_name: str, has_layers: bool):
        self._out = out
        self._has_layers = has_layers
        out.line('<?xml version="1.0"?>')
        out.line('<net' + _attr_text((('name', net_name), ('version', IR_VERSION))) + '>')
        if has_layers:
            out.line('\t<layers>')
        self.layer = out.line

    def finish(self, edges: EdgeList, rt_info: Optional[List[Tuple[str, object]]] = None):
        """Close the layers; write the edges and ``rt_info``: a list of ``(key, value)``, where a string value
        becomes ``<key value="..."/>`` and a list of pairs a ``<key>`` element holding one such element per pair."""
        out = self._out
        out.line('\t</layers>' if self._has_layers else '\t<layers />')
        if len(edges):
            out.line('\t<edges>')
            for block in edges.blocks(2):
                out.block(block)
            out.line('\t</edges>')
        else:
            out.line('\t<edges />')
        for line in _rt_info_lines(1, 'rt_info', rt_info or []):
            out.line(line)
        out.line('</net>')
        out.flush()


def _rt_info_lines(depth: int, tag: str, items) -> list:
    tabs = '\t' * depth
    if not items:
        return ['{}<{} />'.format(tabs, tag)]
    lines = ['{}<{}>'.format(tabs, tag)]
    for key, value in items:
        if isinstance(value, (list, tuple)):
            lines.extend(_rt_info_lines(depth + 1, xml_tag(key), value))
        else:
            lines.append('{}\t<{}{} />'.format(tabs, xml_tag(key), _attr_text((('value', str(value)),))))
    lines.append('{}</{}>'.format(tabs, tag))
    return lines
