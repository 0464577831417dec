"""Gather over batch dimensions of size one -> a plain Gather on indices without them.

With ``batch_dims = b`` whose data and indices dimensions are all 1, Gather picks from the one
batch: ``Gather(data, indices, axis, batch_dims=b)`` is ``Gather(data, Squeeze(indices, 0..b-1),
axis, batch_dims=0)``, of the same shape. OpenVINO's CPU plugin (2026.4) crashes or returns
garbage on the first form for static shapes such as data [1, n, 4], indices [1, k], axis 1 (the
batched sort in ``tf.image.non_max_suppression_padded``); the second form is the same
computation, and one op simpler to run.
"""
import numpy as np

from extensions.middle.transpose_sinking import TransposeSinking
from mo.utils.shape import int64_array
from mo.front.common.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.squeeze import Squeeze


def _leading_ones(shape, count: int) -> bool:
    return shape is not None and len(shape) >= count and all(int(d) == 1 for d in shape[:count])


class GatherBatchOfOne(MiddleReplacementPattern):
    """Gather(data, indices, axis, batch_dims=b), batch dimensions all 1 -> Gather(data, Squeeze(indices), axis)."""
    enabled = True

    def run_after(self):
        return [TransposeSinking]

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Gather'):
            batch_dims = int(node.soft_get('batch_dims', 0))
            indices_shape = node.in_port(1).data.get_shape()
            if batch_dims < 0 and indices_shape is not None:
                batch_dims += len(indices_shape)
            if batch_dims <= 0 or node.in_port(1).data.get_value() is not None:
                continue
            if not (_leading_ones(node.in_port(0).data.get_shape(), batch_dims) and
                    _leading_ones(indices_shape, batch_dims)):
                continue
            name = node.soft_get('name', node.id)
            squeeze = create_op_node_with_second_input(graph, Squeeze, int64_array(np.arange(batch_dims)),
                                                       {'name': name + '/indices_without_batch'})
            node.in_port(1).get_connection().insert_node(squeeze)
            infer_node(squeeze)
            node['batch_dims'] = 0
            infer_node(node)
            self.match_count += 1
