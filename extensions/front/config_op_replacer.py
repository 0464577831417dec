"""Replaces each sub-graph matched by a config description that has an ``op`` with one node of it.

Used when no Python replacer claims the description's id. Inputs and outputs are connected in
the configured order; the node carries the description's ``custom_attributes`` (written to the
IR). When the op class has no shape inference of its own, the output shapes are those the
replaced sub-graph would have had: it is kept aside and inferred with the new node's inputs.
"""
import numpy as np

from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.op import Op
from mo.utils.class_registration import registered_classes


class ConfigOpReplacer(FrontReplacementPattern):
    """Sub-graph -> one ``op`` node, for config descriptions without a replacer class."""
    id = 'ConfigOpReplacer'

    def find_and_replace_pattern(self, graph: Graph):
        claimed = {getattr(cls, 'replacement_id', None) for cls in registered_classes()}
        for desc in graph.graph.get('custom_replacement_descriptions', []):
            if not desc.op or desc.id in claimed:
                continue
            for match in desc.matches(graph):
                self._replace(graph, desc, match)
                self.match_count += 1

    @staticmethod
    def _replace(graph: Graph, desc, match):
        attrs = dict(desc.custom_attributes)
        attrs.update(name=graph.unique_id(match.scope or desc.id), in_ports_count=match.inputs_count(),
                     out_ports_count=match.outputs_count())
        op_class = Op.registered_ops.get(desc.op)
        if op_class is not None:
            node = op_class(graph, attrs).create_node()
        else:
            attrs.update(type=desc.op, op=desc.op, version='extension', custom_attributes=list(desc.custom_attributes))
            node = Op(graph, attrs).create_node()
        if node.soft_get('infer', None) is None:
            node['infer'] = _SubgraphShapes(graph, match)
        for port in range(match.inputs_count()):
            consumer, in_port = match.input_nodes(port)[0]
            source = consumer.in_port(in_port).get_source()
            if source is not None:
                source.connect(node.in_port(port))
        for port in range(match.outputs_count()):
            producer, out_port = match.output_node(port)
            names = producer.out_port(out_port).get_tensor_names()
            producer.out_port(out_port).get_connection().set_source(node.out_port(port))
            node.out_port(port).add_tensor_names(names)
        graph.remove_nodes_from([n for n in match.matched_nodes_names() if n in graph])


class _SubgraphShapes:
    """Infers a node's outputs by inferring a private copy of the sub-graph it replaced."""

    def __init__(self, graph: Graph, match):
        from mo.ops.parameter import Parameter
        nodes = match.matched_nodes_names()
        self.sub = Graph()
        self.sub.graph.update({k: v for k, v in graph.graph.items() if k in ('layout', 'cmd_params')})
        for node_id in nodes:
            self.sub.add_node(node_id, **dict(graph.nodes[node_id]))
        inside = set(nodes)
        for u, v, data in graph.edges(data=True):
            if u in inside and v in inside:
                self.sub.add_edge(u, v, **dict(data))
        self.inputs = []
        for port in range(match.inputs_count()):
            param = Parameter(self.sub, {'name': 'input_{}'.format(port)}).create_node()
            for consumer, in_port in match.input_nodes(port):
                param.out_port(0).connect(Node(self.sub, consumer.id).in_port(in_port))
            self.inputs.append(param)
        self.outputs = [match.output_node(port) for port in range(match.outputs_count())]
        self.outputs = [(node.id, out_port) for node, out_port in self.outputs]

    def __call__(self, node: Node):
        from mo.middle.partial_infer import create_data_nodes, partial_infer
        sub = self.sub.copy()
        for port, param in enumerate(self.inputs):
            source = node.in_port(port).data
            Node(sub, param.id)['shape'] = source.get_shape()
            Node(sub, param.id)['data_type'] = source.get_data_type() or np.dtype(np.float32)
        create_data_nodes(sub)
        partial_infer(sub)
        for port, (node_id, out_port) in enumerate(self.outputs):
            data = Node(sub, node_id).out_port(out_port).data
            node.out_port(port).data.set_shape(data.get_shape())
            if data.get_data_type() is not None:
                node.out_port(port).data.set_data_type(data.get_data_type())
