# front/paddle/distribution_integral.py: a points replacer for the box decoding of a PP-YOLOE/PicoDet head; the
# matched sub-graph is softmax over the bins (axis 1) -> 1x1 conv with fixed weights w (one output channel) ->
# squeeze of axis 1, i.e. the expected value sum_i softmax(x)_i * w_i, and becomes SoftMax, Multiply by w, ReduceSum;
# input k of the sub-graph (start point k) gives output k (end point k): one pair per level of the head
import numpy as np

from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.front.tf.replacement import FrontReplacementFromConfigFileSubGraph
from mo.graph.graph import Graph
from mo.ops.elementwise import Mul
from mo.ops.nn_ops import Softmax
from mo.ops.reduce import ReduceSum
from mo.utils.error import Error


class DistributionIntegral(FrontReplacementFromConfigFileSubGraph):
    replacement_id = 'DistributionIntegral'

    def replace_sub_graph(self, graph: Graph, match):
        matched = set(match.matched_nodes_names())
        weights = [graph.nodes[n]['value'] for n in sorted(matched)
                   if graph.nodes[n].get('op') == 'Const' and np.ndim(graph.nodes[n].get('value')) == 4]
        if len(weights) != 1 or np.shape(weights[0])[0] != 1:
            raise Error('DistributionIntegral: the sub-graph must hold one 1x1 conv of one output channel')
        bins = np.asarray(weights[0], np.float32).reshape([1, -1, 1, 1])
        for level in range(match.inputs_count()):
            consumer, in_port = match.input_nodes(level)[0]
            producer, out_port = match.output_node(level)
            name = producer.soft_get('name', producer.id)
            softmax = Softmax(graph, {'name': graph.unique_id(name + '/softmax'), 'axis': 1}).create_node()
            softmax.in_port(0).connect(consumer.in_port(in_port).get_source())
            weighted = create_op_with_const_inputs(graph, Mul, {1: bins},
                                                   {'name': graph.unique_id(name + '/weighted')})
            softmax.out_port(0).connect(weighted.in_port(0))
            total = create_op_with_const_inputs(graph, ReduceSum, {1: np.array([1], np.int64)},
                                                {'name': graph.unique_id(name + '/integral'), 'keep_dims': False})
            weighted.out_port(0).connect(total.in_port(0))
            producer.out_port(out_port).get_connection().set_source(total.out_port(0))
        graph.remove_nodes_from(sorted(matched))
