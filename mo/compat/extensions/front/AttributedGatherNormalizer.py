"""The Model Optimizer's ``extensions.front.AttributedGatherNormalizer`` (``openvino.tools.mo.front.`` later), kept
for authors' unit tests.

``AttributedGather`` (the axis in the ``axis`` attribute) becomes ``Gather(data, indices, axis)`` with the axis
an int64 Const ``<name>/axis``; the Gather takes the node's name. mo's extractors give Gather its axis input
directly, so the class is ``legacy_only``.
"""
from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.graph.graph import Graph, rename_node
from mo.ops.const import Const
from mo.ops.gather import Gather
from mo.utils.error import Error


class AttributedGatherNormalizer(FrontReplacementOp):
    """``AttributedGather(data, indices)`` -> ``Gather(data, indices, axis)``."""
    legacy_only = True
    op = 'AttributedGather'
    enabled = True

    def replace_sub_graph(self, graph: Graph, match: dict):
        node = match['op']
        name = node.soft_get('name', node.id)
        if not node.has_valid('axis'):
            raise Error('AttributedGather "{}" has no axis attribute', name)
        rename_node(node, name + '/TBR')
        axis = Const(graph, {'name': name + '/axis', 'value': int64_array(node.axis)}).create_node()
        gather = Gather(graph, {'name': name}).create_node()
        rename_node(gather, name)
        node.in_port(0).get_connection().set_destination(gather.in_port(0))
        node.in_port(1).get_connection().set_destination(gather.in_port(1))
        axis.out_port(0).connect(gather.in_port(2))
        node.out_port(0).get_connection().set_source(gather.out_port(0))
        graph.remove_node(node.id)
