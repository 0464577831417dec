"""TF1's TensorArrays (``TensorArrayV3`` and its readers and writers, as ``dynamic_rnn`` and
``dynamic_decode`` write them) as dense tensors, like the tensor lists of ``tensor_list.py``.

A TensorArray is a resource handle plus a "flow" tensor that orders its reads and writes. Here the
flow *is* the array: ``[size, *element shape]``, zeros until written; the handle becomes a dummy
scalar that nothing reads (it still travels through loops as an invariant). A write past the end
grows the array, as one of ``dynamic_size`` does (a fixed-size array would have failed in TF).
"""
import numpy as np

from extensions.front.tf.dense_list import concat_elements, dense_zeros, grow_to_index, split_elements, write_element
from extensions.front.tf.tensor_list import equal_lengths
from mo.utils.shape import int64_array
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.gather import Gather
from mo.ops.shapeof import ShapeOf
from mo.ops.strided_slice import StridedSlice
from mo.ops.tensor_ops import ScatterNDUpdate
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

#: marks the dense array a TensorArrayV3 starts with (a Scatter may only fill a fresh array)
FRESH = 'fresh_tensor_array'


class _ArrayOpExtractor(FrontExtractorOp):
    @classmethod
    def extract(cls, node):
        # the readers name the element type ``dtype``, the writers (Write, Scatter, Split) ``T``
        node['element_dtype'] = tf_dtype_attr(node, 'dtype', None) or tf_dtype_attr(node, 'T', None)
        shape = tf_attr(node, 'element_shape', None)
        node['element_sizes'] = None if shape is None else list(shape)
        return True


class TensorArrayV3Extractor(_ArrayOpExtractor):
    """TensorArrayV3 -> (a dummy handle, zeros [size, *element_shape]): the dense array is the flow."""
    op = 'TensorArrayV3'


class TensorArrayCloseV3Extractor(_ArrayOpExtractor):
    """TensorArrayCloseV3 -> nothing: the dense array is a tensor, closing it frees nothing (the control edges that
    ordered other nodes after it go with it)."""
    op = 'TensorArrayCloseV3'


class TensorArrayScatterV3Extractor(_ArrayOpExtractor):
    """TensorArrayScatterV3 -> ScatterNDUpdate(zeros [size, *value[1:]], indices, value) on a fresh array."""
    op = 'TensorArrayScatterV3'


class TensorArrayGatherV3Extractor(_ArrayOpExtractor):
    """TensorArrayGatherV3 -> Gather(flow, indices, axis 0)."""
    op = 'TensorArrayGatherV3'


class TensorArrayReadV3Extractor(_ArrayOpExtractor):
    """TensorArrayReadV3 -> Gather(flow, index, axis 0)."""
    op = 'TensorArrayReadV3'


class TensorArrayWriteV3Extractor(_ArrayOpExtractor):
    """TensorArrayWriteV3 -> Select(Range(n) == index, value, flow), as TensorListSetItem (the flow grown
    to index + 1 elements first)."""
    op = 'TensorArrayWriteV3'

    @classmethod
    def extract(cls, node):
        super().extract(node)
        node['element_dtype'] = tf_dtype_attr(node, 'T', None)
        return True


class TensorArrayConcatV3Extractor(_ArrayOpExtractor):
    """TensorArrayConcatV3 -> (Reshape(flow, [n * m, *rest]), lengths m each, int64)."""
    op = 'TensorArrayConcatV3'


class TensorArraySplitV3Extractor(_ArrayOpExtractor):
    """TensorArraySplitV3 -> Reshape(value, [count, rows, *rest]) on a fresh array; the lengths must be
    constant and equal."""
    op = 'TensorArraySplitV3'


class TensorArraySizeV3Extractor(_ArrayOpExtractor):
    """TensorArraySizeV3 -> the flow's first dimension, int32."""
    op = 'TensorArraySizeV3'


class ArrayAsZeros(OpRule):
    """TensorArrayV3(size) -> handle 0, flow Broadcast(0, [size, *element_shape])."""
    op = 'TensorArrayV3'

    def rewrite(self, node: Node, b: Builder):
        handle = b.const(0, 'handle', np.int32)
        zeros = dense_zeros(b, node.in_port(0), node.element_sizes, node.element_dtype)
        zeros[FRESH] = True
        return [handle, zeros]


def _flow(node: Node, port: int):
    return node.in_port(port).get_source()


def _fresh_flow(node: Node, port: int):
    """The flow on input ``port``, which must be a fresh array's (a scatter or split fills the whole array)."""
    flow = _flow(node, port)
    if not flow.node.soft_get(FRESH, False) and flow.node.soft_get('op') != 'TensorArrayV3':
        raise Error('{} "{}" writes into an array written before, which mo does not support', node.op,
                    node.soft_get('name', node.id))
    return flow


class ScatterIntoFresh(OpRule):
    """TensorArrayScatterV3(handle, indices, value, fresh flow) -> ScatterNDUpdate(Broadcast(0, [n, *value[1:]]),
    Unsqueeze(indices, -1), value)."""
    op = 'TensorArrayScatterV3'

    def rewrite(self, node: Node, b: Builder):
        flow = _fresh_flow(node, 3)
        flow_shape = b.op(ShapeOf, [flow], 'flow_shape', output_type=np.int64)
        count = b.op(Gather, [flow_shape, b.const([0], 'first', np.int64), b.const(0, 'axis', np.int64)], 'count')
        value = node.in_port(2).get_source()
        value_shape = b.op(ShapeOf, [value], 'value_shape', output_type=np.int64)
        rest = b.op(StridedSlice, [value_shape, b.const([1], 'begin', np.int64), b.const([0], 'end', np.int64),
                                   b.const([1], 'stride', np.int64)], 'element_shape',
                    begin_mask=int64_array([0]), end_mask=int64_array([1]), new_axis_mask=int64_array([0]),
                    shrink_axis_mask=int64_array([0]), ellipsis_mask=int64_array([0]))
        shape = b.op(Concat, [count, rest], 'shape', axis=0)
        zero = b.const(0, 'zero', np.dtype(node.soft_get('element_dtype') or np.float32))
        zeros = b.op(Broadcast, [zero, shape], 'zeros')
        indices = b.op(Unsqueeze, [node.in_port(1), b.const([-1], 'last', np.int64)], 'indices')
        return b.op(ScatterNDUpdate, [zeros, indices, value], 'scatter')


class GatherFromArray(OpRule):
    """TensorArrayGatherV3(handle, indices, flow) -> Gather(flow, indices, axis 0)."""
    op = 'TensorArrayGatherV3'
    flow_port = 2

    def rewrite(self, node: Node, b: Builder):
        axis = b.const(0, 'axis', np.int64)
        return b.op(Gather, [_flow(node, self.flow_port), node.in_port(1), axis], 'gather')


class ReadFromArray(GatherFromArray):
    """TensorArrayReadV3(handle, index, flow) -> Gather(flow, index, axis 0)."""
    op = 'TensorArrayReadV3'


class WriteIntoArray(OpRule):
    """TensorArrayWriteV3(handle, index, value, flow) -> Select(Range(n) == index, value, flow)."""
    op = 'TensorArrayWriteV3'

    def rewrite(self, node: Node, b: Builder):
        value = node.in_port(2).get_source()
        flow = grow_to_index(b, _flow(node, 3), node.in_port(1), value, node.soft_get('element_dtype'))
        return write_element(b, flow.out_port(0), node.in_port(1), value)


class ArraySize(OpRule):
    """TensorArraySizeV3(handle, flow) -> Convert(Gather(ShapeOf(flow), 0), int32)."""
    op = 'TensorArraySizeV3'

    def rewrite(self, node: Node, b: Builder):
        shape = b.op(ShapeOf, [_flow(node, 1)], 'shape', output_type=np.int64)
        first = b.op(Gather, [shape, b.const(0, 'zero', np.int64), b.const(0, 'axis', np.int64)], 'first')
        return b.op(Convert, [first], 'size', dst_type=np.int32)


class ArrayConcat(OpRule):
    """TensorArrayConcatV3(handle, flow) -> (Reshape(flow, [n * m, *rest]), Broadcast(m, [n]))."""
    op = 'TensorArrayConcatV3'

    def rewrite(self, node: Node, b: Builder):
        value, lengths = concat_elements(b, _flow(node, 1))
        return [value, lengths]


class SplitIntoFresh(OpRule):
    """TensorArraySplitV3(handle, value, lengths, fresh flow) -> Reshape(value, [count, rows, *rest])."""
    op = 'TensorArraySplitV3'

    def rewrite(self, node: Node, b: Builder):
        _fresh_flow(node, 3)
        count, rows = equal_lengths(node, 2)
        return split_elements(b, node.in_port(1).get_source(), count, rows)


class ArrayClose(OpRule):
    """TensorArrayCloseV3(handle) -> removed: nothing reads it, it only orders other nodes after it."""
    op = 'TensorArrayCloseV3'

    def rewrite(self, node: Node, b: Builder):
        return []
