"""The Model Optimizer's ``extensions.front.AttributedClampNormalizer`` (``openvino.tools.mo.front.`` later), kept
for authors' unit tests.

The Model Optimizer's extractors gave ``AttributedClamp`` nodes (bounds in the ``min``/``max`` attributes,
float32's range when absent); this step replaced each with a ``Clamp`` whose bounds are float32 Consts on
inputs 1 and 2, named as the node. mo's Clamp keeps its bounds as attributes (the opset's form, which
``mo.ops.clamp.AttributedClamp`` also names), so its front ends never make ``AttributedClamp`` nodes and the
class is ``legacy_only``: the Clamp it makes has the Model Optimizer's inputs, for graphs that expect them.
"""
import numpy as np

from mo.front.common.partial_infer.utils import float32_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_node
from mo.ops.clamp import Clamp


class AttributedClampNormalizer(FrontReplacementPattern):
    """``op='AttributedClamp'`` (attributes ``min``, ``max``) -> ``Clamp(x, min, max)``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for attributed in graph.get_op_nodes(op='AttributedClamp'):
            name = attributed.soft_get('name', attributed.id)
            rename_node(attributed, name + '/TBR')
            low = attributed.soft_get('min', np.finfo(np.float32).min)
            high = attributed.soft_get('max', np.finfo(np.float32).max)
            clamp = create_op_with_const_inputs(graph, Clamp, {1: float32_array(low), 2: float32_array(high)},
                                                {'name': name})
            rename_node(clamp, name)
            attributed.in_port(0).get_connection().set_destination(clamp.in_port(0))
            attributed.out_port(0).get_connection().set_source(clamp.out_port(0))
            graph.remove_node(attributed.id)
