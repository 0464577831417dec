"""Emit a back-phase graph as an OpenVINO IR v11 pair: ``model.xml`` + ``model.bin``.

``serialize_ir(graph, meta)`` returns both files' bytes; ``write_ir`` writes them whole or not
at all. Each op node becomes one ``<layer>`` (a Const compressed to f16 becomes two: the f16
Const and a Convert back to f32). Layers follow the graph's stable topological order and are
numbered 0..N-1 in it; the output is byte-identical for the same graph whatever the hash seed.

Port numbering follows the IR's rule: a layer's input ports are 0..n-1 in input order and its
output ports continue from n, so ``<edge>`` elements refer to ``(layer id, port id)`` pairs.
"""
import io
import logging as log
import operator
import os

import numpy as np

from mo.back.ir import ir_types
from mo.back.ir.background_writer import BackgroundFileWriter
from mo.back.ir.bin_packer import BinPacker
from mo.back.ir.layer_names import LayerNames
from mo.back.ir.tensor_names import TensorNames
from mo.back.ir.xml_builder import (BODY_LAYER_DEPTH, NET_LAYER_DEPTH, BodyRecord, ChunkedTextWriter, EdgeList,
                                    LayerRecord, NetworkText, PortCache, layer_text)
from mo.graph.graph import Graph, Node
from mo.ops.op import op_class_of
from mo.utils.error import Error
from mo.utils.file_utils import create_temporary, replace_file
from mo.version import __version__

#: f16's largest finite value; a f32 constant beyond it stays f32 under --compress_to_fp16
_F16_MAX = float(np.finfo(np.float16).max)
#: a f32 constant with at least this many elements is stored as f16 under --compress_to_fp16;
#: scalars (epsilons, scales) stay f32, where the precision loss buys nothing
COMPRESS_MIN_ELEMENTS = 2


def mo_version() -> str:
    """The version of ``mo`` that writes the IR (``mo.version``; importlib.metadata would cost
    a start-up's worth of imports and a scan of every installed distribution)."""
    return __version__


# ----- attribute values ------------------------------------------------------------------------

def format_value(value) -> str:
    """An attribute value as the IR reader parses it.

    Booleans are ``true``/``false``, numpy dtypes their element type (``f32``), sequences and
    arrays comma-separated, floats in the shortest form that reads back to the same number.
    """
    if type(value) is str:  # the common case, first
        return value
    if isinstance(value, (bool, np.bool_)):
        return 'true' if value else 'false'
    if ir_types.is_dtype_like(value):
        return ir_types.element_type(value)
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode('utf-8')
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, np.floating):
        # numpy prints the shortest text that round-trips in the value's own precision
        return str(value)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return format_value(value[()])
        return ','.join(format_value(v) for v in value.ravel())
    if isinstance(value, (list, tuple)):
        return ','.join(format_value(v) for v in value)
    raise Error('a value of type {} cannot be written as an IR attribute', type(value).__name__)


def format_shape(shape) -> str:
    """``[1, -1, 3]`` -> ``'1,-1,3'``; a scalar's shape is the empty string."""
    return ','.join(str(int(d)) for d in shape)


# ----- the graph's view ------------------------------------------------------------------------
# The emitter reads the back-phase graph through attribute dicts and the adjacency lists rather than
# through Node and Port objects: it visits every op and tensor once, on graphs of up to a million
# nodes, and the generic accessors cost more than the rest of the writer. The tensor a port carries
# is found as ``Port.tensor()`` finds it: the data node of the port's first data edge.

def _node_label(node: Node) -> str:
    return '"{}" ({})'.format(node.soft_get('name', node.id), node.soft_get('op', node.soft_get('type', '?')))


def _backend_attrs(graph: Graph, node_id, attrs: dict, op_classes: dict) -> list:
    """The op class's ``backend_attrs()`` for this node, without running the class's constructor. ``op_classes``
    caches ``op_class_of`` by the attributes it reads (``_op_class``, ``op``, ``type``) for one walk of a graph:
    the registry of op classes may change between conversions, not during one."""
    key = (attrs.get('_op_class'), attrs.get('op'), attrs.get('type'))
    try:
        cls = op_classes[key]
    except KeyError:
        cls = op_classes[key] = op_class_of(Node.view(graph, node_id))
    except TypeError:  # an unhashable attribute: no caching
        cls = op_class_of(Node.view(graph, node_id))
    if cls is None:
        return []
    op = cls.__new__(cls)  # __init__ may validate or add defaults; the node already has its attrs
    op.graph = graph
    op.attrs = attrs
    return op.backend_attrs() or ()


def _out_data_ids(graph: Graph, node_id) -> dict:
    """Output port index -> the id of the node its first data edge leads to (its data node), by index."""
    out_edges = graph.out_adjacency(node_id)
    if len(out_edges) == 1:  # the common case (one data node), without the general case's dicts
        [(data_id, keyed)] = out_edges.items()
        if len(keyed) == 1:
            [attrs] = keyed.values()
            out_idx = None if attrs.get('control_flow_edge') else attrs.get('out')
            return {} if out_idx is None else {out_idx: data_id}
    result = {}
    shared = False
    for data_id, keyed in out_edges.items():
        for attrs in keyed.values():
            out_idx = attrs.get('out')
            if out_idx is not None and not attrs.get('control_flow_edge'):
                if out_idx in result:
                    shared = True
                else:
                    result[out_idx] = data_id
    result = dict(sorted(result.items())) if len(result) > 1 else result
    return _SharedPortOutputs(result) if shared else result


class _SharedPortOutputs(dict):
    """``_out_data_ids`` of an op with more than one data node on some output port (not expected): the port is read
    through any of them."""


def _port_readers(graph: Graph, node_id) -> dict:
    """Output port index -> how many edges leave the data nodes on it (every data node, not only the first)."""
    readers = {}
    for data_id, keyed in graph.out_adjacency(node_id).items():
        count = sum(map(len, graph.out_adjacency(data_id).values()))
        for attrs in keyed.values():
            out_idx = attrs.get('out')
            if out_idx is not None:
                readers[out_idx] = readers.get(out_idx, 0) + count
    return readers


def _output_records(graph: Graph, node_id) -> dict:
    """Output port index -> the record of the tensor on that port (``Port.tensor()``), for every
    declared or connected output port that has one."""
    attrs = graph.node_attrs(node_id)
    table = attrs.get('_out_ports') or {}
    records = {}
    for out_idx, data_id in _out_data_ids(graph, node_id).items():
        data = graph.node_attrs(data_id)
        records[out_idx] = data if data.get('kind') == 'data' else table.get(out_idx)
    for out_idx, record in table.items():
        if out_idx not in records and not (record or {}).get('control_flow'):
            records[out_idx] = record
    return records


def _in_sources(graph: Graph, node_id) -> list:
    """``[(in_port, data attrs, producer id, producer_out_port)]`` of the connected inputs, by port."""
    in_adjacency, nodes = graph.in_adjacency, graph.node_attrs
    result = []
    for data_id, keyed in in_adjacency(node_id).items():
        for attrs in keyed.values():
            in_idx = attrs.get('in')
            if in_idx is None or attrs.get('control_flow_edge'):
                continue
            data = nodes(data_id)
            producers = in_adjacency(data_id)
            if len(producers) == 1 and data.get('kind') == 'data':
                [(producer, producer_edges)] = producers.items()
                if len(producer_edges) == 1:
                    [producer_edge] = producer_edges.values()
                    result.append((in_idx, data, producer, producer_edge.get('out', 0)))
                    continue
            raise Error('Input {} of {} is not fed by exactly one op through a data node; the graph is not in '
                        'the back phase', in_idx, _node_label(Node.view(graph, node_id)))
    if len(result) == 2:  # the common case, without a sort's key calls
        if result[0][0] > result[1][0]:
            result.reverse()
    elif len(result) > 2:
        result.sort(key=_first)
    return result


_first = operator.itemgetter(0)


def _tensor_label(data: dict) -> str:
    return str(data.get('name', '?'))


def _shape_of(data: dict, owner: Node) -> tuple:
    shape = data.get('shape')
    if shape is None and data.get('value') is not None:
        shape = np.shape(data['value'])
    if shape is None and data.get('dynamic_rank'):
        return ()  # a port of dynamic rank lists no dimensions, as OpenVINO writes it
    if shape is None:
        raise Error('The shape of tensor "{}" of {} is unknown; the IR needs every tensor\'s rank',
                    _tensor_label(data), _node_label(owner))
    if type(shape) is np.ndarray and shape.ndim == 1 and shape.dtype.kind in 'iu':
        return tuple(shape.tolist())  # the common case: an int64 shape array
    return tuple(int(d) for d in np.ravel(shape))


def _dtype_of(data: dict, owner: Node) -> np.dtype:
    dtype = data.get('data_type')
    if dtype is None and data.get('value') is not None:
        dtype = np.asarray(data['value']).dtype
    if dtype is None:
        raise Error('The data type of tensor "{}" of {} is unknown', _tensor_label(data), _node_label(owner))
    return dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)


def _precision(data: dict, owner: Node) -> str:
    try:
        return ir_types.precision(_dtype_of(data, owner))
    except Error as exc:
        raise Error('{}: {}', _node_label(owner), exc) from exc


#: the dtype of the shapes inference writes
_INT64 = np.dtype(np.int64)


#: more IR ports than any layer has: a written output's (layer id, port id) is kept as one int
_PORT_SPAN = 1 << 32
#: more than any packed (layer id, port id): a written output's readers beyond the first are counted in multiples
#: of it, in the same int
_READER_UNIT = 1 << 64
_PACKED = _READER_UNIT - 1


# ----- the emitter -----------------------------------------------------------------------------

class _Emitter:
    """Walks the ops once, handing each layer's text to ``write_layer`` as soon as the layer is complete,
    collecting the edges and laying out the ``.bin``. ``depth`` is the depth of this network's layers in
    the XML; ``record_layer_ids`` keeps op id -> layer id (a body's port map refers to its Parameters and
    Results by layer id; the top network needs no such map, which would cost an entry per op)."""

    def __init__(self, graph: Graph, meta: dict, write_layer, packer: BinPacker, depth: int = NET_LAYER_DEPTH,
                 record_layer_ids: bool = False):
        self.graph = graph
        self.meta = meta
        self.depth = depth
        #: the text of the layers' <port> elements (<layer> <input> <port>)
        self.ports = PortCache(depth + 2)
        self.compress = bool(meta.get('compress_to_fp16'))
        self.packer = packer
        self.write_layer = write_layer
        self.layer_count = 0
        self.edges = EdgeList()
        #: where each op output was written and how many inputs are still to read it (set by ``_add_outputs``,
        #: taken by ``_take_source``): output 0 by op node id, the others by (op node id, output index). An entry
        #: goes when its last reader is written, so these hold the graph's frontier, not an entry per op
        self.first_sources = {}
        self.other_sources = {}
        #: op node id -> its layer's id, when asked for
        self.layer_of = {} if record_layer_ids else None
        #: the IR names of each written tensor (``TensorNames``)
        self.tensor_names = TensorNames(graph, _output_records)
        #: the layer names given so far (each once)
        self.layer_names = LayerNames(graph)
        #: a tensor's ``data_type`` as found in its record -> its IR precision
        self.precisions = {}
        #: the op classes found so far (``_backend_attrs``)
        self.op_classes = {}

    # -- ports --
    def _port(self, port_id: int, data: dict, owner: Node, names=()) -> str:
        """The ``<port>`` text of the tensor whose record is ``data`` (its precision looked up once per
        ``data_type`` value: a network has a handful)."""
        dtype = data.get('data_type')
        precision = self.precisions.get(dtype) if dtype is not None else None
        if precision is None:
            precision = _precision(data, owner)
            if dtype is not None:
                self.precisions[dtype] = precision
        shape = data.get('shape')
        if type(shape) is np.ndarray and shape.dtype is _INT64 and shape.ndim == 1:  # the common case
            dims = tuple(shape.tolist())
        else:
            dims = _shape_of(data, owner)
        return self.ports.text(port_id, precision, dims, names)

    # -- layers --
    def _new_layer(self, name, type_, version, data=(), rt_info=(), op_id=None, op_name=False) -> LayerRecord:
        """The next layer, written for op ``op_id``, named ``name`` (``op_name``: the op's own ``name``) unless
        an earlier layer has that name (``LayerNames``)."""
        layer = LayerRecord(self.layer_count, self.layer_names.take(name, op_id, op_name), type_, version, data,
                            rt_info)
        self.layer_count += 1
        return layer

    def _write(self, layer: LayerRecord):
        self.write_layer(layer_text(layer, self.depth))

    def _add_inputs(self, node: Node, layer: LayerRecord):
        port, add_edge, first_sources = self._port, self.edges.append, self.first_sources
        for position, (in_idx, data, producer, out_idx) in enumerate(_in_sources(self.graph, node.id)):
            if in_idx != position:
                raise Error('{} has input {} connected but input {} not; the IR cannot express a gap in the '
                            'inputs', _node_label(node), in_idx, position)
            if out_idx == 0:  # _take_source inline, for the common case
                packed = first_sources.get(producer)
                if packed is not None:
                    if packed < _READER_UNIT:
                        del first_sources[producer]
                    else:
                        first_sources[producer] = packed - _READER_UNIT
                        packed &= _PACKED
            else:
                packed = self._take_source(producer, out_idx)
            if packed is None:
                raise Error('Input {} of {} comes from output {} of {}, which was not written to the IR',
                            in_idx, _node_label(node), out_idx, _node_label(Node(self.graph, producer)))
            layer.inputs.append(port(position, data, node))
            add_edge(packed // _PORT_SPAN, packed % _PORT_SPAN, layer.id, position)

    def _add_outputs(self, node: Node, layer: LayerRecord, name: str, outputs: dict, compact: bool) -> dict:
        """Writes the ports of ``outputs`` (``_out_data_ids``); returns output index -> IR port id. An op with
        bodies (``compact``) writes only the outputs something reads (its port map says which is which); any
        other op must have no gap."""
        first = len(layer.inputs)
        count = len(outputs)
        nodes, readers_of = self.graph.node_attrs, self.graph.out_adjacency
        # an output's readers are the edges out of its data node; a port with more than one data node is read
        # through any of them: count them all (counting too many only keeps an entry longer)
        port_readers = _port_readers(self.graph, node.id) if type(outputs) is _SharedPortOutputs else None
        first_sources = self.first_sources
        ports = {}
        for position, (out_idx, data_id) in enumerate(outputs.items()):
            if out_idx >= count and not compact:
                raise Error('{} has output {} but not all outputs before it; the IR cannot express a gap in the '
                            'outputs', _node_label(node), out_idx)
            port_id = first + (position if compact else out_idx)
            ports[out_idx] = port_id
            data = nodes(data_id)
            record = data if data.get('kind') == 'data' else node.out_port(out_idx).tensor()
            layer.outputs.append(self._port(port_id, data, node, self.tensor_names.names(name, out_idx, record)))
            readers = sum(map(len, readers_of(data_id).values())) if port_readers is None \
                else port_readers.get(out_idx, 0)
            if readers:  # else a model output or an unused one
                # one entry per output still to be read, as one int: (layer id, port id) packed, plus the readers
                # beyond the first in _READER_UNITs; output 0 keyed by the op's id alone ((layer, port) tuples keyed
                # by (op, output) tuples took ~150 MB at a million ops)
                packed = layer.id * _PORT_SPAN + port_id
                if readers > 1:
                    packed += (readers - 1) * _READER_UNIT
                if out_idx == 0:
                    first_sources[node.id] = packed
                else:
                    self.other_sources[(node.id, out_idx)] = packed
        return ports

    def _take_source(self, node_id, out_idx: int):
        """The packed (layer id, port id) output ``out_idx`` of op ``node_id`` was written to, for one of its readers
        (None if it was not written); the entry goes with its last reader."""
        if out_idx == 0:
            sources, key = self.first_sources, node_id
        else:
            sources, key = self.other_sources, (node_id, out_idx)
        packed = sources.get(key)
        if packed is None or packed < _READER_UNIT:
            sources.pop(key, None)
            return packed
        sources[key] = packed - _READER_UNIT
        return packed & _PACKED

    def _data_attrs(self, node: Node, attrs: dict, skip=()) -> list:
        items = _backend_attrs(self.graph, node.id, attrs, self.op_classes)
        if not items:
            return []
        result = []
        seen = set(skip)
        for item in items:
            if type(item) is str:
                name, value = item, attrs.get(item)
                if type(value) is str and name not in seen:  # the common case: no conversion, no getter
                    seen.add(name)
                    result.append((name, value))
                    continue
            elif isinstance(item, str):
                name, value = item, attrs.get(item)
            elif isinstance(item, tuple) and len(item) == 2:
                name, getter = item
                value = getter(node) if callable(getter) else node.soft_get(getter, None)
            else:
                raise Error('{}: backend_attrs() item {!r} is neither a name nor a (name, getter) pair',
                            _node_label(node), item)
            if name in seen or value is None:
                continue
            seen.add(name)
            try:
                result.append((name, format_value(value)))
            except Error as exc:
                raise Error('{}: attribute "{}": {}', _node_label(node), name, exc) from exc
        return result

    def emit_op(self, node_id, attrs: dict):
        graph = self.graph
        node = Node.view(graph, node_id)
        op_type = attrs.get('type')
        if not op_type:
            raise Error('Operation {} has no IR type: it is a framework or legacy op that no transformation '
                        'replaced with an opset operation', _node_label(node))
        version = attrs.get('version')
        if not version:
            raise Error('Operation {} of type {} has no opset version', _node_label(node), op_type)
        name = str(attrs.get('name', node_id))
        outputs = _out_data_ids(graph, node_id)
        if op_type == 'Const':
            self.emit_const(node, attrs, name, version, outputs)
            return
        if op_type == 'Parameter':
            data = self._parameter_attrs(node, outputs)
            data += self._data_attrs(node, attrs, skip=[k for k, _ in data])
        else:
            data = self._data_attrs(node, attrs)
        layer = self._new_layer(name, op_type, version, data, op_id=node_id, op_name=True)
        if self.layer_of is not None:
            self.layer_of[node_id] = layer.id
        self._add_inputs(node, layer)
        bodies = attrs.get('bodies')
        output_ports = self._add_outputs(node, layer, name, outputs, compact=bodies is not None)
        if op_type == 'Parameter' and not layer.outputs:
            self._add_unused_parameter_output(node, layer, name, outputs)
        if bodies is not None:
            self._add_bodies(node, layer, output_ports)
        self._write(layer)

    def _add_bodies(self, node: Node, layer: LayerRecord, output_ports: dict):
        """The sub-graphs of a Loop or If (``node.bodies``: IR tag -> back-phase Graph), written as
        nested networks sharing this network's ``.bin``, after the port maps the op's
        ``ir_sections(node, layer_ids, output_ports)`` gives (output index -> IR port id)."""
        records, layer_ids = [], {}
        for tag, body in node.bodies.items():
            layers = []
            emitter = _Emitter(body, self.meta, layers.append, self.packer, depth=self.depth + BODY_LAYER_DEPTH,
                               record_layer_ids=True)
            records.append(BodyRecord(tag, layers, emitter.run()))
            layer_ids[tag] = emitter.layer_of
        layer.sections = list(node.ir_sections(node, layer_ids, output_ports)) + records

    def _parameter_type(self, node: Node, outputs: dict):
        """(shape, dtype) of a model input: its output tensor's, or the node's own for an unused input."""
        data_id = outputs.get(0)
        if data_id is not None:
            data = self.graph.node_attrs(data_id)
            return _shape_of(data, node), _dtype_of(data, node)
        # clean-up keeps unused inputs but drops their data nodes
        if not node.has_valid('shape'):
            raise Error('Parameter {} has no shape', _node_label(node))
        return tuple(int(d) for d in np.ravel(node.shape)), np.dtype(node.soft_get('data_type', None) or np.float32)

    def _parameter_attrs(self, node: Node, outputs: dict) -> list:
        shape, dtype = self._parameter_type(node, outputs)
        return [('shape', format_shape(shape)), ('element_type', ir_types.element_type(dtype))]

    def _add_unused_parameter_output(self, node: Node, layer: LayerRecord, name: str, outputs: dict):
        shape, dtype = self._parameter_type(node, outputs)
        names = self.tensor_names.names(name, 0, node.out_port(0).tensor())
        layer.outputs.append(self.ports.text(0, ir_types.precision(dtype), shape, names))

    def emit_const(self, node: Node, attrs: dict, name: str, version: str, outputs: dict):
        if attrs.get('packed_nibbles') is not None:  # PackedNibbleConst: its bytes are the IR's already
            return self._emit_layer(node, attrs, name, version, outputs, self._packed_const_data(attrs))
        data_id = outputs.get(0)
        data = self.graph.node_attrs(data_id) if data_id is not None else None
        value = data.get('value') if data is not None else None
        if value is None:
            value = attrs.get('value')
        if value is None:
            raise Error('Const {} has no value', _node_label(node))
        value = np.asarray(value)
        dtype = _dtype_of(data, node) if data is not None else value.dtype
        if value.dtype != dtype:  # a pass changed the tensor's type but not the stored value
            value = value.astype(dtype)
        try:
            element_type = ir_types.element_type(dtype)
        except Error as exc:
            raise Error('Const {}: {}', _node_label(node), exc) from exc
        compressed = self.compress and self._compressible(value)
        stored = value.astype(np.float16) if compressed else value
        offset, size = self.packer.add(stored)
        const_data = [('element_type', 'f16' if compressed else element_type), ('shape', format_shape(value.shape)),
                      ('offset', str(offset)), ('size', str(size))]
        extra = self._data_attrs(node, attrs, skip=[k for k, _ in const_data])
        if not compressed:
            return self._emit_layer(node, attrs, name, version, outputs, const_data + extra)
        const = self._new_layer(name + '_compressed', 'Const', version, const_data + extra, op_id=node.id)
        const.outputs.append(self.ports.text(0, 'FP16', tuple(value.shape)))
        self._write(const)
        # the Convert carries the original name and tensor names; OpenVINO's plugins recognise the
        # 'decompression' mark and keep the weights in f16
        convert = self._new_layer(name, 'Convert', 'opset1', [('destination_type', element_type)],
                                  rt_info=[('decompression', '0')], op_id=node.id, op_name=True)
        convert.inputs.append(self.ports.text(0, 'FP16', tuple(value.shape)))
        self.edges.append(const.id, 0, convert.id, 0)
        self._add_outputs(node, convert, name, outputs, compact=attrs.get('bodies') is not None)
        self._write(convert)

    def _emit_layer(self, node: Node, attrs: dict, name: str, version: str, outputs: dict, const_data: list):
        layer = self._new_layer(name, 'Const', version, const_data, op_id=node.id, op_name=True)
        if self.layer_of is not None:
            self.layer_of[node.id] = layer.id
        self._add_outputs(node, layer, name, outputs, compact=attrs.get('bodies') is not None)
        self._write(layer)

    def _packed_const_data(self, attrs: dict) -> list:
        offset, size = self.packer.add(np.ascontiguousarray(attrs['packed_nibbles'], np.uint8))
        return [('element_type', ir_types.element_type(attrs['data_type'])), ('shape', format_shape(attrs['shape'])),
                ('offset', str(offset)), ('size', str(size))]

    @staticmethod
    def _compressible(value: np.ndarray) -> bool:
        if value.dtype != np.float32 or value.size < COMPRESS_MIN_ELEMENTS:
            return False
        finite = value[np.isfinite(value)]
        # out-of-range values would become inf in f16: such a tensor keeps its f32 form
        return finite.size == 0 or float(np.max(np.abs(finite))) <= _F16_MAX

    def run(self) -> EdgeList:
        """Writes the layers of the graph's ops (to ``write_layer``); returns the edges."""
        if self.graph.stage == 'front':
            raise Error('The IR writer needs a graph with data nodes (middle or back phase), not a front-phase graph')
        node_attrs, emit_op = self.graph.node_attrs, self.emit_op
        for node_id in self.graph.topological_ids():
            attrs = node_attrs(node_id)
            if attrs.get('kind') == 'op':
                emit_op(node_id, attrs)
        if self.packer.deduplicated:
            log.debug('IR writer: {} constants share stored bytes with an identical one'.format(
                self.packer.deduplicated))
        return self.edges


def _rt_info(meta: dict) -> list:
    cli = meta.get('cli_parameters') or {}
    params = [(str(key), '' if cli[key] is None else str(cli[key])) for key in sorted(cli, key=str)]
    return [('MO_version', mo_version()), ('conversion_parameters', params)]


def serialize_ir(graph: Graph, meta: dict = None):
    """The IR of ``graph`` as ``(xml_bytes, bin_bytes)``.

    ``meta`` may hold ``model_name`` (the ``<net name>``; default the graph's ``name`` or
    ``'model'``), ``compress_to_fp16`` (store non-scalar f32 constants as f16 + Convert) and
    ``cli_parameters`` (option -> text, written to ``<rt_info><conversion_parameters>``).
    Raises ``Error`` naming the node when the graph holds something the IR cannot express,
    such as an op without an opset type.
    """
    xml = io.BytesIO()
    packer = BinPacker()
    _emit(graph, meta, xml.write, packer)
    return xml.getvalue(), packer.getvalue()


def _emit(graph: Graph, meta: dict, write_xml, packer: BinPacker):
    """Write the ``.xml`` of ``graph`` through ``write_xml`` (called with chunks of bytes) while laying out
    its weights in ``packer``."""
    meta = dict(meta or {})
    net_name = str(meta.get('model_name') or graph.graph.get('name') or 'model')
    node_attrs = graph.node_attrs
    has_layers = any(node_attrs(node_id).get('kind') == 'op' for node_id in graph.topological_ids())
    network = NetworkText(ChunkedTextWriter(write_xml), net_name, has_layers)
    edges = _Emitter(graph, meta, network.layer, packer).run()
    packer.flush()
    network.finish(edges, _rt_info(meta))


def write_ir(graph: Graph, output_dir: str, model_name: str, meta: dict = None):
    """Write ``<output_dir>/<model_name>.xml`` and ``.bin``; return their paths.

    Both files are written to temporary files in ``output_dir`` first and then renamed, the
    ``.bin`` before the ``.xml`` (a reader that finds the new ``.xml`` finds its weights). On
    any failure the temporary files are removed and existing files are left as they were.
    The ``.bin`` is written by a second thread while the graph is walked and the XML written.
    """
    meta = dict(meta or {})
    meta.setdefault('model_name', model_name)
    os.makedirs(output_dir, exist_ok=True)
    xml_path = os.path.join(output_dir, model_name + '.xml')
    bin_path = os.path.join(output_dir, model_name + '.bin')
    pending = []
    try:
        bin_tmp, bin_handle = _open_temporary(bin_path, pending)
        with bin_handle:
            xml_tmp, xml_handle = _open_temporary(xml_path, pending)
            with xml_handle:
                writer = BackgroundFileWriter(bin_handle)
                try:
                    _emit(graph, meta, xml_handle.write, BinPacker(sink=writer.put))
                except BaseException:
                    writer.finish(raise_error=False)  # the thread must not outlive the file
                    raise
                writer.finish()
        replace_file(bin_tmp, bin_path)
        pending.remove(bin_tmp)
        replace_file(xml_tmp, xml_path)
        pending.remove(xml_tmp)
    except BaseException:
        for path in pending:
            try:
                os.unlink(path)
            except OSError:
                pass
        raise
    return xml_path, bin_path


def _open_temporary(final_path: str, pending: list):
    """``(path, binary file handle)`` of a new hidden file next to ``final_path`` (listed in ``pending`` at once).

    No fsync when it is written: the rename makes the replacement atomic for every reader and
    against a crash of this process (the written pages live in the OS cache); only an OS crash or
    power loss right after the rename could leave a short file, and an IR is regenerated by
    converting again.
    """
    tmp_path, fd = create_temporary(final_path)  # the umask's permissions, not mkstemp's 0o600
    pending.append(tmp_path)
    return tmp_path, os.fdopen(fd, 'wb')


