"""The assorted TensorFlow ops of ``assorted_ops_ext`` built from opset ops: MulNoNan, ApproximateEqual, Angle,
SparseTensorDense*, TensorListResize, CTCLoss (each rule's docstring gives its formula).

All are opset ops that OpenVINO 2023.3 reads (the scatter with a sum is ScatterElementsUpdate-12, not opset15's
ScatterNDUpdate with a reduction).
"""
import numpy as np

from extensions.front.tf.fft_ext import real_type
from extensions.front.tf.dense_list import dims
from mo.front.common.formulas import as_int64, row_major_strides
from extensions.ops.ctc_loss import CTCLoss
from extensions.ops.opset_tensor import ScatterElementsUpdate
from mo.front.common.rule import Builder, OpRule, node_dtype
from mo.graph.graph import Node
from mo.ops.activation_ops import Abs
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert, ConvertLike
from mo.ops.elementwise import Add, Equal, Less, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.matmul import MatMul
from mo.ops.op import Op
from mo.ops.reduce import ReduceProd, ReduceSum
from mo.ops.reshape import Reshape
from mo.ops.select import Select
from mo.ops.slice import Slice
from mo.ops.tensor_ops import ScatterNDUpdate
from mo.ops.transpose import Transpose
from mo.utils.error import Error


class MulNoNanLowering(OpRule):
    """MulNoNan(x, y) = Select(Equal(y, 0), 0, Multiply(x, y)): 0 where y is 0 even where x is inf or NaN."""
    op = 'MulNoNan'

    def rewrite(self, node: Node, b: Builder):
        y = node.in_port(1).get_source()
        product = b.op(Mul, [node.in_port(0), node.in_port(1)], 'mul')
        is_zero = b.op(Equal, [y, b.const(0, 'zero')], 'is_zero')
        return b.op(Select, [is_zero, b.const(0, 'zero_result'), product], 'select')


class ApproximateEqualLowering(OpRule):
    """ApproximateEqual(x, y) = Less(Abs(x - y), tolerance)."""
    op = 'ApproximateEqual'

    def rewrite(self, node: Node, b: Builder):
        difference = b.op(Abs, [b.op(Sub, [node.in_port(0), node.in_port(1)], 'sub')], 'abs')
        return b.op(Less, [difference, b.const(node.soft_get('tolerance', 1e-5), 'tolerance')], 'less')


class AngleAsParts(OpRule):
    """Angle(z) = Atan2(Imag(z), Real(z)) for complex z, written with the TF-level Real, Imag and Atan2 before
    ``ComplexTensors`` runs (which gives Real and Imag the float form [..., 2]; their rules and Atan2's follow);
    for a real z (TF's ``tf.math.angle`` definition, which the Angle op itself does not accept) pi where z < 0,
    else 0."""
    op = 'Angle'

    def rewrite(self, node: Node, b: Builder):
        dtype = node.soft_get('data_type', None)
        z = node.in_port(0)
        if dtype is None or not np.issubdtype(np.dtype(dtype), np.complexfloating):
            real = np.dtype(dtype or np.float32)
            negative = b.op(Less, [z, b.const(0, 'zero', real)], 'negative')
            return b.op(Select, [negative, b.const(np.pi, 'pi', real), b.const(0, 'zero_angle', real)], 'angle')
        part_type = real_type(dtype)
        imag = b.op(Op, [z], 'imag', op='Imag', data_type=part_type, in_ports_count=1, out_ports_count=1)
        real = b.op(Op, [z], 'real', op='Real', data_type=part_type, in_ports_count=1, out_ports_count=1)
        return b.op(Op, [imag, real], 'atan2', op='Atan2', data_type=part_type, in_ports_count=2,
                    out_ports_count=1)


def densified(b: Builder, indices, values, dims, dtype):
    """The dense tensor of shape ``dims`` (int64 vector) holding the sum of the ``values`` at each of the
    ``indices`` [N, rank] (0 elsewhere): the indices raveled with row-major strides, a ScatterElementsUpdate-12
    with a sum into zeros of the flat size, reshaped."""
    rows = as_int64(b, indices, 'indices_i64')
    strides = row_major_strides(b, dims, np.int64, 'strides')
    flat = b.op(ReduceSum, [b.op(Mul, [rows, strides], 'scaled'), b.const([1], 'index_axis', np.int64)], 'flat',
                keep_dims=False)
    size = b.op(ReduceProd, [dims, b.const([0], 'size_axis', np.int64)], 'size', keep_dims=True)
    zeros = b.op(Broadcast, [b.const(0, 'zero', dtype), size], 'zeros')
    summed = b.op(ScatterElementsUpdate, [zeros, flat, values, b.const(0, 'axis', np.int64)], 'scatter_sum',
                  reduction='sum', use_init_val=True)
    return b.op(Reshape, [summed, dims], 'dense', special_zero=False)


class SparseTensorDenseAddLowering(OpRule):
    """SparseTensorDenseAdd(a_indices, a_values, a_shape, b) = b + the dense A (its duplicate indices summed)."""
    op = 'SparseTensorDenseAdd'

    def rewrite(self, node: Node, b: Builder):
        dense = densified(b, node.in_port(0), node.in_port(1), b.shape_of(node.in_port(3), 'b_shape'),
                          node_dtype(node))
        return b.op(Add, [node.in_port(3), dense], 'add')


class SparseTensorDenseMatMulLowering(OpRule):
    """SparseTensorDenseMatMul(a_indices, a_values, a_shape, b) = MatMul(dense A, B) with adjoint_a/adjoint_b
    (real types: transposes) as MatMul's transpose_a/transpose_b; duplicate indices of A add up, as in TF."""
    op = 'SparseTensorDenseMatMul'

    def rewrite(self, node: Node, b: Builder):
        dims = as_int64(b, node.in_port(2), 'a_shape')
        dense = densified(b, node.in_port(0), node.in_port(1), dims, node_dtype(node))
        return b.op(MatMul, [dense, node.in_port(3)], 'matmul', transpose_a=bool(node.soft_get('adjoint_a', False)),
                    transpose_b=bool(node.soft_get('adjoint_b', False)))


class ListResizeAsSlice(OpRule):
    """TensorListResize(list, size) on the dense list [n, *S]: Slice(Concat(list, zeros [size, *S]), 0, size) along
    the first axis (truncated when size < n, padded with zeros when larger, as TF's new elements read)."""
    op = 'TensorListResize'

    def rewrite(self, node: Node, b: Builder):
        lst = node.in_port(0).get_source()
        size = b.op(Reshape, [b.op(Convert, [node.in_port(1)], 'size_i64', dst_type=np.dtype(np.int64)),
                              b.const([1], 'one', np.int64)], 'size')
        element = dims(b, b.shape_of(lst, 'list_shape'), 1, None, 'element_shape')
        zero = b.op(ConvertLike, [b.const(0, 'zero', np.float32), lst], 'zero')
        zeros = b.op(Broadcast, [zero, b.op(Concat, [size, element], 'zeros_shape', axis=0, in_ports_count=2)],
                     'zeros')
        padded = b.op(Concat, [lst, zeros], 'padded', axis=0, in_ports_count=2)
        return b.op(Slice, [padded, b.const([0], 'start', np.int64), size, b.const([1], 'step', np.int64),
                            b.const([0], 'axes', np.int64)], 'resized')


class CTCLossLowering(OpRule):
    """CTCLoss(logits [T, B, C], labels_indices [K, 2], labels_values [K], sequence_length [B]) -> CTCLoss-4 on the
    logits [B, T, C] with the labels dense [B, T] (a ScatterNDUpdate into zeros) and each sequence's
    label count (a ScatterElementsUpdate-12 sum of ones); the blank is the last class, as in TF. Output 0 only: the
    gradient (output 1) is training's."""
    op = 'CTCLoss'

    def rewrite(self, node: Node, b: Builder):
        if node.is_out_port_connected(1):
            raise Error('CTCLoss "{}": its gradient output is read; mo converts the loss (output 0) only', b.name)
        if node.soft_get('ignore_longer_outputs_than_inputs', False):
            raise Error('CTCLoss "{}": ignore_longer_outputs_than_inputs=True (a zero loss where the labels do not '
                        'fit the sequence) is not converted', b.name)
        logits = b.op(Transpose, [node.in_port(0), b.const([1, 0, 2], 'batch_major_order', np.int64)], 'batch_major')
        indices = as_int64(b, node.in_port(1), 'indices_i64')
        rows = b.op(Gather, [indices, b.const(0, 'row_column', np.int64), b.const(1, 'column_axis', np.int64)],
                    'label_rows')
        logits_shape = b.shape_of(logits, 'logits_shape')
        batch = dims(b, logits_shape, 0, 1, 'batch')
        labels = b.op(ScatterNDUpdate, [
            b.op(Broadcast, [b.const(0, 'zero_label', np.int32), dims(b, logits_shape, 0, 2, 'labels_shape')],
                 'no_labels'),
            indices, b.op(Convert, [node.in_port(2)], 'values_i32', dst_type=np.dtype(np.int32))], 'labels')
        ones = b.op(Broadcast, [b.const(1, 'one_label', np.int32), b.shape_of(rows, 'label_count')], 'ones')
        counts = b.op(ScatterElementsUpdate, [b.op(Broadcast, [b.const(0, 'zero_count', np.int32), batch], 'zeros'),
                                              rows, ones, b.const(0, 'count_axis', np.int64)], 'label_length',
                      reduction='sum', use_init_val=True)
        lengths = b.op(Convert, [node.in_port(3)], 'logit_length', dst_type=np.dtype(np.int32))
        loss = b.op(CTCLoss, [logits, lengths, labels, counts], 'loss',
                    preprocess_collapse_repeated=bool(node.soft_get('preprocess_collapse_repeated', False)),
                    ctc_merge_repeated=bool(node.soft_get('ctc_merge_repeated', True)), unique=False)
        return [loss, None]
