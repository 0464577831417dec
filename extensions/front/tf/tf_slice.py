"""TensorFlow's Slice(input, begin, size) becomes opset8 Slice(input, begin, stop, step=1).

``stop = begin + size``, except that a size of -1 means "to the end". With constant begin/size this is
computed here (the end is the largest index value, which Slice clamps); otherwise a small
Equal/Add/Select sub-graph computes it (it folds when the inputs become constant later), and the end is
the dimension itself: the CPU plugin's Slice returns nothing for a stop near the type's largest value
computed at run time.
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.convert import Convert
from mo.ops.elementwise import Add, bool_type_infer, Equal
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.slice import Slice
from extensions.front.tf.tensor_ext import constant_input


class TFSliceToSlice(OpRule):
    """Slice(x, begin, size) = Slice-8(x, begin, size == -1 ? the end : begin + size, 1)."""
    op = 'TFSlice'

    def rewrite(self, node: Node, b: Builder):
        dtype = np.dtype(node.soft_get('index_type', None) or np.int32)
        largest = np.iinfo(dtype).max
        begin, size = constant_input(node, 1), constant_input(node, 2)
        if begin is not None and size is not None:
            begin = np.asarray(begin, dtype=dtype)
            size = np.asarray(size, dtype=dtype)
            stop = b.const(np.where(size == -1, largest, begin.astype(np.int64) + size).astype(dtype), 'port_2')
            step = b.const(np.ones_like(begin), 'port_3')
        else:
            is_rest = b.op(Equal, [node.in_port(2), b.const(-1, 'SizeIsRest/port_1', dtype)], 'SizeIsRest',
                           type_infer=bool_type_infer)
            end = b.op(Add, [node.in_port(1), node.in_port(2)], 'End')
            dims = b.op(Convert, [b.op(ShapeOf, [node.in_port(0)], 'InputShape')], 'Dims', dst_type=dtype)
            stop = b.op(Select, [is_rest, dims, end], 'Stop')
            begin_shape = b.op(ShapeOf, [node.in_port(1)], 'BeginShape')
            step = b.op(Broadcast, [b.const(1, 'Step/port_0', dtype), begin_shape], 'Step')
        return b.op(Slice, [node.in_port(0), node.in_port(1), stop, step], 'Slice')
