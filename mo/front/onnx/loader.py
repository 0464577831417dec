"""ONNX ModelProto -> the framework's graph (front phase: op nodes only).

Conventions, as for TensorFlow graphs (``mo.front.tf.loader``):

* every ONNX node is an op node: ``op`` its ``op_type``, ``pb`` its NodeProto, ``name`` its name (or, for an
  unnamed node, its first output's name), ``domain`` and ``onnx_opset`` (the version of its domain the model
  imports);
* a graph input that no initializer gives is a ``Parameter`` node (``pb`` its ValueInfoProto); an initializer is
  a ``Const`` node whose ``value`` is a view of the file's bytes;
* an edge carries ``out`` (the producer's output index) and ``in`` (the consumer's input index); an empty input
  name (an optional input left out) leaves its index unconnected;
* each output port carries its ONNX tensor name, and ``graph.graph['onnx_tensors']`` maps every tensor name to
  ``(node id, port)`` for ``--input``/``--output``.

Nodes may come in any order (onnxruntime accepts that too); a cycle is an error naming a node on it.
"""
import mmap
import os

from mo.front.onnx import wire
from mo.front.onnx.functions import inline_functions
from mo.front.onnx.scopes import sub_graph_reads
from mo.front.onnx.proto import ModelProto, coerce
from mo.front.onnx.sparse import sparse_to_dense
from mo.front.onnx.tensor import ExternalData, tensor_to_numpy
from mo.graph.graph import Graph, Node
from mo.graph.port import own_port_table, writable_port_record
from mo.utils.error import Error
from mo.compat.helpers_hook import legacy_helper_names

#: the default domain's names
DEFAULT_DOMAINS = ('', 'ai.onnx')
#: graph attr: {tensor name: (node id, output port)}
TENSORS = 'onnx_tensors'
#: graph attr: {domain: opset version} of the model
OPSETS = 'onnx_opsets'
#: the newest version of the default domain whose ops mo knows (onnx 1.23's); a newer model may mean otherwise
NEWEST_OPSET = 28


class LoadedModel:
    """A parsed ONNX model: the message (without its weights' bytes), the weights' views, external data."""

    def __init__(self, model, raw_views, external: ExternalData, path: str):
        self.model = model
        self.raw_views = raw_views
        self.external = external
        self.path = path


def read_onnx_model(source) -> LoadedModel:
    """Read an ONNX model from a file path, bytes, or a ModelProto (ours or the ``onnx`` package's): mo's reader.

    A file is memory-mapped and its initializers' ``raw_data`` stay views of it; external data is read from
    the files beside the model.
    """
    if isinstance(source, LoadedModel):
        return source
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            with open(path, 'rb') as f:
                size = os.fstat(f.fileno()).st_size
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b''
        except OSError as exc:
            raise Error('Cannot read the model "{}": {}', path, exc.strerror or exc) from None
        return _parse(data, path, os.path.dirname(os.path.abspath(path)))
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _parse(source, '<bytes>', os.getcwd())
    try:
        model = coerce(source, ModelProto)
    except TypeError as exc:
        raise Error('Cannot read an ONNX model from {}: {}', type(source).__name__, exc) from None
    return LoadedModel(model, [], ExternalData(os.getcwd()), '<ModelProto>')


def load_onnx_model(file_name) -> ModelProto:
    """The Model Optimizer's entry point: the model's ModelProto (mo's own ONNX classes, the ``onnx`` package's
    field names), weights included, external data read in (as ``onnx.load`` does).

    For extension code that wants the message; mo itself reads with ``read_onnx_model``, which keeps the
    weights as views of the file. ``file_name`` may also be bytes or a ModelProto.
    """
    loaded = read_onnx_model(file_name)
    if not loaded.raw_views and not any(t.data_location == 1 for t in loaded.model.graph.initializer):
        return loaded.model
    model = ModelProto()
    model.CopyFrom(loaded.model)
    for index, tensor in enumerate(model.graph.initializer):
        raw = loaded.raw_views[index] if index < len(loaded.raw_views) else None
        if raw is None and tensor.data_location == 1:  # EXTERNAL
            raw = loaded.external.view(tensor, 'Initializer "{}"'.format(tensor.name))
            del tensor.external_data[:]
            tensor.data_location = 0
        if raw is not None:
            tensor.raw_data = bytes(raw)
    return model


def _parse(data, path: str, base_dir: str) -> LoadedModel:
    if not len(data):
        raise Error('"{}" is empty, not an ONNX model', path)
    skeleton, views = wire.split_weights(data, path)
    try:
        model = ModelProto.FromString(skeleton)
    except Exception as exc:  # protobuf's DecodeError, whatever the backend
        raise Error('"{}" is not a valid ONNX model (it is truncated or corrupt: {})', path, exc) from None
    if not model.HasField('graph'):
        raise Error('"{}" is not an ONNX model: it has no graph', path)
    return LoadedModel(model, views, ExternalData(base_dir), path)


def model_opsets(model) -> dict:
    """``{domain: version}`` the model imports (the default domain as '')."""
    opsets = {}
    for entry in model.opset_import:
        domain = '' if entry.domain in DEFAULT_DOMAINS else entry.domain
        opsets[domain] = int(entry.version)
    if not model.opset_import:
        opsets[''] = 1  # IR version 1..2 models: opset 1
    if opsets.get('', 0) > NEWEST_OPSET:
        raise Error('The model imports ONNX opset {}; mo knows the ops up to opset {}', opsets[''], NEWEST_OPSET)
    return opsets


def _node_name(pb) -> str:
    if pb.name:
        return pb.name
    outputs = [o for o in pb.output if o]
    return outputs[0] if outputs else pb.op_type


def protobuf2nx(graph: Graph, loaded, outer_tensors=None) -> Graph:
    """Load ONNX model ``loaded`` into ``graph``: a ModelProto (ours or the ``onnx`` package's, as the Model
    Optimizer's ``protobuf2nx(graph, pb)`` takes), a ``LoadedModel`` from ``read_onnx_model`` (weights as views
    of the file), or a GraphProto for a body.

    ``outer_tensors`` (a body's): names of the enclosing graphs' tensors a body may read; each becomes a
    ``Parameter`` of the body marked ``outer_tensor``.
    """
    if not isinstance(loaded, LoadedModel) and \
            getattr(getattr(loaded, 'DESCRIPTOR', None), 'full_name', None) == ModelProto.DESCRIPTOR.full_name:
        loaded = read_onnx_model(loaded)
    if isinstance(loaded, LoadedModel):
        onnx_graph, views, external = loaded.model.graph, loaded.raw_views, loaded.external
        graph.graph[OPSETS] = model_opsets(loaded.model)
        graph.graph['onnx_model_path'] = loaded.path
        graph.graph['onnx_functions'] = {(f.domain, f.name): f for f in loaded.model.functions}
        graph.graph['onnx_ir_version'] = int(loaded.model.ir_version)
    else:
        onnx_graph, views, external = loaded, [], None
    opsets = graph.graph.get(OPSETS, {'': 1})
    tensors = graph.graph.setdefault(TENSORS, {})

    def add_tensor(name, node_id, port, what):
        if name in tensors:
            raise Error('Tensor "{}" is produced twice in the ONNX graph ("{}" and "{}")', name,
                        graph.nodes[tensors[name][0]].get('name'), what)
        tensors[name] = (node_id, port)
        writable_port_record(own_port_table(graph.nodes[node_id], '_out_ports'), port)['tensor_names'] = [name]

    for index, tensor in enumerate(onnx_graph.initializer):
        if not tensor.name:
            raise Error('The ONNX graph has an initializer without a name')
        raw = views[index] if index < len(views) else None
        value = tensor_to_numpy(tensor, raw, external, 'Initializer "{}"'.format(tensor.name))
        node_id = graph.unique_id(tensor.name)
        graph.add_node(node_id, kind='op', op='Const', name=tensor.name, value=value, pb=None)
        add_tensor(tensor.name, node_id, 0, tensor.name)
    for sparse in onnx_graph.sparse_initializer:
        value = sparse_to_dense(sparse, external)
        name = sparse.values.name
        node_id = graph.unique_id(name)
        graph.add_node(node_id, kind='op', op='Const', name=name, value=value, pb=None)
        add_tensor(name, node_id, 0, name)
    for value_info in onnx_graph.input:
        if value_info.name in tensors:
            continue  # an initializer's default: the initializer is the value (IR version < 4 lists both)
        node_id = graph.unique_id(value_info.name)
        graph.add_node(node_id, kind='op', op='Parameter', name=value_info.name, pb=value_info)
        add_tensor(value_info.name, node_id, 0, value_info.name)

    node_ids = []
    nodes = inline_functions(onnx_graph.node, graph.graph.get('onnx_functions'))
    for pb in nodes:
        domain = '' if pb.domain in DEFAULT_DOMAINS else pb.domain
        name = _node_name(pb)
        node_id = graph.unique_id(name)
        graph.add_node(node_id, kind='op', op=pb.op_type, name=name, pb=pb, domain=domain,
                       onnx_opset=opsets.get(domain, opsets.get('') if domain == '' else None))
        node_ids.append(node_id)
        for port, output in enumerate(pb.output):
            if output:
                add_tensor(output, node_id, port, name)

    outer = graph.graph.setdefault('onnx_outer_tensors', {})

    def source_of(name):
        source = tensors.get(name)
        if source is None and outer_tensors is not None and name in outer_tensors:
            source = tensors[name] = _outer_parameter(graph, name, outer)
        return source

    for node_id, pb in zip(node_ids, nodes):
        # a node with bodies (If, Loop, Scan) also reads the enclosing graphs' tensors its bodies read: inputs
        # after its own, named by ``onnx_outer_inputs``
        body_reads = sub_graph_reads(pb)
        if body_reads:
            graph.nodes[node_id]['onnx_outer_inputs'] = body_reads
        for position, name in enumerate(list(pb.input) + body_reads if body_reads else pb.input):
            if not name:
                continue
            source = source_of(name)
            if source is None:
                raise Error('Node "{}" ({}) reads tensor "{}", which no node, input or initializer produces',
                            graph.nodes[node_id]['name'], pb.op_type, name)
            graph.add_edge(source[0], node_id, **{'out': source[1], 'in': position})
    for value_info in onnx_graph.output:  # a body may return a tensor of an enclosing graph as it is
        source_of(value_info.name)
    graph.graph['source_format'] = 'onnx'
    graph.graph['onnx_graph_outputs'] = list(onnx_graph.output)
    graph.graph['onnx_value_info'] = {v.name: v for v in onnx_graph.value_info}
    return graph


def _outer_parameter(graph: Graph, name: str, outer: dict):
    """A body's input standing for tensor ``name`` of an enclosing graph."""
    node_id = graph.unique_id(name)
    graph.add_node(node_id, kind='op', op='Parameter', name=name, pb=None, outer_tensor=name,
                   _out_ports={0: {'tensor_names': [name]}})
    outer[name] = node_id
    return node_id, 0


def node_domain_opset(node: Node) -> int:
    """The opset version of the node's domain that the model imports (default domain: the model's opset)."""
    return node.soft_get('onnx_opset', None) or 1


# the Model Optimizer's helpers of this module path (its extractors import them from here) come from mo.compat
__getattr__ = legacy_helper_names(__name__)
