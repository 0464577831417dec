"""An If output of a run-time shape read through a Gather of all its rows before its consumers use it.

OpenVINO's CPU plugin (2026.4) gives garbage on the first inference of a compiled model (and the right
values on the later ones) in a chain such as ``If -> Slice -> Gather(data, ·, 0) -> Gather(·, 2, 1)``: the
If's output shape is known only once a branch ran, and the op reading it (Slice, Maximum, Reshape, Convert
...) sees stale memory, so the indices, then the boxes of torchvision's detectors (the If around
``batched_nms``) are wrong in that one run; the IR is valid. When the If's output goes through
``Gather(x, Range(0, ShapeOf(x)[0]), 0)`` first, a copy of ``x``, the plugin gets every run right. Results
keep reading the If's output itself (with its tensor names); outputs of a static shape and scalars are left
alone.
"""
import numpy as np

from mo.utils.shape import int64_array, is_fully_defined
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.gather import Gather
from mo.ops.range import Range
from mo.ops.shapeof import ShapeOf


class IfOutputCopy(MiddleReplacementPattern):
    """If output x of a run-time shape -> Gather(x, Range(0, ShapeOf(x)[0], 1), 0) for its non-Result readers."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(type='If'):
            for index, port in node.out_ports().items():
                if port.disconnected():
                    continue
                shape = port.data.get_shape()
                if shape is None or len(shape) == 0 or is_fully_defined(shape):
                    continue
                readers = [d for d in port.get_destinations() if d.node.soft_get('type') != 'Result']
                if not readers:
                    continue
                self._copy(graph, node, index, readers)
                self.match_count += 1

    @staticmethod
    def _copy(graph: Graph, node, index: int, readers):
        name = '{}/output_{}/copy'.format(node.soft_get('name', node.id), index)
        shape_of = ShapeOf(graph, {'name': name + '/shape', 'output_type': np.int64}).create_node()
        node.out_port(index).connect(shape_of.in_port(0))
        rows = create_op_with_const_inputs(graph, Gather, {1: int64_array(0), 2: int64_array(0)},
                                           {'name': name + '/rows'}, input_node=shape_of)
        rng = create_op_with_const_inputs(graph, Range, {0: int64_array(0), 2: int64_array(1)},
                                          {'name': name + '/indices', 'output_type': np.int64})
        rows.out_port(0).connect(rng.in_port(1))
        copy = create_op_with_const_inputs(graph, Gather, {2: int64_array(0)}, {'name': name})
        node.out_port(index).connect(copy.in_port(0))
        rng.out_port(0).connect(copy.in_port(1))
        for reader in readers:
            reader.disconnect()
            copy.out_port(0).connect(reader)
        for new in (shape_of, rows, rng, copy):
            infer_node(new)
