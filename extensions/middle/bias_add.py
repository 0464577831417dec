"""Channels-first BiasAdd -> Add, once the data's rank is known: the bias gets trailing 1s."""
from mo.front.common.partial_infer.utils import int64_array
from mo.front.tf.graph_utils import create_op_node_with_second_input
from mo.graph.graph import Graph
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern
from mo.ops.elementwise import Add
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error


class BiasAddChannelsFirst(MiddleReplacementPattern):
    id = 'BiasAddChannelsFirst'

    def run_before(self):
        from extensions.middle.transpose_sinking import TransposeSinking
        return [TransposeSinking]

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='BiasAdd'):
            name = node.soft_get('name', node.id)
            shape = node.in_port(0).data.get_shape()
            if shape is None:
                raise Error('BiasAdd "{}": the rank of its input is unknown', name)
            tail = int64_array(list(range(1, len(shape) - 1)))
            unsqueeze = create_op_node_with_second_input(graph, Unsqueeze, tail, {'name': name + '/bias_per_channel'})
            node.in_port(1).get_connection().insert_node(unsqueeze)
            infer_node(unsqueeze)
            Add.update_node_stat(node, {})
            infer_node(node)
            self.match_count += 1
