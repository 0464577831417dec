# front/paddle/steep_sigmoid.py: a points replacer; the matched sub-graph computes 1 / (1 + exp(-k * d)) of its
# input d (the binarisation of a DB text detector written out) and becomes Sigmoid(k * d), k from
# custom_attributes
import numpy as np

from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.front.tf.replacement import FrontReplacementFromConfigFileSubGraph
from mo.graph.graph import Graph
from mo.ops.activation_ops import Sigmoid
from mo.ops.elementwise import Mul


class SteepSigmoid(FrontReplacementFromConfigFileSubGraph):
    replacement_id = 'SteepSigmoid'

    def replace_sub_graph(self, graph: Graph, match):
        consumer, in_port = match.input_nodes(0)[0]
        producer, out_port = match.output_node(0)
        name = producer.soft_get('name', producer.id)
        k = float(match.custom_replacement_desc.custom_attributes['k'])
        scaled = create_op_with_const_inputs(graph, Mul, {1: np.array(k, np.float32)},
                                             {'name': graph.unique_id(name + '/scaled')})
        scaled.in_port(0).connect(consumer.in_port(in_port).get_source())
        sigmoid = Sigmoid(graph, {'name': graph.unique_id(name + '/sigmoid')}).create_node()
        scaled.out_port(0).connect(sigmoid.in_port(0))
        producer.out_port(out_port).get_connection().set_source(sigmoid.out_port(0))  # tensor names move too
        graph.remove_nodes_from(match.matched_nodes_names())
