"""The Model Optimizer's ``extensions.front.tf.identityN_to_identity`` (``openvino.tools.mo.front.tf.`` later), kept
for authors' unit tests.

TensorFlow's ``IdentityN`` becomes one ``Identity`` per input, named ``<name>/<i>_port`` with ``data_type`` the
node's ``data_types[i]``, for each index whose input and output are both connected; the node's other ports are
disconnected (an unused input or output does not survive, as in the Model Optimizer). mo's pipeline bypasses
IdentityN with its other identities (``extensions.front.identity_eraser``), so the class is ``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.identity import Identity
from mo.utils.error import Error


class IdentityN_to_Identity(FrontReplacementPattern):
    """Every ``op='IdentityN'`` node -> one Identity per connected input/output pair."""
    legacy_only = True
    enabled = True

    @staticmethod
    def replace_identityN(node: Node):
        """Split one IdentityN node into Identities."""
        graph = node.graph
        name = node.soft_get('name', node.id)
        if not node.has_valid('data_types'):
            raise Error('IdentityN "{}" has no data_types attribute', name)
        dtypes = node.data_types
        for index, port in node.in_ports().items():
            if not node.is_in_port_connected(index) or not node.is_out_port_connected(index):
                continue  # an unused pair is dropped with the node
            if index >= len(dtypes):
                raise Error('IdentityN "{}" has {} data_types for input {}', name, len(dtypes), index)
            identity = Identity(graph, {'name': '{}/{}_port'.format(name, index),
                                        'data_type': dtypes[index]}).create_node()
            port.get_connection().set_destination(identity.in_port(0))
            node.out_port(index).get_connection().set_source(identity.out_port(0))
        for in_port in node.in_ports().values():
            in_port.disconnect()
        for out_port in node.out_ports().values():
            out_port.disconnect()

    def find_and_replace_pattern(self, graph: Graph):
        for identity_n in graph.get_op_nodes(op='IdentityN'):
            self.replace_identityN(identity_n)
