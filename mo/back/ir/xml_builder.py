"""The IR's ``.xml``: plain records of layers, ports and edges rendered as IR v11 text.

The writer decides *what* goes into the IR (``writer.py``); this module only knows the XML
shape OpenVINO reads: ``<net version="11">`` with ``<layers>``, ``<edges>`` and ``<rt_info>``.
Attribute order is the order of the records, so equal records give byte-identical text.
"""
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

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


@dataclass
class EdgeRecord:
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


def _port_element(parent, port: PortRecord):
    attrs = {'id': str(port.id), 'precision': port.precision}
    if port.names:
        attrs['names'] = join_tensor_names(port.names)
    element = ET.SubElement(parent, 'port', attrs)
    for dim in port.dims:
        ET.SubElement(element, 'dim').text = str(int(dim))


def _layer_element(parent, layer: LayerRecord):
    element = ET.SubElement(parent, 'layer', {'id': str(layer.id), 'name': layer.name, 'type': layer.type,
                                              'version': layer.version})
    if layer.data:
        ET.SubElement(element, 'data', dict(layer.data))
    if layer.rt_info:
        rt_info = ET.SubElement(element, 'rt_info')
        for name, version in layer.rt_info:
            ET.SubElement(rt_info, 'attribute', {'name': name, 'version': version})
    if layer.inputs:
        inputs = ET.SubElement(element, 'input')
        for port in layer.inputs:
            _port_element(inputs, port)
    if layer.outputs:
        outputs = ET.SubElement(element, 'output')
        for port in layer.outputs:
            _port_element(outputs, port)


def build_xml(net_name: str, layers: List[LayerRecord], edges: List[EdgeRecord],
              rt_info: Optional[List[Tuple[str, object]]] = None) -> bytes:
    """The ``.xml`` text (UTF-8 bytes) of an IR v11 network.

    ``rt_info`` is a list of ``(key, value)``: a string value becomes ``<key value="..."/>``, a
    list of pairs becomes a ``<key>`` element holding one such element per pair.
    """
    net = ET.Element('net', {'name': net_name, 'version': IR_VERSION})
    layers_element = ET.SubElement(net, 'layers')
    for layer in layers:
        _layer_element(layers_element, layer)
    edges_element = ET.SubElement(net, 'edges')
    for edge in edges:
        ET.SubElement(edges_element, 'edge', {
            'from-layer': str(edge.from_layer), 'from-port': str(edge.from_port),
            'to-layer': str(edge.to_layer), 'to-port': str(edge.to_port)})
    rt_element = ET.SubElement(net, 'rt_info')
    _rt_info_items(rt_element, rt_info or [])
    ET.indent(net, space='\t')
    return b'<?xml version="1.0"?>\n' + ET.tostring(net, encoding='utf-8', xml_declaration=False) + b'\n'


def _rt_info_items(parent, items):
    for key, value in items:
        if isinstance(value, (list, tuple)):
            _rt_info_items(ET.SubElement(parent, xml_tag(key)), value)
        else:
            ET.SubElement(parent, xml_tag(key), {'value': str(value)})
