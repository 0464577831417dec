"""A Convolution whose input has k times its weights' input channels is a GroupConvolution.

TensorFlow's Conv2D/Conv3D accept such inputs (Keras ``Conv2D(groups=k)``, ConvNeXt-style grouped
blocks) and treat them as k groups; inference marks the node with ``group``. The opset spells this
as GroupConvolution with weights ``[G, C_OUT/G, C_IN/G, k...]``: the Convolution's ``[C_OUT, C_IN/G,
k...]`` weights are reshaped (a constant in place, anything else through a Reshape).
"""
import numpy as np

from extensions.middle.fuse_scale_shift_into_conv import FuseScaleShiftIntoConv
from mo.front.common.partial_infer.utils import int64_array
from mo.front.tf.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.const import set_const_value
from mo.ops.convolution import GroupConvolution
from mo.ops.reshape import Reshape


class GroupedConvolution(MiddleReplacementPattern):
    """Convolution(group=G) -> GroupConvolution with weights reshaped to [G, C_OUT/G, C_IN/G, k...]."""
    id = 'GroupedConvolution'

    def run_before(self):
        return [FuseScaleShiftIntoConv]

    def find_and_replace_pattern(self, graph: Graph):
        for conv in graph.get_op_nodes(op='Convolution'):
            groups = conv.soft_get('group', 1)
            if groups is None or groups <= 1:
                continue
            w_shape = conv.in_port(1).data.get_shape()
            grouped_shape = int64_array([groups, int(w_shape[0]) // groups] + [int(d) for d in w_shape[1:]])
            source = conv.in_port(1).get_source().node
            value = conv.in_port(1).data.get_value()
            if source.soft_get('op') == 'Const' and value is not None and len(source.out_port(0).get_destinations()) == 1:
                set_const_value(source, np.reshape(value, grouped_shape))
            else:
                reshape = create_op_node_with_second_input(graph, Reshape, grouped_shape,
                                                           {'name': conv.soft_get('name', conv.id) + '/group_weights'})
                conv.in_port(1).get_connection().insert_node(reshape)
                infer_node(reshape)
            conv['op'] = conv['type'] = 'GroupConvolution'
            conv['_op_class'] = GroupConvolution
            conv['infer'] = GroupConvolution.infer
            del conv['group']
            infer_node(conv)
            self.match_count += 1
