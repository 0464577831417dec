"""The Model Optimizer's ``extensions.front.Log1p`` (``openvino.tools.mo.front.Log1p`` later), kept for authors'
unit tests.

``Log1p(x)`` becomes ``Log(Add(1, x))`` (the constant on the Add's port 0, in the node's ``data_type``,
float32 when it has none); the Log takes the node's name. mo's pipeline lowers TensorFlow's Log1p its own
way (``extensions.front.tf.math_lowering.Log1pLowering``, which keeps the precision of small x), so this
class is ``legacy_only``.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.activation_ops import Log
from mo.ops.const import Const
from mo.ops.elementwise import Add


class Log1p(FrontReplacementOp):
    """``Log1p`` -> ``Add`` of a Const 1 and the input, then ``Log``."""
    legacy_only = True
    op = 'Log1p'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        dtype = node.data_type if node.has_valid('data_type') else np.float32
        one = Const(graph, {'name': name + '/Add_/one', 'value': np.array([1], dtype=dtype)}).create_node()
        add = Add(graph, {'name': name + '/Add_'}).create_node()
        log = Log(graph, {'name': name + '/Log_'}).create_node()
        one.out_port(0).connect(add.in_port(0))
        node.in_port(0).get_connection().set_destination(add.in_port(1))
        add.out_port(0).connect(log.in_port(0))
        rename_nodes([(node, name + '/delete'), (log, name)])
        return [log.id]
