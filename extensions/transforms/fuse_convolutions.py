"""``fuse_resize_pad_and_conv``, ``fuse_resize_and_conv``, ``fuse_pad_and_conv``: fold the
ResizeBilinear and/or MirrorPad in front of a Conv2D into one ``FusedResizeAndPadConv2D`` or
``FusedPadConv2D``, which resizes and pads while building the convolution's patches.

The fused node keeps the Conv2D's name. A resize or pad that something else also reads, or that
is an ``--inputs``/``--outputs`` node, stays unfused. The fused ops only know NHWC, no dilation
and the legacy (not half-pixel) resize, so other convolutions are left alone.
"""
import numpy as np

from extensions.transforms.fold_constants import data_in_edges
from extensions.transforms.graph_edit import control_inputs, protected_nodes
from mo.front.tf import dtypes
from mo.front.tf.attrs import decode_attr
from mo.front.tf.node_def import make_node_def
from mo.transforms.base import GraphTransform


def _attr(graph, node_id, name, default=None):
    pb = graph.nodes[node_id]['pb']
    return decode_attr(pb.attr[name]) if name in pb.attr else default


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _fusable_conv(graph, conv) -> bool:
    return (_text(_attr(graph, conv, 'data_format', 'NHWC')) == 'NHWC'
            and all(d == 1 for d in _attr(graph, conv, 'dilations', [1, 1, 1, 1]))
            and _text(_attr(graph, conv, 'padding', 'SAME')) in ('SAME', 'VALID'))


def _private_producer(graph, node_id, port, op, protected):
    """``node_id`` when it is an ``op`` node whose output ``port`` 0 only this edge reads."""
    if port != 0 or node_id in protected or graph.nodes[node_id].get('op') != op:
        return None
    if graph.out_degree(node_id) != 1:
        return None
    return node_id


def _fuse(graph, conv, op_type, inputs, attrs, absorbed):
    """Turn ``conv`` into ``op_type`` reading ``inputs`` (``(source, port)``); drop ``absorbed``."""
    node = graph.nodes[conv]
    device = node.get('device', '') or ''
    pb = make_node_def(node.get('name', conv), op_type, device=device)
    pb.attr['T'].CopyFrom(node['pb'].attr['T'])
    for key, value in attrs.items():
        pb.attr[key].CopyFrom(value)
    controls = control_inputs(graph, conv)
    for node_id in absorbed:
        controls += [c for c in control_inputs(graph, node_id) if c not in controls]
    graph.remove_edges_from([(u, conv, k) for u, _, k in graph.in_edges(conv, keys=True)])
    graph.remove_nodes_from(absorbed)
    node.pop('tf_attrs', None)
    node['op'], node['pb'] = op_type, pb
    for position, (source, port) in enumerate(inputs):
        graph.add_edge(source, conv, out=port, **{'in': position})
    for index, source in enumerate(c for c in controls if c in graph and c != conv):
        graph.add_edge(source, conv, control_flow_edge=True, control_index=index)


def _conv_attrs(graph, conv) -> dict:
    pb = graph.nodes[conv]['pb']
    return {'strides': pb.attr['strides'], 'padding': pb.attr['padding']}


def _resize_attrs(graph, resize) -> dict:
    """The resize attributes the fused op takes; None for a resize it cannot reproduce."""
    if _attr(graph, resize, 'half_pixel_centers', False):
        return None
    result = make_node_def('attrs', 'NoOp')
    result.attr['resize_align_corners'].b = bool(_attr(graph, resize, 'align_corners', False))
    return {'resize_align_corners': result.attr['resize_align_corners']}


def _zero_paddings(graph, conv):
    name = graph.unique_id(graph.nodes[conv].get('name', conv) + '/zero_paddings')
    device = graph.nodes[conv].get('device', '') or ''
    pb = make_node_def(name, 'Const', device=device)
    pb.attr['dtype'].type = dtypes.DT_INT32
    graph.add_node(name, kind='op', name=name, op='Const', device=device, pb=pb,
                   value=np.zeros((4, 2), np.int32), pb_value=None)
    return name


def _convs(graph):
    return [c for c in graph.nodes_by_attr('op', 'Conv2D') if _fusable_conv(graph, c)]


def _conv_inputs(graph, conv):
    edges = data_in_edges(graph, conv)
    return (edges[0], edges[1]) if len(edges) == 2 else (None, None)


def _private_input(graph, edge, op, protected):
    """``(node, its data input edges)`` when ``edge`` comes from an ``op`` node that only it reads
    and that has the two inputs these ops take, else ``(None, None)``."""
    node = _private_producer(graph, edge[0], edge[1], op, protected)
    inputs = data_in_edges(graph, node) if node else []
    return (node, inputs) if len(inputs) == 2 else (None, None)


def _resize_input(graph, edge, protected):
    """``(resize, its inputs, fused-op attributes)`` for a fusable ResizeBilinear feeding ``edge``."""
    resize, resize_in = _private_input(graph, edge, 'ResizeBilinear', protected)
    attrs = _resize_attrs(graph, resize) if resize else None
    return (resize, resize_in, attrs) if attrs is not None else (None, None, None)


class FuseResizePadAndConv(GraphTransform):
    """Fuse ``ResizeBilinear -> MirrorPad -> Conv2D`` into one FusedResizeAndPadConv2D."""
    transform_name = 'fuse_resize_pad_and_conv'

    def transform(self, graph, context):
        protected = protected_nodes(context)
        for conv in _convs(graph):
            data, weights = _conv_inputs(graph, conv)
            pad, pad_in = _private_input(graph, data, 'MirrorPad', protected) if data else (None, None)
            resize, resize_in, attrs = _resize_input(graph, pad_in[0], protected) if pad else (None, None, None)
            if resize is None:
                continue
            attrs.update(_conv_attrs(graph, conv), mode=graph.nodes[pad]['pb'].attr['mode'])
            inputs = [resize_in[0][:2], resize_in[1][:2], pad_in[1][:2], weights[:2]]
            _fuse(graph, conv, 'FusedResizeAndPadConv2D', inputs, attrs, [pad, resize])


class FuseResizeAndConv(GraphTransform):
    """Fuse ``ResizeBilinear -> Conv2D`` into one FusedResizeAndPadConv2D with no padding."""
    transform_name = 'fuse_resize_and_conv'

    def transform(self, graph, context):
        protected = protected_nodes(context)
        for conv in _convs(graph):
            data, weights = _conv_inputs(graph, conv)
            resize, resize_in, attrs = _resize_input(graph, data, protected) if data else (None, None, None)
            if resize is None:
                continue
            mode = make_node_def('attrs', 'NoOp')
            mode.attr['mode'].s = b'REFLECT'  # nothing is padded, so the mode does not matter
            attrs.update(_conv_attrs(graph, conv), mode=mode.attr['mode'])
            inputs = [resize_in[0][:2], resize_in[1][:2], (_zero_paddings(graph, conv), 0), weights[:2]]
            _fuse(graph, conv, 'FusedResizeAndPadConv2D', inputs, attrs, [resize])


class FusePadAndConv(GraphTransform):
    """Fuse ``MirrorPad -> Conv2D`` into one FusedPadConv2D."""
    transform_name = 'fuse_pad_and_conv'

    def transform(self, graph, context):
        protected = protected_nodes(context)
        for conv in _convs(graph):
            data, weights = _conv_inputs(graph, conv)
            pad, pad_in = _private_input(graph, data, 'MirrorPad', protected) if data else (None, None)
            if pad is None:
                continue
            attrs = dict(_conv_attrs(graph, conv), mode=graph.nodes[pad]['pb'].attr['mode'])
            _fuse(graph, conv, 'FusedPadConv2D', [pad_in[0][:2], pad_in[1][:2], weights[:2]], attrs, [pad])
