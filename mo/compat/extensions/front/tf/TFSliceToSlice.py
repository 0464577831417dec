"""The Model Optimizer's ``extensions.front.tf.TFSliceToSlice`` (``openvino.tools.mo.front.tf.`` later), kept for
authors' unit tests.

TensorFlow's ``Slice(x, begin, size)`` (op ``TFSlice``) becomes the Model Optimizer's ``Slice(x, begin, end)``
with ``end = Select(size == -1, ShapeOf(x), Cast<i64>(begin + size))``: a size of -1 means "to the end
of the axis". The Slice takes the node's name. mo's pipeline lowers TFSlice to a StridedSlice
(``extensions.front.tf.tf_slice.TFSliceToSlice``, another class at another path), so this class is
``legacy_only``.
"""
import numpy as np

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementOp
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.graph.graph import Graph, rename_nodes
from mo.ops.Cast import Cast
from mo.ops.elementwise import Add, Equal
from mo.ops.select import Select
from mo.ops.shape import Shape
from mo.ops.slice import Slice


class TFSliceToSliceReplacer(FrontReplacementOp):
    """``TFSlice`` -> ``Slice`` whose ends are computed from begin and size."""
    legacy_only = True
    op = 'TFSlice'
    enabled = True

    def replace_sub_graph(self, graph: Graph, match: dict):
        tf_slice = match['op']
        name = tf_slice.soft_get('name', tf_slice.id)
        slice_node = Slice(graph, {'name': name + '/Slice'}).create_node()
        rename_nodes([(tf_slice, name + '/to_be_removed'), (slice_node, name)])
        ends = Add(graph, {'name': name + '/ends'}).create_node()

        tf_slice.in_port(0).get_connection().set_destination(slice_node.in_port(0))
        tf_slice.in_port(1).get_connection().set_destination(slice_node.in_port(1))
        # ends = begin + size (the Model Optimizer's unit test has begin on port 0 and size on port 1)
        tf_slice.in_port(2).get_connection().set_destination(ends.in_port(1))
        slice_node.in_port(1).get_connection().add_destination(ends.in_port(0))

        input_shape = Shape(graph, {'name': name + '/ShapeOf'}).create_node()
        slice_node.in_port(0).get_connection().add_destination(input_shape.in_port(0))
        # size == -1, element by element (size, begin and the input's shape have one item per axis)
        to_the_end = create_op_with_const_inputs(graph, Equal, {1: int64_array(-1)},
                                                 {'name': name + '/where_max_ends_is_needed'})
        ends.in_port(1).get_connection().add_destination(to_the_end.in_port(0))
        # Select wants both branches of one type: ShapeOf gives i64
        ends_i64 = Cast(graph, {'name': name + '/CastToI64', 'dst_type': np.int64}).create_node()
        ends.out_port(0).connect(ends_i64.in_port(0))
        chosen = Select(graph, {'name': name + '/chosen_ends'}).create_node()
        to_the_end.out_port(0).connect(chosen.in_port(0))
        input_shape.out_port(0).connect(chosen.in_port(1))
        ends_i64.out_port(0).connect(chosen.in_port(2))
        chosen.out_port(0).connect(slice_node.in_port(2))

        tf_slice.out_port(0).get_connection().set_source(slice_node.out_port(0))
