"""Floor modulo of floats at the edge values, which OpenVINO's FloorMod misses: ONNX's Mod with fmod=0 and
TensorFlow's FloorMod.

Both frameworks agree with ``numpy.mod`` away from the edges: the remainder takes the divisor's sign, and a
finite dividend over an infinite divisor is the dividend itself when both have the same sign (or the dividend
is zero) and the divisor otherwise (-3 mod inf = inf, 3 mod inf = 3). They differ in the sign of a zero
remainder: numpy's (ONNX's reference) is the divisor's, TensorFlow's the dividend's (-6 mod 3 = -0, as C's
fmod). OpenVINO's FloorMod (``a - floor(a / b) * b``) gives NaN for every infinite divisor and +0 for every
zero remainder. A NaN or infinite dividend and a zero divisor give NaN in all three. Integers need none of
this; so the rule waits for the element type, known after shape inference. The extractors mark the node with
``zero_remainder_sign``: ``'divisor'`` (ONNX) or ``'dividend'`` (TensorFlow).
"""
import numpy as np

from mo.back.ir.ir_types import is_float_type
from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.elementwise import Equal, FloorMod, Less, LogicalAnd, Mul, NotEqual
from mo.ops.math_ops import IsFinite, IsInf
from mo.ops.select import Select


class FloatFloorModEdges(MiddleOpRule):
    """FloorMod(a, b) of floats marked with ``zero_remainder_sign`` ->
    r = Select(IsInf(b) and IsFinite(a), Select(a != 0 and (a < 0) != (b < 0), b, a), FloorMod(a, b)), then
    Select(r == 0, Select(b < 0, -0.0, +0.0), r) for the divisor's sign, Select(r == 0, a * 0, r) for the
    dividend's (a * 0 is a zero with a's sign bit, -0 included)."""
    id = 'FloatFloorModEdges'
    op = 'FloorMod'

    def matches(self, node: Node) -> bool:
        dtype = node.in_port(0).data.get_data_type()
        return node.soft_get('zero_remainder_sign', None) in ('divisor', 'dividend') and dtype is not None and \
            is_float_type(dtype)

    def rewrite(self, node: Node, b: Builder):
        dtype = np.dtype(node.in_port(0).data.get_data_type())
        a, divisor = node.in_port(0).get_source(), node.in_port(1).get_source()
        zero = b.const(np.array(0.0, dtype), 'zero', dtype)
        remainder = b.op(FloorMod, [a, divisor], 'floor_mod')
        divisor_negative = b.op(Less, [divisor, zero], 'divisor_negative')
        # a finite dividend over an infinite divisor: the dividend, or the divisor when the signs differ
        signs_differ = b.op(NotEqual, [b.op(Less, [a, zero], 'dividend_negative'), divisor_negative],
                            'signs_differ')
        takes_divisor = b.op(LogicalAnd, [b.op(NotEqual, [a, zero], 'dividend_nonzero'), signs_differ],
                             'takes_divisor')
        by_infinity = b.op(Select, [takes_divisor, divisor, a], 'by_infinity')
        infinite_case = b.op(LogicalAnd, [b.op(IsInf, [divisor], 'divisor_infinite'),
                                          b.op(IsFinite, [a], 'dividend_finite')], 'infinite_case')
        remainder = b.op(Select, [infinite_case, by_infinity, remainder], 'edges')
        if node.zero_remainder_sign == 'dividend':
            signed_zero = b.op(Mul, [a, zero], 'signed_zero')
        else:
            signed_zero = b.op(Select, [divisor_negative, b.const(np.array(-0.0, dtype), 'minus_zero', dtype),
                                        zero], 'signed_zero')
        is_zero = b.op(Equal, [remainder, zero], 'is_zero')
        return b.op(Select, [is_zero, signed_zero, remainder], 'mod')

