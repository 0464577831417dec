# front/paddle/output_softmax.py: a general replacer; custom_attributes name the model outputs (Paddle fetch
# var names) that get a SoftMax along "axis" (a segmentation net exported with logits)
from mo.front.tf.replacement import FrontReplacementFromConfigFileGeneral
from mo.graph.graph import Graph
from mo.ops.nn_ops import Softmax
from mo.utils.error import Error


class OutputSoftmax(FrontReplacementFromConfigFileGeneral):
    replacement_id = 'OutputSoftmax'

    def transform_graph(self, graph: Graph, replacement_descriptions: dict):
        wanted = set(replacement_descriptions['outputs'])
        for result in graph.get_op_nodes(op='Result'):
            source = result.in_port(0).get_source()
            names = set(source.get_tensor_names())
            if not names & wanted:
                continue
            wanted -= names
            softmax = Softmax(graph, {'name': source.node.soft_get('name') + '/softmax',
                                      'axis': int(replacement_descriptions.get('axis', 1))}).create_node()
            source.get_connection().insert_node(softmax)
            softmax.out_port(0).add_tensor_names(source.remove_tensor_names())
        if wanted:
            raise Error('OutputSoftmax: the model has no outputs {}', sorted(wanted))
