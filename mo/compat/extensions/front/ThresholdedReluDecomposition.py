"""The Model Optimizer's ``extensions.front.ThresholdedReluDecomposition`` (``openvino.tools.mo.front.`` later),
kept for authors' unit tests.

``ThresholdedRelu(x, alpha)`` (op ``ThresholdedRelu``, attribute ``alpha``, as the Model Optimizer's ONNX
extractor left it) becomes ``Mul(x, Cast(Greater(x, alpha)))``, the Cast to the ``--data_type`` of the
graph's ``cmd_params`` (float32 without one); the Mul takes the node's name and the node is removed. mo's
ONNX front end names the op ``ONNXThresholdedRelu`` and lowers it to a Select
(``extensions.front.onnx.math_lowering.ThresholdedReluLowering``), so this class is ``legacy_only``.
"""
import numpy as np

from mo.front.common.partial_infer.utils import float_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_nodes
from mo.ops.Cast import Cast
from mo.ops.elementwise import Greater, Mul

#: the Model Optimizer's --data_type values -> numpy types
_DATA_TYPES = {'FP16': np.float16, 'half': np.float16, 'FP32': np.float32, 'float': np.float32,
               'FP64': np.float64, 'double': np.float64}


def _float_type(graph: Graph):
    data_type = getattr(graph.graph.get('cmd_params'), 'data_type', None)
    return _DATA_TYPES.get(data_type, np.float32)


class ThresholdedReluDecomposition(FrontReplacementPattern):
    """Every ``op='ThresholdedRelu'`` node -> ``x * float(x > alpha)``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='ThresholdedRelu'):
            name = node.soft_get('name', node.id)
            source = node.in_port(0).get_source()
            greater = create_op_with_const_inputs(graph, Greater, {1: float_array([node.alpha])},
                                                  {'name': name + '/Greater'})
            greater.in_port(0).connect(source)
            as_float = Cast(graph, {'name': name + '/Cast', 'dst_type': _float_type(graph)}).create_node()
            greater.out_port(0).connect(as_float.in_port(0))

            mul = Mul(graph, {'name': name + '/Mul'}).create_node()
            node.out_port(0).get_connection().set_source(mul.out_port(0))
            mul.in_port(0).connect(source)
            mul.in_port(1).connect(as_float.out_port(0))
            rename_nodes([(node, name + '/TBR'), (mul, name)])
            graph.remove_node(node.id)
