# The InceptionBlock op of seed 004, imports rewritten (mo.X for openvino.tools.mo.X). It has no
# shape inference: the outputs take the shapes of the sub-graph it replaces.
import numpy as np

from mo.graph.graph import Node
from mo.ops.op import Op


class InceptionBlock(Op):
    op = "InceptionBlock"
    enabled = True

    def __init__(self, graph, attrs):
        super().__init__(graph, attrs, {
            'type': __class__.op,
            'op': __class__.op,
        })
