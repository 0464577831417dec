"""The Model Optimizer's ``extensions.front.ExpandDimsToUnsqueeze`` (``openvino.tools.mo.front.`` later), kept for
authors' unit tests.

``ExpandDims`` with one input (the axis in ``expand_axis``) becomes ``Unsqueeze(x, axes)``, named
``<id>/Unsqueeze``, the axes an int64 1-D Const ``<id>/Dims``; with two inputs (ONNX's Unsqueeze-13 as the
Model Optimizer read it) the Unsqueeze takes both inputs and the node's name. mo's TensorFlow front end makes
Unsqueeze nodes itself, so the class is ``legacy_only``.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, rename_nodes
from mo.ops.const import Const
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


class ExpandDimsToUnsqueeze(FrontReplacementPattern):
    """Every ``op='ExpandDims'`` node -> ``Unsqueeze``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for expand_dims in graph.get_op_nodes(op='ExpandDims'):
            name = expand_dims.soft_get('name', expand_dims.id)
            inputs = len(expand_dims.in_nodes())
            if inputs == 1:
                axes = expand_dims.expand_axis
                if not isinstance(axes, np.ndarray):
                    axes = int64_array([axes]).flatten()
                unsqueeze = Unsqueeze(graph, {'name': expand_dims.id + '/Unsqueeze'}).create_node()
                dims = Const(graph, {'name': expand_dims.id + '/Dims', 'value': axes}).create_node()
                expand_dims.in_port(0).get_connection().set_destination(unsqueeze.in_port(0))
                expand_dims.out_port(0).get_connection().set_source(unsqueeze.out_port(0))
                unsqueeze.in_port(1).connect(dims.out_port(0))
            elif inputs == 2:
                unsqueeze = Unsqueeze(graph, {'name': name + '/Unsqueeze'}).create_node()
                rename_nodes([(expand_dims, name + '/TBR'), (unsqueeze, name)])
                expand_dims.in_port(0).get_connection().set_destination(unsqueeze.in_port(0))
                expand_dims.in_port(1).get_connection().set_destination(unsqueeze.in_port(1))
                expand_dims.out_port(0).get_connection().set_source(unsqueeze.out_port(0))
            else:
                raise Error('ExpandDims "{}" has {} inputs; it takes 1 (the axes in expand_axis) or 2', name, inputs)
