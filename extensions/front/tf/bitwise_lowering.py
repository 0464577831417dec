"""TensorFlow's Bitcast from opset ops, where it can be: OpenVINO has no op that reinterprets bits.

* a constant input folds (numpy's ``view``, with TF's shape rule when the widths differ);
* between types of one width at run time the node becomes the internal ``Bitcast`` op
  (``extensions/ops/bitcast.py``), which ``extensions/middle/bitcast_lowering.py`` writes once the input's type
  is inferred: a Convert between integers, exact formulas between float16/float32 and integers (an Error for
  the pairs it cannot make exact, such as float64 <-> int64);
* a change of width at run time is an error naming the node.

Keras 3's ``signbit`` on floats (behind ``keras.ops.argmax``) is ``BitwiseAnd(Bitcast(x, int32), int32.min) < 0``:
``SignBitTest`` rewrites that ``BitwiseAnd`` into a sign test of ``x`` before ``BitcastLowering`` sees the Bitcast
(a few ops instead of the whole bit pattern, and float64 too).
"""
import numpy as np

from mo.front.common.formula_kit import F32
from extensions.ops.bitcast import Bitcast as BitcastOp
from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.elementwise import Div, Equal, Less, LogicalAnd, LogicalOr
from mo.ops.select import Select
from mo.utils.error import Error


def tf_bitcast(value: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """TF's Bitcast of a constant: a wider input gains a last dimension (the number of output elements per input
    element); a narrower one loses its last dimension, which must hold that many elements."""
    value = np.ascontiguousarray(value)
    source, target = value.dtype.itemsize, np.dtype(dtype).itemsize
    if source == target:
        return value.view(dtype)
    if source > target:
        return value.view(dtype).reshape(value.shape + (source // target,))
    if not value.shape or value.shape[-1] != target // source:
        raise ValueError('the last dimension must be {}'.format(target // source))
    return value.view(dtype).reshape(value.shape[:-1])


class BitcastLowering(OpRule):
    """Bitcast(x, type): folded for a constant, the internal Bitcast op between types of one width (module
    docstring)."""
    op = 'Bitcast'

    def rewrite(self, node: Node, b: Builder):
        source = np.dtype(node.soft_get('data_type', None) or F32)
        target = np.dtype(node.dst_type)
        producer = b.input(0)
        if producer is not None and producer.node.soft_get('op') == 'Const' and producer.node.has_valid('value') \
                and producer.idx == 0:
            try:
                return b.const(tf_bitcast(np.asarray(producer.node.value).astype(source, copy=False), target),
                               'folded')
            except ValueError as error:
                raise Error('Bitcast "{}" from {} to {}: {}', b.name, source, target, error) from None
        if source == target:
            return node.in_port(0)
        if source.itemsize == target.itemsize:  # written once the input's type is inferred
            BitcastOp.update_node_stat(node, {'dst_type': target})
            return node
        raise Error('Bitcast "{}" from {} to {} is converted only for a constant input or between types of one '
                    'width', b.name, source, target)


def _constant(port):
    """The value of the Const that feeds ``port`` (an input port), else None."""
    if not port.is_connected():
        return None
    source = port.get_source()
    if source.node.soft_get('op') != 'Const' or source.idx != 0 or not source.node.has_valid('value'):
        return None
    return np.asarray(source.node.value)


class SignBitTest(OpRule):
    """``BitwiseAnd(Bitcast(x, int), sign bit)`` with ``x`` a float and the integer of its width (either input
    order) = ``Select(x is negative, sign bit, 0)``: the sign bit of ``x`` where it is set, 0 elsewhere, as the
    bits would give. Keras 3's ``ops.signbit`` (and so ``ops.argmax`` on floats) writes it.

    ``x is negative`` is ``x < 0 or (x == 0 and 1 / x < 0)``: the second part finds -0 (1 / -0 = -inf). A negative
    subnormal is found by either part, also where OpenVINO's CPU plugin treats subnormals as zeros (it keeps their
    sign). A NaN with its sign bit set is not found (no opset13 op reads the sign of a NaN)."""
    op = 'BitwiseAnd'

    @classmethod
    def replaced_key(cls):
        return None  # a pattern, not "the" replacer of BitwiseAnd: a user's BitwiseAnd replacer leaves it be

    def run_before(self):
        return [BitcastLowering]

    def matches(self, node: Node) -> bool:
        return self._sign_bit_of(node) is not None

    @staticmethod
    def _sign_bit_of(node: Node):
        """(the Bitcast, the port of the mask) when ``node`` tests the sign bit of a float, else None."""
        for cast_port, mask_port in ((0, 1), (1, 0)):
            if not node.is_in_port_connected(cast_port):
                continue
            bitcast = node.in_port(cast_port).get_source().node
            mask = _constant(node.in_port(mask_port))
            if bitcast.soft_get('op') != 'Bitcast' or mask is None or mask.ndim != 0:  # one mask: no broadcast
                continue
            float_type = np.dtype(bitcast.soft_get('data_type', None) or F32)
            int_type = np.dtype(bitcast.dst_type)
            if float_type.kind != 'f' or int_type.kind not in 'iu' or float_type.itemsize != int_type.itemsize:
                continue
            sign_bit = np.array(1 << (8 * int_type.itemsize - 1), dtype='u{}'.format(int_type.itemsize))
            if np.all(mask.astype(int_type).view(sign_bit.dtype) == sign_bit):
                return bitcast, mask_port
        return None

    def rewrite(self, node: Node, b: Builder):
        bitcast, mask_port = self._sign_bit_of(node)
        float_type, int_type = np.dtype(bitcast.soft_get('data_type', None) or F32), np.dtype(bitcast.dst_type)
        x = bitcast.in_port(0)
        zero = b.const(0, 'zero', float_type)
        below = b.op(Less, [x, zero], 'below_zero')
        reciprocal = b.op(Div, [b.const(1, 'one', float_type), x], 'reciprocal')
        minus_zero = b.op(LogicalAnd, [b.op(Equal, [x, zero], 'is_zero'),
                                       b.op(Less, [reciprocal, zero], 'reciprocal_negative')], 'minus_zero')
        negative = b.op(LogicalOr, [below, minus_zero], 'negative')
        # the signed type's minimum, converted: OpenVINO's CPU plugin saturates a u32 constant of 2^31 to 2^31 - 1
        signed = np.dtype('i{}'.format(int_type.itemsize))
        bit = b.op(Select, [negative, b.const(np.iinfo(signed).min, 'sign', signed), b.const(0, 'no_sign', signed)],
                   'sign_bit')
        return bit if signed == int_type else b.cast(bit, int_type, 'sign_bit/' + int_type.name)
