"""The Model Optimizer's ``extensions.front.squared_difference`` (releases 2020-2021), kept for authors' unit tests.

``SquaredDifference(a, b)`` becomes ``Pow(Add(a, Mul(b, -1)), 2)``, the nodes named ``<name>/negate_``,
``<name>/add_`` and ``<name>/squared_`` as the Model Optimizer named them. mo's own pipeline keeps
SquaredDifference (an opset1 op) as it is, so this class is ``legacy_only``: it runs only when called.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.graph.graph import Graph, Node
from mo.ops.const import Const
from mo.ops.elementwise import Add, Mul, Pow


class SquaredDifference(FrontReplacementOp):
    """``SquaredDifference`` -> ``Mul`` by -1, ``Add`` and ``Pow`` by 2 (the scalars in the node's
    ``data_type``, float32 when it has none)."""
    legacy_only = True
    op = 'SquaredDifference'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        dtype = node.data_type if node.has_valid('data_type') else np.float32
        minus_one = Const(graph, {'name': name + '/negate_const_', 'value': np.array(-1, dtype=dtype)}).create_node()
        two = Const(graph, {'name': name + '/squared_const_', 'value': np.array(2, dtype=dtype)}).create_node()
        negate = Mul(graph, {'name': name + '/negate_'}).create_node()
        add = Add(graph, {'name': name + '/add_'}).create_node()
        squared = Pow(graph, {'name': name + '/squared_'}).create_node()

        node.in_port(0).get_connection().set_destination(add.in_port(0))
        node.in_port(1).get_connection().set_destination(negate.in_port(0))
        minus_one.out_port(0).connect(negate.in_port(1))
        negate.out_port(0).connect(add.in_port(1))
        add.out_port(0).connect(squared.in_port(0))
        two.out_port(0).connect(squared.in_port(1))
        return [squared.id]
