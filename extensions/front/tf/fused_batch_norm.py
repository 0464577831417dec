"""FusedBatchNorm (inference form) -> ``x * mul + shift`` with per-channel constants.

``mul = scale / sqrt(variance + epsilon)`` and ``shift = offset - mean * mul`` are built from the
node's own inputs, so they fold to constants during inference when those inputs are constant (as in
a frozen Keras model); the middle pass ``fuse_scale_shift_into_conv`` then folds ``mul`` into a
preceding convolution's weights. For channels-first data the per-channel vectors get trailing 1s.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.front.tf.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.activation_ops import Sqrt
from mo.ops.elementwise import Add, Div, Mul, Sub
from mo.utils.error import Error


class FusedBatchNormToScaleShift(FrontReplacementOp):
    """Inference-form FusedBatchNorm -> Mul/Add with per-channel constants.

    It runs at the end of the front phase, so users' pattern replacers that match a whole
    FusedBatchNorm sub-graph (the MVN example of the guide) see it first.
    """
    op = 'FusedBatchNorm'

    def run_after(self):
        from mo.utils.anchors import FrontFinish
        return [FrontFinish]

    def run_before(self):
        from mo.middle.partial_infer import PartialInfer
        return [PartialInfer]

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        if node.soft_get('is_training', False):
            raise Error('FusedBatchNorm "{}" is in training mode (is_training=true): freeze the model for '
                        'inference', name)
        for port in (1, 2, 3, 4):
            if not node.is_in_port_connected(port):
                raise Error('FusedBatchNorm "{}" has no input {}', name, port)
        for port in (1, 2, 3, 4, 5):
            if node.is_out_port_connected(port):
                raise Error('FusedBatchNorm "{}": output {} (batch statistics) is used; only the inference '
                            'form is supported', name, port)
        dtype = np.float32
        # mul = scale / sqrt(var + eps)
        var_eps = create_op_node_with_second_input(graph, Add, np.array(node.eps, dtype=dtype),
                                                   {'name': name + '/var_eps'})
        node.in_port(4).get_connection().set_destination(var_eps.in_port(0))
        std = Sqrt(graph, {'name': name + '/std'}).create_node([var_eps])
        mul = Div(graph, {'name': name + '/mul'}).create_node()
        node.in_port(1).get_connection().set_destination(mul.in_port(0))
        std.out_port(0).connect(mul.in_port(1))
        # shift = offset - mean * mul
        mean_mul = Mul(graph, {'name': name + '/mean_mul'}).create_node()
        node.in_port(3).get_connection().set_destination(mean_mul.in_port(0))
        mul.out_port(0).connect(mean_mul.in_port(1))
        shift = Sub(graph, {'name': name + '/shift'}).create_node()
        node.in_port(2).get_connection().set_destination(shift.in_port(0))
        mean_mul.out_port(0).connect(shift.in_port(1))

        mul_source, shift_source = mul.out_port(0), shift.out_port(0)
        layout = node.soft_get('data_format', 'NHWC')
        layout = layout.decode() if isinstance(layout, bytes) else str(layout)
        if layout.startswith('NC'):
            from mo.ops.unsqueeze import Unsqueeze
            tail = int64_array(list(range(1, len(layout) - 1)))
            for label in ('mul', 'shift'):
                unsqueeze = create_op_node_with_second_input(graph, Unsqueeze, tail,
                                                             {'name': '{}/{}_per_channel'.format(name, label)})
                (mul_source if label == 'mul' else shift_source).connect(unsqueeze.in_port(0))
                if label == 'mul':
                    mul_source = unsqueeze.out_port(0)
                else:
                    shift_source = unsqueeze.out_port(0)

        scale = Mul(graph, {'name': name + '/scale'}).create_node()
        node.in_port(0).get_connection().set_destination(scale.in_port(0))
        mul_source.connect(scale.in_port(1))
        add = Add(graph, {'name': name + '/shift_add'}).create_node([scale])
        shift_source.connect(add.in_port(1))
        rename_nodes([(node, name + '/TBR'), (add, name)])
        return [add.id]
