"""TensorFlow's Select (v1) becomes Select-1 with numpy broadcasting.

In Select v1 a condition of rank 1 picks whole rows of higher-rank ``x``/``y``; numpy broadcasting
aligns trailing dimensions instead. Reshaping the condition to its shape followed by
``rank(x) - rank(cond)`` ones gives the same result in every case Select v1 allows (equal shapes,
a scalar, or a row vector), and folds to a constant shape when shapes are static.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Sub
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf


class TFSelectToSelect(FrontReplacementOp):
    op = 'TFSelect'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        cond = node.in_port(0).get_source()
        x = node.in_port(1).get_source()

        def shape_of(source, suffix):
            shape = ShapeOf(graph, {'name': name + suffix}).create_node()
            source.connect(shape.in_port(0))
            return shape

        cond_shape = shape_of(cond, '/CondShape')
        cond_rank = shape_of(cond_shape.out_port(0), '/CondRank')
        x_rank = shape_of(shape_of(x, '/XShape').out_port(0), '/XRank')
        missing = Sub(graph, {'name': name + '/MissingRank'}).create_node()
        x_rank.out_port(0).connect(missing.in_port(0))
        cond_rank.out_port(0).connect(missing.in_port(1))
        ones = create_op_with_const_inputs(graph, Broadcast, {0: np.array(1, dtype=np.int64)}, {'name': name + '/Ones'})
        missing.out_port(0).connect(ones.in_port(1))
        new_shape = Concat(graph, {'name': name + '/CondNewShape', 'axis': 0}).create_node()
        cond_shape.out_port(0).connect(new_shape.in_port(0))
        ones.out_port(0).connect(new_shape.in_port(1))
        reshape = Reshape(graph, {'name': name + '/CondReshape'}).create_node()
        cond.connect(reshape.in_port(0))
        new_shape.out_port(0).connect(reshape.in_port(1))

        select = Select(graph, {'name': name + '/Select'}).create_node()
        reshape.out_port(0).connect(select.in_port(0))
        node.in_port(1).get_connection().set_destination(select.in_port(1))
        node.in_port(2).get_connection().set_destination(select.in_port(2))
        node.in_port(0).disconnect()
        rename_nodes([(node, name + '/TBR'), (select, name)])
        return [select.id]
