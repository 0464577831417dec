"""Pad/PadV2/MirrorPad(input, paddings[n, 2][, constant]) become Pad-1(input, begin, end[, constant]).

``begin`` and ``end`` are the columns of ``paddings``: taken directly when it is a constant,
otherwise gathered from it (which folds once it becomes constant).
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.const import Const
from mo.ops.gather import Gather
from mo.ops.pad import Pad
from extensions.front.tf.tensor_ext import constant_input


class TFPadToPad(FrontReplacementOp):
    op = 'TFPad'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        pad = Pad(graph, {'name': name + '/Pad', 'pad_mode': node.soft_get('pad_mode', 'constant')}).create_node()
        node.in_port(0).get_connection().set_destination(pad.in_port(0))
        paddings = constant_input(node, 1)
        for column, port in ((0, 1), (1, 2)):
            suffix = '/pads_begin' if column == 0 else '/pads_end'
            if paddings is not None:
                pads = Const(graph, {'name': name + suffix,
                                     'value': np.ascontiguousarray(np.asarray(paddings)[:, column])}).create_node()
            else:
                pads = create_op_with_const_inputs(graph, Gather, {1: np.array(column, dtype=np.int32),
                                                                   2: np.array(1, dtype=np.int32)},
                                                   {'name': name + suffix})
                node.in_port(1).get_source().connect(pads.in_port(0))
            pads.out_port(0).connect(pad.in_port(port))
        node.in_port(1).disconnect()
        if node.is_in_port_connected(2):
            node.in_port(2).get_connection().set_destination(pad.in_port(3))
        rename_nodes([(node, name + '/TBR'), (pad, name)])
        return [pad.id]
