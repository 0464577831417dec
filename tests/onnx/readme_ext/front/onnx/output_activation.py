# front/onnx/output_activation.py: a general-config replacer; custom_attributes name the outputs that get
# a Sigmoid (a detector exported without its final activation)
from mo.front.tf.replacement import FrontReplacementFromConfigFileGeneral
from mo.graph.graph import Graph
from mo.ops.activation_ops import Sigmoid
from mo.utils.error import Error


class OutputSigmoid(FrontReplacementFromConfigFileGeneral):
    replacement_id = 'OutputSigmoid'  # the "id" of the description in the JSON file

    def transform_graph(self, graph: Graph, replacement_descriptions: dict):
        wanted = set(replacement_descriptions['outputs'])
        for result in graph.get_op_nodes(op='Result'):
            source = result.in_port(0).get_source()
            names = set(source.get_tensor_names())
            if not names & wanted:
                continue
            wanted -= names
            sigmoid = Sigmoid(graph, {'name': source.node.soft_get('name') + '/sigmoid'}).create_node()
            source.get_connection().insert_node(sigmoid)
            # the model's output keeps its name: it is now the Sigmoid's
            sigmoid.out_port(0).add_tensor_names(source.remove_tensor_names())
        if wanted:
            raise Error('OutputSigmoid: the model has no outputs {}', sorted(wanted))
