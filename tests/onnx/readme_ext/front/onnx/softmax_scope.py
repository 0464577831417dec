# front/onnx/softmax_scope.py: a scope/points replacer; each matched sub-graph (a hand-written softmax of a
# PyTorch module) becomes one SoftMax of the sub-graph's input 0, axis from custom_attributes
from mo.front.tf.replacement import FrontReplacementFromConfigFileSubGraph
from mo.graph.graph import Graph
from mo.ops.nn_ops import Softmax


class SoftmaxSubgraph(FrontReplacementFromConfigFileSubGraph):
    replacement_id = 'SoftmaxSubgraph'

    def replace_sub_graph(self, graph: Graph, match):
        consumer, in_port = match.input_nodes(0)[0]  # every consumer of input 0 reads the same tensor
        producer, out_port = match.output_node(0)
        name = match.scope or producer.soft_get('name', producer.id)
        softmax = Softmax(graph, {'name': graph.unique_id(name + '/softmax'),
                                  'axis': match.custom_replacement_desc.custom_attributes.get('axis', 1)}).create_node()
        softmax.in_port(0).connect(consumer.in_port(in_port).get_source())
        producer.out_port(out_port).get_connection().set_source(softmax.out_port(0))  # tensor names move too
        graph.remove_nodes_from(match.matched_nodes_names())
