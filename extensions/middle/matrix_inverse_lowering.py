"""MatrixInverse (TF's MatrixInverse / BatchMatrixInverse) as Gauss-Jordan elimination with partial pivoting,
unrolled over the n columns of ``[..., n, n]`` once shape inference knows n (opset14's Inverse would be one op, but
the IRs must load in OpenVINO 2023.3).

M = [A | I] (``[..., n, 2n]``; with ``adjoint`` A is transposed first, a MatMul with the identity). For each column
k: the pivot row p is the one of largest |M[i, k]| among i >= k (TopK, first of equals); rows k and p are swapped
by the permutation P = I - d d^T with d = e_p - e_k (P = I when p = k), a MatMul; row k is divided by its pivot,
r = M[k] / M[k, k], and every other row loses its multiple of r: M -= (M[:, k] - e_k) r (row k becomes r). The
right half of M is then the inverse. Each column costs about twenty ops; n above ``MAX_N`` is refused.
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.activation_ops import Abs
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.convert import Convert
from mo.ops.elementwise import Div, Equal, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.matmul import MatMul
from mo.ops.nn_ops import TopK
from mo.ops.select import Select
from mo.ops.shapeof import ShapeOf
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

#: the largest matrix the elimination is unrolled for
MAX_N = 64
_I64 = np.int64


class MatrixInverseLowering(MiddleOpRule):
    """MatrixInverse(A) -> Gauss-Jordan elimination with partial pivoting (module docstring)."""
    id = 'MatrixInverseLowering'
    op = 'MatrixInverse'

    def rewrite(self, node: Node, b: Builder):
        shape = node.in_port(0).data.get_shape()
        dtype = node.in_port(0).data.get_data_type() or node.soft_get('data_type', None) or np.float32
        dtype = np.dtype(dtype)
        if shape is None or len(shape) < 2 or any(d is None or int(d) < 0 for d in shape[-2:]):
            raise Error('MatrixInverse "{}": the matrix size must be known at conversion time (the inverse is '
                        'unrolled over it); got shape {}', b.name, shape)
        n = int(shape[-1])
        if n != int(shape[-2]):
            raise Error('MatrixInverse "{}": the matrices must be square, got shape {}', b.name, shape)
        if n > MAX_N:
            raise Error('MatrixInverse "{}": mo unrolls the inverse for matrices up to {}x{}, not {}x{}', b.name,
                        MAX_N, MAX_N, n, n)
        if dtype.kind != 'f':
            raise Error('MatrixInverse "{}": mo inverts real matrices, not {}', b.name, dtype)

        def const(value, suffix, kind=dtype):
            return b.const(np.asarray(value, dtype=kind), suffix, kind)

        def unsqueeze(x, axis, suffix):
            return b.op(Unsqueeze, [x, const([axis], suffix + '/axis', _I64)], suffix)

        def gather(x, index, axis, suffix):
            return b.op(Gather, [x, const(index, suffix + '/index', _I64), const(axis, suffix + '/axis', _I64)],
                        suffix)

        eye = const(np.eye(n), 'eye')
        a = node.in_port(0)
        if node.soft_get('adjoint', False):
            a = b.op(MatMul, [a, eye], 'transposed', transpose_a=True)
        identity = b.op(Broadcast, [eye, b.op(ShapeOf, [a], 'shape', output_type=_I64)], 'identity')
        m = b.op(Concat, [a, identity], 'augmented', axis=-1, in_ports_count=2)
        positions = const(np.arange(n), 'positions', np.int32)
        for k in range(n):
            tag = 'column_{}'.format(k)
            e_k = const(np.eye(n)[k], tag + '/e_k')
            # the pivot: largest |M[i, k]| for i >= k
            magnitude = b.op(Abs, [gather(m, k, -1, tag + '/column')], tag + '/magnitude')
            candidates = b.op(Select, [const(np.arange(n) >= k, tag + '/below', np.bool_), magnitude,
                                       const(-1, tag + '/excluded')], tag + '/candidates')
            top = b.op(TopK, [candidates, b.const(np.int64(1), tag + '/k', _I64)], tag + '/pivot_row', axis=-1,
                       mode='max', sort='value', index_element_type='i32')
            e_p = b.op(Convert, [b.op(Equal, [positions, top.out_port(1)], tag + '/is_pivot')], tag + '/e_p',
                       dst_type=dtype)
            d = b.op(Sub, [e_p, e_k], tag + '/d')
            swap = b.op(Sub, [eye, b.op(Mul, [unsqueeze(d, -1, tag + '/d_column'), unsqueeze(d, -2, tag + '/d_row')],
                                        tag + '/dd')], tag + '/swap')
            m = b.op(MatMul, [swap, m], tag + '/swapped')
            row = gather(m, k, -2, tag + '/row')
            pivot = unsqueeze(gather(row, k, -1, tag + '/pivot'), -1, tag + '/pivot_column')
            r = b.op(Div, [row, pivot], tag + '/r')
            factors = b.op(Sub, [gather(m, k, -1, tag + '/factors_and_pivot'), e_k], tag + '/factors')
            update = b.op(Mul, [unsqueeze(factors, -1, tag + '/factor_column'), unsqueeze(r, -2, tag + '/r_row')],
                          tag + '/update')
            m = b.op(Sub, [m, update], tag + '/eliminated')
        return b.op(Gather, [m, const(np.arange(n, 2 * n), 'inverse_columns', _I64), const(-1, 'last_axis', _I64)],
                    'inverse')
