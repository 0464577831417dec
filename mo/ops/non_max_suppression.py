"""NonMaxSuppression (opset9): per batch and class, the boxes kept by greedy IoU suppression.

Inputs: boxes ``[B, N, 4]``, scores ``[B, C, N]``, max_output_boxes_per_class, iou_threshold,
score_threshold, soft_nms_sigma (the scalars optional). Outputs: selected_indices ``[M, 3]`` (batch,
class, box), selected_scores ``[M, 3]`` and valid_outputs ``[1]``; M is known only when the model runs.
"""
import numpy as np

from mo.ops.convert import ir_element_type
from mo.ops.op import Op


class NonMaxSuppression(Op):
    op = type = 'NonMaxSuppression'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'NonMaxSuppression', 'op': 'NonMaxSuppression', 'version': 'opset9', 'box_encoding': 'corner',
            'sort_result_descending': True, 'output_type': np.int32, 'infer': NonMaxSuppression.infer,
            'type_infer': NonMaxSuppression.type_infer, 'in_ports_count': 6, 'out_ports_count': 3,
        }, attrs)

    def backend_attrs(self):
        return ['box_encoding', ('sort_result_descending', lambda n: str(bool(n.sort_result_descending)).lower()),
                ('output_type', lambda n: ir_element_type(n.output_type))]

    @staticmethod
    def infer(node):
        for port, shape in ((0, [-1, 3]), (1, [-1, 3]), (2, [1])):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_shape(shape)

    @staticmethod
    def type_infer(node):
        score_type = node.in_port(1).data.get_data_type() or np.float32
        for port, dtype in ((0, node.output_type), (1, score_type), (2, node.output_type)):
            if node.is_out_port_connected(port):
                node.out_port(port).data.set_data_type(dtype)
