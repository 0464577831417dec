"""The Model Optimizer's ``extensions.front.OneHotDepthNormalizer`` (``openvino.tools.mo.front.`` later), kept for
authors' unit tests.

tf2onnx wrote OneHot's depth as a one-element 1-D tensor where the IR wants a scalar: a ``Reshape`` to shape
``[]``, named ``<name>/Reshape``, goes on the depth input (port 1) of every node of type ``OneHot``. mo's ONNX
front end reads the depth as a scalar itself, so the class is ``legacy_only``.
"""
from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph
from mo.ops.reshape import Reshape


class OneHotDepthNormalizer(FrontReplacementPattern):
    """``OneHot(indices, depth, ...)`` -> ``OneHot(indices, Reshape(depth, []), ...)``."""
    legacy_only = True
    enabled = True

    def pattern(self):
        return dict(nodes=[('onehot', dict(kind='op', type='OneHot'))], edges=[])

    @staticmethod
    def replace_pattern(graph: Graph, match: dict):
        node = match['onehot']
        reshape = create_op_with_const_inputs(graph, Reshape, {1: int64_array([])},
                                              {'name': node.soft_get('name', node.id) + '/Reshape'})
        node.in_port(1).get_connection().insert_node(reshape)
