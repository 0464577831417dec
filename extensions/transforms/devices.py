"""Transforms that edit device placement: remove_device, set_device."""
from mo.transforms.base import GraphTransform


def _op_nodes(graph):
    return [n for n, d in graph.nodes(data=True) if d.get('kind') == 'op']


class RemoveDevice(GraphTransform):
    """Clear the device of every node."""
    transform_name = 'remove_device'

    def transform(self, graph, context):
        for node_id in _op_nodes(graph):
            graph.nodes[node_id]['device'] = ''


class SetDevice(GraphTransform):
    """Place every node (with ``if_default=true``: every node without a device) on ``device``."""
    transform_name = 'set_device'
    arguments = ('device', 'if_default')

    def transform(self, graph, context):
        device = context.get_one_string('device', '')
        only_unplaced = context.get_bool('if_default', False)
        for node_id in _op_nodes(graph):
            attrs = graph.nodes[node_id]
            if not only_unplaced or not attrs.get('device'):
                attrs['device'] = device
