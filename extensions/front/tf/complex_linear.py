"""Complex forms of the linear-algebra and product ops (batched matrix products with their adjoint flags, Einsum,
products and norms along axes, clamps) on the float form [..., 2]: see ``complex_tensors`` for the protocol.

* MatMul (TF's MatMul and the BatchMatMuls, whose adj_x/adj_y are conjugate transposes: their extractor marks
  them ``conjugate_a``/``conjugate_b``), Einsum and SparseTensorDenseMatMul: (A + Bi)(C + Di) = (AC - BD) + (AD + BC)i,
  each product the op itself on real parts;
* MatrixInverse: the inverse of the real block form [[A, -B], [B, A]] is [[X, -Y], [Y, X]], X + Yi the inverse
  of A + Bi (its transpose is the block form of the adjoint, so ``adjoint`` carries over);
* EuclideanNorm: sqrt of the sum of |z|^2, a real number TF returns as complex (imaginary part 0);
* Prod, Cumprod, SegmentProd, UnsortedSegmentProd in polar form: the magnitudes multiply (the real op) and the
  arguments add (its sum counterpart), so empty segments and exclusive ends give 1 + 0i as TF;
* ClipByValue: TF clamps the real and the imaginary parts each between the bounds' parts, which is the float form
  clamped as it is.

The inverse trig and hyperbolic functions live in ``complex_inverse_trig``.
"""
from extensions.front.tf import complex_inverse_trig
from extensions.front.tf.complex_kit import pair, parts, parts_type, shifted_axes, squared_norm
from mo.front.common.formula_kit import I64
from extensions.front.tf.tensor_ext import constant_input
from extensions.ops.matrix_inverse import MatrixInverse
from mo.ops.activation_ops import Sqrt
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.elementwise import Add, Mul, Sub
from mo.ops.gather import Gather
from mo.ops.matmul import Einsum, MatMul
from mo.ops.math_ops import Cos, Sin
from mo.ops.op import Op
from mo.ops.reduce import ReduceProd, ReduceSum
from mo.ops.shapeof import ShapeOf
from mo.ops.split import Split
from mo.ops.tensor_ops import CumSum
from mo.utils.error import Error


def _part(b, z, index: int, tag: str):
    """Part ``index`` (0 real, 1 imaginary) of the float form, without the trailing dimension."""
    return b.op(Gather, [z, b.const(index, tag + '/index', I64), b.const(-1, tag + '/axis', I64)], tag)


def _conjugated_parts(b, z, conjugate: bool, dtype, tag: str):
    """(real, imaginary) parts of ``z`` (of its conjugate when ``conjugate``), without the trailing dimension."""
    real, imag = _part(b, z, 0, tag + '_real'), _part(b, z, 1, tag + '_imag')
    if conjugate:
        imag = b.op(Mul, [imag, b.const(-1, tag + '_imag/minus', dtype)], tag + '_imag_conjugate')
    return real, imag


def _joined(b, real, imag):
    """The float form of real + imag i from parts without the trailing dimension (once per rewrite: the names are
    fixed)."""
    return pair(b, b.unsqueeze(real, [-1], 'real_part'), b.unsqueeze(imag, [-1], 'imag_part'), 'complex')


def _complex_product(b, x, y, product):
    """(a + bi)(c + di) for a bilinear ``product(left, right, tag)`` of real parts: (ac - bd) + (ad + bc)i."""
    (a, bb), (c, d) = x, y
    real = b.op(Sub, [product(a, c, 'ac'), product(bb, d, 'bd')], 'real')
    imag = b.op(Add, [product(a, d, 'ad'), product(bb, c, 'bc')], 'imag')
    return _joined(b, real, imag)


def _internal(b, op: str, inputs: list, tag: str, dtype, **attrs):
    """A node of the internal op ``op`` (one a later front rule lowers) on real parts of type ``dtype``."""
    return b.op(Op, inputs, tag, op=op, data_type=dtype, in_ports_count=len(inputs), out_ports_count=1, **attrs)


# ----- products of matrices -----------------------------------------------------------------------------------
def matmul(node, b):
    """MatMul with transpose_a/transpose_b; ``conjugate_a``/``conjugate_b`` conjugate an operand too (the adjoint
    flags of the BatchMatMuls)."""
    dtype = parts_type(node)
    x = _conjugated_parts(b, node.in_port(0), bool(node.soft_get('conjugate_a', False)), dtype, 'a')
    y = _conjugated_parts(b, node.in_port(1), bool(node.soft_get('conjugate_b', False)), dtype, 'b')
    flags = dict(transpose_a=bool(node.soft_get('transpose_a', False)),
                 transpose_b=bool(node.soft_get('transpose_b', False)))
    return _complex_product(b, x, y, lambda left, right, tag: b.op(MatMul, [left, right], tag, **flags))


def einsum(node, b):
    """Einsum of one operand: the equation on each part; of two: the complex product of Einsums of parts."""
    dtype = parts_type(node)
    ports = [port for _, port in sorted(node.in_ports().items()) if port.is_connected()]
    equation = node.equation

    def product(*operands, tag):
        return b.op(Einsum, list(operands), tag, equation=equation, in_ports_count=len(operands))
    operands = [_conjugated_parts(b, port, False, dtype, 'operand{}'.format(i)) for i, port in enumerate(ports)]
    if len(operands) == 1:
        (real, imag), = operands
        return _joined(b, product(real, tag='real'), product(imag, tag='imag'))
    if len(operands) != 2:
        raise Error('Einsum "{}" on complex tensors: {} operands (TF takes one or two)', b.name, len(operands))
    return _complex_product(b, operands[0], operands[1], lambda left, right, tag: product(left, right, tag=tag))


def sparse_dense_matmul(node, b):
    """SparseTensorDenseMatMul(indices, values, shape, B): the complex product with the real op on parts (the
    lowering densifies A); adjoint_a/adjoint_b transpose and conjugate."""
    dtype = parts_type(node)
    adjoint_a, adjoint_b = bool(node.soft_get('adjoint_a', False)), bool(node.soft_get('adjoint_b', False))
    values = _conjugated_parts(b, node.in_port(1), adjoint_a, dtype, 'a_values')
    dense = _conjugated_parts(b, node.in_port(3), adjoint_b, dtype, 'b')

    def product(left, right, tag):
        return _internal(b, 'SparseTensorDenseMatMul', [node.in_port(0), left, node.in_port(2), right], tag, dtype,
                         adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    return _complex_product(b, values, dense, product)


def matrix_inverse(node, b):
    """The inverse of A + Bi from that of the real block matrix [[A, -B], [B, A]]: [[X, -Y], [Y, X]]."""
    dtype = parts_type(node)
    a, bb = _conjugated_parts(b, node.in_port(0), False, dtype, 'm')
    minus_b = b.op(Mul, [bb, b.const(-1, 'minus', dtype)], 'minus_imag')
    top = b.op(Concat, [a, minus_b], 'block_top', axis=-1, in_ports_count=2)
    bottom = b.op(Concat, [bb, a], 'block_bottom', axis=-1, in_ports_count=2)
    block = b.op(Concat, [top, bottom], 'block', axis=-2, in_ports_count=2)
    inverse = b.op(MatrixInverse, [block], 'block_inverse', adjoint=bool(node.soft_get('adjoint', False)),
                   data_type=dtype)
    rows = b.op(Split, [inverse, b.const(-2, 'rows_axis', I64)], 'rows', num_splits=2)
    left = [b.op(Split, [rows.out_port(k), b.const(-1, tag + '/axis', I64)], tag, num_splits=2).out_port(0)
            for k, tag in ((0, 'real_columns'), (1, 'imag_columns'))]
    return _joined(b, left[0], left[1])


# ----- norms and products along axes --------------------------------------------------------------------------
def euclidean_norm(node, b):
    """EuclideanNorm: sqrt(sum |z|^2) over the axes, + 0i."""
    dtype = parts_type(node)
    summed = b.op(ReduceSum, [squared_norm(b, node.in_port(0), 'squared_norm'), shifted_axes(b, node, 1)], 'sum',
                  keep_dims=bool(node.soft_get('keep_dims', False)))
    norm = b.op(Sqrt, [summed], 'norm')
    zeros = b.op(Broadcast, [b.const(0, 'zero', dtype), b.op(ShapeOf, [norm], 'shape')], 'zero_imag')
    return pair(b, norm, zeros, 'complex')


def _reduction(op_class):
    return lambda node, b, data, dtype, tag: b.op(op_class, [data, shifted_axes(b, node, 1)], tag,
                                                  keep_dims=bool(node.soft_get('keep_dims', False)))


def _cumulative(make):
    return lambda node, b, data, dtype, tag: make(b, [data, shifted_axes(b, node, 1)], tag, dtype,
                                                  exclusive=bool(node.soft_get('exclusive', False)),
                                                  reverse=bool(node.soft_get('reverse', False)))


def _segments(op: str):
    def make(node, b, data, dtype, tag):
        others = [node.in_port(k) for k in sorted(node.in_ports()) if k > 0 and node.is_in_port_connected(k)]
        return _internal(b, op, [data] + others, tag, dtype)
    return make


#: product op -> (how to make the product of the magnitudes, how to make the sum of the arguments), each
#: make(node, b, data, dtype, tag) on real data [..., 1] with the node's axes, flags or segments
_PRODUCTS = {
    'ReduceProd': (_reduction(ReduceProd), _reduction(ReduceSum)),
    'Cumprod': (_cumulative(lambda b, inputs, tag, dtype, **attrs: _internal(b, 'Cumprod', inputs, tag, dtype,
                                                                             **attrs)),
                _cumulative(lambda b, inputs, tag, dtype, **attrs: b.op(CumSum, inputs, tag, **attrs))),
    'SegmentProd': (_segments('SegmentProd'), _segments('SegmentSum')),
    'UnsortedSegmentProd': (_segments('UnsortedSegmentProd'), _segments('UnsortedSegmentSum')),
}


def product(node, b):
    """A product of complex numbers in polar form: r e^(i t) with r the product of the magnitudes and t the sum of
    the arguments (Atan2 of the parts)."""
    dtype = parts_type(node)
    if node.soft_get('op') == 'Cumprod' and constant_input(node, 1) is None:
        raise Error('Node "{}" (Cumprod) on a complex tensor: the axis is computed at run time; mo needs it constant',
                    b.name)
    z = node.in_port(0)
    real, imag = parts(b, z, 'parts')
    magnitude = b.op(Sqrt, [squared_norm(b, z, 'squared_norm')], 'magnitude')
    argument = _internal(b, 'Atan2', [imag, real], 'argument', dtype)
    multiply, add = _PRODUCTS[node.soft_get('op')]
    radius = multiply(node, b, magnitude, dtype, 'magnitude_product')
    angle = add(node, b, argument, dtype, 'argument_sum')
    return pair(b, b.op(Mul, [radius, b.op(Cos, [angle], 'cos')], 'real'),
                b.op(Mul, [radius, b.op(Sin, [angle], 'sin')], 'imag'), 'complex')


def _clamped_parts(node, b):
    """ClipByValue: nothing to change (TF clamps each part between the bounds' parts, as the float form does)."""


#: op -> rewrite(node, b): builds the float form of the node's output 0 and returns that node (or output port)
REWRITES = dict({'MatMul': matmul, 'Einsum': einsum, 'SparseTensorDenseMatMul': sparse_dense_matmul,
                 'MatrixInverse': matrix_inverse, 'EuclideanNorm': euclidean_norm},
                **{op: product for op in _PRODUCTS}, **complex_inverse_trig.REWRITES)
#: op -> edit(node, b): adjusts the node in place for the float form; its connected outputs hold float forms
IN_PLACE = {'ClipByValue': _clamped_parts}
#: ops among the above whose outputs are not complex (a boolean or an index result)
REAL_OUTPUTS = set()
