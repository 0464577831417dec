"""The Model Optimizer's ``extensions.front.reciprocal`` (``openvino.tools.mo.front.reciprocal`` later), kept for
authors' unit tests.

``Reciprocal(x)`` becomes ``Pow(x, -1.0)``, named ``<name>/reciprocal_pow_``. mo's pipeline lowers TensorFlow's
and ONNX's Reciprocal to ``Divide(1, x)`` (``extensions.front.tf.math_lowering.ReciprocalLowering``,
``extensions.front.onnx.math_lowering.ReciprocalLowering``), so this class is ``legacy_only``.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementOp
from mo.graph.graph import Graph, Node
from mo.ops.const import Const
from mo.ops.elementwise import Pow


class ReciprocalReplacer(FrontReplacementOp):
    """``Reciprocal`` -> ``Pow`` by the float -1."""
    legacy_only = True
    op = 'Reciprocal'
    enabled = True

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        minus_one = Const(graph, {'name': name + '/reciprocal_pow_const_',
                                  'value': np.array(-1.0, dtype=np.float32)}).create_node()
        reciprocal = Pow(graph, {'name': name + '/reciprocal_pow_'}).create_node()
        node.in_port(0).get_connection().set_destination(reciprocal.in_port(0))
        minus_one.out_port(0).connect(reciprocal.in_port(1))
        return [reciprocal.id]
