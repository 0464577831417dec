"""The Model Optimizer's ``extensions.front.TopKNormalize`` (``openvino.tools.mo.front.`` later), kept for authors'
unit tests.

A ``TopK`` whose ``k`` is an attribute (input 1 unconnected) gets ``k`` as an int64 Const ``<id>/Dims`` on input
1, and the attribute is deleted; a TopK already fed its ``k`` is left alone. mo's extractors feed ``k`` as an
input, so the class is ``legacy_only``.
"""
import logging as log

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph
from mo.ops.const import Const
from mo.utils.error import Error


class TopKNormalize(FrontReplacementPattern):
    """The ``k`` attribute of every ``op='TopK'`` node -> input 1."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for topk in graph.get_op_nodes(op='TopK'):
            if not topk.in_port(1).disconnected():
                log.debug('TopK "{}" already has its k on input 1'.format(topk.soft_get('name', topk.id)))
                continue
            if not topk.has_valid('k'):
                raise Error('TopK "{}" has neither a k input nor a k attribute', topk.soft_get('name', topk.id))
            k = Const(graph, {'name': topk.id + '/Dims', 'value': int64_array(topk.k)}).create_node()
            topk.in_port(1).connect(k.out_port(0))
            del topk['k']
