"""The Model Optimizer's ``extensions.front.onnx.MvnOnnxToMvn`` (``openvino.tools.mo.front.onnx.`` later), kept for
authors' unit tests.

The Model Optimizer's ONNX extractor gave MeanVarianceNormalization as ``MVNOnnx`` (axes in the ``axes``
attribute); this step made it ``MVN(x, axes)`` with the node's ``eps``, ``eps_mode`` and ``normalize_variance``,
named as the node. mo's ONNX front end makes no ``MVNOnnx`` nodes, so the class is ``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_nodes
from mo.ops.mvn import MVN


class MvnOnnxToMvn(FrontReplacementPattern):
    """Every ``op='MVNOnnx'`` node -> ``MVN`` with the axes on input 1."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='MVNOnnx'):
            name = node.soft_get('name', node.id)
            mvn = create_op_with_const_inputs(graph, MVN, {1: node.axes},
                                              {'eps': node.eps, 'eps_mode': node.eps_mode,
                                               'normalize_variance': node.normalize_variance})
            node.in_port(0).get_connection().set_destination(mvn.in_port(0))
            node.out_port(0).get_connection().set_source(mvn.out_port(0))
            rename_nodes([(node, name + '/to_be_removed'), (mvn, name)])
            graph.remove_node(node.id)
