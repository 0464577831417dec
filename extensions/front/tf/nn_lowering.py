"""Front replacers that finish TF ops whose opset form needs extra inputs or nodes:
Selu's constants, LeakyRelu as PRelu, the resize axes of Interpolate, ArgMax/ArgMin as TopK.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp, FrontReplacementPattern
from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, Node, rename_nodes
from mo.ops.const import Const
from mo.ops.nn_ops import PRelu, TopK
from mo.ops.squeeze import Squeeze
from mo.utils.error import Error


class SeluConstInputs(FrontReplacementPattern):
    """opset Selu reads alpha and lambda from inputs 1 and 2; the extractor left them as attributes."""

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Selu'):
            if node.is_in_port_connected(1) or not node.has_valid('alpha'):
                continue
            name = node.soft_get('name', node.id)
            for port, attr in ((1, 'alpha'), (2, 'lambda')):
                const = Const(graph, {'name': '{}/{}'.format(name, attr),
                                      'value': np.array([node[attr]], dtype=np.float32)}).create_node()
                const.out_port(0).connect(node.in_port(port))
            self.match_count += 1


class LeakyReluToPRelu(FrontReplacementOp):
    """LeakyRelu(alpha) is PRelu with a one-element slope (also right for alpha > 1)."""
    op = 'LeakyReLU'

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        prelu = create_op_with_const_inputs(graph, PRelu, {1: np.array([node.alpha], dtype=np.float32)},
                                            {'name': name + '/PRelu'})
        node.in_port(0).get_connection().set_destination(prelu.in_port(0))
        rename_nodes([(node, name + '/TBR'), (prelu, name)])
        return [prelu.id]


class ResizeAxesInput(FrontReplacementPattern):
    """TF resizes act on the image axes of NHWC data: give Interpolate those axes on input 2."""

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Interpolate'):
            axes = node.soft_get('tf_resize_axes', None)
            if axes is None or node.is_in_port_connected(2):
                continue
            const = Const(graph, {'name': node.soft_get('name', node.id) + '/axes',
                                  'value': int64_array(axes)}).create_node()
            const.out_port(0).connect(node.in_port(2))
            node['tf_resize_axes'] = None
            self.match_count += 1


class ArgMaxToTopK(FrontReplacementOp):
    """ArgMax(x, axis) = Squeeze(TopK(x, k=1, axis).indices, axis); TopK is stable, so ties pick
    the first index as TensorFlow does. The axis must be constant."""
    op = 'ArgMax'

    def replace_op(self, graph: Graph, node: Node):
        name = node.soft_get('name', node.id)
        axis_src = node.in_port(1).get_source()
        if axis_src is None or axis_src.node.soft_get('op') != 'Const' or not axis_src.node.has_valid('value'):
            raise Error('{} "{}": the axis must be a constant to be converted', node.op, name)
        axis = int(np.ravel(axis_src.node.value)[0])
        index_type = np.dtype(node.output_type)
        if index_type not in (np.dtype(np.int32), np.dtype(np.int64)):
            raise Error('ArgMax "{}": output type {} is not supported (int32 or int64 only)', name, index_type)
        topk = create_op_with_const_inputs(graph, TopK, {1: np.array(1, dtype=np.int64)}, {
            'name': name + '/TopK', 'axis': axis, 'mode': node.mode, 'sort': 'value', 'stable': True,
            'index_element_type': 'i32' if index_type == np.int32 else 'i64'})
        node.in_port(0).get_connection().set_destination(topk.in_port(0))
        squeeze = create_op_with_const_inputs(graph, Squeeze, {1: int64_array([axis])}, {'name': name + '/squeeze'})
        topk.out_port(1).connect(squeeze.in_port(0))
        rename_nodes([(node, name + '/TBR'), (squeeze, name)])
        return [squeeze.id]
