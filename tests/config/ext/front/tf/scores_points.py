# A points replacer written against the seeds' SubgraphMatch API (single_input_node,
# output_node, matched_nodes_names): the score conversion between "Postprocessor/scale_logits"
# and "Postprocessor/convert_scores" becomes Sigmoid(x * (1 / logit_scale)).
import numpy as np

from mo.front.tf.graph_utils import create_op_with_const_inputs
from mo.front.tf.replacement import FrontReplacementFromConfigFileSubGraph
from mo.graph.graph import Graph
from mo.ops.activation_ops import Sigmoid
from mo.ops.elementwise import Mul


class ScoreConverterReplacement(FrontReplacementFromConfigFileSubGraph):
    replacement_id = 'ScoreConverterReplacement'

    def replace_sub_graph(self, graph: Graph, match):
        scale = float(match.custom_replacement_desc.custom_attributes['logit_scale'])
        start, in_port = match.single_input_node(0)
        end, out_port = match.output_node(0)
        mul = create_op_with_const_inputs(graph, Mul, {1: np.float32(1.0 / scale)}, {'name': 'scores/scaled'})
        start.in_port(in_port).get_source().connect(mul.in_port(0))
        sigmoid = Sigmoid(graph, {'name': 'scores/sigmoid'}).create_node([mul])
        end.out_port(out_port).get_connection().set_source(sigmoid.out_port(0))
        graph.remove_nodes_from(match.matched_nodes_names())
