"""The layout replacer: TensorFlow's channels-last convolutions and pools become the opset's
channels-first ops between two Transposes.

A node extracted from TF (``layout`` 'NHWC' or 'NCHW', ``tf_weights`` set) gets:

* data: ``Transpose(0, R-1, 1, ..., R-2)`` in front and ``Transpose(0, 2, ..., R-1, 1)`` behind
  (channels-last only); transpose sinking later cancels the pairs between neighbouring ops;
* weights: TF's ``[k..., I, O]`` become ``[O, I, k...]``; depthwise ``[k..., C, M]`` become
  GroupConvolution's ``[C, M, 1, k...]``. A Const is reordered in place of a new Const, any other
  producer gets a Transpose (and an Unsqueeze for depthwise);
* Conv2DBackpropInput's TF inputs (input_sizes, filter, out_backprop) move to the opset's
  (data, weights, output_shape), the output shape being the spatial part of input_sizes.
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_node_with_second_input, create_op_with_const_inputs
from mo.graph.graph import Graph, Node
from mo.ops.const import Const
from mo.ops.convert import Convert
from mo.ops.strided_slice import StridedSlice
from mo.ops.transpose import Transpose
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

#: ops the replacer handles: they carry ``layout`` from their TF extractor
SPATIAL_OPS = ('Convolution', 'GroupConvolution', 'ConvolutionBackpropData', 'MaxPool', 'AvgPool', 'DepthToSpace',
               'SpaceToDepth', 'LRN', 'ExtractImagePatches')


def to_channels_first(rank: int) -> np.ndarray:
    return int64_array([0, rank - 1] + list(range(1, rank - 1)))


def to_channels_last(rank: int) -> np.ndarray:
    return int64_array([0] + list(range(2, rank)) + [1])


def _const_source(port):
    """The Const node feeding input ``port``, or None."""
    source = port.get_source()
    if source is not None and source.node.soft_get('op') == 'Const' and source.node.has_valid('value'):
        return source.node
    return None


def _reorder_weights(graph: Graph, node: Node, port_idx: int, kind: str, rank: int):
    """Put the weights on input ``port_idx`` into the opset's layout (``kind`` is TF's)."""
    port = node.in_port(port_idx)
    name = node.soft_get('name', node.id)
    spatial = list(range(rank - 2))
    # HWIO -> OIHW (Convolution); HWOI -> IOHW is the same move for ConvolutionBackpropData's
    # [C_IN, C_OUT, k...]; HWCM -> CMHW, then a 1 for the per-group input channel
    order = int64_array([rank - 1, rank - 2] + spatial) if kind in ('HWIO', 'HWOI') \
        else int64_array([rank - 2, rank - 1] + spatial)
    const = _const_source(port)
    if const is not None:
        value = np.transpose(const.value, order)
        if kind == 'HWCM':
            value = np.expand_dims(value, 2)
        new = Const(graph, {'name': const.soft_get('name', const.id) + '/' + kind + '_to_opset',
                            'value': value}).create_node()
        new.out_port(0).connect(port)
        return
    if port.get_source() is None:
        raise Error('{} "{}" has no weights input', node.op, name)
    transpose = create_op_node_with_second_input(graph, Transpose, order, {'name': name + '/weights_order'})
    port.get_connection().insert_node(transpose)
    if kind == 'HWCM':
        unsqueeze = create_op_node_with_second_input(graph, Unsqueeze, int64_array([2]),
                                                     {'name': name + '/weights_group'})
        transpose.out_port(0).get_connection().insert_node(unsqueeze)


def _backprop_ports(graph: Graph, node: Node, rank: int, channels_last: bool):
    """Conv2DBackpropInput (sizes, filter, data) -> ConvolutionBackpropData (data, weights, out_shape)."""
    name = node.soft_get('name', node.id)
    data_src = node.in_port(2).get_source()
    sizes = _const_source(node.in_port(0))
    if sizes is not None:
        spatial = np.ravel(sizes.value)[1:-1] if channels_last else np.ravel(sizes.value)[2:]
        out_shape = Const(graph, {'name': name + '/output_shape', 'value': int64_array(spatial)}).create_node()
    else:  # computed at run time (Keras: the batch from tf.shape): its spatial part, as int64
        begin, end = (1, -1) if channels_last else (2, 0)
        out_shape = create_op_with_const_inputs(
            graph, StridedSlice, {1: int64_array([begin]), 2: int64_array([end]), 3: int64_array([1])},
            {'name': name + '/output_shape', 'begin_mask': int64_array([0]), 'end_mask': int64_array([int(end == 0)]),
             'new_axis_mask': int64_array([0]), 'shrink_axis_mask': int64_array([0]),
             'ellipsis_mask': int64_array([0])})
        node.in_port(0).get_source().connect(out_shape.in_port(0))
        out_shape = _as_int64(graph, out_shape, name)
    node.in_port(0).disconnect()
    node.in_port(2).disconnect()
    data_src.connect(node.in_port(0))
    out_shape.out_port(0).connect(node.in_port(2))


def _as_int64(graph: Graph, source: Node, name: str) -> Node:
    convert = Convert(graph, {'name': name + '/output_shape_i64', 'dst_type': np.int64}).create_node()
    source.out_port(0).connect(convert.in_port(0))
    return convert


class NHWCToNCHW(FrontReplacementPattern):
    """Wraps every channels-last convolution/pool in Transposes and reorders TF weights."""
    id = 'NHWCToNCHW'

    def find_and_replace_pattern(self, graph: Graph):
        for op in SPATIAL_OPS:
            for node in graph.get_op_nodes(op=op):
                layout = node.soft_get('layout', 'NCHW')
                if layout == 'NCHW' and not node.has_valid('tf_weights'):
                    continue
                self.convert(graph, node)
                self.match_count += 1

    @staticmethod
    def convert(graph: Graph, node: Node):
        rank = len(np.ravel(node.strides)) + 2 if node.has_valid('strides') else 4
        channels_last = not node.soft_get('layout', 'NCHW').startswith('NC')
        name = node.soft_get('name', node.id)
        if node.has_and_set('tf_backprop_ports'):
            _backprop_ports(graph, node, rank, channels_last)
            node['tf_backprop_ports'] = False
        if node.has_valid('tf_weights'):
            _reorder_weights(graph, node, 1, node.tf_weights, rank)
            node['tf_weights'] = None
        if channels_last:
            # errors name the node and its layout as the model has them, not mo's channels-first view
            node['source_layout'] = node.soft_get('layout')
            before = create_op_node_with_second_input(graph, Transpose, to_channels_first(rank),
                                                      {'name': name + '/to_NCHW', 'layout_transpose_of': name})
            node.in_port(0).get_connection().insert_node(before)
            after = create_op_node_with_second_input(graph, Transpose, to_channels_last(rank),
                                                     {'name': name + '/to_NHWC', 'layout_transpose_of': name})
            names = node.out_port(0).get_tensor_names()
            node.out_port(0).get_connection().insert_node(after)
            if names:  # the TF tensor name now means the channels-last result
                after.out_port(0).add_tensor_names(names)
                node.out_port(0).tensor()['tensor_names'] = []
        node['layout'] = 'NCHW'
