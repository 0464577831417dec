"""Extractors for assorted TensorFlow math, sparse, list and loss ops: Rint, MulNoNan, ApproximateEqual, Angle,
SparseTensorDenseAdd, SparseTensorDenseMatMul, TensorListResize, CTCLoss, MatrixInverse and BatchMatrixInverse.

Rint is opset Round (half to even); the others keep their TF name with ``data_type`` and the attributes their rule
reads, and ``assorted_ops_lowering`` builds them from opset ops.
"""
import numpy as np

from extensions.front.tf.lowered_ext import LoweredExtractor
from extensions.ops.matrix_inverse import MatrixInverse
from mo.front.extractor import FrontExtractorOp, opset_type
from mo.front.tf.extractor_utils import tf_attr, tf_dtype_attr
from mo.ops.math_ops import Round

#: TF op -> what assorted_ops_lowering makes of it
PARITY_OPS = {
    'MulNoNan': 'Select(Equal(y, 0), 0, Multiply(x, y)) (0 where y is 0, even where x is inf or NaN)',
    'ApproximateEqual': 'Less(Abs(x - y), tolerance)',
    'Angle': 'Atan2(Imag(z), Real(z)) on the float form [..., 2] of complex z',
    'SparseTensorDenseAdd': 'b + Reshape(ScatterElementsUpdate(zeros, raveled indices, values, sum), shape(b)) '
                            '(duplicate indices add up, as in TF)',
    'SparseTensorDenseMatMul': 'MatMul(the densified A (duplicates add up), B) with adjoint_a/adjoint_b as '
                               'transposes',
    'CTCLoss': 'CTCLoss (opset4) on [batch, time, classes] with the sparse labels made dense (ScatterNDUpdate) '
               'and counted per sequence; blank: the last class; the gradient output is not converted',
    'TensorListResize': 'Slice(Concat(list, zeros [size, *element shape]), 0, size) on the dense list',
}


class RintExtractor(FrontExtractorOp):
    """Rint(x): the nearest integer, ties to even: opset Round with mode half_to_even."""
    op = 'Rint'

    @classmethod
    def describe(cls, op):
        return opset_type(Round) + ' (half_to_even)'

    @classmethod
    def extract(cls, node):
        Round.update_node_stat(node, {'mode': 'half_to_even'})
        return True


class ParityExtractor(LoweredExtractor):
    """The ops of ``PARITY_OPS``, built from opset ops by ``assorted_ops_lowering``."""
    op = sorted(PARITY_OPS)
    table = PARITY_OPS

    @classmethod
    def attributes(cls, node):
        op = node.op
        if op == 'ApproximateEqual':
            return {'tolerance': float(tf_attr(node, 'tolerance', 1e-5))}
        if op == 'Angle':
            return {'out_type': tf_dtype_attr(node, 'Tout', np.float32)}
        if op == 'CTCLoss':
            return {name: bool(tf_attr(node, name, default)) for name, default in (
                ('preprocess_collapse_repeated', False), ('ctc_merge_repeated', True),
                ('ignore_longer_outputs_than_inputs', False))}
        if op == 'SparseTensorDenseMatMul':
            return {'adjoint_a': bool(tf_attr(node, 'adjoint_a', False)),
                    'adjoint_b': bool(tf_attr(node, 'adjoint_b', False))}
        return {}


class MatrixInverseExtractor(FrontExtractorOp):
    """MatrixInverse and BatchMatrixInverse (its old name) with ``adjoint``: the internal op ``MatrixInverse``,
    which ``extensions/middle/matrix_inverse_lowering.py`` unrolls into Gauss-Jordan elimination once n is known
    (real types)."""
    op = ['BatchMatrixInverse', 'MatrixInverse']

    @classmethod
    def describe(cls, op):
        return 'Gauss-Jordan elimination with partial pivoting, unrolled over the static n (opset1 ops: the IR ' \
               'loads in OpenVINO 2023.3, which has no Inverse); adjoint: of the transpose'

    @classmethod
    def extract(cls, node):
        MatrixInverse.update_node_stat(node, {'adjoint': bool(tf_attr(node, 'adjoint', False)),
                                              'data_type': tf_dtype_attr(node, 'T', None)})
        return True
