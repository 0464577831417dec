"""The Model Optimizer's ``extensions.front.FillToBroadcast`` (``openvino.tools.mo.front.`` later), kept for authors'
unit tests.

TensorFlow's ``Fill(dims, value)`` becomes ``Broadcast(value, dims)`` named ``<name>/Broadcast`` (the two inputs
swap), and Caffe2's ``ConstantFill`` (``fill_value`` attribute, ``input_as_shape`` set) becomes
``Broadcast(Const(fill_value), shape)``. mo's TensorFlow front end lowers Fill its own way, so the class is
``legacy_only``.
"""
from mo.front.common.partial_infer.utils import mo_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph
from mo.ops.broadcast import Broadcast
from mo.ops.const import Const
from mo.utils.error import Error


class FillToBroadcast(FrontReplacementPattern):
    """``Fill`` and ``ConstantFill`` -> ``Broadcast``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for fill in graph.get_op_nodes(op='Fill'):
            name = fill.soft_get('name', fill.id)
            broadcast = Broadcast(graph, {'name': name + '/Broadcast'}).create_node()
            fill.in_port(0).get_connection().set_destination(broadcast.in_port(1))
            fill.in_port(1).get_connection().set_destination(broadcast.in_port(0))
            fill.out_port(0).get_connection().set_source(broadcast.out_port(0))

        for fill in graph.get_op_nodes(op='ConstantFill'):
            name = fill.soft_get('name', fill.id)
            if not fill.has_valid('fill_value') or not fill.has_and_set('input_as_shape'):
                raise Error('ConstantFill "{}" needs a fill_value and input_as_shape set', name)
            value = Const(graph, {'value': mo_array(fill.fill_value), 'name': name + '/value'}).create_node()
            broadcast = Broadcast(graph, {'name': name + '/Broadcast'}).create_node()
            fill.in_port(0).get_connection().set_destination(broadcast.in_port(1))
            value.out_port(0).connect(broadcast.in_port(0))
            fill.out_port(0).get_connection().set_source(broadcast.out_port(0))
